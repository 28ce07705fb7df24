#pragma once
// Internal to the front end: a small open-addressing hash table from names to values, for the
// fixed vocabularies (opcodes, types, modifiers, special registers) and the parser's scoped
// name tables. Keys are string_views; whoever inserts keeps their characters alive (the source
// text, a static table, or the parser's arena). Lookups take a string_view, so nothing is
// allocated to look a name up.
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace racer::ptx::detail {

inline uint64_t load_u32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline uint64_t load_u64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// Names are short: a few word loads (overlapping at the tail, never past the end) and a
// multiply per eight bytes instead of a loop over the characters.
inline uint32_t name_hash(std::string_view s) {
  const char* p = s.data();
  size_t n = s.size();
  constexpr uint64_t kMul = 0xff51afd7ed558ccdull;
  uint64_t h = 0x9e3779b97f4a7c15ull * (n + 1);
  for (; n > 8; p += 8, n -= 8) {
    h = (h ^ load_u64(p)) * kMul;
    h ^= h >> 29;
  }
  uint64_t tail = 0;
  if (n >= 4) {
    tail = load_u32(p) | (load_u32(p + n - 4) << 32);
  } else if (n > 0) {
    tail = (uint64_t{static_cast<unsigned char>(p[0])} << 16) | (uint64_t{static_cast<unsigned char>(p[n / 2])} << 8) |
           uint64_t{static_cast<unsigned char>(p[n - 1])};
  }
  h = (h ^ tail) * kMul;
  return static_cast<uint32_t>(h ^ (h >> 32));
}

inline bool same_name(std::string_view a, std::string_view b) {
  size_t n = a.size();
  if (n != b.size()) return false;
  const char* x = a.data();
  const char* y = b.data();
  if (n < 4) return n == 0 || (x[0] == y[0] && x[n / 2] == y[n / 2] && x[n - 1] == y[n - 1]);
  if (n <= 8) return load_u32(x) == load_u32(y) && load_u32(x + n - 4) == load_u32(y + n - 4);
  if (n <= 16) return load_u64(x) == load_u64(y) && load_u64(x + n - 8) == load_u64(y + n - 8);
  return std::memcmp(x, y, n) == 0;
}

template <class V>
class NameMap {
 public:
  NameMap() = default;
  explicit NameMap(size_t expected) { rehash(capacity_for(expected)); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  const V* find(std::string_view key) const { return find(key, name_hash(key)); }
  const V* find(std::string_view key, uint32_t hash) const {
    if (slots_.empty()) return nullptr;
    for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (!s.used) return nullptr;
      if (s.hash == hash && same_name(s.key, key)) return &s.value;
    }
  }

  // Room for n more names without rehashing.
  void reserve_more(size_t n) {
    size_t want = capacity_for(size_ + n);
    if (want > slots_.size()) rehash(want);
  }

  // Inserts when the key is absent; otherwise leaves the present value. Returns the value
  // slot and whether it was inserted (like std::unordered_map::emplace).
  std::pair<V*, bool> emplace(std::string_view key, V value) { return emplace(key, name_hash(key), std::move(value)); }
  std::pair<V*, bool> emplace(std::string_view key, uint32_t hash, V value) {
    if ((size_ + 1) * 2 > slots_.size()) rehash(slots_.empty() ? 16 : slots_.size() * 2);
    for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (!s.used) {
        s.used = true;
        s.hash = hash;
        s.key = key;
        s.value = std::move(value);
        ++size_;
        return {&s.value, true};
      }
      if (s.hash == hash && same_name(s.key, key)) return {&s.value, false};
    }
  }

  // Inserts or overwrites (like std::unordered_map::operator[] = value).
  void assign(std::string_view key, V value) {
    auto [slot, inserted] = emplace(key, value);
    if (!inserted) *slot = std::move(value);
  }

  void clear() {
    slots_.clear();
    size_ = 0;
    mask_ = 0;
  }

 private:
  struct Slot {
    std::string_view key;
    uint32_t hash = 0;
    bool used = false;
    V value{};
  };

  // At most half full: short probe runs.
  static size_t capacity_for(size_t n) {
    size_t c = 16;
    while (c < 2 * (n + 1)) c *= 2;
    return c;
  }

  void rehash(size_t capacity) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    for (Slot& s : old) {
      if (!s.used) continue;
      size_t i = s.hash & mask_;
      while (slots_[i].used) i = (i + 1) & mask_;
      slots_[i] = std::move(s);
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
  size_t mask_ = 0;
};

}  // namespace racer::ptx::detail
