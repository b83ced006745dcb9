// What a call the runtime does not implement does: a clear message naming
// it and a non-zero exit (after writing the result so far), never a silent
// wrong answer. Every such symbol is a generated weak stub calling this
// (gen_exports.cmake), so the dynamic loader always resolves the program.
#include <string>

#include "api.h"

extern "C" [[noreturn]] void accelsim_cudart_unimplemented(const char* name) {
  accelsim::cudart::Runtime& rt = accelsim::cudart::Runtime::get();
  std::lock_guard<std::recursive_mutex> lock(rt.mu);
  rt.synchronize();  // the work queued before the call ran on a GPU: it belongs in the result
  rt.fatal(std::string(name) + " is not implemented by the simulator's CUDA runtime (docs/cuda_apps.md lists "
                               "what is)", 2);
}
