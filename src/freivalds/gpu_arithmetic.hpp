#pragma once
// The rounding structure of the CUDA kernels' sums (src/freivalds/cuda/tiled_kernels.cuh),
// shared with the tolerance derivation (tolerance.cpp, gpu_check_arithmetic) so that the bound
// and the kernels cannot drift apart: the kernels static_assert these numbers.
//
// A lane chains kGpuChainTerms products of one row value in f32 FMAs, starting from 0: in
// pass 2 the A and C terms of its 16-byte pieces (two items of 4 + 4 for 4-byte elements, one
// of 8 + 8 for 2-byte), in pass 1 as many terms of B; then the chains of kGpuTreeLanes lanes
// are added by a tree of kGpuTreeLevels f32 additions (by shuffles, or through shared memory
// in the same pairing: the same sums either way), and the result goes into an f64
// accumulator. A term is therefore rounded at most kGpuF32Roundings times in f32.
#include "freivalds/hd.hpp"

namespace racer::freivalds {

constexpr int kGpuTreeLanes = 8;
constexpr int kGpuTreeLevels = 3;  // log2(kGpuTreeLanes)
static_assert(1 << kGpuTreeLevels == kGpuTreeLanes);

// 16 for every format: longer chains spread the tree and the f64 accumulation over more terms
// (for f32 half the tree's instructions of 8-term chains, bench/freivalds/RESULTS.md run10) and
// cost d_am a few units of 2^-24 (tolerance.cpp, part 3).
constexpr int kGpuChainTerms = 16;

// Most f32 roundings of one term before the f64 accumulator.
constexpr int kGpuF32Roundings = kGpuChainTerms + kGpuTreeLevels;

}  // namespace racer::freivalds
