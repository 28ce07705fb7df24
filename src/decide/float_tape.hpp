#pragma once
// Expression DAGs compiled to a straight-line program over doubles: every node's value at a
// point, the branches it took there, and the gradient of a combination of node values with
// respect to the symbols (reverse mode, along the branches taken). A guide for searches that
// look for a witness (branch_flips.hpp): nothing is decided on a double; a point it suggests
// is evaluated exactly before anything is reported (refute.hpp).
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "expr/store.hpp"

namespace racer::decide {

class FloatTape {
 public:
  // Every node reachable from `roots`; `symbols` gives the order of a point's coordinates.
  // A symbol the roots read that `symbols` lacks makes the tape unusable (usable() false).
  FloatTape(const expr::Store& s, std::span<const expr::ExprId> roots, const std::vector<expr::ExprId>& symbols);

  bool usable() const { return usable_; }
  size_t size() const { return ops_.size(); }
  uint32_t slot(expr::ExprId x) const;  // x reachable from the roots

  // The values at x (one double per symbol); false where a root is not a finite number.
  bool evaluate(std::span<const double> x);
  double value(uint32_t slot) const { return values_[slot]; }

  // d/dx of sum_i weight_i * value(slot_i), along the branches of the last evaluation.
  void gradient(std::span<const std::pair<uint32_t, double>> seeds, std::vector<double>& out);

  // A piecewise node: a min or max (its extreme argument), a select on a comparison (the
  // comparison's truth) or an abs (its argument's sign). Outermost (nearest a root) first.
  const std::vector<uint32_t>& branch_points() const { return branches_; }
  // At the last evaluation, the node values whose weighted sum is negative now and becomes
  // positive where the branch point takes another branch: the runner-up against the extreme
  // argument, a comparison's sides against its truth, the negated argument of an abs. Empty
  // where there is no other branch to take (a tie, a select on an equality).
  std::vector<std::pair<uint32_t, double>> flip_margin(uint32_t branch) const;
  // Which branch the point took at the last evaluation: the extreme argument's index, the
  // comparison's truth, the argument's sign.
  uint32_t taken(uint32_t branch) const;

 private:
  struct Op {
    expr::Kind kind;
    uint8_t op;          // FuncKind, CmpOp, Bool value
    uint32_t first = 0;  // operands: args_[first, first + n)
    uint32_t n = 0;
    double coef = 0;     // Const value; Add constant; Mul coefficient; Symbol: coordinate index
  };
  struct Arg {
    uint32_t slot;
    double weight;  // Add: term coefficient; Mul: exponent; otherwise 1
  };
  double combine(const Op& o, uint32_t self);

  std::vector<Op> ops_;
  std::vector<Arg> args_;
  std::vector<double> values_;
  std::vector<double> adjoint_;
  std::vector<uint32_t> chosen_;  // Min/Max: the argument taken (index into its operands)
  std::vector<uint32_t> branches_;
  std::vector<std::pair<uint32_t, uint32_t>> index_;  // (node index, slot), sorted
  std::vector<uint32_t> roots_;
  std::span<const double> point_;
  bool usable_ = true;
};

}  // namespace racer::decide
