// The PTX forms the issue names, each parsed into the IR it should give.
#include <gtest/gtest.h>

#include "ptx/parser.hpp"
#include "ptx/printer.hpp"
#include "support/error.hpp"

namespace racer::ptx {
namespace {

Module parse(const std::string& body, const std::string& decls = "") {
  std::string text = ".version 8.7\n.target sm_90a\n.address_size 64\n" + decls +
                     ".visible .entry k(.param .u64 .ptr .global .align 16 p, .param .u32 n)\n.reqntid 128, 1, 1\n{\n"
                     "\t.reg .pred %p<4>;\n\t.reg .b16 %h<4>;\n\t.reg .b32 %r<64>;\n\t.reg .f32 %f<64>;\n"
                     "\t.reg .b64 %rd<8>;\n" + body + "\tret;\n}\n";
  Module m = parse_ptx(SourceText("t.ptx", text)).module;
  // Whatever parses must also survive printing.
  Module again = parse_ptx(SourceText("printed.ptx", print_module(m))).module;
  EXPECT_TRUE(m == again) << print_module(m);
  return m;
}

Instr only(const Module& m) {
  const Function& f = m.functions.at(0);
  EXPECT_EQ(f.instrs.size(), 2u);  // the instruction under test and ret
  return f.instrs.at(0);
}

TEST(OpcodeTable, EveryOpcodeHasAnEntry) {
  for (size_t i = 0; i < static_cast<size_t>(Op::Count); ++i) {
    const OpInfo& info = op_info(static_cast<Op>(i));
    EXPECT_FALSE(info.name.empty()) << "opcode " << i << " has no table row";
    EXPECT_EQ(op_from_name(info.name), static_cast<Op>(i)) << info.name;
  }
}

TEST(PtxFeatures, ParamsAndDirectives) {
  Module m = parse("");
  const Function& f = m.functions[0];
  EXPECT_TRUE(f.is_entry);
  ASSERT_EQ(f.params.size(), 2u);
  EXPECT_TRUE(f.params[0].ptr);
  EXPECT_EQ(f.params[0].ptr_space, Space::Global);
  EXPECT_EQ(f.params[0].ptr_align, 16u);
  EXPECT_EQ(f.params[1].type, Type::U32);
  EXPECT_EQ(f.thread_count_required(), 128u);
  EXPECT_EQ(f.regs.size(), 4u + 4 + 64 + 64 + 8);
  EXPECT_EQ(f.regs[4].name, "%h0");
}

TEST(PtxFeatures, ModifiersInAnyOrderGiveTheSameInstruction) {
  Module a = parse("\tld.global.nc.L1::evict_last.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];\n");
  Module b = parse("\tld.v4.L1::evict_last.nc.f32.global {%f1, %f2, %f3, %f4}, [%rd1+16];\n");
  EXPECT_TRUE(only(a) == only(b));
  Instr ld = only(a);
  EXPECT_EQ(ld.op, Op::Ld);
  EXPECT_TRUE(ld.has(Mod::Nc));
  EXPECT_EQ(ld.mod(Mod::Vec), 1);  // v4
  EXPECT_EQ(ld.type(), Type::F32);
  EXPECT_EQ(ld.operands[1].value, 16);
}

TEST(PtxFeatures, GuardsVectorsSinksAndPairs) {
  Instr s = only(parse("\t@!%p1 shfl.sync.bfly.b32 %r1|%p2, %r2, 16, 31, -1;\n"));
  EXPECT_TRUE(s.has_guard && s.guard_negated);
  EXPECT_EQ(s.mod(Mod::ShflMode), shfl::BFLY);
  EXPECT_EQ(s.operands[0].kind, Operand::Kind::Pair);
  EXPECT_EQ(s.operands[4].value, -1);
  Instr mv = only(parse("\tmov.b32 {%h1, _}, %r3;\n"));
  EXPECT_EQ(mv.operands[0].elems[1].kind, Operand::Kind::Sink);
}

TEST(PtxFeatures, FloatLiteralsAreExactBits) {
  Instr a = only(parse("\tmov.f32 %f1, 0f3DCCCCCD;\n"));
  EXPECT_EQ(a.operands[1].float_bits, 32);
  EXPECT_EQ(a.operands[1].value, 0x3DCCCCCD);
  Instr b = only(parse("\tmov.b64 %rd1, 0dBFF0000000000000;\n"));
  EXPECT_EQ(static_cast<uint64_t>(b.operands[1].value), 0xBFF0000000000000ull);
}

TEST(PtxFeatures, SetpSelpAndCompareModes) {
  Module m = parse("\tsetp.ltu.and.f32 %p1|%p2, %f1, %f2, !%p3;\n\tselp.f32 %f3, %f1, %f2, %p1;\n");
  const Instr& s = m.functions[0].instrs[0];
  EXPECT_EQ(s.mod(Mod::Cmp), cmp::LTU);
  EXPECT_TRUE(s.operands[3].negated);
  EXPECT_EQ(m.functions[0].instrs[1].op, Op::Selp);
}

TEST(PtxFeatures, InlineAsmScopesShadowAndKeepLabelsLocal) {
  Module m = parse(
      "\t{\n\t.reg .b32 %tmp;\n\tmov.b32 %tmp, 1;\n$L_in:\n\t}\n"
      "\t{\n\t.reg .b32 %tmp;\n\tmov.b32 %tmp, 2;\n$L_in:\n\t}\n");
  const Function& f = m.functions[0];
  EXPECT_NE(f.instrs[0].operands[0].index, f.instrs[1].operands[0].index);
  EXPECT_EQ(f.labels.size(), 2u);
}

TEST(PtxFeatures, BranchTargetsAreInstructionIndices) {
  Module m = parse("\t@%p1 bra $L_end;\n\tadd.s32 %r1, %r1, 1;\n$L_end:\n");
  const Function& f = m.functions[0];
  const Operand& target = f.instrs[0].operands[0];
  EXPECT_EQ(f.labels[target.index].name, "$L_end");
  EXPECT_EQ(f.labels[target.index].target, 2u);
}

TEST(PtxFeatures, ExternSharedAndSymbolAddresses) {
  Module m = parse("\tmov.u64 %rd1, smem;\n", ".extern .shared .align 16 .b8 smem[];\n");
  ASSERT_EQ(m.vars.size(), 1u);
  EXPECT_EQ(m.vars[0].dims, std::vector<uint64_t>{0});
  EXPECT_EQ(only(m).operands[1].symbol_kind, SymbolKind::ModuleVar);
}

TEST(PtxFeatures, TensorCoreAndAsyncForms) {
  Module m = parse(
      "\tmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, "
      "{%f5, %f6, %f7, %f8};\n"
      "\tldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r1, %r2, %r3, %r4}, [%r9];\n"
      "\tcp.async.cg.shared.global.L2::128B [%r9], [%rd1], 16, %r2;\n"
      "\tcp.async.commit_group;\n\tcp.async.wait_group 1;\n"
      "\tmbarrier.try_wait.parity.shared::cta.b64 %p1, [%r9], %r2;\n"
      "\twgmma.fence.sync.aligned;\n\tfence.proxy.async.shared::cta;\n"
      "\tatom.global.gpu.acq_rel.add.f32 %f1, [%rd1], %f2;\n\tred.shared.add.u32 [%r9], 1;\n"
      "\tvote.sync.ballot.b32 %r1, %p1, -1;\n\tbar.sync 0;\n\tbarrier.sync.aligned 1, 64;\n"
      "\tcvt.rn.f16x2.f32 %r1, %f1, %f2;\n\tprmt.b32.f4e %r1, %r2, %r3, %r4;\n");
  const Function& f = m.functions[0];
  EXPECT_EQ(f.instrs[0].shape, (Shape{16, 8, 16}));
  EXPECT_EQ(f.instrs[0].mod(Mod::LayoutA), 0);
  EXPECT_EQ(f.instrs[0].mod(Mod::LayoutB), 1);
  EXPECT_EQ(f.instrs[0].num_types, 4);
  EXPECT_TRUE(f.instrs[1].has(Mod::Trans));
  EXPECT_EQ(f.instrs[2].op, Op::CpAsync);
  EXPECT_EQ(f.instrs[2].operands.size(), 4u);
  EXPECT_EQ(f.instrs[4].op, Op::CpAsyncWaitGroup);
  EXPECT_TRUE(f.instrs[5].has(Mod::Parity));
  EXPECT_EQ(f.instrs[8].mod(Mod::AtomOp), atomop::ADD);
}

// Triton's eviction_policy= and CUDA's cache-hint intrinsics: a policy made by createpolicy
// (fractional, with a secondary priority, by range, converted) and handed to loads and stores.
TEST(PtxFeatures, CachePoliciesAndHints) {
  Module m = parse(
      "\tcreatepolicy.fractional.L2::evict_first.b64 %rd2, 1.0;\n"
      "\tcreatepolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %rd3, 0.5;\n"
      "\tcreatepolicy.range.L2::evict_last.b64 %rd4, [%rd1], 1024, 4096;\n"
      "\tcreatepolicy.cvt.L2.b64 %rd5, %rd4;\n"
      "\tld.global.L1::evict_first.L2::cache_hint.b32 %r1, [%rd1], %rd2;\n"
      "\tst.global.L1::evict_last.L2::cache_hint.b32 [%rd1], %r1, %rd3;\n");
  const Function& f = m.functions[0];
  EXPECT_EQ(f.instrs[0].op, Op::Createpolicy);
  EXPECT_TRUE(f.instrs[1].has(Mod::L2Evict2));
  EXPECT_EQ(f.instrs[2].operands.size(), 4u);
  EXPECT_TRUE(f.instrs[3].has(Mod::Level));
  EXPECT_TRUE(f.instrs[4].has(Mod::CacheHint));
  EXPECT_EQ(f.instrs[4].operands.size(), 3u);
  EXPECT_EQ(f.instrs[5].operands.size(), 3u);
}

TEST(PtxFeatures, FunctionsAndCalls) {
  std::string text =
      ".version 8.7\n.target sm_90\n.address_size 64\n"
      ".func (.param .b32 ret) twice(.param .b32 x)\n{\n\t.reg .b32 %r<2>;\n\tld.param.b32 %r0, [x];\n"
      "\tadd.s32 %r1, %r0, %r0;\n\tst.param.b32 [ret], %r1;\n\tret;\n}\n"
      ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\t{\n\t.param .b32 a;\n\t.param .b32 r;\n"
      "\tst.param.b32 [a], 3;\n\tcall.uni (r), twice, (a);\n\tld.param.b32 %r1, [r];\n\t}\n\tret;\n}\n";
  Module m = parse_ptx(SourceText("f.ptx", text)).module;
  ASSERT_EQ(m.functions.size(), 2u);
  const Instr& call = m.functions[1].instrs[1];
  EXPECT_EQ(call.op, Op::Call);
  EXPECT_EQ(call.operands[1].symbol_kind, SymbolKind::Function);
  EXPECT_EQ(print_module(parse_ptx(SourceText("p.ptx", print_module(m))).module), print_module(m));
}

TEST(PtxFeatures, DebugLocationsAreKept) {
  std::string text =
      ".version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
      "\t.loc 1 7 3\n\t.loc 1 9 5, function_name $Lstr, inlined_at 1 7 3\n\tret;\n}\n.file 1 \"k.cu\"\n";
  Module m = parse_ptx(SourceText("d.ptx", text)).module;
  const Function& f = m.functions[0];
  ASSERT_EQ(f.debug_locs.size(), 2u);
  EXPECT_EQ(f.instrs[0].debug_loc, 1);
  EXPECT_EQ(f.debug_locs[1].inlined_line, 7u);
  ASSERT_NE(m.find_file(1), nullptr);
  EXPECT_EQ(m.find_file(1)->name, "k.cu");
}

}  // namespace
}  // namespace racer::ptx

namespace racer::ptx {
namespace {

// Inline asm declares registers without '%' in a nested block; mapa and getctarank (clusters).
TEST(PtxFeatures, RegistersWithoutPercentAndClusterAddressing) {
  Module m = parse("\t{ .reg .pred p; mov.pred p, %is_explicit_cluster; selp.u32 %r1, 1, 0, p; }\n"
                   "\tmapa.shared::cluster.u32 %r2, %r3, %r4;\n\tmapa.u64 %rd1, %rd2, 1;\n"
                   "\tgetctarank.shared::cluster.u32 %r5, %r2;\n");
  const Function& f = m.functions.at(0);
  ASSERT_GE(f.instrs.size(), 5u);
  EXPECT_EQ(f.instrs[0].op, Op::Mov);
  EXPECT_EQ(f.instrs[0].operands[0].kind, Operand::Kind::Reg);
  EXPECT_EQ(f.regs[f.instrs[0].operands[0].index].name, "p");
  EXPECT_EQ(f.instrs[2].op, Op::Mapa);
  EXPECT_EQ(f.instrs[3].op, Op::Mapa);
  EXPECT_EQ(f.instrs[4].op, Op::Getctarank);
}

}  // namespace
}  // namespace racer::ptx
