// The store asks its growth guard before a large array grows, with at least what the growth
// makes resident, and is unchanged when the guard refuses: the memory limit is held there (a
// doubling of a large array used to pass a limit between two periodic checks), and a check
// stopped at the limit may still read the store afterwards.
#include <stdexcept>

#include "fixture.hpp"

namespace racer::expr::test {
namespace {

struct Refused : std::runtime_error {
  Refused() : std::runtime_error("refused") {}
};

TEST_F(ExprTest, TheGuardIsAskedBeforeLargeGrowthsWithTheirSize) {
  std::vector<size_t> asked;
  s.set_growth_guard([&](size_t bytes) { asked.push_back(bytes); });
  // A long accumulation of products of fresh symbols: nodes, slots and the table all grow.
  ExprId acc = s.zero();
  for (int i = 0; i < 200000; ++i) acc = s.add(acc, s.mul(s.symbol("g" + std::to_string(i)), x));
  ASSERT_FALSE(asked.empty());
  for (size_t b : asked) EXPECT_GE(b, size_t{1} << 20);  // small growths are left to the periodic checks
  // The table of 2^19 slots or more (at most half full) is rehashed at least once past 1 MiB.
  EXPECT_GE(*std::max_element(asked.begin(), asked.end()), size_t{4} << 20);
}

TEST_F(ExprTest, ARefusedGrowthLeavesTheStoreAsItWas) {
  bool refuse = false;
  s.set_growth_guard([&](size_t) {
    if (refuse) throw Refused();
  });
  std::vector<ExprId> made;
  ExprId acc = s.zero();
  int i = 0;
  size_t refusals = 0;
  // Refuse every large growth after a while, then go on building and reading.
  for (; i < 120000; ++i) {
    refuse = i > 40000;
    try {
      ExprId g = s.symbol("h" + std::to_string(i));
      ExprId t = s.mul(g, y);
      acc = s.add(acc, t);
      made.push_back(t);
    } catch (const Refused&) {
      ++refusals;
      const size_t nodes = s.size();
      // The failed step's pieces can be asked for again and are the same nodes.
      refuse = false;
      ExprId g = s.symbol("h" + std::to_string(i));
      ExprId t = s.mul(g, y);
      ExprId again = s.add(acc, t);
      EXPECT_GE(s.size(), nodes);
      acc = again;
      made.push_back(t);
    }
  }
  EXPECT_GT(refusals, 0u);
  // Every term is still in the sum with weight one, and the sum is the one built at once.
  EXPECT_EQ(s.arity(acc), made.size());
  EXPECT_EQ(acc, s.add(made));
  EXPECT_EQ(s.symbol("h5"), s.symbol("h5"));
  std::string why;
  EXPECT_TRUE(is_canonical(s, acc, &why)) << why;  // (not every node: the prefix sums make that quadratic)
}

}  // namespace
}  // namespace racer::expr::test
