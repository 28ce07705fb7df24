#pragma once
// The float hazard search after a check. The verdict is over exact reals; a kernel can be
// Equivalent there and still produce NaN, overflow, underflow to zero or a far larger
// rounding error than the other kernel in its formats. Both programs run on the bit-exact
// emulator at inputs chosen to provoke the formats (check/hazard_points.hpp), and each output
// cell is read against the exact value of each program's expression and the rounding each
// program's formats allow (check/hazard_rules.hpp). Hazards never change the verdict.
#include "check/check.hpp"
#include "check/early_emulation.hpp"
#include "check/execution.hpp"

namespace racer::check {

// options.hazard_points: emulator runs (each runs both programs); 0 lists only the precision changes.
// `early`: where given, the first point's run is taken from it (made beside the symbolic run).
HazardReport search_float_hazards(Execution& ex, const CheckResult& res, const CheckOptions& options, EarlyEmulation* early = nullptr);

// The search into res.float_hazards, and its time into res.seconds (the whole check).
void add_float_hazards(Execution& ex, CheckResult& res, const CheckOptions& options, EarlyEmulation* early = nullptr);

}  // namespace racer::check
