#pragma once
// A Store, a few symbols with per-test domains, and checks every decision must pass:
// a Refuted cell's witness covers every free symbol, is admissible, and reproduces the
// reported values.
#include <gtest/gtest.h>

#include <unordered_map>

#include "decide/decider.hpp"
#include "decide/grid.hpp"
#include "expr/eval.hpp"
#include "expr/expr.hpp"

namespace racer::decide::test {

using expr::ExprId;

class DecideTest : public ::testing::Test {
 protected:
  expr::Store s;
  ExprId x = s.symbol("x");
  ExprId y = s.symbol("y");
  ExprId z = s.symbol("z");
  std::unordered_map<ExprId, SymbolDomain, expr::ExprIdHash> domains;

  ExprId c(long v) { return s.constant(v); }
  ExprId q(long num, long den) { return s.constant(mpq_class(num, den)); }
  ExprId q(const char* text) { return s.constant(mpq_class(text)); }
  ExprId sym(const std::string& name) { return s.symbol(name); }
  std::string str(ExprId e) { return expr::to_string(s, e); }

  SymbolDomain domain_of(ExprId v) const {
    auto it = domains.find(v);
    return it == domains.end() ? SymbolDomain{} : it->second;
  }

  CellDecision decide(ExprId a, ExprId b, DeciderOptions o = {}) {
    Decider d(s, [this](ExprId v) { return domain_of(v); }, 1, o);
    CellDecision r = d.decide(a, b);
    check(a, b, r);
    return r;
  }

  void check(ExprId a, ExprId b, const CellDecision& r) {
    if (r.status == CellStatus::Unknown) {
      EXPECT_FALSE(r.reason.empty()) << "an Unknown says why";
      return;
    }
    EXPECT_FALSE(r.step.empty());
    if (r.status != CellStatus::Refuted) return;
    // A side that is an infinity at the witness has no rational value; the step names it.
    const bool infinite = r.step.find("inf there") != std::string::npos;
    if (!infinite) {
      ASSERT_TRUE(r.value_a && r.value_b);
      EXPECT_NE(*r.value_a, *r.value_b);
    }
    expr::Assignment at;
    std::vector<ExprId> syms = expr::free_symbols(s, a);
    for (ExprId v : expr::free_symbols(s, b)) syms.push_back(v);
    for (ExprId v : syms) {
      auto it = r.witness.find(v.index);
      ASSERT_NE(it, r.witness.end()) << "no witness value for " << str(v);
      EXPECT_TRUE(admissible(it->second, domain_of(v))) << str(v) << " = " << it->second;
      at.set(v, it->second);
    }
    if (infinite) {
      auto va = expr::eval_extended(s, a, at), vb = expr::eval_extended(s, b, at);
      ASSERT_TRUE(va && vb);
      EXPECT_NE(*va, *vb);
      EXPECT_EQ(va->infinity == 0 ? std::optional<mpq_class>(va->value) : std::nullopt, r.value_a);
      EXPECT_EQ(vb->infinity == 0 ? std::optional<mpq_class>(vb->value) : std::nullopt, r.value_b);
    } else if (r.step.find("exact evaluation") != std::string::npos) {
      EXPECT_EQ(expr::eval_exact(s, a, at), r.value_a);
      EXPECT_EQ(expr::eval_exact(s, b, at), r.value_b);
    }
  }

  mpq_class witness(const CellDecision& r, ExprId v) { return r.witness.at(v.index); }
};

inline std::ostream& operator<<(std::ostream& os, CellStatus st) { return os << status_name(st); }

}  // namespace racer::decide::test
