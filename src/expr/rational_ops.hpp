#pragma once
// Exact rational helpers shared by construction-time folding and evaluation.
#include <gmpxx.h>

#include <optional>

namespace racer::expr::detail {

// Results above this many bits are refused rather than computed: a kernel never needs
// them, and computing one would stall the checker.
inline constexpr size_t kMaxPowBits = size_t(1) << 22;

// Whether q is in lowest terms with a positive denominator, as GMP's arithmetic requires.
bool is_canonical_rational(const mpq_class& q);

// q^e for an integer e. nullopt when q = 0 and e < 0 (no value), or when the result would
// exceed kMaxPowBits.
std::optional<mpq_class> rat_pow(const mpq_class& q, const mpz_class& e);

// q wrapped to w bits: the member of [lo, lo + 2^w) congruent to q mod 2^w (node.hpp, wrap_kind).
mpq_class wrap_value(const mpq_class& q, unsigned bits, bool is_signed);

// The exact square root of q when q >= 0 is the square of a rational.
std::optional<mpq_class> exact_sqrt(const mpq_class& q);

}  // namespace racer::expr::detail
