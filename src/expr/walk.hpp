#pragma once
// Visiting every node of an expression DAG once (iteratively: DAGs from unrolled kernels
// are deep).
#include <unordered_set>
#include <vector>

#include "expr/store.hpp"

namespace racer::expr {

// Calls visit(node) once per distinct node reachable from root; stops early when visit
// returns true, and then returns true.
template <class Visit>
bool any_node(const Store& st, ExprId root, Visit visit) {
  std::vector<ExprId> stack{root};
  std::unordered_set<uint32_t> seen;
  while (!stack.empty()) {
    ExprId e = stack.back();
    stack.pop_back();
    if (!seen.insert(e.index).second) continue;
    if (visit(e)) return true;
    for (uint32_t i = 0; i < st.arity(e); ++i) stack.push_back(st.operand(e, i));
  }
  return false;
}

}  // namespace racer::expr
