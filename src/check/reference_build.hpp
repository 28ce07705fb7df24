#pragma once
// A reference's graph (instance/reference.hpp) built into the expression store with the
// store's smart constructors: program B given as its outputs' expressions. Input cells are
// whatever `input` says a tensor cell initially holds (the same symbol the kernel's run reads
// there), so both sides meet in one hash-consed store and deciding, witnesses, classification
// and replay work as for two kernels.
#include <functional>
#include <vector>

#include "expr/store.hpp"
#include "instance/reference.hpp"

namespace racer::check {

using InitialCell = std::function<expr::ExprId(size_t tensor, int64_t cell)>;

// Per reference output (the instance's outputs, in order), per flat cell: its expression.
std::vector<std::vector<expr::ExprId>> build_reference(const instance::Reference& ref, expr::Store& st,
                                                       const InitialCell& input);

}  // namespace racer::check
