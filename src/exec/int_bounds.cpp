#include "exec/int_bounds.hpp"

#include <algorithm>

#include "expr/eval.hpp"
#include "expr/substitute.hpp"

namespace racer::exec {
namespace {

Interval scale(const Interval& x, const mpq_class& c) {
  return c >= 0 ? Interval{x.lo * c, x.hi * c} : Interval{x.hi * c, x.lo * c};
}

Interval times(const Interval& a, const Interval& b) {
  mpq_class p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  return {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
}

}  // namespace

std::optional<Interval> IntBounds::of(expr::ExprId e) {
  if (auto it = memo_.find(e.index); it != memo_.end()) return it->second;
  using expr::Kind;
  std::optional<Interval> r;
  switch (store_.kind(e)) {
    case Kind::Const:
      if (store_.is_rational(e)) r = Interval{store_.rational(e), store_.rational(e)};
      break;
    case Kind::Symbol:
      if (symbol_range_) r = symbol_range_(e);
      break;
    case Kind::Add: {
      Interval acc{store_.coef(e), store_.coef(e)};
      bool ok = true;
      for (uint32_t i = 0; i < store_.arity(e) && ok; ++i) {
        auto t = of(store_.operand(e, i));
        if (!t) ok = false;
        else {
          Interval s = scale(*t, store_.weight(e, i));
          acc.lo += s.lo, acc.hi += s.hi;
        }
      }
      if (ok) r = acc;
      break;
    }
    case Kind::Mul: {
      Interval acc{store_.coef(e), store_.coef(e)};
      bool ok = true;
      for (uint32_t i = 0; i < store_.arity(e) && ok; ++i) {
        const mpq_class& w = store_.weight(e, i);
        auto t = of(store_.operand(e, i));
        if (!t || w < 0 || w.get_den() != 1) ok = false;
        else
          for (long k = 0; k < w.get_num().get_si(); ++k) acc = times(acc, *t);
      }
      if (ok) r = acc;
      break;
    }
    case Kind::Select: {
      auto a = of(store_.operand(e, 1)), b = of(store_.operand(e, 2));
      if (a && b) r = Interval{std::min(a->lo, b->lo), std::max(a->hi, b->hi)};
      break;
    }
    case Kind::Min:
    case Kind::Max: {
      auto [lo, hi] = one_sided(e);
      if (lo && hi) r = Interval{*lo, *hi};
      break;
    }
    case Kind::Func: {
      const expr::FuncKind f = store_.func_kind(e);
      if (!expr::is_wrap(f)) break;
      const unsigned bits = expr::wrap_bits(f);
      const mpz_class lo = expr::wrap_signed(f) ? mpz_class(-(mpz_class(1) << (bits - 1))) : mpz_class(0);
      // An integer operand's residue is an integer in [lo, lo + 2^w - 1]; a real one's (floor
      // over the reals) may come as close to lo + 2^w as it likes.
      const mpz_class top = lo + (mpz_class(1) << bits) - (store_.integral(store_.operand(e, 0)) ? 1 : 0);
      const Interval range{mpq_class(lo), mpq_class(top)};
      auto a = of(store_.operand(e, 0));
      r = a && a->lo >= range.lo && a->hi <= range.hi ? *a : range;
      break;
    }
    default:
      break;
  }
  memo_.emplace(e.index, r);
  return r;
}

std::optional<Interval> IntBounds::enumerate(expr::ExprId e) {
  if (auto known = enumerated_.find(e.index); known != enumerated_.end()) return known->second;
  std::optional<Interval> r = enumerate_anew(e);
  enumerated_.emplace(e.index, r);
  return r;
}

std::optional<Interval> IntBounds::enumerate_anew(expr::ExprId e) {
  std::vector<expr::ExprId> syms = expr::free_symbols(store_, e);
  if (syms.size() != 1 || !symbol_range_) return std::nullopt;
  std::optional<Interval> range = symbol_range_(syms.front());
  if (!range || range->lo.get_den() != 1 || range->hi.get_den() != 1 || range->hi - range->lo >= kMaxPoints)
    return std::nullopt;
  std::optional<Interval> r;
  expr::Assignment at;
  for (mpz_class v = range->lo.get_num(); v <= range->hi.get_num(); ++v) {
    at.set(syms.front(), mpq_class(v));
    std::optional<mpq_class> x = expr::eval_exact(store_, e, at);
    if (!x) return std::nullopt;
    r = r ? Interval{std::min(r->lo, *x), std::max(r->hi, *x)} : Interval{*x, *x};
  }
  if (r) note(e, *r);
  return r;
}

// A minimum is at most each operand's upper bound and a maximum at least each operand's lower
// bound, whatever the others are: a clamp min(max(x, L), H) of an unbounded x lies in [L, H].
std::pair<std::optional<mpq_class>, std::optional<mpq_class>> IntBounds::one_sided(expr::ExprId e) {
  using expr::Kind;
  if (store_.kind(e) != Kind::Min && store_.kind(e) != Kind::Max) {
    auto b = of(e);
    if (!b) return {};
    return {b->lo, b->hi};
  }
  const bool is_min = store_.kind(e) == Kind::Min;
  std::optional<mpq_class> lo, hi;  // of the operands' bounds: the one that holds whatever the others are
  bool all_lo = true, all_hi = true;
  for (uint32_t i = 0; i < store_.arity(e); ++i) {
    auto [l, h] = one_sided(store_.operand(e, i));
    if (is_min) {
      if (h) hi = hi ? std::min(*hi, *h) : *h;
      all_lo = all_lo && l;
      if (l) lo = lo ? std::min(*lo, *l) : *l;
    } else {
      if (l) lo = lo ? std::max(*lo, *l) : *l;
      all_hi = all_hi && h;
      if (h) hi = hi ? std::max(*hi, *h) : *h;
    }
  }
  if (!all_lo) lo.reset();
  if (!all_hi) hi.reset();
  return {lo, hi};
}

void IntBounds::note(expr::ExprId e, const Interval& known) {
  std::optional<Interval> b = of(e);
  memo_[e.index] = b ? Interval{std::max(b->lo, known.lo), std::min(b->hi, known.hi)} : known;
}

}  // namespace racer::exec
