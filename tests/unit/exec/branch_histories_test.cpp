// Lanes' branch histories (exec/branch_histories.hpp), which activemask compares: equal
// exactly when the same branches were taken in the same order, whatever the instructions'
// numbers (no hash: histories that a 64-bit mix would confuse stay apart), kept only where
// the function contains activemask, and lost (so that activemask refuses) past the cap.
#include <gtest/gtest.h>

#include <set>

#include "exec/branch_histories.hpp"

namespace racer::exec {
namespace {

ptx::Function function_with(bool activemask) {
  ptx::Function fn;
  fn.instrs.resize(3);
  fn.instrs[0].op = ptx::Op::Bra;
  fn.instrs[1].op = activemask ? ptx::Op::Activemask : ptx::Op::Exit;
  return fn;
}

uint32_t follow(BranchHistories& h, const ptx::Function& fn, std::initializer_list<uint32_t> pcs) {
  uint32_t node = BranchHistories::kRoot;
  for (uint32_t pc : pcs) node = h.taken(fn, node, pc);
  return node;
}

TEST(BranchHistories, EqualExactlyForTheSameSequence) {
  const ptx::Function fn = function_with(true);
  BranchHistories h;
  EXPECT_EQ(follow(h, fn, {3, 7, 7, 2}), follow(h, fn, {3, 7, 7, 2}));
  EXPECT_NE(follow(h, fn, {3, 7, 2}), follow(h, fn, {3, 7, 7, 2}));  // one iteration fewer
  EXPECT_NE(follow(h, fn, {7, 3}), follow(h, fn, {3, 7}));           // the same branches, reordered
  EXPECT_NE(follow(h, fn, {3}), BranchHistories::kRoot);
  // Every distinct sequence of length 3 over 6 branch sites is its own node.
  std::set<uint32_t> nodes;
  for (uint32_t a = 0; a < 6; ++a)
    for (uint32_t b = 0; b < 6; ++b)
      for (uint32_t c = 0; c < 6; ++c) nodes.insert(follow(h, fn, {a * 1000003u, b * 1000003u, c * 1000003u}));
  EXPECT_EQ(nodes.size(), 216u);
}

TEST(BranchHistories, NotKeptWithoutActivemask) {
  const ptx::Function fn = function_with(false);
  BranchHistories h;
  EXPECT_EQ(follow(h, fn, {3, 7}), BranchHistories::kRoot);
}

TEST(BranchHistories, LostPastTheCap) {
  const ptx::Function fn = function_with(true);
  BranchHistories h;
  uint32_t node = BranchHistories::kRoot;
  for (size_t k = 0; k < BranchHistories::kMaxNodes; ++k) node = h.taken(fn, node, 1);
  EXPECT_NE(node, BranchHistories::kLost);
  EXPECT_EQ(h.taken(fn, node, 1), BranchHistories::kLost);
  EXPECT_EQ(h.taken(fn, BranchHistories::kLost, 2), BranchHistories::kLost);
  // A history already recorded is still found.
  EXPECT_EQ(follow(h, fn, {1}), h.taken(fn, BranchHistories::kRoot, 1));
}

}  // namespace
}  // namespace racer::exec
