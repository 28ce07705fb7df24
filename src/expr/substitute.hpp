#pragma once
// Rewriting by replacement, and the free symbols of an expression.
#include <unordered_map>
#include <vector>

#include "expr/store.hpp"

namespace racer::expr {

using Substitution = std::unordered_map<ExprId, ExprId, ExprIdHash>;

// x with every occurrence of a key of `map` (any node, typically a symbol) replaced by its
// value, rebuilt bottom-up through the smart constructors so the result is canonical.
// Replacement is simultaneous (values are not substituted into again). Iterative and
// memoized: linear in the DAG.
ExprId substitute(Store& s, ExprId x, const Substitution& map);

// The symbols x depends on, sorted by id.
std::vector<ExprId> free_symbols(const Store& s, ExprId x);

}  // namespace racer::expr
