#pragma once
// Random products for self-tests and measurements: A, B uniform in [-1, 1] rounded to the
// format, C = A B as the format's matmul computes it (f32 accumulation, C rounded to the format).
#include <cstdint>
#include <vector>

#include "freivalds/freivalds.hpp"
#include "freivalds/modular.hpp"

namespace racer::freivalds {

struct SyntheticProduct {
  Format format;
  int64_t n;  // A, B, C are n x n
  std::vector<float> a, b, c;
  HostProduct view() const { return {format, n, n, n, a.data(), b.data(), c.data()}; }
};

SyntheticProduct make_product(Format format, int64_t n, uint64_t seed);

// Adds delta to C[i, j] (then rounds to the format); returns the change actually made.
double corrupt(SyntheticProduct& product, int64_t i, int64_t j, double delta);

// An s8 (is_signed) or u8 product with its exact s32 result, for the modular variant.
struct SyntheticIntProduct {
  int64_t n;
  bool is_signed;
  std::vector<uint8_t> a, b;  // bytes, read as int8_t when is_signed
  std::vector<int32_t> c;
  IntProduct view() const { return {n, n, n, a.data(), is_signed, b.data(), is_signed, c.data()}; }
};

SyntheticIntProduct make_int_product(bool is_signed, int64_t n, uint64_t seed);

}  // namespace racer::freivalds
