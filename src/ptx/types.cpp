#include "ptx/types.hpp"

#include <array>

#include "ptx/name_map.hpp"

namespace racer::ptx {
namespace {

struct TypeInfo {
  std::string_view name;
  unsigned bits;
  TypeClass cls;
};

constexpr std::array<TypeInfo, static_cast<size_t>(Type::Count)> kTypes = {{
    {"", 0, TypeClass::None},
    {"pred", 1, TypeClass::Pred},
    {"b8", 8, TypeClass::Bits}, {"b16", 16, TypeClass::Bits}, {"b32", 32, TypeClass::Bits},
    {"b64", 64, TypeClass::Bits}, {"b128", 128, TypeClass::Bits},
    {"u8", 8, TypeClass::Unsigned}, {"u16", 16, TypeClass::Unsigned}, {"u32", 32, TypeClass::Unsigned},
    {"u64", 64, TypeClass::Unsigned},
    {"s8", 8, TypeClass::Signed}, {"s16", 16, TypeClass::Signed}, {"s32", 32, TypeClass::Signed},
    {"s64", 64, TypeClass::Signed},
    {"f16", 16, TypeClass::Float}, {"f16x2", 32, TypeClass::Float}, {"bf16", 16, TypeClass::Float},
    {"bf16x2", 32, TypeClass::Float}, {"tf32", 32, TypeClass::Float}, {"f32", 32, TypeClass::Float},
    {"f64", 64, TypeClass::Float},
    {"e4m3", 8, TypeClass::Float}, {"e5m2", 8, TypeClass::Float}, {"e4m3x2", 16, TypeClass::Float},
    {"e5m2x2", 16, TypeClass::Float},
    {"s4", 4, TypeClass::Signed}, {"u4", 4, TypeClass::Unsigned}, {"b1", 1, TypeClass::Bits},
}};

constexpr std::array<std::string_view, static_cast<size_t>(Space::Count)> kSpaces = {
    "", "reg", "sreg", "const", "global", "local", "param", "shared", "shared::cluster", "tex"};

}  // namespace

std::string_view type_name(Type t) { return kTypes[static_cast<size_t>(t)].name; }
unsigned type_bits(Type t) { return kTypes[static_cast<size_t>(t)].bits; }
TypeClass type_class(Type t) { return kTypes[static_cast<size_t>(t)].cls; }

std::optional<Type> type_from_name(std::string_view name) {
  static const detail::NameMap<Type> by_name = [] {
    detail::NameMap<Type> m(kTypes.size());
    for (size_t i = 1; i < kTypes.size(); ++i) m.emplace(kTypes[i].name, static_cast<Type>(i));
    return m;
  }();
  if (const Type* t = by_name.find(name)) return *t;
  return std::nullopt;
}

std::string_view space_name(Space s) { return kSpaces[static_cast<size_t>(s)]; }

std::optional<Space> space_from_name(std::string_view name) {
  if (name == "shared::cta") return Space::Shared;
  for (size_t i = 1; i < kSpaces.size(); ++i)
    if (kSpaces[i] == name) return static_cast<Space>(i);
  return std::nullopt;
}

}  // namespace racer::ptx
