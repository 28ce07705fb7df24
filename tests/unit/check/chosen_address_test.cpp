// Addresses chosen by comparisons of float data (exec/indexed_address.hpp enumerate_choices): the
// index of the larger of two scores, an argmax's gather. Each path of the comparisons is a
// candidate cell read under its condition, so a gather by the winner's index meets the select of
// the two loaded values; a gather by the wrong index is refuted. Cells such an address may name
// are read only from tensors the launch cannot write and that hold values: anything else (a cell
// a path no input takes could name) is refused with the reason, as is a store at such an address.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

// out[tid] = v[i], i = the index of the larger of s[2 tid], s[2 tid + 1] (`cmp` decides, `first`
// is taken where it holds); p0 = s, p1 = v, p2 = out.
std::string gather_winner(std::string_view name, std::string_view cmp, std::string_view store = "st.global.f32 [%rd14], %f3;") {
  return kernel(name, 3, std::string(R"(
  shl.b32 %r4, %r0, 1;
  add.s32 %r5, %r4, 1;
  mul.wide.u32 %rd10, %r4, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  ld.global.f32 %f2, [%rd11+4];
  setp.)") + std::string(cmp) + R"(.f32 %p1, %f1, %f2;
  selp.b32 %r6, %r4, %r5, %p1;
  mul.wide.s32 %rd12, %r6, 4;
  add.s64 %rd13, %rd1, %rd12;
  ld.global.f32 %f3, [%rd13];
  mul.wide.u32 %rd15, %r0, 4;
  add.s64 %rd14, %rd2, %rd15;
  )" + std::string(store) + "\n");
}

// The same choice made on the loaded values: both cells read, the larger score's value kept.
std::string select_values(std::string_view name) {
  return kernel(name, 3, R"(
  shl.b32 %r4, %r0, 1;
  mul.wide.u32 %rd10, %r4, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  ld.global.f32 %f2, [%rd11+4];
  add.s64 %rd13, %rd1, %rd10;
  ld.global.f32 %f4, [%rd13];
  ld.global.f32 %f5, [%rd13+4];
  setp.gt.f32 %p1, %f1, %f2;
  selp.f32 %f3, %f4, %f5, %p1;
  mul.wide.u32 %rd15, %r0, 4;
  add.s64 %rd14, %rd2, %rd15;
  st.global.f32 [%rd14], %f3;
)");
}

Spec winners(std::string_view v_access = R"({ read = "v" })") {
  const std::string args = std::string(R"({ read = "s" }, )") + std::string(v_access) + R"(, { write = "out" })";
  return {.tensors = tensor("s", "[8]", "f32", "input") + tensor("v", "[8]", "f32", "input") + tensor("out", "[4]", "f32", "empty"),
          .a = {{"a", args, "[1]", "[4]"}},
          .b = {{"b", args, "[1]", "[4]"}}};
}

TEST_F(MachineTest, AGatherByTheWinnersIndexMeetsTheSelectOfTheLoadedValues) {
  auto r = run(gather_winner("a", "gt") + select_values("b"), winners());
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  EXPECT_TRUE(r.defects.empty()) << show(r);
}

TEST_F(MachineTest, AGatherByTheLosersIndexIsRefuted) {
  auto r = run(gather_winner("a", "le") + select_values("b"), winners());
  ASSERT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
  EXPECT_TRUE(r.counterexample) << show(r);
}

TEST_F(MachineTest, AChosenAddressIntoATensorTheLaunchWritesIsRefused) {
  // v given for reading and writing: a path no input takes could name a cell another thread
  // writes, and a race reported there could be a false alarm.
  auto r = run(gather_winner("a", "gt") + select_values("b"), winners(R"({ readwrite = "v" })"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("reads at an address chosen by comparisons of data that may name"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("outside the tensors this launch only reads"), std::string::npos) << r.reason;
}

TEST_F(MachineTest, AStoreAtAChosenAddressIsRefused) {
  // out[i] = v[i] at the winner's index: the store is refused, not guessed.
  auto r = run(gather_winner("a", "gt", "mul.wide.s32 %rd16, %r6, 4;\n  add.s64 %rd17, %rd2, %rd16;\n  st.global.f32 [%rd17], %f3;") +
                   select_values("b"),
               winners());
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("stores at an address chosen by comparisons of data"), std::string::npos) << r.reason;
}

// %f1 = x[tid] (p0 = x), the result %r20 starting at 0; out[tid] = %r20 (p2 = out) at the end.
const char* kLoadQuery = R"(
  mul.wide.u32 %rd10, %r0, 4;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  mov.u32 %r20, 0;
)";
const char* kStoreFound = "  add.s64 %rd12, %rd2, %rd10;\n  st.global.u32 [%rd12], %r20;\n";

// Three steps of a lower-bound search for x[tid] over a sorted table of 4 given by value, as
// Triton's tl.where writes it: mid = live ? lo + (hi - lo) / 2 : 0, the load of table[mid] made
// whatever live says, and found |= live && table[mid] == x. Decided whole, `live` (lo < hi)
// would be taken before lo and hi are, and the search's finished state (lo = hi = 4) would name
// table[4] on a path where live holds: decided through the comparisons inside it, it folds.
std::string search_table(std::string_view name) {
  std::string body = std::string(kLoadQuery) + R"(
  mov.u32 %r10, 0;
  mov.u32 %r11, 4;
)";
  for (int step = 0; step < 3; ++step)
    body += R"(
  setp.lt.s32 %p1, %r10, %r11;
  sub.s32 %r12, %r11, %r10;
  shr.s32 %r13, %r12, 1;
  add.s32 %r14, %r10, %r13;
  selp.b32 %r15, %r14, 0, %p1;
  mul.wide.s32 %rd20, %r15, 4;
  add.s64 %rd21, %rd1, %rd20;
  ld.global.f32 %f3, [%rd21];
  setp.eq.f32 %p6, %f3, %f1;
  and.pred %p7, %p6, %p1;
  selp.u32 %r21, 1, 0, %p7;
  or.b32 %r20, %r20, %r21;
  setp.lt.f32 %p2, %f3, %f1;
  and.pred %p3, %p2, %p1;
  add.s32 %r16, %r15, 1;
  selp.b32 %r10, %r16, %r10, %p3;
  setp.gt.f32 %p4, %f3, %f1;
  and.pred %p5, %p4, %p1;
  selp.b32 %r11, %r15, %r11, %p5;
)";
  body += kStoreFound;
  return kernel(name, 3, body);
}

// The same search as nvcc writes it: a branch around each step's load (`if (lo < hi) { ... }`),
// over the first `size` entries.
std::string search_table_branched(std::string_view name, int size = 4) {
  std::string body = std::string(kLoadQuery) + R"(
  mov.u32 %r10, 0;
  mov.u32 %r11, )" + std::to_string(size) + R"(;
)";
  for (int step = 0; step < 3; ++step)
    body += R"(
  setp.ge.s32 %p1, %r10, %r11;
  @%p1 bra $L_done)" + std::to_string(step) + R"(;
  sub.s32 %r12, %r11, %r10;
  shr.s32 %r13, %r12, 1;
  add.s32 %r15, %r10, %r13;
  mul.wide.s32 %rd20, %r15, 4;
  add.s64 %rd21, %rd1, %rd20;
  ld.global.f32 %f3, [%rd21];
  setp.eq.f32 %p6, %f3, %f1;
  selp.u32 %r21, 1, 0, %p6;
  or.b32 %r20, %r20, %r21;
  setp.lt.f32 %p2, %f3, %f1;
  add.s32 %r16, %r15, 1;
  selp.b32 %r10, %r16, %r10, %p2;
  setp.gt.f32 %p4, %f3, %f1;
  selp.b32 %r11, %r15, %r11, %p4;
$L_done)" + std::to_string(step) + R"(:
)";
  body += kStoreFound;
  return kernel(name, 3, body);
}

// found = whether x[tid] is any of the 4 entries, by a scan.
std::string scan_table(std::string_view name) {
  std::string body = kLoadQuery;
  for (int k = 0; k < 4; ++k)
    body += "  ld.global.f32 %f3, [%rd1+" + std::to_string(4 * k) + "];\n  setp.eq.f32 %p6, %f3, %f1;\n  selp.u32 %r21, 1, 0, %p6;\n  or.b32 %r20, %r20, %r21;\n";
  body += kStoreFound;
  return kernel(name, 3, body);
}

// x[tid] looked up in the table of 4 by `search` (program a) and by `scan` (program b).
Spec table_lookup() {
  const std::string args = R"({ read = "x" }, { read = "table" }, { write = "out" })";
  return {.tensors = R"(x = { shape = [8], dtype = "f32", init = "input", range = [-2, 2] }
table = { shape = [4], dtype = "f32", init = { values = [-1.0, -0.5, 0.25, 1.0] } }
out = { shape = [8], dtype = "i32", init = "empty" }
)",
          .a = {{"search", args}},
          .b = {{"scan", args}}};
}

TEST_F(MachineTest, ASearchsLoadsGuardedByWhereNameOnlyTheTable) {
  auto r = run(search_table("search") + scan_table("scan"), table_lookup());
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(MachineTest, ASearchWithABranchAroundItsLoadNamesOnlyTheTable) {
  auto r = run(search_table_branched("search") + scan_table("scan"), table_lookup());
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  // Searching only the first three entries misses x = 1.
  r = run(search_table_branched("search", 3) + scan_table("scan"), table_lookup());
  EXPECT_EQ(r.verdict, Verdict::Inequivalent) << show(r);
}

}  // namespace
}  // namespace racer::check::testing
