// Reading storage of a tensor that no cell of its shape and strides maps to (a kernel that
// assumes packed rows of a tensor with a row stride): an unmapped_read defect located at the
// load (tensor, offset, thread, line), and an unknown value, one for both programs. An output
// computed from it is refuted with a witness that replays; an output that is not keeps its
// verdict. Kernels in tests/cases/kernels/mem.cu (row_sum_*), cases t_mem_13 and t_mem_14.
#include <gtest/gtest.h>

#include <filesystem>

#include "check/check.hpp"
#include "check/replay.hpp"
#include "instance/load.hpp"

namespace racer::check {
namespace {

namespace fs = std::filesystem;

fs::path case_path(const char* name) { return fs::path(RACER_SOURCE_DIR) / "tests" / "cases" / name; }

const exec::Defect* unmapped_read(const CheckResult& res) {
  for (const exec::Defect& d : res.defects)
    if (d.kind == exec::DefectKind::UnmappedRead) return &d;
  return nullptr;
}

TEST(UnmappedStorage, PackedRowsOnStridedTensorAreRefutedThroughThePadding) {
  instance::Instance inst = instance::load_instance(case_path("t_mem_13_packed_rows_on_strided_tensor.toml").string());
  CheckResult res = check_instance(inst);
  ASSERT_EQ(res.verdict, Verdict::Inequivalent) << res.reason;
  const exec::Defect* d = unmapped_read(res);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->program, 'a');
  // Row 1 of the packed kernel starts at element 8, the padding after row 0 (x + 32 bytes).
  EXPECT_EQ(d->memory, "x + 32 bytes");
  EXPECT_EQ(d->site.tid, (std::array<uint32_t, 3>{1, 0, 0}));
  EXPECT_GT(d->site.ptx_line, 0u);
  EXPECT_NE(d->site.source.find("mem.cu:"), std::string::npos) << d->site.source;
  EXPECT_EQ(std::string(exec::defect_kind_name(d->kind)), "unmapped_read");
  // The witness gives the padding values; run concretely with them, the outputs differ.
  ASSERT_TRUE(res.counterexample.has_value());
  EXPECT_EQ(res.counterexample->cell, "out[1]");
  bool padding = false;
  for (const WitnessValue& w : res.counterexample->values) padding |= w.kind == "unmapped" && w.name == "x[storage 8, no cell]";
  EXPECT_TRUE(padding);
  ReplayResult rr = replay(inst, res.counterexample->cell, res.counterexample->values);
  EXPECT_GT(rr.differing_count, 0u);
}

TEST(UnmappedStorage, PaddingReadThatReachesNoOutputKeepsTheProof) {
  CheckResult res = check_instance(instance::load_instance(case_path("t_mem_14_padding_read_unused.toml").string()));
  EXPECT_EQ(res.verdict, Verdict::Equivalent) << res.reason;
  const exec::Defect* d = unmapped_read(res);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->memory, "x + 44 bytes");  // the element before row 1
}

// The padding is the tensor's storage, the same for both programs: two kernels reading it the
// same way agree (the defect is reported for each).
TEST(UnmappedStorage, BothProgramsReadTheSamePadding) {
  instance::Instance inst = instance::load_instance(case_path("t_mem_13_packed_rows_on_strided_tensor.toml").string());
  inst.b = inst.a;
  CheckResult res = check_instance(inst);
  EXPECT_EQ(res.verdict, Verdict::Equivalent) << res.reason;
  int programs = 0;
  for (const exec::Defect& d : res.defects) programs |= d.kind == exec::DefectKind::UnmappedRead ? (d.program == 'a' ? 1 : 2) : 0;
  EXPECT_EQ(programs, 3);
}

}  // namespace
}  // namespace racer::check
