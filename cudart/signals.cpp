#include "signals.h"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <thread>

#include "runtime.h"

namespace accelsim::cudart {

namespace {

std::atomic<bool> g_interrupted{false};
int g_pipe[2] = {-1, -1};

void on_sigint(int) {
  g_interrupted.store(true);
  std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C ends the program at once
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
