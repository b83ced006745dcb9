// One training step of a two-layer perceptron: forward pass (hidden units
// reduce their weighted inputs in shared memory), output error, and the
// weight update of the input layer (as Rodinia's backprop splits it).
#include <cmath>
#include <vector>

#include "common.h"

#define IN 256
#define HID 16

__global__ void layer_forward(const float* in, const float* w, float* hidden) {
  __shared__ float part[IN];
  int h = blockIdx.x, t = threadIdx.x;
  part[t] = in[t] * w[t * HID + h];
  __syncthreads();
  for (int s = IN / 2; s > 0; s >>= 1) {
    if (t < s) part[t] += part[t + s];
    __syncthreads();
  }
  if (t == 0) hidden[h] = 1.0f / (1.0f + expf(-part[0]));
}

__global__ void adjust_weights(const float* in, const float* delta, float* w, float eta) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;  // one input unit, all hidden units
  if (t >= IN) return;
  for (int h = 0; h < HID; ++h) w[t * HID + h] += eta * delta[h] * in[t];
}

int main() {
  std::vector<float> in(IN), w(IN * HID), target_out(HID);
  Rng r(31);
  for (auto& v : in) v = r.uniform();
  for (auto& v : w) v = r.uniform() * 0.1f - 0.05f;
  for (auto& v : target_out) v = r.uniform();
  float *d_in, *d_w, *d_hidden, *d_delta;
  CK(cudaMalloc(&d_in, IN * 4));
  CK(cudaMalloc(&d_w, IN * HID * 4));
  CK(cudaMalloc(&d_hidden, HID * 4));
  CK(cudaMalloc(&d_delta, HID * 4));
  CK(cudaMemcpy(d_in, in.data(), IN * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d_w, w.data(), IN * HID * 4, cudaMemcpyHostToDevice));
  layer_forward<<<HID, IN>>>(d_in, d_w, d_hidden);
  std::vector<float> hidden(HID), delta(HID);
  CK(cudaMemcpy(hidden.data(), d_hidden, HID * 4, cudaMemcpyDeviceToHost));
  long bad = 0;
  for (int h = 0; h < HID; ++h) {
    double s = 0;
    for (int i = 0; i < IN; ++i) s += double(in[i]) * w[i * HID + h];
    bad += !close(hidden[h], 1.0 / (1.0 + std::exp(-s)), 1e-4);
    delta[h] = hidden[h] * (1 - hidden[h]) * (target_out[h] - hidden[h]);
  }
  CK(cudaMemcpy(d_delta, delta.data(), HID * 4, cudaMemcpyHostToDevice));
  adjust_weights<<<(IN + 63) / 64, 64>>>(d_in, d_delta, d_w, 0.3f);
  std::vector<float> got(IN * HID);
  CK(cudaMemcpy(got.data(), d_w, IN * HID * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < IN; ++i)
    for (int h = 0; h < HID; ++h) bad += !close(got[i * HID + h], w[i * HID + h] + 0.3f * delta[h] * in[i], 1e-5);
  return finish("backprop", bad);
}
