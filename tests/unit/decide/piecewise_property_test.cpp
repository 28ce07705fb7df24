// Random piecewise pairs: an expression against a rewrite of it through the identities of
// min, max, abs and select (equivalent), and the same with one comparison's strictness
// flipped (usually not). Every Proved pair must agree at every point of a small grid where
// both sides are defined, ties included (they are where a flipped strictness shows); every
// Refuted one carries a re-checked witness (the fixture). Run with the case split and with
// Z3 alone.
#include <random>

#include "fixture.hpp"

namespace racer::decide::test {
namespace {

using expr::CmpOp;
using expr::Kind;

class PiecewiseGen {
 public:
  PiecewiseGen(expr::Store& s, std::vector<ExprId> leaves, uint32_t seed)
      : s_(s), leaves_(std::move(leaves)), rng_(seed) {}

  uint32_t pick(uint32_t n) { return rng_() % n; }

  ExprId num(int depth) {
    if (depth == 0 || pick(4) == 0) return leaf();
    ExprId a = num(depth - 1), b = num(depth - 1);
    switch (pick(8)) {
      case 0: return s_.add(a, b);
      case 1: return s_.sub(a, s_.mul(s_.constant(mpq_class(1, 2)), b));
      case 2: return s_.max(a, b);
      case 3: return s_.min(a, b);
      case 4: return s_.abs(a);
      case 5: return s_.mul(a, s_.constant(long(pick(3)) - 1));
      default: return s_.select(cond(depth - 1), a, b);
    }
  }

  ExprId cond(int depth) {
    static constexpr CmpOp ops[] = {CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge, CmpOp::Eq};
    return s_.cmp(ops[pick(5)], num(depth), num(depth));
  }

  // An equivalent form of x: each min/max/abs/select rewritten through an identity, at random.
  ExprId rewrite(ExprId x) {
    switch (s_.kind(x)) {
      case Kind::Add:
      case Kind::Mul:
      case Kind::Cmp: {
        std::vector<ExprId> ops;
        for (uint32_t i = 0; i < s_.arity(x); ++i) ops.push_back(rewrite(s_.operand(x, i)));
        return s_.rebuild(x, ops);
      }
      case Kind::Max:
      case Kind::Min: {
        ExprId a = rewrite(s_.operand(x, 0));
        for (uint32_t i = 1; i < s_.arity(x); ++i) {
          ExprId b = rewrite(s_.operand(x, i));
          bool is_max = s_.kind(x) == Kind::Max;
          switch (pick(3)) {
            case 0: a = s_.select(s_.cmp(is_max ? CmpOp::Ge : CmpOp::Le, a, b), a, b); break;
            case 1: a = s_.select(s_.cmp(is_max ? CmpOp::Lt : CmpOp::Gt, a, b), b, a); break;
            default: a = is_max ? s_.neg(s_.min(s_.neg(a), s_.neg(b))) : s_.neg(s_.max(s_.neg(a), s_.neg(b)));
          }
        }
        return a;
      }
      case Kind::Func: {
        ExprId a = rewrite(s_.operand(x, 0));
        if (pick(2)) return s_.select(s_.cmp(CmpOp::Lt, a, s_.zero()), s_.neg(a), a);
        return s_.max(a, s_.neg(a));
      }
      case Kind::Select: {
        ExprId c = s_.operand(x, 0), t = rewrite(s_.operand(x, 1)), e = rewrite(s_.operand(x, 2));
        if (s_.kind(c) == Kind::Cmp && pick(2)) {
          // not (a < b) is b <= a, not (a <= b) is b < a.
          ExprId l = rewrite(s_.operand(c, 0)), r = rewrite(s_.operand(c, 1));
          CmpOp op = s_.cmp_op(c);
          if (op == CmpOp::Lt) return s_.select(s_.cmp(CmpOp::Le, r, l), e, t);
          if (op == CmpOp::Le) return s_.select(s_.cmp(CmpOp::Lt, r, l), e, t);
        }
        return s_.select(rewrite(c), t, e);
      }
      default: return x;
    }
  }

  // x with the first comparison (depth first) flipped between < and <=.
  ExprId flip(ExprId x, bool& done) {
    if (done) return x;
    if (s_.kind(x) == Kind::Cmp && (s_.cmp_op(x) == CmpOp::Lt || s_.cmp_op(x) == CmpOp::Le)) {
      done = true;
      return s_.cmp(s_.cmp_op(x) == CmpOp::Lt ? CmpOp::Le : CmpOp::Lt, s_.operand(x, 0), s_.operand(x, 1));
    }
    std::vector<ExprId> ops;
    for (uint32_t i = 0; i < s_.arity(x); ++i) ops.push_back(flip(s_.operand(x, i), done));
    return s_.rebuild(x, ops);
  }

 private:
  ExprId leaf() {
    if (pick(3) == 0) return s_.constant(mpq_class(long(pick(5)) - 2, 1 + long(pick(2))));
    return leaves_[pick(uint32_t(leaves_.size()))];
  }

  expr::Store& s_;
  std::vector<ExprId> leaves_;
  std::mt19937 rng_;
};

class PiecewiseProperty : public DecideTest {
 protected:
  // Agreement on the grid {-2, -3/2, ..., 2}^3 wherever both sides are defined.
  void expect_sound(ExprId a, ExprId b, const CellDecision& r) {
    if (r.status != CellStatus::Proved) return;
    for (int i = -4; i <= 4; ++i) {
      for (int j = -4; j <= 4; ++j) {
        for (int k = -4; k <= 4; k += 2) {
          expr::Assignment at{{x, mpq_class(i, 2)}, {y, mpq_class(j, 2)}, {z, mpq_class(k, 2)}};
          auto va = expr::eval_exact(s, a, at), vb = expr::eval_exact(s, b, at);
          if (va && vb) {
            ASSERT_EQ(*va, *vb) << str(a) << " vs " << str(b) << " proved by " << r.step << " at x=" << *at.value(x)
                                << " y=" << *at.value(y) << " z=" << *at.value(z);
          }
        }
      }
    }
  }

  void run(DeciderOptions o, uint32_t seed, int iters, int min_proved) {
    PiecewiseGen g(s, {x, y, z}, seed);
    int proved = 0, unknown = 0, flips = 0, flips_proved = 0, flips_refuted = 0;
    for (int iter = 0; iter < iters; ++iter) {
      ExprId e = g.num(3);
      ExprId e2 = g.rewrite(e);
      CellDecision r = decide(e, e2, o);
      expect_sound(e, e2, r);
      EXPECT_NE(r.status, CellStatus::Refuted) << str(e) << " vs " << str(e2);
      if (r.status == CellStatus::Proved) ++proved;
      if (r.status == CellStatus::Unknown) ++unknown;
      bool done = false;
      ExprId f = g.flip(e2, done);
      if (!done || f == e) continue;
      ++flips;
      CellDecision rf = decide(e, f, o);
      expect_sound(e, f, rf);
      if (rf.status == CellStatus::Proved) ++flips_proved;
      if (rf.status == CellStatus::Refuted) ++flips_refuted;
    }
    std::printf("piecewise identities: %d proved, %d unknown; flips: %d, %d proved, %d refuted\n", proved, unknown,
                flips, flips_proved, flips_refuted);
    EXPECT_GE(proved, min_proved);
  }
};

TEST_F(PiecewiseProperty, CaseSplitIsSound) {
  DeciderOptions o;
  o.points = 8;
  o.boundary_points = 16;
  o.use_z3 = false;
  run(o, 3, 60, 58);
}

TEST_F(PiecewiseProperty, Z3IsSound) {
  DeciderOptions o;
  o.points = 8;
  o.boundary_points = 16;
  o.use_case_split = false;
  run(o, 5, 25, 24);
}

}  // namespace
}  // namespace racer::decide::test
