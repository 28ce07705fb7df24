#pragma once
// Matrix fragments shared by the tensor-core families (mma.sync, wmma, wgmma, ldmatrix):
// elements packed in 32-bit registers, warp-wide instructions, and the dot product that
// every matrix instruction computes.
#include <array>
#include <span>
#include <vector>

#include "sem/common.hpp"

namespace racer::sem {

// Elements of type `elem` one 32-bit register holds (2 for f16/bf16, 4 for s8/u8, else 1).
unsigned per_register(Type elem);
// The four s8/u8 elements of a 32-bit register, lane 0 first: a byte of concrete bits as it
// is, a symbolic byte lane (or a symbolic integer whose low 8 bits are lane 0) read as `elem`
// (x mod 256, signed for .s8). A lane of float data is refused.
std::array<Value, 4> byte_elements(ExecContext& c, Value v, Type elem);
// The elements of a vector operand ({%r1, %r2, ...}) in order: lane 0 of register 0 first.
std::vector<Value> read_fragment(ExecContext& c, const ptx::Operand& vec, Type elem);
void write_fragment(ExecContext& c, const ptx::Operand& vec, Type elem, std::span<const Value> values);
size_t fragment_registers(const ptx::Operand& vec);

// A warp-wide (.sync.aligned) instruction: every existing lane of the warp takes part.
void arrive_warp(ExecContext& c);

// c + sum_k a[k] * b[k], exact: a sum of exact products over the reals (symbolic domain);
// in the concrete domain the exact sum rounded once to `dtype` (round to nearest even), or
// for integer types the exact sum wrapped (or clamped with satfinite) to 32 bits.
// `ab` is the type of a and b, `ctype` that of c; with use_c false, c is ignored.
Value dot(exec::Domain& dom, Type dtype, Type ctype, Type ab, std::span<const Value> a, std::span<const Value> b, Value c,
          bool use_c = true, bool satfinite = false);

// The type of the elements of an mma-family operand, from a type name such as "f16", refusing
// what is not modelled.
void require_modelled_inputs(Type ab, const char* what);

}  // namespace racer::sem
