// Store::surely_positive: a sign read off an expression's shape, for the folds that need one
// (log of a sum of exps is finite; -inf times a positive product is -inf).
#include "expr/store.hpp"

namespace racer::expr {
namespace {

bool positive_by_shape(const Store& s, ExprId x, int& budget);

// Whether x >= 0 at every point by its shape alone: |u|, exp, a constant or ranged input at or
// above 0, an even power, a product with a positive coefficient of such factors, a sum of them
// with positive weights, the square root of one, or whatever is surely positive. At most
// `budget` nodes are looked at.
bool nonnegative_by_shape(const Store& s, ExprId x, int& budget) {
  if (--budget < 0 || !s.is_finite(x)) return false;
  switch (s.kind(x)) {
    case Kind::Const: return s.is_rational(x) && s.rational(x) >= 0;
    case Kind::Symbol: {
      const auto& r = s.symbol_info(x).range;
      return r && r->lo >= 0;
    }
    case Kind::Func:
      switch (s.func_kind(x)) {
        case FuncKind::Abs:
        case FuncKind::Exp: return true;
        case FuncKind::Sqrt: return nonnegative_by_shape(s, s.operand(x, 0), budget);
        default: return positive_by_shape(s, x, budget);
      }
    case Kind::Mul:
      if (s.coef(x) <= 0) return false;
      for (uint32_t i = 0; i < s.arity(x); ++i) {
        const mpq_class& w = s.weight(x, i);
        const bool even = w.get_den() == 1 && w > 0 && mpz_even_p(w.get_num_mpz_t());
        if (!even && !nonnegative_by_shape(s, s.operand(x, i), budget)) return false;
      }
      return true;
    case Kind::Add:
      if (s.coef(x) < 0) return false;
      for (uint32_t i = 0; i < s.arity(x); ++i)
        if (s.weight(x, i) <= 0 || !nonnegative_by_shape(s, s.operand(x, i), budget)) return false;
      return true;
    default:
      return positive_by_shape(s, x, budget);
  }
}

// Whether x > 0 at every point by its shape alone: exp, a positive constant or ranged input, a
// product with a positive coefficient of such factors, a sum of them with positive weights (or
// a positive constant plus terms at or above 0: |x| + 3/2, x^2 + eps), the square root of one,
// the log of a constant above 1, a select of two such, a max of one, a min of all such. At most
// `budget` nodes are looked at.
bool positive_by_shape(const Store& s, ExprId x, int& budget) {
  if (--budget < 0 || !s.is_finite(x)) return false;
  switch (s.kind(x)) {
    case Kind::Const: return s.is_rational(x) && s.rational(x) > 0;
    case Kind::Symbol: {
      const auto& r = s.symbol_info(x).range;
      return r && r->lo > 0;
    }
    case Kind::Func: {
      const ExprId a = s.operand(x, 0);
      switch (s.func_kind(x)) {
        case FuncKind::Exp: return true;
        case FuncKind::Sqrt: return positive_by_shape(s, a, budget);
        case FuncKind::Log: return s.is_rational(a) && s.rational(a) > 1;  // log(2), the factor of exp2
        default: return false;
      }
    }
    case Kind::Mul:
      if (s.coef(x) <= 0) return false;
      for (uint32_t i = 0; i < s.arity(x); ++i)
        if (!positive_by_shape(s, s.operand(x, i), budget)) return false;
      return true;
    case Kind::Add:
      if (s.coef(x) > 0) return nonnegative_by_shape(s, x, budget);  // (its terms' signs alone)
      if (s.coef(x) < 0 || s.arity(x) == 0) return false;
      for (uint32_t i = 0; i < s.arity(x); ++i)
        if (s.weight(x, i) <= 0 || !positive_by_shape(s, s.operand(x, i), budget)) return false;
      return true;
    // Whichever branch is taken (a log routine's prescaling of tiny arguments by 2^23), and a
    // max that has a positive member.
    case Kind::Select: return positive_by_shape(s, s.operand(x, 1), budget) && positive_by_shape(s, s.operand(x, 2), budget);
    case Kind::Max:
      for (uint32_t i = 0; i < s.arity(x); ++i)
        if (positive_by_shape(s, s.operand(x, i), budget)) return true;
      return false;
    case Kind::Min:
      for (uint32_t i = 0; i < s.arity(x); ++i)
        if (!positive_by_shape(s, s.operand(x, i), budget)) return false;
      return true;
    default:
      return false;
  }
}

}  // namespace

bool Store::surely_positive(ExprId x, int budget) const {
  return positive_by_shape(*this, x, budget);
}

}  // namespace racer::expr
