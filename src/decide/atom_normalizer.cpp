#include "decide/atom_normalizer.hpp"

#include <vector>

namespace racer::decide {

using expr::ExprId;
using expr::Kind;

ExprId AtomNormalizer::expand(ExprId x) {
  if (s_.is_condition(x)) return x;  // conditions are not numbers; their parts were normalized
  Kind k = s_.kind(x);
  if (k == Kind::Symbol || k == Kind::Const) return x;
  auto it = expanded_.find(x.index);
  if (it != expanded_.end()) return it->second;
  ExprId e = expanded_form(s_, x, limits_).value_or(x);
  expanded_.emplace(x.index, e);
  return e;
}

// tanh(u) = 1 - 2/(exp(2u) + 1): one family of atoms (exp) for the logistic, the
// hyperbolic tangent and their compiled variants, which are then equal as rational
// functions of exp(u).
ExprId AtomNormalizer::tanh_as_exp(ExprId u) {
  ExprId one = s_.one(), two = s_.add(one, one);
  ExprId e = s_.exp(expand(s_.add(u, u)));
  return s_.sub(one, s_.div(two, s_.add(e, one)));
}

ExprId AtomNormalizer::rewrite(ExprId x, std::vector<ExprId>& ops) {
  switch (s_.kind(x)) {
    case Kind::Add:
    case Kind::Mul: break;  // structure only: the normal form expands sums and products itself
    case Kind::Func:
      for (ExprId& op : ops) op = expand(op);
      if (s_.func_kind(x) == expr::FuncKind::Tanh) return tanh_as_exp(ops[0]);
      break;
    case Kind::Min:
    case Kind::Max:
    case Kind::Cmp:
    case Kind::Select:
      for (ExprId& op : ops) op = expand(op);
      break;
    default: return x;
  }
  return s_.rebuild(x, ops);
}

ExprId AtomNormalizer::normalize(ExprId root) {
  struct Frame {
    ExprId id;
    bool expanded;
  };
  std::vector<Frame> stack{{root, false}};
  std::vector<ExprId> ops;
  while (!stack.empty()) {
    Frame f = stack.back();
    if (memo_.count(f.id.index)) {
      stack.pop_back();
      continue;
    }
    uint32_t n = s_.arity(f.id);
    if (!f.expanded) {
      stack.back().expanded = true;
      for (uint32_t i = 0; i < n; ++i) {
        ExprId c = s_.operand(f.id, i);
        if (!memo_.count(c.index)) stack.push_back({c, false});
      }
      continue;
    }
    stack.pop_back();
    ExprId out = f.id;
    if (n > 0) {
      ops.clear();
      for (uint32_t i = 0; i < n; ++i) ops.push_back(memo_.at(s_.operand(f.id, i).index));
      out = rewrite(f.id, ops);
    }
    memo_.emplace(f.id.index, out);
  }
  return memo_.at(root.index);
}

}  // namespace racer::decide
