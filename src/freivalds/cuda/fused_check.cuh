#pragma once
// A chunk's whole check as one cooperative kernel: pass 1 over B, a grid-wide barrier, pass 2
// over A and C, and the verdict of each tile's rows by the tile's last CTA to finish pass 2. It
// saves the graph two kernels' launches and the gaps between them (most of the check at small n,
// where the passes are latency-bound). Cooperative launch guarantees that every CTA is resident,
// which the barrier needs; DeviceCheck uses this only where the grid fits (fused_grid_fits).
#include <cooperative_groups.h>

#include "freivalds/cuda/judge.cuh"
#include "freivalds/cuda/tiled_kernels.cuh"

namespace racer::freivalds::cuda {

// tile_done: a counter a tile (gridDim.x of them), zero on entry and left zero on exit.
template <class T, int KT, bool MAGS, int ROWS, int DEPTH, bool SMEM_TREE, int ASYNC>
__global__ void __launch_bounds__(tile_threads(ASYNC), tiled_min_ctas<T, ROWS, DEPTH, ASYNC>())
    fused_check(TileArgs<T> pass1, TileArgs<T> pass2, JudgeArgs judge, unsigned* tile_done) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  tiled_pass_body<T, KT, false, MAGS, ROWS, DEPTH, SMEM_TREE, ASYNC>(pass1, smem_raw);
  cooperative_groups::this_grid().sync();  // X = B R and the magnitudes of B are complete
  tiled_pass_body<T, KT, true, MAGS, ROWS, DEPTH, SMEM_TREE, ASYNC>(pass2, smem_raw);
  // Release this CTA's residuals, then count it in; the tile's last CTA acquires them all.
  __threadfence();
  __syncthreads();
  __shared__ bool last;
  if (threadIdx.x == 0) last = atomicAdd(tile_done + blockIdx.x, 1u) == gridDim.y - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  __shared__ unsigned long long warp_best[tile_threads(ASYNC) / 32];
  const int64_t first = static_cast<int64_t>(blockIdx.x) * pass2.tile_rows;
  judge_rows(judge, first, first + pass2.tile_rows < pass2.rows ? first + pass2.tile_rows : pass2.rows, warp_best);
  if (threadIdx.x == 0) tile_done[blockIdx.x] = 0;  // every CTA of the tile has counted: ready for the next chunk
}

}  // namespace racer::freivalds::cuda
