#pragma once
// The decision for one output cell pair (a, b): proved equal, refuted with a witness, or
// unknown with a reason. Steps, cheapest first (DESIGN.md, the pipeline's decide/ step):
//   1. identical ids (hash-consing makes structural equality an integer compare);
//   2. the Store's canonical difference a - b is the constant 0;
//   3. the difference as a reduced fraction of polynomials over Q (FLINT) whose variables
//      are its atoms (symbols and non-arithmetic nodes, their arguments expanded first)
//      has numerator 0;
//   4. exact evaluation at admissible points (simple values, seeded random values, and
//      values on the boundaries of comparisons, min/max and abs) finds a point where both
//      sides are defined and differ; where a side is irrational, Arb balls that do not
//      overlap do the same;
//   5. otherwise Unknown.
// Proofs mean: a and b agree at every point where both are defined (the Store's
// cancellation conventions included; so (x^2-1)/(x-1) = x+1 is Proved, the sides differing
// only at the pole). Two cells that are both the Undefined constant are identical, hence
// Proved: flagging NaN outputs is the caller's business. Refutations always carry a witness
// that was re-checked before it is returned: exact values, or disjoint Arb balls (then
// value_a/value_b are the balls' midpoints and `step` says so).
#include <gmpxx.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "decide/domain.hpp"
#include "expr/store.hpp"

namespace racer::decide {

enum class CellStatus { Proved, Refuted, Unknown };

struct CellDecision {
  CellStatus status = CellStatus::Unknown;
  std::string step;    // which step decided: "identical", "canonical difference", ...
  std::string reason;  // Unknown: why nothing decided it
  std::map<uint32_t, mpq_class> witness;      // Refuted: every free symbol (ExprId index) -> value
  std::optional<mpq_class> value_a, value_b;  // Refuted: both sides at the witness (ball midpoints when step says so)
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
  bool balls = true;             // Arb evaluation where exact evaluation meets irrationals
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
