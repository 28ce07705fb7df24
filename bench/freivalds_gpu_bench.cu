// Freivalds on an NVIDIA GPU (issue #8): the check's time as a percentage of the matmul it
// checks, medians of repeated runs, next to the bandwidth floor; then the detection table
// (single-element corruptions at multiples of the tolerance) and false alarms over correct
// products. Needs only the CUDA toolkit; built from the shipped sources with
//   nvcc -std=c++20 -O3 -gencode=arch=compute_90,code=sm_90 -DRACER_FV_ALL_SHAPES -I src bench/freivalds_gpu_bench.cu \
//     src/freivalds/cuda/device_check.cu src/freivalds/cuda/device_data.cu \
//     src/freivalds/tolerance.cpp src/freivalds/format.cpp -lcublas -o freivalds_gpu_bench
// Usage: freivalds_gpu_bench OUT_DIR [--quick | --sweep | --shapes | --profile]
//   --sweep: kernel shapes and the overhead table only; --shapes: the kernel shapes only; --profile: a few plain launches at
//   n = 8192 (FV_PROFILE_N=n: another size) for Nsight Compute (FV_PROFILE_SHAPE=i picks
//   kShapes[i], else the library's default); FV_SWEEP_FROM=i starts the shape sweep at
//   kShapes[i] (FV_SWEEP_TO=j ends it at kShapes[j]); FV_SWEEP_SIZES=4096,8192 sets the sweep's sizes; FV_TABLE_DEFAULTS=1 times the
//   overhead tables with the library's default shapes, not the sweep's choice.
// Writes OUT_DIR/freivalds_gpu.jsonl (one measurement a line, floats as exact hex) and prints
// Markdown tables.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "freivalds/cuda/device_check.cuh"
#include "freivalds/cuda/device_data.cuh"
#include "freivalds/tolerance.hpp"

using namespace racer::freivalds;
using namespace racer::freivalds::cuda;

namespace {

FILE* jsonl = nullptr;
std::string device_profile;

std::string hex(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "\"%a\"", v);
  return b;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

struct Timer {
  cudaEvent_t a, b;
  Timer() { cudaEventCreate(&a), cudaEventCreate(&b); }
  ~Timer() { cudaEventDestroy(a), cudaEventDestroy(b); }
  template <class F> double ms(F f, cudaStream_t s) {
    cudaEventRecord(a, s);
    f();
    cudaEventRecord(b, s);
    cudaEventSynchronize(b);
    float t = 0;
    cudaEventElapsedTime(&t, a, b);
    return t;
  }
};

Tolerance tolerance_for(Format f, int64_t n, int k, ErrorModel m) {
  return derive_tolerance({f, n, n, n, k, m, 0x1p-40, gpu_check_arithmetic(f)});
}

// The paper's method for comparison: three skinny GEMMs (X = B R, Y = A X, Y -= C R) through
// cuBLAS, no magnitudes, no verdict. For bf16/f16 the skinny operands are in the format too
// (cuBLAS needs matching input types), which a real check could not afford; timing only.
double baseline_ms(cublasHandle_t h, Format f, int64_t n, int k, const void* a, const void* b, const void* c, void* r,
                   void* x, float* y, cudaStream_t s, Timer& t) {
  cudaDataType ty = f == Format::BF16 ? CUDA_R_16BF : f == Format::F16 ? CUDA_R_16F : CUDA_R_32F;
  cublasComputeType_t ct = f == Format::TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  const float one = 1, zero = 0, minus = -1;
  const int ni = static_cast<int>(n);
  auto run = [&] {
    // Column-major views: X^T (k x n) = R^T B^T etc.
    cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, k, ni, ni, &one, r, ty, k, b, ty, ni, &zero, x, ty, k, ct, CUBLAS_GEMM_DEFAULT);
    cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, k, ni, ni, &one, x, ty, k, a, ty, ni, &zero, y, CUDA_R_32F, k, ct, CUBLAS_GEMM_DEFAULT);
    cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, k, ni, ni, &minus, r, ty, k, c, ty, ni, &one, y, CUDA_R_32F, k, ct, CUBLAS_GEMM_DEFAULT);
  };
  for (int i = 0; i < 3; ++i) run();
  std::vector<double> v;
  for (int i = 0; i < 20; ++i) v.push_back(t.ms(run, s));
  return median(v);
}

int shape_for(Format f);

// The SM clock now, in MHz: one thread spins a fixed number of cycles and the device's
// nanosecond timer measures how long that took (a check after seconds of matmul may run at a
// lower clock than one on a rested GPU; the tables record both clocks).
__global__ void spin_cycles(long long cycles, unsigned long long* out) {
  unsigned long long t0, t1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  const long long c0 = clock64();
  while (clock64() - c0 < cycles) {}
  const long long c1 = clock64();
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
  out[0] = static_cast<unsigned long long>(c1 - c0), out[1] = t1 - t0;
}
double sm_mhz(cudaStream_t s) {
  static unsigned long long* d = nullptr;
  if (!d) cuda_check(cudaMalloc(&d, 2 * sizeof *d), "alloc");
  spin_cycles<<<1, 1, 0, s>>>(1000000, d);  // about 0.5 ms: the timer's granularity is at most 1 us
  unsigned long long h[2];
  cuda_check(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s), "read the clock probe");
  cuda_check(cudaStreamSynchronize(s), "clock probe");
  return h[1] ? 1e3 * static_cast<double>(h[0]) / static_cast<double>(h[1]) : NAN;
}

void overhead_table(const std::vector<Format>& formats, const std::vector<int64_t>& sizes, int k, cudaStream_t s,
                    cublasHandle_t h) {
  const double peak_bw = 4.8e12;  // vendor's HBM3e figure, bytes/s
  auto name = [](int sh) { return sh < 0 ? std::string("the library's default") : "shape " + std::to_string(sh); };
  std::printf("\n## Overhead, k = %d (check = both passes, magnitudes, verdict; one CUDA graph, timed right after the matmul's repetitions; rested: after 0.3 s idle; after each matmul: matmul and check alternating, the check timed; kernel %s for f32/tf32, %s for bf16/f16)\n\n",
              k, name(shape_for(Format::F32)).c_str(), name(shape_for(Format::BF16)).c_str());
  std::printf("| format | n | matmul ms | matmul TFLOP/s | check ms | overhead | check GB/s | floor at 4.8 TB/s | paper H100 f32 | target | cuBLAS 3-GEMM ms | host round trip ms | verdict | SM MHz after matmul / after check | check ms rested | check ms after each matmul (overhead) |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  const double paper[] = {185.0, 42.8, 8.1, 2.5, 1.06, 0.48};
  for (Format f : formats) {
    int64_t nmax = sizes.back();
    size_t es = element_size(f);
    void *a, *b, *c, *r, *x;
    float* y;
    cuda_check(cudaMalloc(&a, es * nmax * nmax), "alloc A");
    cuda_check(cudaMalloc(&b, es * nmax * nmax), "alloc B");
    cuda_check(cudaMalloc(&c, es * nmax * nmax), "alloc C");
    cuda_check(cudaMalloc(&r, 4 * nmax * k), "alloc");
    cuda_check(cudaMalloc(&x, 4 * nmax * k), "alloc");
    cuda_check(cudaMalloc(&y, 4 * nmax * k), "alloc");
    cudaMemset(r, 0, 4 * nmax * k);
    Timer t;
    for (size_t si = 0; si < sizes.size(); ++si) {
      int64_t n = sizes[si];
      fill_matrix(f, a, n * n, 1 ^ 0xA, s);
      fill_matrix(f, b, n * n, 1 ^ 0xB, s);
      int mm_reps = n <= 4096 ? 20 : n <= 8192 ? 10 : n <= 16384 ? 5 : 3;
      int ck_reps = n <= 8192 ? 50 : 20;
      for (int i = 0; i < 2; ++i) matmul(h, f, n, a, b, c);
      std::vector<double> mm;
      for (int i = 0; i < mm_reps; ++i) mm.push_back(t.ms([&] { matmul(h, f, n, a, b, c); }, s));
      const double mhz_matmul = sm_mhz(s);
      Tolerance tol = tolerance_for(f, n, k, ErrorModel::WorstCase);
      DeviceCheck chk(f, n, k, 2, tol.coef, s);
      chk.set_shape(shape_for(f));
      chk.capture(a, b, c);
      for (int i = 0; i < 3; ++i) chk.launch();
      std::vector<double> ck, wall;
      for (int i = 0; i < ck_reps; ++i) ck.push_back(t.ms([&] { chk.launch(); }, s));
      const double mhz_check = sm_mhz(s);
      // The same check on a rested GPU (0.3 s idle first): the headline above is the check right
      // after the matmul it checks, as it would run in production.
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      std::vector<double> rested;
      for (int i = 0; i < ck_reps; ++i) rested.push_back(t.ms([&] { chk.launch(); }, s));
      for (int i = 0; i < std::min(ck_reps, 20); ++i) {
        auto w0 = std::chrono::steady_clock::now();
        chk.launch();
        chk.verdict();
        wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - w0).count());
      }
      // Each check right after a matmul of its own, as a check of every product would run (the runs
      // above repeat the check 20-50 times in a row, which at n = 32768 drives the GPU to its power
      // limit by itself, bench/freivalds/RESULTS.md run22).
      const int il_reps = n <= 8192 ? 20 : n <= 16384 ? 10 : 5;
      std::vector<double> interleaved;
      for (int i = 0; i < il_reps; ++i) {
        matmul(h, f, n, a, b, c);
        interleaved.push_back(t.ms([&] { chk.launch(); }, s));
      }
      DeviceVerdict v = chk.verdict();
      double base = baseline_ms(h, f, n, k, a, b, c, r, x, y, s, t);
      double mm_ms = median(mm), ck_ms = median(ck);
      double bytes = 3.0 * n * n * es;
      double floor_pct = 100 * (bytes / peak_bw * 1e3) / mm_ms;
      double overhead = 100 * ck_ms / mm_ms;
      double paper_pct = si < 6 && sizes.size() == 6 ? paper[si] : NAN;
      double target = f == Format::BF16 && n >= 8192 ? std::min(1.0, paper_pct / 2) : paper_pct / 2;
      const double il_ms = median(interleaved);
      std::printf("| %s | %lld | %.4f | %.1f | %.4f | %.3f%% | %.0f | %.3f%% | %.2f%% | <= %.3g%% %s | %.4f | %.4f | %s (ratio %.3g) | %.0f / %.0f | %.4f | %.4f (%.3f%%) |\n",
                  format_name(f), static_cast<long long>(n), mm_ms, 2.0 * n * n * n / mm_ms / 1e9, ck_ms, overhead,
                  bytes / ck_ms / 1e6, floor_pct, paper_pct, target, overhead <= target ? "met" : "NOT met", base,
                  median(wall), v.pass ? "pass" : "FAIL", v.ratio, mhz_matmul, mhz_check, median(rested), il_ms, 100 * il_ms / mm_ms);
      std::fflush(stdout);
      std::fprintf(jsonl,
                   "{\"kind\":\"freivalds_overhead\",\"backend\":\"cuda\",\"device\":\"%s\",\"format\":\"%s\",\"n\":%lld,\"k\":%d,"
                   "\"matmul_ms_median\":%s,\"matmul_reps\":%d,\"check_ms_median\":%s,\"check_reps\":%d,\"overhead_pct\":%s,"
                   "\"floor_pct\":%s,\"paper_h100_f32_pct\":%s,\"target_pct\":%s,\"baseline_3gemm_ms\":%s,\"roundtrip_ms_median\":%s,"
                   "\"verdict\":\"%s\",\"worst_ratio\":%s,\"residual\":%s,\"tolerance\":%s,\"seed\":1,\"vector_seed\":2,"
                   "\"sm_mhz_after_matmul\":%s,\"sm_mhz_after_check\":%s,\"check_rested_ms_median\":%s,\"check_after_each_matmul_ms_median\":%s,"
                   "\"after_each_matmul_reps\":%d}\n",
                   device_profile.c_str(), format_name(f), static_cast<long long>(n), k, hex(mm_ms).c_str(), mm_reps,
                   hex(ck_ms).c_str(), ck_reps, hex(overhead).c_str(), hex(floor_pct).c_str(), hex(paper_pct).c_str(),
                   hex(target).c_str(), hex(base).c_str(), hex(median(wall)).c_str(), v.pass ? "pass" : "fail",
                   hex(v.ratio).c_str(), hex(v.residual).c_str(), hex(v.tolerance).c_str(), hex(mhz_matmul).c_str(),
                   hex(mhz_check).c_str(), hex(median(rested)).c_str(), hex(il_ms).c_str(), il_reps);
      std::fflush(jsonl);
    }
    for (void* p : {a, b, c, r, x, static_cast<void*>(y)}) cudaFree(p);
  }
}

int best_shape[2] = {-1, -1};  // [f32/tf32, bf16/f16]; -1: the library's default for the size
int shape_for(Format f) { return f == Format::BF16 || f == Format::F16 ? best_shape[1] : best_shape[0]; }

// Times every kernel shape (skinny_kernels.cuh) at k = 10 and keeps, per format, the one with
// the smallest sum over sizes of its time relative to the fastest shape at that size.
void shape_sweep(const std::vector<Format>& formats, const std::vector<int64_t>& sizes, cudaStream_t s) {
  std::printf("\n## Kernel shapes, k = 10: check ms (median of 20), GB/s of A, B, C read (DIFFERS: the shape's worst entry or its tolerance disagrees with the first shape's)\n\n| format | n |");
  // FV_SWEEP_FROM=8 times only the tiled shapes (the row-per-lane ones are in run4 and run6).
  const char* from_env = std::getenv("FV_SWEEP_FROM");
  const int first = from_env ? std::atoi(from_env) : 0;
  // FV_SWEEP_TO=i ends it at kShapes[i] (included).
  const char* to_env = std::getenv("FV_SWEEP_TO");
  const int end = to_env ? std::min(std::atoi(to_env) + 1, kShapeCount) : kShapeCount;
  for (int sh = first; sh < end; ++sh)
    if (kShapes[sh].tiled)
      std::printf(" shape %d (tiled: rows/lane group %d, CTAs/SM %d, block columns %d, items in flight %d%s) |", sh,
                  kShapes[sh].rows_per_lane, kShapes[sh].ctas_per_sm, kShapes[sh].block_cols, kShapes[sh].items_in_flight,
                  kShapes[sh].fold_verdict ? (kShapes[sh].overlap_passes ? ", cp.async ring, overlapped, verdict in pass 2" : ", cp.async ring, verdict in pass 2")
                  : kShapes[sh].async_copies ? ", cp.async ring" : kShapes[sh].overlap_passes ? ", overlapped passes" : "");
    else
      std::printf(" shape %d (rows/lane %d, prefetch %s, lanes/row %d, min blocks %d) |", sh, kShapes[sh].rows_per_lane,
                  kShapes[sh].prefetch ? "yes" : "no", kShapes[sh].lanes_per_row, kShapes[sh].min_blocks);
  std::printf("\n| --- | --- |");
  for (int sh = first; sh < end; ++sh) std::printf(" --- |");
  std::printf("\n");
  Timer t;
  for (Format f : formats) {
    int64_t nmax = sizes.back();
    size_t es = element_size(f);
    void *a, *b, *c;
    cuda_check(cudaMalloc(&a, es * nmax * nmax), "alloc");
    cuda_check(cudaMalloc(&b, es * nmax * nmax), "alloc");
    cuda_check(cudaMalloc(&c, es * nmax * nmax), "alloc");
    double score[kShapeCount] = {};
    for (int64_t n : sizes) {
      fill_matrix(f, a, n * n, 3, s);
      fill_matrix(f, b, n * n, 4, s);
      fill_matrix(f, c, n * n, 5, s);
      double ms[kShapeCount];
      DeviceVerdict seen[kShapeCount];
      for (int sh = first; sh < end; ++sh) {
        DeviceCheck chk(f, n, 10, 2, tolerance_for(f, n, 10, ErrorModel::WorstCase).coef, s);
        chk.set_shape(sh);
        chk.capture(a, b, c);
        for (int i = 0; i < 3; ++i) chk.launch();
        std::vector<double> v;
        for (int i = 0; i < 20; ++i) v.push_back(t.ms([&] { chk.launch(); }, s));
        ms[sh] = median(v);
        seen[sh] = chk.verdict();  // C is random here: every shape must name the same worst entry
      }
      double best = *std::min_element(ms + first, ms + end);
      std::printf("| %s | %lld |", format_name(f), static_cast<long long>(n));
      for (int sh = first; sh < end; ++sh) {
        score[sh] += ms[sh] / best;
        const DeviceVerdict& ref = seen[first];  // shape 0 (row per lane) unless the sweep starts later
        // The tolerance's magnitudes are f32 chains of other lengths in other shapes: they may
        // differ by a few of the model's 19 roundings (2^-24 each), far below a missing term.
        bool same = seen[sh].row == ref.row && seen[sh].vector == ref.vector &&
                    std::fabs(seen[sh].residual - ref.residual) <= 1e-6 * std::fabs(ref.residual) &&
                    std::fabs(seen[sh].tolerance - ref.tolerance) <= 1e-5 * std::fabs(ref.tolerance);
        std::printf(" %.4f (%.0f)%s |", ms[sh], 3.0 * n * n * es / ms[sh] / 1e6, same ? "" : " DIFFERS");
        // The worst entry too: builds of other code can be compared on it (C is random, so every
        // entry is a residual, and a change in the sums moves the worst one).
        std::fprintf(jsonl,
                     "{\"kind\":\"freivalds_shape\",\"device\":\"%s\",\"format\":\"%s\",\"n\":%lld,\"k\":10,\"shape\":%d,\"check_ms_median\":%s,"
                     "\"worst_row\":%lld,\"worst_vector\":%d,\"worst_residual\":%s}\n",
                     device_profile.c_str(), format_name(f), static_cast<long long>(n), sh, hex(ms[sh]).c_str(),
                     static_cast<long long>(seen[sh].row), seen[sh].vector, hex(seen[sh].residual).c_str());
      }
      std::printf("\n");
      std::fflush(stdout);
    }
    int best_sh = static_cast<int>(std::min_element(score + first, score + end) - score);
    best_shape[f == Format::BF16 || f == Format::F16 ? 1 : 0] = best_sh;
    for (void* p : {a, b, c}) cudaFree(p);
  }
  std::printf("\nchosen: shape %d for f32/tf32, shape %d for bf16/f16 (the library's default: %d, up to n = %lld %d)\n", best_shape[0],
              best_shape[1], kDefaultShape, static_cast<long long>(kOverlapUpTo), kDefaultShapeOverlapped);
}

// Host copies of every row's tolerance (from the magnitudes of the clean check just run).
std::vector<double> row_tolerances(DeviceCheck& chk, int64_t n) {
  std::vector<double> t(n);
  for (int64_t i = 0; i < n; ++i) t[i] = chk.row_tolerance(i);
  return t;
}

void detection(const std::vector<Format>& formats, int64_t n, int k, int products, int trials, cudaStream_t s,
               cublasHandle_t h) {
  const double factors[] = {0.1, 0.5, 1.0, 1.5, 3.0, 10.0};
  std::printf("\n## Detection, n = %lld, k = %d: single-element corruptions at multiples of the row's tolerance, %d trials each; false alarms over %d correct products\n\n",
              static_cast<long long>(n), k, trials, products);
  std::printf("| format | error model | false alarms | max ratio (correct) | tol / rms(C_i) | 0.1x | 0.5x | 1x | 1.5x | 3x | 10x |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (Format f : formats) {
    size_t es = element_size(f);
    void *a, *b, *c;
    cuda_check(cudaMalloc(&a, es * n * n), "alloc");
    cuda_check(cudaMalloc(&b, es * n * n), "alloc");
    cuda_check(cudaMalloc(&c, es * n * n), "alloc");
    Tolerance worst = tolerance_for(f, n, k, ErrorModel::WorstCase), prob = tolerance_for(f, n, k, ErrorModel::Probabilistic);
    DeviceCheck chk(f, n, k, 77, worst.coef, s);
    chk.capture(a, b, c);
    int alarms[2] = {0, 0};
    double max_ratio[2] = {0, 0};
    for (int p = 0; p < products; ++p) {
      fill_matrix(f, a, n * n, 1000 + p, s);
      fill_matrix(f, b, n * n, 5000 + p, s);
      matmul(h, f, n, a, b, c);
      for (int m = 0; m < 2; ++m) {
        chk.set_coefficients(m ? prob.coef : worst.coef);
        chk.launch();
        DeviceVerdict v = chk.verdict();
        alarms[m] += !v.pass;
        max_ratio[m] = std::max(max_ratio[m], v.ratio);
      }
    }
    // The last product is the one corrupted below; rms of C's rows for the floor column.
    std::vector<float> crow(n);
    for (int m = 0; m < 2; ++m) {
      const Tolerance& tol = m ? prob : worst;
      chk.set_coefficients(tol.coef);
      chk.launch();
      chk.verdict();
      std::vector<double> rt = row_tolerances(chk, n);
      std::mt19937_64 rng(42 + m);
      int detected[6] = {};
      double applied_ratio_sum[6] = {};
      double floor_rel = 0;
      for (int fi = 0; fi < 6; ++fi)
        for (int tr = 0; tr < trials; ++tr) {
          int64_t i = static_cast<int64_t>(rng() % n), j = static_cast<int64_t>(rng() % n);
          double sign = rng() & 1 ? 1.0 : -1.0;
          uint32_t saved = read_bits(f, c, i * n + j);
          double applied = corrupt_element(f, c, i * n + j, sign * factors[fi] * rt[i]);
          chk.launch();
          DeviceVerdict v = chk.verdict();
          detected[fi] += !v.pass;
          applied_ratio_sum[fi] += std::fabs(applied) / rt[i];
          write_bits(f, c, i * n + j, saved);
          std::fprintf(jsonl,
                       "{\"kind\":\"freivalds_detection\",\"backend\":\"cuda\",\"device\":\"%s\",\"format\":\"%s\",\"error_model\":\"%s\","
                       "\"n\":%lld,\"k\":%d,\"factor\":%s,\"row\":%lld,\"col\":%lld,\"applied_over_tol\":%s,\"verdict\":\"%s\",\"worst_ratio\":%s}\n",
                       device_profile.c_str(), format_name(f), error_model_name(m ? ErrorModel::Probabilistic : ErrorModel::WorstCase),
                       static_cast<long long>(n), k, hex(factors[fi]).c_str(), static_cast<long long>(i), static_cast<long long>(j),
                       hex(applied / rt[i]).c_str(), v.pass ? "pass" : "fail", hex(v.ratio).c_str());
        }
      // tolerance relative to the typical size of C's entries, over a few rows
      for (int64_t i = 0; i < 8; ++i) {
        int64_t row = i * (n / 8);
        std::vector<uint16_t> raw16(n);
        double ss = 0;
        if (es == 4) {
          cudaMemcpy(crow.data(), static_cast<char*>(c) + row * n * 4, 4 * n, cudaMemcpyDeviceToHost);
          for (float x : crow) ss += double(x) * x;
        } else {
          cudaMemcpy(raw16.data(), static_cast<char*>(c) + row * n * 2, 2 * n, cudaMemcpyDeviceToHost);
          for (uint16_t r16 : raw16) {
            float x = f == Format::BF16 ? __builtin_bit_cast(float, uint32_t(r16) << 16)
                                        : static_cast<float>(__builtin_bit_cast(_Float16, r16));
            ss += double(x) * x;
          }
        }
        floor_rel += rt[row] / std::sqrt(ss / n) / 8;
      }
      std::printf("| %s | %s | %d of %d | %.3g | %.3g |", format_name(f), error_model_name(m ? ErrorModel::Probabilistic : ErrorModel::WorstCase),
                  alarms[m], products, max_ratio[m], floor_rel);
      for (int fi = 0; fi < 6; ++fi) std::printf(" %d/%d |", detected[fi], trials);
      std::printf("\n");
      std::fflush(stdout);
      std::fprintf(jsonl,
                   "{\"kind\":\"freivalds_false_alarms\",\"backend\":\"cuda\",\"device\":\"%s\",\"format\":\"%s\",\"error_model\":\"%s\",\"n\":%lld,\"k\":%d,"
                   "\"products\":%d,\"false_alarms\":%d,\"max_ratio\":%s,\"tol_over_rms_c\":%s}\n",
                   device_profile.c_str(), format_name(f), error_model_name(m ? ErrorModel::Probabilistic : ErrorModel::WorstCase),
                   static_cast<long long>(n), k, products, alarms[m], hex(max_ratio[m]).c_str(), hex(floor_rel).c_str());
    }
    for (void* p : {a, b, c}) cudaFree(p);
  }
}

std::string read_profile() {
  std::string s;
  if (FILE* p = popen("nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total --format=csv,noheader 2>/dev/null", "r")) {
    char buf[512];
    while (std::fgets(buf, sizeof buf, p)) s += buf;
    pclose(p);
  }
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  for (char& ch : s)
    if (ch == '"') ch = '\'';
  return s.empty() ? "unknown (nvidia-smi not available)" : s;
}

}  // namespace

__global__ void empty_kernel() {}

// What a check's graph costs with no work: the same 4 nodes (a memset, then three kernels),
// empty, replayed like the check's (at n = 4096 a visible share of the check's time), and the
// same without the memset (what dropping it could save, bench/freivalds/RESULTS.md run20).
void graph_floor(cudaStream_t s) {
  void* w = nullptr;
  cuda_check(cudaMalloc(&w, 64), "alloc");
  for (bool with_memset : {false, true}) {
    cudaGraph_t g;
    cudaGraphExec_t exec;
    cuda_check(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "capture");
    if (with_memset) cudaMemsetAsync(w, 0, 64, s);
    for (int i = 0; i < 3; ++i) empty_kernel<<<1, 32, 0, s>>>();
    cuda_check(cudaStreamEndCapture(s, &g), "capture");
    cuda_check(cudaGraphInstantiate(&exec, g, 0), "instantiate");
    Timer t;
    for (int i = 0; i < 3; ++i) cudaGraphLaunch(exec, s);
    std::vector<double> v;
    for (int i = 0; i < 50; ++i) v.push_back(t.ms([&] { cudaGraphLaunch(exec, s); }, s));
    std::printf("\nempty graph of %s: %.4f ms (median of 50)\n", with_memset ? "the check's 4 nodes (memset, 3 empty kernels)" : "3 empty kernels",
                median(v));
    std::fprintf(jsonl, "{\"kind\":\"freivalds_empty_graph\",\"device\":\"%s\",\"nodes\":%d,\"ms_median\":%s,\"reps\":50}\n",
                 device_profile.c_str(), with_memset ? 4 : 3, hex(median(v)).c_str());
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(g);
  }
  cudaFree(w);
}

// FV_SWEEP_SIZES=4096,8192 replaces the sweep's sizes.
std::vector<int64_t> sweep_sizes(std::vector<int64_t> fallback) {
  const char* env = std::getenv("FV_SWEEP_SIZES");
  if (!env) return fallback;
  std::vector<int64_t> sizes;
  for (const char* p = env; *p;) {
    char* end = nullptr;
    const long long v = std::strtoll(p, &end, 10);
    if (end == p || v < 16 || v % 16 != 0) {
      std::fprintf(stderr, "FV_SWEEP_SIZES: '%s' is not a comma-separated list of sizes divisible by 16\n", env);
      std::exit(3);
    }
    sizes.push_back(v);
    p = *end == ',' ? end + 1 : end;
  }
  return sizes;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: freivalds_gpu_bench OUT_DIR [--quick]\n");
    return 3;
  }
  bool quick = argc > 2 && std::strcmp(argv[2], "--quick") == 0;
  bool sweep_only = argc > 2 && std::strcmp(argv[2], "--sweep") == 0;
  bool shapes_only = argc > 2 && std::strcmp(argv[2], "--shapes") == 0;
  bool profile = argc > 2 && std::strcmp(argv[2], "--profile") == 0;
  std::string out = std::string(argv[1]) + "/freivalds_gpu.jsonl";
  jsonl = std::fopen(out.c_str(), "w");
  if (!jsonl) return 3;
  device_profile = read_profile();
  std::printf("# Freivalds GPU bench\n\ndevice: %s\n", device_profile.c_str());
  cudaStream_t s;
  cudaStreamCreate(&s);
  cublasHandle_t h;
  cublasCreate(&h);
  cublasSetStream(h, s);
  try {
    if (profile) {  // a few plain launches for Nsight Compute (bf16, f32 at n = 8192)
      for (Format f : {Format::BF16, Format::F32}) {
        const char* n_env = std::getenv("FV_PROFILE_N");
        const int64_t n = n_env ? std::atoll(n_env) : 8192;
        void *a, *b, *c;
        for (void** p : {&a, &b, &c}) cuda_check(cudaMalloc(p, element_size(f) * n * n), "alloc");
        fill_matrix(f, a, n * n, 1, s), fill_matrix(f, b, n * n, 2, s), fill_matrix(f, c, n * n, 3, s);
        DeviceCheck chk(f, n, 10, 2, tolerance_for(f, n, 10, ErrorModel::WorstCase).coef, s);
        if (const char* sh = std::getenv("FV_PROFILE_SHAPE")) chk.set_shape(std::atoi(sh));  // else the library's default
        for (int i = 0; i < 3; ++i) chk.enqueue(a, b, c);
        chk.verdict();
        for (void* p : {a, b, c}) cudaFree(p);
      }
      return 0;
    }
    if (sweep_only || shapes_only) {
      graph_floor(s);
      shape_sweep({Format::F32, Format::BF16}, sweep_sizes({2048, 8192, 32768}), s);
      if (std::getenv("FV_TABLE_DEFAULTS")) best_shape[0] = best_shape[1] = -1;
      if (!shapes_only) overhead_table({Format::F32, Format::BF16}, {1024, 2048, 4096, 8192, 16384, 32768}, 10, s, h);
      std::fclose(jsonl);
      return 0;
    }
    std::vector<int64_t> sizes = quick ? std::vector<int64_t>{1024, 2048} : std::vector<int64_t>{1024, 2048, 4096, 8192, 16384, 32768};
    graph_floor(s);
    shape_sweep({Format::F32, Format::BF16}, quick ? std::vector<int64_t>{1024, 2048} : sweep_sizes({2048, 8192, 32768}), s);
    if (std::getenv("FV_TABLE_DEFAULTS")) best_shape[0] = best_shape[1] = -1;
    overhead_table({Format::F32, Format::BF16}, sizes, 10, s, h);
    if (!quick) overhead_table({Format::TF32, Format::F16}, {1024, 4096, 16384}, 10, s, h);
    detection({Format::F32, Format::TF32, Format::BF16, Format::F16}, quick ? 1024 : 4096, 40, quick ? 20 : 500,
              quick ? 5 : 40, s, h);
  } catch (const std::exception& e) {
    std::printf("\nFAILED: %s\n", e.what());
    return 1;
  }
  std::fclose(jsonl);
  return 0;
}
