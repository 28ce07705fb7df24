#pragma once
// The decision for one output cell pair (a, b): proved equal, refuted with a witness, or
// unknown with a reason. Steps, cheapest first (DESIGN.md, the pipeline's decide/ step):
//   1. identical ids (hash-consing makes structural equality an integer compare);
//   2. the Store's canonical difference a - b is the constant 0;
//   3. the difference as a reduced fraction of polynomials over Q (FLINT) whose variables
//      are its atoms (symbols and non-arithmetic nodes, their arguments expanded first)
//      has numerator 0;
//   4. case split (case_split.hpp), only when the sides have comparisons, min, max or abs:
//      piece by piece, each comparison fixed true or false (a min/max to one argument, an
//      abs to a sign), the branch-free sides compared by the normal form of step 3;
//      branches pruned only when their linear conditions are infeasible (exact
//      Fourier-Motzkin); a piece where the sides differ yields a witness built from its
//      conditions. It comes right after the normal form because it is the normal form
//      applied per piece: exact, bounded (pieces, depth, conditions, nodes rewritten), and
//      it stops at the first piece it cannot close. It runs before the point search
//      because it proves what no search can, and because its witnesses satisfy many
//      conditions at once (every lane of a vote, one at its boundary), which seeded points
//      never meet;
//   5. exact evaluation at admissible points (simple values, seeded random values, and
//      values on the boundaries of comparisons, min/max and abs) finds a point where both
//      sides are defined and differ; where a side is irrational, Arb balls that do not
//      overlap do the same;
//   6. Z3 (z3_prover.hpp): the question "is there a point where both are defined and
//      differ" in nonlinear real arithmetic with ite, functions uninterpreted; unsat proves,
//      a model is only a hint that exact evaluation must confirm. Last, because it is the
//      most expensive step (a timeout per query) and the least predictable;
//   7. otherwise Unknown, with what every step learned.
// Between steps 3 and 4, where a side has exps no float format can hold (negligible_terms.hpp:
// a softmax masked with -1e6 instead of -inf), the whole pipeline runs on the sides without
// them: a proof there is CellStatus::Negligible (equal up to terms below e^-1000, the verdict
// "equal up to rounding", never a proof), a refutation must hold on the sides as they are.
// Proofs mean: a and b agree at every point where both are defined (the Store's
// cancellation conventions included; so (x^2-1)/(x-1) = x+1 is Proved, the sides differing
// only at the pole), every symbol within its range (the domain's and the Store's; the
// case split and Z3 use them, and Z3 takes integer grids as integers). The case split and
// Z3 add no proof where one side is undefined on a whole piece (or, for Z3, at any point)
// where the other is defined. Two cells that are both the Undefined constant are
// identical, hence Proved: flagging NaN outputs is the caller's business. Refutations
// always carry a witness that was re-checked before it is returned: exact values, or
// disjoint Arb balls (then value_a/value_b are the balls' midpoints and `step` says so).
#include <gmpxx.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "decide/case_split.hpp"
#include "decide/domain.hpp"
#include "decide/z3_prover.hpp"
#include "expr/store.hpp"

namespace racer::decide {

// Negligible: the sides agree once terms below e^-1000 are dropped (negligible_terms.hpp); they
// may differ by those terms, which no float format holds.
enum class CellStatus { Proved, Refuted, Unknown, Negligible };

struct CellDecision {
  CellStatus status = CellStatus::Unknown;
  std::string step;    // which step decided: "identical", "canonical difference", ...
  std::string reason;  // Unknown: why nothing decided it
  std::map<uint32_t, mpq_class> witness;      // Refuted: every free symbol (ExprId index) -> value
  std::optional<mpq_class> value_a, value_b;  // Refuted: both sides at the witness (ball midpoints when step says so)
  // Refuted: the functions (expr/applied_functions.hpp) that the difference a - b still applies
  // once its atoms are normalized; every bit where it could not be built.
  unsigned difference_functions = ~0u;
};

// Bounds on the work per cell; the defaults keep one decision well under a second.
struct DeciderOptions {
  // Step 3: give up on the normal form beyond these (it is then merely not proved).
  size_t max_terms = 5000;       // terms of any intermediate polynomial
  long max_degree = 256;         // total degree of any intermediate polynomial
  size_t max_vars = 1024;        // atoms in one difference
  uint64_t max_work = 50000000;  // sum over multiplications of term-count products
  // Step 4.
  size_t points = 24;            // simple and random points
  size_t boundary_points = 64;   // points placed on comparison boundaries
  bool balls = true;             // Arb evaluation where exact evaluation meets irrationals (steps 4-6)
  // Step 4.
  bool use_case_split = true;
  CaseSplitOptions case_split;
  // Step 6.
  bool use_z3 = true;
  Z3Options z3;
};

class Decider {
 public:
  Decider(expr::Store& store, std::function<SymbolDomain(expr::ExprId)> domain_of, uint64_t seed = 1,
          DeciderOptions options = {});
  ~Decider();
  Decider(const Decider&) = delete;
  Decider& operator=(const Decider&) = delete;

  CellDecision decide(expr::ExprId a, expr::ExprId b);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

std::string_view status_name(CellStatus s);

}  // namespace racer::decide
