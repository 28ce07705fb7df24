#include "expr/node.hpp"

namespace racer::expr {

std::string_view func_name(FuncKind f) {
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
