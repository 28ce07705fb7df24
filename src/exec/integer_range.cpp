#include "exec/integer_range.hpp"

namespace racer::exec {

std::optional<Interval> integer_range(const TensorSpec& t, const SymbolOrigin& o) {
  if (ptx::is_float(t.elem)) return std::nullopt;
  if (t.range && o.kind == SymbolOrigin::Kind::InputCell) return Interval{t.range->lo, t.range->hi};
  unsigned bits = ptx::type_bits(t.elem);
  bool sgn = ptx::type_class(t.elem) == ptx::TypeClass::Signed;
  mpz_class lo = sgn ? -(mpz_class(1) << (bits - 1)) : mpz_class(0);
  mpz_class hi = sgn ? (mpz_class(1) << (bits - 1)) - 1 : (mpz_class(1) << bits) - 1;
  return Interval{mpq_class(lo), mpq_class(hi)};
}

}  // namespace racer::exec
