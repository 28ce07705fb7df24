// The flat map against std::unordered_map under long runs of sets and erases: entries that
// move (erased here, set one slot further, as the store's reserved room does) and keys that
// share probe runs, where a wrong backward shift would hide an entry from find.
#include "support/flat_u32_map.hpp"

#include <gtest/gtest.h>

#include <random>
#include <unordered_map>

namespace racer::support {
namespace {

void expect_same(const FlatU32Map& m, const std::unordered_map<uint32_t, uint32_t>& ref, uint32_t key_bound) {
  ASSERT_EQ(m.size(), ref.size());
  for (uint32_t k = 0; k < key_bound; ++k) {
    auto it = ref.find(k);
    std::optional<uint32_t> got = m.find(k);
    if (it == ref.end()) {
      EXPECT_FALSE(got.has_value()) << "key " << k;
    } else {
      ASSERT_TRUE(got.has_value()) << "key " << k;
      EXPECT_EQ(*got, it->second) << "key " << k;
    }
  }
}

TEST(FlatU32Map, AgreesWithUnorderedMapUnderRandomSetsAndErases) {
  std::mt19937 rng(7);
  for (uint32_t key_bound : {5u, 40u, 300u, 5000u}) {
    FlatU32Map m;
    std::unordered_map<uint32_t, uint32_t> ref;
    std::uniform_int_distribution<uint32_t> key(0, key_bound - 1), op(0, 2);
    for (int i = 0; i < 20000; ++i) {
      uint32_t k = key(rng);
      if (op(rng) == 0) {
        m.erase(k);
        ref.erase(k);
      } else {
        m.set(k, static_cast<uint32_t>(i));
        ref[k] = static_cast<uint32_t>(i);
      }
      if (i % 997 == 0) expect_same(m, ref, key_bound);
    }
    expect_same(m, ref, key_bound);
  }
}

TEST(FlatU32Map, EntriesThatKeepMovingForwardStayFindable) {
  FlatU32Map m;
  std::unordered_map<uint32_t, uint32_t> ref;
  for (uint32_t chain = 0; chain < 200; ++chain) m.set(chain * 1000, chain * 1000 + 100), ref[chain * 1000] = chain * 1000 + 100;
  for (uint32_t step = 0; step < 50; ++step)
    for (uint32_t chain = 0; chain < 200; ++chain) {
      uint32_t at = chain * 1000 + 2 * step;
      ASSERT_EQ(m.find(at), std::optional<uint32_t>(chain * 1000 + 100));
      m.erase(at), ref.erase(at);
      m.set(at + 2, chain * 1000 + 100), ref[at + 2] = chain * 1000 + 100;
    }
  expect_same(m, ref, 200 * 1000);
}

}  // namespace
}  // namespace racer::support
