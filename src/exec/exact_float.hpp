#pragma once
// The exact real a float bit pattern encodes, and back when it is exactly representable.
// (DESIGN: a concrete float is the exact rational it encodes: 0f3DCCCCCD is
// 13421773/134217728, not 1/10.)
#include <gmpxx.h>

#include <cstdint>
#include <optional>
#include <string>

#include "expr/store.hpp"
#include "ptx/types.hpp"

namespace racer::exec {

struct ExactFloat {
  enum class Kind : uint8_t { Finite, PosInf, NegInf, NaN } kind = Kind::Finite;
  mpq_class value;  // Finite only
};

// A float as sign, integer significand and binary exponent: value = (-1)^neg * man * 2^exp.
struct BinaryFloat {
  ExactFloat::Kind kind = ExactFloat::Kind::Finite;
  bool neg = false;
  uint64_t man = 0;
  long exp = 0;
};

// t is a float type (f16, bf16, tf32, f32, f64, e4m3, e5m2); bits in the low bits.
ExactFloat decode_float(ptx::Type t, uint64_t bits);
BinaryFloat decode_binary(ptx::Type t, uint64_t bits);
// The bit pattern of q in format t if q is exactly representable (normal or subnormal), else nullopt.
std::optional<uint64_t> encode_exact(ptx::Type t, const mpq_class& q);
// The bits of +inf or -inf in format t; nullopt for a format without infinities (e4m3).
std::optional<uint64_t> encode_infinity(ptx::Type t, bool neg);
// q rounded to the nearest value of format t (ties to even), as a real launch converts a
// host value; nullopt when it overflows the format.
std::optional<uint64_t> encode_rounded(ptx::Type t, const mpq_class& q);
// The integer the low `width` bits hold, read as signed (two's complement) or unsigned.
mpz_class exact_integer(uint64_t bits, unsigned width, bool is_signed);
// The low `width` bits (at most 64) of an integer, two's complement: the bits a register holds.
uint64_t low_bits(const mpz_class& v, unsigned width);
// The exact value concrete bits of type t denote, as a constant: a float's exact rational
// (+-inf, NaN as Undefined), an integer read with the type's signedness.
expr::ExprId exact_constant(expr::Store& st, ptx::Type t, uint64_t bits);

// An exact rational from decimal text: "0.1", "-2.5e-3", "1e5", "42"; nullopt if malformed.
std::optional<mpq_class> rational_from_decimal(const std::string& text);

}  // namespace racer::exec
