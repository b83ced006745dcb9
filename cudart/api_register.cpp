// What nvcc's generated host code calls before main: fat-binary, kernel and
// variable registration (crt/host_runtime.h declares them; the program's
// static constructors call them in this order: RegisterFatBinary, then
// RegisterFunction / RegisterVar / RegisterManagedVar per entity, then
// RegisterFatBinaryEnd; UnregisterFatBinary at exit).
#include "api.h"

using accelsim::cudart::Fatbin;

ACCELSIM_EXPORT void** __cudaRegisterFatBinary(void* fat_cubin) {
  ACCELSIM_API_LOCK;
  return reinterpret_cast<void**>(rt.register_fatbin(fat_cubin));
}

ACCELSIM_EXPORT void __cudaRegisterFatBinaryEnd(void**) {}

// At exit: the runtime's own exit handler (registered before the program's)
// runs after this and writes the result.
ACCELSIM_EXPORT void __cudaUnregisterFatBinary(void**) {}

ACCELSIM_EXPORT void __cudaRegisterFunction(void** handle, const char* host_fun, char* /*device_fun*/,
                                            const char* device_name, int /*thread_limit*/, uint3*, uint3*, dim3*,
                                            dim3*, int*) {
  ACCELSIM_API_LOCK;
  rt.register_kernel(reinterpret_cast<Fatbin*>(handle), host_fun, device_name);
}

ACCELSIM_EXPORT void __cudaRegisterVar(void** handle, char* host_var, char* /*device_address*/,
                                       const char* device_name, int /*ext*/, size_t size, int constant,
                                       int /*global*/) {
  ACCELSIM_API_LOCK;
  rt.register_variable(reinterpret_cast<Fatbin*>(handle), host_var, device_name, size, constant != 0, nullptr);
}

ACCELSIM_EXPORT void __cudaRegisterManagedVar(void** handle, void** host_var_ptr_address, char* /*device_address*/,
                                              const char* device_name, int /*ext*/, size_t size, int constant,
                                              int /*global*/) {
  ACCELSIM_API_LOCK;
  // the host reaches the variable through *host_var_ptr_address, set when
  // the module is initialised (__cudaInitModule)
  rt.register_variable(reinterpret_cast<Fatbin*>(handle), host_var_ptr_address, device_name, size, constant != 0,
                       host_var_ptr_address);
}

ACCELSIM_EXPORT char __cudaInitModule(void** handle) {
  ACCELSIM_API_LOCK;
  rt.init_module(reinterpret_cast<Fatbin*>(handle));
  return 1;
}
