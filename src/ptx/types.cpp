#include "ptx/types.hpp"

#include <array>

#include "ptx/name_map.hpp"

namespace racer::ptx {
namespace {

constexpr std::array<std::string_view, static_cast<size_t>(Type::Count)> kTypeNames = {
    "",     "pred",  "b8",   "b16",    "b32",  "b64", "b128", "u8",   "u16",  "u32",    "u64",    "s8", "s16", "s32", "s64",
    "f16",  "f16x2", "bf16", "bf16x2", "tf32", "f32", "f64",  "e4m3", "e5m2", "e4m3x2", "e5m2x2", "s4", "u4",  "b1"};

constexpr std::array<std::string_view, static_cast<size_t>(Space::Count)> kSpaces = {
    "", "reg", "sreg", "const", "global", "local", "param", "shared", "shared::cluster", "tex"};

}  // namespace

std::string_view type_name(Type t) { return kTypeNames[static_cast<size_t>(t)]; }

std::optional<Type> type_from_name(std::string_view name) {
  static const detail::NameMap<Type> by_name = [] {
    detail::NameMap<Type> m(kTypeNames.size());
    for (size_t i = 1; i < kTypeNames.size(); ++i) m.emplace(kTypeNames[i], static_cast<Type>(i));
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
