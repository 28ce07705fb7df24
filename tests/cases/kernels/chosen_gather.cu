// A gather at the index of the larger of two scores s[i] and s[i + 4] (an argmax over a pair): the
// address is a choice made by comparing float data. Against the choice made on the two loaded
// values, and a gather at the smaller one's index.
extern "C" __global__ void gather_winner(const float* s, const float* v, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int k = s[i] > s[i + 4] ? i : i + 4;
  out[i] = v[k];
}

extern "C" __global__ void gather_loser(const float* s, const float* v, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int k = s[i] > s[i + 4] ? i + 4 : i;
  out[i] = v[k];
}

extern "C" __global__ void select_winner(const float* s, const float* v, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = v[i], b = v[i + 4];
  out[i] = s[i] > s[i + 4] ? a : b;
}
