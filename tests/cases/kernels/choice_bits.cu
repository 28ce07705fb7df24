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

// isin by binary search over a sorted table of 8 (t_idx_18, 19): nvcc branches around each step's
// load (`lo < hi`), so the search's finished state (lo = hi = 8) is a path the load never runs on.
extern "C" __global__ void isin_search(const float* __restrict__ x, const float* __restrict__ table,
                                       int* __restrict__ out, int n, int size) {
  int i = threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  int lo = 0, hi = size, found = 0;
#pragma unroll
  for (int s = 0; s < 4; ++s) {
    if (lo < hi) {
      int mid = lo + (hi - lo) / 2;
      float t = table[mid];
      found |= t == v;
      if (t < v) lo = mid + 1;
      else hi = mid;
    }
  }
  out[i] = found;
}

extern "C" __global__ void isin_scan(const float* __restrict__ x, const float* __restrict__ table,
                                     int* __restrict__ out, int n, int size) {
  int i = threadIdx.x;
  if (i >= n) return;
  int found = 0;
  for (int k = 0; k < 8; ++k) found |= table[k] == x[i];
  out[i] = found;
}
