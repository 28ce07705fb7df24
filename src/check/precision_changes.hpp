#pragma once
// Where one program lowers precision and the other does not: conversions to a narrower float
// format (f32 to f16, bf16, tf32, fp8), approximate instructions (.approx, div.full) and
// flushes of subnormals to zero (.ftz). Read from the PTX of each program's launches; an
// instruction is listed when the other program has no instruction of the same form (opcode,
// modifiers and types; conversions by their formats), with its PTX and source line, whatever
// the verdict: over the reals these steps are the identity, so no verdict shows them.
#include <vector>

#include "check/prepare.hpp"
#include "check/result.hpp"

namespace racer::check {

// At most this many sites per form and program are listed; the rest are counted in `more`.
constexpr size_t kSitesPerForm = 4;

std::vector<PrecisionChange> precision_changes(const Prepared& prep);

}  // namespace racer::check
