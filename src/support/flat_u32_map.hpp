#pragma once
// A map from 32-bit keys to 32-bit values in one flat array: open addressing with linear
// probing and backward-shift deletion (no tombstones, so a map whose entries keep moving,
// erased here and added one slot further, never fills with dead slots). For hot paths where
// std::unordered_map's node per entry costs an allocation on every insert and a free on
// every erase. The key 0xFFFFFFFF is reserved (it marks an empty slot).
#include <cstdint>
#include <optional>
#include <vector>

namespace racer::support {

class FlatU32Map {
 public:
  static constexpr uint32_t kEmpty = 0xFFFFFFFFu;

  std::optional<uint32_t> find(uint32_t key) const {
    if (size_ == 0) return std::nullopt;
    for (size_t i = slot_of(key);; i = (i + 1) & mask()) {
      if (slots_[i].key == key) return slots_[i].value;
      if (slots_[i].key == kEmpty) return std::nullopt;
    }
  }

  // Adds key -> value, or replaces the value of a key already present.
  void set(uint32_t key, uint32_t value) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    size_t i = slot_of(key);
    for (; slots_[i].key != kEmpty; i = (i + 1) & mask())
      if (slots_[i].key == key) {
        slots_[i].value = value;
        return;
      }
    slots_[i] = {key, value};
    ++size_;
  }

  // Removes key if present. The entries after it in its probe run move back into the gap
  // when their home slot allows it, so every lookup still finds them.
  void erase(uint32_t key) {
    if (size_ == 0) return;
    size_t i = slot_of(key);
    for (; slots_[i].key != key; i = (i + 1) & mask())
      if (slots_[i].key == kEmpty) return;
    for (size_t j = (i + 1) & mask(); slots_[j].key != kEmpty; j = (j + 1) & mask()) {
      size_t home = slot_of(slots_[j].key);
      // j's entry may fill the gap at i unless its home lies cyclically in (i, j].
      bool home_after_gap = i <= j ? (home > i && home <= j) : (home > i || home <= j);
      if (home_after_gap) continue;
      slots_[i] = slots_[j];
      i = j;
    }
    slots_[i].key = kEmpty;
    --size_;
  }

  size_t size() const { return size_; }

 private:
  struct Slot {
    uint32_t key = kEmpty;
    uint32_t value = 0;
  };
  size_t mask() const { return slots_.size() - 1; }
  size_t slot_of(uint32_t key) const { return (uint64_t{key} * 0x9E3779B97F4A7C15ULL >> 32) & mask(); }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : 2 * old.size(), Slot{});
    size_ = 0;
    for (const Slot& s : old)
      if (s.key != kEmpty) set(s.key, s.value);
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace racer::support
