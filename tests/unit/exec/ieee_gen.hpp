#pragma once
// Deterministic generators of "interesting" floating-point bit patterns for the ieee tests and
// for the GPU probe (ieee_gpu_probe.cu): special values, subnormals, extremes, halfway and
// cancellation cases, and plain random bits.
#include <array>
#include <cstdint>
#include <vector>

#include "exec/ieee.hpp"

namespace racer::ieee::test {

struct Rng {
  std::uint64_t s;
  explicit Rng(std::uint64_t seed) : s(seed) {}
  std::uint64_t next() {  // splitmix64
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  bool chance(int one_in) { return below(static_cast<std::uint64_t>(one_in)) == 0; }
};

inline std::uint64_t bits_mask(int bits) {
  return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
}

// Builds a value of f from sign, biased exponent field and fraction (TF32 shifted into place).
inline std::uint64_t make(Format f, bool neg, std::uint64_t ex, std::uint64_t man) {
  const FormatInfo& fi = info(f);
  std::uint64_t e = (ex & bits_mask(fi.exp_bits)) << fi.man_bits | (man & bits_mask(fi.man_bits));
  return zero(f, neg) | (e << fi.shift);
}

// Special values of f, both signs (NaNs with a few payloads).
inline std::vector<std::uint64_t> specials(Format f) {
  const FormatInfo& fi = info(f);
  std::uint64_t emax = bits_mask(fi.exp_bits), mmax = bits_mask(fi.man_bits);
  std::uint64_t bias = static_cast<std::uint64_t>(fi.bias);
  std::vector<std::uint64_t> out;
  for (bool neg : {false, true}) {
    std::uint64_t vals[] = {
        make(f, neg, 0, 0),            make(f, neg, 0, 1),
        make(f, neg, 0, mmax),         make(f, neg, 0, mmax >> 1),
        make(f, neg, 1, 0),            make(f, neg, 1, 1),
        make(f, neg, bias, 0),         make(f, neg, bias, 1),
        make(f, neg, bias - 1, mmax),  make(f, neg, bias, mmax),
        make(f, neg, bias - 1, 0),     make(f, neg, bias + 1, 0),
        make(f, neg, bias, mmax >> 1), make(f, neg, bias, (mmax >> 1) + 1),
        max_finite(f, neg),            make(f, neg, emax - 1, 0),
        infinity(f, neg),              make(f, neg, emax, mmax),
        make(f, neg, emax, (mmax >> 1) + 1),
    };
    out.insert(out.end(), std::begin(vals), std::end(vals));
  }
  out.push_back(canonical_nan(f));
  out.push_back(make(f, false, emax, 1));
  return out;
}

// One interesting value of f.
inline std::uint64_t gen(Format f, Rng& r) {
  const FormatInfo& fi = info(f);
  std::uint64_t emax = bits_mask(fi.exp_bits), mmax = bits_mask(fi.man_bits);
  switch (r.below(16)) {
    case 0: {
      static thread_local std::vector<std::uint64_t> sp[7];
      auto& v = sp[static_cast<int>(f)];
      if (v.empty()) v = specials(f);
      return v[r.below(v.size())];
    }
    case 1:
    case 2: return (r.next() & bits_mask(fi.storage_bits - fi.shift)) << fi.shift;
    default: break;
  }
  bool neg = r.chance(2);
  std::uint64_t ex;
  switch (r.below(8)) {
    case 0: ex = r.below(3); break;                  // subnormal and bottom normals
    case 1: ex = emax - 1 - r.below(3); break;       // top of the range
    case 2: ex = fi.bias - 4 + r.below(9); break;    // around 1
    default: ex = 1 + r.below(emax - 1); break;      // anywhere normal
  }
  std::uint64_t man;
  switch (r.below(6)) {
    case 0: man = r.below(8); break;                            // nearly a power of two
    case 1: man = mmax - r.below(8); break;                     // nearly the next one
    case 2: man = (r.next() & mmax) & ~bits_mask(fi.man_bits / 2); break;  // short significand
    default: man = r.next() & mmax; break;
  }
  if (f == Format::E4M3 && ex == emax && man == mmax) man = 0;
  return make(f, neg, ex, man);
}

// A value near v (same or adjacent binade, a few ulps apart, sign optionally flipped), for
// cancellation and halfway cases.
inline std::uint64_t near(Format f, std::uint64_t v, Rng& r) {
  const FormatInfo& fi = info(f);
  std::uint64_t one_ulp = std::uint64_t{1} << fi.shift;
  std::uint64_t delta = r.below(4) * one_ulp;
  std::uint64_t w = r.chance(2) ? v + delta : v - delta;
  if (r.chance(4)) w += r.below(2 * static_cast<std::uint64_t>(fi.man_bits) + 4) * (one_ulp << fi.man_bits) -
                       (static_cast<std::uint64_t>(fi.man_bits) + 2) * (one_ulp << fi.man_bits);
  if (r.chance(2)) w ^= sign_bit(f);
  return w & bits_mask(fi.storage_bits);
}

// Operand triples: every pair (and a sample of triples) of special values, then random ones
// where b and c are often near a, or c near -(a*b) for fma.
inline std::vector<std::array<std::uint64_t, 3>> operands(Format f, int arity, int random_count,
                                                          std::uint64_t seed) {
  std::vector<std::array<std::uint64_t, 3>> out;
  std::vector<std::uint64_t> sp = specials(f);
  Rng r(seed);
  for (std::uint64_t a : sp) {
    if (arity == 1) {
      out.push_back({a, 0, 0});
      continue;
    }
    for (std::uint64_t b : sp) {
      if (arity == 2) {
        out.push_back({a, b, 0});
      } else {
        out.push_back({a, b, sp[r.below(sp.size())]});
      }
    }
  }
  if (arity >= 2 && f != Format::E4M3 && f != Format::E5M2) {
    // (1 + 2^-m) 2^k * (2 - 2^(1-m)) 2^j = (2 - 2^(1-2m)) 2^(emin-1): just below the
    // smallest normal, where tininess before and after rounding disagree under ftz.
    const FormatInfo& fi = info(f);
    int k = (fi.emin() - 1) / 2, j = fi.emin() - 1 - k;
    std::uint64_t x = make(f, false, static_cast<std::uint64_t>(k + fi.bias), 1);
    std::uint64_t y = make(f, false, static_cast<std::uint64_t>(j + fi.bias),
                           bits_mask(fi.man_bits) - 1);
    for (bool nx : {false, true}) {
      std::uint64_t xs = nx ? x ^ sign_bit(f) : x;
      out.push_back({xs, y, 0});
      out.push_back({y, xs, 0});
    }
  }
  for (int i = 0; i < random_count; ++i) {
    std::uint64_t a = gen(f, r);
    std::uint64_t b = r.chance(3) ? near(f, a, r) : gen(f, r);
    std::uint64_t c = r.chance(3) ? near(f, a, r) : gen(f, r);
    if (arity == 3 && r.chance(2)) {
      // c close to -(a * b): massive cancellation in the fused sum.
      c = near(f, mul(f, a, b) ^ sign_bit(f), r);
      if (r.chance(2)) c ^= sign_bit(f);
    }
    out.push_back({a, b, c});
  }
  return out;
}

}  // namespace racer::ieee::test
