#pragma once
// Calls to .func device functions that nvcc did not inline, inlined into the entries that
// make them, so that one function runs. Arguments and results pass through .param
// variables: the caller stores each argument into a .param variable of its call sequence
// and loads each result from one after the call; the callee loads its parameters and stores
// its results. Each such variable becomes a register and each access a mov, which is what
// the .param space means for a scalar accessed whole. The callee's registers, labels,
// variables and .loc records are appended to the caller's; its `ret` becomes a branch to
// the instruction after the call.
//
// Only what is exactly that is inlined: direct calls (not through a register, not guarded,
// not recursive) to a function with a body, whose .param variables are scalars of 16, 32 or
// 64 bits read and written whole at offset 0 and used for nothing else. An entry with any
// other call is left as it is, and the machine refuses the call when it runs it.
#include "ptx/ir.hpp"

namespace racer::ptx {

// Inlines the calls of every entry of `m` that can be inlined exactly; `map` follows the
// instructions (an inlined one keeps its position in the callee). Returns the number of
// entries changed.
size_t inline_calls(Module& m, SourceMap& map);

}  // namespace racer::ptx
