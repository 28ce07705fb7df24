// Step 6, Z3: proofs by unsat (nonlinear, with uninterpreted functions), refutations only
// through models that exact evaluation confirms, and Unknown on limits.
#include "fixture.hpp"

namespace racer::decide::test {
namespace {

using expr::CmpOp;

ExprId square(expr::Store& s, ExprId v) { return s.mul(v, v); }

// x^2 + y^2 < 2xy - 1, i.e. (x - y)^2 < -1: never true, but not by interval bounds of the
// sides (2xy is unbounded), which settle x^2 + y^2 < 0 before any prover sees it.
ExprId never(expr::Store& s, ExprId x, ExprId y) {
  return s.cmp(CmpOp::Lt, s.add(square(s, x), square(s, y)), s.sub(s.mul(s.constant(2), s.mul(x, y)), s.constant(1)));
}

TEST_F(DecideTest, Z3ProvesNonlinearInfeasibility) {
  // (x - y)^2 < -1 never holds: the case split splits on it but cannot close the piece
  // (it is nonlinear), the search finds nothing, Z3 proves it.
  ExprId cond = never(s, x, y);
  CellDecision r = decide(s.select(cond, c(1), c(0)), c(0));
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  EXPECT_EQ(r.step, "Z3 (unsat)");
}

TEST_F(DecideTest, Z3ProvesWithUninterpretedFunctions) {
  // The simplest forms never reach Z3: the Store folds equal branches and equal arguments.
  EXPECT_EQ(decide(s.select(s.cmp(CmpOp::Gt, x, c(0)), s.exp(x), s.exp(x)), s.exp(x)).step, "identical");
  EXPECT_EQ(decide(s.max(s.exp(x), s.exp(x)), s.exp(x)).step, "identical");
  // exp(x) > 0, so the else branch is dead: the Store folds that comparison where it is built
  // (a positive shape against 0), before Z3 would see it as a fact about the uninterpreted exp.
  ExprId a = s.select(s.cmp(CmpOp::Lt, c(0), s.exp(x)), y, z);
  CellDecision r = decide(a, y);
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  EXPECT_EQ(r.step, "identical");
  // max(tanh(x), tanh(y)) = tanh(max(x, y)) needs tanh increasing; the atom normalizer takes
  // tanh out of the max, as it does exp: proved before Z3.
  r = decide(s.max(s.tanh(x), s.tanh(y)), s.tanh(s.max(x, y)));
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  EXPECT_EQ(r.step, "polynomial normal form");
  r = decide(s.max(s.exp(x), s.exp(y)), s.exp(s.max(x, y)));
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  EXPECT_EQ(r.step, "polynomial normal form");
  // Equal branches under a comparison of transcendental values.
  ExprId t = s.tanh(x);
  r = decide(s.select(s.cmp(CmpOp::Lt, t, s.erf(y)), s.mul(c(2), t), s.add(t, t)), s.mul(t, c(2)));
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  // sqrt is exact: sqrt(x^2 + 1) >= x. (sqrt(x^2 + 1) >= 1 is settled by bounds first.)
  ExprId root = s.sqrt(s.add(square(s, x), c(1)));
  r = decide(s.select(s.cmp(CmpOp::Le, c(1), root), root, c(0)), root);
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  EXPECT_EQ(r.step, "choices the input ranges fix");
  r = decide(s.select(s.cmp(CmpOp::Le, x, root), root, c(0)), root);
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  EXPECT_EQ(r.step, "Z3 (unsat)");
}

TEST_F(DecideTest, Z3LimitsGiveUnknownNotProved) {
  ExprId cond = never(s, x, y);
  ExprId a = s.select(cond, c(1), c(0));
  DeciderOptions o;
  o.z3.rlimit = 1;  // deterministic: Z3 runs out of resources at once
  CellDecision r = decide(a, c(0), o);
  EXPECT_EQ(r.status, CellStatus::Unknown);
  EXPECT_NE(r.reason.find("Z3"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("resource"), std::string::npos) << r.reason;
  o.z3.rlimit = 0;
  o.use_z3 = false;
  EXPECT_EQ(decide(a, c(0), o).status, CellStatus::Unknown);
  // A 1 ms timeout on a harder query: whatever Z3 manages, never a wrong Proved.
  o.use_z3 = true;
  o.z3.timeout_ms = 1;
  ExprId w = sym("w");
  ExprId poly = s.sub(s.pow_int(s.add(std::vector<ExprId>{x, y, z, w}), 6), s.pow_int(s.add(x, y), 6));
  ExprId b = s.select(s.cmp(CmpOp::Lt, poly, s.mul(x, w)), c(1), c(2));
  r = decide(b, c(2), o);
  EXPECT_NE(r.status, CellStatus::Proved) << r.step;
}

TEST(Z3Defaults, QueriesAreBoundedByTheResourceCountNotTheClock) {
  // A verdict must not change from run to run: Z3's resource count is the same for the same
  // query everywhere, its wall clock is not. The timeout only backs the count up, far beyond
  // what the count takes (a proof needing 8.8 M units took about 2 s on the 2-core machine).
  Z3Options o;
  EXPECT_GE(o.rlimit, 8'800'000u);
  EXPECT_GE(o.timeout_ms, 4000u);
}

TEST_F(DecideTest, Z3StopsAtTheChecksDeadline) {
  // Z3 runs in a child process killed at the deadline (the check's time limit), whatever its
  // own timeout: a deadline already passed skips it, a near one cuts a long query short.
  ExprId cond = never(s, x, y);
  ExprId a = s.select(cond, c(1), c(0));
  DeciderOptions o;
  o.z3.deadline = std::chrono::steady_clock::now();
  CellDecision r = decide(a, c(0), o);
  EXPECT_EQ(r.status, CellStatus::Unknown);
  EXPECT_NE(r.reason.find("the time limit is reached"), std::string::npos) << r.reason;
  o.z3.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  r = decide(a, c(0), o);
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  EXPECT_EQ(r.step, "Z3 (unsat)");
}

TEST_F(DecideTest, Z3ModelsAreConfirmedOnTheGrid) {
  // A disk of radius 2^-12 around (3/7, -5/11): only Z3 aims there. Its model is snapped
  // onto the f32 grid and confirmed by exact evaluation.
  for (ExprId v : {x, y}) domains[v] = SymbolDomain{std::nullopt, std::nullopt, Grid::F32};
  ExprId dx = s.sub(x, q(3, 7)), dy = s.add(y, q(5, 11));
  ExprId disk = s.cmp(CmpOp::Lt, s.add(square(s, dx), square(s, dy)), q("1/16777216"));
  CellDecision r = decide(s.select(disk, c(1), c(0)), c(0));
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_EQ(r.step, "Z3 model, refuted by exact evaluation");
  EXPECT_TRUE(on_grid(witness(r, x), Grid::F32));
  // Thin in f16: 2 < x^2 < 2 + 2^-8 holds between grid points 1448/1024 and 1449/1024 only
  // at 1449/1024.
  domains[z] = SymbolDomain{std::nullopt, std::nullopt, Grid::F16};
  ExprId z2 = square(s, z);
  ExprId band = s.select(s.cmp(CmpOp::Lt, c(2), z2), s.cmp(CmpOp::Lt, z2, q(513, 256)), s.false_value());
  r = decide(s.select(band, c(1), c(0)), c(0));
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_TRUE(on_grid(witness(r, z), Grid::F16));
  EXPECT_EQ(abs(witness(r, z)), mpq_class(1449, 1024));
  // x*y = 5/4 with x in [3/2, 3]: a model such as x = 3/2, y = 5/6 does not survive
  // snapping onto f32; Z3 is asked again on k/2^j values if needed. (The point search is off,
  // which would find x = 2, y = 5/8 on the boundary.)
  for (ExprId v : {x, y}) domains[v] = SymbolDomain{std::nullopt, std::nullopt, Grid::F32};
  domains[x].lo = mpq_class(3, 2);
  domains[x].hi = mpq_class(3);
  DeciderOptions o;
  o.points = 0;
  o.boundary_points = 0;
  o.use_case_split = false;
  r = decide(s.select(s.cmp(CmpOp::Eq, s.mul(x, y), q(5, 4)), c(1), c(0)), c(0), o);
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_EQ(r.step, "Z3 model, refuted by exact evaluation");
  EXPECT_EQ(witness(r, x) * witness(r, y), mpq_class(5, 4));
  // A model that no grid point confirms: x^2 = 2 has no rational root at all.
  r = decide(s.select(s.cmp(CmpOp::Eq, z2, c(2)), c(1), c(0)), c(0));
  EXPECT_EQ(r.status, CellStatus::Unknown);
  EXPECT_NE(r.reason.find("Z3 found a point"), std::string::npos) << r.reason;
}

TEST_F(DecideTest, Z3SkipsWhatItCannotEncode) {
  // log reaches -inf at 0: not encoded, so never proved by Z3. (log(x^2 + 1) >= 0 > 2xy - x^2 -
  // y^2 - 1: true, but no interval bound of the right side shows it.)
  ExprId right = s.sub(s.sub(s.mul(c(2), s.mul(x, y)), s.add(square(s, x), square(s, y))), c(1));
  ExprId a = s.select(s.cmp(CmpOp::Lt, s.log(s.add(square(s, x), c(1))), right), c(1), c(0));
  CellDecision r = decide(a, c(0));
  EXPECT_NE(r.status, CellStatus::Proved);
  EXPECT_NE(r.reason.find("Z3 skipped: log"), std::string::npos) << r.reason;
}

TEST_F(DecideTest, Z3UsesIntegerGrids) {
  // On integers, 0 < k < 1 is empty.
  domains[z] = SymbolDomain{std::nullopt, std::nullopt, Grid::Integer};
  ExprId open = s.select(s.cmp(CmpOp::Lt, c(0), z), s.cmp(CmpOp::Lt, s.mul(z, z), z), s.false_value());
  CellDecision r = decide(s.select(open, c(1), c(0)), c(0));
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
}

}  // namespace
}  // namespace racer::decide::test
