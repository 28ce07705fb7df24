#pragma once
// The handle of an expression: a 32-bit index into one Store. Because the Store hash-conses
// every node, two handles from the same Store are equal exactly when the expressions are
// structurally equal, so comparing cells is comparing integers.
#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace racer::expr {

struct ExprId {
  static constexpr uint32_t kInvalid = UINT32_MAX;
  uint32_t index = kInvalid;

  bool valid() const { return index != kInvalid; }
  friend bool operator==(ExprId, ExprId) = default;
  // Ordering by index is the canonical operand order: ids are stable within one Store.
  friend auto operator<=>(ExprId, ExprId) = default;
};

struct ExprIdHash {
  size_t operator()(ExprId id) const noexcept {
    // splitmix64 finalizer: sequential indices must not cluster in open-addressing tables.
    uint64_t z = id.index + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<size_t>(z ^ (z >> 31));
  }
};

}  // namespace racer::expr

template <>
struct std::hash<racer::expr::ExprId> : racer::expr::ExprIdHash {};
