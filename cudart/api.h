// Shared by the cuda* entry points (api_*.cpp): the runtime, locked for the
// call, and the few helpers every group of calls uses.
#pragma once
#include <cuda_runtime_api.h>

#include <mutex>

#include "runtime.h"
#include "signals.h"

// Every entry point starts with this: the process's runtime, one call at a
// time, and the call's wall time counted (the runtime's overhead figure).
#define ACCELSIM_API_LOCK                                                   \
  ::accelsim::cudart::Runtime& rt = ::accelsim::cudart::Runtime::get(); \
  ::accelsim::cudart::ApiScope api_scope_(rt)

// Exported entry points: visible, C linkage (the library builds with
// -fvisibility=hidden; the version script names what it exports).
#define ACCELSIM_EXPORT extern "C" __attribute__((visibility("default")))

namespace accelsim::cudart {

double wall_seconds();  // runtime.cpp: a steady clock in seconds

class ApiScope {
 public:
  explicit ApiScope(Runtime& rt) : rt_(rt), lock_(rt.mu) {
    if (rt_.api_depth++ == 0) {
      rt_.api_t0 = wall_seconds();
      note_api_thread(true);
    }
  }
  ~ApiScope() {
    if (--rt_.api_depth == 0) {
      rt_.api_wall_s_ += wall_seconds() - rt_.api_t0;
      note_api_thread(false);
    }
  }
  ApiScope(const ApiScope&) = delete;
  ApiScope& operator=(const ApiScope&) = delete;

 private:
  Runtime& rt_;
  std::lock_guard<std::recursive_mutex> lock_;
};

// Returns `e` after recording it as the calling thread's last error.
inline cudaError_t ret(cudaError_t e) { return Runtime::fail(e); }

}  // namespace accelsim::cudart
