#include "exec/exact_float.hpp"

namespace racer::exec {
namespace {

struct Layout {
  int exp_bits, man_bits, bias;
  bool ieee_inf;  // e4m3 has no infinities and one NaN pattern per sign
};

std::optional<Layout> layout_of(ptx::Type t) {
  switch (t) {
    case ptx::Type::F16: return Layout{5, 10, 15, true};
    case ptx::Type::BF16: return Layout{8, 7, 127, true};
    case ptx::Type::TF32:
    case ptx::Type::F32: return Layout{8, 23, 127, true};
    case ptx::Type::F64: return Layout{11, 52, 1023, true};
    case ptx::Type::E4M3: return Layout{4, 3, 7, false};
    case ptx::Type::E5M2: return Layout{5, 2, 15, true};
    default: return std::nullopt;
  }
}

mpq_class pow2(long e) {
  mpz_class p = 1;
  if (e >= 0) {
    mpz_mul_2exp(p.get_mpz_t(), p.get_mpz_t(), static_cast<mp_bitcnt_t>(e));
    return mpq_class(p);
  }
  mpz_mul_2exp(p.get_mpz_t(), p.get_mpz_t(), static_cast<mp_bitcnt_t>(-e));
  return mpq_class(mpz_class(1), p);
}

}  // namespace

BinaryFloat decode_binary(ptx::Type t, uint64_t bits) {
  auto l = layout_of(t);
  if (!l) return {ExactFloat::Kind::NaN};
  int total = 1 + l->exp_bits + l->man_bits;
  if (t == ptx::Type::TF32) bits &= ~uint64_t{0x1FFF};  // tf32 reads the top 19 bits of an f32
  bool neg = (bits >> (total - 1)) & 1;
  uint64_t exp = (bits >> l->man_bits) & ((uint64_t{1} << l->exp_bits) - 1);
  uint64_t man = bits & ((uint64_t{1} << l->man_bits) - 1);
  uint64_t max_exp = (uint64_t{1} << l->exp_bits) - 1;
  if (l->ieee_inf && exp == max_exp) {
    if (man != 0) return {ExactFloat::Kind::NaN};
    return {neg ? ExactFloat::Kind::NegInf : ExactFloat::Kind::PosInf, neg};
  }
  if (!l->ieee_inf && exp == max_exp && man == (uint64_t{1} << l->man_bits) - 1) return {ExactFloat::Kind::NaN};
  if (exp == 0) return {ExactFloat::Kind::Finite, neg, man, 1 - l->bias - l->man_bits};
  return {ExactFloat::Kind::Finite, neg, man | (uint64_t{1} << l->man_bits), static_cast<long>(exp) - l->bias - l->man_bits};
}

ExactFloat decode_float(ptx::Type t, uint64_t bits) {
  BinaryFloat b = decode_binary(t, bits);
  if (b.kind != ExactFloat::Kind::Finite) return {b.kind, 0};
  mpq_class v = mpq_class(mpz_class(static_cast<unsigned long>(b.man))) * pow2(b.exp);
  v.canonicalize();
  if (b.neg) v = -v;
  return {ExactFloat::Kind::Finite, v};
}

std::optional<uint64_t> encode_infinity(ptx::Type t, bool neg) {
  auto l = layout_of(t);
  if (!l || !l->ieee_inf || t == ptx::Type::TF32) return std::nullopt;
  const uint64_t exp_ones = ((uint64_t{1} << l->exp_bits) - 1) << l->man_bits;
  return exp_ones | (neg ? uint64_t{1} << (l->exp_bits + l->man_bits) : 0);
}

std::optional<uint64_t> encode_exact(ptx::Type t, const mpq_class& q) {
  auto l = layout_of(t);
  if (!l || t == ptx::Type::TF32) return std::nullopt;
  int total = 1 + l->exp_bits + l->man_bits;
  uint64_t sign = q < 0 ? uint64_t{1} << (total - 1) : 0;
  if (q == 0) return sign;
  mpq_class a = abs(q);
  // Exactly representable means a = m * 2^e with m < 2^(man_bits+1) and e in range.
  const mpz_class& den = a.get_den();
  if (mpz_popcount(den.get_mpz_t()) != 1) return std::nullopt;
  long den_log = static_cast<long>(mpz_sizeinbase(den.get_mpz_t(), 2)) - 1;
  mpz_class num = a.get_num();
  long tz = static_cast<long>(mpz_scan1(num.get_mpz_t(), 0));
  mpz_class odd = num >> tz;
  long e_odd = tz - den_log;  // a = odd * 2^e_odd
  long odd_bits = static_cast<long>(mpz_sizeinbase(odd.get_mpz_t(), 2));
  if (odd_bits > l->man_bits + 1) return std::nullopt;
  // Normalize to m in [2^man_bits, 2^(man_bits+1)).
  long shift = l->man_bits + 1 - odd_bits;
  mpz_class m = odd << shift;
  long e = e_odd - shift;
  long biased = e + l->man_bits + l->bias;
  uint64_t max_biased = (uint64_t{1} << l->exp_bits) - (l->ieee_inf ? 2 : 1);
  if (biased >= 1) {
    if (static_cast<uint64_t>(biased) > max_biased) return std::nullopt;
    uint64_t man = m.get_ui() & ((uint64_t{1} << l->man_bits) - 1);
    uint64_t bits = sign | (static_cast<uint64_t>(biased) << l->man_bits) | man;
    if (!l->ieee_inf && static_cast<uint64_t>(biased) == max_biased && man == (uint64_t{1} << l->man_bits) - 1)
      return std::nullopt;  // that pattern is e4m3's NaN
    return bits;
  }
  // Subnormal: value = man * 2^(1 - bias - man_bits).
  long sub_shift = 1 - biased;
  if (sub_shift > l->man_bits) return std::nullopt;
  mpz_class man = m >> sub_shift;
  if ((man << sub_shift) != m) return std::nullopt;
  return sign | man.get_ui();
}

std::optional<uint64_t> encode_rounded(ptx::Type t, const mpq_class& q) {
  auto l = layout_of(t);
  if (!l) return std::nullopt;
  if (t == ptx::Type::TF32) return std::nullopt;  // no instance data is stored as tf32
  int total = 1 + l->exp_bits + l->man_bits;
  uint64_t sign = q < 0 ? uint64_t{1} << (total - 1) : 0;
  if (q == 0) return sign;
  mpq_class a = abs(q);
  long e = static_cast<long>(mpz_sizeinbase(a.get_num_mpz_t(), 2)) - static_cast<long>(mpz_sizeinbase(a.get_den_mpz_t(), 2));
  while (a >= pow2(e + 1)) ++e;
  while (a < pow2(e)) --e;
  long emin = 1 - l->bias;
  long scale_e = e < emin ? emin : e;
  mpq_class scaled = a * pow2(l->man_bits - scale_e);
  mpz_class fl;
  mpz_fdiv_q(fl.get_mpz_t(), scaled.get_num_mpz_t(), scaled.get_den_mpz_t());
  mpq_class frac = scaled - mpq_class(fl);
  mpz_class m = fl;
  if (frac > mpq_class(1, 2) || (frac == mpq_class(1, 2) && mpz_odd_p(fl.get_mpz_t()))) m += 1;
  mpz_class top = mpz_class(1) << (l->man_bits + 1);
  if (m == top) m >>= 1, ++scale_e;
  bool normal = m >= (mpz_class(1) << l->man_bits);
  long biased = normal ? scale_e + l->bias : 0;
  uint64_t max_biased = (uint64_t{1} << l->exp_bits) - (l->ieee_inf ? 2 : 1);
  if (biased > static_cast<long>(max_biased)) return std::nullopt;
  uint64_t man = mpz_class(m & ((mpz_class(1) << l->man_bits) - 1)).get_ui();
  uint64_t bits = sign | (static_cast<uint64_t>(biased) << l->man_bits) | man;
  if (!l->ieee_inf && static_cast<uint64_t>(biased) == max_biased && man == (uint64_t{1} << l->man_bits) - 1) return std::nullopt;
  return bits;
}

mpz_class exact_integer(uint64_t bits, unsigned width, bool is_signed) {
  uint64_t raw = width >= 64 ? bits : bits & ((uint64_t{1} << width) - 1);
  if (!is_signed) return mpz_class(static_cast<unsigned long>(raw));
  int64_t x = width >= 64 ? static_cast<int64_t>(raw) : static_cast<int64_t>(raw << (64 - width)) >> (64 - width);
  return mpz_class(static_cast<long>(x));
}

uint64_t low_bits(const mpz_class& v, unsigned width) {
  mpz_class r;
  mpz_fdiv_r_2exp(r.get_mpz_t(), v.get_mpz_t(), width >= 64 ? 64 : width);  // non-negative
  mpz_class hi = r >> 32, lo = r - (hi << 32);
  return (uint64_t{static_cast<uint32_t>(hi.get_ui())} << 32) | static_cast<uint32_t>(lo.get_ui());
}

expr::ExprId exact_constant(expr::Store& st, ptx::Type t, uint64_t bits) {
  if (!ptx::is_float(t))
    return st.constant(mpq_class(exact_integer(bits, ptx::type_bits(t), ptx::type_class(t) == ptx::TypeClass::Signed)));
  ExactFloat f = decode_float(t, bits);
  switch (f.kind) {
    case ExactFloat::Kind::Finite: return st.constant(f.value);
    case ExactFloat::Kind::PosInf: return st.pos_inf();
    case ExactFloat::Kind::NegInf: return st.neg_inf();
    case ExactFloat::Kind::NaN: return st.undefined();
  }
  return st.undefined();
}

std::optional<mpq_class> rational_from_decimal(const std::string& text) {
  std::string s = text;
  bool neg = false;
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i] == '-', ++i;
  std::string digits;
  long exp10 = 0;
  bool seen_digit = false, seen_dot = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c >= '0' && c <= '9') {
      digits += c;
      seen_digit = true;
      if (seen_dot) --exp10;
    } else if (c == '.' && !seen_dot) {
      seen_dot = true;
    } else if (c == '_') {
    } else {
      break;
    }
  }
  if (!seen_digit) return std::nullopt;
  if (i < s.size()) {
    if (s[i] != 'e' && s[i] != 'E') return std::nullopt;
    try {
      size_t used = 0;
      long e = std::stol(s.substr(i + 1), &used);
      if (i + 1 + used != s.size()) return std::nullopt;
      exp10 += e;
    } catch (...) {
      return std::nullopt;
    }
  }
  if (exp10 > 4000 || exp10 < -4000) return std::nullopt;
  mpz_class num(digits, 10);
  mpz_class p10;
  mpz_ui_pow_ui(p10.get_mpz_t(), 10, static_cast<unsigned long>(exp10 < 0 ? -exp10 : exp10));
  mpq_class r = exp10 >= 0 ? mpq_class(num * p10) : mpq_class(num, p10);
  r.canonicalize();
  return neg ? -r : r;
}

}  // namespace racer::exec
