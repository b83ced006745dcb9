// 381-382: warp schedulers register themselves (sched/*.cpp); the config's
// declared choices and the registry name the same policies.
#include <string>

#include "base/error.h"
#include "config/gpu_config.h"
#include "sm/sched/warp_scheduler.h"
#include "tests/harness.h"

using namespace accelsim;

TEST_CASE("381-every-scheduler-registers-itself-and-builds") {
  std::string names;
  for (const sm::SchedulerPolicy& p : sm::scheduler_policies()) {
    names += (names.empty() ? "" : "|") + std::string(p.name);
    CHECK(std::string(p.description).size() > 10);
    auto s = sm::make_scheduler(p.name, {});
    s->add_warp(3);
    s->add_warp(5);
    CHECK_EQ(s->order().size(), size_t{2});
  }
  CHECK_EQ(names, std::string("gto|lrr|two_level"));  // sorted by name, whatever the link order
  // The config declares the same choices (config sits below the SM, so it
  // cannot ask the registry; this keeps the two lists equal).
  for (const config::ParamDecl& d : config::param_decls())
    if (std::string(d.name) == "scheduler") {
      std::string declared = d.choices, sorted;
      for (const char* n : {"gto", "lrr", "two_level"}) CHECK(declared.find(n) != std::string::npos);
      CHECK_EQ(declared.size(), names.size());
    }
}

TEST_CASE("382-unknown-scheduler-lists-the-registered-ones") {
  try {
    sm::make_scheduler("fifo", {});
    CHECK(false);
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    CHECK(what.find("'fifo'") != std::string::npos);
    CHECK(what.find("known: gto, lrr, two_level") != std::string::npos);
  }
}
