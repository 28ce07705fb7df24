#pragma once
// Intermediate values that leave their format in one program only (issue 22): an infinity from
// finite operands or a zero from nonzero ones that no output shows (clamped, selected away or
// compensated later) is still a hazard of that program when the other program computes the
// same function at that input without any. What both programs do alike (exp of a masked
// value underflowing to zero by design in each, -inf as the identity of a max, which is no
// event at all) is how the formats are used, not a difference between the kernels.
#include <functional>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "check/concrete_run.hpp"
#include "check/result.hpp"
#include "decide/rounding_bound.hpp"
#include "exec/ieee.hpp"

namespace racer::check {

// An instruction of a program: (program, launch, instruction index).
using InstructionKey = std::tuple<char, uint32_t, uint32_t>;

// Whether the exact expressions of a program ask, at the point, for an intermediate value that
// an event of `kind` in `format` stands for: one larger in magnitude than the format's largest
// finite value ("overflow"), or nonzero and below its smallest normal ("underflow").
using AsksBeyond = std::function<bool(char program, const std::string& kind, ieee::Format format)>;

// The hazards at one input: per program, the overflow and underflow events of `run` of a kind
// the other program has none of, one per instruction, leaving out the instructions an output
// hazard at this input already names as its origin (`origins`), zeros from a narrowing
// conversion (its own rounding, a precision change) and the events the program's
// own exact expressions do not ask for (an implementation's scaling selected away, such as
// x * 2^23 before a logarithm of a large x). Input, values and message are left to the
// caller. Each with its instruction.
std::vector<std::pair<InstructionKey, FloatHazard>> intermediate_hazards(const ConcreteRun& run, const std::set<InstructionKey>& origins,
                                                                         const AsksBeyond& asks_beyond);

// The AsksBeyond of expressions `roots` (every output cell of one program) at the exact values
// `exact` of a point: whether a sum, product, function, min, max or select among them is
// beyond the format there (visiting at most 200000 nodes).
bool asks_beyond(const expr::Store& st, decide::RoundingBound& exact, const std::vector<expr::ExprId>& roots, const std::string& kind,
                 ieee::Format format);

// "program a's ex2.approx.ftz.f32 ... at PTX line 57 (k.cu:40:3) overflows to +inf ...".
std::string intermediate_message(const FloatHazard& h);

}  // namespace racer::check
