// Memory: vector loads and stores (float2, float4), shared memory, and the memory defects
// (out-of-bounds write and read, uninitialized global and shared reads, a store to a
// tensor passed as read-only).

// out = a * x + y, scalar.
extern "C" __global__ void axpy(const float* x, const float* y, float* out, int n, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

// out = a * x + y with ld.global.v4.f32 / st.global.v4.f32; n4 = n / 4.
extern "C" __global__ void axpy_v4(const float4* x, const float4* y, float4* out, int n4, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 p = x[i], q = y[i];
    out[i] = make_float4(a * p.x + q.x, a * p.y + q.y, a * p.z + q.z, a * p.w + q.w);
  }
}

// Bug: the last two components of each float4 are stored swapped.
extern "C" __global__ void axpy_v4_zw_swapped(const float4* x, const float4* y, float4* out, int n4, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 p = x[i], q = y[i];
    out[i] = make_float4(a * p.x + q.x, a * p.y + q.y, a * p.w + q.w, a * p.z + q.z);
  }
}

// Complex product of interleaved (re, im) pairs with ld/st.global.v2.f32.
extern "C" __global__ void cmul_v2(const float2* p, const float2* q, float2* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float2 a = p[i], b = q[i];
    out[i] = make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
  }
}

// Bug: multiplies by the conjugate of q.
extern "C" __global__ void cmul_v2_conj(const float2* p, const float2* q, float2* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float2 a = p[i], b = q[i];
    out[i] = make_float2(a.x * b.x + a.y * b.y, a.y * b.x - a.x * b.y);
  }
}

// Reference complex product with scalar loads and stores.
extern "C" __global__ void cmul_scalar(const float* p, const float* q, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float ar = p[2 * i], ai = p[2 * i + 1], br = q[2 * i], bi = q[2 * i + 1];
    out[2 * i] = ar * br - ai * bi;
    out[2 * i + 1] = ai * br + ar * bi;
  }
}

// Reverse each 64-element block through shared memory. blockDim = 64, n = 64 * gridDim.
extern "C" __global__ void reverse64_smem(const float* x, float* out) {
  __shared__ float s[64];
  int t = threadIdx.x, base = blockIdx.x * 64;
  s[t] = x[base + t];
  __syncthreads();
  out[base + t] = s[63 - t];
}

// Bug: only the first 32 threads load the tile, so threads 0..31 read s[32..63],
// which nobody wrote.
extern "C" __global__ void reverse64_smem_halfload(const float* x, float* out) {
  __shared__ float s[64];
  int t = threadIdx.x, base = blockIdx.x * 64;
  if (t < 32) s[t] = x[base + t];
  __syncthreads();
  out[base + t] = s[63 - t];
}

// Reference: reverse each 64-element block reading global memory directly.
extern "C" __global__ void reverse64_direct(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[(i / 64) * 64 + 63 - (i % 64)];
}

// out = a * x, tail guarded.
extern "C" __global__ void scale(const float* x, float* out, int n, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i];
}

// Bug: the load is guarded but the store is not: threads past n write past the end of out.
extern "C" __global__ void scale_unguarded_store(const float* x, float* out, int n, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.f;
  out[i] = a * v;
}

// Forward difference with zero padding: out[i] = x[i+1] - x[i], x[n] taken as 0.
extern "C" __global__ void diff_fwd(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (i + 1 < n ? x[i + 1] : 0.f) - x[i];
}

// Bug: no padding: the last thread reads x[n], one past the end.
extern "C" __global__ void diff_fwd_overread(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i + 1] - x[i];
}

// out += x * y (assumes out holds something meaningful, e.g. zeros).
extern "C" __global__ void mul_accumulate(const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += x[i] * y[i];
}

// out = x * y
extern "C" __global__ void mul_store(const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] * y[i];
}

// relu that also records the mask: out = x > 0 ? x : 0, mask = x > 0.
extern "C" __global__ void relu_with_mask(const float* x, float* out, int* mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    bool m = v > 0.f;
    mask[i] = m ? 1 : 0;
    out[i] = m ? v : 0.f;
  }
}

// Row sums of a tensor whose rows are `stride` elements apart (t_mem_13, 14), one thread per
// row. row_sum_packed assumes packed rows and reads the padding between them;
// row_sum_touch_pad also reads the padding before its row (rows after the first) and
// multiplies it by zero.
extern "C" __global__ void row_sum_stride(const float* x, float* out, int n, int stride) {
  int r = threadIdx.x;
  float s = 0.f;
  for (int j = 0; j < n; ++j) s += x[r * stride + j];
  out[r] = s;
}

extern "C" __global__ void row_sum_packed(const float* x, float* out, int n, int) {
  int r = threadIdx.x;
  float s = 0.f;
  for (int j = 0; j < n; ++j) s += x[r * n + j];
  out[r] = s;
}

extern "C" __global__ void row_sum_touch_pad(const float* x, float* out, int n, int stride) {
  int r = threadIdx.x;
  float s = 0.f;
  for (int j = 0; j < n; ++j) s += x[r * stride + j];
  out[r] = r > 0 ? s + 0.f * x[r * stride - 1] : s;
}
