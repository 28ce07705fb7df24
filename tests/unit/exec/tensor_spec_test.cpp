// A tensor's storage-to-cell map: the engine skips it for dense tensors (storage element i is
// cell i), so dense() must hold exactly where the map is the identity.
#include <gtest/gtest.h>

#include <numeric>

#include "exec/launch.hpp"

namespace racer::exec {
namespace {

TensorSpec spec(std::vector<int64_t> shape, std::vector<int64_t> strides, uint64_t storage) {
  TensorSpec t;
  t.name = "t";
  t.shape = std::move(shape);
  t.strides = std::move(strides);
  t.storage_elements = storage;
  return t;
}

bool map_is_identity(const TensorSpec& t) {
  std::vector<int64_t> map = t.storage_to_cell(), identity(map.size());
  std::iota(identity.begin(), identity.end(), 0);
  return map == identity && map.size() == t.cell_count();
}

TEST(TensorSpec, DenseExactlyWhereEveryElementIsItsOwnCell) {
  const TensorSpec cases[] = {
      spec({4, 8}, {8, 1}, 32),        // row-major
      spec({4, 1, 8}, {8, 99, 1}, 32), // an extent-1 dimension's stride is never used
      spec({1}, {5}, 1),
      spec({4, 8}, {1, 4}, 32),        // column-major: a permutation, not dense
      spec({4, 8}, {16, 1}, 64),       // rows with gaps
      spec({4, 8}, {8, 1}, 40),        // storage past the last cell
      spec({4, 8}, {0, 1}, 8),         // a broadcast: rows share storage
      spec({2, 3, 5}, {15, 5, 1}, 30),
  };
  for (const TensorSpec& t : cases) {
    std::string shape;
    for (size_t d = 0; d < t.shape.size(); ++d) shape += std::to_string(t.shape[d]) + "/" + std::to_string(t.strides[d]) + " ";
    EXPECT_EQ(t.dense(), map_is_identity(t)) << shape << "storage " << t.storage_elements;
  }
  EXPECT_TRUE(cases[0].dense());
  EXPECT_TRUE(cases[1].dense());
  EXPECT_FALSE(cases[3].dense());
}

}  // namespace
}  // namespace racer::exec
