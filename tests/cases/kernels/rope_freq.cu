// Rotary embedding with its frequencies computed in the kernel (theta^(-2i/d) by expf and logf of
// the constant theta), for the t_rope_* cases: the frequencies are irrational constants, and the
// branch of sinf/cosf between their fast range reduction and the slow one (|x| >= 105615) is a
// comparison of such a constant. One thread per (position, pair); x is [P][D], pairs (2i, 2i+1).
#include <cuda_runtime.h>

__device__ __forceinline__ float inv_freq(float e, float theta) { return expf(-e * logf(theta)); }

// This thread's position p and pair i; false past the last pair.
__device__ __forceinline__ bool pair_of(int P, int D, int& p, int& i) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= P * (D / 2)) return false;
  p = t / (D / 2);
  i = t % (D / 2);
  return true;
}

// The pair (a, b) rotated by angle f: (a cos - b sin, a sin + b cos); sign -1 turns it the other way.
__device__ __forceinline__ void rotate(const float* x, float* out, int D, int p, int i, float f, float sign) {
  float c = cosf(f), s = sign * sinf(f);
  float a = x[p * D + 2 * i], b = x[p * D + 2 * i + 1];
  out[p * D + 2 * i] = a * c - b * s;
  out[p * D + 2 * i + 1] = a * s + b * c;
}

extern "C" __global__ void rope_rotate(const float* x, float* out, int P, int D, float theta) {
  int p, i;
  if (pair_of(P, D, p, i)) rotate(x, out, D, p, i, p * inv_freq(2.0f * i / D, theta), 1.0f);
}

// The same rotation as a complex product, the angle's cosine and sine from sincosf.
extern "C" __global__ void rope_complex(const float* x, float* out, int P, int D, float theta) {
  int p, i;
  if (!pair_of(P, D, p, i)) return;
  float s, c;
  sincosf(p * inv_freq(2.0f * i / D, theta), &s, &c);
  float a = x[p * D + 2 * i], b = x[p * D + 2 * i + 1];
  out[p * D + 2 * i] = fmaf(a, c, -(b * s));
  out[p * D + 2 * i + 1] = fmaf(b, c, a * s);
}

// A slip: the exponent's factor 2 dropped (theta^(-i/d)).
extern "C" __global__ void rope_half_exponent(const float* x, float* out, int P, int D, float theta) {
  int p, i;
  if (pair_of(P, D, p, i)) rotate(x, out, D, p, i, p * inv_freq(1.0f * i / D, theta), 1.0f);
}

// A slip: rotated the other way (a cos + b sin, -a sin + b cos).
extern "C" __global__ void rope_backwards(const float* x, float* out, int P, int D, float theta) {
  int p, i;
  if (pair_of(P, D, p, i)) rotate(x, out, D, p, i, p * inv_freq(2.0f * i / D, theta), -1.0f);
}
