// Shape reduction's classes: pairs equal up to a bijective renaming of symbols of equal traits
// share a class; anything a decision could tell apart (a range, a grid, a kind of memory, a
// constant, a symbol used twice where the other pair uses two) does not.
#include <gtest/gtest.h>

#include <chrono>
#include <unordered_map>

#include "decide/shape.hpp"
#include "expr/expr.hpp"

namespace racer::decide {
namespace {

using expr::ExprId;

class ShapeTest : public ::testing::Test {
 protected:
  expr::Store s;
  std::unordered_map<ExprId, SymbolTraits, expr::ExprIdHash> traits;
  ShapeClasses classes{s, [this](ExprId v) {
                         auto it = traits.find(v);
                         return it == traits.end() ? SymbolTraits{} : it->second;
                       }};

  ExprId sym(const std::string& name) { return s.symbol(name); }
  ExprId c(long num, long den = 1) { return s.constant(mpq_class(num, den)); }
  bool same_class(ExprId a1, ExprId b1, ExprId a2, ExprId b2) {
    ShapeClasses::Found f1 = classes.classify(a1, b1), f2 = classes.classify(a2, b2);
    return f1.cls == f2.cls;
  }
};

TEST_F(ShapeTest, PairsEqualUpToARenamingShareAClass) {
  ExprId x = sym("x"), y = sym("y"), u = sym("u"), v = sym("v");
  // exp(x) + 2y against exp(x) * y, and the same over (u, v).
  auto a = [&](ExprId p, ExprId q) { return s.add(s.exp(p), s.mul(c(2), q)); };
  auto b = [&](ExprId p, ExprId q) { return s.mul(s.exp(p), q); };
  ShapeClasses::Found first = classes.classify(a(x, y), b(x, y));
  ShapeClasses::Found second = classes.classify(a(u, v), b(u, v));
  EXPECT_TRUE(first.is_new);
  EXPECT_FALSE(second.is_new);
  EXPECT_EQ(first.cls, second.cls);
  // The roles swapped (y where x was) is the same shape too: the renaming maps x to v, y to u.
  EXPECT_TRUE(same_class(a(x, y), b(x, y), a(v, u), b(v, u)));
  EXPECT_EQ(classes.size(), 1u);
}

TEST_F(ShapeTest, SymbolsOfDifferentRangesOrTraitsAreNotRenamed) {
  ExprId x = sym("x");
  ExprId r = s.symbol("r", expr::Range{mpq_class(0), mpq_class(1)});
  ExprId q = s.symbol("q", expr::Range{mpq_class(0), mpq_class(2)});
  auto a = [&](ExprId p) { return s.tanh(p); };
  auto b = [&](ExprId p) { return s.mul(c(3), p); };
  EXPECT_FALSE(same_class(a(r), b(r), a(q), b(q)));  // the Store's ranges differ
  EXPECT_FALSE(same_class(a(x), b(x), a(r), b(r)));  // one has a range, one none

  ExprId g = sym("g"), h = sym("h"), k = sym("k"), m = sym("m");
  traits[g].domain.grid = Grid::F32;
  traits[h].domain.grid = Grid::F16;
  EXPECT_FALSE(same_class(a(g), b(g), a(h), b(h)));  // different grids
  traits[k].domain.lo = mpq_class(-1);
  traits[m].domain.lo = mpq_class(-2);
  EXPECT_FALSE(same_class(a(k), b(k), a(m), b(m)));  // different domain ranges
  ExprId w1 = sym("w1"), w2 = sym("w2");
  traits[w1].tag = 1;  // an input cell
  traits[w2].tag = 2;  // out-of-bounds memory
  EXPECT_FALSE(same_class(a(w1), b(w1), a(w2), b(w2)));

  ExprId k2 = sym("k2");
  traits[k2].domain.lo = mpq_class(-1);
  EXPECT_TRUE(same_class(a(k), b(k), a(k2), b(k2)));  // equal traits: renamed
}

TEST_F(ShapeTest, ConstantsMustBeEqualExactly) {
  ExprId x = sym("x"), u = sym("u");
  auto a = [&](ExprId p, ExprId k) { return s.add(s.exp(p), k); };
  EXPECT_TRUE(same_class(a(x, c(1, 3)), x, a(u, c(1, 3)), u));
  EXPECT_FALSE(same_class(a(x, c(1, 3)), x, a(u, c(2, 3)), u));
  // Coefficients and exponents are constants too.
  EXPECT_FALSE(same_class(s.mul(c(2), s.exp(x)), x, s.mul(c(3), s.exp(u)), u));
  EXPECT_FALSE(same_class(s.pow_int(s.tanh(x), 2), x, s.pow_int(s.tanh(u), 3), u));
  EXPECT_FALSE(same_class(s.max(x, c(0)), x, s.max(u, c(1)), u));
}

TEST_F(ShapeTest, ARenamingMustBeABijection) {
  ExprId x = sym("x"), y = sym("y"), z = sym("z");
  // (x, y) would map onto (z, z) only by sending both x and y to z.
  EXPECT_FALSE(same_class(x, y, z, z));
  EXPECT_FALSE(same_class(s.mul(s.exp(x), y), x, s.mul(s.exp(z), z), z));
  EXPECT_FALSE(same_class(s.add(s.exp(x), s.tanh(y)), s.exp(y), s.add(s.exp(z), s.tanh(z)), s.exp(z)));
  // Nor the other way: z used twice against two symbols.
  EXPECT_FALSE(same_class(s.max(z, s.exp(z)), z, s.max(x, s.exp(y)), x));
}

TEST_F(ShapeTest, TheSidesKeepTheirRoles) {
  ExprId x = sym("x"), u = sym("u");
  EXPECT_FALSE(same_class(s.exp(x), s.tanh(x), s.tanh(u), s.exp(u)));
  // b a subterm of a, against b unrelated to a.
  ExprId v = sym("v");
  EXPECT_FALSE(same_class(s.exp(s.tanh(x)), s.tanh(x), s.exp(s.tanh(u)), s.tanh(v)));
}

TEST_F(ShapeTest, EveryCellOfAReductionHasOneShape) {
  // softmax over a row against a wrong normalization: cell c reads the whole row, its own
  // input in its own place of the sum; every cell of every row is one class.
  for (int row = 0; row < 3; ++row) {
    std::vector<ExprId> xs, terms;
    for (int j = 0; j < 16; ++j) xs.push_back(sym("x" + std::to_string(row) + "_" + std::to_string(j)));
    ExprId m = s.max(xs);
    for (ExprId xj : xs) terms.push_back(s.exp(s.sub(xj, m)));
    ExprId sum = s.add(terms);
    for (int col = 0; col < 16; ++col) {
      ExprId a = s.div(s.exp(s.sub(xs[col], m)), sum);
      ExprId b = s.div(s.exp(xs[col]), s.add(sum, c(1)));
      classes.classify(a, b);
    }
  }
  EXPECT_EQ(classes.size(), 1u);
}

TEST_F(ShapeTest, SharedSubtermsAreWalkedOnce) {
  // e_{k+1} = exp(e_k) + tanh(e_k): 2^60 nodes as a tree, 3 per level as a DAG.
  auto chain = [&](ExprId leaf) {
    ExprId e = leaf;
    for (int k = 0; k < 60; ++k) e = s.add(s.exp(e), s.tanh(e));
    return e;
  };
  ExprId x = sym("x"), u = sym("u");
  auto start = std::chrono::steady_clock::now();
  PairShape p = classes.shape(chain(x), x);
  EXPECT_LT(p.words.size(), 60u * 3 * 8);
  EXPECT_TRUE(same_class(chain(x), x, chain(u), u));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
}

TEST_F(ShapeTest, NeighboursThatShareAllButTheirOwnInputsMatchSideBySide) {
  // Attention-like rows: weights p_j = exp(x_j) / sum over a row's scores x (one tensor), and
  // each output column sums p_j v[j][col] (another tensor); b divides once at the end.
  std::vector<ExprId> xs, es;
  for (int j = 0; j < 8; ++j) xs.push_back(sym("x" + std::to_string(j)));
  for (ExprId x : xs) es.push_back(s.exp(x));
  ExprId sum = s.add(es);
  for (int col = 0; col < 6; ++col) {
    std::vector<ExprId> ta, tb;
    for (int j = 0; j < 8; ++j) {
      ExprId v = sym("v" + std::to_string(j) + "_" + std::to_string(col));
      traits[v].tag = 1;
      ta.push_back(s.mul(s.div(es[j], sum), v));
      tb.push_back(s.mul(es[j], v));
    }
    classes.classify(s.add(ta), s.div(s.add(tb), sum));
  }
  EXPECT_EQ(classes.size(), 1u);
  EXPECT_EQ(classes.matched(), 5u);
}

TEST_F(ShapeTest, ASubtermSharedWholeFixesTheSymbolsUnderIt) {
  // (exp(s) t, u) against (exp(s) s, u): side by side, exp(s) is one node on both and t pairs
  // with s, a renaming that is no bijection once exp(s) keeps its s. Only the rule that a
  // shared node fixes the symbols under it keeps the second pair out of the first's class.
  ExprId s1 = sym("s"), t = sym("t"), u = sym("u");
  ExprId e = s.exp(s1);
  EXPECT_FALSE(same_class(s.mul(e, t), u, s.mul(e, s1), u));
  EXPECT_EQ(classes.size(), 2u);
  EXPECT_EQ(classes.matched(), 0u);
}

}  // namespace
}  // namespace racer::decide
