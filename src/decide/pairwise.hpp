#pragma once
// Sums and products proved equal operand by operand. Where two sums (or products) have
// operands that are equal pair by pair up to constant ratios (a row sum of tanh(x_j) against
// one of (e^2x_j - 1)/(e^2x_j + 1); a product of tanh(x_j) against one of 2 sigmoid(2 x_j) - 1),
// bringing either side to a normal form can blow up exponentially (a common denominator of 19
// fractions, a product of 19 binomials), while each pair is a small proof of its own.
#include <functional>

#include "decide/domain.hpp"
#include "expr/store.hpp"

namespace racer::decide {

// Whether a = b is proved by matching their operands: both sums or both products with the same
// number of operands, each operand f of a paired with an operand g of b such that f = c g for a
// rational c (found numerically at a point inside the domains, proved by `equal`), and the
// weights and constants agree once the c's are taken out. False proves nothing.
bool equal_pairwise(expr::Store& st, expr::ExprId a, expr::ExprId b,
                    const std::function<SymbolDomain(expr::ExprId)>& domain_of,
                    const std::function<bool(expr::ExprId, expr::ExprId)>& equal);

}  // namespace racer::decide
