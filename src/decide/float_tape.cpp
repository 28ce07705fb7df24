#include "decide/float_tape.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "expr/walk.hpp"

namespace racer::decide {

using expr::ExprId;
using expr::Kind;

namespace {

constexpr uint32_t kUnreached = std::numeric_limits<uint32_t>::max();
constexpr double kTwoOverSqrtPi = 1.1283791670955126;

double const_value(const expr::Store& s, ExprId x) {
  switch (s.const_kind(x)) {
    case expr::ConstKind::Rational: return s.rational(x).get_d();
    case expr::ConstKind::PosInf: return std::numeric_limits<double>::infinity();
    case expr::ConstKind::NegInf: return -std::numeric_limits<double>::infinity();
    case expr::ConstKind::Undefined: break;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

bool is_branch(const expr::Store& s, ExprId x) {
  switch (s.kind(x)) {
    case Kind::Min:
    case Kind::Max: return s.arity(x) >= 2;
    case Kind::Select: {
      ExprId c = s.operand(x, 0);
      if (s.kind(c) != Kind::Cmp) return false;
      expr::CmpOp op = s.cmp_op(c);
      return op == expr::CmpOp::Lt || op == expr::CmpOp::Le;
    }
    case Kind::Func: return s.func_kind(x) == expr::FuncKind::Abs;
    default: return false;
  }
}

}  // namespace

FloatTape::FloatTape(const expr::Store& s, std::span<const ExprId> roots, const std::vector<ExprId>& symbols) {
  std::unordered_map<uint32_t, uint32_t> coordinate;
  for (size_t k = 0; k < symbols.size(); ++k) coordinate.emplace(symbols[k].index, static_cast<uint32_t>(k));
  std::unordered_map<uint32_t, uint32_t> slot_of;
  std::vector<bool> branch_node;
  // Operands before the node, each node once: a node's slot is above its operands'.
  auto compile = [&](ExprId x) -> uint32_t {
    Op o{s.kind(x), 0, static_cast<uint32_t>(args_.size()), s.arity(x), 0};
    switch (o.kind) {
      case Kind::Const: o.coef = const_value(s, x); break;
      case Kind::Bool: o.op = s.bool_value(x) ? 1 : 0; break;
      case Kind::Symbol: {
        auto it = coordinate.find(x.index);
        if (it == coordinate.end()) usable_ = false;
        else o.coef = it->second;
        break;
      }
      case Kind::Add:
      case Kind::Mul: o.coef = s.coef(x).get_d(); break;
      case Kind::Func: o.op = static_cast<uint8_t>(s.func_kind(x)); break;
      case Kind::Cmp: o.op = static_cast<uint8_t>(s.cmp_op(x)); break;
      default: break;
    }
    const bool weighted = (o.kind == Kind::Add || o.kind == Kind::Mul) && !s.unit_weights(x);
    for (uint32_t i = 0; i < o.n; ++i)
      args_.push_back({slot_of.at(s.operand(x, i).index), weighted ? s.weight(x, i).get_d() : 1.0});
    ops_.push_back(o);
    branch_node.push_back(is_branch(s, x));
    return static_cast<uint32_t>(ops_.size() - 1);
  };
  for (ExprId r : roots)
    expr::fold_post_order<uint32_t>(r, slot_of, [](ExprId) { return std::optional<uint32_t>(); }, expr::AllOperands{s}, compile);
  if (!usable_) return;
  for (ExprId r : roots) roots_.push_back(slot_of.at(r.index));
  index_.assign(slot_of.begin(), slot_of.end());
  std::sort(index_.begin(), index_.end());
  values_.assign(ops_.size(), 0);
  chosen_.assign(ops_.size(), 0);
  // Distance from the nearest root: a node's slot is above its operands', so one pass from the
  // top reaches every parent before its operands.
  std::vector<uint32_t> depth(ops_.size(), kUnreached);
  for (uint32_t r : roots_) depth[r] = 0;
  for (size_t i = ops_.size(); i-- > 0;) {
    if (depth[i] == kUnreached) continue;
    for (uint32_t k = 0; k < ops_[i].n; ++k) {
      uint32_t& d = depth[args_[ops_[i].first + k].slot];
      d = std::min(d, depth[i] + 1);
    }
  }
  for (uint32_t i = 0; i < ops_.size(); ++i)
    if (branch_node[i]) branches_.push_back(i);
  std::stable_sort(branches_.begin(), branches_.end(), [&](uint32_t p, uint32_t q) { return depth[p] < depth[q]; });
}

uint32_t FloatTape::slot(ExprId x) const {
  auto it = std::lower_bound(index_.begin(), index_.end(), std::pair<uint32_t, uint32_t>{x.index, 0});
  return it->second;
}

double FloatTape::combine(const Op& o, uint32_t self) {
  auto arg = [&](uint32_t k) { return values_[args_[o.first + k].slot]; };
  switch (o.kind) {
    case Kind::Const: return o.coef;
    case Kind::Bool: return o.op;
    case Kind::Symbol: return point_[static_cast<size_t>(o.coef)];
    case Kind::Add: {
      double v = o.coef;
      for (uint32_t k = 0; k < o.n; ++k) v += args_[o.first + k].weight * arg(k);
      return v;
    }
    case Kind::Mul: {
      double v = o.coef;
      for (uint32_t k = 0; k < o.n; ++k) {
        const double w = args_[o.first + k].weight;
        v *= w == 1 ? arg(k) : std::pow(arg(k), w);
      }
      return v;
    }
    case Kind::Func: {
      const double v = arg(0);
      const auto f = static_cast<expr::FuncKind>(o.op);
      if (expr::is_wrap(f)) {
        const double period = std::ldexp(1.0, static_cast<int>(expr::wrap_bits(f)));
        const double lo = expr::wrap_signed(f) ? -period / 2 : 0;
        return v - period * std::floor((v - lo) / period);
      }
      switch (f) {
        case expr::FuncKind::Exp: return std::exp(v);
        case expr::FuncKind::Log: return v > 0 ? std::log(v) : std::numeric_limits<double>::quiet_NaN();
        case expr::FuncKind::Sqrt: return v >= 0 ? std::sqrt(v) : std::numeric_limits<double>::quiet_NaN();
        case expr::FuncKind::Tanh: return std::tanh(v);
        case expr::FuncKind::Erf: return std::erf(v);
        case expr::FuncKind::Sin: return std::sin(v);
        case expr::FuncKind::Cos: return std::cos(v);
        case expr::FuncKind::Abs: return std::fabs(v);
      }
      return std::numeric_limits<double>::quiet_NaN();
    }
    case Kind::Min:
    case Kind::Max: {
      uint32_t best = 0;
      for (uint32_t k = 1; k < o.n; ++k)
        if (o.kind == Kind::Min ? arg(k) < arg(best) : arg(k) > arg(best)) best = k;
      chosen_[self] = best;
      return arg(best);
    }
    case Kind::Select: {
      const double c = arg(0);
      if (std::isnan(c)) return c;
      return c != 0 ? arg(1) : arg(2);
    }
    case Kind::Cmp: {
      const double l = arg(0), r = arg(1);
      if (std::isnan(l) || std::isnan(r)) return std::numeric_limits<double>::quiet_NaN();
      switch (static_cast<expr::CmpOp>(o.op)) {
        case expr::CmpOp::Lt: return l < r;
        case expr::CmpOp::Le: return l <= r;
        case expr::CmpOp::Eq: return l == r;
        case expr::CmpOp::Ne: return l != r;
        case expr::CmpOp::Gt: return l > r;
        case expr::CmpOp::Ge: return l >= r;
      }
      break;
    }
  }
  return std::numeric_limits<double>::quiet_NaN();
}

bool FloatTape::evaluate(std::span<const double> x) {
  point_ = x;
  for (uint32_t i = 0; i < ops_.size(); ++i) values_[i] = combine(ops_[i], i);
  for (uint32_t r : roots_)
    if (!std::isfinite(values_[r])) return false;
  return true;
}

void FloatTape::gradient(std::span<const std::pair<uint32_t, double>> seeds, std::vector<double>& out) {
  std::fill(out.begin(), out.end(), 0.0);
  adjoint_.assign(ops_.size(), 0.0);
  for (auto [slot, w] : seeds) adjoint_[slot] += w;
  for (size_t i = ops_.size(); i-- > 0;) {
    const double a = adjoint_[i];
    if (a == 0 || !std::isfinite(a)) continue;
    const Op& o = ops_[i];
    auto push = [&](uint32_t k, double d) {
      if (std::isfinite(d)) adjoint_[args_[o.first + k].slot] += a * d;
    };
    auto arg = [&](uint32_t k) { return values_[args_[o.first + k].slot]; };
    switch (o.kind) {
      case Kind::Symbol: out[static_cast<size_t>(o.coef)] += a; break;
      case Kind::Add:
        for (uint32_t k = 0; k < o.n; ++k) push(k, args_[o.first + k].weight);
        break;
      case Kind::Mul:
        for (uint32_t k = 0; k < o.n; ++k) {
          const double w = args_[o.first + k].weight, b = arg(k);
          if (b != 0) {
            push(k, w * values_[i] / b);
          } else if (w == 1) {  // the product of the others
            double rest = o.coef;
            for (uint32_t j = 0; j < o.n; ++j)
              if (j != k) rest *= std::pow(arg(j), args_[o.first + j].weight);
            push(k, rest);
          }
        }
        break;
      case Kind::Func: {
        const double v = arg(0), y = values_[i];
        const auto f = static_cast<expr::FuncKind>(o.op);
        if (expr::is_wrap(f)) {
          push(0, 1);
          break;
        }
        switch (f) {
          case expr::FuncKind::Exp: push(0, y); break;
          case expr::FuncKind::Log: push(0, 1 / v); break;
          case expr::FuncKind::Sqrt: push(0, 0.5 / y); break;
          case expr::FuncKind::Tanh: push(0, 1 - y * y); break;
          case expr::FuncKind::Erf: push(0, kTwoOverSqrtPi * std::exp(-v * v)); break;
          case expr::FuncKind::Sin: push(0, std::cos(v)); break;
          case expr::FuncKind::Cos: push(0, -std::sin(v)); break;
          case expr::FuncKind::Abs: push(0, v < 0 ? -1.0 : 1.0); break;
        }
        break;
      }
      case Kind::Min:
      case Kind::Max: push(chosen_[i], 1); break;
      case Kind::Select: {
        const double c = arg(0);
        if (!std::isnan(c)) push(c != 0 ? 1 : 2, 1);
        break;
      }
      default: break;  // constants and conditions: no slope
    }
  }
}

uint32_t FloatTape::taken(uint32_t branch) const {
  const Op& o = ops_[branch];
  switch (o.kind) {
    case Kind::Min:
    case Kind::Max: return chosen_[branch];
    case Kind::Select: return values_[args_[o.first].slot] != 0 ? 1 : 0;
    default: return values_[args_[o.first].slot] < 0 ? 1 : 0;  // abs
  }
}

std::vector<std::pair<uint32_t, double>> FloatTape::flip_margin(uint32_t branch) const {
  const Op& o = ops_[branch];
  auto arg_slot = [&](uint32_t k) { return args_[o.first + k].slot; };
  switch (o.kind) {
    case Kind::Min:
    case Kind::Max: {
      const uint32_t best = chosen_[branch];
      uint32_t second = best;
      for (uint32_t k = 0; k < o.n; ++k) {
        if (k == best || arg_slot(k) == arg_slot(best)) continue;
        const double v = values_[arg_slot(k)];
        if (second == best || (o.kind == Kind::Min ? v < values_[arg_slot(second)] : v > values_[arg_slot(second)]))
          second = k;
      }
      if (second == best) return {};
      const double sign = o.kind == Kind::Max ? 1 : -1;
      return {{arg_slot(second), sign}, {arg_slot(best), -sign}};
    }
    case Kind::Select: {
      const Op& c = ops_[arg_slot(0)];
      const uint32_t l = args_[c.first].slot, r = args_[c.first + 1].slot;
      const double sign = values_[arg_slot(0)] != 0 ? 1 : -1;  // true: l <= r now
      return {{l, sign}, {r, -sign}};
    }
    default: {  // abs
      const double v = values_[arg_slot(0)];
      return {{arg_slot(0), v < 0 ? 1.0 : -1.0}};
    }
  }
}

}  // namespace racer::decide
