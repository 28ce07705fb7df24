#pragma once
// PTX fundamental types and state spaces.
#include <cstdint>
#include <optional>
#include <string_view>

namespace racer::ptx {

enum class Type : uint8_t {
  None,
  Pred,
  B8, B16, B32, B64, B128,
  U8, U16, U32, U64,
  S8, S16, S32, S64,
  F16, F16x2, BF16, BF16x2, TF32, F32, F64,
  E4M3, E5M2, E4M3x2, E5M2x2,
  S4, U4, B1,  // sub-byte mma operand types
  Count
};

enum class TypeClass : uint8_t { None, Pred, Bits, Unsigned, Signed, Float };

std::string_view type_name(Type t);  // without the leading dot, e.g. "f32"
std::optional<Type> type_from_name(std::string_view name);
unsigned type_bits(Type t);          // 0 for None
TypeClass type_class(Type t);
inline bool is_float(Type t) { return type_class(t) == TypeClass::Float; }
inline bool is_integer(Type t) {
  auto c = type_class(t);
  return c == TypeClass::Unsigned || c == TypeClass::Signed || c == TypeClass::Bits;
}

enum class Space : uint8_t {
  None,
  Reg, Sreg, Const, Global, Local, Param, Shared, SharedCluster, Tex,
  Count
};

std::string_view space_name(Space s);  // without the dot; "shared::cluster" for SharedCluster
std::optional<Space> space_from_name(std::string_view name);

}  // namespace racer::ptx
