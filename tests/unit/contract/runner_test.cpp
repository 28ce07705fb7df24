// The runner: judging a cell under a tolerance, the CPU backend's measurement of shipped
// contracts (policy, determinism across atomic orders, shape sweeps), and what it refuses to
// decide (under-specified).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "contract/backend.hpp"
#include "contract/compare.hpp"
#include "contract/lang_lint.hpp"
#include "contract/lang_parser.hpp"
#include "contract/measure.hpp"
#include "frontend/nvcc.hpp"
#include "support/error.hpp"

namespace racer::contract {
namespace {

Tolerance parse_tolerance(const std::string& text) {
  std::string src = "contract C-T-1 { tolerance " + text + " }";
  SourceText s("t.kc", src);
  Diagnostics d;
  ContractFile f = parse_contracts(s, d);
  EXPECT_TRUE(d.empty()) << d.render();
  return *f.contracts.at(0).tolerance;
}

uint64_t f32(float v) {
  uint32_t b;
  std::memcpy(&b, &v, 4);
  return b;
}

TEST(ContractJudge, AbsoluteAndRelativeCombineAsAllclose) {
  Tolerance t = parse_tolerance("elementwise absolute 0.5 and relative 0.25");
  RefValue r = RefValue::of_exact(mpq_class(2));
  EXPECT_TRUE(judge(t, ptx::Type::F32, f32(3.0f), r, {}).pass);    // |1| <= 0.5 + 0.25 * 2
  EXPECT_FALSE(judge(t, ptx::Type::F32, f32(3.25f), r, {}).pass);  // 1.25 > 1
}

TEST(ContractJudge, UlpAndExactAgainstTheReferenceRoundedOnce) {
  mpq_class third(1, 3);
  RefValue r = RefValue::of_exact(third);
  uint64_t nearest = f32(1.0f / 3.0f);
  EXPECT_TRUE(judge(parse_tolerance("exact"), ptx::Type::F32, nearest, r, {}).pass);
  EXPECT_FALSE(judge(parse_tolerance("exact"), ptx::Type::F32, nearest + 1, r, {}).pass);
  EXPECT_TRUE(judge(parse_tolerance("ulp 1"), ptx::Type::F32, nearest + 1, r, {}).pass);
  EXPECT_FALSE(judge(parse_tolerance("ulp 1"), ptx::Type::F32, nearest + 2, r, {}).pass);
}

TEST(ContractJudge, SpecialsMatchOnlyThemselvesAndUnknownIsNotJudged) {
  Tolerance t = parse_tolerance("relative 1");
  RefValue finite = RefValue::of_exact(mpq_class(1));
  EXPECT_FALSE(judge(t, ptx::Type::F32, 0x7F800000, finite, {}).pass);  // inf against 1
  EXPECT_FALSE(judge(t, ptx::Type::F32, 0x7FFFFFFF, finite, {}).pass);  // NaN against 1
  EXPECT_TRUE(judge(t, ptx::Type::F32, 0x7FFFFFFF, RefValue::of_bits(ptx::Type::F32, 0x7FC00000), {}).pass);
  CellJudgement j = judge(t, ptx::Type::F32, f32(5.0f), RefValue{}, {});
  EXPECT_FALSE(j.judged);
}

TEST(ContractJudge, DataDependentBoundsComeFromTheEnvironment) {
  Tolerance t = parse_tolerance("absolute 2 * sum_abs(x)");
  Env env{{"sum_abs(x)", 0.25}};
  RefValue r = RefValue::of_exact(mpq_class(0));
  EXPECT_TRUE(judge(t, ptx::Type::F32, f32(0.5f), r, env).pass);
  EXPECT_FALSE(judge(t, ptx::Type::F32, f32(0.75f), r, env).pass);
}

LoadedContracts shipped(const std::string& name) { return load_contracts(std::string(RACER_SOURCE_DIR) + "/contracts/" + name); }

CheckReport check(const LoadedContracts& f, const std::string& impl, bool visible = false) {
  auto cpu = cpu_backend();
  const Contract& c = f.file.contracts.at(0);
  return check_contract(f, c, *c.find_impl(impl), {visible, cpu.get(), {}});
}

TEST(ContractRunner, DenormalPolicyIsMeasuredBitForBit) {
  auto f = shipped("C-PRC-03.kc");
  EXPECT_EQ(check(f, "good").verdict, Verdict::Conforming);
  CheckReport bad = check(f, "bad");
  ASSERT_EQ(bad.verdict, Verdict::Violation);
  EXPECT_NE(bad.findings.at(0).observed.find("the declared IEEE policy gives"), std::string::npos) << bad.findings.at(0).observed;
  EXPECT_EQ(check(f, "bad", true).verdict, Verdict::Conforming);  // the visible tests use normal inputs only
}

TEST(ContractRunner, AtomicOrdersExposeANondeterministicSum) {
  auto f = shipped("C-ORD-02.kc");
  CheckReport bad = check(f, "bad");
  ASSERT_EQ(bad.verdict, Verdict::Violation);
  EXPECT_NE(bad.findings.at(0).observed.find("differs between run 0 and run"), std::string::npos);
  EXPECT_EQ(check(f, "good").verdict, Verdict::Conforming);
}

TEST(ContractRunner, HeldOutShapesCatchATailBug) {
  auto f = shipped("C-CMP-03.kc");
  CheckReport bad = check(f, "bad");
  ASSERT_EQ(bad.verdict, Verdict::Violation);
  EXPECT_EQ(bad.findings.at(0).config, "N=33");
}

TEST(ContractRunner, AlgebraicInvariancesAreMeasuredWithTheirEpsilon) {
  auto f = load_contracts(std::string(RACER_SOURCE_DIR) + "/contracts/examples/invariance.kc");
  auto cpu = cpu_backend();
  const Contract& shift = f.file.contracts.at(0);
  EXPECT_EQ(check_contract(f, shift, *shift.find_impl("good"), {false, cpu.get(), {}}).verdict, Verdict::Conforming);
  CheckReport bad = check_contract(f, shift, *shift.find_impl("bad"), {false, cpu.get(), {}});
  ASSERT_EQ(bad.verdict, Verdict::Violation);
  EXPECT_NE(bad.findings.at(0).observed.find("against the untransformed run (shift_invariance)"), std::string::npos);
  const Contract& perm = f.file.contracts.at(1);
  EXPECT_EQ(check_contract(f, perm, *perm.find_impl("good"), {false, cpu.get(), {}}).verdict, Verdict::Conforming);
  EXPECT_EQ(check_contract(f, perm, *perm.find_impl("bad"), {false, cpu.get(), {}}).verdict, Verdict::Violation);
}

TEST(ContractRunner, UndecidableOraclesAreUnderSpecifiedNotGuessed) {
  // An alternate stack's results are not available to the runner, and a relation is only as
  // good as its oracle: the verdict says so instead of passing.
  std::string dir = std::string(RACER_BINARY_DIR) + "/contract_runner_test";
  std::filesystem::create_directories(dir);
  std::string ptx = std::string(RACER_SOURCE_DIR) + "/contracts/impl/cmp_03.ptx";
  std::ofstream(dir + "/u.kc") << "contract C-TST-02 {\n scope elementwise\n param N = 64\n tensor x : f32 [N] input\n"
                                  " tensor y : f32 [N] output\n pre precision(x) in {FP32}\n post output y satisfies close(y, ref)\n"
                                  " tolerance exact\n reference alternate_stack AMD\n measure sample 1 inputs\n violation \"differs\"\n"
                                  " impl good {\n  role good\n  ptx \"" << ptx << "\"\n  launch cmp03_good grid 1 block 64 args (x, y, N)\n }\n}\n";
  auto f = load_contracts(dir + "/u.kc");
  CheckReport r = check(f, "good");
  EXPECT_EQ(r.verdict, Verdict::UnderSpecified);
  ASSERT_FALSE(r.unspecified.empty());

  // The exact oracle of a softmax is irrational (2^x): no cell can be judged, and that is not
  // a pass.
  std::string softmax = std::string(RACER_SOURCE_DIR) + "/contracts/impl/prc_02.ptx";
  std::ofstream(dir + "/e.kc") << "contract C-TST-04 {\n scope softmax\n param R = 2\n param C = 8\n tensor x : f32 [R, C] input\n"
                                  " tensor y : f32 [R, C] output\n pre precision(x) in {FP32}\n post output y satisfies close(y, ref)\n"
                                  " tolerance relative 1e-6\n derivation \"d\"\n reference exact\n measure sample 1 inputs\n violation \"v\"\n"
                                  " impl good {\n  role good\n  ptx \"" << softmax << "\"\n  launch prc02_good grid 1 block R args (x, y, R, C)\n }\n}\n";
  auto g = load_contracts(dir + "/e.kc");
  CheckReport e = check(g, "good");
  EXPECT_EQ(e.verdict, Verdict::UnderSpecified);
  EXPECT_EQ(e.cells_judged, 0u);
}

TEST(ContractRunner, CudaSourcesAreCompiledThroughTheFrontEnd) {
  if (frontend::find_nvcc().empty()) GTEST_SKIP() << "no nvcc: CUDA C++ implementations cannot be compiled here";
  std::string dir = std::string(RACER_BINARY_DIR) + "/contract_runner_test";
  std::filesystem::create_directories(dir);
  std::string cu = std::string(RACER_SOURCE_DIR) + "/contracts/impl/cmp_03.cu";
  std::ofstream(dir + "/cuda.kc") << "contract C-TST-03 {\n scope elementwise\n param N = 65\n tensor x : f32 [N] input\n"
                                     " tensor y : f32 [N] output\n pre precision(x) in {FP32}\n post output y satisfies close(y, ref)\n"
                                     " tolerance exact\n reference exact impl reference\n measure sample 2 inputs\n violation \"differs\"\n"
                                     " impl good {\n  role good\n  cuda \"" << cu << "\"\n  launch cmp03_good grid 1 block 128 args (x, y, N)\n }\n"
                                     " impl bad {\n  role bad\n  cuda \"" << cu << "\"\n  launch cmp03_bad grid 1 block 128 args (x, y, N)\n }\n"
                                     " impl reference {\n  role reference\n  cuda \"" << cu << "\"\n  launch cmp03_reference grid 1 block 1 args (x, y, N)\n }\n}\n";
  auto f = load_contracts(dir + "/cuda.kc");
  EXPECT_EQ(check(f, "good").verdict, Verdict::Conforming);
  EXPECT_EQ(check(f, "bad").verdict, Verdict::Violation);  // N = 65: the tail is never written
}

TEST(ContractRunner, TritonKernelsAreCompiledThroughTheFrontEnd) {
  // contracts/examples/triton.kc binds @triton.jit kernels of contracts/impl/softmax_triton.py:
  // compiled for sm_90 without a GPU, launched with their constexprs, measured like any other.
  auto f = load_contracts(std::string(RACER_SOURCE_DIR) + "/contracts/examples/triton.kc");
  EXPECT_EQ(check(f, "good").verdict, Verdict::Conforming);
  CheckReport bad = check(f, "bad");
  ASSERT_EQ(bad.verdict, Verdict::Violation);
  EXPECT_NE(bad.findings.at(0).observed.find("nan"), std::string::npos) << bad.findings.at(0).observed;

  // A kernel that does not compile: Triton's own message, as bad input.
  std::string dir = std::string(RACER_BINARY_DIR) + "/contract_runner_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/broken.py") << "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                                       "def k(x_ptr, y_ptr, N):\n    tl.store(y_ptr + tl.arange(0, 3), tl.load(x_ptr))\n";
  std::ofstream(dir + "/broken.kc") << "contract C-TST-05 {\n scope elementwise\n param N = 64\n tensor x : f32 [N] input\n"
                                       " tensor y : f32 [N] output\n pre precision(x) in {FP32}\n post output y satisfies close(y, ref)\n"
                                       " tolerance exact\n reference algebraic determinism epsilon 0\n measure repeat 2\n violation \"v\"\n"
                                       " impl good {\n  role good\n  triton \"broken.py\"\n  launch k grid 1 block 128 args (x, y, N)\n }\n}\n";
  auto g = load_contracts(dir + "/broken.kc");
  try {
    check(g, "good");
    ADD_FAILURE() << "a kernel Triton cannot compile was measured";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::BadInput);
    EXPECT_NE(std::string(e.what()).find("Triton"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("arange"), std::string::npos) << e.what();
  }
}

TEST(ContractRunner, GpuBackendExplainsWhyItIsUnavailable) {
  std::string why;
  auto gpu = gpu_backend(why);
  if (gpu) GTEST_SKIP() << "a GPU is present (" << gpu->profile() << "); the unavailable path is not exercised";
  EXPECT_NE(why.find("libcuda"), std::string::npos) << why;
}

}  // namespace
}  // namespace racer::contract
