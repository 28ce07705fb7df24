#include "exec/branch_histories.hpp"

#include <algorithm>

namespace racer::exec {

uint32_t BranchHistories::taken(const ptx::Function& fn, uint32_t node, uint32_t pc) {
  if (!kept_)
    kept_ = std::any_of(fn.instrs.begin(), fn.instrs.end(), [](const ptx::Instr& i) { return i.op == ptx::Op::Activemask; });
  if (!*kept_) return kRoot;
  if (node == kLost) return kLost;
  const uint64_t key = uint64_t{node} << 32 | pc;
  if (auto it = children_.find(key); it != children_.end()) return it->second;
  if (children_.size() >= kMaxNodes) return kLost;
  const uint32_t child = static_cast<uint32_t>(children_.size()) + 1;
  children_.emplace(key, child);
  return child;
}

}  // namespace racer::exec
