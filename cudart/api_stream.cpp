// Streams, events and synchronization. Waiting for anything runs the whole
// queue (the simulator times all streams together); an event's time is the
// end of the command it marks on the simulated clock, so
// cudaEventElapsedTime reports simulated milliseconds.
#include "api.h"

using accelsim::cudart::Event;
using accelsim::cudart::ret;
using accelsim::cudart::Stream;

namespace {

Event* event(cudaEvent_t e) { return reinterpret_cast<Event*>(e); }

}  // namespace

ACCELSIM_EXPORT cudaError_t cudaDeviceSynchronize() {
  ACCELSIM_API_LOCK;
  rt.synchronize();
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaThreadSynchronize() { return cudaDeviceSynchronize(); }

ACCELSIM_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned flags, int priority) {
  ACCELSIM_API_LOCK;
  if (!stream) return ret(cudaErrorInvalidValue);
  *stream = reinterpret_cast<cudaStream_t>(rt.new_stream(flags, priority));
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags) {
  return cudaStreamCreateWithPriority(stream, flags, 0);
}

ACCELSIM_EXPORT cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithPriority(stream, 0, 0); }

ACCELSIM_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  ACCELSIM_API_LOCK;
  if (!stream) return ret(cudaErrorInvalidResourceHandle);
  rt.destroy_stream(reinterpret_cast<Stream*>(stream));
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t) {
  ACCELSIM_API_LOCK;
  rt.synchronize();
  return cudaSuccess;
}

// The GPU would finish the stream's work eventually: run it now and say done
// (a program polling for cudaErrorNotReady then moves on).
ACCELSIM_EXPORT cudaError_t cudaStreamQuery(cudaStream_t) {
  ACCELSIM_API_LOCK;
  rt.synchronize();
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t e, unsigned) {
  ACCELSIM_API_LOCK;
  if (!e) return ret(cudaErrorInvalidResourceHandle);
  rt.stream_wait(stream, *event(e));
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority) {
  if (!priority) return ret(cudaErrorInvalidValue);
  const auto h = reinterpret_cast<uintptr_t>(stream);
  *priority = h > 2 ? reinterpret_cast<Stream*>(stream)->priority : 0;
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned* flags) {
  if (!flags) return ret(cudaErrorInvalidValue);
  const auto h = reinterpret_cast<uintptr_t>(stream);
  *flags = h > 2 && reinterpret_cast<Stream*>(stream)->nonblocking ? cudaStreamNonBlocking : cudaStreamDefault;
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  if (least) *least = 0;
  if (greatest) *greatest = -5;  // as Volta and later report
  return cudaSuccess;
}

// Host functions in a stream run once the work before them is done: the
// queue runs first, then the function, before any later work is queued.
ACCELSIM_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t, cudaHostFn_t fn, void* user_data) {
  ACCELSIM_API_LOCK;
  if (!fn) return ret(cudaErrorInvalidValue);
  rt.synchronize();
  fn(user_data);
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t cb, void* user_data,
                                                  unsigned) {
  ACCELSIM_API_LOCK;
  if (!cb) return ret(cudaErrorInvalidValue);
  rt.synchronize();
  cb(stream, cudaSuccess, user_data);
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned flags) {
  if (!e) return ret(cudaErrorInvalidValue);
  auto* ev = new Event();  // lives until cudaEventDestroy (or the process)
  ev->flags = flags;
  *e = reinterpret_cast<cudaEvent_t>(ev);
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaEventCreate(cudaEvent_t* e) { return cudaEventCreateWithFlags(e, 0); }

ACCELSIM_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t e) {
  ACCELSIM_API_LOCK;
  if (!e) return ret(cudaErrorInvalidResourceHandle);
  if (event(e)->pending) rt.synchronize();  // the queue still points at it
  delete event(e);
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t stream) {
  ACCELSIM_API_LOCK;
  if (!e) return ret(cudaErrorInvalidResourceHandle);
  rt.record_event(*event(e), stream);
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t stream, unsigned) {
  return cudaEventRecord(e, stream);
}

ACCELSIM_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  ACCELSIM_API_LOCK;
  if (!e) return ret(cudaErrorInvalidResourceHandle);
  if (event(e)->pending) rt.synchronize();
  return cudaSuccess;
}

ACCELSIM_EXPORT cudaError_t cudaEventQuery(cudaEvent_t e) { return cudaEventSynchronize(e); }

ACCELSIM_EXPORT cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  ACCELSIM_API_LOCK;
  if (!ms || !start || !end) return ret(cudaErrorInvalidValue);
  const Event &a = *event(start), &b = *event(end);
  if (!a.recorded || !b.recorded || (a.flags | b.flags) & cudaEventDisableTiming)
    return ret(cudaErrorInvalidResourceHandle);
  if (a.pending || b.pending) return ret(cudaErrorNotReady);
  const double cycles = double(b.cycle) - double(a.cycle);
  *ms = float(cycles / (rt.core_clock_mhz() * 1000.0));  // MHz = cycles per microsecond
  return cudaSuccess;
}

#if CUDART_VERSION < 13000
ACCELSIM_EXPORT cudaError_t cudaEventElapsedTime_v2(float* ms, cudaEvent_t start, cudaEvent_t end) {
  return cudaEventElapsedTime(ms, start, end);
}
#endif
