#include "decide/frac_arith.hpp"

#include <algorithm>

namespace racer::decide::detail {

namespace {

// An fmpq_t for the duration of one call.
class Q {
 public:
  explicit Q(const mpq_class& v) {
    fmpq_init(q_);
    fmpq_set_mpq(q_, v.get_mpq_t());
  }
  Q() { fmpq_init(q_); }
  ~Q() { fmpq_clear(q_); }
  Q(const Q&) = delete;
  Q& operator=(const Q&) = delete;
  fmpq* get() { return q_; }

 private:
  fmpq_t q_;
};

}  // namespace

void FracArith::charge(uint64_t work, const char* what) {
  work_ += work;
  if (work_ > lim_.max_work) throw TooLarge{std::string("work limit reached in ") + what};
}

void FracArith::check(const Poly& p, const char* what) {
  if (static_cast<size_t>(p.length()) > lim_.max_terms) {
    throw TooLarge{std::string(what) + " has " + std::to_string(p.length()) + " terms (limit " +
                   std::to_string(lim_.max_terms) + ")"};
  }
}

// Exponents of the leading term (of the only one, for a monomial times a nonzero rational).
void FracArith::leading_exponents(const Poly& p, std::vector<ulong>& out) {
  out.resize(size_t(fmpq_mpoly_ctx_nvars(ctx_)));
  fmpq_mpoly_get_term_exp_ui(out.data(), p.get(), 0, ctx_);
}

// The context orders terms by total degree first (degrevlex), so the leading term's degree
// is the polynomial's: one term read instead of FLINT's scan of every exponent vector.
long FracArith::total_degree(const Poly& p) {
  if (p.is_zero()) return -1;
  leading_exponents(p, exps_);
  long d = 0;
  for (ulong e : exps_) d += long(e);
  return d;
}

void FracArith::set_monomial(Poly& out, const fmpq* coeff, std::vector<ulong>& exps) {
  fmpq_mpoly_zero(out.get(), ctx_);
  fmpq_mpoly_set_coeff_fmpq_ui(out.get(), coeff, exps.data(), ctx_);
}

void FracArith::set_rational(Frac& f, const mpq_class& q) {
  Q c(q);
  fmpq_mpoly_set_fmpq(f.num.get(), c.get(), ctx_);
  fmpq_mpoly_one(f.den.get(), ctx_);
}

void FracArith::set_var(Frac& f, long var) {
  fmpq_mpoly_gen(f.num.get(), var, ctx_);
  fmpq_mpoly_one(f.den.get(), ctx_);
}

void FracArith::copy(Frac& out, const Frac& in) {
  fmpq_mpoly_set(out.num.get(), in.num.get(), ctx_);
  fmpq_mpoly_set(out.den.get(), in.den.get(), ctx_);
}

// FLINT packs each exponent, and in a degree ordering the total degree too, into a field
// of `bits` bits whose top bit stays clear: a bound on the degree with no term read.
long FracArith::degree_bound(const Poly& p) const { return (long(1) << (p.get()->zpoly->bits - 1)) - 1; }

void FracArith::mul(Poly& out, const Poly& a, const Poly& b) {
  bool may_exceed = a.get()->zpoly->bits >= 32 || b.get()->zpoly->bits >= 32 ||
                    degree_bound(a) + degree_bound(b) > lim_.max_degree;
  long da = may_exceed ? total_degree(a) : 0;
  long db = may_exceed ? total_degree(b) : 0;
  if (da > 0 && db > 0 && da + db > lim_.max_degree) {
    throw TooLarge{"degree " + std::to_string(da + db) + " exceeds the limit " + std::to_string(lim_.max_degree)};
  }
  uint64_t cost = uint64_t(a.length()) * uint64_t(b.length());
  // A product rarely has far fewer terms than the pairs it multiplies, so one whose pairs
  // exceed the term limit many times over would almost surely exceed it: stop before.
  if (cost > 8 * uint64_t(lim_.max_terms)) {
    throw TooLarge{"a product of " + std::to_string(a.length()) + " by " + std::to_string(b.length()) + " terms"};
  }
  charge(cost, "a product");
  fmpq_mpoly_mul(out.get(), a.get(), b.get(), ctx_);
  check(out, "a product");
}

void FracArith::pow(Poly& out, const Poly& a, unsigned long e) {
  long d = total_degree(a);
  if (d > 0 && (e > static_cast<unsigned long>(lim_.max_degree) || d * long(e) > lim_.max_degree)) {
    throw TooLarge{"a power of degree " + std::to_string(d) + "*" + std::to_string(e) + " exceeds the limit"};
  }
  if (a.length() <= 1) {
    // A monomial (or a constant): its power is one term, cheap whatever e is.
    if (!fmpq_mpoly_pow_ui(out.get(), a.get(), e, ctx_)) throw TooLarge{"a power FLINT refused"};
    return;
  }
  Poly result(ctx_), base(ctx_);
  fmpq_mpoly_one(result.get(), ctx_);
  fmpq_mpoly_set(base.get(), a.get(), ctx_);
  while (e) {
    if (e & 1) mul(result, result, base);
    e >>= 1;
    if (e) mul(base, base, base);
  }
  fmpq_mpoly_swap(out.get(), result.get(), ctx_);
}

void FracArith::reduce(Frac& f) {
  if (f.num.is_zero()) {
    fmpq_mpoly_one(f.den.get(), ctx_);
    return;
  }
  if (fmpq_mpoly_is_fmpq(f.den.get(), ctx_)) {
    if (!f.den.is_one()) {
      Q c;
      fmpq_mpoly_get_fmpq(c.get(), f.den.get(), ctx_);
      fmpq_mpoly_scalar_div_fmpq(f.num.get(), f.num.get(), c.get(), ctx_);
      fmpq_mpoly_one(f.den.get(), ctx_);
    }
    return;
  }
  if (f.den.length() == 1) {
    cancel_monomial(f);
  } else {
    cancel_gcd(f);
  }
  Q lc;
  fmpq_mpoly_get_term_coeff_fmpq(lc.get(), f.den.get(), 0, ctx_);
  if (!fmpq_is_one(lc.get())) {
    fmpq_mpoly_scalar_div_fmpq(f.num.get(), f.num.get(), lc.get(), ctx_);
    fmpq_mpoly_scalar_div_fmpq(f.den.get(), f.den.get(), lc.get(), ctx_);
  }
}

// gcd(num, c x^e) is x^g with g_v = min(e_v, least exponent of v in num): found term by
// term in the variables of the denominator, without FLINT's general gcd, which the
// rescaling factors of online softmax (exp(m)^-1 on every term) would call thousands of
// times per cell.
void FracArith::cancel_monomial(Frac& f) {
  std::vector<ulong>& g = gcd_exps_;
  leading_exponents(f.den, g);
  bool any = false;
  for (size_t v = 0; v < g.size(); ++v) {
    for (long i = 0; g[v] != 0 && i < f.num.length(); ++i) {
      g[v] = std::min<ulong>(g[v], fmpq_mpoly_get_term_var_exp_ui(f.num.get(), i, long(v), ctx_));
    }
    any |= g[v] != 0;
  }
  if (!any) return;
  Q one(1);
  Poly m(ctx_);
  set_monomial(m, one.get(), g);
  if (!fmpq_mpoly_divides(f.num.get(), f.num.get(), m.get(), ctx_) ||
      !fmpq_mpoly_divides(f.den.get(), f.den.get(), m.get(), ctx_)) {
    throw TooLarge{"an inexact division by a monomial"};
  }
}

void FracArith::cancel_gcd(Frac& f) {
  charge(uint64_t(f.num.length()) * uint64_t(f.den.length()), "a gcd");
  Poly g(ctx_);
  if (!fmpq_mpoly_gcd(g.get(), f.num.get(), f.den.get(), ctx_)) throw TooLarge{"a gcd FLINT could not compute"};
  if (!fmpq_mpoly_is_fmpq(g.get(), ctx_)) {
    // Exact by construction of g; a failure would be a FLINT bug, and is not a proof.
    if (!fmpq_mpoly_divides(f.num.get(), f.num.get(), g.get(), ctx_) ||
        !fmpq_mpoly_divides(f.den.get(), f.den.get(), g.get(), ctx_)) {
      throw TooLarge{"an inexact division by a gcd"};
    }
  }
}

void FracArith::add_scaled(Frac& acc, const Frac& t, const mpq_class& w) {
  if (w == 0 || t.num.is_zero()) return;
  Poly scaled(ctx_);
  Q wq(w);
  fmpq_mpoly_scalar_mul_fmpq(scaled.get(), t.num.get(), wq.get(), ctx_);
  if (fmpq_mpoly_equal(acc.den.get(), t.den.get(), ctx_)) {
    charge(uint64_t(acc.num.length() + scaled.length()), "a sum");
    fmpq_mpoly_add(acc.num.get(), acc.num.get(), scaled.get(), ctx_);
    check(acc.num, "a sum");
    if (!acc.den.is_one()) reduce(acc);  // 1/(x+1) + x/(x+1) = 1
    return;
  }
  // Over the least common denominator: den_a * (den_t / g) with g = gcd(den_a, den_t).
  Poly da(ctx_), dt(ctx_), left(ctx_), right(ctx_);
  if (acc.den.length() == 1 && t.den.length() == 1) {
    // Two monomial denominators: their gcd is the monomial of the least exponents.
    std::vector<ulong>& ea = gcd_exps_;
    std::vector<ulong> et;
    leading_exponents(acc.den, ea);
    leading_exponents(t.den, et);
    std::vector<ulong> ra(ea.size()), rt(ea.size());
    for (size_t v = 0; v < ea.size(); ++v) {
      ulong g = std::min(ea[v], et[v]);
      ra[v] = ea[v] - g;
      rt[v] = et[v] - g;
    }
    Q ca, ct;
    fmpq_mpoly_get_term_coeff_fmpq(ca.get(), acc.den.get(), 0, ctx_);
    fmpq_mpoly_get_term_coeff_fmpq(ct.get(), t.den.get(), 0, ctx_);
    set_monomial(da, ca.get(), ra);
    set_monomial(dt, ct.get(), rt);
  } else {
    Poly g(ctx_);
    charge(uint64_t(acc.den.length()) * uint64_t(t.den.length()), "a gcd");
    if (!fmpq_mpoly_gcd(g.get(), acc.den.get(), t.den.get(), ctx_)) throw TooLarge{"a gcd FLINT could not compute"};
    if (!fmpq_mpoly_divides(da.get(), acc.den.get(), g.get(), ctx_) ||
        !fmpq_mpoly_divides(dt.get(), t.den.get(), g.get(), ctx_)) {
      throw TooLarge{"an inexact division by a gcd"};
    }
  }
  mul(left, acc.num, dt);
  mul(right, scaled, da);
  fmpq_mpoly_add(acc.num.get(), left.get(), right.get(), ctx_);
  check(acc.num, "a sum");
  mul(acc.den, acc.den, dt);
  reduce(acc);
}

bool FracArith::mul_pow(Frac& acc, const Frac& t, long e) {
  const Poly& up = e > 0 ? t.num : t.den;
  const Poly& down = e > 0 ? t.den : t.num;
  if (e < 0 && t.num.is_zero()) return false;
  unsigned long n = e > 0 ? static_cast<unsigned long>(e) : static_cast<unsigned long>(-e);
  Poly p(ctx_);
  if (!up.is_one()) {
    pow(p, up, n);
    mul(acc.num, acc.num, p);
  }
  if (!down.is_one()) {
    pow(p, down, n);
    mul(acc.den, acc.den, p);
  }
  return true;
}

}  // namespace racer::decide::detail
