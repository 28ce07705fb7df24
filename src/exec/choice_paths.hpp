#pragma once
// Integer data that is a choice among integers made by comparisons of data: a selp of two
// constants on a float comparison, sums and multiples of such (an argmax's index, a binary
// search's pivot, nvcc's `c ? 2i : 2i + 1`). Such a value is a constant on every path of its
// decisions, so an instruction whose semantics need bits (and, or, xor, shifts, bfi, bfe, ...)
// can run once per path with constant operands; the result is the select over the paths.
#include <optional>

#include "exec/context.hpp"
#include "expr/store.hpp"

namespace racer::exec {

// The condition of the outermost select in x (breadth first) that chooses between values, or
// nullopt where x selects on none.
std::optional<expr::ExprId> outermost_choice(const expr::Store& s, expr::ExprId x);

// As outermost_choice, but a condition that compares choices between constants (a search's
// start < end) is decided through the conditions inside it: decided first as a whole, the later
// decisions inside it may contradict it (start < end taken, then start and end both 8: the
// search's finished state, whose guarded load names the cell past the table); decided from the
// inside, it folds to what they make it. (More paths where the choices are many: a tournament's
// comparisons of indices.)
std::optional<expr::ExprId> innermost_choice(const expr::Store& s, expr::ExprId x);

// At most this many paths of decisions per instruction run path by path.
inline constexpr size_t kMaxChoicePathsPerInstruction = 64;

// Runs `ins` once per path of the choices its symbolic integer operands make, those operands
// constant on each path, and sets its destination to the select over the paths' results.
// Only register-to-register integer instructions with one integer destination whose semantics
// read bits; false, with the thread unchanged, where the instruction is another, an operand is
// symbolic other than as a choice among integers, a path's run is refused, or there are more
// than kMaxChoicePathsPerInstruction paths.
bool run_per_choice(ExecContext& ctx, const ptx::Instr& ins, Handler handler, expr::Store& s);

}  // namespace racer::exec
