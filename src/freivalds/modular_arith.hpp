#pragma once
// Arithmetic modulo the prime p = 2^61 - 1 for the exact check of integer products, one copy
// for the CPU check (modular.cpp) and the CUDA kernels (cuda/modular_kernels.cuh), so that
// both compute the same residues and the same verdicts. Residues are uint64_t in [0, p).
//
// Dot products of small integers (|value| <= 2^31: int8/uint8 operands, int32 results) with
// residues avoid 128-bit products: a residue x is split into three 21-bit parts,
// x = x0 + 2^21 x1 + 2^42 x2, and each part's products value * x_q (32 x 32 -> 64-bit, one
// multiply-add on a GPU) are summed in a signed 64-bit integer (SplitSum). The sums are folded
// into a residue before they can overflow: kFoldColumns bounds the columns summed between two
// folds (see the proof there).
#include <cstdint>

#include "freivalds/hd.hpp"
#include "freivalds/random_vectors.hpp"

namespace racer::freivalds {

inline constexpr uint64_t kModularPrime = (uint64_t{1} << 61) - 1;
inline constexpr int kPartBits = 21;
inline constexpr int kParts = 3;  // 3 x 21 >= 61
inline constexpr uint32_t kPartMask = (uint32_t{1} << kPartBits) - 1;

// Any 64-bit value mod p: 2^61 = 1 (mod p), so x = (x mod 2^61) + (x >> 61) (mod p), and that
// sum is below 2^61 + 8 < 2p: one conditional subtraction finishes it.
RACER_HD uint64_t mod_fold(uint64_t x) {
  uint64_t s = (x & kModularPrime) + (x >> 61);
  return s >= kModularPrime ? s - kModularPrime : s;
}

RACER_HD uint64_t mod_add(uint64_t a, uint64_t b) {  // a, b < p: a + b < 2^62, no overflow
  uint64_t s = a + b;
  return s >= kModularPrime ? s - kModularPrime : s;
}

RACER_HD uint64_t mod_sub(uint64_t a, uint64_t b) { return a >= b ? a - b : a + (kModularPrime - b); }

// a * b mod p for a, b < p. The product h 2^64 + l is below 2^122, so its bits from 61 up,
// (h << 3) | (l >> 61), are below 2^61; with its low 61 bits the sum is at most 2p.
RACER_HD uint64_t mod_mul(uint64_t a, uint64_t b) {
#if defined(__CUDA_ARCH__)
  uint64_t h = __umul64hi(a, b);
#else
  __extension__ typedef unsigned __int128 u128;  // GCC/Clang; -Wpedantic needs the marker
  uint64_t h = static_cast<uint64_t>((static_cast<u128>(a) * b) >> 64);
#endif
  uint64_t l = a * b;
  return mod_fold((l & kModularPrime) + ((h << 3) | (l >> 61)));
}

// x 2^s mod p for x < p, 0 <= s < 61: multiplying by 2^s rotates the 61 bits of x.
RACER_HD uint64_t mod_shift(uint64_t x, int s) {
  return s == 0 ? x : ((x << s) & kModularPrime) | (x >> (61 - s));
}

// The residue of a signed 64-bit integer (v = -2^63 included).
RACER_HD uint64_t signed_residue(int64_t v) {
  uint64_t magnitude = v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  uint64_t r = mod_fold(magnitude);
  return v < 0 && r != 0 ? kModularPrime - r : r;
}

RACER_HD uint32_t residue_part(uint64_t x, int q) { return static_cast<uint32_t>(x >> (kPartBits * q)) & kPartMask; }

// Columns (terms of each kind) a SplitSum may take between folds. The kernels' pass 2 adds,
// per column, one term of an int8/uint8 matrix (|a| <= 255) and one of an int32 matrix
// (|c| <= 2^31), each times a part below 2^21:
//   kFoldColumns (255 + 2^31) (2^21 - 1) < 2^10 (2^31 + 2^8) 2^21 = 2^62 + 2^39 < 2^63 - 1,
// so no partial sum of the signed 64-bit accumulators overflows.
inline constexpr int64_t kFoldColumns = 1024;
static_assert(static_cast<double>(kFoldColumns) * (255.0 + 2147483648.0) * kPartMask < 9223372036854775807.0,
              "SplitSum's fold interval overflows int64");

// sum_l value_l * x_l mod p, accumulated per 21-bit part of x_l.
struct SplitSum {
  int64_t s[kParts] = {0, 0, 0};
  // One 32 x 32 -> 64-bit multiply-add a part (the part is below 2^21, so it is a valid int32).
  RACER_HD void add(int32_t value, uint32_t part0, uint32_t part1, uint32_t part2) {
    s[0] += static_cast<int64_t>(value) * static_cast<int32_t>(part0);
    s[1] += static_cast<int64_t>(value) * static_cast<int32_t>(part1);
    s[2] += static_cast<int64_t>(value) * static_cast<int32_t>(part2);
  }
  RACER_HD void sub(int32_t value, uint32_t part0, uint32_t part1, uint32_t part2) {
    s[0] -= static_cast<int64_t>(value) * static_cast<int32_t>(part0);
    s[1] -= static_cast<int64_t>(value) * static_cast<int32_t>(part1);
    s[2] -= static_cast<int64_t>(value) * static_cast<int32_t>(part2);
  }
  RACER_HD void add(int32_t value, uint64_t x) { add(value, residue_part(x, 0), residue_part(x, 1), residue_part(x, 2)); }
  // s0 + 2^21 s1 + 2^42 s2 mod p.
  RACER_HD uint64_t residue() const {
    return mod_add(mod_add(signed_residue(s[0]), mod_shift(signed_residue(s[1]), kPartBits)),
                   mod_shift(signed_residue(s[2]), 2 * kPartBits));
  }
};

// The random vectors of the exact check: entry (j, v) of the p x k matrix R is drawn from
// (seed, j k + v), 61 random bits with 2^61 - 1 folded onto 0, so that no residue is drawn
// with probability above 2^-60. The CPU and the GPU draw the same R.
RACER_HD uint64_t modular_random_residue(uint64_t seed, uint64_t index) {
  return mod_fold(splitmix64(splitmix64(seed ^ 0x5eed) ^ index) >> 3);
}

}  // namespace racer::freivalds
