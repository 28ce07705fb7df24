#pragma once
// Visiting the nodes of an expression DAG once each, iteratively (DAGs from unrolled kernels
// are deep): a scan that may stop early, and a bottom-up fold that every rewrite, normal
// form and encoder is written as.
#include <optional>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "expr/store.hpp"

namespace racer::expr {

// Calls visit(node) once per distinct node reachable from any of roots (one walk: roots
// that share nodes visit them once); stops early when visit returns true, and then returns true.
template <class Visit>
bool any_node(const Store& st, std::span<const ExprId> roots, Visit visit) {
  std::vector<ExprId> stack(roots.begin(), roots.end());
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

template <class Visit>
bool any_node(const Store& st, ExprId root, Visit visit) {
  return any_node(st, std::span<const ExprId>(&root, 1), visit);
}

// Pushes every operand of a node: the default for fold_post_order's `children`.
struct AllOperands {
  const Store& st;
  template <class Push>
  void operator()(ExprId x, Push push) const {
    for (uint32_t i = 0; i < st.arity(x); ++i) push(st.operand(x, i));
  }
};

// Computes one result per node, operands before the node, once per distinct node reachable
// from root. memo holds the results by node index and may carry them over from earlier calls.
// leaf(x) gives a node's result without visiting its operands, or nullopt; children(x, push)
// pushes the operands the node's result needs; combine(x) computes the result from theirs,
// which it reads from memo.
template <class R, class Leaf, class Children, class Combine>
void fold_post_order(ExprId root, std::unordered_map<uint32_t, R>& memo, Leaf leaf, Children children,
                     Combine combine) {
  struct Frame {
    ExprId id;
    bool expanded;
  };
  std::vector<Frame> stack{{root, false}};
  while (!stack.empty()) {
    Frame f = stack.back();
    if (memo.count(f.id.index)) {
      stack.pop_back();
      continue;
    }
    if (!f.expanded) {
      if (std::optional<R> r = leaf(f.id)) {
        memo.emplace(f.id.index, std::move(*r));
        stack.pop_back();
        continue;
      }
      stack.back().expanded = true;
      children(f.id, [&](ExprId c) {
        if (!memo.count(c.index)) stack.push_back({c, false});
      });
      continue;
    }
    stack.pop_back();
    memo.emplace(f.id.index, combine(f.id));
  }
}

// x rebuilt over its operands' results in memo (a node without operands is itself).
inline ExprId rebuild_over(Store& s, ExprId x, const std::unordered_map<uint32_t, ExprId>& memo) {
  uint32_t n = s.arity(x);
  if (n == 0) return x;
  std::vector<ExprId> ops;
  ops.reserve(n);
  for (uint32_t i = 0; i < n; ++i) ops.push_back(memo.at(s.operand(x, i).index));
  return s.rebuild(x, ops);
}

}  // namespace racer::expr
