#include "decide/continuity.hpp"

#include "expr/walk.hpp"

namespace racer::decide {

using expr::ExprId;
using expr::FuncKind;
using expr::Kind;

namespace {

// The node alone, its operands aside.
bool node_continuous(const expr::Store& s, ExprId x, const std::function<bool(ExprId)>& real_symbol) {
  switch (s.kind(x)) {
    case Kind::Const: return s.is_rational(x);
    case Kind::Symbol: return real_symbol(x);
    case Kind::Add: return s.is_finite(x);
    case Kind::Mul:
      for (uint32_t i = 0; i < s.arity(x); ++i) {
        if (s.weight(x, i) < 0 && !s.surely_positive(s.operand(x, i))) return false;
      }
      return true;
    case Kind::Min:
    case Kind::Max: return true;
    case Kind::Func: {
      FuncKind f = s.func_kind(x);
      if (expr::is_wrap(f)) return false;
      switch (f) {
        case FuncKind::Exp:
        case FuncKind::Tanh:
        case FuncKind::Erf:
        case FuncKind::Sin:
        case FuncKind::Cos:
        case FuncKind::Abs: return true;
        case FuncKind::Log:
        case FuncKind::Sqrt: return s.surely_positive(s.operand(x, 0));
      }
      return false;
    }
    default: return false;  // Bool, Select, Cmp
  }
}

}  // namespace

bool continuous_everywhere(const expr::Store& s, ExprId root, const std::function<bool(ExprId)>& real_symbol) {
  return !expr::any_node(s, root, [&](ExprId x) { return !node_continuous(s, x, real_symbol); });
}

}  // namespace racer::decide
