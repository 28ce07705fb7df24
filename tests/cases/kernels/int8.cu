// Eight-bit integer data moved four to a 32-bit word: dot products by dp4a over int8 words,
// u8 bytes gathered through shared memory and read back as words, bytes taken out of a word
// by shifts and by prmt. Each against one element per step.
#include <stdint.h>

// y[r] = sum_k a[r][k] b[k] over int8 rows of n (n a multiple of 4), read as 32-bit words.
extern "C" __global__ void dot_dp4a(const int* a, const int* b, int* y, int rows, int words) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int acc = 0;
  for (int w = 0; w < words; ++w) acc = __dp4a(a[r * words + w], b[w], acc);
  y[r] = acc;
}

// The same dot product with b's bytes read as unsigned (a slip when b holds signed weights).
extern "C" __global__ void dot_dp4a_b_unsigned(const int* a, const unsigned* b, int* y, int rows, int words) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int acc = 0;
  for (int w = 0; w < words; ++w) asm("dp4a.s32.u32 %0, %1, %2, %0;" : "+r"(acc) : "r"(a[r * words + w]), "r"(b[w]));
  y[r] = acc;
}

extern "C" __global__ void dot_bytes(const int8_t* a, const int8_t* b, int* y, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int acc = 0;
  for (int k = 0; k < n; ++k) acc += a[r * n + k] * b[k];
  y[r] = acc;
}

// A 32 x 32 u8 tile transposed through shared memory: each thread stores one byte, then reads
// a word of four and writes its bytes out by shifts (the order a slip may reverse).
template <bool kReversed>
__device__ void transpose_words(const uint8_t* x, uint8_t* y) {
  __shared__ uint8_t tile[32][32];
  const int t = threadIdx.x;  // 256 threads: 4 bytes each way
  for (int k = 0; k < 4; ++k) {
    int i = t * 4 + k;
    tile[i % 32][i / 32] = x[i];
  }
  __syncthreads();
  const int row = t / 8, col = (t % 8) * 4;
  uint32_t w = *reinterpret_cast<const uint32_t*>(&tile[row][col]);
  for (int k = 0; k < 4; ++k) y[row * 32 + col + k] = static_cast<uint8_t>(w >> (8 * (kReversed ? 3 - k : k)));
}
extern "C" __global__ void transpose_u8_words(const uint8_t* x, uint8_t* y) { transpose_words<false>(x, y); }
extern "C" __global__ void transpose_u8_words_reversed(const uint8_t* x, uint8_t* y) { transpose_words<true>(x, y); }

extern "C" __global__ void transpose_u8(const uint8_t* x, uint8_t* y) {
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) y[(i % 32) * 32 + i / 32] = x[i];
}

// Four int8 values packed into a word by prmt (byte_perm): each pair's low bytes side by side
// (0x3340), then the pairs joined (0x5410; 0x1054 puts the upper pair first, a slip); stored as
// one word, against the bytes stored one at a time.
template <unsigned kJoin>
__device__ void pack_perm(const int8_t* x, int* y, int words) {
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= words) return;
  unsigned b0 = static_cast<uint8_t>(x[4 * w]), b1 = static_cast<uint8_t>(x[4 * w + 1]);
  unsigned b2 = static_cast<uint8_t>(x[4 * w + 2]), b3 = static_cast<uint8_t>(x[4 * w + 3]);
  y[w] = static_cast<int>(__byte_perm(__byte_perm(b0, b1, 0x3340), __byte_perm(b2, b3, 0x3340), kJoin));
}
extern "C" __global__ void pack_bytes_perm(const int8_t* x, int* y, int words) { pack_perm<0x5410>(x, y, words); }
extern "C" __global__ void pack_bytes_perm_swapped(const int8_t* x, int* y, int words) { pack_perm<0x1054>(x, y, words); }

extern "C" __global__ void pack_bytes_plain(const int8_t* x, int8_t* y, int words) {
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= words) return;
  for (int k = 0; k < 4; ++k) y[4 * w + k] = x[4 * w + k];
}
