#include "exec/indexed_address.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "exec/choice_paths.hpp"
#include "exec/exact_float.hpp"
#include "exec/refusal.hpp"
#include "expr/print.hpp"
#include "expr/substitute.hpp"

namespace racer::exec {
namespace {

expr::ExprId both(expr::Store& s, expr::ExprId p, expr::ExprId q) { return s.select(p, q, s.false_value()); }
expr::ExprId either(expr::Store& s, expr::ExprId p, expr::ExprId q) { return s.select(p, s.true_value(), q); }

// Runs of consecutive values: (first, last).
std::vector<std::pair<int64_t, int64_t>> runs(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  std::vector<std::pair<int64_t, int64_t>> out;
  for (int64_t x : v) {
    if (!out.empty() && (out.back().second == x || out.back().second + 1 == x)) out.back().second = x;
    else out.emplace_back(x, x);
  }
  return out;
}

}  // namespace

IndexedAddress enumerate_address(const expr::Store& s, expr::ExprId value, unsigned width, uint64_t offset,
                                 const IndexRange& range, const Admissible& admissible) {
  IndexedAddress a;
  a.symbols = expr::free_symbols(s, value);
  if (a.symbols.empty()) throw Refusal("an address that is symbolic data without symbols");
  std::vector<std::pair<int64_t, int64_t>> box;
  mpz_class count = 1;
  for (expr::ExprId sym : a.symbols) {
    std::optional<Interval> r = range ? range(sym) : std::nullopt;
    if (!r || r->lo.get_den() != 1 || r->hi.get_den() != 1 || !r->lo.get_num().fits_slong_p() || !r->hi.get_num().fits_slong_p())
      throw Refusal("an address computed from " + expr::to_string(s, sym) +
                    ", which is not integer data from an input with a declared range");
    if (r->hi < r->lo) return a;  // the thread's path excludes every value: no access
    count *= r->hi.get_num() - r->lo.get_num() + 1;
    if (count > IndexedAddress::kMaxPoints)
      throw Refusal("an address computed from data read from memory whose declared ranges allow more than " +
                    std::to_string(IndexedAddress::kMaxPoints) + " index values (" + expr::to_string(s, sym) +
                    " in [" + r->lo.get_str() + ", " + r->hi.get_str() + "]): declare the range the indices really have");
    box.emplace_back(r->lo.get_num().get_si(), r->hi.get_num().get_si());
  }
  std::map<uint64_t, std::vector<uint32_t>> by_address;
  std::vector<int64_t> at;
  for (auto& b : box) at.push_back(b.first);
  expr::Assignment assign;
  for (bool more = true; more;) {
    for (size_t k = 0; k < at.size(); ++k) assign.set(a.symbols[k], mpq_class(mpz_class(static_cast<long>(at[k]))));
    if (!admissible || admissible(assign)) {
      std::optional<mpq_class> v = expr::eval_exact(s, value, assign);
      if (!v || v->get_den() != 1) throw Refusal("an address computed from data read from memory that is not an exact integer at every index value");
      const auto point = static_cast<uint32_t>(a.points.size());
      a.points.push_back(at);
      by_address[low_bits(v->get_num(), width) + offset].push_back(point);
    }
    more = false;
    for (size_t k = 0; k < at.size() && !more; ++k) {
      if (at[k] < box[k].second) ++at[k], more = true;
      else at[k] = box[k].first;
    }
  }
  for (auto& [addr, pts] : by_address) a.candidates.push_back({addr, std::move(pts)});
  return a;
}

namespace {

// Whether a condition that holds wherever the access runs is false once the path's decisions are
// substituted into it: no input takes the path (a search's finished state under its start < end).
// Substituted again while that changes it: a decision folds a comparison of a choice into one of
// the decided comparisons (`select(x < 1/4, -1/2, 1) < x` becomes `-1/2 < x`), which the pass that
// built it did not look up.
bool contradicts(expr::Store& s, const std::vector<expr::ExprId>& holds, const expr::Substitution& decided) {
  constexpr int kPasses = 16;  // (each pass only folds; the bound is against a rewrite that cycles)
  for (expr::ExprId h : holds) {
    int passes = 0;
    for (expr::ExprId before = h; (h = expr::substitute(s, h, decided)) != before && ++passes < kPasses;) before = h;
    if (h == s.false_value()) return true;
  }
  return false;
}

IndexedAddress enumerate_choices_by(expr::Store& s, expr::ExprId value, unsigned width, uint64_t offset, bool inside_first,
                                    const std::vector<expr::ExprId>& holds) {
  struct Path {
    expr::ExprId value;      // with every decision so far substituted
    expr::ExprId condition;  // the conjunction of those decisions
    expr::Substitution decided;  // the same, each condition to its truth
  };
  std::map<uint64_t, expr::ExprId> by_address;  // address -> the disjunction of its paths
  std::vector<Path> open{{value, s.true_value(), {}}};
  size_t paths = 0;
  while (!open.empty()) {
    const Path p = open.back();
    open.pop_back();
    if (s.kind(p.value) == expr::Kind::Const) {
      if (!s.is_rational(p.value) || s.rational(p.value).get_den() != 1)
        throw Refusal("an address chosen by comparisons of data that is not an integer on every choice");
      if (contradicts(s, holds, p.decided)) continue;
      if (++paths > IndexedAddress::kMaxChoicePaths)
        throw Refusal("an address chosen by comparisons of data with more than " + std::to_string(IndexedAddress::kMaxChoicePaths) +
                      " paths of choices (a search over a table that large is not modelled)");
      const uint64_t addr = low_bits(s.rational(p.value).get_num(), width) + offset;
      auto [it, fresh] = by_address.emplace(addr, p.condition);
      if (!fresh) it->second = either(s, it->second, p.condition);
      continue;
    }
    std::optional<expr::ExprId> c = inside_first ? innermost_choice(s, p.value) : outermost_choice(s, p.value);
    if (!c) {
      const std::vector<expr::ExprId> syms = expr::free_symbols(s, p.value);
      throw Refusal("an address computed from " + (syms.empty() ? std::string("data") : expr::to_string(s, syms[0])) +
                    ", which is neither integer data from an input with a declared range nor a choice among integers made by comparisons");
    }
    for (bool truth : {false, true}) {
      const expr::ExprId decided = truth ? *c : s.select(*c, s.false_value(), s.true_value());
      expr::Substitution all = p.decided;
      all[*c] = truth ? s.true_value() : s.false_value();
      open.push_back({expr::substitute(s, p.value, {{*c, all[*c]}}), both(s, p.condition, decided), std::move(all)});
    }
  }
  IndexedAddress a;
  for (auto& [addr, cond] : by_address) {
    const auto c = static_cast<uint32_t>(a.candidates.size());
    a.points.emplace_back();
    a.candidates.push_back({addr, {c}});
    a.conditions.push_back(cond);
  }
  return a;
}

}  // namespace

IndexedAddress enumerate_choices(expr::Store& s, expr::ExprId value, unsigned width, uint64_t offset,
                                 const std::vector<expr::ExprId>& holds) {
  try {
    return enumerate_choices_by(s, value, width, offset, true, holds);
  } catch (const Refusal&) {
    return enumerate_choices_by(s, value, width, offset, false, holds);  // (too many paths that way: a tournament)
  }
}

expr::ExprId candidate_condition(expr::Store& s, const IndexedAddress& a, size_t c) {
  if (a.by_comparisons()) return a.conditions[c];
  const auto& pts = a.candidates[c].points;
  expr::ExprId any = s.false_value();
  if (a.symbols.size() == 1) {
    std::vector<int64_t> v;
    for (uint32_t p : pts) v.push_back(a.points[p][0]);
    expr::ExprId x = a.symbols[0];
    for (auto [lo, hi] : runs(v)) {
      expr::ExprId run = lo == hi ? s.cmp(expr::CmpOp::Eq, x, s.constant(mpq_class(mpz_class(static_cast<long>(lo)))))
                                  : both(s, s.cmp(expr::CmpOp::Ge, x, s.constant(mpq_class(mpz_class(static_cast<long>(lo))))),
                                         s.cmp(expr::CmpOp::Le, x, s.constant(mpq_class(mpz_class(static_cast<long>(hi))))));
      any = either(s, any, run);
    }
    return any;
  }
  for (uint32_t p : pts) {
    expr::ExprId all = s.true_value();
    for (size_t k = 0; k < a.symbols.size(); ++k)
      all = both(s, all, s.cmp(expr::CmpOp::Eq, a.symbols[k], s.constant(mpq_class(mpz_class(static_cast<long>(a.points[p][k]))))));
    any = either(s, any, all);
  }
  return any;
}

std::string candidate_condition_text(const expr::Store& s, const IndexedAddress& a, const std::vector<uint32_t>& pts) {
  constexpr size_t kMaxShown = 4;
  std::string out;
  if (a.by_comparisons()) {
    constexpr size_t kMaxChars = 240;
    out = expr::to_string(s, a.conditions.at(pts.at(0)));
    return out.size() > kMaxChars ? out.substr(0, kMaxChars) + " ..." : out;
  }
  if (a.symbols.size() == 1) {
    std::vector<int64_t> v;
    for (uint32_t p : pts) v.push_back(a.points[p][0]);
    std::string name = expr::to_string(s, a.symbols[0]);
    auto r = runs(v);
    for (size_t k = 0; k < r.size() && k < kMaxShown; ++k) {
      out += k ? " or " : "";
      out += r[k].first == r[k].second ? name + " = " + std::to_string(r[k].first)
                                       : std::to_string(r[k].first) + " <= " + name + " <= " + std::to_string(r[k].second);
    }
    if (r.size() > kMaxShown) out += " or ...";
    return out;
  }
  for (size_t n = 0; n < pts.size() && n < kMaxShown; ++n) {
    out += n ? ", or " : "";
    for (size_t k = 0; k < a.symbols.size(); ++k)
      out += (k ? " and " : "") + expr::to_string(s, a.symbols[k]) + " = " + std::to_string(a.points[pts[n]][k]);
  }
  if (pts.size() > kMaxShown) out += ", or ...";
  return out;
}

bool can_coincide(const IndexedAddress& a, const std::vector<uint32_t>& pa, const IndexedAddress& b,
                  const std::vector<uint32_t>& pb) {
  if (pa.empty() || pb.empty()) return false;
  std::vector<std::pair<size_t, size_t>> shared;  // (position in a, position in b)
  for (size_t i = 0, j = 0; i < a.symbols.size() && j < b.symbols.size();) {
    if (a.symbols[i] == b.symbols[j]) shared.emplace_back(i++, j++);
    else if (a.symbols[i].index < b.symbols[j].index) ++i;
    else ++j;
  }
  if (shared.empty()) return true;  // independent indices: each candidate is reachable on its own
  std::set<std::vector<int64_t>> seen;
  for (uint32_t p : pa) {
    std::vector<int64_t> key;
    for (auto [i, j] : shared) key.push_back(a.points[p][i]);
    seen.insert(std::move(key));
  }
  for (uint32_t p : pb) {
    std::vector<int64_t> key;
    for (auto [i, j] : shared) key.push_back(b.points[p][j]);
    if (seen.count(key)) return true;
  }
  return false;
}

}  // namespace racer::exec
