#pragma once
// The rounding structure of the CUDA kernels' sums (src/freivalds/cuda/tiled_kernels.cuh),
// shared with the tolerance derivation (tolerance.cpp, gpu_check_arithmetic) so that the bound
// and the kernels cannot drift apart: the kernels static_assert these numbers.
//
// A lane chains the products of one item in f32 FMAs, starting from 0: one 16-byte load of A
// and one of C in pass 2, two 16-byte loads of B in pass 1, so 2 x (16 / element size) terms;
// then the chains of kGpuTreeLanes lanes are added by a tree of kGpuTreeLevels f32 additions
// (by shuffles, or through shared memory in the same pairing: the same sums either way),
// and the result goes into an f64 accumulator. A term is therefore rounded at most
// gpu_chain_terms + kGpuTreeLevels times in f32.
#include "freivalds/hd.hpp"

namespace racer::freivalds {

constexpr int kGpuTreeLanes = 8;
constexpr int kGpuTreeLevels = 3;  // log2(kGpuTreeLanes)
static_assert(1 << kGpuTreeLevels == kGpuTreeLanes);

RACER_HD constexpr int gpu_chain_terms(int element_bytes) { return 2 * (16 / element_bytes); }

// Most f32 roundings of one term before the f64 accumulator.
RACER_HD constexpr int gpu_f32_roundings(int element_bytes) { return gpu_chain_terms(element_bytes) + kGpuTreeLevels; }

}  // namespace racer::freivalds
