// Shared by the test programs: error checks, a deterministic generator and
// the pass/fail ending every program uses (exit status 1 on a mismatch).
#pragma once
#include <cmath>
#include <cstdio>
#include <cstdlib>

#define CK(call)                                                                          \
  do {                                                                                    \
    cudaError_t e_ = (call);                                                              \
    if (e_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(2);                                                                       \
    }                                                                                     \
  } while (0)

// xorshift: the same numbers on every run and machine
struct Rng {
  unsigned s;
  explicit Rng(unsigned seed) : s(seed ? seed : 1) {}
  unsigned next() {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
  }
  float uniform() { return (next() >> 8) * (1.0f / 16777216.0f); }
};

inline int finish(const char* name, long bad) {
  if (bad) {
    std::printf("%s: FAILED (%ld mismatches)\n", name, bad);
    return 1;
  }
  std::printf("%s: PASSED\n", name);
  return 0;
}

inline bool close(double a, double b, double tol) { return std::fabs(a - b) <= tol * (1.0 + std::fabs(b)); }
