// Every compiled math routine the recognizer reads as a function is validated, and a routine
// with one polynomial coefficient changed is never read as that function. The routines are
// the real nvcc 13 and Triton 3.6 code in tests/cases/ptx (their sources in
// tests/cases/kernels); corrupted variants are made here, one coefficient at a time.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "check/check.hpp"
#include "check/replay.hpp"
#include "instance/load.hpp"

namespace racer::check {
namespace {

namespace fs = std::filesystem;

struct Routine {
  const char* ptx;    // under tests/cases/ptx
  const char* entry;
  const char* range;  // the inputs' range, where the routine is the function
  const char* recognized;  // the recognizer's description of it
  bool triton;             // Triton entries take two extra scratch pointers
};

const Routine kRoutines[] = {
    {"math.sm90.ptx", "cu_expf", "[-10.0, 10.0]", "exp(t)", false},
    {"math.sm90.ptx", "cu_logf", "[0.5, 4.0]", "log(t)", false},
    {"math.sm90.ptx", "cu_log2f", "[0.5, 4.0]", "log2(t)", false},
    {"math.sm90.ptx", "cu_log1pf", "[-0.5, 4.0]", "log1p(t)", false},
    {"math.sm90.ptx", "cu_erff", "[-3.0, 3.0]", "erf(t)", false},
    {"math.sm90.ptx", "cu_sigmoid", "[-10.0, 10.0]", "1 + exp(t)", false},
    // Unbounded: the slow path (Payne-Hanek reduction through a constant table and local
    // scratch memory) is validated too.
    {"math.sm90.ptx", "cu_sinf", "[-1.0e30, 1.0e30]", "sin(t)", false},
    {"math.sm90.ptx", "cu_cosf", "[-1.0e30, 1.0e30]", "cos(t)", false},
    {"math.sm90.ptx", "cu_pow2", "[-100.0, 100.0]", "(t)^2", false},
    {"math.sm90.ptx", "cu_pow_half", "[0.0, 100.0]", "(t)^1/2", false},
    {"math_triton/tri_log.sm90.ptx", "tri_log", "[0.5, 4.0]", "log(t)", true},
    {"math_triton/tri_sin.sm90.ptx", "tri_sin", "[-1.0e30, 1.0e30]", "sin(t)", true},
    {"math_triton/tri_cos.sm90.ptx", "tri_cos", "[-1.0e30, 1.0e30]", "cos(t)", true},
    {"math_triton/tri_log2.sm90.ptx", "tri_log2", "[0.5, 4.0]", "log2(t)", true},
    {"math_triton/tri_erf.sm90.ptx", "tri_erf", "[-3.0, 3.0]", "erf(t)", true},
    {"math_triton/tri_tanh.sm90.ptx", "tri_tanh", "[-4.0, 4.0]", "tanh(t)", true},
    {"math_triton/tri_softplus.sm90.ptx", "tri_softplus", "[-4.0, 4.0]", "log1p(t)", true},
};

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path cases_dir() { return fs::path(RACER_SOURCE_DIR) / "tests" / "cases"; }

// The [begin, end) of an entry's body in a module's text.
std::pair<size_t, size_t> entry_span(const std::string& text, const std::string& entry) {
  size_t b = text.find(".entry " + entry + "(");
  if (b == std::string::npos) return {std::string::npos, std::string::npos};
  size_t e = text.find("\n}", b);
  return {b, e};
}

// Hex float literals (0fXXXXXXXX) in the span that look like polynomial coefficients: not a
// power of two, not zero, magnitude below 2 (range-reduction magic numbers are larger).
std::vector<size_t> coefficient_positions(const std::string& text, std::pair<size_t, size_t> span, bool triton) {
  std::vector<size_t> out;
  static const std::regex hex("0f[0-9A-Fa-f]{8}");
  std::string body = text.substr(span.first, span.second - span.first);
  for (auto it = std::sregex_iterator(body.begin(), body.end(), hex); it != std::sregex_iterator(); ++it) {
    uint32_t bits = static_cast<uint32_t>(std::stoul(it->str().substr(2), nullptr, 16));
    float v = std::bit_cast<float>(bits);
    bool power_of_two = (bits & 0x7FFFFF) == 0;
    // log2(e) multiplies Triton's exp argument: read as exp itself, it is no routine's part
    // there (in nvcc's expf it is the routine's own constant).
    if (v == 0 || power_of_two || std::fabs(v) >= 2 || (triton && bits == 0x3FB8AA3B)) continue;
    out.push_back(span.first + static_cast<size_t>(it->position()));
  }
  return out;
}

class RoutineValidation : public ::testing::TestWithParam<Routine> {
 protected:
  // One directory per test: a parameterized test's name holds a '/', which would leave the
  // directory above the one TearDown removes behind.
  fs::path dir_ = fs::temp_directory_path() / ("racer_routine_" + std::to_string(::getpid()) + "_" + flat_test_name());
  static std::string flat_test_name() {
    std::string n = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(n.begin(), n.end(), '/', '_');
    return n;
  }
  void SetUp() override { fs::create_directories(dir_); }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // Program a runs `a_ptx`, program b the shipped routine; out[i] = f(x[i]) for 32 inputs.
  instance::Instance instance_for(const fs::path& a_ptx) {
    const Routine& r = GetParam();
    std::string args = R"([{ read = "x" }, { write = "out" }, 32)";
    args += r.triton ? R"(, { null = true }, { null = true }])" : "]";
    auto launch = [&](const char* p, const fs::path& ptx) {
      return std::string("[[") + p + ".launch]]\nptx = \"" + ptx.string() + "\"\nentry = \"" + r.entry +
             "\"\ngrid = [1]\nblock = [32]\nargs = " + args + "\n";
    };
    std::ofstream(dir_ / "case.toml") << "name = \"routine\"\nabout = \"validation\"\noutputs = [\"out\"]\n\n[tensors]\n"
                                      << "x = { shape = [32], dtype = \"f32\", init = \"input\", range = " << r.range
                                      << " }\nout = { shape = [32], dtype = \"f32\", init = \"empty\" }\n\n"
                                      << launch("a", a_ptx) << "\n"
                                      << launch("b", cases_dir() / "ptx" / r.ptx);
    return instance::load_instance((dir_ / "case.toml").string());
  }

  // Whether program a's routine is far from the shipped one somewhere in the range (run
  // concretely, bit-exact, at 32 points across it): far beyond any error bound a compiled
  // routine of the function could have.
  static bool far_from_shipped(const instance::Instance& inst) {
    const instance::Tensor& x = inst.tensors[0];
    double lo = x.range->lo.value, hi = x.range->hi.value;
    std::vector<WitnessValue> values;
    for (int i = 0; i < 32; ++i) {
      WitnessValue w;
      w.name = "x[" + std::to_string(i) + "]";
      w.tensor = 0;
      w.cell = i;
      w.kind = "input";
      w.value = mpq_class(static_cast<double>(static_cast<float>(lo + (hi - lo) * (2 * i + 1) / 64.0)));
      values.push_back(w);
    }
    ReplayResult rr = replay(inst, "out[0]", values);
    for (const ReplayCell& c : rr.differing)
      if (!(std::fabs(c.a - c.b) <= std::ldexp(1.0, -12) * std::max(1.0, std::fabs(c.b)))) return true;
    return false;
  }

  static bool recognized_in_a(const CheckResult& res, const std::string& what) {
    for (const std::string& g : res.recognized)
      if (g.rfind("a: " + std::string(GetParam().entry) + ": " + what, 0) == 0) return true;
    return false;
  }
};

TEST_P(RoutineValidation, ShippedRoutineIsRecognizedAsItsFunction) {
  const Routine& r = GetParam();
  CheckResult res = check_instance(instance_for(cases_dir() / "ptx" / r.ptx));
  EXPECT_EQ(res.verdict, Verdict::Equivalent) << res.reason;
  EXPECT_TRUE(recognized_in_a(res, r.recognized)) << "expected " << r.entry << ": " << r.recognized;
}

TEST_P(RoutineValidation, ChangedCoefficientNeverPassesAsTheFunction) {
  const Routine& r = GetParam();
  std::string text = read_text(cases_dir() / "ptx" / r.ptx);
  auto span = entry_span(text, r.entry);
  ASSERT_NE(span.first, std::string::npos) << r.entry;
  std::vector<size_t> coefs = coefficient_positions(text, span, r.triton);
  ASSERT_FALSE(coefs.empty()) << r.entry << " has no polynomial coefficient";
  // Coefficients in order, each scaled by 1.25 on its own, until two changes moved the
  // outputs. A change that leaves the routine within its error bound (a range-reduction
  // constant the next step corrects for, a threshold between two accurate branches, a
  // special-value path the inputs never take) may be recognized; one that moves the outputs
  // far from the function must not be. At least one must.
  int harmful = 0;
  for (size_t at : coefs) {
    if (harmful == 2) break;
    std::string corrupted = text;
    uint32_t bits = static_cast<uint32_t>(std::stoul(text.substr(at + 2, 8), nullptr, 16));
    float v = std::bit_cast<float>(bits) * 1.25f;
    char hex[16];
    std::snprintf(hex, sizeof hex, "%08X", std::bit_cast<uint32_t>(v));
    corrupted.replace(at + 2, 8, hex);
    fs::path p = dir_ / "corrupted.ptx";
    std::ofstream(p) << corrupted;
    SCOPED_TRACE(std::string(r.entry) + ", coefficient " + text.substr(at, 10) + " -> 0f" + hex);
    instance::Instance inst = instance_for(p);
    if (!far_from_shipped(inst)) continue;
    ++harmful;
    CheckResult res = check_instance(inst);
    // The corruption cannot hide behind recognition: the check never calls the corrupted
    // routine the function. (A part of it can still be recognized on its own: with the
    // polynomial branch of Triton's tanh corrupted, the exp branch is still tanh there.)
    EXPECT_NE(res.verdict, Verdict::Equivalent) << res.reason;
    if (res.verdict == Verdict::Inequivalent) {
      ASSERT_TRUE(res.counterexample.has_value());
      ReplayResult rr = replay(inst, res.counterexample->cell, res.counterexample->values);
      EXPECT_GT(rr.differing_count, 0u) << "the witness does not separate the programs when run";
    }
  }
  EXPECT_GT(harmful, 0) << "no corruption of " << r.entry << " moved its outputs: the test has no teeth";
}

INSTANTIATE_TEST_SUITE_P(Routines, RoutineValidation, ::testing::ValuesIn(kRoutines),
                         [](const ::testing::TestParamInfo<Routine>& i) { return std::string(i.param.entry); });

TEST(RoutineSelection, APieceServingASliverOfTheInputRangeIsSeen) {
  // erff(rsqrtf(tanhf(y))) for y in [1/2, 4]: erff selects |z| or z^2 as its polynomial's
  // variable by |z| >= 1.00295, and z = rsqrt(tanh(y)) falls below that only where tanh(y)
  // exceeds 0.9941, a sliver at the top of its range. Probed evenly, the selection fitted
  // rsqrt(tanh(y)) and one piece was read as the routine everywhere (the self-check caught it).
  instance::Instance inst =
      instance::load_instance(std::string(RACER_SOURCE_DIR) + "/tests/fuzz/soundness/regressions/r_fz97_000329.toml");
  CheckResult r = check_instance(inst);
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.reason;
  for (const std::string& what : r.recognized) EXPECT_EQ(what.find("rsqrt(t)"), std::string::npos) << what;
}

}  // namespace
}  // namespace racer::check
