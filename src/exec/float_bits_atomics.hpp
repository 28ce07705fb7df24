#pragma once
// Float data through integer atomics (Triton's tl.atomic_max/min of floats, vLLM's
// atomicMaxFloat): on a cell holding floats, atom.max/min.s32 of a float whose sign is clear
// order its bits as the floats, so they are the float maximum/minimum; atom.min/max.u32 of one
// whose sign is set order them reversed, so they are the float maximum/minimum too. sem's atom
// takes the symbolic ones so (where the sign is known), exec/atomics.cpp lets concrete ones join.
#include <cstdint>
#include <optional>

#include "exec/ieee.hpp"
#include "ptx/modifiers.hpp"
#include "ptx/types.hpp"

namespace racer::exec {

// The float operation (atomop MAX or MIN) that `op` on the integer type t is over a float's
// bits whose sign is as t needs (is_signed_view: clear; else set); none for other atomics.
inline std::optional<uint8_t> float_extreme_op(uint8_t op, ptx::Type t) {
  using namespace ptx::atomop;
  if (op != MAX && op != MIN) return std::nullopt;
  if (t == ptx::Type::S32 || t == ptx::Type::S64) return op;
  if (t == ptx::Type::U32 || t == ptx::Type::U64) return op == MAX ? uint8_t{MIN} : uint8_t{MAX};
  return std::nullopt;
}
// Whether t's order agrees with the floats' where the sign is clear (else where it is set).
inline bool is_signed_view(ptx::Type t) { return t == ptx::Type::S32 || t == ptx::Type::S64; }
// The float type and format of an integer type's width (32 or 64 bits).
inline ptx::Type float_of_width(ptx::Type t) { return ptx::type_bits(t) == 64 ? ptx::Type::F64 : ptx::Type::F32; }
inline ieee::Format format_of_width(ptx::Type t) { return ptx::type_bits(t) == 64 ? ieee::Format::F64 : ieee::Format::F32; }

}  // namespace racer::exec
