#pragma once
// The population count of integer data that depends on a few conditions alone: flags packed
// into a word by selects, shifts, ors and masks (Triton's sum of a block of booleans counts a
// thread's flags with popc). Each outcome of the conditions gives the word a constant value;
// the count is the select over the outcomes of those values' counts, exact whatever bits the
// terms share. Outcomes no point reaches (exclusive conditions) are harmless branches.
#include <optional>

#include "expr/store.hpp"

namespace racer::exec {

// popc(e mod 2^width) as a select over e's conditions, or nullopt where e reads a symbol
// outside a select's condition, applies a function other than a wrap, or has more than
// kMaxConditions conditions.
inline constexpr size_t kMaxBitCountConditions = 6;
std::optional<expr::ExprId> bit_count_by_cases(expr::Store& s, expr::ExprId e, unsigned width);

}  // namespace racer::exec
