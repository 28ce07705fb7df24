#include "decide/ball_eval.hpp"

#include <iterator>
#include <memory>
#include <unordered_map>
#include <vector>

#include <arb.h>  // last: flint.h defines a macro named ulong
#include <arb_hypgeom.h>

namespace racer::decide {

namespace {

using expr::ExprId;
using expr::FuncKind;
using expr::Kind;
using expr::Store;

struct Ball {
  enum Tag { Num, True, False, Fail } tag = Fail;
  arb_t v;
  Ball() { arb_init(v); }
  ~Ball() { arb_clear(v); }
  Ball(const Ball&) = delete;
  Ball& operator=(const Ball&) = delete;
};

void set_rational(arb_t out, const mpq_class& q, long prec) {
  fmpq_t f;
  fmpq_init(f);
  fmpq_set_mpq(f, q.get_mpq_t());
  arb_set_fmpq(out, f, prec);
  fmpq_clear(f);
}

// Whether a ball's midpoint is a rational of reasonable size: exp(exp(1e38)) makes a finite
// ball whose exponent no exact rational can hold (GMP aborts on such a size).
bool moderate(const arb_t x) {
  constexpr long kMaxExponent = 1L << 20;
  const arf_struct* m = arb_midref(x);
  return arf_is_zero(m) || (arf_cmpabs_2exp_si(m, kMaxExponent) < 0 && arf_cmpabs_2exp_si(m, -kMaxExponent) > 0);
}

mpq_class midpoint(const arb_t x) {
  fmpz_t m, e;
  fmpz_init(m);
  fmpz_init(e);
  arf_get_fmpz_2exp(m, e, arb_midref(x));
  mpz_class mz;
  fmpz_get_mpz(mz.get_mpz_t(), m);
  long ex = fmpz_get_si(e);  // the exponent of a ball computed from a point: small
  fmpz_clear(m);
  fmpz_clear(e);
  mpq_class q(mz);
  if (ex >= 0) {
    mpq_mul_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<mp_bitcnt_t>(ex));
  } else {
    mpq_div_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<mp_bitcnt_t>(-ex));
  }
  return q;
}

class BallEvaluator {
 public:
  BallEvaluator(const Store& s, const expr::Assignment& at, long prec) : s_(s), at_(at), prec_(prec) {}

  const Ball& run(ExprId root) {
    struct Frame {
      ExprId id;
      int stage;
    };
    std::vector<Frame> stack{{root, 0}};
    while (!stack.empty()) {
      Frame f = stack.back();
      if (memo_.count(f.id.index)) {
        stack.pop_back();
        continue;
      }
      bool select = s_.kind(f.id) == Kind::Select;
      if (f.stage == 0) {
        stack.back().stage = 1;
        // A select evaluates its condition first and then only the branch it picks: the
        // other one may well be undefined there (masked lanes).
        uint32_t n = select ? 1 : s_.arity(f.id);
        for (uint32_t i = 0; i < n; ++i) push(stack, s_.operand(f.id, i));
      } else if (f.stage == 1 && select) {
        stack.back().stage = 2;
        const Ball& c = get(s_.operand(f.id, 0));
        if (c.tag == Ball::True || c.tag == Ball::False) push(stack, s_.operand(f.id, c.tag == Ball::True ? 1 : 2));
      } else {
        stack.pop_back();
        auto b = std::make_unique<Ball>();
        compute(f.id, *b);
        memo_.emplace(f.id.index, std::move(b));
      }
    }
    return get(root);
  }

 private:
  template <class Stack>
  void push(Stack& stack, ExprId x) {
    if (!memo_.count(x.index)) stack.push_back({x, 0});
  }
  const Ball& get(ExprId x) const { return *memo_.at(x.index); }

  void compute(ExprId x, Ball& out);
  void compute_func(ExprId x, Ball& out);
  void compute_wrap(ExprId x, const Ball& a, Ball& out);
  void compute_cmp(ExprId x, Ball& out);

  const Store& s_;
  const expr::Assignment& at_;
  long prec_;
  std::unordered_map<uint32_t, std::unique_ptr<Ball>> memo_;
};

void BallEvaluator::compute(ExprId x, Ball& out) {
  out.tag = Ball::Fail;
  // Any failed operand fails the node (a select only looked at the operands it needed).
  if (s_.kind(x) != Kind::Select) {
    for (uint32_t i = 0; i < s_.arity(x); ++i) {
      if (get(s_.operand(x, i)).tag == Ball::Fail) return;
    }
  }
  arb_t t;
  arb_init(t);
  switch (s_.kind(x)) {
    case Kind::Const:
      if (s_.is_rational(x)) {
        set_rational(out.v, s_.rational(x), prec_);
        out.tag = Ball::Num;
      }
      break;
    case Kind::Bool: out.tag = s_.bool_value(x) ? Ball::True : Ball::False; break;
    case Kind::Symbol: {
      if (std::optional<mpq_class> v = at_.value(x)) {
        set_rational(out.v, *v, prec_);
        out.tag = Ball::Num;
      }
      break;
    }
    case Kind::Add:
      set_rational(out.v, s_.coef(x), prec_);
      out.tag = Ball::Num;
      for (uint32_t i = 0; i < s_.arity(x); ++i) {
        const Ball& term = get(s_.operand(x, i));
        // A zero weight is a NaN guard: fine where the term is a finite number.
        if (term.tag != Ball::Num || !arb_is_finite(term.v)) out.tag = Ball::Fail;
        if (s_.weight(x, i) == 0) continue;
        set_rational(t, s_.weight(x, i), prec_);
        arb_addmul(out.v, t, term.v, prec_);
      }
      break;
    case Kind::Mul: {
      bool zero = s_.coef(x) == 0;
      set_rational(out.v, s_.coef(x), prec_);
      out.tag = Ball::Num;
      for (uint32_t i = 0; i < s_.arity(x) && out.tag == Ball::Num; ++i) {
        const Ball& base = get(s_.operand(x, i));
        if (base.tag != Ball::Num || !arb_is_finite(base.v)) {
          out.tag = Ball::Fail;
          break;
        }
        if (zero) continue;
        const mpq_class& w = s_.weight(x, i);
        if (w < 0 && arb_contains_zero(base.v)) {
          out.tag = Ball::Fail;  // maybe a division by zero
          break;
        }
        fmpz_t e;
        fmpz_init(e);
        fmpz_set_mpz(e, w.get_num_mpz_t());
        arb_pow_fmpz(t, base.v, e, prec_);
        fmpz_clear(e);
        arb_mul(out.v, out.v, t, prec_);
      }
      break;
    }
    case Kind::Func: compute_func(x, out); break;
    case Kind::Min:
    case Kind::Max: {
      bool is_max = s_.kind(x) == Kind::Max;
      arb_set(out.v, get(s_.operand(x, 0)).v);
      out.tag = Ball::Num;
      for (uint32_t i = 1; i < s_.arity(x); ++i) {
        if (get(s_.operand(x, i)).tag != Ball::Num) out.tag = Ball::Fail;
        (is_max ? arb_max : arb_min)(out.v, out.v, get(s_.operand(x, i)).v, prec_);
      }
      break;
    }
    case Kind::Cmp: compute_cmp(x, out); break;
    case Kind::Select: {
      const Ball& c = get(s_.operand(x, 0));
      if (c.tag != Ball::True && c.tag != Ball::False) break;
      const Ball& v = get(s_.operand(x, c.tag == Ball::True ? 1 : 2));
      out.tag = v.tag;
      arb_set(out.v, v.v);
      break;
    }
  }
  arb_clear(t);
  if (out.tag == Ball::Num && !arb_is_finite(out.v)) out.tag = Ball::Fail;
}

void BallEvaluator::compute_func(ExprId x, Ball& out) {
  const Ball& a = get(s_.operand(x, 0));
  if (a.tag != Ball::Num) return;
  if (expr::is_wrap(s_.func_kind(x))) return compute_wrap(x, a, out);
  out.tag = Ball::Num;
  switch (s_.func_kind(x)) {
    case FuncKind::Exp: arb_exp(out.v, a.v, prec_); break;
    case FuncKind::Log:
      if (!arb_is_positive(a.v)) {
        out.tag = Ball::Fail;  // log(0) = -inf and log(<0) is undefined
        break;
      }
      arb_log(out.v, a.v, prec_);
      break;
    case FuncKind::Sqrt:
      if (!arb_is_nonnegative(a.v)) {
        out.tag = Ball::Fail;
        break;
      }
      arb_sqrt(out.v, a.v, prec_);
      break;
    case FuncKind::Tanh: arb_tanh(out.v, a.v, prec_); break;
    case FuncKind::Erf: arb_hypgeom_erf(out.v, a.v, prec_); break;
    case FuncKind::Sin: arb_sin(out.v, a.v, prec_); break;
    case FuncKind::Cos: arb_cos(out.v, a.v, prec_); break;
    case FuncKind::Abs: arb_abs(out.v, a.v); break;
  }
}

// a - 2^w k where the whole ball has one quotient k = floor((a - lo) / 2^w); else no ball (the
// residue jumps inside it).
void BallEvaluator::compute_wrap(ExprId x, const Ball& a, Ball& out) {
  if (!arb_is_finite(a.v)) return;
  const FuncKind f = s_.func_kind(x);
  const unsigned bits = expr::wrap_bits(f);
  fmpz_t lo, k_lo, k_hi;
  fmpz_init(lo);
  fmpz_init(k_lo);
  fmpz_init(k_hi);
  if (expr::wrap_signed(f)) {
    fmpz_one(lo);
    fmpz_mul_2exp(lo, lo, bits - 1);
    fmpz_neg(lo, lo);
  }
  arb_t q;
  arf_t l, u;
  arb_init(q);
  arf_init(l);
  arf_init(u);
  arb_sub_fmpz(q, a.v, lo, prec_);
  arb_mul_2exp_si(q, q, -static_cast<slong>(bits));
  arb_get_lbound_arf(l, q, prec_);
  arb_get_ubound_arf(u, q, prec_);
  arf_get_fmpz(k_lo, l, ARF_RND_FLOOR);
  arf_get_fmpz(k_hi, u, ARF_RND_FLOOR);
  if (fmpz_equal(k_lo, k_hi)) {
    fmpz_mul_2exp(k_lo, k_lo, bits);
    arb_sub_fmpz(out.v, a.v, k_lo, prec_);
    out.tag = Ball::Num;
  }
  arf_clear(l);
  arf_clear(u);
  arb_clear(q);
  fmpz_clear(lo);
  fmpz_clear(k_lo);
  fmpz_clear(k_hi);
}

void BallEvaluator::compute_cmp(ExprId x, Ball& out) {
  const Ball& l = get(s_.operand(x, 0));
  const Ball& r = get(s_.operand(x, 1));
  arb_t d;
  arb_init(d);
  arb_sub(d, l.v, r.v, prec_);
  int sign = 2;  // unknown
  if (arb_is_positive(d)) {
    sign = 1;
  } else if (arb_is_negative(d)) {
    sign = -1;
  } else if (arb_is_zero(d)) {
    sign = 0;
  }
  arb_clear(d);
  if (sign == 2) {
    // Balls cannot prove equality of reals that are not both exact binary numbers; the
    // comparison may still be decidable exactly (1/3 against 1/3).
    std::optional<mpq_class> v = expr::eval_exact(s_, x, at_);
    if (v) out.tag = *v != 0 ? Ball::True : Ball::False;
    return;
  }
  bool r_ = false;
  switch (s_.cmp_op(x)) {
    case expr::CmpOp::Lt: r_ = sign < 0; break;
    case expr::CmpOp::Le: r_ = sign <= 0; break;
    case expr::CmpOp::Eq: r_ = sign == 0; break;
    case expr::CmpOp::Ne: r_ = sign != 0; break;
    case expr::CmpOp::Gt: r_ = sign > 0; break;
    case expr::CmpOp::Ge: r_ = sign >= 0; break;
  }
  out.tag = r_ ? Ball::True : Ball::False;
}

}  // namespace

std::optional<BallSeparation> balls_separate(const Store& s, ExprId a, ExprId b, const expr::Assignment& at,
                                             size_t levels) {
  if (s.is_condition(a) || s.is_condition(b)) return std::nullopt;
  for (size_t i = 0; i < levels && i < std::size(kBallPrecisions); ++i) {
    long prec = kBallPrecisions[i];
    BallEvaluator ev(s, at, prec);
    // A side that fails may be undefined there, or hang on a comparison more bits settle.
    const Ball& ba = ev.run(a);
    if (ba.tag != Ball::Num) continue;
    const Ball& bb = ev.run(b);
    if (bb.tag != Ball::Num) continue;
    if (!moderate(ba.v) || !moderate(bb.v)) return std::nullopt;
    if (!arb_overlaps(ba.v, bb.v)) return BallSeparation{midpoint(ba.v), midpoint(bb.v), prec};
  }
  return std::nullopt;
}

std::optional<double> ball_value(const Store& s, ExprId x, const expr::Assignment& at) {
  if (s.is_condition(x)) return std::nullopt;
  BallEvaluator ev(s, at, kBallPrecisions[0]);
  const Ball& b = ev.run(x);
  if (b.tag != Ball::Num) return std::nullopt;
  return arf_get_d(arb_midref(b.v), ARF_RND_NEAR);  // +-inf where it overflows a double
}

}  // namespace racer::decide

namespace racer::decide {

std::optional<bool> ground_comparison(const Store& s, ExprId cmp) {
  if (s.kind(cmp) != expr::Kind::Cmp) return std::nullopt;
  std::optional<BallSeparation> sep = balls_separate(s, s.operand(cmp, 0), s.operand(cmp, 1), expr::Assignment{});
  if (!sep) return std::nullopt;
  // Disjoint balls: the sides differ, and their midpoints are in the sides' order.
  const bool less = sep->mid_a < sep->mid_b;
  switch (s.cmp_op(cmp)) {
    case expr::CmpOp::Lt:
    case expr::CmpOp::Le: return less;
    case expr::CmpOp::Eq: return false;
    case expr::CmpOp::Ne: return true;
    default: return std::nullopt;
  }
}

}  // namespace racer::decide
