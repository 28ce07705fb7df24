#pragma once
// What an instruction touches besides its registers. Both the engine (running the paths of a
// branch on symbolic data) and the routine recognizer (probing a routine) may only step
// through instructions without effects elsewhere.
#include "ptx/ir.hpp"

namespace racer::ptx {

// Arithmetic, logic, comparisons, moves, conversions and branches: their only effect is on
// the thread's registers (and its program counter).
bool register_only_op(Op op);

// A load from the kernel's parameter space: the launch's constants, which nothing writes.
bool is_param_load(const Instr& ins);

}  // namespace racer::ptx
