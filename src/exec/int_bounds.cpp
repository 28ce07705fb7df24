#include "exec/int_bounds.hpp"

#include <algorithm>

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
      bool ok = true;
      Interval acc;
      for (uint32_t i = 0; i < store_.arity(e) && ok; ++i) {
        auto t = of(store_.operand(e, i));
        if (!t) ok = false;
        else if (i == 0) acc = *t;
        else if (store_.kind(e) == Kind::Min) acc = {std::min(acc.lo, t->lo), std::min(acc.hi, t->hi)};
        else acc = {std::max(acc.lo, t->lo), std::max(acc.hi, t->hi)};
      }
      if (ok) r = acc;
      break;
    }
    default:
      break;
  }
  memo_.emplace(e.index, r);
  return r;
}

}  // namespace racer::exec
