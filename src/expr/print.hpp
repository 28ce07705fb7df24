#pragma once
// Readable infix for expressions: 2*x[0] + 3/4*y[1]^2, exp(x[0]), max(a, b),
// select(x[0] < 1/2, a, b). Symbols print as their origin (in braces when the origin is not
// a plain name, such as {uninit global 0x1000+12}).
#include <cstddef>
#include <string>

#include "expr/store.hpp"

namespace racer::expr {

// Shared subterms print in full at every use, so a DAG can have an exponentially long
// infix form; output stops after max_chars characters and ends in "...". Iterative, so
// depth is no concern.
std::string to_string(const Store& s, ExprId x, size_t max_chars = size_t(1) << 20);

}  // namespace racer::expr
