#pragma once
// A Freivalds check of an n x n product held on the GPU (row-major A, B, C of one format):
// the buffers, the per-chunk kernel sequence, an optional CUDA graph of it, and the verdict.
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "freivalds/format.hpp"
#include "freivalds/row_tolerance.hpp"

namespace racer::freivalds::cuda {

// Kernel shapes measured against each other by the GPU bench. Tiled shapes (tiled_kernels.cuh,
// the library's) differ in rows a lane group (rows_per_lane) and how many CTAs a
// multiprocessor is given work for (column splits);
// the older row-per-lane shapes (skinny_kernels.cuh, built only into the bench) in rows per
// lane (vector loads shared by more rows, more registers), whether the next 32-byte loads are
// issued before the current ones are used, lanes per row and a register cap.
struct Shape {
  int rows_per_lane;
  bool prefetch;
  int lanes_per_row;
  int min_blocks;  // __launch_bounds__ minimum blocks per multiprocessor (caps registers)
  bool tiled;
  int ctas_per_sm;  // tiled: column splits are chosen to give about this many CTAs a multiprocessor
  int block_cols;   // tiled: columns whose vectors a CTA stages at once (fewer at small n)
  int items_in_flight = 1;  // tiled: items whose loads are issued before the current one computes
  bool smem_tree = false;   // tiled: lanes' chains added through shared memory instead of shuffles
  // tiled: pass 2 and the verdict are launched as programmatic dependents (PDL), so pass 2's
  // CTAs start as pass 1's finish and load their first rows of A and C before they wait for X.
  bool overlap_passes = false;
  // tiled: each lane's loads of the next items are cp.async copies into a ring in shared
  // memory (items_in_flight + 1 items a thread) rather than register buffers; 2: the same in
  // CTAs of 256 threads (tile_threads).
  int async_copies = 0;
  // tiled: the verdict done at the end of pass 2, by the last CTA of each tile to finish, not
  // by a kernel of its own.
  bool fold_verdict = false;
};
constexpr Shape kShapes[] = {
    {2, false, 1, 1, false, 0, 0},   {2, true, 1, 1, false, 0, 0},   {2, false, 4, 1, false, 0, 0},
    {1, false, 4, 1, false, 0, 0},   {2, false, 8, 1, false, 0, 0},   {2, false, 2, 1, false, 0, 0},
    {2, false, 2, 4, false, 0, 0},   {1, false, 2, 6, false, 0, 0},   {4, false, 8, 0, true, 8, 256},
    {4, false, 8, 0, true, 16, 256}, {2, false, 8, 0, true, 8, 256},  {2, false, 8, 0, true, 16, 256},
    {4, false, 8, 0, true, 8, 512},  {4, false, 8, 0, true, 4, 256},  {2, false, 8, 0, true, 8, 128},
    {2, false, 8, 0, true, 16, 128},
    // run7: two items in flight, and fewer CTAs
    {4, false, 8, 0, true, 4, 256, 2}, {4, false, 8, 0, true, 8, 256, 2},   {2, false, 8, 0, true, 8, 256, 2},
    {2, false, 8, 0, true, 16, 128, 2}, {4, false, 8, 0, true, 4, 512},     {4, false, 8, 0, true, 6, 256},
    {4, false, 8, 0, true, 6, 256, 2},
    // run7: the tree through shared memory
    {4, false, 8, 0, true, 4, 256, 1, true}, {4, false, 8, 0, true, 8, 256, 1, true}, {2, false, 8, 0, true, 8, 256, 1, true},
    {2, false, 8, 0, true, 16, 128, 1, true}, {4, false, 8, 0, true, 8, 128, 1, true},
    // run8: shapes 13 and 14 with the passes overlapped
    {4, false, 8, 0, true, 4, 256, 1, false, true}, {2, false, 8, 0, true, 8, 128, 1, false, true},
    // run9: cp.async copies into a ring in shared memory, 2 or 3 items in flight
    {4, false, 8, 0, true, 3, 256, 2, false, false, true}, {4, false, 8, 0, true, 3, 128, 2, false, false, true},
    {4, false, 8, 0, true, 2, 256, 3, false, false, true}, {2, false, 8, 0, true, 4, 128, 2, false, false, true},
    {2, false, 8, 0, true, 3, 128, 3, false, false, true},
    // run9: 2 rows of f32 in 80 registers (6 CTAs a multiprocessor)
    {2, false, 8, 0, true, 6, 128}, {2, false, 8, 0, true, 5, 256},
    // run9: the ring in CTAs of 256 threads (4 f32 rows, 1 item ahead; 2 rows, 2 items ahead)
    {4, false, 8, 0, true, 2, 128, 1, false, false, 2}, {2, false, 8, 0, true, 2, 128, 2, false, false, 2},
    {4, false, 8, 0, true, 2, 128, 1, false, true, 2},
    // run10: 2 rows in the 256-thread ring, 1 item ahead, 3 CTAs (24 warps) a multiprocessor
    {2, false, 8, 0, true, 3, 128, 1, false, false, 2},
    // run12: shapes 37 and 39 with the verdict folded into pass 2
    {4, false, 8, 0, true, 2, 128, 1, false, false, 2, true}, {4, false, 8, 0, true, 2, 128, 1, false, true, 2, true}};
// (run9 also timed, under other numbers in earlier builds: loads issued before the vector
// staging and line prefetches, commit e672da3; 64-row tiles, commit d5a6461; 5 CTAs of 4 f32
// rows, commit 2fbf818; all slower or no better, RESULTS.md.)
constexpr int kShapeCount = 43;
constexpr int kFirstTiledShape = 8;
// The index into kShapes used unless set_shape picks another, for every format
// (bench/freivalds/RESULTS.md, run9 and run10). Shape 37: 4 rows a lane group in CTAs of 256
// threads whose next item is a cp.async copy into shared memory, read back with the rows in the
// order that spares the tree its selects, f32 chains spanning two items; against run7's shape 13,
// f32 -11% at n = 4096 and -5% at 8192 (run9), and with the two-item chains (run10) level at
// 16384 and 1-6% faster at 32768, where shape 13 had stayed the default; bf16 -13% to -15%
// against shape 33 at n = 4096-16384. Up to n = kOverlapUpTo, shape 39: the same kernels with
// pass 2 and the verdict launched as programmatic dependents (their launch overlaps the previous
// kernel's tail): 3-7% faster at n = 1024-4096, level at 8192, 10-16% slower at 16384 (run10).
constexpr int kDefaultShape = 37;
constexpr int kDefaultShapeOverlapped = 39;
constexpr int64_t kOverlapUpTo = 4096;
// Whether tiled shapes a and b run the same kernels (one template instance: rows a lane group,
// items in flight, tree, staging); they may still differ in launch (tiles, overlap, verdict).
constexpr bool same_kernels(const Shape& a, const Shape& b) {
  return a.tiled && b.tiled && a.rows_per_lane == b.rows_per_lane && a.items_in_flight == b.items_in_flight &&
         a.smem_tree == b.smem_tree && a.async_copies == b.async_copies;
}
static_assert(kShapes[kDefaultShapeOverlapped].overlap_passes && same_kernels(kShapes[kDefaultShapeOverlapped], kShapes[kDefaultShape]),
              "the overlapped default runs the default's kernels (one set of template instances)");
static_assert(kShapes[kDefaultShape].tiled, "the library builds only tiled shapes");
constexpr int default_shape(int64_t n) { return n <= kOverlapUpTo ? kDefaultShapeOverlapped : kDefaultShape; }

struct DeviceVerdict {
  bool pass;
  double residual, tolerance, ratio;
  int64_t row;
  int vector;
  int64_t failing_rows;
};

// Throws std::runtime_error naming the CUDA call on any CUDA failure.
void cuda_check(cudaError_t e, const char* what);
// Multiprocessors of the current device (for grid sizes).
int multiprocessors();

class DeviceCheck {
 public:
  // n % 16 == 0 (whole 32-byte loads). The vectors come from random_entry(vector_seed, j k + v).
  DeviceCheck(Format format, int64_t n, int k, uint64_t vector_seed, const ToleranceCoefficients& coef, cudaStream_t stream);
  ~DeviceCheck();
  DeviceCheck(const DeviceCheck&) = delete;
  DeviceCheck& operator=(const DeviceCheck&) = delete;

  void set_coefficients(const ToleranceCoefficients& coef);  // no graph rebuild needed
  void set_shape(int shape);                                  // index into kShapes, before capture
  void enqueue(const void* a, const void* b, const void* c);  // all kernels, on the stream
  void capture(const void* a, const void* b, const void* c);  // the same, as one CUDA graph
  void launch();                                              // replays the graph
  DeviceVerdict verdict();                                    // waits, then reads the result
  double row_tolerance(int64_t row);                          // after verdict()

 private:
  struct Chunk {
    int v0, kt, valid;
    float* r;  // n x kpad
    double *x_acc, *y_acc;  // n x 16 each, inside the workspace
  };
  template <class T> void enqueue_typed(const T* a, const T* b, const T* c);
  Format format_;
  int64_t n_;
  int k_;
  cudaStream_t stream_;
  std::vector<Chunk> chunks_;
  void* workspace_ = nullptr;
  size_t workspace_bytes_ = 0;
  int shape_ = -1;  // -1: the format's default
  double *mags_ = nullptr, *nb2_ = nullptr;
  float* x_ = nullptr;
  int* row_failed_ = nullptr;
  unsigned* tile_done_ = nullptr;  // pass 2's counters, a tile each, for a folded verdict
  unsigned long long* packed_ = nullptr;  // (ratio f32 bits << 32) | (row k + v), atomicMax
  unsigned long long* failing_ = nullptr;
  ToleranceCoefficients* coef_ = nullptr;
  ToleranceCoefficients host_coef_;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace racer::freivalds::cuda
