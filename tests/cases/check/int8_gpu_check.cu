// Runs the t_int8_* pairs on a GPU at random inputs (every byte value: the cases declare no
// range) and prints, per case, at how many trials the two kernels' outputs differ: the cases'
// expected verdicts seen on hardware. emulate.py does not model dp4a or prmt.
//   nvcc -arch=sm_90 -O3 tests/cases/check/int8_gpu_check.cu -o int8_gpu_check && ./int8_gpu_check
#include <cstdio>
#include <cstring>
#include <random>

#include "../kernels/int8.cu"

namespace {

constexpr int kTrials = 200;
constexpr int kBytes = 32 * 32;  // the largest input or output of a case

struct Case {
  const char* name;
  int trials_differing = 0;
};

// Both sides' outputs (out_bytes of them) after one launch each; 1 where they differ.
template <typename A, typename B>
int differs(A launch_a, B launch_b, unsigned char* dev_out, size_t out_bytes) {
  unsigned char ha[kBytes], hb[kBytes];
  cudaMemset(dev_out, 0, out_bytes);
  launch_a();
  cudaMemcpy(ha, dev_out, out_bytes, cudaMemcpyDeviceToHost);
  cudaMemset(dev_out, 0, out_bytes);
  launch_b();
  cudaMemcpy(hb, dev_out, out_bytes, cudaMemcpyDeviceToHost);
  return std::memcmp(ha, hb, out_bytes) != 0;
}

}  // namespace

int main() {
  unsigned char *x, *b, *y;
  cudaMalloc(&x, kBytes);
  cudaMalloc(&b, kBytes);
  cudaMalloc(&y, kBytes);
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> ubyte(0, 255);
  Case cases[6] = {{"t_int8_01 (equivalent)"}, {"t_int8_02 (inequivalent)"}, {"t_int8_03 (equivalent)"},
                   {"t_int8_04 (inequivalent)"}, {"t_int8_05 (equivalent)"}, {"t_int8_06 (inequivalent)"}};
  for (int trial = 0; trial < kTrials; ++trial) {
    unsigned char hx[kBytes], hb[kBytes];
    for (int i = 0; i < kBytes; ++i) hx[i] = static_cast<unsigned char>(ubyte(rng)), hb[i] = static_cast<unsigned char>(ubyte(rng));
    cudaMemcpy(x, hx, kBytes, cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb, kBytes, cudaMemcpyHostToDevice);
    auto xi = reinterpret_cast<const int*>(x);
    auto bi = reinterpret_cast<const int*>(b);
    auto xs = reinterpret_cast<const int8_t*>(x);
    auto bs = reinterpret_cast<const int8_t*>(b);
    auto yi = reinterpret_cast<int*>(y);
    cases[0].trials_differing += differs([&] { dot_dp4a<<<1, 32>>>(xi, bi, yi, 8, 4); },
                                         [&] { dot_bytes<<<1, 32>>>(xs, bs, yi, 8, 16); }, y, 8 * sizeof(int));
    cases[1].trials_differing += differs([&] { dot_dp4a_b_unsigned<<<1, 32>>>(xi, reinterpret_cast<const unsigned*>(b), yi, 8, 4); },
                                         [&] { dot_bytes<<<1, 32>>>(xs, bs, yi, 8, 16); }, y, 8 * sizeof(int));
    cases[2].trials_differing += differs([&] { transpose_u8_words<<<1, 256>>>(x, y); }, [&] { transpose_u8<<<1, 256>>>(x, y); }, y, kBytes);
    cases[3].trials_differing +=
        differs([&] { transpose_u8_words_reversed<<<1, 256>>>(x, y); }, [&] { transpose_u8<<<1, 256>>>(x, y); }, y, kBytes);
    cases[4].trials_differing += differs([&] { pack_bytes_perm<<<1, 32>>>(xs, yi, 8); },
                                         [&] { pack_bytes_plain<<<1, 32>>>(xs, reinterpret_cast<int8_t*>(y), 8); }, y, 32);
    cases[5].trials_differing += differs([&] { pack_bytes_perm_swapped<<<1, 32>>>(xs, yi, 8); },
                                         [&] { pack_bytes_plain<<<1, 32>>>(xs, reinterpret_cast<int8_t*>(y), 8); }, y, 32);
  }
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  for (const Case& c : cases) std::printf("%-26s outputs differ in %3d of %d trials\n", c.name, c.trials_differing, kTrials);
  return 0;
}
