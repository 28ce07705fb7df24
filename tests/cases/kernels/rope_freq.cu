// Rotary embedding with its frequencies computed in the kernel (theta^(-2i/d) by expf and logf of
// the constant theta), for the t_rope_* cases: the frequencies are irrational constants, and the
// branch of sinf/cosf between their fast range reduction and the slow one (|x| >= 105615) is a
// comparison of such a constant. One thread per (position, pair); x is [P][D], pairs (2i, 2i+1).
#include <cuda_runtime.h>

__device__ __forceinline__ float inv_freq(int i, int d, float theta) { return expf(-(2.0f * i / d) * logf(theta)); }

// x rotated by angle p * theta^(-2i/d): (a cos - b sin, a sin + b cos).
extern "C" __global__ void rope_rotate(const float* x, float* out, int P, int D, float theta) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int pairs = D / 2;
  if (t >= P * pairs) return;
  int p = t / pairs, i = t % pairs;
  float f = p * inv_freq(i, D, theta);
  float c = cosf(f), s = sinf(f);
  float a = x[p * D + 2 * i], b = x[p * D + 2 * i + 1];
  out[p * D + 2 * i] = a * c - b * s;
  out[p * D + 2 * i + 1] = a * s + b * c;
}

// The same rotation as a complex product, the angle's cosine and sine from sincosf.
extern "C" __global__ void rope_complex(const float* x, float* out, int P, int D, float theta) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int pairs = D / 2;
  if (t >= P * pairs) return;
  int p = t / pairs, i = t % pairs;
  float s, c;
  sincosf(p * inv_freq(i, D, theta), &s, &c);
  float a = x[p * D + 2 * i], b = x[p * D + 2 * i + 1];
  out[p * D + 2 * i] = fmaf(a, c, -(b * s));
  out[p * D + 2 * i + 1] = fmaf(b, c, a * s);
}

// A slip: the exponent's factor 2 dropped (theta^(-i/d)).
extern "C" __global__ void rope_half_exponent(const float* x, float* out, int P, int D, float theta) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int pairs = D / 2;
  if (t >= P * pairs) return;
  int p = t / pairs, i = t % pairs;
  float f = p * expf(-(1.0f * i / D) * logf(theta));
  float c = cosf(f), s = sinf(f);
  float a = x[p * D + 2 * i], b = x[p * D + 2 * i + 1];
  out[p * D + 2 * i] = a * c - b * s;
  out[p * D + 2 * i + 1] = a * s + b * c;
}

// A slip: rotated the other way (a cos + b sin, -a sin + b cos).
extern "C" __global__ void rope_backwards(const float* x, float* out, int P, int D, float theta) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int pairs = D / 2;
  if (t >= P * pairs) return;
  int p = t / pairs, i = t % pairs;
  float f = p * inv_freq(i, D, theta);
  float c = cosf(f), s = sinf(f);
  float a = x[p * D + 2 * i], b = x[p * D + 2 * i + 1];
  out[p * D + 2 * i] = a * c + b * s;
  out[p * D + 2 * i + 1] = b * c - a * s;
}
