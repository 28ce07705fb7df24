// setp comparisons, testp, min/max with the PTX NaN and signed-zero rules, and the sign
// operations abs, neg, copysign.
#include "exec/ieee.hpp"
#include "exec/ieee_internal.hpp"

namespace racer::ieee {

namespace {

// The magnitude's encoding (TF32: without its 13 ignored bits); monotonic in |value|.
std::uint64_t magnitude(Format f, std::uint64_t bits) {
  return (bits & ~sign_bit(f)) >> info(f).shift;
}

// A key ordering non-NaN values numerically, with -0 == +0.
long value_key(Format f, std::uint64_t bits) {
  auto m = static_cast<long>(magnitude(f, bits));
  return is_neg(f, bits) ? -m : m;
}

// A key ordering non-NaN values numerically, with -0 just below +0.
long signed_zero_key(Format f, std::uint64_t bits) {
  auto m = static_cast<long>(magnitude(f, bits));
  return is_neg(f, bits) ? -m - 1 : m;
}

std::uint64_t min_or_max(Format f, std::uint64_t a, std::uint64_t b, const MinMax& m,
                         bool want_max) {
  a = flush(f, a, m.ftz);
  b = flush(f, b, m.ftz);
  bool na = is_nan(f, a), nb = is_nan(f, b);
  std::uint64_t sign = (a ^ b) & sign_bit(f);
  if (na || nb) {
    if (m.nan || (na && nb)) return detail::propagate_nan(f, {b, a});
    std::uint64_t r = na ? b : a;
    return m.xorsign_abs ? (r & ~sign_bit(f)) | sign : r;
  }
  if (m.xorsign_abs) {
    std::uint64_t x = a & ~sign_bit(f), y = b & ~sign_bit(f);
    std::uint64_t mx = magnitude(f, x), my = magnitude(f, y);
    bool take_x = want_max ? mx >= my : mx <= my;
    return (take_x ? x : y) | sign;
  }
  long ka = signed_zero_key(f, a), kb = signed_zero_key(f, b);
  bool take_a = want_max ? ka >= kb : ka <= kb;
  return take_a ? a : b;
}

}  // namespace

bool compare(Format f, Cmp c, std::uint64_t a, std::uint64_t b, bool ftz) {
  a = flush(f, a, ftz);
  b = flush(f, b, ftz);
  bool unordered = is_nan(f, a) || is_nan(f, b);
  switch (c) {
    case Cmp::Num: return !unordered;
    case Cmp::Nan: return unordered;
    default: break;
  }
  if (unordered) {
    switch (c) {
      case Cmp::Equ:
      case Cmp::Neu:
      case Cmp::Ltu:
      case Cmp::Leu:
      case Cmp::Gtu:
      case Cmp::Geu: return true;
      default: return false;
    }
  }
  long x = value_key(f, a), y = value_key(f, b);
  switch (c) {
    case Cmp::Eq:
    case Cmp::Equ: return x == y;
    case Cmp::Ne:
    case Cmp::Neu: return x != y;
    case Cmp::Lt:
    case Cmp::Ltu: return x < y;
    case Cmp::Le:
    case Cmp::Leu: return x <= y;
    case Cmp::Gt:
    case Cmp::Gtu: return x > y;
    case Cmp::Ge:
    case Cmp::Geu: return x >= y;
    case Cmp::Num:
    case Cmp::Nan: break;
  }
  return false;
}

std::uint64_t min(Format f, std::uint64_t a, std::uint64_t b, const MinMax& m) {
  return min_or_max(f, a, b, m, false);
}
std::uint64_t max(Format f, std::uint64_t a, std::uint64_t b, const MinMax& m) {
  return min_or_max(f, a, b, m, true);
}

// The hardware implements abs and neg as arithmetic with operand modifiers: a NaN operand
// gives the canonical NaN (F64: the operand quieted, its sign unchanged).
std::uint64_t abs(Format f, std::uint64_t a, bool ftz) {
  if (is_nan(f, a)) return detail::propagate_nan(f, {a});
  return flush(f, a, ftz) & ~sign_bit(f);
}
std::uint64_t neg(Format f, std::uint64_t a, bool ftz) {
  if (is_nan(f, a)) return detail::propagate_nan(f, {a});
  return flush(f, a, ftz) ^ sign_bit(f);
}
std::uint64_t copysign(Format f, std::uint64_t a, std::uint64_t b) {
  return (b & ~sign_bit(f)) | (a & sign_bit(f));
}

bool testp(Format f, TestOp op, std::uint64_t a) {
  FpClass c = classify(f, a);
  switch (op) {
    case TestOp::Finite: return c != FpClass::Inf && c != FpClass::NaN;
    case TestOp::Infinite: return c == FpClass::Inf;
    case TestOp::Number: return c != FpClass::NaN;
    case TestOp::NotANumber: return c == FpClass::NaN;
    case TestOp::Normal: return c == FpClass::Normal || c == FpClass::Zero;  // PTX: zero is normal
    case TestOp::Subnormal: return c == FpClass::Subnormal;
  }
  return false;
}

}  // namespace racer::ieee
