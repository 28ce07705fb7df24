#pragma once
// PTX fundamental types and state spaces.
#include <cstdint>
#include <iterator>
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

namespace detail {
// By Type, in declaration order (inline: every operand read asks).
inline constexpr uint8_t kTypeBits[] = {
    0, 1,                        // None, Pred
    8, 16, 32, 64, 128,          // b
    8, 16, 32, 64,               // u
    8, 16, 32, 64,               // s
    16, 32, 16, 32, 32, 32, 64,  // f16, f16x2, bf16, bf16x2, tf32, f32, f64
    8, 8, 16, 16,                // e4m3, e5m2, e4m3x2, e5m2x2
    4, 4, 1};                    // s4, u4, b1
namespace cls {
constexpr TypeClass N = TypeClass::None, P = TypeClass::Pred, B = TypeClass::Bits, U = TypeClass::Unsigned,
                    S = TypeClass::Signed, F = TypeClass::Float;
}  // namespace cls
inline constexpr TypeClass kTypeClass[] = {cls::N, cls::P, cls::B, cls::B, cls::B, cls::B, cls::B, cls::U, cls::U, cls::U,
                                           cls::U, cls::S, cls::S, cls::S, cls::S, cls::F, cls::F, cls::F, cls::F, cls::F,
                                           cls::F, cls::F, cls::F, cls::F, cls::F, cls::F, cls::S, cls::U, cls::B};
static_assert(std::size(kTypeBits) == static_cast<size_t>(Type::Count) &&
              std::size(kTypeClass) == static_cast<size_t>(Type::Count));
}  // namespace detail

inline unsigned type_bits(Type t) { return detail::kTypeBits[static_cast<size_t>(t)]; }  // 0 for None
inline TypeClass type_class(Type t) { return detail::kTypeClass[static_cast<size_t>(t)]; }
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
