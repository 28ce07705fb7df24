#include "freivalds/synthetic.hpp"

#include <cblas.h>

#include "freivalds/random_vectors.hpp"

namespace racer::freivalds {
SyntheticProduct make_product(Format format, int64_t n, uint64_t seed) {
  SyntheticProduct s{format, n, {}, {}, {}};
  const size_t count = static_cast<size_t>(n * n);
  s.a.resize(count);
  s.b.resize(count);
  s.c.resize(count);
  for (size_t i = 0; i < count; ++i) {
    s.a[i] = round_to_format(format, random_entry(seed ^ 0xA, i));
    s.b[i] = round_to_format(format, random_entry(seed ^ 0xB, i));
  }
  std::vector<float> a_in(count), b_in(count);
  for (size_t i = 0; i < count; ++i) {
    a_in[i] = multiply_input(format, s.a[i]);
    b_in[i] = multiply_input(format, s.b[i]);
  }
  const int ni = static_cast<int>(n);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, ni, ni, ni, 1.0f, a_in.data(), ni, b_in.data(), ni, 0.0f,
              s.c.data(), ni);
  for (float& v : s.c) v = round_to_format(format, v);
  return s;
}

double corrupt(SyntheticProduct& product, int64_t i, int64_t j, double delta) {
  float& cell = product.c[static_cast<size_t>(i * product.n + j)];
  float before = cell;
  cell = round_to_format(product.format, static_cast<float>(static_cast<double>(cell) + delta));
  return static_cast<double>(cell) - before;
}

SyntheticIntProduct make_int_product(bool is_signed, int64_t n, uint64_t seed) {
  const size_t count = static_cast<size_t>(n * n);
  SyntheticIntProduct s{n, is_signed, std::vector<uint8_t>(count), std::vector<uint8_t>(count), std::vector<int32_t>(count, 0)};
  for (size_t i = 0; i < count; ++i) {
    s.a[i] = random_byte(seed ^ 0xA, i);
    s.b[i] = random_byte(seed ^ 0xB, i);
  }
  auto value = [&](const std::vector<uint8_t>& m, size_t i) -> int32_t {
    return is_signed ? static_cast<int32_t>(static_cast<int8_t>(m[i])) : static_cast<int32_t>(m[i]);
  };
  for (int64_t i = 0; i < n; ++i)
    for (int64_t l = 0; l < n; ++l) {
      int32_t x = value(s.a, static_cast<size_t>(i * n + l));
      for (int64_t j = 0; j < n; ++j) s.c[static_cast<size_t>(i * n + j)] += x * value(s.b, static_cast<size_t>(l * n + j));
    }
  return s;
}

}  // namespace racer::freivalds
