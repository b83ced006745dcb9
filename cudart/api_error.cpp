// The error API: the calling thread's last error, and names and
// descriptions of the error codes (descriptions are this runtime's own words).
#include "api.h"

using accelsim::cudart::Runtime;

namespace {

struct ErrorText {
  cudaError_t code;
  const char* name;
  const char* text;
};

#define E(code, text) {code, #code, text}
const ErrorText kErrors[] = {
    E(cudaSuccess, "no error"),
    E(cudaErrorInvalidValue, "invalid argument"),
    E(cudaErrorMemoryAllocation, "out of memory"),
    E(cudaErrorInitializationError, "initialization error"),
    E(cudaErrorInvalidConfiguration, "invalid launch configuration (block or grid size)"),
    E(cudaErrorInvalidPitchValue, "invalid pitch argument"),
    E(cudaErrorInvalidSymbol, "invalid device symbol"),
    E(cudaErrorInvalidDevicePointer, "invalid device pointer"),
    E(cudaErrorInvalidMemcpyDirection, "invalid copy direction"),
    E(cudaErrorMissingConfiguration, "launch without a configuration"),
    E(cudaErrorInvalidDeviceFunction, "invalid device function (not registered by the program)"),
    E(cudaErrorInvalidDevice, "invalid device ordinal (the simulator has device 0 only)"),
    E(cudaErrorInvalidResourceHandle, "invalid resource handle"),
    E(cudaErrorNotReady, "device not ready"),
    E(cudaErrorIllegalAddress, "an illegal memory access was encountered"),
    E(cudaErrorLaunchFailure, "unspecified launch failure"),
    E(cudaErrorNotSupported, "operation not supported"),
    E(cudaErrorInvalidChannelDescriptor, "invalid channel descriptor"),
    E(cudaErrorInvalidTexture, "invalid texture"),
    E(cudaErrorUnknown, "unknown error"),
};
#undef E

const ErrorText* find(cudaError_t e) {
  for (const ErrorText& t : kErrors)
    if (t.code == e) return &t;
  return nullptr;
}

}  // namespace

ACCELSIM_EXPORT cudaError_t cudaGetLastError() {
  cudaError_t& e = Runtime::last_error();
  const cudaError_t out = e;
  e = cudaSuccess;
  return out;
}

ACCELSIM_EXPORT cudaError_t cudaPeekAtLastError() { return Runtime::last_error(); }

ACCELSIM_EXPORT const char* cudaGetErrorName(cudaError_t e) {
  const ErrorText* t = find(e);
  return t ? t->name : "cudaErrorUnknown";
}

ACCELSIM_EXPORT const char* cudaGetErrorString(cudaError_t e) {
  const ErrorText* t = find(e);
  return t ? t->text : "unrecognized error code";
}
