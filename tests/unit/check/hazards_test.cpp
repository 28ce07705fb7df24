// The float hazard search (check/hazards.hpp): its rules on numbers, and on the instances of
// tests/hazards, where each hazard must be found and must replay on the emulator at the input
// the report gives, while the exact verdict stays what it is.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>

#include "check/check.hpp"
#include "check/concrete_run.hpp"
#include "check/execution.hpp"
#include "check/float_model.hpp"
#include "check/hazard_list.hpp"
#include "check/hazard_points.hpp"
#include "check/intermediate_hazards.hpp"
#include "check/hazard_rules.hpp"
#include "check/prepare.hpp"
#include "instance/load.hpp"

namespace racer::check {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

CellFloats cell(double a, double b, std::optional<long double> exact, std::optional<long double> bound_a = 0,
                std::optional<long double> bound_b = 0) {
  CellFloats c;
  c.a = a;
  c.b = b;
  c.exact_a = c.exact_b = exact;
  c.bound_a = bound_a;
  c.bound_b = bound_b;
  c.bounds_known = true;
  return c;
}

TEST(HazardRules, UlpsAreTheFormatsSpacingAtTheExactValue) {
  EXPECT_DOUBLE_EQ(static_cast<double>(error_in_ulps(ieee::Format::F32, 1.0 + 0x1p-23, 1.0L)), 1.0);
  EXPECT_DOUBLE_EQ(static_cast<double>(error_in_ulps(ieee::Format::F32, 1024.0 + 0.5, 1024.0L)), 0.5 / 0x1p-13);
  EXPECT_DOUBLE_EQ(static_cast<double>(error_in_ulps(ieee::Format::F16, 0.0, 0x1p-24L)), 1.0);  // the smallest subnormal
}

TEST(HazardRules, NanOrInfinityOnOneSideOnly) {
  auto h = cell_hazard(cell(kNaN, 0.25, 0.25L));
  ASSERT_TRUE(h);
  EXPECT_EQ(h->kind, "nan");
  EXPECT_EQ(h->program, 'a');
  h = cell_hazard(cell(3.0, INFINITY, 3.0L));
  ASSERT_TRUE(h);
  EXPECT_EQ(h->kind, "overflow");
  EXPECT_EQ(h->program, 'b');
  h = cell_hazard(cell(3.0, INFINITY, std::nullopt));
  ASSERT_TRUE(h);
  EXPECT_EQ(h->kind, "infinity");  // no finite exact value to call it an overflow against
  // Both alike: how the format behaves, not a difference between the kernels.
  EXPECT_FALSE(cell_hazard(cell(kNaN, kNaN, 1.0L)));
  EXPECT_FALSE(cell_hazard(cell(INFINITY, INFINITY, 1e40L)));
}

TEST(HazardRules, ZeroIsAnUnderflowOnlyBeyondTheProgramsOwnRounding) {
  auto h = cell_hazard(cell(0.0, 1e-30, 1e-30L, 1e-38L, 1e-38L));
  ASSERT_TRUE(h);
  EXPECT_EQ(h->kind, "underflow");
  EXPECT_EQ(h->program, 'a');
  // A zero within a's rounding bound is a cancellation: a precision loss when b has none.
  h = cell_hazard(cell(0.0, 1e-5, 1e-5L, 1e-3L, 1e-12L));
  ASSERT_TRUE(h);
  EXPECT_EQ(h->kind, "precision");
  // Below the smallest normal a zero is no hazard: every program's rounding bound carries the
  // format's absolute floor (2^-126 per operation in f32), and a subnormal lies within it.
  EXPECT_FALSE(cell_hazard(cell(0.0, 1e-40, 1e-40L, 0x1p-126L, 0x1p-126L)));
  // Without the bounds the finite rules wait (the caller computes them when needs_bounds).
  CellFloats c = cell(0.0, 1e-30, 1e-30L);
  c.bounds_known = false;
  EXPECT_FALSE(cell_hazard(c));
  EXPECT_TRUE(needs_bounds(c));
}

TEST(HazardRules, PrecisionNeedsManyUlpsManyTimesTheOthersAndBeyondItsRounding) {
  const double exact = 1.0, ulp = 0x1p-23;
  auto h = cell_hazard(cell(exact + 40 * ulp, exact + ulp, exact, 1e-3L, 1e-6L));
  ASSERT_TRUE(h);
  EXPECT_EQ(h->kind, "precision");
  EXPECT_EQ(h->program, 'a');
  EXPECT_NEAR(static_cast<double>(h->error_ulps), 40, 1e-9);
  EXPECT_NEAR(static_cast<double>(h->other_error_ulps), 1, 1e-9);
  EXPECT_FALSE(cell_hazard(cell(exact + 12 * ulp, exact, exact, 1e-3L, 1e-6L)));         // under kHazardUlps
  EXPECT_FALSE(cell_hazard(cell(exact + 40 * ulp, exact + 10 * ulp, exact, 1e-3L, 1e-6L)));  // not kHazardRatio times b's
  // b's own rounding could make an error this large (a long sum in another order): no hazard.
  EXPECT_FALSE(cell_hazard(cell(exact + 40 * ulp, exact + ulp, exact, 1e-3L, 1e-4L)));
  EXPECT_FALSE(needs_bounds(cell(exact + 3 * ulp, exact, exact)));
}

// Next to a pole no first-order bound holds: there an error of kUnboundedHazardUlps counts
// against the other program's of at most one ulp; elsewhere a missing bound decides nothing.
TEST(HazardRules, NextToAPoleTheOtherProgramsResultIsTheBound) {
  const double exact = 4194304.0, ulp = 0.5;
  CellFloats c = cell(exact + 2000 * ulp, exact + 0.25, exact, std::nullopt, std::nullopt);
  EXPECT_FALSE(cell_hazard(c));
  c.near_pole = true;
  auto h = cell_hazard(c);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->kind, "precision");
  EXPECT_EQ(h->program, 'a');
  c.b = exact + 2 * ulp;  // the other program 2 ulps off: no evidence of what the formats allow
  EXPECT_FALSE(cell_hazard(c));
}

TEST(HazardRules, OutputsAlikeNeedNoExactValue) {
  const double ulp = 0x1p-23;
  EXPECT_TRUE(floats_alike(ieee::Format::F32, 1.0, 1.0 + 2 * ulp));
  EXPECT_FALSE(floats_alike(ieee::Format::F32, 1.0, 1.0 + 3 * ulp));
  EXPECT_FALSE(floats_alike(ieee::Format::F32, 0.0, 1e-30));
  EXPECT_FALSE(floats_alike(ieee::Format::F32, kNaN, kNaN));
  EXPECT_TRUE(floats_alike(ieee::Format::F32, 0.0, -0.0));
  // Negative outputs by their magnitudes: equal ones are alike, as equal positive ones are.
  EXPECT_TRUE(floats_alike(ieee::Format::F32, -1.0, -1.0));
  EXPECT_TRUE(floats_alike(ieee::Format::F32, -0.75, -0.75));
  EXPECT_TRUE(floats_alike(ieee::Format::F32, -1.0, -1.0 - 2 * ulp));
  EXPECT_FALSE(floats_alike(ieee::Format::F32, -1.0, -1.0 - 3 * ulp));
  EXPECT_FALSE(floats_alike(ieee::Format::F32, -1.0, 1.0));
  // Whatever the exact value, outputs this close never make a precision hazard.
  for (long double x : {1.0L, 1.0L - 0x1p-20L, 0.5L, 1e-5L, 4.0L}) EXPECT_FALSE(cell_hazard(cell(1.0, 1.0 + 2 * ulp, x)));
  for (long double x : {-1.0L, -1.0L + 0x1p-20L, -0.5L, -1e-5L, -4.0L}) EXPECT_FALSE(cell_hazard(cell(-1.0, -1.0 - 2 * ulp, x)));
}

instance::Instance hazard_case(const std::string& name) {
  return instance::load_instance(std::string(RACER_SOURCE_DIR) + "/tests/hazards/" + name + ".toml");
}

const FloatHazard* find(const CheckResult& r, const std::string& kind, char program) {
  for (const auto& h : r.float_hazards.hazards)
    if (h.kind == kind && h.program == program) return &h;
  return nullptr;
}

// The input a hazard reports makes the emulator produce the very bits it reports: at its cell,
// or for an intermediate, at the instruction it names (and the other program makes none such).
void expect_replays(const instance::Instance& inst, const FloatHazard& h) {
  Prepared prep(inst);
  ConcreteRun run = run_concrete(prep, h.values);
  ASSERT_TRUE(run.refusal.empty()) << run.refusal;
  int mine = h.program == 'a' ? 0 : 1;
  if (h.intermediate) {
    bool made = false;
    for (const FloatEvent& e : run.float_events[mine])
      made |= e.kind == h.kind && e.bits == h.bits && h.origin.find("PTX line " + std::to_string(e.site.ptx_line) + " ") != std::string::npos;
    EXPECT_TRUE(made) << h.message;
    for (const FloatEvent& e : run.float_events[1 - mine]) EXPECT_NE(e.kind, h.kind) << h.message;
    return;
  }
  EXPECT_EQ(run.outputs[mine][h.output][static_cast<size_t>(h.flat_cell)], h.bits) << h.message;
  EXPECT_EQ(run.outputs[1 - mine][h.output][static_cast<size_t>(h.flat_cell)], h.other_bits) << h.message;
}

struct Expected {
  const char* name;
  const char* kind;
  char program;
  const char* origin = "";  // the instruction that first makes a non-finite value (NaN, overflow)
};

class HazardCases : public ::testing::TestWithParam<Expected> {};

TEST_P(HazardCases, FoundReplayedAndTheVerdictUnchanged) {
  const Expected& e = GetParam();
  instance::Instance inst = hazard_case(e.name);
  CheckResult r = check_instance(inst);
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.reason;
  EXPECT_TRUE(r.float_hazards.searched) << r.float_hazards.summary;
  const FloatHazard* h = find(r, e.kind, e.program);
  ASSERT_TRUE(h) << e.kind << " in program " << e.program << " not found: " << r.float_hazards.summary;
  EXPECT_FALSE(h->values.empty());
  expect_replays(inst, *h);
  EXPECT_NE(h->origin.find(e.origin), std::string::npos) << h->origin;
  if (*e.origin && !h->intermediate) {
    EXPECT_NE(h->message.find("first non-finite value"), std::string::npos) << h->message;
  }
  if (std::string(e.kind) == "precision") {
    EXPECT_GE(h->error_ulps, kHazardUlps);
    EXPECT_GE(h->error_ulps, kHazardRatio * std::max(h->other_error_ulps, 1.0));
  }
  // Off, the verdict is the same and nothing is searched.
  CheckOptions off;
  off.hazard_points = 0;
  CheckResult quiet = check_instance(inst, off);
  EXPECT_EQ(quiet.verdict, r.verdict);
  EXPECT_TRUE(quiet.float_hazards.hazards.empty());
}

INSTANTIATE_TEST_SUITE_P(Instances, HazardCases,
                         ::testing::Values(Expected{"h01_softmax_max_with_masked_zero", "nan", 'a', "div.full.f32"},
                                           Expected{"h02_logsumexp_without_max", "overflow", 'a', "ex2.approx.f32"},
                                           Expected{"h03_variance_one_pass_vs_two_pass", "precision", 'a'},
                                           Expected{"h04_f16_accumulator_vs_f32", "precision", 'a'},
                                           Expected{"h04_f16_accumulator_vs_f32", "overflow", 'a', "cvt.rn.f16.f32"},
                                           Expected{"h05_fast_exp_vs_expf", "precision", 'a'},
                                           Expected{"h07_cube_overflows_then_clamped", "overflow", 'a', "mul.f32"},
                                           Expected{"h08_quotient_near_its_pole", "precision", 'a'},
                                           Expected{"h09_log_near_its_zero", "precision", 'a'}),
                         [](const auto& info) { return std::string(info.param.name).substr(0, 3) + "_" + info.param.kind; });

TEST(HazardCases, TheFinePairHasNone) {
  CheckOptions thorough;
  thorough.hazard_points = 24;
  thorough.hazard_instruction_budget = 0;  // every input, as --float-hazards
  CheckResult r = check_instance(hazard_case("h06_softmax_fine_pair"), thorough);
  EXPECT_EQ(r.verdict, Verdict::Equivalent);
  EXPECT_TRUE(r.float_hazards.searched);
  EXPECT_EQ(r.float_hazards.runs, 24u);
  EXPECT_TRUE(r.float_hazards.hazards.empty()) << r.float_hazards.hazards.front().message;
}

// Big kernels get fewer inputs, by a count of emulated instructions, never by the clock: the
// same check reports the same on a loaded machine.
TEST(HazardCases, TheDefaultBudgetCountsInstructions) {
  instance::Instance inst = hazard_case("h03_variance_one_pass_vs_two_pass");
  CheckResult full = check_instance(inst);
  EXPECT_EQ(full.float_hazards.runs, 3u) << full.float_hazards.summary;
  CheckOptions tight;
  tight.hazard_instruction_budget = full.thread_instructions * 2;  // room for two inputs
  CheckResult two = check_instance(inst, tight);
  EXPECT_EQ(two.float_hazards.runs, 2u);
  EXPECT_NE(two.float_hazards.summary.find("2 inputs of 3"), std::string::npos) << two.float_hazards.summary;
  tight.hazard_instruction_budget = 1;  // one input at least
  EXPECT_EQ(check_instance(inst, tight).float_hazards.runs, 1u);
}

const PrecisionChange* change(const CheckResult& r, char program, const std::string& what) {
  for (const auto& c : r.float_hazards.precision_changes)
    if (c.program == program && c.what == what) return &c;
  return nullptr;
}

TEST(PrecisionChanges, NarrowingAndApproximationNamedWithTheirLines) {
  CheckOptions off;
  off.hazard_points = 0;  // listed whether or not the hazard search runs
  CheckResult f16 = check_instance(hazard_case("h04_f16_accumulator_vs_f32"), off);
  const PrecisionChange* cvt = change(f16, 'a', "cvt f32 -> f16");
  ASSERT_TRUE(cvt);
  EXPECT_EQ(cvt->kind, "narrowing");
  EXPECT_GT(cvt->ptx_line, 0u);
  // Inside cuda_fp16.hpp's __float2half, named at the kernel's line that calls it.
  EXPECT_EQ(cvt->source.rfind("tests/hazards/kernels/hazards.cu:", 0), 0u) << cvt->source;
  EXPECT_FALSE(change(f16, 'b', "cvt f32 -> f16"));

  CheckResult exp = check_instance(hazard_case("h05_fast_exp_vs_expf"), off);
  const PrecisionChange* fast = change(exp, 'a', "ex2.approx.f32");
  ASSERT_TRUE(fast);
  EXPECT_EQ(fast->kind, "approximation");
  EXPECT_NE(fast->instruction.find("ex2.approx.f32"), std::string::npos);
}

TEST(PrecisionChanges, NoneWhereBothSidesLowerPrecisionAlike) {
  // The same kernel on both sides: every form it has, the other side has.
  instance::Instance inst = hazard_case("h05_fast_exp_vs_expf");
  inst.b = inst.a;
  CheckResult r = check_instance(inst);
  EXPECT_TRUE(r.float_hazards.precision_changes.empty());
  EXPECT_TRUE(r.float_hazards.hazards.empty());
}

// The inputs found from the expressions: log(sum(exp(x))) without the max has exp(x) itself,
// and along the line of equal inputs in [-20, 100] its argument crosses ln(FLT_MAX) = 88.72
// at x just above it; there the naive side overflows and the stable side does not.
TEST(HazardPoints, ExpArgumentsCrossingTheOverflowThreshold) {
  instance::Instance inst = hazard_case("h02_logsumexp_without_max");
  Execution ex(inst, exec::Limits{});
  bool refused = false;
  ASSERT_EQ(ex.run(refused), "");
  std::vector<expr::ExprId> roots;
  for (char side : {'a', 'b'})
    for (int64_t c = 0; c < 4; ++c) roots.push_back(ex.cell(side, ex.prep().output_tensors()[0], c));
  EXPECT_FALSE(exp_arguments(ex.store(), roots, 64).empty());
  decide::FloatModel narrowest = coarser(float_model(ex.prep(), 'a'), float_model(ex.prep(), 'b'));
  std::vector<ProvokingPoint> points = provoking_points(ex, roots, narrowest, 3, 1);
  ASSERT_EQ(points.size(), 3u);
  const ProvokingPoint* crossing = nullptr;
  for (const auto& p : points)
    if (p.how.find("crosses") != std::string::npos) crossing = &p;
  ASSERT_TRUE(crossing) << points[1].how;
  EXPECT_NE(crossing->how.find("overflow"), std::string::npos) << crossing->how;
  for (const WitnessValue& w : crossing->point.values()) {
    EXPECT_GT(w.value.get_d(), 88.72);  // just beyond the threshold
    EXPECT_LT(w.value.get_d(), 88.8);
  }
  ConcreteRun run = run_concrete(ex.prep(), crossing->point.concrete());
  EXPECT_TRUE(std::isinf(cell_value(ptx::Type::F32, run.outputs[0][0][0])));   // naive: exp overflows
  EXPECT_TRUE(std::isfinite(cell_value(ptx::Type::F32, run.outputs[1][0][0])));  // with the running max
}

// w / (u^2 - v^2) with u, v in [0.3, 3.1]: the denominator crosses 0 where u = v, which the
// line of equal fractions never leaves and the crossed line passes at its middle; the point
// is on the denominator's positive side, u and v neighbours in f32 but not equal.
TEST(HazardPoints, DivisionDenominatorCrossingZero) {
  instance::Instance inst = hazard_case("h08_quotient_near_its_pole");
  Execution ex(inst, exec::Limits{});
  bool refused = false;
  ASSERT_EQ(ex.run(refused), "");
  std::vector<expr::ExprId> roots;
  for (char side : {'a', 'b'})
    for (int64_t c = 0; c < 32; ++c) roots.push_back(ex.cell(side, ex.prep().output_tensors()[0], c));
  EXPECT_FALSE(pole_operands(ex.store(), roots, false, 16).empty());
  EXPECT_TRUE(pole_operands(ex.store(), roots, true, 16).empty());  // no logarithm
  decide::FloatModel narrowest = coarser(float_model(ex.prep(), 'a'), float_model(ex.prep(), 'b'));
  std::vector<ProvokingPoint> points = provoking_points(ex, roots, narrowest, 3, 1);
  ASSERT_EQ(points.size(), 3u);
  EXPECT_NE(points[1].how.find("a division's denominator"), std::string::npos) << points[1].how;
  std::map<std::string, double> at;
  for (const WitnessValue& w : points[1].point.values()) at[w.name] = w.value.get_d();
  for (int i = 0; i < 32; ++i) {
    double u = at["u[" + std::to_string(i) + "]"], v = at["v[" + std::to_string(i) + "]"];
    EXPECT_NE(u, v);
    EXPECT_LT(std::fabs(u - v), 1e-6) << i;
  }
}

TEST(HazardPoints, LogarithmArgumentsAreListed) {
  expr::Store st;
  expr::ExprId x = st.symbol("x"), y = st.symbol("y");
  expr::ExprId arg = st.add(x, st.neg(y));
  expr::ExprId root = st.func(expr::FuncKind::Log, arg);
  std::vector<expr::ExprId> logs = pole_operands(st, {root}, true, 16);
  ASSERT_EQ(logs.size(), 1u);
  EXPECT_EQ(logs[0].index, arg.index);
  EXPECT_TRUE(pole_operands(st, {st.func(expr::FuncKind::Log, x)}, true, 16).empty());  // an input: the sampler's ends
}

TEST(HazardPoints, LargestPutsEveryCellAtTheEndOfLargestMagnitude) {
  instance::Instance inst = hazard_case("h01_softmax_max_with_masked_zero");  // x in [-200, -100]
  Execution ex(inst, exec::Limits{});
  bool refused = false;
  ASSERT_EQ(ex.run(refused), "");
  PointSampler sampler(ex, 7);
  for (const WitnessValue& w : sampler.draw(PointStyle::Largest).values()) EXPECT_EQ(w.value, -200);
  for (const WitnessValue& w : sampler.draw(PointStyle::NearlyEqualLargest).values()) {
    EXPECT_GE(w.value.get_d(), -200);
    EXPECT_LT(w.value.get_d(), -199.9);
  }
  for (const WitnessValue& w : sampler.uniform(0.25).values()) EXPECT_EQ(w.value, -175);
}

FloatEvent event(const std::string& kind, uint32_t instr, uint64_t bits, uint64_t count = 1) {
  FloatEvent e;
  e.kind = kind;
  e.site.instr = instr;
  e.site.ptx_line = 40 + instr;
  e.site.text = "mul.f32 %f3, %f1, %f2;";
  e.type = ptx::Type::F32;
  e.bits = bits;
  e.count = count;
  return e;
}

const AsksBeyond kAsked = [](char, const std::string&, ieee::Format) { return true; };

// An intermediate that leaves the format in one program only is a hazard of its own; what
// both programs do alike, what an output hazard already names, what the exact expressions do
// not ask for, and events past the placed ones of the other program are not.
TEST(IntermediateHazards, OneProgramOnlyAndAskedForByTheExactExpressions) {
  ConcreteRun run;
  run.float_events[0] = {event("overflow", 7, 0x7f800000u, 32), event("underflow", 9, 0)};
  run.float_events[1] = {event("underflow", 3, 0x80000000u)};  // b underflows too: alike
  auto found = intermediate_hazards(run, {}, kAsked);
  ASSERT_EQ(found.size(), 1u);
  const FloatHazard& h = found[0].second;
  EXPECT_EQ(h.kind, "overflow");
  EXPECT_EQ(h.program, 'a');
  EXPECT_TRUE(h.intermediate);
  EXPECT_EQ(h.bits, 0x7f800000u);
  EXPECT_EQ(h.cells, 32u);
  EXPECT_NE(h.origin.find("PTX line 47"), std::string::npos) << h.origin;
  EXPECT_EQ(found[0].first, (InstructionKey{'a', 0, 7}));
  // The instruction an output hazard names as its origin is that hazard's story.
  EXPECT_TRUE(intermediate_hazards(run, {InstructionKey{'a', 0, 7}}, kAsked).empty());
  // Not asked for by a's exact expressions: an implementation's scaling selected away.
  EXPECT_TRUE(intermediate_hazards(run, {}, [](char, const std::string&, ieee::Format) { return false; }).empty());
  // A zero from a narrowing conversion is the conversion's rounding (f32 -> f16 of a 1e-9).
  ConcreteRun narrowed;
  narrowed.float_events[0] = {event("underflow", 4, 0)};
  narrowed.float_events[0][0].conversion = true;
  EXPECT_TRUE(intermediate_hazards(narrowed, {}, kAsked).empty());
  narrowed.float_events[0][0].conversion = false;  // an ex2 or a product: a hazard
  EXPECT_EQ(intermediate_hazards(narrowed, {}, kAsked).size(), 1u);
  // b made events it did not place: they may be overflows.
  run.events_unplaced[1] = 1;
  EXPECT_TRUE(intermediate_hazards(run, {}, kAsked).empty());
}

TEST(IntermediateHazards, AskedForWhereASubexpressionLeavesTheFormat) {
  expr::Store st;
  expr::ExprId x = st.symbol("x");
  expr::ExprId cube = st.mul(x, st.mul(x, x));
  expr::ExprId clamped = st.min(cube, st.constant(mpq_class(1000)));
  expr::Assignment at;
  at.set(x, mpq_class("10000000000000"));  // x^3 = 1e39 > FLT_MAX
  decide::RoundingBound exact = exact_values(st, at);
  EXPECT_TRUE(asks_beyond(st, exact, {clamped}, "overflow", ieee::Format::F32));
  EXPECT_FALSE(asks_beyond(st, exact, {clamped}, "underflow", ieee::Format::F32));
  expr::Assignment small;
  small.set(x, mpq_class(3));
  decide::RoundingBound exact_small = exact_values(st, small);
  EXPECT_FALSE(asks_beyond(st, exact_small, {clamped}, "overflow", ieee::Format::F32));
}

ProvokingPoint at_input(const std::string& how) {
  ProvokingPoint p;
  p.how = how;
  return p;
}

FloatHazard nan_at(int64_t cell) {
  FloatHazard h;
  h.kind = "nan";
  h.program = 'a';
  h.flat_cell = cell;
  h.cell = "y[" + std::to_string(cell) + "]";
  return h;
}

// Several hazards of one kind, program and output when they are at other cells or start at
// other instructions; at most kPerKind, the cells beyond counted on the last one listed.
TEST(HazardListing, OtherCellsListedUpToABoundTheRestCounted) {
  HazardList list;
  std::vector<FloatHazard> first = {nan_at(0), nan_at(1)};
  list.add_output(first, InstructionKey{'a', 0, 5}, at_input("first"));
  std::vector<FloatHazard> again = {nan_at(1), nan_at(0)};  // the same cells and origin: alike
  list.add_output(again, InstructionKey{'a', 0, 5}, at_input("again"));
  std::vector<FloatHazard> elsewhere = {nan_at(1), nan_at(2)};
  list.add_output(elsewhere, InstructionKey{'a', 0, 5}, at_input("elsewhere"));
  std::vector<FloatHazard> new_origin = {nan_at(0)};
  list.add_output(new_origin, InstructionKey{'a', 0, 6}, at_input("from another instruction"));
  for (int64_t c = 3; c < 9; ++c) {
    std::vector<FloatHazard> more = {nan_at(c)};
    list.add_output(more, InstructionKey{'a', 0, 5}, at_input("cell " + std::to_string(c)));
  }
  std::vector<FloatHazard> kept = list.take();
  ASSERT_EQ(kept.size(), HazardList::kPerKind);
  EXPECT_EQ(kept[0].input, "first");
  EXPECT_EQ(kept[0].cells, 2u);
  EXPECT_EQ(kept[1].input, "elsewhere");
  EXPECT_EQ(kept[1].cell, "y[2]");  // the cell new to this kind
  EXPECT_EQ(kept[2].input, "from another instruction");
  EXPECT_EQ(kept[3].input, "cell 3");
  EXPECT_EQ(kept[3].more, 5u);  // cells 4 to 8, not listed
}

TEST(HazardListing, IntermediatesOncePerInstruction) {
  HazardList list;
  FloatHazard h;
  h.kind = "overflow";
  h.intermediate = true;
  list.add_intermediate(h, InstructionKey{'a', 0, 7}, at_input("first"));
  list.add_intermediate(h, InstructionKey{'a', 0, 7}, at_input("again"));
  list.add_intermediate(h, InstructionKey{'a', 0, 8}, at_input("another instruction"));
  std::vector<FloatHazard> kept = list.take();
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[1].input, "another instruction");
}

}  // namespace
}  // namespace racer::check
