#pragma once
// Whether a polynomial of degree at most 2 in its atoms is >= 0 for every real value of them:
// q = [v; 1]^T M [v; 1] over its atoms v, and M positive semidefinite (decided exactly, by
// symmetric elimination over the rationals). A sufficient condition only (atoms that cannot
// take every real value, exp(x) say, may make q >= 0 where M is not): what it proves holds.
// A variance written one-pass, E[x^2] - E[x]^2, is such a form: max(var, 0) is var.
#include "expr/store.hpp"

namespace racer::decide {

// `q` in its normal form (an expanded polynomial); false where it is not quadratic in its atoms
// or has more than `max_atoms` of them.
bool nonnegative_quadratic(const expr::Store& s, expr::ExprId q, size_t max_atoms = 160);

}  // namespace racer::decide
