#include "freivalds/modular.hpp"

#include <cmath>
#include <vector>

#include "freivalds/random_vectors.hpp"
#include "support/error.hpp"

namespace racer::freivalds {
namespace {

__extension__ typedef unsigned __int128 u128;  // GCC/Clang; -Wpedantic needs the marker

uint64_t reduce(u128 x) {
  // x mod (2^61 - 1) by folding: 2^61 = 1 (mod p).
  u128 hi = x >> 61;
  uint64_t s = static_cast<uint64_t>(x & kModularPrime) + static_cast<uint64_t>(hi & kModularPrime) +
               static_cast<uint64_t>(hi >> 61);
  while (s >= kModularPrime) s -= kModularPrime;
  return s;
}

uint64_t to_residue(int64_t v) {
  int64_t r = v % static_cast<int64_t>(kModularPrime);
  return static_cast<uint64_t>(r < 0 ? r + static_cast<int64_t>(kModularPrime) : r);
}

int64_t element(const void* data, bool is_signed, int64_t index) {
  return is_signed ? static_cast<const int8_t*>(data)[index] : static_cast<const uint8_t*>(data)[index];
}

// sum_l M[row, l] * v[l] mod p for a small-integer matrix row.
template <class Get>
uint64_t dot_mod(Get get, int64_t len, const std::vector<uint64_t>& v, int64_t stride, int64_t offset) {
  u128 acc = 0;
  for (int64_t l = 0; l < len; ++l) {
    acc += static_cast<u128>(to_residue(get(l))) * v[l * stride + offset];
    if ((l & 31) == 31) acc = reduce(acc);  // 32 products of < 2^122 each stay below 2^128
  }
  return reduce(acc);
}

}  // namespace

ModularResult check_modular(const IntProduct& pr, int k, uint64_t seed) {
  if (k < 1) throw Error(ExitCode::BadInput, "k (random vectors) must be at least 1");
  if (pr.n >= (int64_t{1} << 30)) throw Error(ExitCode::BadInput, "n too large for the 2^61 - 1 argument");
  std::vector<uint64_t> r(static_cast<size_t>(pr.p * k)), x(static_cast<size_t>(pr.n * k));
  // 61 random bits, with 2^61 - 1 folded onto 0: no residue is drawn with probability above 2^-60.
  for (size_t i = 0; i < r.size(); ++i) r[i] = reduce(splitmix64(splitmix64(seed ^ 0x5eed) ^ i) >> 3);
  for (int64_t l = 0; l < pr.n; ++l)
    for (int v = 0; v < k; ++v)
      x[l * k + v] = dot_mod([&](int64_t j) { return element(pr.b, pr.b_signed, l * pr.p + j); }, pr.p, r, k, v);
  ModularResult res;
  res.miss_log2 = -60.0 * k;
  for (int64_t i = 0; i < pr.m; ++i)
    for (int v = 0; v < k; ++v) {
      uint64_t ax = dot_mod([&](int64_t l) { return element(pr.a, pr.a_signed, i * pr.n + l); }, pr.n, x, k, v);
      uint64_t cr = dot_mod([&](int64_t j) { return static_cast<int64_t>(pr.c[i * pr.p + j]); }, pr.p, r, k, v);
      if (ax != cr) {
        res.first_bad_row = i;
        res.first_bad_vector = v;
        return res;
      }
    }
  res.pass = true;
  return res;
}

}  // namespace racer::freivalds
