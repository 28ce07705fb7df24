/* The C interface of the separately built CUDA backend (libracer_freivalds_cuda.so), which
   `racer freivalds --gpu` loads at run time: the racer binary itself never needs libcudart or
   libcublas, so it starts and its CPU features work on machines without a GPU or CUDA. */
#pragma once
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RACER_FV_ABI_VERSION 3

typedef struct {
  int format;        /* racer::freivalds::Format as int */
  int64_t n;         /* A, B, C are n x n, generated on the device from seed */
  int k;
  uint64_t seed;        /* data seed */
  uint64_t vector_seed; /* seed of the random vectors */
  double corrupt_factor; /* > 0: after a first check, add factor * tol_i to C[i, j] and check again */
  int64_t corrupt_row, corrupt_col;
  /* tolerance coefficients (racer::freivalds::ToleranceCoefficients, in order) */
  double coef[6];
} racer_fv_request;

typedef struct {
  int pass;
  double residual, tolerance, worst_ratio;
  int64_t worst_row;
  int worst_vector;
  int64_t failing_rows;
  double applied_delta, corrupt_row_tolerance; /* when corrupt_factor > 0 */
  double check_ms, matmul_ms;
  char device[256];
  char error[512];   /* non-empty: the request failed (the text says why) */
} racer_fv_response;

/* The exact check of an int8 (is_signed) or uint8 product with int32 C, modulo 2^61 - 1. */
typedef struct {
  int is_signed;
  int64_t n;            /* A, B, C are n x n, generated on the device from seed */
  int k;
  uint64_t seed;        /* data seed */
  uint64_t vector_seed; /* seed of the random vectors (the CPU check draws the same) */
  int corrupt;          /* nonzero: after a first check, add 1 to C[corrupt_row, corrupt_col] and check again */
  int64_t corrupt_row, corrupt_col;
} racer_fv_modular_request;

typedef struct {
  int pass;
  int64_t first_bad_row; /* -1 when it passes; else the first row (then vector) whose residual is nonzero */
  int first_bad_vector;
  uint64_t first_bad_residual; /* (A X - C R) mod 2^61 - 1 there */
  int64_t failing_rows;
  double check_ms, gemm_ms;
  char device[256];
  char error[512];   /* non-empty: the request failed (the text says why) */
} racer_fv_modular_response;

int racer_fv_abi_version(void);
/* 0 and a reason in `why` (256 bytes) when no device can be used. */
int racer_fv_device_count(char* why);
/* Runs a check (and, if asked, a corrupted one) of a product computed on the device with cuBLAS. */
int racer_fv_run(const racer_fv_request* request, racer_fv_response* correct, racer_fv_response* corrupted);
/* The same for an integer product: cuBLAS's int8 GEMM, then the exact check (and a corrupted one). */
int racer_fv_run_modular(const racer_fv_modular_request* request, racer_fv_modular_response* correct,
                         racer_fv_modular_response* corrupted);

#ifdef __cplusplus
}
#endif
