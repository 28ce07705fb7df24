#pragma once
// The case split: piecewise sides (select, min, max, abs) decided piece by piece. A
// decision tree fixes one branch point at a time (piecewise.hpp: a comparison true or
// false, the extreme argument of a min or max, the sign of an abs argument), innermost
// first and outermost among those, rewriting the sides with the choice through the
// Store's smart constructors, until none is left. On each piece (leaf) the branch-free
// sides are compared with the normal form (the caller's prover), after substituting the
// equalities the piece implies (x <= 0 and not x < 0 give x = 0; max(x, y) = x with
// ranges x <= 1 <= y gives x = y = 1), found exactly by Fourier-Motzkin on the piece's
// linear conditions and the symbols' ranges (linear.hpp). A condition on other numbers
// (log(s) > x) is kept aside: only a piece that nothing proved or refuted is looked at again
// with each such atom an unknown of the linear arithmetic (a few atoms at most), and closed
// if its conditions cannot hold together or it has measure zero (below).
//
// What is proved: the tree covers every point. The choices at a branch point together
// cover all points (min/max by the first extreme argument, abs by the sign). At a point
// where a side is defined, the conditions it evaluates are defined and the point follows
// their choices; a condition undefined there sits only in branches the point does not
// take, so any choice for it gives the same value. A branch is pruned only when its linear
// conditions together with the symbols' ranges are infeasible over the reals (including
// disequalities), which the elimination proves exactly; nonlinear conditions are split but
// never used to prune. A piece on which one side is undefined and the other is not is not
// accepted (the sides would disagree about NaN there), so Proved keeps the decider's
// meaning: equal wherever both are defined. Where both sides are continuous and defined on
// the whole box (continuity.hpp), a piece that implies an equality not true everywhere
// (max(d, 0) = 0 together with |d| = d: d = 0) has measure zero and needs no proof, since
// the sides agree on the dense rest.
//
// Numeric sides that are finite wherever defined are split on their difference, where
// what they share has cancelled. When the difference is a sum whose terms fall into groups
// whose branch points share no symbol, each group is first split on its own; a group that
// takes one value on all of its pieces (a sum of select(c_i, 1, 0) counting the same thing
// as another sum) is replaced by that value, so independent conditions cost a sum, not a
// product, of pieces. Conditions and sides that may be infinite are split as a pair.
//
// Refutation: on a piece where the sides differ as functions, points are built from the
// piece's linear conditions (back-substitution through the elimination, each value chosen
// on its symbol's grid inside its bounds) and the ORIGINAL sides are evaluated there
// exactly, or in Arb balls; only such a confirmed point is returned. That finds witnesses
// that need many conditions true at once (32 lanes all >= 0 and one of them = 0), which
// random points never meet. Anything else (a budget exceeded, a piece neither proved nor
// refuted) stops the split and leaves the cell to the later steps, with the reason.
#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "decide/points.hpp"
#include "decide/refute.hpp"
#include "expr/store.hpp"

namespace racer::decide {

struct CaseSplitOptions {
  size_t max_pieces = 256;    // pieces (leaves) per decision tree; 8 independent conditions fit
  size_t max_depth = 64;      // conditions decided along one path
  size_t max_conditions = 256;  // comparisons and abs (1 each), n-ary min/max (n - 1); beyond, no split
  size_t max_groups = 256;    // independent groups of a sum split on their own
  size_t max_rows = 2000;     // Fourier-Motzkin rows before feasibility is Unknown
  size_t witness_tries = 8;   // points tried on a piece where the sides differ
  uint64_t max_work = 4000000;  // nodes rewritten, over all pieces (large DAGs stop early)
  bool balls = true;          // confirm witnesses in ball arithmetic where values are irrational
  // The caller holds a witness where the sides differ at rounding level only: no piece is
  // proved, a few pieces' points are searched for a larger difference (Refuted with one, or
  // Undecided).
  bool seek_larger_difference = false;
  // The check's time limit: past it the split stops (Undecided), whatever else it has left.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

enum class SplitStatus { Proved, Refuted, Undecided, NotApplicable };

struct SplitResult {
  SplitStatus status = SplitStatus::NotApplicable;
  std::string why;                       // Undecided / NotApplicable
  std::optional<Refutation> refutation;  // Refuted: in the PointSource's symbol order
  size_t pieces = 0;                     // leaves checked, over all trees
  size_t pruned = 0;                     // branches shown infeasible
  size_t negligible = 0;                 // pieces of measure zero set aside (continuous sides)
  // Undecided on a piece where the sides differ as functions but none of its points showed it.
  bool differing_piece = false;
};

// Whether two condition-free numbers are proved equal (wherever both are defined).
using EqualityProver = std::function<bool(expr::ExprId, expr::ExprId)>;

SplitResult case_split(expr::Store& s, expr::ExprId a, expr::ExprId b, PointSource& src,
                       const EqualityProver& prove, const CaseSplitOptions& options);

}  // namespace racer::decide
