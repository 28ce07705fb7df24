#include "decide/rounding_bound.hpp"

#include <cmath>
#include <cstring>
#include <vector>

namespace racer::decide {
namespace {

// A rational as a long double, through double where it is not a small integer; conversion_error
// says how far that may be off (0 where the double is exact: every float a program holds).
long double as_long_double(const mpq_class& q) {
  if (mpz_cmp_ui(q.get_den_mpz_t(), 1) == 0 && mpz_fits_slong_p(q.get_num_mpz_t())) return static_cast<long double>(mpz_get_si(q.get_num_mpz_t()));
  return static_cast<long double>(q.get_d());
}

// x^w for an integer w; the common exponents without a call to powl.
long double power(long double x, long double w) {
  if (w == 1) return x;
  if (w == -1) return 1 / x;
  if (w == 2) return x * x;
  return std::pow(x, w);
}

long double conversion_error(const mpq_class& q, long double v) {
  if (mpz_cmp_ui(q.get_den_mpz_t(), 1) == 0 && mpz_fits_slong_p(q.get_num_mpz_t())) return 0;
  return mpq_class(static_cast<double>(v)) == q ? 0 : std::fabs(v) * 0x1p-52L;
}
constexpr long double kTwoOverSqrtPi = 1.1283791670955126L;

}  // namespace

RoundingBound::RoundingBound(const expr::Store& st, const FloatModel& model, const expr::Assignment& at)
    : st_(st), model_(model), at_(at) {}

void RoundingBound::Page::set(uint32_t i, const BoundedValue& v) {
  std::memcpy(packed[i].data(), &v.value, kLongDoubleBytes);
  std::memcpy(packed[i].data() + kLongDoubleBytes, &v.error, kLongDoubleBytes);
}

BoundedValue RoundingBound::Page::get(uint32_t i) const {
  BoundedValue v;  // (zero-initialized: the padding bytes a packed value leaves out)
  std::memcpy(&v.value, packed[i].data(), kLongDoubleBytes);
  std::memcpy(&v.error, packed[i].data() + kLongDoubleBytes, kLongDoubleBytes);
  return v;
}

RoundingBound::State RoundingBound::state_of(expr::ExprId x) const {
  size_t p = x.index / kPageNodes;
  return p < pages_.size() && pages_[p] ? pages_[p]->state[x.index % kPageNodes] : State::Unvisited;
}

RoundingBound::Page& RoundingBound::page(expr::ExprId x) {
  size_t p = x.index / kPageNodes;
  if (p >= pages_.size()) pages_.resize(st_.size() / kPageNodes + 1);  // nodes built since the last call
  if (!pages_[p]) pages_[p] = std::make_unique<Page>();
  return *pages_[p];
}

const std::optional<BoundedValue> RoundingBound::result(expr::ExprId x) const {
  if (state_of(x) != State::Bounded) return std::nullopt;
  return pages_[x.index / kPageNodes]->get(x.index % kPageNodes);
}

// Operands before the node, each node once, iteratively (the DAGs of unrolled kernels are deep).
std::optional<BoundedValue> RoundingBound::at(expr::ExprId root) {
  std::vector<expr::ExprId> stack{root};
  while (!stack.empty()) {
    expr::ExprId x = stack.back();
    State& s = page(x).state[x.index % kPageNodes];
    if (s == State::Bounded || s == State::Unbounded) {
      stack.pop_back();
      continue;
    }
    if (s == State::Unvisited) {
      s = State::Expanded;
      // A Select's condition is evaluated by truth(), which calls at() for its operands.
      uint32_t first = st_.kind(x) == expr::Kind::Select ? 1 : 0;
      for (uint32_t i = first; i < st_.arity(x); ++i) {
        expr::ExprId c = st_.operand(x, i);
        if (state_of(c) == State::Unvisited) stack.push_back(c);
      }
      continue;
    }
    stack.pop_back();
    std::optional<BoundedValue> r = combine(x);
    // x also stands for log(exp(x)) where a program computed that: exp's relative error becomes
    // an absolute one through log, which adds its own.
    if (r && st_.stands_for_routines(x))
      r->error += model_.function_error * (std::fabs(r->value) + 2) + model_.absolute_floor;
    Page& pg = page(x);
    pg.state[x.index % kPageNodes] = r ? State::Bounded : State::Unbounded;
    if (r) pg.set(x.index % kPageNodes, *r);
    if (r && !st_.unfolded(x).empty()) with_unfolded(x, *r);
  }
  return result(root);
}

// x also stands for float sums of operands whose terms cancelled or merged (Store::unfolded):
// each operand's error, then the sum's own rounding. Bounded by x's own bound first, since an
// operand may read x itself (b - a in a + (b - a), which is b); none where an operand has none.
void RoundingBound::with_unfolded(expr::ExprId x, BoundedValue own) {
  if (unfolding_depth_ >= kMaxUnfoldingDepth) {
    page(x).state[x.index % kPageNodes] = State::Unbounded;
    return;
  }
  ++unfolding_depth_;
  BoundedValue widest = own;
  bool bounded = true;
  for (auto [a, b] : st_.unfolded(x)) {
    // (An operand whose own operands are being bounded further up, x among them, is left out:
    // bounding it now would find them without a bound.)
    if (state_of(a) == State::Expanded || state_of(b) == State::Expanded) continue;
    std::optional<BoundedValue> ea = at(a), eb = at(b);
    if (!ea || !eb) {
      bounded = false;
      break;
    }
    widest.error = std::max(widest.error, ea->error + eb->error + model_.unit_roundoff * std::fabs(own.value) + model_.absolute_floor);
  }
  --unfolding_depth_;
  Page& pg = page(x);
  pg.state[x.index % kPageNodes] = bounded ? State::Bounded : State::Unbounded;
  if (bounded) pg.set(x.index % kPageNodes, widest);
}

std::optional<BoundedValue> RoundingBound::combine(expr::ExprId x) {
  const long double u = model_.unit_roundoff, fe = model_.function_error, floor = model_.absolute_floor;
  auto operand = [&](uint32_t i) { return result(st_.operand(x, i)); };
  BoundedValue r;
  expr::Kind kind = st_.kind(x);
  piecewise_ |= kind == expr::Kind::Select || kind == expr::Kind::Min || kind == expr::Kind::Max ||
                (kind == expr::Kind::Func && (st_.func_kind(x) == expr::FuncKind::Abs || expr::is_wrap(st_.func_kind(x))));
  switch (kind) {
    case expr::Kind::Const:
      if (!st_.is_rational(x)) return std::nullopt;
      r.value = as_long_double(st_.rational(x));
      r.error = conversion_error(st_.rational(x), r.value);
      // A constant no float holds (1/3, or logf's polynomial evaluated exactly at a constant the
      // Store folded a / a into) is one the program computed and rounded at least once.
      if (r.error > 0) r.error = std::max(r.error, u * std::fabs(r.value));
      break;
    case expr::Kind::Symbol: {
      // (A double is exact: every value a program holds, which is what a point gives.)
      if (std::optional<double> d = at_.exact_double(x)) {
        r.value = *d;
        break;
      }
      const mpq_class* q = at_.rational(x);
      if (!q) return std::nullopt;
      r.value = as_long_double(*q);
      r.error = conversion_error(*q, r.value);
      break;
    }
    case expr::Kind::Add: {
      const mpq_class& c = st_.coef(x);
      const bool unit = st_.unit_weights(x);  // (a dot product's terms: no weight to convert)
      r.value = as_long_double(c);
      long double magnitude = std::fabs(r.value);
      uint32_t n = st_.arity(x) + (sgn(c) != 0 ? 1 : 0);
      for (uint32_t i = 0; i < st_.arity(x); ++i) {
        auto t = operand(i);
        if (!t) return std::nullopt;
        long double w = unit ? 1 : as_long_double(st_.weight(x, i));
        r.value += w * t->value;
        r.error += std::fabs(w) * t->error;
        magnitude += std::fabs(w) * (std::fabs(t->value) + t->error);
      }
      r.error += u * n * magnitude + n * floor;
      break;
    }
    case expr::Kind::Mul: {
      // |prod (b_j + e_j)^w_j - prod b_j^w_j| <= prod (|b_j|^w_j + F_j) - prod |b_j|^w_j, with F_j
      // the largest change of |b_j|^w_j over [|b_j| - e_j, |b_j| + e_j].
      long double coef = as_long_double(st_.coef(x));
      long double exact = 1, perturbed = 1;
      long double operations = 1;
      const bool unit = st_.unit_weights(x);
      r.value = coef;
      for (uint32_t i = 0; i < st_.arity(x); ++i) {
        auto b = operand(i);
        if (!b) return std::nullopt;
        long double w = unit ? 1 : as_long_double(st_.weight(x, i));
        long double mag = std::fabs(b->value), p = power(mag, w), changed;
        if (w < 0) {
          if (b->error * 2 >= mag) return std::nullopt;  // a pole within the operand's error
          changed = power(mag - b->error, w);
        } else {
          changed = power(mag + b->error, w);
        }
        r.value *= power(b->value, w);
        exact *= p;
        perturbed *= changed;
        operations += std::fabs(w);
      }
      r.error = std::fabs(coef) * (perturbed - exact) + u * operations * std::fabs(coef) * perturbed + floor * operations;
      break;
    }
    case expr::Kind::Func: {
      auto a = operand(0);
      if (!a) return std::nullopt;
      long double v = a->value, e = a->error;
      if (expr::is_wrap(st_.func_kind(x))) {
        // A step function (integer wrap-around, or floor over the reals where a program rounds
        // to an integer): v less the multiple of the period below it, where v, everything
        // within its error and the long double's own lie in one period; none where they may
        // cross into the next.
        const expr::FuncKind f = st_.func_kind(x);
        const long double period = std::ldexp(1.0L, static_cast<int>(expr::wrap_bits(f)));
        const long double lo = expr::wrap_signed(f) ? -period / 2 : 0;
        const long double slack = e + std::fabs(v) * 0x1p-60L;
        const long double k = std::floor((v - slack - lo) / period);
        if (k != std::floor((v + slack - lo) / period)) return std::nullopt;
        r = {v - period * k, slack};
        break;
      }
      switch (st_.func_kind(x)) {
        case expr::FuncKind::Abs:
          r = {std::fabs(v), e};
          break;
        case expr::FuncKind::Exp:
          r.value = std::exp(v);
          r.error = r.value * std::expm1(e) + fe * r.value * std::exp(e) + floor;
          break;
        case expr::FuncKind::Log:
          if (v - 2 * e <= 0) return std::nullopt;
          r.value = std::log(v);
          r.error = -std::log1p(-e / v) + fe * (std::fabs(r.value) + 1);
          break;
        case expr::FuncKind::Sqrt: {
          if (v + e < 0) return std::nullopt;
          r.value = std::sqrt(std::max(v, 0.0L));
          long double hi = std::sqrt(std::max(v + e, 0.0L)), lo = std::sqrt(std::max(v - e, 0.0L));
          r.error = std::max(hi - r.value, r.value - lo) + fe * r.value + floor;
          break;
        }
        case expr::FuncKind::Tanh:
          r.value = std::tanh(v);
          r.error = e + fe * std::fabs(r.value) + floor;
          break;
        case expr::FuncKind::Erf:
          r.value = std::erf(v);
          r.error = kTwoOverSqrtPi * e + fe * std::fabs(r.value) + floor;
          break;
        case expr::FuncKind::Sin:
        case expr::FuncKind::Cos:
          r.value = st_.func_kind(x) == expr::FuncKind::Sin ? std::sin(v) : std::cos(v);
          r.error = e + fe * (1 + std::fabs(v) / 8) + floor;
          break;
      }
      break;
    }
    case expr::Kind::Min:
    case expr::Kind::Max: {
      bool is_min = st_.kind(x) == expr::Kind::Min;
      for (uint32_t i = 0; i < st_.arity(x); ++i) {
        auto t = operand(i);
        if (!t) return std::nullopt;
        if (i == 0 || (is_min ? t->value < r.value : t->value > r.value)) r.value = t->value;
        r.error = std::max(r.error, t->error);
      }
      break;
    }
    case expr::Kind::Select: {
      Truth c = truth(st_.operand(x, 0));
      auto t = operand(1), f = operand(2);
      if (c == Truth::Failed) return std::nullopt;
      if (c == Truth::True || c == Truth::False) {
        auto chosen = c == Truth::True ? t : f;
        if (!chosen) return std::nullopt;
        return chosen;
      }
      // The program may take either branch; the exact value is the exact comparison's.
      if (!t || !f) return std::nullopt;
      bool exact = exact_truth_.at(st_.operand(x, 0).index);
      const BoundedValue& chosen = exact ? *t : *f;
      const BoundedValue& other = exact ? *f : *t;
      r.value = chosen.value;
      r.error = std::max(chosen.error, std::fabs(other.value - chosen.value) + other.error);
      break;
    }
    case expr::Kind::Bool:
    case expr::Kind::Cmp:
      return std::nullopt;  // conditions are not numbers
  }
  if (!std::isfinite(r.value) || !std::isfinite(r.error) || std::fabs(r.value) + r.error > model_.max_finite)
    return std::nullopt;
  return r;
}

RoundingBound::Truth RoundingBound::truth(expr::ExprId c) {
  if (auto it = truth_memo_.find(c.index); it != truth_memo_.end()) return it->second;
  Truth result = Truth::Failed;
  bool exact = false;
  switch (st_.kind(c)) {
    case expr::Kind::Bool:
      exact = st_.bool_value(c);
      result = exact ? Truth::True : Truth::False;
      break;
    case expr::Kind::Cmp: {
      auto a = at(st_.operand(c, 0)), b = at(st_.operand(c, 1));
      if (!a || !b) break;
      long double d = a->value - b->value, e = a->error + b->error;
      switch (st_.cmp_op(c)) {
        case expr::CmpOp::Lt: exact = d < 0; break;
        case expr::CmpOp::Le: exact = d <= 0; break;
        case expr::CmpOp::Eq: exact = d == 0; break;
        case expr::CmpOp::Ne: exact = d != 0; break;
        default: break;  // Gt and Ge are stored swapped
      }
      bool settled = std::fabs(d) > e || e == 0;  // exact operands compare exactly
      result = settled ? (exact ? Truth::True : Truth::False) : Truth::Unsettled;
      break;
    }
    case expr::Kind::Select: {  // cond ? p : q over conditions
      Truth k = truth(st_.operand(c, 0));
      if (k == Truth::Failed) break;
      Truth p = truth(st_.operand(c, 1)), q = truth(st_.operand(c, 2));
      if (p == Truth::Failed || q == Truth::Failed) break;
      bool ek = exact_truth_.at(st_.operand(c, 0).index);
      exact = exact_truth_.at(st_.operand(c, ek ? 1 : 2).index);
      if (k == Truth::True) result = p;
      else if (k == Truth::False) result = q;
      else result = (p == q && p != Truth::Unsettled) ? p : Truth::Unsettled;
      break;
    }
    default:
      break;
  }
  exact_truth_[c.index] = exact;
  truth_memo_[c.index] = result;
  return result;
}

}  // namespace racer::decide
