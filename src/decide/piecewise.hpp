#pragma once
// Piecewise structure for the case split (case_split.hpp). A branch point is a node whose
// value is chosen among alternatives by a condition: a comparison (true or false), min and
// max (one of their arguments: the one that is extreme), abs (its argument or minus it).
// The case split fixes one branch point at a time, innermost first (its operands contain
// no branch point, so the choice is a plain condition on numbers), and rewrites the sides
// with the choice substituted until none is left.
//
// An n-ary max is split n ways at once, argument k chosen where it is the first maximal
// one (x_k > x_j for j < k, x_k >= x_j for j > k): every point lies in exactly one piece,
// and the max is gone in one step instead of n - 1 nested comparisons (which a reduction
// over a row would need).
#include <span>
#include <unordered_map>
#include <vector>

#include "expr/store.hpp"
#include "expr/substitute.hpp"

namespace racer::decide {

bool is_branch_point(const expr::Store& s, expr::ExprId x);

class Piecewise {
 public:
  explicit Piecewise(expr::Store& s) : s_(s) {}

  // x with every node that is a key of `map` replaced by its value (a branch point by its
  // choice, a symbol by an expression), rebuilt through the smart constructors. A node
  // that a rebuild produces is looked up in `map` too, so a choice made once stays made
  // wherever it reappears. With `branch_keys_only` (every key is a branch point), subterms
  // without branch points are not visited. Iterative and memoized per call; the result
  // agrees with x wherever x is defined and the map's facts hold.
  expr::ExprId rewrite(expr::ExprId x, const expr::Substitution& map, bool branch_keys_only);

  // Whether x's DAG contains a branch point (memoized across calls: nodes are immutable).
  bool has_branch(expr::ExprId x);

  // The first branch point (breadth first from the roots, outermost first) whose operands
  // contain none; invalid when the roots contain none.
  expr::ExprId pick(std::span<const expr::ExprId> roots);

  // Every branch point under x.
  std::vector<expr::ExprId> branch_points(expr::ExprId x);

  // Nodes visited by rewrite so far: the case split's measure of work.
  uint64_t work() const { return work_; }

 private:
  expr::Store& s_;
  std::unordered_map<uint32_t, bool> has_branch_;
  uint64_t work_ = 0;
};

}  // namespace racer::decide
