// Naive reference for aqlm's Triton GEMV (Additive Quantization: each weight group is a sum of codebook
// entries picked by integer codes, times a per-output-group scale): one thread per (row, output), f32
// accumulation.
#include <cuda_fp16.h>

// y[row][o] = scale[g] sum_{ig} sum_{c} <cb[c][code[g][ig][c]][o % OG][:], x[row][ig IG : (ig + 1) IG]> + bias[o],
// g = o / OG. x [rows][in_f], codes [out_f / OG][in_f / IG][C] (unsigned codes stored in 16 bits),
// codebooks [C][K][OG][IG], scales [out_f / OG], bias [out_f] (read only if has_bias), y [rows][out_f].
extern "C" __global__ void aqlm_gemv(const __half* x, const short* codes, const __half* cb, const __half* scales,
                                     const __half* bias, __half* y, int rows, int in_f, int out_f, int C, int K,
                                     int OG, int IG, int has_bias) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= rows * out_f) return;
  int row = t / out_f, o = t % out_f, g = o / OG, r = o % OG, groups = in_f / IG;
  float acc = 0.f;
  for (int ig = 0; ig < groups; ++ig) {
    for (int c = 0; c < C; ++c) {
      int code = (unsigned short)codes[(g * groups + ig) * C + c];
      const __half* w = cb + ((c * K + code) * OG + r) * IG;
      for (int j = 0; j < IG; ++j) acc += __half2float(w[j]) * __half2float(x[row * in_f + ig * IG + j]);
    }
  }
  float out = acc * __half2float(scales[g]);
  if (has_bias) out += __half2float(bias[o]);
  y[t] = __float2half(out);
}
