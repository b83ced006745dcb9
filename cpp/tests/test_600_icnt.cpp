// 66x: crossbar interconnect.
#include <vector>

#include "base/error.h"
#include "config/gpu_config.h"
#include "icnt/interconnect.h"
#include "tests/harness.h"

using namespace accelsim;
using namespace accelsim::icnt;

namespace {
struct Msg {
  uint32_t id;
  uint64_t addr;
};
using Xbar = Crossbar<Msg>;

CrossbarConfig small(uint32_t n, uint32_t m, uint32_t in_flits = 16, uint32_t out_flits = 16) {
  CrossbarConfig c;
  c.sources = n;
  c.destinations = m;
  c.flit_bytes = 32;
  c.in_buffer_flits = in_flits;
  c.out_buffer_flits = out_flits;
  c.latency = 5;
  return c;
}

// Ticks [from, to) and pops everything deliverable at every destination.
void run(Xbar& x, int64_t from, int64_t to, std::vector<Xbar::Packet>& got) {
  for (int64_t c = from; c < to; ++c) {
    x.tick(Cycle(c));
    Xbar::Packet p;
    for (uint32_t d = 0; d < x.config().destinations; ++d)
      while (x.pop(d, Cycle(c), p)) got.push_back(p);
  }
}
}  // namespace

TEST_CASE("660-traversal-latency-and-flit-serialisation") {
  Xbar x(small(2, 2), "icnt");
  CHECK(x.push(0, 1, 8, Msg{1, 0x100}));
  x.tick(Cycle(0));
  Xbar::Packet p;
  for (int64_t c = 0; c < 5; ++c) CHECK(!x.pop(1, Cycle(c), p));
  CHECK(x.pop(1, Cycle(5), p));  // latency after its only flit crossed at cycle 0
  CHECK_EQ(p.payload.id, 1u);
  CHECK_EQ(p.payload.addr, uint64_t{0x100});
  CHECK_EQ(p.src, 0u);
  CHECK(x.push(1, 0, 96, Msg{2, 0}));  // three 32 B flits: cross at 10, 11, 12
  std::vector<Xbar::Packet> got;
  run(x, 10, 30, got);
  CHECK_EQ(got.size(), size_t{1});
  CHECK_EQ(got[0].ready_cycle, int64_t{12 + 5});
  CHECK_EQ(x.source_counter(1, PortCounter::flits), uint64_t{3});
  CHECK(x.idle());
}

TEST_CASE("661-one-flit-per-output-per-cycle") {
  Xbar x(small(4, 2), "icnt");
  for (uint32_t s = 0; s < 4; ++s) CHECK(x.push(s, 0, 32, Msg{s, 0}));
  CHECK(x.push(3, 1, 32, Msg{9, 0}));  // behind source 3's packet to output 0
  std::vector<Xbar::Packet> got;
  run(x, 0, 30, got);
  CHECK_EQ(got.size(), size_t{5});
  std::vector<int64_t> ready0;
  for (const auto& p : got)
    if (p.payload.id != 9) ready0.push_back(int64_t(p.ready_cycle.count()));
  CHECK(ready0 == (std::vector<int64_t>{5, 6, 7, 8}));
  CHECK_EQ(x.destination_counter(0, PortCounter::flits), uint64_t{4});
  // Head-of-line: source 3 waited for output 0 before its packet to output 1.
  CHECK(x.source_counter(3, PortCounter::stall_cycles) >= 3);
}

TEST_CASE("662-round-robin-fairness") {
  Xbar x(small(4, 1, 8, 64), "icnt");
  std::vector<uint64_t> delivered(4, 0);
  Xbar::Packet p;
  for (int64_t c = 0; c < 4000; ++c) {
    for (uint32_t s = 0; s < 4; ++s)
      if (x.can_push(s, 32)) x.push(s, 0, 32, Msg{s, 0});
    x.tick(Cycle(c));
    while (x.pop(0, Cycle(c), p)) ++delivered[p.src];
  }
  for (uint32_t s = 0; s < 4; ++s) {
    CHECK(delivered[s] >= 995 && delivered[s] <= 1000);
    CHECK(x.source_counter(s, PortCounter::stall_cycles) > 2900);
  }
}

TEST_CASE("663-back-pressure-stalls-sender-without-loss") {
  Xbar x(small(1, 1, 4, 2), "icnt");
  uint32_t pushed = 0;
  for (int64_t c = 0; c < 50; ++c) {  // nobody pops the output
    while (x.can_push(0, 32)) CHECK(x.push(0, 0, 32, Msg{pushed++, 0}));
    x.tick(Cycle(c));
  }
  CHECK_EQ(pushed, 6u);  // 2 in the output buffer + 4 waiting at the input
  CHECK(!x.can_push(0, 32));
  CHECK(!x.push(0, 0, 32, Msg{99, 0}));
  CHECK_EQ(x.destination_counter(0, PortCounter::stall_cycles), uint64_t{48});  // full from cycle 2
  std::vector<Xbar::Packet> got;
  run(x, 50, 100, got);
  CHECK_EQ(got.size(), size_t{6});
  for (uint32_t i = 0; i < 6; ++i) CHECK_EQ(got[i].payload.id, i);  // in order, none lost
  CHECK(x.idle());
  CHECK_EQ(x.next_event_cycle(), kIcntNever);
}

TEST_CASE("664-request-and-reply-networks-are-independent") {
  config::GpuConfig g;
  g.sm_count = 4;
  g.memory_partitions = 2;
  g.l2_slices_per_partition = 2;
  Interconnect<Msg, Msg> net(request_network(g), reply_network(g), "gpu.icnt");
  CHECK_EQ(net.request().config().sources, 4u);
  CHECK_EQ(net.request().config().destinations, 4u);
  // Flood the request network towards slice 0 with nobody draining it.
  uint32_t n = 0;
  while (net.request().can_push(n % 4, 32)) {
    CHECK(net.request().push(n % 4, 0, 32, Msg{n, 0}));
    ++n;
  }
  CHECK(net.reply().push(2, 3, 32, Msg{7, 0}));
  Crossbar<Msg>::Packet p;
  int64_t c = 0;
  for (; c < 100 && !net.reply().pop(3, Cycle(c), p); ++c) net.tick(Cycle(c));
  CHECK_EQ(c, int64_t{g.icnt_latency});  // reply latency unaffected
  CHECK(!net.idle());
}

TEST_CASE("665-oversized-packet-and-bad-config-are-errors") {
  Xbar x(small(1, 1, 2, 2), "icnt");
  CHECK_THROWS(x.push(0, 0, 96, Msg{0, 0}), Error);
  CrossbarConfig c = small(1, 1);
  c.flit_bytes = 0;
  CHECK_THROWS(Xbar(c, "bad"), ConfigError);
}

TEST_CASE("666-random-traffic-no-loss-in-order-bounded-rate") {
  Xbar x(small(6, 3, 6, 4), "icnt");
  uint64_t seed = 4242;
  auto rnd = [&seed] {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
  };
  std::vector<std::vector<uint32_t>> next_seq(6, std::vector<uint32_t>(3, 0)), sent = next_seq;
  std::vector<int64_t> push_cycle(1 << 16, 0);
  uint32_t id = 0;
  const int64_t cycles = 20000;
  for (int64_t c = 0; c < cycles + 500; ++c) {
    for (uint32_t s = 0; s < 6 && c < cycles; ++s) {
      const uint64_t r = rnd();
      const uint32_t d = (r >> 8) % 3, bytes = 32 * (1 + (r >> 12) % 3);
      if ((r & 3) == 0 && x.can_push(s, bytes)) {
        // addr carries the per-(src, dst) sequence number.
        CHECK(x.push(s, d, bytes, Msg{id, sent[s][d]++}));
        push_cycle[id++] = c;
      }
    }
    x.tick(Cycle(c));
    Xbar::Packet p;
    for (uint32_t d = 0; d < 3; ++d)
      while ((rnd() & 1) && x.pop(d, Cycle(c), p)) {
        CHECK_EQ(p.payload.addr, uint64_t{next_seq[p.src][d]++});  // in order, none lost
        CHECK(c >= push_cycle[p.payload.id] + p.flits - 1 + 5);     // latency after the last flit
      }
  }
  CHECK(x.idle());
  CHECK(next_seq == sent);
  for (uint32_t d = 0; d < 3; ++d)
    CHECK(x.destination_counter(d, PortCounter::flits) <= static_cast<uint64_t>(cycles + 500));
}

TEST_CASE("667-input-lanes-let-a-port-pass-a-blocked-head") {
  // Source 1 holds output 0 with a long packet; source 0's head also wants
  // output 0, its next packet output 1. One FIFO: that packet waits behind
  // the blocked head. Two lanes (by destination): it crosses at once.
  for (uint32_t lanes : {1u, 2u}) {
    CrossbarConfig cfg = small(2, 2);
    cfg.input_lanes = lanes;
    Xbar x(cfg, "icnt");
    CHECK(x.push(1, 0, 32 * 8, Msg{1, 0}));  // 8 flits to output 0
    x.tick(Cycle(0));                        // source 1 takes output 0
    CHECK(x.push(0, 0, 32, Msg{2, 0}));
    CHECK(x.push(0, 1, 32, Msg{3, 0}));
    std::vector<Xbar::Packet> got;
    run(x, 1, 40, got);
    int64_t to_output1 = -1;
    for (const auto& p : got)
      if (p.payload.id == 3) to_output1 = int64_t(p.ready_cycle.count());
    CHECK_EQ(to_output1, lanes == 1 ? int64_t{8 + 1 + 5} : int64_t{1 + 5});
    CHECK(x.idle());
  }
}

namespace {
// Random traffic from n sources to m outputs through `lanes` lanes per port:
// nothing lost, each source's packets to one output arrive in order, and a
// source sends and an output takes at most one flit per cycle.
void lanes_random_traffic(uint32_t n, uint32_t m, uint32_t lanes, uint64_t seed) {
  CrossbarConfig cfg = small(n, m, 6, 4);
  cfg.input_lanes = lanes;
  Xbar x(cfg, "icnt");
  auto rnd = [&seed] {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
  };
  std::vector<std::vector<uint32_t>> next_seq(n, std::vector<uint32_t>(m, 0)), sent = next_seq;
  std::vector<uint64_t> flits_before(n, 0), taken_before(m, 0);
  uint32_t id = 0;
  const int64_t cycles = 20000;
  for (int64_t c = 0; c < cycles + 500; ++c) {
    for (uint32_t s = 0; s < n && c < cycles; ++s) {
      const uint64_t r = rnd();
      const uint32_t d = uint32_t((r >> 8) % m), bytes = 32 * (1 + (r >> 12) % 3);
      if ((r & 3) == 0 && x.can_push(s, bytes)) CHECK(x.push(s, d, bytes, Msg{id++, sent[s][d]++}));
    }
    x.tick(Cycle(c));
    for (uint32_t s = 0; s < n; ++s) {
      const uint64_t f = x.source_counter(s, PortCounter::flits);
      CHECK(f - flits_before[s] <= 1);
      flits_before[s] = f;
    }
    for (uint32_t d = 0; d < m; ++d) {
      const uint64_t f = x.destination_counter(d, PortCounter::flits);
      CHECK(f - taken_before[d] <= 1);
      taken_before[d] = f;
    }
    Xbar::Packet p;
    for (uint32_t d = 0; d < m; ++d)
      while ((rnd() & 1) && x.pop(d, Cycle(c), p)) CHECK_EQ(p.payload.addr, uint64_t{next_seq[p.src][d]++});
  }
  CHECK(x.idle());
  CHECK(next_seq == sent);
}
}  // namespace

TEST_CASE("668-lanes-random-traffic-no-loss-in-order-one-flit-per-port") { lanes_random_traffic(6, 3, 3, 777); }

// A V100's port counts (80 SMs, 64 slices) and its 8 lanes, and many lanes.
TEST_CASE("669-lanes-random-traffic-at-gpu-port-counts") {
  lanes_random_traffic(80, 64, 8, 4242);
  lanes_random_traffic(64, 80, 8, 99);
  lanes_random_traffic(20, 30, 30, 5);
}
