#include "decide/points.hpp"

#include <algorithm>

#include "decide/grid.hpp"

namespace racer::decide {

namespace {

// Small dyadics: exactly representable in every format down to FP8 (at most 3 significant
// bits), and short to print.
const std::vector<mpq_class>& simple_base() {
  static const std::vector<mpq_class> v = [] {
    std::vector<mpq_class> out;
    for (auto [n, d] : std::initializer_list<std::pair<long, long>>{
             {0, 1},  {1, 1},  {-1, 1}, {1, 2},  {2, 1},  {-2, 1}, {3, 2}, {-3, 4}, {3, 1},  {-1, 2},
             {1, 4},  {5, 4},  {-3, 2}, {3, 4},  {5, 2},  {-5, 4}, {7, 8}, {4, 1},  {-3, 1}, {1, 8}}) {
      out.emplace_back(n, d);
    }
    return out;
  }();
  return v;
}

constexpr size_t kMaxSimple = 12;

void push_unique(std::vector<mpq_class>& v, const mpq_class& q) {
  if (std::find(v.begin(), v.end(), q) == v.end()) v.push_back(q);
}

std::vector<mpq_class> simple_values(const SymbolDomain& d) {
  std::vector<mpq_class> out;
  if (d.lo && d.hi && *d.lo == *d.hi) {
    if (admissible(*d.lo, d)) out.push_back(*d.lo);
    return out;
  }
  for (const mpq_class& q : simple_base()) {
    if (out.size() >= kMaxSimple) break;
    if (admissible(q, d)) out.push_back(q);
  }
  // A range away from the simple values still gets its ends and interior points.
  if (d.lo && d.hi) {
    const mpq_class& lo = *d.lo;
    const mpq_class& hi = *d.hi;
    for (const mpq_class& q : {lo, hi, mpq_class((lo + hi) / 2), mpq_class((3 * lo + hi) / 4), mpq_class((lo + 3 * hi) / 4)}) {
      if (std::optional<mpq_class> v = snap(q, d)) push_unique(out, *v);
    }
  } else if (d.lo || d.hi) {
    const mpq_class& end = d.lo ? *d.lo : *d.hi;
    int dir = d.lo ? 1 : -1;
    for (long step : {0L, 1L, 2L}) {
      if (std::optional<mpq_class> v = snap(end + dir * step, d)) push_unique(out, *v);
    }
  }
  return out;
}

}  // namespace

uint64_t Rng::next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

PointSource::PointSource(std::vector<expr::ExprId> symbols, std::vector<SymbolDomain> domains, uint64_t seed)
    : symbols_(std::move(symbols)), domains_(std::move(domains)), rng_(seed) {
  for (size_t k = 0; k < symbols_.size(); ++k) {
    const SymbolDomain& d = domains_[k];
    auto same = [&](const auto& entry) {
      return entry.first.grid == d.grid && entry.first.lo == d.lo && entry.first.hi == d.hi;
    };
    auto it = std::find_if(lists_.begin(), lists_.end(), same);
    if (it == lists_.end()) it = lists_.insert(lists_.end(), {d, simple_values(d)});
    simple_.push_back(&it->second);
    if (it->second.empty() && impossible_.empty()) {
      impossible_ = "symbol #" + std::to_string(symbols_[k].index) + " has no value on its " +
                    std::string(grid_name(d.grid)) + " grid inside its range";
    }
    simple_count_ = std::max(simple_count_, it->second.size());
  }
  if (symbols_.empty()) simple_count_ = 1;  // a constant pair still gets evaluated once
}

mpq_class PointSource::random_value(size_t k) {
  const SymbolDomain& d = domains_[k];
  mpq_class v;
  if (d.lo && d.hi) {
    mpq_class u(long(rng_.below(1025)), 1024);  // a dyadic in [0, 1]
    u.canonicalize();  // GMP's arithmetic assumes lowest terms
    v = *d.lo + (*d.hi - *d.lo) * u;
  } else {
    // k / 2^j with |k| < 256: spread over a few binades, exact in every format but FP8
    // (where snapping rounds it).
    mpq_class m(long(rng_.below(255)) + 1, 1L << rng_.below(7));
    m.canonicalize();
    if (d.lo) {
      v = *d.lo + m;
    } else if (d.hi) {
      v = *d.hi - m;
    } else {
      v = rng_.below(2) ? m : mpq_class(-m);
    }
  }
  std::optional<mpq_class> s = snap(v, d);
  return s ? *s : simple_[k]->front();
}

Point PointSource::point(size_t i) {
  Point p(symbols_.size());
  for (size_t k = 0; k < symbols_.size(); ++k) {
    const std::vector<mpq_class>& vals = *simple_[k];
    // Offsetting by k gives neighbouring symbols different values at the same point, so
    // that swapped operands (x1 for x2) show.
    p[k] = i < simple_count_ ? vals[(i + k) % vals.size()] : random_value(k);
  }
  return p;
}

expr::Assignment PointSource::assignment(const Point& p) const {
  expr::Assignment at;
  for (size_t k = 0; k < symbols_.size(); ++k) at.set(symbols_[k], p[k]);
  return at;
}

}  // namespace racer::decide
