#pragma once
// The exact variant for integer products (s8/u8 GEMMs with s32 results): Freivalds over the
// integers modulo the prime p = 2^61 - 1. For a wrong C the difference D = A B - C is a
// nonzero integer matrix with |D| < 2^61 (for n < 2^30), hence nonzero mod p, and a row of D
// times a random vector mod p takes any one value with probability at most 2^-60 (the vector's
// entries are 61 random bits folded mod p): each vector misses with probability at most 2^-60,
// all k with at most 2^-60k. A correct C always passes (no tolerance is involved).
#include <cstdint>

#include "freivalds/modular_arith.hpp"

namespace racer::freivalds {

struct IntProduct {
  int64_t m, n, p;
  const void* a;  // m x n, int8_t if a_signed else uint8_t
  bool a_signed;
  const void* b;  // n x p, likewise
  bool b_signed;
  const int32_t* c;  // m x p
};

struct ModularResult {
  bool pass = false;
  int64_t first_bad_row = -1;  // a row whose residual is nonzero mod p
  int first_bad_vector = -1;
  uint64_t first_bad_residual = 0;  // (A X - C R) mod p there: identical on the CPU and the GPU
  double miss_log2 = 0;  // log2 of the bound on missing a wrong C: -60 k
};

// log2 of the bound on missing a wrong C with k vectors (each misses with probability <= 2^-60).
inline double modular_miss_log2(int k) { return -60.0 * k; }

ModularResult check_modular(const IntProduct& product, int k, uint64_t seed);

// Refuses (racer::Error, BadInput) what the 2^61 - 1 argument does not cover.
void check_modular_arguments(int64_t n, int k);

}  // namespace racer::freivalds
