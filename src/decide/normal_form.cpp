#include "decide/normal_form.hpp"

#include <algorithm>

#include "decide/form_builder.hpp"

namespace racer::decide {

using detail::Builder;
using detail::NotRational;
using detail::TooLarge;
using expr::ExprId;
using expr::Kind;
using expr::Store;

namespace {

// sqrt(c) of a rational c > 0 is an atom of its own, but its square is c: a numerator that
// vanishes only once every such atom's square is c (sqrt(c) (sqrt(c) sqrt(u) + e c) against
// c (sqrt(u) + e sqrt(c)), where a program divided by sqrt(c) and the other multiplied) is zero
// as a function. Reduced modulo atom^2 - c, atom by atom (the remainder of a division by it,
// whose leading monomial is atom^2 in the degree order); the denominator too, which must stay
// nonzero.
bool zero_at_constant_roots(const Store& s, const Builder& b) {
  const fmpq_mpoly_ctx_struct* ctx = b.context();
  std::vector<std::pair<slong, mpq_class>> roots;
  for (size_t v = 0; v < b.atoms().size(); ++v) {
    const ExprId a = b.atoms()[v];
    if (s.kind(a) == Kind::Func && s.func_kind(a) == expr::FuncKind::Sqrt && s.is_rational(s.operand(a, 0)) &&
        s.rational(s.operand(a, 0)) > 0 && fmpq_mpoly_degree_si(b.result().num.get(), static_cast<slong>(v), ctx) > 1)
      roots.emplace_back(static_cast<slong>(v), s.rational(s.operand(a, 0)));
  }
  if (roots.empty()) return false;
  detail::Poly num(ctx), den(ctx), q(ctx), rem(ctx), square(ctx);
  fmpq_mpoly_set(num.get(), b.result().num.get(), ctx);
  fmpq_mpoly_set(den.get(), b.result().den.get(), ctx);
  for (const auto& [v, c] : roots) {
    fmpq_mpoly_gen(square.get(), v, ctx);
    fmpq_mpoly_mul(square.get(), square.get(), square.get(), ctx);
    fmpq_t fc;
    fmpq_init(fc);
    fmpq_set_mpq(fc, c.get_mpq_t());
    fmpq_mpoly_sub_fmpq(square.get(), square.get(), fc, ctx);
    fmpq_clear(fc);
    for (detail::Poly* p : {&num, &den}) {
      fmpq_mpoly_divrem(q.get(), rem.get(), p->get(), square.get(), ctx);
      fmpq_mpoly_swap(p->get(), rem.get(), ctx);
    }
  }
  return num.is_zero() && !den.is_zero();
}

}  // namespace

FormResult normal_form(const Store& s, ExprId x, const PolyLimits& limits) {
  FormResult r;
  try {
    Builder b(s, x, limits);
    if (b.result().num.is_zero() || zero_at_constant_roots(s, b)) {
      r.status = FormStatus::Zero;
    } else {
      r.status = FormStatus::NonZero;
      r.symbols_only = std::all_of(b.atoms().begin(), b.atoms().end(),
                                   [&](ExprId a) { return s.kind(a) == Kind::Symbol; });
      for (size_t v = 0; v < b.atoms().size(); ++v)
        if (fmpq_mpoly_degree_si(b.result().num.get(), static_cast<slong>(v), b.context()) > 0) r.numerator_atoms.push_back(b.atoms()[v]);
    }
  } catch (const TooLarge& e) {
    r.status = FormStatus::TooLarge;
    r.why = e.why;
  } catch (const NotRational& e) {
    r.status = FormStatus::NotRational;
    r.why = e.why;
  }
  return r;
}

std::optional<ExprId> expanded_form(Store& s, ExprId x, const PolyLimits& limits) {
  try {
    Builder b(s, x, limits);
    ExprId num = b.poly_to_expr(s, b.result().num);
    if (b.result().den.is_one()) return num;
    return s.div(num, b.poly_to_expr(s, b.result().den));
  } catch (const TooLarge&) {
    return std::nullopt;
  } catch (const NotRational&) {
    return std::nullopt;
  }
}

}  // namespace racer::decide
