#pragma once
// Terms no float format can hold: an exp, or a product of exps and bounded factors, whose size
// the input ranges keep below e^-1000 on the whole box. A softmax masked with a finite value (-1e6, -1e8, a running max started at -5e4)
// instead of -inf carries such terms, exp(-1e6 - m), where the reference has none; over the
// reals the sides then differ by about e^-1000 of their size, far below any rounding (e^-1000 <
// 2^-1442: every format flushes the term to 0), yet neither evaluation at points nor the normal
// form can settle a power of degree 1e8. The decider drops them (each replaced by 0) and decides
// the rest: a proof there is the verdict "equal up to rounding", never "equivalent" (whether the
// dropped terms cancel is not decided), and a refutation must still hold with them kept.
//
// Dropping is refused where it could change more than the term's own size: a term under a
// comparison (a branch may flip) or an integer wrap-around, inside a denominator, log or sqrt
// that the ranges no longer keep clear of 0 once it is gone (the dropped side would be undefined
// where the kept one is huge), or in a product whose other factors the ranges do not bound.
#include <optional>
#include <string>

#include "expr/store.hpp"

namespace racer::decide {

// A term is negligible where its size is at most e^-kNegligibleExponent at every point of the box.
inline constexpr long kNegligibleExponent = 1000;

struct WithoutNegligible {
  expr::ExprId a, b;     // the sides with every negligible term replaced by 0
  size_t dropped = 0;    // distinct terms replaced, not counting those inside another
  std::string example;   // one of them, printed and clipped
};

// nullopt where neither side has a negligible term, or where dropping them is refused (then
// `why` says where).
std::optional<WithoutNegligible> drop_negligible_terms(expr::Store& s, expr::ExprId a, expr::ExprId b,
                                                       std::string& why);

}  // namespace racer::decide
