// The contract language: every shipped contract parses and lints; malformed contracts are
// refused with every error located (line:col) and worded exactly; no input crashes the parser.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "contract/lang_lint.hpp"
#include "contract/lang_parser.hpp"
#include "support/error.hpp"

namespace racer::contract {
namespace {

constexpr const char* kBase = R"(contract C-TST-01 {
  scope reduction
  param N = 64
  tensor x : f32 [N] input in [-1, 1]
  tensor y : f32 [1] output
  pre precision(x) in {FP32}
  post output y satisfies close(y, ref)
  tolerance absolute 1.01 * N * u(FP32) * sum_abs(x)
  derivation "gamma_N bound"
  reference exact impl reference
  measure sample 4 inputs seed 1
  visible sample 1 inputs; within relative 2^-10
  violation "drifts"
  impl good {
    role good
    ptx "k.ptx"
    launch k grid 1 block 32 args (x, y, N)
  }
  impl reference {
    role reference
    ptx "k.ptx"
    launch k grid 1 block 1 args (x, y, N)
  }
}
)";

// Errors as "line:col: error: message" (the path prefix stripped).
std::vector<std::string> errors_of(const std::string& text) {
  SourceText src("t.kc", text);
  Diagnostics d;
  ContractFile f = parse_contracts(src, d);
  lint(src, f, d, {"", false});  // as load_contracts does: also after syntax errors
  std::vector<std::string> out;
  for (const auto& item : d.items()) out.push_back(std::to_string(item.line) + ":" + std::to_string(item.col) + ": error: " + item.message);
  return out;
}

std::string replaced(const char* from, const char* to) {
  std::string s = kBase;
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, std::string(from).size(), to);
  return s;
}

TEST(ContractLint, BaseIsValid) { EXPECT_EQ(errors_of(kBase), std::vector<std::string>{}); }

struct Case {
  const char* label;
  const char* from;
  const char* to;
  std::vector<std::string> errors;
};

const std::vector<Case> kCases = {
    {"missing_part", "  violation \"drifts\"\n", "", {"1:10: error: contract 'C-TST-01' has no 'violation' part"}},
    {"duplicate_part", "  scope reduction\n", "  scope reduction\n  scope matmul\n", {"3:3: error: 'scope' given twice in contract 'C-TST-01' (first at line 2)"}},
    {"unknown_part", "  scope reduction\n", "  scope reduction\n  scoop matmul\n",
     {"3:3: error: unknown contract part 'scoop'; expected one of scope, param, tensor, pre, post, tolerance, derivation, reference, measure, visible, violation, impl"}},
    {"bad_identifier", "contract C-TST-01", "contract TST-01", {"1:10: error: contract identifier 'TST-01' must have the form C-FAMILY-NN (e.g. C-PRC-01)"}},
    {"unknown_precision", "precision(x) in {FP32}", "precision(x) in {FP31}",
     {"6:24: error: unknown precision 'FP31'; expected one of FP64, FP32, TF32, FP16, BF16, FP8_E4M3, FP8_E5M2"}},
    {"unknown_tensor_in_pre", "precision(x)", "precision(z)", {"6:17: error: unknown tensor 'z'"}},
    {"unknown_dtype", "x : f32 [N]", "x : f31 [N]", {"4:14: error: unknown element type 'f31'; expected one of f64, f32, f16, bf16, fp8e4m3, fp8e5m2, i64, i32, i16, i8, u8, bool"}},
    {"unknown_tensor_role", "[1] output", "[1] outptu", {"5:22: error: unknown tensor role 'outptu'; expected input, output or scratch", "7:15: error: 'y' is not an output tensor"}},
    {"empty_range", "in [-1, 1]", "in [1, -1]", {"4:32: error: empty range: 1 > -1"}},
    {"zero_dimension", "y : f32 [1]", "y : f32 [0]", {"5:19: error: a shape dimension must be an integer in [1, 16777216], not 0"}},
    {"unknown_name_in_tolerance", "1.01 * N * u(FP32)", "1.01 * M * u(FP32)", {"8:29: error: unknown name 'M' (not a parameter of this contract) in the tolerance"}},
    {"bad_unit_roundoff", "u(FP32)", "u(FP33)", {"8:35: error: u() takes a precision name (FP64, FP32, TF32, FP16, BF16, FP8_E4M3, FP8_E5M2) in the tolerance"}},
    {"division_by_zero", "1.01 * N", "1.01 / (N - 64)", {"8:29: error: division by zero in the tolerance"}},
    {"negative_tolerance", "absolute 1.01 * N", "absolute -1.01 * N", {"8:22: error: a tolerance must not be negative, not -3.85284423828125e-06"}},
    {"tolerance_without_derivation", "  derivation \"gamma_N bound\"\n", "",
     {"8:13: error: tolerance has no 'derivation' saying how it follows from the formats' unit roundoff and the operator's condition"}},
    {"close_with_tolerance_none", "tolerance absolute 1.01 * N * u(FP32) * sum_abs(x)", "tolerance none",
     {"7:8: error: 'close' needs a tolerance; 'tolerance none' leaves the postcondition under-specified"}},
    {"close_on_input", "output y satisfies close(y, ref)", "output x satisfies close(x, ref)", {"7:15: error: 'x' is not an output tensor"}},
    {"close_of_other_tensor", "close(y, ref)", "close(x, ref)", {"7:33: error: 'close' must compare 'y', not 'x'"}},
    {"algebraic_without_epsilon", "reference exact impl reference", "reference algebraic determinism",
     {"10:13: error: algebraic determinism states no epsilon: an algebraic relation holds in floating point only within a stated bound ('epsilon 0' for bitwise)"}},
    {"unknown_property", "reference exact impl reference", "reference algebraic symmetry epsilon 0",
     {"10:23: error: unknown algebraic property 'symmetry'; expected one of determinism, idempotence, permutation_invariance, shift_invariance"}},
    {"higher_precision_without_impl", "reference exact impl reference", "reference higher_precision FP64",
     {"10:13: error: higher_precision FP64 needs 'impl NAME': the implementation that computes in FP64"}},
    {"higher_precision_not_higher", "reference exact impl reference", "reference higher_precision FP16 impl reference",
     {"10:40: error: implementation 'reference' does not declare 'precision FP16'", "10:30: error: FP16 is not a higher precision than output 'y' (FP32)"}},
    {"unknown_impl", "exact impl reference", "exact impl referense", {"10:24: error: unknown implementation 'referense'"}},
    {"sample_count_zero", "sample 4 inputs", "sample 0 inputs", {"11:18: error: the sample count must be an integer in [1, 100000], not 0"}},
    {"sweep_unknown_param", "measure sample 4 inputs seed 1", "measure sweep K in {1, 2}", {"11:17: error: sweep over 'K', which is not a parameter of this contract"}},
    {"unknown_injection", "measure sample 4 inputs seed 1", "measure inject garbage count 2",
     {"11:18: error: cannot inject 'garbage'; expected one of nan, inf, denormal, out_of_bounds"}},
    {"unknown_step", "measure sample 4 inputs seed 1", "measure shuffle 4",
     {"11:11: error: unknown protocol step 'shuffle'; expected sample, sweep, inject, enumerate, repeat, transform, within or compute"}},
    {"impl_without_role", "    role good\n", "", {"14:8: error: implementation 'good' has no 'role' (baseline, bad, good or reference)"}},
    {"impl_unknown_role", "role good", "role great", {"15:10: error: unknown role 'great'; expected baseline, bad, good or reference"}},
    {"impl_unknown_arg", "args (x, y, N)\n  }\n  impl reference", "args (x, q, N)\n  }\n  impl reference",
     {"17:39: error: unknown argument 'q' (neither a tensor nor a parameter)"}},
    {"impl_unknown_item", "    role good\n", "    role good\n    colour blue\n",
     {"16:5: error: unknown implementation item 'colour'; expected role, ptx, cuda, triton, warps, stages, constexpr, source, precision, launch or declares"}},
    {"launch_dimension_zero", "grid 1 block 32", "grid 1 block 0", {"17:27: error: a launch dimension must be an integer in [1, 65535], not 0"}},
    {"unknown_policy_declared", "    role good\n", "    role good\n    declares nan = IGNORE\n",
     {"16:20: error: 'IGNORE' is not a nan policy; expected one of IEEE_PROPAGATE, MASK, RAISE"}},
    {"duplicate_names", "  tensor y : f32 [1] output\n", "  tensor y : f32 [1] output\n  param y = 2\n",
     {"6:9: error: parameter 'y' declared twice (parameters, tensors and implementations share one namespace)"}},
    {"unterminated_string", "violation \"drifts\"", "violation \"drifts", {"13:13: error: unterminated string (strings end on the same line)"}},
    {"stray_character", "  scope reduction\n", "  scope reduction @\n",
     {"2:19: error: unexpected character '@'"}},
    {"unclosed_body", "  }\n}\n", "  }\n", {"1:1: error: contract 'C-TST-01' is not closed with '}'"}},
    {"malformed_number", "param N = 64", "param N = 6.4.1", {"3:13: error: malformed number '6.4.1'"}},
    {"several_errors_at_once", "precision(x) in {FP32}", "precision(x) in {FP31}\n  scope matmul",
     {"7:3: error: 'scope' given twice in contract 'C-TST-01' (first at line 2)",
      "6:24: error: unknown precision 'FP31'; expected one of FP64, FP32, TF32, FP16, BF16, FP8_E4M3, FP8_E5M2"}},
    {"impl_without_kernel", "    ptx \"k.ptx\"\n    launch k grid 1 block 32", "    launch k grid 1 block 32", {"14:8: error: implementation 'good' has no 'ptx', 'cuda' or 'triton' file"}},
    {"impl_ptx_and_cuda", "    ptx \"k.ptx\"\n    launch k grid 1 block 32", "    ptx \"k.ptx\"\n    cuda \"k.cu\"\n    launch k grid 1 block 32",
     {"17:10: error: implementation 'good' gives more than one of 'ptx', 'cuda' and 'triton'; give one"}},
    {"impl_ptx_and_triton", "    ptx \"k.ptx\"\n    launch k grid 1 block 32", "    ptx \"k.ptx\"\n    triton \"k.py\"\n    launch k grid 1 block 32",
     {"17:12: error: implementation 'good' gives more than one of 'ptx', 'cuda' and 'triton'; give one"}},
    {"warps_without_triton", "    ptx \"k.ptx\"\n    launch k grid 1 block 32", "    ptx \"k.ptx\"\n    warps 4\n    launch k grid 1 block 32",
     {"14:8: error: 'warps', 'stages' and 'constexpr' are options of a 'triton' implementation"}},
    {"triton_too_many_warps", "    ptx \"k.ptx\"\n    launch k grid 1 block 32", "    triton \"k.py\"  warps 64\n    launch k grid 1 block 32",
     {"16:26: error: the number of warps must be an integer in [1, 32], not 64"}},
    {"invariance_without_transform", "reference exact impl reference", "reference algebraic shift_invariance epsilon 0",
     {"10:13: error: algebraic shift_invariance needs a 'transform shift TENSOR by Q' step in the measurement"}},
    {"transform_of_output", "measure sample 4 inputs seed 1", "measure sample 4 inputs seed 1; transform permute y",
     {"11:53: error: 'y' is not an input tensor"}},
    {"within_none", "within relative 2^-10", "within none", {"12:28: error: 'within none' accepts anything; give the smoke test's bound"}},
};

TEST(ContractLint, MalformedContractsGiveLocatedErrors) {
  EXPECT_GE(kCases.size(), 20u);
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.label);
    EXPECT_EQ(errors_of(replaced(c.from, c.to)), c.errors);
  }
}

TEST(ContractLint, ErrorsRenderWithFileLineAndCaret) {
  SourceText src("bad.kc", replaced("{FP32}", "{FP31}"));
  Diagnostics d;
  ContractFile f = parse_contracts(src, d);
  lint(src, f, d, {"", false});
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.render(),
            "bad.kc:6:24: error: unknown precision 'FP31'; expected one of FP64, FP32, TF32, FP16, BF16, FP8_E4M3, FP8_E5M2\n"
            "    pre precision(x) in {FP31}\n"
            "                         ^~~~");
}

TEST(ContractLint, EveryShippedContractParsesAndLints) {
  size_t n = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(RACER_SOURCE_DIR) + "/contracts")) {
    if (e.path().extension() != ".kc") continue;
    SCOPED_TRACE(e.path().string());
    EXPECT_NO_THROW(load_contracts(e.path().string()));
    ++n;
  }
  EXPECT_GE(n, 13u);  // the twelve classes and the attention examples
}

TEST(ContractLint, ArbitraryBytesNeverCrash) {
  std::mt19937_64 rng(7);
  std::string base = kBase;
  for (int round = 0; round < 2000; ++round) {
    std::string s = base;
    int edits = 1 + static_cast<int>(rng() % 6);
    for (int k = 0; k < edits && !s.empty(); ++k) {
      size_t at = rng() % s.size();
      switch (rng() % 3) {
        case 0: s.erase(at, 1 + rng() % 8); break;
        case 1: s.insert(at, 1, static_cast<char>(rng() % 128)); break;
        default: s[at] = "{}()[],;:=+-*/^\"#a1 "[rng() % 20];
      }
    }
    errors_of(s);  // must return (errors or not), never crash or hang
  }
  errors_of(std::string(5000, '('));
  errors_of("contract C-X-1 { tolerance absolute " + std::string(3000, '-') + "1 }");
}

}  // namespace
}  // namespace racer::contract
