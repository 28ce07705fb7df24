#pragma once
// A value per expression node, by node index, in pages allocated when first written: lookups
// are two loads where a hash map's are a probe and a chase, and nodes never reached cost nothing
// (a page of nodes that are reached costs its whole page). T() is a node's value until written.
#include <cstdint>
#include <memory>
#include <vector>

namespace racer::decide {

template <class T>
class NodeTable {
 public:
  T& operator[](uint32_t node) {
    const size_t p = node >> kPageBits;
    if (p >= pages_.size()) pages_.resize(p + 1);
    if (!pages_[p]) pages_[p] = std::make_unique<T[]>(kPageSize);
    return pages_[p][node & (kPageSize - 1)];
  }
  // The node's value, or null where its page was never written.
  const T* find(uint32_t node) const {
    const size_t p = node >> kPageBits;
    return p < pages_.size() && pages_[p] ? &pages_[p][node & (kPageSize - 1)] : nullptr;
  }

 private:
  static constexpr unsigned kPageBits = 12;
  static constexpr size_t kPageSize = size_t{1} << kPageBits;
  std::vector<std::unique_ptr<T[]>> pages_;
};

}  // namespace racer::decide
