// The storage formats of the references' tensors, read into float and written back from it:
// the one conversion every naive reference here makes at its loads and stores (a reference's
// arithmetic is f32 throughout, whatever its tensors hold).
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>

static __device__ __forceinline__ float as_float(float v) { return v; }
static __device__ __forceinline__ float as_float(__half v) { return __half2float(v); }
static __device__ __forceinline__ float as_float(__nv_bfloat16 v) { return __bfloat162float(v); }
static __device__ __forceinline__ float as_float(signed char v) { return (float)v; }

template <typename T> __device__ T from_float(float v);
template <> __device__ __forceinline__ float from_float<float>(float v) { return v; }
template <> __device__ __forceinline__ __half from_float<__half>(float v) { return __float2half(v); }
template <> __device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) { return __float2bfloat16(v); }

// v rounded to T's precision, as a store to a T tensor and a load back would round it.
template <typename T> __device__ __forceinline__ float rnd(float v) { return as_float(from_float<T>(v)); }
