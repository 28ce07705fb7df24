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

FormResult normal_form(const Store& s, ExprId x, const PolyLimits& limits) {
  FormResult r;
  try {
    Builder b(s, x, limits);
    if (b.result().num.is_zero()) {
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
