// An intra-warp spin lock: lanes of one warp wait for each other. Under
// pre-Volta (stack-based) reconvergence this deadlocks; PTX mode keeps it
// making progress (docs/ptx.md).
extern "C" __global__ void locked_count(int* lock, volatile int* counter) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  *counter = *counter + 1;
  __threadfence();
  atomicExch(lock, 0);
}
