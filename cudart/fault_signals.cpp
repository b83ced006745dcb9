// A program that dies of a signal in its own host code (SIGSEGV, SIGBUS,
// SIGFPE, SIGILL, SIGABRT) would leave only "exit status -11". The handler
// names the signal, says what it means and where (host code or inside a CUDA
// call), and when the faulting address is simulated device memory says so:
// host code dereferencing a cudaMalloc pointer is the usual cause under a
// simulator. Then the signal's default action ends the program as before
// (the launcher sees the same status). Only async-signal-safe calls here:
// write(2) of text built in a stack buffer, atomics, syscall(gettid).
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstring>

#include "ptx/device_memory.h"
#include "signals.h"

namespace accelsim::cudart {

namespace {

std::atomic<uint64_t> g_device_end{ptx::DeviceMemory::kHeapBase};
std::atomic<long> g_api_thread{0};

struct FaultSignal {
  int sig;
  const char* name;
  const char* meaning;
  bool has_address;  // si_addr is the faulting data address
};

constexpr FaultSignal kFaults[] = {
    {SIGSEGV, "SIGSEGV", "segmentation fault: a read or write of memory the process may not touch", true},
    {SIGBUS, "SIGBUS", "bus error: an access to memory that cannot be backed (a misaligned or truncated mapping)",
     true},
    {SIGFPE, "SIGFPE", "arithmetic exception: an integer division by zero or overflow", false},
    {SIGILL, "SIGILL", "illegal instruction: the CPU met an instruction it cannot run (corrupted code or a "
                       "CPU feature this machine lacks)", false},
    {SIGABRT, "SIGABRT", "abort: the program called abort(), e.g. a failed assert() or an uncaught C++ exception",
     false},
};

// A stack buffer that text is appended to, then written to stderr at once.
struct Line {
  char buf[1024];
  size_t n = 0;
  void add(const char* s) {
    for (; *s && n < sizeof(buf); ++s) buf[n++] = *s;
  }
  void hex(uint64_t v) {
    char d[19] = "0x";
    int k = 2;
    for (int shift = 60; shift >= 0; shift -= 4)
      if (int digit = int(v >> shift) & 15; digit || k > 2 || shift == 0) d[k++] = "0123456789abcdef"[digit];
    d[k] = 0;
    add(d);
  }
};

long this_thread() { return long(syscall(SYS_gettid)); }

void on_fault(int sig, siginfo_t* info, void*) {
  const FaultSignal* f = nullptr;
  for (const FaultSignal& c : kFaults) f = c.sig == sig ? &c : f;
  Line line;
  line.add("accelsim cuda: the program died of ");
  line.add(f ? f->name : "a signal");
  line.add(" (");
  line.add(f ? f->meaning : "");
  line.add(")");
  const long api = g_api_thread.load();
  const bool sent = info && info->si_code <= 0;  // kill(2) / raise(3), not a fault of this process's code
  if (sent)
    line.add(sig == SIGABRT ? " in its own host code" : ", sent by a process (kill), not a fault of the program");
  else if (api == this_thread())
    line.add(" inside a CUDA call (the runtime was reading or writing memory the program passed it, or this is a "
             "bug in accelsim's runtime)");
  else if (api != 0)
    line.add(" on another thread while a CUDA call ran (the simulator's threads run then: if the program has no "
             "threads of its own, this is a bug in accelsim)");
  else
    line.add(" in its own host code, not in the simulator");
  const uint64_t addr = f && f->has_address && info && !sent ? reinterpret_cast<uint64_t>(info->si_addr) : 0;
  if (addr) {
    line.add(", at address ");
    line.hex(addr);
    if (addr >= ptx::DeviceMemory::kHeapBase && addr < g_device_end.load())
      line.add(". That address is simulated device memory (cudaMalloc, a __device__ variable): host code cannot "
               "dereference it, as on a real GPU; copy it with cudaMemcpy, or use cudaMallocManaged / "
               "cudaMallocHost for memory both sides read");
  }
  line.add(". No simulation result is written.\n");
  (void)!write(2, line.buf, line.n);
  // SA_RESETHAND restored the default action: a fault re-runs the faulting
  // instruction and ends the process; a raised signal (abort) is re-raised.
  if (sent || !f || !f->has_address) raise(sig);
}

}  // namespace

void install_fault_handlers() {
  struct sigaction sa {};
  sa.sa_sigaction = on_fault;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
  for (const FaultSignal& f : kFaults) {
    struct sigaction old {};
    // a handler the program installed itself (before the runtime loaded) stays
    if (sigaction(f.sig, nullptr, &old) == 0 && old.sa_handler == SIG_DFL) sigaction(f.sig, &sa, nullptr);
  }
}

void note_device_end(uint64_t end) {
  uint64_t cur = g_device_end.load();
  while (end > cur && !g_device_end.compare_exchange_weak(cur, end)) {
  }
}

void note_api_thread(bool entering) { g_api_thread.store(entering ? this_thread() : 0); }

}  // namespace accelsim::cudart
