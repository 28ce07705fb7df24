#pragma once
// Registers that hold two 16-bit lanes (f16x2, bf16x2) where a lane is symbolic: tensor-core
// fragments, ldmatrix results, 32-bit loads of half-precision data. The pair is structure,
// not arithmetic (DESIGN "Semantics"): it can be split again, stored, or fed to a matrix
// instruction lane by lane; using it as one number is refused.
#include <array>

#include "exec/value.hpp"

namespace racer::exec {

// lo is bits 15:0, hi bits 31:16. Two concrete lanes give plain concrete bits.
Value pack_halves(Value lo, Value hi);
// The two lanes of a 32-bit value (concrete bits split; a packed pair decoded). A symbolic
// 32-bit number cannot be split into halves: refused.
std::array<Value, 2> unpack_halves(Value v);

}  // namespace racer::exec
