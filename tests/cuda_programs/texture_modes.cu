// Texture objects as image and volume codes use them: normalized
// coordinates with wrap and mirror, bilinear filtering (weights in 1.8
// fixed point, as the CUDA programming guide specifies), uchar4 read as
// normalized floats, a layered array with a border colour, a 3-D array, and
// tex2Dgather. Checked against a host model of the guide's formulas.
#include <vector>

#include "common.h"

const int W = 13, H = 9, L = 3, D = 4, N = 256;
const float kBorder = -7;

__global__ void sample(cudaTextureObject_t wrapf, cudaTextureObject_t mirror8, cudaTextureObject_t layered,
                       cudaTextureObject_t vol, const float2* at, float4* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  float u = at[i].x, v = at[i].y;
  out[5 * i + 0] = make_float4(tex2D<float>(wrapf, u, v), 0, 0, 0);
  out[5 * i + 1] = tex2D<float4>(mirror8, u, v);
  out[5 * i + 2] = make_float4(tex2DLayered<float>(layered, u * W, v * H, i % (L + 2) - 1), 0, 0, 0);
  out[5 * i + 3] = make_float4(tex3D<float>(vol, u * W, v * H, (u + v) * D), 0, 0, 0);
  out[5 * i + 4] = tex2Dgather<float4>(wrapf, u, v, 0);
}

// ---- host model ----
int index(int i, int n, cudaTextureAddressMode m, bool* inside) {
  *inside = true;
  if (m == cudaAddressModeWrap) return ((i % n) + n) % n;
  if (m == cudaAddressModeMirror) {
    int k = ((i % (2 * n)) + 2 * n) % (2 * n);
    return k < n ? k : 2 * n - 1 - k;
  }
  if (m == cudaAddressModeBorder) {
    *inside = i >= 0 && i < n;
    return 0;
  }
  return std::min(std::max(i, 0), n - 1);
}

struct Image {  // w x h texels of c channels, as floats the fetch returns
  int w, h, c;
  std::vector<float> v;
  double at(int x, int y, int ch, cudaTextureAddressMode m, float border) const {
    bool in_x, in_y;
    int ix = index(x, w, m, &in_x), iy = index(y, h, m, &in_y);
    if (m == cudaAddressModeBorder && !(in_x && in_y)) return border;
    if (m == cudaAddressModeBorder) ix = x, iy = y;
    return v[(size_t(iy) * w + ix) * c + ch];
  }
  double bilinear(float u, float v_, int ch, cudaTextureAddressMode m) const {  // normalized coordinates
    float xb = u * w - 0.5f, yb = v_ * h - 0.5f;
    float fx = std::floor(xb), fy = std::floor(yb);
    double a = std::nearbyint((xb - fx) * 256.0) / 256, b = std::nearbyint((yb - fy) * 256.0) / 256;
    int i = int(fx), j = int(fy);
    return (1 - a) * (1 - b) * at(i, j, ch, m, 0) + a * (1 - b) * at(i + 1, j, ch, m, 0) +
           (1 - a) * b * at(i, j + 1, ch, m, 0) + a * b * at(i + 1, j + 1, ch, m, 0);
  }
};

cudaTextureObject_t make_tex(cudaArray_t a, cudaTextureAddressMode m, cudaTextureFilterMode f, bool norm,
                             cudaTextureReadMode read, float border) {
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = m;
  td.filterMode = f;
  td.normalizedCoords = norm;
  td.readMode = read;
  td.borderColor[0] = border;
  cudaTextureObject_t t;
  CK(cudaCreateTextureObject(&t, &res, &td, nullptr));
  return t;
}

void copy_volume(cudaArray_t arr, float* src, int depth) {
  cudaMemcpy3DParms p{};
  p.srcPtr = make_cudaPitchedPtr(src, W * 4, W, H);
  p.dstArray = arr;
  p.extent = make_cudaExtent(W, H, depth);
  p.kind = cudaMemcpyHostToDevice;
  CK(cudaMemcpy3D(&p));
}

int main() {
  Rng rng(7);
  Image f{W, H, 1, {}}, q{W, H, 4, {}};
  std::vector<unsigned char> bytes(W * H * 4);
  for (int k = 0; k < W * H; ++k) f.v.push_back(rng.uniform() * 10 - 5);
  for (auto& b : bytes) b = (unsigned char)(rng.next() & 255), q.v.push_back(b / 255.0f);
  std::vector<float> lay(W * H * L), vol(W * H * D);
  for (size_t k = 0; k < lay.size(); ++k) lay[k] = float(k);
  for (size_t k = 0; k < vol.size(); ++k) vol[k] = float(k) * 0.5f;

  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>(), bd = cudaCreateChannelDesc<uchar4>();
  cudaArray_t af, ab, al, av;
  CK(cudaMallocArray(&af, &fd, W, H));
  CK(cudaMallocArray(&ab, &bd, W, H));
  CK(cudaMalloc3DArray(&al, &fd, make_cudaExtent(W, H, L), cudaArrayLayered));
  CK(cudaMalloc3DArray(&av, &fd, make_cudaExtent(W, H, D)));
  CK(cudaMemcpy2DToArray(af, 0, 0, f.v.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  CK(cudaMemcpy2DToArray(ab, 0, 0, bytes.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  copy_volume(al, lay.data(), L);
  copy_volume(av, vol.data(), D);
  cudaTextureObject_t twrap = make_tex(af, cudaAddressModeWrap, cudaFilterModeLinear, true, cudaReadModeElementType, 0);
  cudaTextureObject_t tmir =
      make_tex(ab, cudaAddressModeMirror, cudaFilterModeLinear, true, cudaReadModeNormalizedFloat, 0);
  cudaTextureObject_t tlay = make_tex(al, cudaAddressModeBorder, cudaFilterModePoint, false, cudaReadModeElementType, kBorder);
  cudaTextureObject_t tvol = make_tex(av, cudaAddressModeClamp, cudaFilterModePoint, false, cudaReadModeElementType, 0);

  std::vector<float2> at(N);
  for (auto& p : at) p = make_float2(rng.uniform() * 3 - 1, rng.uniform() * 3 - 1);
  float2* dat;
  float4* dout;
  CK(cudaMalloc(&dat, N * sizeof(float2)));
  CK(cudaMalloc(&dout, 5 * N * sizeof(float4)));
  CK(cudaMemcpy(dat, at.data(), N * sizeof(float2), cudaMemcpyHostToDevice));
  sample<<<N / 64, 64>>>(twrap, tmir, tlay, tvol, dat, dout);
  std::vector<float4> got(5 * N);
  CK(cudaMemcpy(got.data(), dout, got.size() * sizeof(float4), cudaMemcpyDeviceToHost));
  long bad = 0;
  auto expect = [&](double g, double want) { bad += !close(g, want, 1e-5); };
  for (int i = 0; i < N; ++i) {
    const float u = at[i].x, v = at[i].y;
    const float4* o = &got[5 * i];
    expect(o[0].x, f.bilinear(u, v, 0, cudaAddressModeWrap));
    const float c[4] = {o[1].x, o[1].y, o[1].z, o[1].w};
    for (int ch = 0; ch < 4; ++ch) expect(c[ch], q.bilinear(u, v, ch, cudaAddressModeMirror));
    // layered, point, border: the layer is clamped, texels outside are the border colour
    const int layer = std::min(std::max(i % (L + 2) - 1, 0), L - 1);
    const int x = int(std::floor(u * W)), y = int(std::floor(v * H));
    const bool in = x >= 0 && x < W && y >= 0 && y < H;
    expect(o[2].x, in ? lay[(size_t(layer) * H + y) * W + x] : kBorder);
    const int cx = std::min(std::max(x, 0), W - 1), cy = std::min(std::max(y, 0), H - 1);
    const int cz = std::min(std::max(int(std::floor((u + v) * D)), 0), D - 1);
    expect(o[3].x, vol[(size_t(cz) * H + cy) * W + cx]);
    // gather: (i, j+1) (i+1, j+1) (i+1, j) (i, j) around the bilinear point, wrapped
    const int gi = int(std::floor(u * W - 0.5f)), gj = int(std::floor(v * H - 0.5f));
    const float gw[4] = {o[4].x, o[4].y, o[4].z, o[4].w};
    const int dx[4] = {0, 1, 1, 0}, dy[4] = {1, 1, 0, 0};
    for (int k = 0; k < 4; ++k) expect(gw[k], f.at(gi + dx[k], gj + dy[k], 0, cudaAddressModeWrap, 0));
  }
  return finish("texture_modes", bad);
}
