// Population counts by the outcomes of a word's conditions (exec/bit_count_cases.hpp).
#include "exec/bit_count_cases.hpp"

#include <functional>
#include <unordered_set>
#include <vector>

#include "expr/substitute.hpp"

namespace racer::exec {
namespace {

using expr::ExprId;
using expr::Kind;

// The conditions of e's selects, in the order first met; false where e depends on data other
// than through them.
bool collect_conditions(const expr::Store& s, ExprId e, std::vector<ExprId>& conds) {
  std::unordered_set<uint32_t> seen;
  std::vector<ExprId> stack{e};
  while (!stack.empty()) {
    ExprId x = stack.back();
    stack.pop_back();
    if (!seen.insert(x.index).second) continue;
    switch (s.kind(x)) {
      case Kind::Const:
        if (!s.is_rational(x)) return false;
        break;
      case Kind::Select: {
        const ExprId c = s.operand(x, 0);
        bool known = false;
        for (ExprId k : conds) known |= k == c;
        if (!known) {
          if (conds.size() == kMaxBitCountConditions) return false;
          conds.push_back(c);
        }
        stack.push_back(s.operand(x, 1));
        stack.push_back(s.operand(x, 2));
        break;
      }
      case Kind::Add:
      case Kind::Mul:
      case Kind::Min:
      case Kind::Max:
        for (uint32_t i = 0; i < s.arity(x); ++i) stack.push_back(s.operand(x, i));
        break;
      case Kind::Func:
        if (!expr::is_wrap(s.func_kind(x))) return false;
        stack.push_back(s.operand(x, 0));
        break;
      default: return false;
    }
  }
  return true;
}

}  // namespace

std::optional<ExprId> bit_count_by_cases(expr::Store& s, ExprId e, unsigned width) {
  std::vector<ExprId> conds;
  if (!collect_conditions(s, e, conds) || conds.empty()) return std::nullopt;
  expr::Substitution outcome;
  const mpz_class modulus = mpz_class(1) << width;
  // The count under the outcomes fixed so far, the rest chosen from condition i on.
  std::function<std::optional<ExprId>(size_t)> count = [&](size_t i) -> std::optional<ExprId> {
    if (i == conds.size()) {
      const ExprId v = expr::substitute(s, e, outcome);
      if (!s.is_rational(v) || s.rational(v).get_den() != 1) return std::nullopt;
      mpz_class word;
      mpz_fdiv_r(word.get_mpz_t(), s.rational(v).get_num_mpz_t(), modulus.get_mpz_t());
      return s.constant(mpq_class(mpz_class(static_cast<unsigned long>(mpz_popcount(word.get_mpz_t())))));
    }
    outcome[conds[i]] = s.true_value();
    std::optional<ExprId> when = count(i + 1);
    outcome[conds[i]] = s.false_value();
    std::optional<ExprId> otherwise = when ? count(i + 1) : std::nullopt;
    outcome.erase(conds[i]);
    if (!otherwise) return std::nullopt;
    return s.select(conds[i], *when, *otherwise);
  };
  return count(0);
}

}  // namespace racer::exec
