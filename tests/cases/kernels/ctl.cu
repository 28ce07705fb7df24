// Divergent control flow and reconvergence: branches on the thread index, early exits,
// loops whose trip count depends on the thread (or on concrete integer data), branches that
// split a warp, and a divergent region that reconverges at a barrier.

// Even threads: out = a + b; odd threads: out = sum_{k<4} a * c[k] - b (a loop, so the
// branch stays a branch).
extern "C" __global__ void parity_branch(const float* a, const float* b, const float* c, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (threadIdx.x & 1) {
    float s = 0.f;
    for (int k = 0; k < 4; ++k) s += a[i] * c[k];
    out[i] = s - b[i];
  } else {
    out[i] = a[i] + b[i];
  }
}

// Reference without a branch: both values, then a select on the parity of i.
extern "C" __global__ void parity_select(const float* a, const float* b, const float* c, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float even = a[i] + b[i];
  float odd = a[i] * (c[0] + c[1] + c[2] + c[3]) - b[i];
  out[i] = (i & 1) ? odd : even;
}

// Odd threads leave at once; each even thread i handles the pair (i, i + 1):
// out[i] = 2 x[i], out[i+1] = x[i+1] - x[i]. No barrier follows.
extern "C" __global__ void pairs_even_threads(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i & 1) return;
  if (i < n) out[i] = 2.f * x[i];
  if (i + 1 < n) out[i + 1] = x[i + 1] - x[i];
}

// Reference: one thread per element.
extern "C" __global__ void pairs_per_element(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = (i & 1) ? x[i] - x[i - 1] : x[i] + x[i];
}

// Inclusive prefix sum, thread i loops over j = 0..i (trip count i + 1).
extern "C" __global__ void prefix_triangle(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.f;
  for (int j = 0; j <= i; ++j) s += x[j];
  out[i] = s;
}

// Bug: loop bound j < i, i.e. the exclusive prefix sum.
extern "C" __global__ void prefix_triangle_excl(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.f;
  for (int j = 0; j < i; ++j) s += x[j];
  out[i] = s;
}

// Reference: a single thread walks the whole array.
extern "C" __global__ void prefix_one_thread(const float* x, float* out, int n) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  float s = 0.f;
  for (int j = 0; j < n; ++j) { s += x[j]; out[j] = s; }
}

// out[i] = x[i] * popcount(i), as a loop clearing the lowest set bit of i each trip.
extern "C" __global__ void scale_popc_loop(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.f;
  for (unsigned k = (unsigned)i; k != 0u; k &= k - 1u) s += x[i];
  out[i] = s;
}

// Same with popc.b32 and an int-to-float conversion.
extern "C" __global__ void scale_popc(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] * (float)__popc(i);
}

// out[i] = x[i] added k[i] times (k: concrete integers; no trips when k[i] <= 0).
extern "C" __global__ void repeat_add(const float* x, const int* k, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.f;
  for (int c = 0; c < k[i]; ++c) s += x[i];
  out[i] = s;
}

// out[i] = x[i] * k[i] (cvt.rn.f32.s32): equal to repeat_add when every k[i] >= 0.
extern "C" __global__ void mul_count(const float* x, const int* k, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] * (float)k[i];
}

// Lanes below `cut` of each warp run a 3-trip loop, the others a plain subtraction: the
// branch splits every warp.
extern "C" __global__ void lane_split(const float* x, const float* y, float* out, int n, int cut) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if ((threadIdx.x & 31) < cut) {
    float s = x[i];
    for (int k = 0; k < 3; ++k) s = s * y[i] + 1.f;
    out[i] = s;
  } else {
    out[i] = y[i] - x[i];
  }
}

// Reference with a select on the lane; the cut is fixed at 16.
extern "C" __global__ void lane_split16_ref(const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float p = x[i], q = y[i];
  float lo = ((p * q + 1.f) * q + 1.f) * q + 1.f;
  out[i] = (i & 31) < 16 ? lo : q - p;
}

// Divergent region (threads below 32 loop (t % 4) + 1 times, the others negate), then every
// thread reaches the barrier and reads the value its mirror thread stored. blockDim = 64.
extern "C" __global__ void diverge_then_barrier(const float* x, float* out) {
  __shared__ float s[64];
  int t = threadIdx.x, i = blockIdx.x * 64 + t;
  if (t < 32) {
    float a = 0.f;
    for (int k = 0; k <= (t & 3); ++k) a += x[i];
    s[t] = a;
  } else {
    s[t] = -x[i];
  }
  __syncthreads();
  out[i] = s[63 - t];
}

// Reference reading global memory directly.
extern "C" __global__ void diverge_then_barrier_ref(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int b = i / 64, m = 63 - i % 64;
  float v = x[b * 64 + m];
  out[i] = m < 32 ? (float)((m & 3) + 1) * v : -v;
}
