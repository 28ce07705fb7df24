// Step 4, the case split: piecewise sides proved piece by piece, infeasible pieces pruned
// exactly, and witnesses built from a piece's conditions. Every example that the case split
// proves is also given to Z3 alone (case split off), the second prover.
#include "fixture.hpp"

namespace racer::decide::test {
namespace {

using expr::CmpOp;

class CaseSplitTest : public DecideTest {
 protected:
  ExprId gt(ExprId a, ExprId b) { return s.cmp(CmpOp::Gt, a, b); }
  ExprId ge(ExprId a, ExprId b) { return s.cmp(CmpOp::Ge, a, b); }
  ExprId lt(ExprId a, ExprId b) { return s.cmp(CmpOp::Lt, a, b); }
  ExprId le(ExprId a, ExprId b) { return s.cmp(CmpOp::Le, a, b); }
  ExprId sel(ExprId c, ExprId t, ExprId e) { return s.select(c, t, e); }
  ExprId not_(ExprId c) { return sel(c, s.false_value(), s.true_value()); }
  ExprId and_(ExprId p, ExprId q) { return sel(p, q, s.false_value()); }
  ExprId or_(ExprId p, ExprId q) { return sel(p, s.true_value(), q); }

  // Proved by the case split, and (with the case split off) by Z3.
  void expect_proved(ExprId a, ExprId b) {
    CellDecision r = decide(a, b);
    EXPECT_EQ(r.status, CellStatus::Proved) << str(a) << " vs " << str(b) << ": " << r.reason;
    EXPECT_EQ(r.step, "case split") << str(a) << " vs " << str(b);
    DeciderOptions o;
    o.use_case_split = false;
    r = decide(a, b, o);
    EXPECT_EQ(r.status, CellStatus::Proved) << "Z3 alone: " << str(a) << " vs " << str(b) << ": " << r.reason;
    EXPECT_EQ(r.step, "Z3 (unsat)");
  }

  CellDecision expect_refuted_by_split(ExprId a, ExprId b) {
    CellDecision r = decide(a, b);
    EXPECT_EQ(r.status, CellStatus::Refuted) << str(a) << " vs " << str(b) << ": " << r.reason;
    EXPECT_EQ(r.step, "case split, refuted by exact evaluation");
    return r;
  }

  std::vector<ExprId> lanes(int n) {
    std::vector<ExprId> xs;
    for (int i = 0; i < n; ++i) {
      xs.push_back(sym("lane" + std::to_string(i)));
      domains[xs.back()] = SymbolDomain{std::nullopt, std::nullopt, Grid::F32};
    }
    return xs;
  }
};

TEST_F(CaseSplitTest, ReluAsMaxAndAsSelect) {
  // select(0 < x, x, 0) is max(x, 0) to the atom normalizer already; with the comparison
  // scaled (0 < 2x) it is a case for the split.
  CellDecision r = decide(s.max(x, c(0)), sel(gt(x, c(0)), x, c(0)));
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  expect_proved(s.max(x, c(0)), sel(gt(s.mul(c(2), x), c(0)), x, c(0)));
}

TEST_F(CaseSplitTest, ARoundingLevelWitnessDoesNotEndTheSearchForALargerDifference) {
  // a = x (1 + 2^-23) off the band 0.499 < x < 0.501 and that plus 1/2 on it, against b = x:
  // the piece off the band comes first and differs by one ulp only; the witness must come
  // from the band, where the difference is 1/2 (equal up to rounding otherwise).
  domains[x] = SymbolDomain{mpq_class(-1), mpq_class(1), Grid::F32};
  ExprId scaled = s.mul(q(8388609, 8388608), x);
  ExprId off_band = or_(lt(x, q(499, 1000)), gt(x, q(501, 1000)));
  ExprId a = sel(off_band, scaled, s.add(scaled, q(1, 2)));
  CellDecision r = decide(a, x);
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  ASSERT_TRUE(r.value_a && r.value_b);
  EXPECT_GT(abs(*r.value_a - *r.value_b), mpq_class(1, 4)) << r.step;
  // Where every piece differs at rounding level only, that is the refutation.
  r = decide(a, sel(off_band, x, s.add(x, q(1, 2))));
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_LT(abs(*r.value_a - *r.value_b), mpq_class(1, 1000000)) << r.step;
}

TEST_F(CaseSplitTest, HardshrinkWrittenTwoWays) {
  ExprId h = q(1, 2), mh = q(-1, 2);
  ExprId a = sel(lt(h, x), x, sel(lt(x, mh), x, c(0)));
  ExprId b = sel(sel(lt(h, x), s.true_value(), lt(x, mh)), x, c(0));
  expect_proved(a, b);
  // With <= on one side the two differ at x = 1/2 exactly.
  ExprId b2 = sel(sel(le(h, x), s.true_value(), lt(x, mh)), x, c(0));
  CellDecision r = decide(a, b2);
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_EQ(witness(r, x), mpq_class(1, 2));
}

TEST_F(CaseSplitTest, ClampInEitherOrder) {
  // With constant bounds the store writes both orders one way (ExprTest.ClampsHaveOneForm);
  // bounds that are symbols need the split.
  ExprId top = s.add(y, c(1));
  expect_proved(s.min(s.max(x, y), top), s.max(s.min(x, top), y));
  // Clamping to [0, 1] against [0, 2]: the pieces x in (1, 2] differ.
  CellDecision r = decide(s.min(s.max(x, c(0)), c(1)), s.max(s.min(x, c(2)), c(0)));
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_GT(witness(r, x), 1);
}

TEST_F(CaseSplitTest, AbsOnARangeAndOffIt) {
  ExprId a = s.abs(x);
  CellDecision r = expect_refuted_by_split(a, x);
  EXPECT_LT(witness(r, x), 0);
  domains[x] = SymbolDomain{mpq_class(0), mpq_class(1), Grid::F32};
  expect_proved(a, x);
  // abs inside a function and of a difference.
  domains.clear();
  expect_proved(s.sqrt(s.abs(s.sub(x, y))), sel(le(y, x), s.sqrt(s.sub(x, y)), s.sqrt(s.sub(y, x))));
}

// max(x, y) = y when the ranges say x <= y; on the piece x >= y the ranges force x = y = 1,
// an equality only the exact elimination finds (neither comparison states it).
TEST_F(CaseSplitTest, RangesMakeMaxOneSide) {
  domains[x] = SymbolDomain{mpq_class(0), mpq_class(1), Grid::F32};
  domains[y] = SymbolDomain{mpq_class(1), mpq_class(2), Grid::F32};
  expect_proved(s.max(x, y), y);
  expect_proved(s.min(x, y), x);
  // Overlapping ranges: x = 3/2 > y = 1 is a witness.
  domains[x] = SymbolDomain{mpq_class(0), mpq_class(3, 2), Grid::F32};
  CellDecision r = decide(s.max(x, y), y);
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_GT(witness(r, x), witness(r, y));
}

TEST_F(CaseSplitTest, InfeasiblePiecesArePruned) {
  // The piece x < 0 and x > 1 does not exist; nothing else tells the 5 from y.
  ExprId a = sel(lt(x, c(0)), sel(gt(x, c(1)), c(5), y), y);
  expect_proved(a, y);
  // Infeasible with a range: x in [2, 3] never meets x < 1.
  domains[z] = SymbolDomain{mpq_class(2), mpq_class(3), Grid::Real};
  expect_proved(sel(lt(z, c(1)), c(7), s.mul(z, z)), s.mul(z, z));
  // Infeasible through two symbols: x < y, y < z2, z2 < x.
  ExprId z2 = sym("z2");
  expect_proved(sel(lt(x, y), sel(lt(y, z2), sel(lt(z2, x), c(9), c(1)), c(1)), c(1)), c(1));
}

TEST_F(CaseSplitTest, EqualitiesOfAPieceAreSubstituted) {
  // On the piece x == 1/2 the sides are 1/2 and x.
  expect_proved(sel(s.cmp(CmpOp::Eq, x, q(1, 2)), q(1, 2), x), x);
  // x <= y and not x < y: x = y there.
  expect_proved(sel(le(x, y), sel(lt(x, y), x, y), y), sel(lt(x, y), x, y));
}

TEST_F(CaseSplitTest, NaryMaxAndConditions) {
  expect_proved(s.max(std::vector<ExprId>{x, y, z}), sel(ge(x, y), s.max(x, z), s.max(y, z)));
  // Conditions as cells: (x < 1 and x < 2) is x < 1.
  expect_proved(and_(lt(x, c(1)), lt(x, c(2))), lt(x, c(1)));
}

// Sums of select(c_i, 1, 0) counted two ways: the lanes are independent, so each lane's
// pair of terms is split on its own (2 pieces, not 2^32) and found to be the constant 1.
TEST_F(CaseSplitTest, CountsOfConditionsTwoWays) {
  std::vector<ExprId> xs = lanes(32);
  std::vector<ExprId> pos, nonpos;
  for (ExprId v : xs) {
    pos.push_back(sel(gt(v, c(0)), c(1), c(0)));
    nonpos.push_back(sel(le(v, c(0)), c(1), c(0)));
  }
  ExprId a = s.add(pos);
  ExprId b = s.sub(c(32), s.add(nonpos));
  CellDecision r = decide(a, b);
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  // (The two selects on each lane's comparison in the difference are one select, of 1 on both
  // branches: proved before any case split.)
  EXPECT_EQ(r.step, "polynomial normal form");
  // One lane counted with < instead of <=: the counts differ where that lane is 0.
  nonpos[17] = sel(lt(xs[17], c(0)), c(1), c(0));
  r = decide(a, s.sub(c(32), s.add(nonpos)));
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_EQ(witness(r, xs[17]), 0);
}

// vote.all as a chain of selects against the negated vote.any of the negations.
TEST_F(CaseSplitTest, VoteAllAgainstNegatedAny32Lanes) {
  std::vector<ExprId> xs = lanes(32);
  std::vector<ExprId> p;
  for (ExprId v : xs) p.push_back(ge(v, c(0)));
  auto all = [&](const std::vector<ExprId>& conds) {
    ExprId acc = s.true_value();
    for (size_t i = conds.size(); i-- > 0;) acc = and_(conds[i], acc);
    return acc;
  };
  auto not_any_not = [&](const std::vector<ExprId>& conds) {
    ExprId acc = s.false_value();
    for (size_t i = conds.size(); i-- > 0;) acc = or_(not_(conds[i]), acc);
    return not_(acc);
  };
  CellDecision r = decide(all(p), not_any_not(p));
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  EXPECT_EQ(r.step, "case split");

  // The same on numbers, with the last lane strict on one side: they differ only where
  // every lane is >= 0 and lane 31 is exactly 0, a point no seeded search meets.
  std::vector<ExprId> p2 = p;
  p2[31] = gt(xs[31], c(0));
  ExprId a = sel(all(p), c(1), c(0)), b = sel(not_any_not(p2), c(1), c(0));
  r = expect_refuted_by_split(a, b);
  ASSERT_EQ(r.status, CellStatus::Refuted);
  for (ExprId v : xs) EXPECT_GE(witness(r, v), 0);
  EXPECT_EQ(witness(r, xs[31]), 0);
  EXPECT_EQ(*r.value_a, 1);
  EXPECT_EQ(*r.value_b, 0);
  // Re-checked here too, by exact evaluation of the original sides.
  expr::Assignment at;
  for (ExprId v : xs) at.set(v, witness(r, v));
  EXPECT_EQ(expr::eval_exact(s, a, at), mpq_class(1));
  EXPECT_EQ(expr::eval_exact(s, b, at), mpq_class(0));
  // Without the case split and Z3, the point search does not find it.
  DeciderOptions o;
  o.use_case_split = false;
  o.use_z3 = false;
  EXPECT_EQ(decide(a, b, o).status, CellStatus::Unknown);
}

TEST_F(CaseSplitTest, UndefinedOnOnePieceIsNotProved) {
  // NaN for x < 0 on one side only: equal wherever both are defined, but not proved away.
  ExprId a = sel(lt(x, c(0)), s.undefined(), x);
  CellDecision r = decide(a, x);
  EXPECT_EQ(r.status, CellStatus::Unknown) << r.step;
  EXPECT_NE(r.reason.find("undefined"), std::string::npos) << r.reason;
  // Undefined on the same piece on both sides is fine.
  r = decide(a, sel(lt(x, c(0)), s.undefined(), s.abs(x)));
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
}

TEST_F(CaseSplitTest, BudgetIsReported) {
  // 12 independent lanes in one product: 2^12 pieces, beyond a budget of 64.
  std::vector<ExprId> xs = lanes(12);
  ExprId a = c(1), b = c(1);
  for (ExprId v : xs) {
    a = s.mul(a, s.max(v, c(1)));
    b = s.mul(b, sel(gt(s.mul(c(2), v), c(2)), v, c(1)));  // (2v > 2: no max to the atom normalizer)
  }
  DeciderOptions o;
  o.case_split.max_pieces = 64;
  o.use_z3 = false;
  CellDecision r = decide(a, b, o);
  EXPECT_EQ(r.status, CellStatus::Unknown);
  EXPECT_NE(r.reason.find("more than 64 pieces"), std::string::npos) << r.reason;
}

}  // namespace
}  // namespace racer::decide::test


namespace racer::decide::test {
namespace {

using expr::CmpOp;

// Conditions on atoms (log of a sum of exps against an input) and pieces of measure zero.
class CaseSplitOnAtomsTest : public DecideTest {
 protected:
  ExprId lse = s.log(s.add(s.exp(y), s.exp(z)));
  ExprId d = s.sub(lse, x);  // a logsumexp minus a logit: the margin cross-entropy takes softplus of
  // softplus(d) = max(d, 0) + log1p(exp(-|d|)), the form that never overflows.
  ExprId stable = s.add(s.max(d, s.zero()), s.log(s.add(s.one(), s.exp(s.neg(s.abs(d))))));
  ExprId plain = s.log(s.add(s.one(), s.exp(d)));
};

TEST_F(CaseSplitOnAtomsTest, StableSoftplusOfAMarginMeetsThePlainForm) {
  // Pieces: max picks 0 where d <= 0, abs picks d where d >= 0. Their crossings are ruled out
  // (d > 0 with -d > 0) only with the log an unknown of the linear arithmetic, and the one
  // left, d = 0, is a set of measure zero: the sides are continuous, so it needs no proof
  // (substituting d = 0 would leave log 2 against log(1 + exp(d)), equal only through d = 0).
  CellDecision r = decide(stable, plain);
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  EXPECT_EQ(r.step, "case split");
  // The unsloth cross-entropy loss against log(sum of every exp) - x.
  ExprId loss = s.sub(s.log(s.add(std::vector<ExprId>{s.exp(x), s.exp(y), s.exp(z)})), x);
  r = decide(stable, loss);
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
}

TEST_F(CaseSplitOnAtomsTest, APieceOfMeasureZeroCountsWhereASideJumps) {
  // The same sides plus 1 exactly where d = 0: a select, not continuous, so the piece d = 0
  // must be decided, and there the sides differ. No witness lies on it (d = 0 needs
  // log(e^y + e^z) = x exactly), so the answer is Unknown, never Proved.
  ExprId jump = s.add(stable, s.select(s.cmp(CmpOp::Eq, d, s.zero()), s.one(), s.zero()));
  CellDecision r = decide(jump, plain);
  EXPECT_NE(r.status, CellStatus::Proved) << r.step;
  // Where the jump is on a linear condition, the witness is found on the piece x = 0.
  ExprId relu_jump = s.add(s.max(x, s.zero()), s.select(s.cmp(CmpOp::Eq, x, s.zero()), s.one(), s.zero()));
  r = decide(relu_jump, s.div(s.add(x, s.abs(x)), c(2)));
  ASSERT_EQ(r.status, CellStatus::Refuted) << r.reason;
  EXPECT_EQ(r.witness.at(x.index), 0);
}

TEST_F(CaseSplitOnAtomsTest, ContradictoryConditionsOnAnAtomArePruned) {
  // log(s) > x and then log(s) < x - 1 cannot both hold: the piece with 5 does not exist.
  ExprId a = s.select(s.cmp(CmpOp::Gt, lse, x), s.select(s.cmp(CmpOp::Lt, lse, s.sub(x, c(1))), c(5), y), y);
  CellDecision r = decide(a, y);
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
}

}  // namespace
}  // namespace racer::decide::test
