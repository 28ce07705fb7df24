#include "freivalds/modular.hpp"

#include <vector>

#include "freivalds/modular_arith.hpp"
#include "support/error.hpp"

namespace racer::freivalds {
namespace {

int64_t element(const void* data, bool is_signed, int64_t index) {
  return is_signed ? static_cast<const int8_t*>(data)[index] : static_cast<const uint8_t*>(data)[index];
}

// sum_l M[row, l] * v[l] mod p for a row of small integers (|M| <= 2^31), in the kernels'
// arithmetic: 21-bit parts in signed 64-bit sums, folded every kFoldColumns terms.
template <class Get>
uint64_t dot_mod(Get get, int64_t len, const std::vector<uint64_t>& v, int64_t stride, int64_t offset) {
  uint64_t total = 0;
  SplitSum sum;
  for (int64_t l = 0; l < len; ++l) {
    sum.add(static_cast<int32_t>(get(l)), v[static_cast<size_t>(l * stride + offset)]);
    if ((l + 1) % kFoldColumns == 0) {
      total = mod_add(total, sum.residue());
      sum = SplitSum{};
    }
  }
  return mod_add(total, sum.residue());
}

}  // namespace

void check_modular_arguments(int64_t n, int k) {
  if (k < 1) throw Error(ExitCode::BadInput, "k (random vectors) must be at least 1");
  if (n >= (int64_t{1} << 30)) throw Error(ExitCode::BadInput, "n too large for the 2^61 - 1 argument");
}

ModularResult check_modular(const IntProduct& pr, int k, uint64_t seed) {
  check_modular_arguments(pr.n, k);
  std::vector<uint64_t> r(static_cast<size_t>(pr.p * k)), x(static_cast<size_t>(pr.n * k));
  for (size_t i = 0; i < r.size(); ++i) r[i] = modular_random_residue(seed, i);
  for (int64_t l = 0; l < pr.n; ++l)
    for (int v = 0; v < k; ++v)
      x[static_cast<size_t>(l * k + v)] =
          dot_mod([&](int64_t j) { return element(pr.b, pr.b_signed, l * pr.p + j); }, pr.p, r, k, v);
  ModularResult res;
  res.miss_log2 = modular_miss_log2(k);
  for (int64_t i = 0; i < pr.m; ++i)
    for (int v = 0; v < k; ++v) {
      uint64_t ax = dot_mod([&](int64_t l) { return element(pr.a, pr.a_signed, i * pr.n + l); }, pr.n, x, k, v);
      uint64_t cr = dot_mod([&](int64_t j) { return static_cast<int64_t>(pr.c[i * pr.p + j]); }, pr.p, r, k, v);
      if (ax != cr) {
        res.first_bad_row = i;
        res.first_bad_vector = v;
        res.first_bad_residual = mod_sub(ax, cr);
        return res;
      }
    }
  res.pass = true;
  return res;
}

}  // namespace racer::freivalds
