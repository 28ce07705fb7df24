#pragma once
// Registers that hold two 16-bit lanes (f16x2, bf16x2) where a lane is symbolic: tensor-core
// fragments, ldmatrix results, 32-bit loads of half-precision data; and registers whose low
// 16 bits hold two 8-bit lanes (e4m3x2, e5m2x2: fp8 data). The pair is structure, not
// arithmetic (DESIGN "Semantics"): it can be split again, stored, moved between lanes by
// whole bytes, or converted lane by lane; using it as one number is refused.
#include <array>
#include <optional>

#include "exec/value.hpp"

namespace racer::exec {

// lo is bits 15:0, hi bits 31:16. Two concrete lanes give plain concrete bits.
Value pack_halves(Value lo, Value hi);
// The two lanes of a 32-bit value (concrete bits split; a packed pair decoded). A symbolic
// 32-bit number cannot be split into halves: refused.
std::array<Value, 2> unpack_halves(Value v);

// Two 8-bit lanes: lo is bits 7:0, hi bits 15:8 (each a symbolic fp8 value, or concrete bits
// of which the low 8 count). Two concrete lanes give plain concrete bits.
Value pack_bytes(Value lo, Value hi);
// Lane k (0: bits 7:0, 1: bits 15:8) of concrete bits or of a byte pair; a lane an arithmetic
// shift filled with a symbolic value's sign is refused, as is any other symbolic value.
Value byte_lane(Value v, unsigned k);
// A byte pair whose lane 1 is the sign of `v`'s lane 1 replicated (shr.s16 by 8): unknown
// bits for a symbolic lane, which may be stored away in lane 0's company but never read.
Value bytes_shifted_down(Value v, bool sign_fill);
Value bytes_shifted_up(Value v);
// `and` with a mask whose bytes are 0x00 or 0xFF, `or` and `xor` where each lane has a
// concrete zero on one side; null for anything else (a bit-level operation inside a lane).
std::optional<Value> bytes_masked(Value v, uint64_t mask);
std::optional<Value> bytes_merged(Value a, Value b, bool exclusive);
}  // namespace racer::exec
