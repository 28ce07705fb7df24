// stmatrix and ldmatrix .b16 over 32-bit registers that hold one f32 each (Triton's layout
// conversions of f32 data, a tl.dot's or a reduction's): without .trans a register's two halves
// are adjacent elements of one row, so its four bytes stay in order and the f32 is stored, or
// loaded, whole; with .trans they would come from different rows, a bit-level split that stays
// refused.
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

// Lane L stores x[2L] and x[2L+1] through stmatrix.x2 (tile 0 and tile 1, rows of 16 bytes
// at shared offset 16 * (8 * tile + row)), reads back its own two elements with ld.shared.b32
// and writes them to out[2L], out[2L+1]: a copy.
std::string through_stmatrix(std::string_view name, std::string_view modifiers) {
  return kernel(name, 2, std::string(R"(
  mul.wide.u32 %rd10, %r0, 8;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  ld.global.f32 %f2, [%rd11+4];
  mov.b32 %r20, %f1;
  mov.b32 %r21, %f2;
  mov.u32 %r10, tile;
  and.b32 %r11, %r0, 15;
  shl.b32 %r12, %r11, 4;
  add.u32 %r13, %r10, %r12;
  stmatrix.sync.aligned.m8n8.x2)") + std::string(modifiers) + R"(.shared.b16 [%r13], {%r20, %r21};
  bar.sync 0;
  shr.u32 %r14, %r0, 2;
  and.b32 %r15, %r0, 3;
  shl.b32 %r16, %r14, 4;
  shl.b32 %r17, %r15, 2;
  add.u32 %r18, %r16, %r17;
  add.u32 %r19, %r10, %r18;
  ld.shared.f32 %f3, [%r19];
  ld.shared.f32 %f4, [%r19+128];
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f3;
  st.global.f32 [%rd12+4], %f4;
)", "  .shared .align 16 .b8 tile[256];\n");
}

Spec spec(std::string_view a) {
  const std::string args = R"({ read = "x" }, { write = "out" })";
  return {.tensors = tensor("x", "[64]", "f32", "input", "range = [-4, 4]") + tensor("out", "[64]", "f32", "empty"),
          .a = {{std::string(a), args, "[1]", "[32]"}},
          .b = {{"copy", args, "[1]", "[64]"}}};
}

TEST_F(MachineTest, StmatrixStoresAWholeF32RegisterAsItsFourBytes) {
  auto r = run(through_stmatrix("via_tile", "") + copy_kernel("copy"), spec("via_tile"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(MachineTest, StmatrixTransposedOverF32RegistersStaysRefused) {
  auto r = run(through_stmatrix("via_tile_t", ".trans") + copy_kernel("copy"), spec("via_tile_t"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("16-bit halves"), std::string::npos) << r.reason;
}

// The reverse: lane L stores x[2L] and x[2L+1] with st.shared.f32 where ldmatrix.x2 gives lane
// L its register of tile 0 and of tile 1 (row L/4, columns 2(L%4) and 2(L%4)+1, four bytes at
// 16 * row + 4 * (L%4)), loads them back through ldmatrix and writes them to out: a copy.
std::string through_ldmatrix(std::string_view name, std::string_view modifiers) {
  return kernel(name, 2, std::string(R"(
  mul.wide.u32 %rd10, %r0, 8;
  add.s64 %rd11, %rd0, %rd10;
  ld.global.f32 %f1, [%rd11];
  ld.global.f32 %f2, [%rd11+4];
  mov.u32 %r10, tile;
  shr.u32 %r14, %r0, 2;
  and.b32 %r15, %r0, 3;
  shl.b32 %r16, %r14, 4;
  shl.b32 %r17, %r15, 2;
  add.u32 %r18, %r16, %r17;
  add.u32 %r19, %r10, %r18;
  st.shared.f32 [%r19], %f1;
  st.shared.f32 [%r19+128], %f2;
  bar.sync 0;
  and.b32 %r11, %r0, 15;
  shl.b32 %r12, %r11, 4;
  add.u32 %r13, %r10, %r12;
  ldmatrix.sync.aligned.m8n8.x2)") + std::string(modifiers) + R"(.shared.b16 {%r20, %r21}, [%r13];
  mov.b32 %f3, %r20;
  mov.b32 %f4, %r21;
  add.s64 %rd12, %rd1, %rd10;
  st.global.f32 [%rd12], %f3;
  st.global.f32 [%rd12+4], %f4;
)", "  .shared .align 16 .b8 tile[256];\n");
}

TEST_F(MachineTest, LdmatrixLoadsAWholeF32AsOneRegister) {
  auto r = run(through_ldmatrix("via_ld", "") + copy_kernel("copy"), spec("via_ld"));
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
}

TEST_F(MachineTest, LdmatrixTransposedOverAStoredF32StaysRefused) {
  auto r = run(through_ldmatrix("via_ld_t", ".trans") + copy_kernel("copy"), spec("via_ld_t"));
  EXPECT_EQ(r.verdict, Verdict::Refused) << show(r);
  EXPECT_NE(r.reason.find("another width"), std::string::npos) << r.reason;
}

}  // namespace
}  // namespace racer::check::testing
