// Every checking instance of the shared corpus must load, and what it loads into must hang
// together. The checks are generic: nothing here depends on which cases the corpus holds.
#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "corpus_cases.hpp"
#include "instance/load.hpp"
#include "support/error.hpp"

namespace racer::instance {
namespace {

using testing::corpus_cases;

void check_launch(const Instance& inst, const Launch& l) {
  EXPECT_TRUE(std::filesystem::is_regular_file(l.ptx)) << l.ptx;
  EXPECT_FALSE(l.entry.empty());
  EXPECT_GT(l.loc.line, 0u);
  EXPECT_GT(l.args_loc.line, 0u);
  EXPECT_GE(l.threads_per_block(), 1u);
  EXPECT_LE(l.threads_per_block(), 1024u);
  for (const Arg& a : l.args) {
    EXPECT_GT(a.loc.line, 0u);
    EXPECT_EQ(a.loc.file, inst.source_path);
    if (const auto* ref = std::get_if<TensorRef>(&a.value)) {
      const Tensor* t = inst.find_tensor(ref->tensor);
      ASSERT_NE(t, nullptr) << ref->tensor;
      EXPECT_GE(ref->offset, 0);
      EXPECT_LT(ref->offset, t->storage_elements());
    } else if (const auto* s = std::get_if<Scalar>(&a.value)) {
      EXPECT_FALSE(s->number.text.empty());
    }
  }
}

TEST(InstanceCorpus, EveryCaseLoads) {
  auto cases = corpus_cases();
  ASSERT_FALSE(cases.empty()) << "no cases under " << RACER_CORPUS_DIR;
  for (const auto& path : cases) {
    SCOPED_TRACE(path.string());
    Instance inst;
    try {
      inst = load_instance(path.string());
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    EXPECT_EQ(inst.name, path.stem().string());
    EXPECT_FALSE(inst.outputs.empty());
    EXPECT_EQ(inst.outputs.size(), inst.output_locs.size());
    for (const auto& o : inst.outputs) EXPECT_NE(inst.find_tensor(o), nullptr) << o;
    EXPECT_FALSE(inst.tensors.empty());
    for (const Tensor& t : inst.tensors) {
      EXPECT_FALSE(t.shape.empty());
      EXPECT_EQ(t.strides.size(), t.shape.size());
      EXPECT_GE(t.cell_count(), 1);
      EXPECT_GE(t.storage_elements(), 1);
      EXPECT_GT(t.loc.line, 0u);
      if (const auto* v = std::get_if<InitValues>(&t.init)) {
        EXPECT_EQ(static_cast<int64_t>(v->values.size()), t.cell_count());
      }
      if (t.range) {
        EXPECT_LE(t.range->lo.value, t.range->hi.value);
      }
    }
    EXPECT_FALSE(inst.a.launches.empty());
    EXPECT_FALSE(inst.b.launches.empty());
    for (const Launch& l : inst.a.launches) check_launch(inst, l);
    for (const Launch& l : inst.b.launches) check_launch(inst, l);
    ASSERT_TRUE(inst.expect.has_value());
    EXPECT_FALSE(inst.expect->category.empty());
    for (const auto& d : inst.expect->diagnostics) EXPECT_TRUE(d.program == 'a' || d.program == 'b');
  }
}

TEST(InstanceCorpus, SpotCheckFirstElementwiseCase) {
  auto path = std::filesystem::path(RACER_CORPUS_DIR) / "cases" / "e01_vec_add_triton_vs_cuda.toml";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "corpus lacks " << path;
  Instance inst = load_instance(path.string());
  ASSERT_EQ(inst.tensors.size(), 3u);
  for (const Tensor& t : inst.tensors) {
    EXPECT_EQ(t.shape, std::vector<int64_t>{200});
    EXPECT_EQ(t.dtype, DType::F32);
    EXPECT_TRUE(t.contiguous());
  }
  EXPECT_EQ(inst.tensors[0].name, "x");  // file order, not key order
  EXPECT_EQ(inst.tensors[2].name, "out");
  EXPECT_TRUE(std::holds_alternative<InitEmpty>(inst.tensors[2].init));
  ASSERT_EQ(inst.a.launches.size(), 1u);
  const Launch& a = inst.a.launches[0];
  EXPECT_EQ(a.entry, "add");
  EXPECT_EQ(a.grid, (std::array<uint32_t, 3>{2, 1, 1}));
  EXPECT_EQ(a.block, (std::array<uint32_t, 3>{128, 1, 1}));
  ASSERT_EQ(a.args.size(), 6u);
  EXPECT_TRUE(std::holds_alternative<Null>(a.args[5].value));
  EXPECT_EQ(std::get<Scalar>(a.args[3].value).number.integer, 200);
  EXPECT_EQ(std::get<TensorRef>(a.args[2].value).access, Access::Write);
  EXPECT_EQ(inst.expect->verdict, Verdict::Equivalent);
}

}  // namespace
}  // namespace racer::instance
