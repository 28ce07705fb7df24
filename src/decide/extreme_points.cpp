#include "decide/extreme_points.hpp"

#include <map>
#include <string>

#include "decide/grid.hpp"

namespace racer::decide {
namespace {

// Corners over at most this many domains (2^kMaxGroups points); the others stay at their
// lower ends.
constexpr size_t kMaxGroups = 5;

struct Ends {
  mpq_class lo, hi;
};

Ends ends_of(const SymbolDomain& d) {
  mpq_class lo = d.lo ? *d.lo : mpq_class(-2), hi = d.hi ? *d.hi : mpq_class(2);
  Ends e{snap(lo, d).value_or(lo), snap(hi, d).value_or(hi)};
  return e;
}

}  // namespace

std::vector<Point> extreme_points(const PointSource& src, size_t max_points, const std::vector<size_t>& first) {
  const size_t n = src.size();
  std::vector<Ends> ends;
  std::vector<size_t> group;
  std::map<std::string, size_t> group_of_domain;
  for (size_t k = 0; k < n; ++k) {
    const SymbolDomain& d = src.domain(k);
    ends.push_back(ends_of(d));
    const std::string key = ends.back().lo.get_str() + ":" + ends.back().hi.get_str() + ":" + std::to_string(static_cast<int>(d.grid));
    group.push_back(group_of_domain.emplace(key, group_of_domain.size()).first->second);
  }
  std::vector<Point> out;
  auto add = [&](Point p) {
    for (size_t k = 0; k < n; ++k)
      if (!admissible(p[k], src.domain(k))) return;
    if (out.size() < max_points) out.push_back(std::move(p));
  };
  const size_t groups = std::min(group_of_domain.size(), kMaxGroups);
  for (size_t mask = 0; mask < (size_t{1} << groups); ++mask) {
    Point p(n);
    for (size_t k = 0; k < n; ++k) p[k] = group[k] < groups && (mask >> group[k] & 1) ? ends[k].hi : ends[k].lo;
    add(std::move(p));
  }
  // A symbol only one side reads, at either end while the others rest at 0 (or the end of
  // their range nearest it): the cell a max of |x| dropped is the largest magnitude there.
  std::vector<mpq_class> rest(n);
  for (size_t i = 0; i < n; ++i) {
    const SymbolDomain& d = src.domain(i);
    const mpq_class zero = 0, mid = ends[i].lo > zero ? ends[i].lo : ends[i].hi < zero ? ends[i].hi : zero;
    rest[i] = snap(mid, d).value_or(mid);
  }
  for (size_t k : first)
    for (const mpq_class* end : {&ends[k].hi, &ends[k].lo}) {
      Point p(rest.begin(), rest.end());
      p[k] = *end;
      add(std::move(p));
    }
  std::vector<size_t> order = first;
  std::vector<bool> listed(n, false);
  for (size_t k : first) listed[k] = true;
  for (size_t k = 0; k < n; ++k)
    if (!listed[k]) order.push_back(k);
  for (int base = 0; base < 2; ++base)
    for (size_t k : order) {
      if (out.size() >= max_points) break;
      Point p(n);
      for (size_t i = 0; i < n; ++i) p[i] = (base == 1) != (i == k) ? ends[i].hi : ends[i].lo;
      add(std::move(p));
    }
  return out;
}

}  // namespace racer::decide
