#pragma once
// The invariants the smart constructors maintain, checked one node at a time. Debug builds
// assert them as nodes are made; tests check every node of a Store.
#include <string>

#include "expr/store.hpp"

namespace racer::expr {

// True when node x (not its operands) is in canonical form; otherwise *why says which rule
// it breaks.
bool is_canonical(const Store& s, ExprId x, std::string* why = nullptr);

}  // namespace racer::expr
