#include "signals.h"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdint>
#include <ctime>
#include <thread>

#include "runtime.h"

namespace accelsim::cudart {

namespace {

std::atomic<bool> g_interrupted{false};
std::atomic<int64_t> g_first_ns{0};
int g_pipe[2] = {-1, -1};
// A terminal's Ctrl-C reaches the program twice: directly and as the copy the
// launcher forwards (it forwards so that a SIGINT sent to it alone, by kill or
// a job scheduler, stops the program too). Copies this close are one Ctrl-C.
constexpr int64_t kSameCtrlC_ns = 500'000'000;

int64_t now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);  // async-signal-safe
  return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

void on_sigint(int) {
  if (g_interrupted.load()) {
    if (now_ns() - g_first_ns.load() < kSameCtrlC_ns) return;
    std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C ends the program at once
    raise(SIGINT);
    return;
  }
  g_first_ns.store(now_ns());
  g_interrupted.store(true);
  const char byte = 1;
  if (g_pipe[1] >= 0) (void)!write(g_pipe[1], &byte, 1);
}

void watch() {
  char byte;
  while (read(g_pipe[0], &byte, 1) < 0) {
  }
  Runtime& rt = Runtime::get();
  std::lock_guard<std::recursive_mutex> lock(rt.mu);  // after any API call in progress
  rt.fatal("interrupted (Ctrl-C): the result holds the run so far", 130);
}

}  // namespace

void install_signal_handlers() {
  if (pipe(g_pipe) != 0) return;
  std::thread(watch).detach();
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
}

bool interrupt_requested() { return g_interrupted.load(std::memory_order_relaxed); }

}  // namespace accelsim::cudart
