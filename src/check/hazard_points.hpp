#pragma once
// The inputs the float hazard search (check/hazards.hpp) runs both programs at, in the order
// it runs them: every input at the end of its range with the largest magnitude (rows of equal
// values, where the formats overflow and underflow first); points found from the exact
// expressions, where an exp argument crosses the overflow or underflow-to-zero threshold of
// the programs' narrowest format; where a logarithm's argument or a division's denominator
// crosses 0 (its positive side, as near 0 as the formats allow); nearly equal values at the
// largest magnitude (cancellation); then the sampler's styles (spread, ends, small, nearly equal) in turn.
#include <string>
#include <vector>

#include "check/points.hpp"
#include "decide/rounding_bound.hpp"

namespace racer::check {

struct ProvokingPoint {
  Point point;
  std::string how;  // how the input was chosen, for the report
  bool near_pole = false;  // next to where a denominator or a logarithm's argument crosses 0
};

// `roots`: the output cells' expressions (both programs), where the exp arguments are looked for.
std::vector<ProvokingPoint> provoking_points(Execution& ex, const std::vector<expr::ExprId>& roots,
                                             const decide::FloatModel& narrowest, unsigned count, uint64_t seed);

// The seed of the first point's keyed draws, from the check's: keyed_largest_inputs with it
// gives that point's inputs before the symbolic run (check/early_emulation.hpp).
inline uint64_t hazard_sampler_seed(uint64_t seed) { return seed ^ 0xF10A7ull; }

// The arguments of the logarithms (`logarithms`) or the denominators of the quotients (factors
// of a product with a negative exponent) reachable from `roots` that are neither constants
// nor inputs (at most `limit` distinct ones, visiting at most 200000 nodes).
std::vector<expr::ExprId> pole_operands(const expr::Store& st, const std::vector<expr::ExprId>& roots, bool logarithms, size_t limit);

// The arguments of the exp applications reachable from `roots` (at most `limit` distinct ones,
// visiting at most 200000 nodes).
std::vector<expr::ExprId> exp_arguments(const expr::Store& st, const std::vector<expr::ExprId>& roots, size_t limit);

}  // namespace racer::check
