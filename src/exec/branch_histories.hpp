#pragma once
// The branches each lane of a CTA has taken since launch, exactly: one tree per CTA whose root
// is "no branch taken" and whose child of node n at instruction pc is "n, then the branch at
// pc". A lane's node is its whole history, so two lanes took the same branches exactly when
// they are at the same node: activemask compares nodes (sem/warp.cpp), and no hash collision
// can make two histories look alike. Kept only for functions that contain activemask (nothing
// else reads them); past kMaxNodes histories are lost, and activemask then refuses.
#include <cstdint>
#include <optional>
#include <unordered_map>

#include "ptx/ir.hpp"

namespace racer::exec {

class BranchHistories {
 public:
  static constexpr uint32_t kRoot = 0;
  static constexpr uint32_t kLost = UINT32_MAX;
  static constexpr size_t kMaxNodes = size_t{1} << 20;

  // The history `node` followed by the branch taken at instruction pc of fn.
  uint32_t taken(const ptx::Function& fn, uint32_t node, uint32_t pc);

 private:
  std::optional<bool> kept_;  // whether fn contains activemask (decided at the first branch)
  std::unordered_map<uint64_t, uint32_t> children_;
};

}  // namespace racer::exec
