#pragma once
// Z3 as a second prover (the decider's last step). The question "is there an admissible
// point where both sides are defined and differ?" is encoded exactly in nonlinear real
// arithmetic with if-then-else:
//  * symbols are Real constants (Int for integer grids) within their ranges (the domain's
//    and the Store's); float grids are relaxed to the reals, which only widens the search;
//  * sums and products are themselves, integer powers are products, negative powers are
//    divisions whose denominators are asserted nonzero where they are evaluated;
//  * select is ite; comparisons, Bool constants, min, max and abs are exact;
//  * exp, tanh, erf, sin and cos are uninterpreted functions with true facts about them
//    (exp > 0; tanh, erf in (-1, 1) and increasing; sin, cos in [-1, 1]); sqrt is exact
//    (r >= 0 and r^2 = u wherever u >= 0);
//  * definedness is a formula of its own, path-sensitive through ite: a division by zero or
//    a sqrt of a negative number in a branch that is not taken does not count, and the
//    Undefined constant is defined nowhere;
//  * log (which reaches -inf at 0) and infinite constants are not encoded: the step is
//    skipped, since the encoding holds only where every value is a finite real.
//
// unsat proves the sides equal wherever both are defined: every real point, with the true
// functions as the interpretation of the uninterpreted ones, would be a model. A second
// query then asks whether one side can be defined where the other is not; only when that
// is unsat too is the cell Proved (as the case split does, a NaN on one side only is not
// proved away). sat gives a model, which is only a hint (its functions need not be the
// real ones, its values need not lie on the grids): its symbol values are snapped onto the
// grids (nearest, down, up), then, failing that, Z3 is asked again with every float symbol
// restricted to k / 2^j values its format holds, and a point counts only when exact (or
// Arb ball) evaluation of the ORIGINAL sides confirms the difference. unknown, a timeout
// or a resource limit is Unknown with Z3's reason. The queries of a cell run in a child
// process killed when their time is up: Z3 4.8 does not always stop when told to.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "decide/points.hpp"
#include "decide/refute.hpp"
#include "expr/store.hpp"

namespace racer::decide {

struct Z3Options {
  // Per query: Z3's resource count, which is deterministic (the same query gets the same answer
  // on any machine and in any run), and a wall-clock limit that only backs it up where a tactic
  // does not count (nlsat), set well beyond what the resource limit takes (about 2.3 s here for
  // 10 M; a proof that took 8.8 M had come and gone with a 2 s timeout from run to run).
  unsigned rlimit = 10'000'000;  // 0 for none
  unsigned timeout_ms = 8000;
  size_t max_nodes = 20000;    // larger DAGs are not encoded
  size_t max_monotone = 24;    // applications per function related by monotonicity facts
  // Cells with more applications of transcendental functions are not encoded: each is an
  // uninterpreted function of its own, and nlsat over that many does not come back, nor
  // always stop when interrupted (a row sum of 64 tanh ran on for minutes past its timeout).
  size_t max_functions = 24;
  bool balls = true;           // confirm models in ball arithmetic where values are irrational
  // Cells of one check are alike: once Z3 has timed out (or said unknown) on this many
  // cells in a row, or spent this much time in all, it is skipped for the prover's later
  // cells, with that reason (0: never). This makes an answer depend on the cells decided
  // before it, as any timeout does; it never makes one wrong.
  size_t give_up_after = 4;
  unsigned total_ms = 60000;
  // Z3 runs in a child process (support/isolated_call.hpp), killed when its queries' time is up
  // or at this deadline (the check's time limit), whichever comes first; it may allocate this
  // much beyond what the checker holds.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  uint64_t memory_mb = 2048;
};

enum class Z3Status { Proved, Refuted, Unknown, NotEncodable };

struct Z3Outcome {
  Z3Status status = Z3Status::Unknown;
  std::string why;                       // Unknown / NotEncodable
  std::optional<Refutation> refutation;  // Refuted: in the PointSource's symbol order
};

class Z3Prover {
 public:
  explicit Z3Prover(Z3Options options);
  ~Z3Prover();
  Z3Prover(const Z3Prover&) = delete;
  Z3Prover& operator=(const Z3Prover&) = delete;

  Z3Outcome check(const expr::Store& s, expr::ExprId a, expr::ExprId b, PointSource& src);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace racer::decide
