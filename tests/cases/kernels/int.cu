// Integer and index arithmetic: 64-bit indices (mul.wide), mad, shifts, bfe, division and
// remainder by constants, integer-to-float conversion. Integer tensors in the cases that
// use these kernels have concrete contents ({ values = [...] }).

// out[i] = x[i] + y[i] with a 64-bit index: (u64)blockIdx.x * blockDim.x is a mul.wide.u32.
extern "C" __global__ void add_idx64(const float* x, const float* y, float* out, unsigned long long n) {
  unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] + y[i];
}

// Same with a 32-bit index (mad.lo.s32, then mul.wide.s32 for the byte offset).
extern "C" __global__ void add_idx32(const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] + y[i];
}

// Transpose-and-scale of a [rows, 12] matrix: out[c, r] = x[r, c] * w[c]. One thread per
// element; the flat index is split by the constant 12 (signed / and %: mul.hi magic).
extern "C" __global__ void tscale_flat12(const float* x, const float* w, float* out, int rows) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * 12) {
    int r = i / 12, c = i % 12;
    out[c * rows + r] = x[i] * w[c];
  }
}

// Bug: splits the flat index by the row count (10) instead of the column count, i.e. reads x
// as if it were column-major. Every out cell is still written exactly once, in bounds.
extern "C" __global__ void tscale_flat_by10(const float* x, const float* w, float* out, int rows) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * 12) {
    int r = i % 10, c = i / 10;
    out[c * rows + r] = x[i] * w[c];
  }
}

// Reference: 2-D launch, c = x coordinate, r = y coordinate.
extern "C" __global__ void tscale_2d(const float* x, const float* w, float* out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = x[r * cols + c] * w[c];
}

// Unpack the four bytes of each 32-bit word, low byte first, as unsigned values 0..255.
// One thread per byte: shr.u32 by a thread-dependent amount, then and 0xff.
extern "C" __global__ void unpack_u8_shift(const int* p, int* out, int nwords) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 4 * nwords) {
    unsigned v = (unsigned)p[i >> 2];
    out[i] = (int)((v >> ((i & 3) * 8)) & 0xffu);
  }
}

// One thread per word with the PTX bit-field extract bfe.u32.
extern "C" __global__ void unpack_u8_bfe(const int* p, int* out, int nwords) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nwords) {
    unsigned v = (unsigned)p[i];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      unsigned b;
      asm("bfe.u32 %0, %1, %2, 8;" : "=r"(b) : "r"(v), "r"(8 * k));
      out[4 * i + k] = (int)b;
    }
  }
}

// Bug: most significant byte first (big-endian order) with bfe.u32.
extern "C" __global__ void unpack_u8_bfe_msb_first(const int* p, int* out, int nwords) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nwords) {
    unsigned v = (unsigned)p[i];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      unsigned b;
      asm("bfe.u32 %0, %1, %2, 8;" : "=r"(b) : "r"(v), "r"(24 - 8 * k));
      out[4 * i + k] = (int)b;
    }
  }
}

// Signed bytes -128..127: shift the byte to the top (shl), then arithmetic shift right 24.
extern "C" __global__ void unpack_s8_shift(const int* p, int* out, int nwords) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 4 * nwords) {
    unsigned v = (unsigned)p[i >> 2];
    out[i] = (int)(v << (24 - (i & 3) * 8)) >> 24;
  }
}

// Signed bytes with the sign-extending bit-field extract bfe.s32.
extern "C" __global__ void unpack_s8_bfe(const int* p, int* out, int nwords) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nwords) {
    int v = p[i];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      int b;
      asm("bfe.s32 %0, %1, %2, 8;" : "=r"(b) : "r"(v), "r"(8 * k));
      out[4 * i + k] = b;
    }
  }
}

// Signed division by 4 (C semantics: truncation toward zero).
extern "C" __global__ void sdiv4(const int* v, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = v[i] / 4;
}

// Arithmetic shift right by 2 (floor division): differs from / 4 for negative non-multiples.
extern "C" __global__ void sshr2(const int* v, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = v[i] >> 2;
}

// Quotient and remainder by the constant 7 (compiled to mul.hi.s32 and shifts).
extern "C" __global__ void divmod7(const int* v, int* q, int* r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { int a = v[i]; q[i] = a / 7; r[i] = a % 7; }
}

// Reference: repeated subtraction of 7 from |v| (loop trip count from concrete data).
extern "C" __global__ void divmod7_loop(const int* v, int* q, int* r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int a = v[i];
    int m = a < 0 ? -a : a;
    int c = 0;
    while (m >= 7) { m -= 7; ++c; }
    q[i] = a < 0 ? -c : c;
    r[i] = a < 0 ? -m : m;
  }
}

// Dequantize signed 8-bit values: out = s * q (ld.global.s8, cvt.rn.f32.s32).
extern "C" __global__ void dequant_s8(const signed char* q, float* out, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = s * (float)q[i];
}

// Bug: reads the 8-bit values as unsigned, so -3 becomes 253.
extern "C" __global__ void dequant_u8(const unsigned char* q, float* out, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = s * (float)q[i];
}

// Reference: the same values stored as 32-bit integers.
extern "C" __global__ void dequant_s32(const int* q, float* out, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (float)q[i] * s;
}
