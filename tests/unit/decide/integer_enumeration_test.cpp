// Integer symbols of small ranges substituted value by value (decide/integer_enumeration.*):
// a chain of selects on an index against the same selection built in the other order, which
// the case split (a piece per comparison) and Z3 do not finish at a few hundred values.
#include "decide/integer_enumeration.hpp"
#include "fixture.hpp"

namespace racer::decide::test {
namespace {

using expr::CmpOp;

class EnumerationTest : public DecideTest {
 protected:
  ExprId t = sym("t");
  std::vector<ExprId> cells;

  void SetUp() override {
    domains[t] = SymbolDomain{mpq_class(0), mpq_class(kValues - 1), Grid::Integer};
    for (long k = 0; k < kValues; ++k) cells.push_back(sym("X" + std::to_string(k)));
  }
  static constexpr long kValues = 300;

  // select(t = 0, X0, select(t = 1, X1, ... X_last)): a gather's value, in address order.
  ExprId ascending() {
    ExprId v = cells.back();
    for (long k = kValues - 2; k >= 0; --k) v = s.select(s.cmp(CmpOp::Eq, t, c(k)), cells[k], v);
    return v;
  }
  // A loop comparing t with every row: s = t == r ? X_r : s, from r = 0 up, starting at 0.
  ExprId compared(long skip = -1) {
    ExprId v = s.zero();
    for (long k = 0; k < kValues; ++k)
      if (k != skip) v = s.select(s.cmp(CmpOp::Eq, t, c(k)), cells[k], v);
    return v;
  }
};

TEST_F(EnumerationTest, AGatherAgainstALoopComparingEveryRowIsProvedValueByValue) {
  CellDecision r = decide(ascending(), compared());
  EXPECT_EQ(r.status, CellStatus::Proved) << r.reason;
  EXPECT_EQ(r.step, "enumeration of the integer inputs");
}

TEST_F(EnumerationTest, ARowTheLoopSkipsIsNotProvedAndNamesTheValue) {
  std::vector<ExprId> syms = expr::free_symbols(s, ascending());
  for (ExprId v : expr::free_symbols(s, compared(17))) syms.push_back(v);
  std::sort(syms.begin(), syms.end());
  syms.erase(std::unique(syms.begin(), syms.end()), syms.end());
  std::vector<SymbolDomain> doms;
  for (ExprId v : syms) doms.push_back(domain_of(v));
  std::string why;
  auto never = [](ExprId, ExprId) { return false; };
  EXPECT_FALSE(prove_by_enumeration(s, ascending(), compared(17), syms, doms, never, {}, why));
  EXPECT_NE(why.find("at (17)"), std::string::npos) << why;
  // The decider refutes it (t = 17, X17 != 0) by the later steps.
  CellDecision r = decide(ascending(), compared(17));
  EXPECT_EQ(r.status, CellStatus::Refuted) << r.reason;
}

TEST_F(EnumerationTest, TooManyValuesLeaveTheCellToTheOtherSteps) {
  domains[t] = SymbolDomain{mpq_class(0), mpq_class(100000), Grid::Integer};
  std::vector<ExprId> syms{t};
  std::vector<SymbolDomain> doms{domain_of(t)};
  std::string why;
  EXPECT_FALSE(prove_by_enumeration(s, s.select(s.cmp(CmpOp::Eq, t, c(1)), x, y), s.select(s.cmp(CmpOp::Eq, t, c(1)), x, y),
                                    syms, doms, [](ExprId, ExprId) { return true; }, {}, why));
  EXPECT_TRUE(why.empty()) << why;
}

}  // namespace
}  // namespace racer::decide::test
