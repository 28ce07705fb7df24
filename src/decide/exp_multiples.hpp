#pragma once
// exp(u) and exp(u/2)^2 are one function, but two atoms to the normal form: an exp whose
// argument is a rational multiple of another's stands for a power of a third. Within one
// expression, the exps whose arguments are rational multiples q1 u, q2 u, ... of one base u
// are rewritten over the single atom exp(g u), g the largest rational all q's are integer
// multiples of (the gcd of their numerators over the lcm of their denominators): exp(q u) =
// exp(g u)^(q / g); exp(c x) and exp(-c x) become an atom and its inverse. A constant argument
// is a multiple of 1 (exp(2) = exp(1)^2). Exact for finite arguments (the only ones touched).
// The choice of atom depends on the exps present, so the rewrite is per expression (a
// decision's difference), not remembered across them.
#include "expr/store.hpp"

namespace racer::decide {

expr::ExprId merge_exp_multiples(expr::Store& s, expr::ExprId x);

}  // namespace racer::decide
