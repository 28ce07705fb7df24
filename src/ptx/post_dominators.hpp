#pragma once
// Immediate post-dominators of a function's instructions: the first instruction every path
// from an instruction must reach (before the function ends). Where the two paths of a
// conditional branch meet again.
#include <cstdint>
#include <vector>

#include "ptx/ir.hpp"

namespace racer::ptx {

inline constexpr uint32_t kNoPostDominator = UINT32_MAX;

// One entry per instruction: its immediate post-dominator's index; instrs.size() when the
// function's end is the first point all its paths share; kNoPostDominator when some path
// from it never ends (an endless loop).
std::vector<uint32_t> immediate_post_dominators(const Function& f);

// The instructions control can go to after instruction i (instrs.size() stands for the end).
void successors_of(const Function& f, uint32_t i, std::vector<uint32_t>& out);

}  // namespace racer::ptx
