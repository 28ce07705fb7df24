#pragma once
// Internal to normal_form.cpp: RAII wrappers over FLINT's fmpq_mpoly and the checked
// arithmetic on reduced fractions that the normal form is built from. Every operation
// estimates its cost first and throws TooLarge instead of starting work that could run
// for minutes or exhaust memory. FLINT's headers stay out of every public header.
#include <gmpxx.h>

#include <cstdint>
#include <string>
#include <vector>

#include "decide/normal_form.hpp"
#include <flint/fmpq_mpoly.h>  // last: flint.h defines a macro named ulong

namespace racer::decide::detail {

// Thrown (and caught inside the normal form) when a limit is hit.
struct TooLarge {
  std::string why;
};

class Poly {
 public:
  explicit Poly(const fmpq_mpoly_ctx_struct* ctx) : ctx_(ctx) { fmpq_mpoly_init(p_, ctx_); }
  ~Poly() { fmpq_mpoly_clear(p_, ctx_); }
  Poly(const Poly&) = delete;
  Poly& operator=(const Poly&) = delete;

  fmpq_mpoly_struct* get() { return p_; }
  const fmpq_mpoly_struct* get() const { return p_; }
  long length() const { return fmpq_mpoly_length(p_, ctx_); }
  bool is_zero() const { return fmpq_mpoly_is_zero(p_, ctx_); }
  bool is_one() const { return fmpq_mpoly_is_one(p_, ctx_); }

 private:
  fmpq_mpoly_t p_;
  const fmpq_mpoly_ctx_struct* ctx_;
};

// num/den with gcd(num, den) = 1 and den monic (den = 1 for polynomials and for 0).
struct Frac {
  Poly num, den;
  explicit Frac(const fmpq_mpoly_ctx_struct* ctx) : num(ctx), den(ctx) { fmpq_mpoly_one(den.get(), ctx); }
};

class FracArith {
 public:
  FracArith(const fmpq_mpoly_ctx_struct* ctx, const PolyLimits& limits) : ctx_(ctx), lim_(limits) {}

  const fmpq_mpoly_ctx_struct* ctx() const { return ctx_; }
  void set_rational(Frac& f, const mpq_class& q);
  void set_var(Frac& f, long var);
  void copy(Frac& out, const Frac& in);

  // acc += w * t
  void add_scaled(Frac& acc, const Frac& t, const mpq_class& w);
  // acc *= t^e for a nonzero integer e, leaving acc unreduced (a product reduces once, at
  // its end). False for a negative power of the zero function: no value anywhere.
  bool mul_pow(Frac& acc, const Frac& t, long e);
  // Cancels gcd(num, den) and makes den monic.
  void reduce(Frac& f);

 private:
  void mul(Poly& out, const Poly& a, const Poly& b);
  void pow(Poly& out, const Poly& a, unsigned long e);
  void check(const Poly& p, const char* what);
  long total_degree(const Poly& p);
  long degree_bound(const Poly& p) const;
  void leading_exponents(const Poly& p, std::vector<ulong>& out);
  void set_monomial(Poly& out, const fmpq* coeff, std::vector<ulong>& exps);
  void cancel_monomial(Frac& f);
  void cancel_gcd(Frac& f);
  void charge(uint64_t work, const char* what);

  const fmpq_mpoly_ctx_struct* ctx_;
  PolyLimits lim_;
  uint64_t work_ = 0;
  std::vector<ulong> exps_, gcd_exps_;  // scratch exponent vectors
};

}  // namespace racer::decide::detail
