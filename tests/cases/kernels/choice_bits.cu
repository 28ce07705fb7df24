// Integer choices made by comparing float data, then read by bit-level instructions: nvcc writes
// `x > 0 ? 2i : 2i + 1` as bfi of the comparison's bit into 2i, and a binary search's midpoint
// (lo & hi) + ((lo ^ hi) >> 1) takes and/xor of two choices.
extern "C" __global__ void pick_bfi(const float* __restrict__ x, int* __restrict__ out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = x[i] > 0.0f ? 2 * i : 2 * i + 1;
}

extern "C" __global__ void pick_add(const float* __restrict__ x, int* __restrict__ out, int n) {
  int i = threadIdx.x;
  if (i < n) {
    int k = 2 * i;
    if (!(x[i] > 0.0f)) k += 1;
    out[i] = k;
  }
}

// The mutant: >= where > was meant (differs at x = 0 only).
extern "C" __global__ void pick_bfi_ge(const float* __restrict__ x, int* __restrict__ out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = x[i] >= 0.0f ? 2 * i : 2 * i + 1;
}

extern "C" __global__ void search_mid_bits(const float* __restrict__ x, int* __restrict__ out, int n) {
  int i = threadIdx.x;
  if (i < n) {
    int lo = 0, hi = 16;
    for (int s = 0; s < 3; ++s) {
      int mid = (lo & hi) + ((lo ^ hi) >> 1);
      if (x[i] * 16.0f < (float)mid) hi = mid;
      else lo = mid;
    }
    out[i] = lo;
  }
}

extern "C" __global__ void search_mid_halved(const float* __restrict__ x, int* __restrict__ out, int n) {
  int i = threadIdx.x;
  if (i < n) {
    int lo = 0, hi = 16;
    for (int s = 0; s < 3; ++s) {
      int mid = (lo + hi) / 2;
      if (x[i] * 16.0f < (float)mid) hi = mid;
      else lo = mid;
    }
    out[i] = lo;
  }
}
