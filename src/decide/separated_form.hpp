#pragma once
// A sum whose terms fall into groups over disjoint atoms (sum_j sigmoid(x_j): each term over
// its own exp(x_j)) is the sum of its groups' rational functions, each determined up to a
// constant. Taken group by group, its normal form stays as small as one group's where the
// single fraction over all of them has a denominator with a factor per group (2^n terms).
//
// Each group's fraction n/d is written q + r/d with r the remainder of n divided by d (no
// monomial of r divisible by d's leading one: unique for d), and q's constant term joins the
// sum's constant. Then the form is canonical: a group's function shifted by a constant keeps
// its q - q(0) and r/d, so 1 - 1/(e + 1) and e/(e + 1) give the same parts.
#include <optional>

#include "decide/normal_form.hpp"
#include "expr/store.hpp"

namespace racer::decide {

// x rebuilt as constant + one part per group; nullopt where x is not a sum of two groups or
// more, or a group's fraction is too large or not rational.
std::optional<expr::ExprId> separated_form(expr::Store& s, expr::ExprId x, const PolyLimits& limits);

// Whether x, a sum of two groups or more, is the zero function: Zero where every group is a
// constant and they sum to 0, NonZero where a group is not constant (the others cannot cancel
// it: they do not vary with its atoms) or the constants do not sum to 0; TooLarge where x has
// fewer than two groups or a group's form hit a limit.
FormResult separated_normal_form(expr::Store& s, expr::ExprId x, const PolyLimits& limits);

}  // namespace racer::decide
