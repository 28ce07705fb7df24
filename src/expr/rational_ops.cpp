#include "expr/rational_ops.hpp"

namespace racer::expr::detail {

bool is_canonical_rational(const mpq_class& q) {
  if (sgn(q.get_den()) <= 0) return false;
  if (q.get_den() == 1) return true;
  mpz_class g;
  mpz_gcd(g.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
  return g == 1;
}

std::optional<mpq_class> rat_pow(const mpq_class& q, const mpz_class& e) {
  if (e == 0) return mpq_class(1);
  if (q == 0) return e < 0 ? std::nullopt : std::optional<mpq_class>(mpq_class(0));
  mpz_class mag = abs(e);
  if (abs(q) == 1) return mpq_class(q < 0 && mpz_odd_p(mag.get_mpz_t()) ? -1 : 1);
  size_t bits = std::max(mpz_sizeinbase(q.get_num_mpz_t(), 2), mpz_sizeinbase(q.get_den_mpz_t(), 2));
  if (!mag.fits_ulong_p() || mag.get_ui() > kMaxPowBits / bits) return std::nullopt;
  unsigned long n = mag.get_ui();
  mpq_class r;
  mpz_pow_ui(r.get_num_mpz_t(), q.get_num_mpz_t(), n);
  mpz_pow_ui(r.get_den_mpz_t(), q.get_den_mpz_t(), n);
  r.canonicalize();  // the sign of a negative numerator may need to move; powers stay coprime
  if (e < 0) r = 1 / r;
  return r;
}

std::optional<mpq_class> exact_sqrt(const mpq_class& q) {
  if (q < 0) return std::nullopt;
  if (!mpz_perfect_square_p(q.get_num_mpz_t()) || !mpz_perfect_square_p(q.get_den_mpz_t())) return std::nullopt;
  mpq_class r;
  mpz_sqrt(r.get_num_mpz_t(), q.get_num_mpz_t());
  mpz_sqrt(r.get_den_mpz_t(), q.get_den_mpz_t());
  return r;
}

mpq_class wrap_value(const mpq_class& q, unsigned bits, bool is_signed) {
  const mpz_class period = mpz_class(1) << bits;
  const mpz_class lo = is_signed ? mpz_class(-(mpz_class(1) << (bits - 1))) : mpz_class(0);
  const mpq_class shifted = (q - lo) / period;
  mpz_class k;
  mpz_fdiv_q(k.get_mpz_t(), shifted.get_num_mpz_t(), shifted.get_den_mpz_t());
  mpq_class r = q - mpq_class(period * k);
  r.canonicalize();
  return r;
}

}  // namespace racer::expr::detail
