#pragma once
// Symbols by their origin's name, for finding a symbol asked for again. Input cells make a
// symbol each, so a large tensor asks this hundreds of thousands of times: an open-addressing
// table of 8-byte slots (the upper half of the name's hash, the symbol's number + 1) that keeps
// no copy of the names (they live in the store's SymbolInfo) and allocates nothing per symbol.
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace racer::expr {

class SymbolNames {
 public:
  // The number of the symbol named `name` (name_of(number) gives a symbol's name), or -1.
  template <class NameOf>
  int64_t find(std::string_view name, NameOf&& name_of) const {
    if (slots_.empty()) return -1;
    const uint32_t h = hash(name);
    for (size_t i = h & mask(); slots_[i]; i = (i + 1) & mask())
      if (slots_[i] >> 32 == h && name_of(number(slots_[i])) == name) return number(slots_[i]);
    return -1;
  }
  // Records symbol `number` under `name` (not present yet).
  void insert(std::string_view name, uint32_t number) {
    if ((count_ + 1) * 2 > slots_.size()) grow();
    place(uint64_t{hash(name)} << 32 | (uint64_t{number} + 1));
    ++count_;
  }
  // The bytes the next insert makes resident at once when it grows the table (a new table of
  // twice the slots, written whole), 0 when it fits.
  size_t growth_bytes() const { return (count_ + 1) * 2 > slots_.size() ? 2 * slots_.size() * sizeof(uint64_t) : 0; }

 private:
  static uint32_t hash(std::string_view name) { return static_cast<uint32_t>(std::hash<std::string_view>{}(name) >> 32); }
  static uint32_t number(uint64_t slot) { return static_cast<uint32_t>(slot) - 1; }
  size_t mask() const { return slots_.size() - 1; }
  void place(uint64_t slot) {
    size_t i = (slot >> 32) & mask();
    while (slots_[i]) i = (i + 1) & mask();
    slots_[i] = slot;
  }
  void grow() {
    std::vector<uint64_t> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, 0);
    for (uint64_t slot : old)
      if (slot) place(slot);
  }

  std::vector<uint64_t> slots_;  // 0 = empty
  size_t count_ = 0;
};

}  // namespace racer::expr
