// `contract lint` in one pass: a contract with a syntax error still has its other parts
// checked, without errors that only follow from the one already reported, and the launches of
// a `ptx` implementation are checked against the PTX file (entry, parameter count and kinds).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "contract/lang_lint.hpp"
#include "support/error.hpp"

namespace racer::contract {
namespace {

namespace fs = std::filesystem;

// prc01_baseline(.u64 x, .u64 y, .u32 n), beside the contract written into a fresh directory.
std::string contract_file(const std::string& name, const std::string& impls, const std::string& tolerance =
                          "tolerance absolute 1.01 * N * u(FP32) * sum_abs(x)") {
  fs::path dir = fs::path(RACER_BINARY_DIR) / ("lint_ptx_test_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(fs::path(RACER_SOURCE_DIR) / "contracts/impl/prc_01.ptx", dir / "k.ptx");
  std::ofstream(dir / "c.kc") << "contract C-TST-01 {\n"
                                 "  scope reduction\n"
                                 "  param N = 64\n"
                                 "  tensor x : f16 [N] input in [0, 1]\n"
                                 "  tensor y : f32 [1] output\n"
                                 "  pre precision(x) in {FP16}\n"
                                 "  post output y satisfies close(y, ref)\n"
                                 "  " + tolerance + "\n"
                                 "  derivation \"gamma_N\"\n"
                                 "  reference exact impl good\n"
                                 "  measure sample 4 inputs seed 1\n"
                                 "  violation \"drifts\"\n" +
                                     impls + "}\n";
  return (dir / "c.kc").string();
}

std::string lint_errors(const std::string& path) {
  try {
    load_contracts(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string impl(const std::string& name, const std::string& launch) {
  return "  impl " + name + " {\n    role good\n    ptx \"k.ptx\"\n    launch " + launch + "\n  }\n";
}

TEST(ContractLintPtx, ALaunchThatFitsItsEntryLints) {
  EXPECT_EQ(lint_errors(contract_file("fits", impl("good", "prc01_baseline grid 1 block 32 args (x, y, N)"))), "");
}

TEST(ContractLintPtx, EveryLaunchMismatchIsReportedAtOnce) {
  std::string impls = impl("good", "prc01_missing grid 1 block 32 args (x, y, N)") +
                      impl("two", "prc01_good grid 1 block 32 args (x, y)") +
                      impl("tensor_to_u32", "prc01_bad grid 1 block 32 args (x, y, y)") +
                      impl("fraction", "prc01_bad grid 1 block 32 args (x, y, N / 3)") +
                      impl("too_big", "prc01_bad grid 1 block 32 args (x, y, 2^33)") +
                      impl("number_to_pointer", "prc01_bad grid 1 block 32 args (x, 5, N)");
  std::string e = lint_errors(contract_file("mismatches", impls));
  EXPECT_NE(e.find(":16:12: error: no entry 'prc01_missing' in k.ptx (entries: prc01_baseline, prc01_bad, prc01_good, prc01_reference)"),
            std::string::npos) << e;
  EXPECT_NE(e.find(":21:5: error: entry 'prc01_good' takes 3 parameters but the launch passes 2 arguments"), std::string::npos) << e;
  EXPECT_NE(e.find(":26:50: error: tensor 'y' is passed to parameter 2 (prc01_bad_param_2: .u32), which is not a 64-bit pointer"),
            std::string::npos) << e;
  EXPECT_NE(e.find(":31:50: error: the argument 21.333333333333332 is not an integer, but it is passed to integer parameter 2"),
            std::string::npos) << e;
  EXPECT_NE(e.find(":36:50: error: the argument 8589934592 does not fit .u32, but it is passed to integer parameter 2"),
            std::string::npos) << e;
  // A number where a pointer goes is allowed (a null or an address computed by the caller).
  EXPECT_EQ(e.find(":41:"), std::string::npos) << e;
}

TEST(ContractLintPtx, ASyntaxErrorLeavesTheRestCheckedWithoutFollowOnErrors) {
  // The tolerance does not parse: no "has no 'tolerance' part"; the launch still meets its PTX
  // and the unknown precision of the implementation is still found.
  std::string impls = "  impl good {\n    role good\n    precision FP31\n    ptx \"k.ptx\"\n"
                      "    launch prc01_missing grid 1 block 32 args (x, y, N)\n  }\n";
  std::string e = lint_errors(contract_file("syntax", impls, "tolerance absolute 1.01 * * N"));
  EXPECT_NE(e.find(":8:29: error: expected a number, a parameter or a call such as u(FP32), found '*'"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown precision 'FP31'"), std::string::npos) << e;
  EXPECT_NE(e.find("no entry 'prc01_missing'"), std::string::npos) << e;
  EXPECT_EQ(e.find("has no 'tolerance' part"), std::string::npos) << e;
  size_t errors = 0;
  for (size_t at = e.find("error:"); at != std::string::npos; at = e.find("error:", at + 1)) ++errors;
  EXPECT_EQ(errors, 3u) << e;
}

}  // namespace
}  // namespace racer::contract
