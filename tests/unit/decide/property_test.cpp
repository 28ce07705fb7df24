// Random identities and near-identities over random subterms: every Proved pair must agree
// at every point where both sides evaluate exactly (soundness), every Refuted one must carry
// a reproducing witness (the fixture checks), and the procedure should decide most of them.
#include <random>

#include "fixture.hpp"

namespace racer::decide::test {
namespace {

class Gen {
 public:
  Gen(expr::Store& s, std::vector<ExprId> leaves, uint32_t seed) : s_(s), leaves_(std::move(leaves)), rng_(seed) {}

  ExprId expr(int depth) {
    if (depth == 0 || pick(4) == 0) return leaf();
    ExprId a = expr(depth - 1), b = expr(depth - 1);
    switch (pick(11)) {
      case 0: return s_.add(a, b);
      case 1: return s_.sub(a, b);
      case 2:
      case 3: return s_.mul(a, b);
      case 4: return s_.div(a, b);
      case 5: return s_.pow_int(a, long(2 + pick(2)));
      case 6: return s_.exp(a);
      case 7: return s_.abs(a);
      case 8: return s_.max(a, b);
      case 9: return s_.sqrt(a);
      default: return s_.select(s_.cmp(expr::CmpOp::Lt, a, b), a, expr(depth - 1));
    }
  }

  uint32_t pick(uint32_t n) { return rng_() % n; }

  mpq_class small_rational() {
    long num = long(pick(17)) - 8;
    long den = 1L << pick(3);
    mpq_class q(num, den);
    q.canonicalize();
    return q;
  }

 private:
  ExprId leaf() {
    if (pick(3) == 0) return s_.constant(small_rational());
    return leaves_[pick(uint32_t(leaves_.size()))];
  }

  expr::Store& s_;
  std::vector<ExprId> leaves_;
  std::mt19937 rng_;
};

// Pairs that are identities of the reals where both sides are defined, written so that the
// Store alone does not see it.
std::pair<ExprId, ExprId> identity(expr::Store& s, Gen& g, ExprId e1, ExprId e2, ExprId e3) {
  switch (g.pick(5)) {
    case 0: {
      ExprId lhs = s.pow_int(s.add(e1, e2), 2);
      ExprId rhs = s.add(std::vector<ExprId>{s.mul(e1, e1), s.mul(std::vector<ExprId>{s.constant(2), e1, e2}), s.mul(e2, e2)});
      return {lhs, rhs};
    }
    case 1: return {s.mul(e1, s.add(e2, e3)), s.add(s.mul(e1, e2), s.mul(e1, e3))};
    case 2: return {s.div(s.sub(s.mul(e1, e1), s.mul(e2, e2)), s.sub(e1, e2)), s.add(e1, e2)};
    case 3: return {s.exp(s.mul(e1, s.add(e2, e3))), s.exp(s.add(s.mul(e1, e2), s.mul(e3, e1)))};
    default: {
      ExprId den = s.add(e2, s.constant(3));
      return {s.add(s.div(e1, den), s.div(e3, den)), s.div(s.add(e1, e3), den)};
    }
  }
}

TEST_F(DecideTest, RandomIdentitiesAreProvedSoundly) {
  Gen g(s, {x, y, z}, 7);
  int proved = 0, refuted = 0, unknown = 0, refuted_slips = 0, slips = 0;
  std::mt19937 pts(11);
  DeciderOptions o;
  o.points = 12;
  o.boundary_points = 16;
  for (int iter = 0; iter < 150; ++iter) {
    ExprId e1 = g.expr(2), e2 = g.expr(2), e3 = g.expr(2);
    auto [a, b] = identity(s, g, e1, e2, e3);
    CellDecision r = decide(a, b, o);
    if (r.status == CellStatus::Proved) {
      ++proved;
      for (int k = 0; k < 20; ++k) {
        expr::Assignment at{{x, g.small_rational()}, {y, g.small_rational()}, {z, g.small_rational()}};
        auto va = expr::eval_exact(s, a, at), vb = expr::eval_exact(s, b, at);
        if (va && vb) {
          ASSERT_EQ(*va, *vb) << str(a) << " vs " << str(b) << " proved by " << r.step;
        }
      }
    } else if (r.status == CellStatus::Refuted) {
      ++refuted;
      ADD_FAILURE() << "an identity was refuted: " << str(a) << " vs " << str(b) << " at " << *r.value_a
                    << " / " << *r.value_b;
    } else {
      ++unknown;
    }
    // A slip: the same with a constant added to one side. Must never be Proved, unless the
    // side is the Undefined constant, which absorbs the slip (and is identical to itself).
    ExprId slip = s.add(b, s.constant(mpq_class(1, 3)));
    if (s.is_undefined(slip)) continue;
    CellDecision rs = decide(a, slip, o);
    ++slips;
    EXPECT_NE(rs.status, CellStatus::Proved) << str(a) << " vs " << str(slip);
    if (rs.status == CellStatus::Refuted) ++refuted_slips;
  }
  (void)pts;
  RecordProperty("proved", proved);
  RecordProperty("unknown", unknown);
  RecordProperty("refuted_slips", refuted_slips);
  std::printf("identities: %d proved, %d unknown, %d refuted; slips: %d/%d refuted\n", proved, unknown, refuted,
              refuted_slips, slips);
  EXPECT_GE(proved, 140) << "the normal form should prove nearly all of these";
  EXPECT_GE(refuted_slips, slips * 3 / 4);
}

}  // namespace
}  // namespace racer::decide::test
