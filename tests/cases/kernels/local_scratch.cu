// A running sum of log-sigmoids kept in a thread-local array and read back: the compiled logf is
// recognized and stepped over, and the array's stores of its results (after the routine) must
// stay readable; only stores the routine itself makes are scratch that nothing may read.
__device__ float log_sigmoid(float f) { return logf(1.f / (1.f + expf(-f))); }

// sum_l (cum[n-1] - cum[l + shift]) over the l with l + shift < n, cum the running sums of
// log_sigmoid(f) kept in a local array.
__device__ float tail_sums_through_array(const float* f, int n, int shift) {
  float cum[16];
  float s = 0.f;
  for (int u = 0; u < n; ++u) {
    s = s + log_sigmoid(f[u]);
    cum[u] = s;
  }
  float acc = 0.f;
  for (int l = 0; l + shift < n; ++l) acc += cum[n - 1] - cum[l + shift];
  return acc;
}

extern "C" __global__ void tail_sums_array(const float* f, float* out, int n) { out[0] = tail_sums_through_array(f, n, 0); }

// The same sum taken directly: sum over l of the terms after l.
extern "C" __global__ void tail_sums_direct(const float* f, float* out, int n) {
  float acc = 0.f;
  for (int l = 0; l < n; ++l) {
    float t = 0.f;
    for (int u = l + 1; u < n; ++u) t += log_sigmoid(f[u]);
    acc += t;
  }
  out[0] = acc;
}

// The mutant: the array read one place off.
extern "C" __global__ void tail_sums_array_off(const float* f, float* out, int n) { out[0] = tail_sums_through_array(f, n, 1); }
