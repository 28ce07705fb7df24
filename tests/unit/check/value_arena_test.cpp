// A probe run's events keep spans into its ValueArena (idiom/probe_run.hpp): a span must keep
// its values however much the arena grows after it, an empty request must cost nothing, and a
// request larger than a block must still be whole.
#include <gtest/gtest.h>

#include "idiom/probe_run.hpp"

namespace racer::idiom {
namespace {

TEST(ValueArena, SpansKeepTheirValuesAsTheArenaGrows) {
  ValueArena arena;
  EXPECT_TRUE(arena.take(0).empty());  // (before any block exists)
  std::vector<std::span<uint64_t>> spans;
  for (uint64_t i = 0; i < 5000; ++i) {
    std::span<uint64_t> s = arena.take(1 + i % 3);
    for (size_t k = 0; k < s.size(); ++k) s[k] = i * 10 + k;
    spans.push_back(s);
  }
  std::span<uint64_t> big = arena.take(3000);
  for (size_t k = 0; k < big.size(); ++k) big[k] = k;
  for (uint64_t i = 0; i < spans.size(); ++i) {
    ASSERT_EQ(spans[i].size(), 1 + i % 3);
    for (size_t k = 0; k < spans[i].size(); ++k) ASSERT_EQ(spans[i][k], i * 10 + k) << "span " << i;
  }
  for (size_t k = 0; k < big.size(); ++k) ASSERT_EQ(big[k], k);
  idiom::Run moved_from;
  std::span<uint64_t> kept = moved_from.value_arena.take(2);
  kept[0] = 7, kept[1] = 9;
  idiom::Run run = std::move(moved_from);  // a run moves into the probe's list: its values stay put
  EXPECT_EQ(kept[0], 7u);
  EXPECT_EQ(kept[1], 9u);
  EXPECT_EQ(run.value_arena.take(1).size(), 1u);
}

}  // namespace
}  // namespace racer::idiom
