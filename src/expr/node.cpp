#include "expr/node.hpp"

#include <array>
#include <string>

namespace racer::expr {

std::string_view func_name(FuncKind f) {
  if (is_wrap(f)) {
    static const std::array<std::string, 128> names = [] {
      std::array<std::string, 128> n;
      for (unsigned i = 0; i < n.size(); ++i) n[i] = std::string(i % 2 ? "wrap_s" : "wrap_u") + std::to_string(i / 2 + 1);
      return n;
    }();
    return names[uint8_t(f) - kWrapFirst];
  }
  switch (f) {
    case FuncKind::Exp: return "exp";
    case FuncKind::Log: return "log";
    case FuncKind::Sqrt: return "sqrt";
    case FuncKind::Tanh: return "tanh";
    case FuncKind::Erf: return "erf";
    case FuncKind::Sin: return "sin";
    case FuncKind::Cos: return "cos";
    case FuncKind::Abs: return "abs";
  }
  return "?";
}

std::string_view cmp_symbol(CmpOp op) {
  switch (op) {
    case CmpOp::Lt: return "<";
    case CmpOp::Le: return "<=";
    case CmpOp::Eq: return "==";
    case CmpOp::Ne: return "!=";
    case CmpOp::Gt: return ">";
    case CmpOp::Ge: return ">=";
  }
  return "?";
}

}  // namespace racer::expr
