#include "expr/eval.hpp"

#include <vector>

#include "expr/rational_ops.hpp"
#include "support/error.hpp"

namespace racer::expr {

namespace {

// An extended value: an exact rational (conditions are 0/1), an infinity, a finite real
// known only to exist (exp(1); for a condition: defined but undecided here), or nothing
// (undefined, or unknowable here).
struct Val {
  enum Tag : uint8_t { Q, PosInf, NegInf, Real, Fail } tag = Fail;
  mpq_class q;

  static Val rat(mpq_class v) { return Val{Q, std::move(v)}; }
  static Val of(Tag t) { return Val{t, mpq_class()}; }
  bool inf() const { return tag == PosInf || tag == NegInf; }
  bool finite() const { return tag == Q || tag == Real; }
  bool exact() const { return tag == Q || inf(); }
};

// Order on exact values: -1, 0, 1.
int compare(const Val& a, const Val& b) {
  auto rank = [](const Val& v) { return v.tag == Val::PosInf ? 1 : v.tag == Val::NegInf ? -1 : 0; };
  if (rank(a) != rank(b)) return rank(a) < rank(b) ? -1 : 1;
  if (rank(a) != 0) return 0;
  return cmp(a.q, b.q) < 0 ? -1 : cmp(a.q, b.q) > 0 ? 1 : 0;
}

class Evaluator {
 public:
  Evaluator(const Store& s, const Assignment& at) : s_(s), at_(at) {}

  Val run(ExprId root) {
    stack_.push_back({root, 0});
    while (!stack_.empty()) {
      Frame f = stack_.back();
      if (memo_.count(f.id.index)) {
        stack_.pop_back();
        continue;
      }
      if (f.stage == 0) {
        stack_.back().stage = 1;
        push_needed(f.id);
      } else if (f.stage == 1 && s_.kind(f.id) == Kind::Select) {
        // The condition is known now; evaluate only the branch it picks (the other may be
        // undefined, as masked lanes' values are).
        stack_.back().stage = 2;
        const Val& c = memo_.at(s_.operand(f.id, 0).index);
        if (c.tag == Val::Q) {
          push(s_.operand(f.id, c.q != 0 ? 1 : 2));
        } else if (c.tag == Val::Real) {
          push(s_.operand(f.id, 1));
          push(s_.operand(f.id, 2));
        }
      } else {
        stack_.pop_back();
        memo_.emplace(f.id.index, compute(f.id));
      }
    }
    return memo_.at(root.index);
  }

 private:
  struct Frame {
    ExprId id;
    uint8_t stage;
  };

  void push(ExprId x) {
    if (!memo_.count(x.index)) stack_.push_back({x, 0});
  }

  void push_needed(ExprId x) {
    if (s_.kind(x) == Kind::Select) {
      push(s_.operand(x, 0));
      return;
    }
    for (uint32_t i = 0; i < s_.arity(x); ++i) push(s_.operand(x, i));
  }

  const Val& get(ExprId x) const { return memo_.at(x.index); }

  Val compute(ExprId x);
  Val eval_add(ExprId x);
  Val eval_mul(ExprId x);
  Val eval_func(ExprId x);
  Val eval_minmax(ExprId x);
  Val eval_cmp(ExprId x);
  Val eval_select(ExprId x);

  const Store& s_;
  const Assignment& at_;
  std::vector<Frame> stack_;
  std::unordered_map<uint32_t, Val> memo_;
};

Val Evaluator::compute(ExprId x) {
  switch (s_.kind(x)) {
    case Kind::Const:
      switch (s_.const_kind(x)) {
        case ConstKind::Rational: return Val::rat(s_.rational(x));
        case ConstKind::PosInf: return Val::of(Val::PosInf);
        case ConstKind::NegInf: return Val::of(Val::NegInf);
        case ConstKind::Undefined: return Val::of(Val::Fail);
      }
      return Val::of(Val::Fail);
    case Kind::Bool: return Val::rat(s_.bool_value(x) ? 1 : 0);
    case Kind::Symbol: {
      std::optional<mpq_class> given = at_.value(x);
      if (!given) throw Error(ExitCode::Internal, "eval_exact: no value for symbol " + s_.symbol_name(x));
      mpq_class v = std::move(*given);
      v.canonicalize();  // callers may write mpq_class(2, 4), which GMP does not reduce
      return Val::rat(std::move(v));
    }
    case Kind::Add: return eval_add(x);
    case Kind::Mul: return eval_mul(x);
    case Kind::Func: return eval_func(x);
    case Kind::Min:
    case Kind::Max: return eval_minmax(x);
    case Kind::Cmp: return eval_cmp(x);
    case Kind::Select: return eval_select(x);
  }
  return Val::of(Val::Fail);
}

Val Evaluator::eval_add(ExprId x) {
  mpq_class sum = s_.coef(x);
  bool pos = false, neg = false, real = false;
  for (uint32_t i = 0; i < s_.arity(x); ++i) {
    const Val& v = get(s_.operand(x, i));
    const mpq_class& w = s_.weight(x, i);
    switch (v.tag) {
      case Val::Q: sum += w * v.q; break;
      case Val::Real: real = real || w != 0; break;
      case Val::PosInf:
      case Val::NegInf:
        if (w == 0) return Val::of(Val::Fail);  // 0 * inf
        ((v.tag == Val::PosInf) == (w > 0) ? pos : neg) = true;
        break;
      case Val::Fail: return v;
    }
  }
  if (pos && neg) return Val::of(Val::Fail);
  if (pos) return Val::of(Val::PosInf);
  if (neg) return Val::of(Val::NegInf);
  return real ? Val::of(Val::Real) : Val::rat(std::move(sum));
}

Val Evaluator::eval_mul(ExprId x) {
  mpq_class prod = s_.coef(x);
  bool zero = prod == 0, inf = false, real = false;
  for (uint32_t i = 0; i < s_.arity(x); ++i) {
    const Val& v = get(s_.operand(x, i));
    const mpz_class e = s_.weight(x, i).get_num();
    switch (v.tag) {
      case Val::Q: {
        if (v.q == 0) {
          if (e < 0) return Val::of(Val::Fail);  // division by zero
          zero = true;
          break;
        }
        std::optional<mpq_class> p = detail::rat_pow(v.q, e);
        if (!p) return Val::of(Val::Fail);  // too large to compute
        prod *= *p;
        break;
      }
      case Val::Real:
        if (e < 0) return Val::of(Val::Fail);  // it might be 0
        real = true;
        break;
      case Val::PosInf:
      case Val::NegInf:
        if (e < 0) {
          zero = true;  // 1/inf
        } else {
          inf = true;
          if (v.tag == Val::NegInf && mpz_odd_p(e.get_mpz_t())) prod = -prod;
        }
        break;
      case Val::Fail: return v;
    }
  }
  if (zero) return inf ? Val::of(Val::Fail) : Val::rat(0);
  if (inf) {
    if (real) return Val::of(Val::Fail);  // a real of unknown sign times inf
    return Val::of(prod > 0 ? Val::PosInf : Val::NegInf);
  }
  return real ? Val::of(Val::Real) : Val::rat(std::move(prod));
}

Val Evaluator::eval_func(ExprId x) {
  FuncKind f = s_.func_kind(x);
  const Val& v = get(s_.operand(x, 0));
  if (v.tag == Val::Fail) return v;
  if (is_wrap(f)) {
    if (v.tag == Val::Q) return Val::rat(detail::wrap_value(v.q, wrap_bits(f), wrap_signed(f)));
    return v.tag == Val::Real ? v : Val::of(Val::Fail);  // an infinity has no residue
  }
  if (v.tag == Val::Real) {
    // log and sqrt of an unknown real may be undefined; the others are finite reals.
    return (f == FuncKind::Log || f == FuncKind::Sqrt) ? Val::of(Val::Fail) : Val::of(Val::Real);
  }
  if (v.inf()) {
    bool pos = v.tag == Val::PosInf;
    switch (f) {
      case FuncKind::Exp: return pos ? Val::of(Val::PosInf) : Val::rat(0);
      case FuncKind::Log:
      case FuncKind::Sqrt: return pos ? Val::of(Val::PosInf) : Val::of(Val::Fail);
      case FuncKind::Tanh:
      case FuncKind::Erf: return Val::rat(pos ? 1 : -1);
      case FuncKind::Sin:
      case FuncKind::Cos: return Val::of(Val::Fail);
      case FuncKind::Abs: return Val::of(Val::PosInf);
    }
  }
  const mpq_class& q = v.q;
  switch (f) {
    case FuncKind::Exp: return q == 0 ? Val::rat(1) : Val::of(Val::Real);
    case FuncKind::Log:
      if (q < 0) return Val::of(Val::Fail);
      if (q == 0) return Val::of(Val::NegInf);
      return q == 1 ? Val::rat(0) : Val::of(Val::Real);
    case FuncKind::Sqrt: {
      if (q < 0) return Val::of(Val::Fail);
      std::optional<mpq_class> r = detail::exact_sqrt(q);
      return r ? Val::rat(*r) : Val::of(Val::Real);
    }
    case FuncKind::Tanh:
    case FuncKind::Erf:
    case FuncKind::Sin: return q == 0 ? Val::rat(0) : Val::of(Val::Real);
    case FuncKind::Cos: return q == 0 ? Val::rat(1) : Val::of(Val::Real);
    case FuncKind::Abs: return Val::rat(abs(q));
  }
  return Val::of(Val::Fail);
}

Val Evaluator::eval_minmax(ExprId x) {
  bool is_max = s_.kind(x) == Kind::Max;
  std::optional<Val> best;  // extreme of the exact arguments
  bool real = false;
  for (uint32_t i = 0; i < s_.arity(x); ++i) {
    const Val& v = get(s_.operand(x, i));
    if (v.tag == Val::Fail) return v;
    if (v.tag == Val::Real) {
      real = true;
    } else if (!best || compare(v, *best) == (is_max ? 1 : -1)) {
      best = v;
    }
  }
  if (!real) return *best;
  // An unknown real is beaten only by the absorbing infinity, and beats the identity one.
  if (best && best->tag == (is_max ? Val::PosInf : Val::NegInf)) return *best;
  return Val::of(Val::Real);
}

Val Evaluator::eval_cmp(ExprId x) {
  const Val& a = get(s_.operand(x, 0));
  const Val& b = get(s_.operand(x, 1));
  int sign;
  if (a.exact() && b.exact()) {
    sign = compare(a, b);
  } else if (a.inf() && b.finite()) {
    sign = a.tag == Val::PosInf ? 1 : -1;
  } else if (b.inf() && a.finite()) {
    sign = b.tag == Val::PosInf ? -1 : 1;
  } else if (a.tag == Val::Fail || b.tag == Val::Fail) {
    return Val::of(Val::Fail);  // a comparison with an undefined side is undefined
  } else {
    return Val::of(Val::Real);  // defined, but it takes more than rationals to decide
  }
  bool r = false;
  switch (s_.cmp_op(x)) {
    case CmpOp::Lt: r = sign < 0; break;
    case CmpOp::Le: r = sign <= 0; break;
    case CmpOp::Eq: r = sign == 0; break;
    case CmpOp::Ne: r = sign != 0; break;
    case CmpOp::Gt: r = sign > 0; break;
    case CmpOp::Ge: r = sign >= 0; break;
  }
  return Val::rat(r ? 1 : 0);
}

Val Evaluator::eval_select(ExprId x) {
  const Val& c = get(s_.operand(x, 0));
  if (c.tag == Val::Q) return get(s_.operand(x, c.q != 0 ? 1 : 2));
  if (c.tag != Val::Real) return Val::of(Val::Fail);
  // An undecided condition: the value is still known when both branches agree.
  const Val& a = get(s_.operand(x, 1));
  const Val& b = get(s_.operand(x, 2));
  if (a.exact() && b.exact() && compare(a, b) == 0) return a;
  if (a.finite() && b.finite()) return Val::of(Val::Real);
  return Val::of(Val::Fail);
}

}  // namespace

std::optional<mpq_class> eval_exact(const Store& s, ExprId x, const Assignment& at) {
  Val v = Evaluator(s, at).run(x);
  if (v.tag != Val::Q) return std::nullopt;
  return std::move(v.q);
}

std::optional<ExtendedValue> eval_extended(const Store& s, ExprId x, const Assignment& at) {
  Val v = Evaluator(s, at).run(x);
  if (v.tag == Val::Q) return ExtendedValue{std::move(v.q), 0};
  if (v.inf()) return ExtendedValue{mpq_class(0), v.tag == Val::PosInf ? 1 : -1};
  return std::nullopt;
}

}  // namespace racer::expr
