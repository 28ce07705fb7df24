#include "decide/linear.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace racer::decide {

using expr::ExprId;
using expr::Kind;

namespace {

using Lin = std::vector<std::pair<uint32_t, mpq_class>>;  // sorted by variable, no zeros

struct Tight {
  mpq_class c;
  bool strict = false;
};

Lin to_lin(const LinForm& f) { return Lin(f.coef.begin(), f.coef.end()); }

const mpq_class* coef_of(const Lin& a, uint32_t v) {
  auto it = std::lower_bound(a.begin(), a.end(), v, [](const auto& p, uint32_t x) { return p.first < x; });
  return it != a.end() && it->first == v ? &it->second : nullptr;
}

// f with v replaced by g.
void substitute_into(LinForm& f, uint32_t v, const LinForm& g) {
  auto it = f.coef.find(v);
  if (it == f.coef.end()) return;
  mpq_class k = it->second;
  f.coef.erase(it);
  for (const auto& [u, a] : g.coef) {
    mpq_class& slot = f.coef[u];
    slot += k * a;
    if (slot == 0) f.coef.erase(u);
  }
  f.c += k * g.c;
}

// Rows a.x + c >= 0 (> 0 when strict), keyed by the linear part scaled so that its first
// coefficient is +-1; of two rows with the same part only the tighter is kept.
class Rows {
 public:
  explicit Rows(size_t max) : max_(max) {}

  // False when the row is a constant one that fails (the system is infeasible).
  bool add(Lin a, mpq_class c, bool strict) {
    if (a.empty()) return strict ? c > 0 : c >= 0;
    mpq_class scale = abs(a.front().second);
    if (scale != 1) {
      for (auto& [v, k] : a) k /= scale;
      c /= scale;
    }
    auto [it, fresh] = rows_.try_emplace(std::move(a), Tight{c, strict});
    if (!fresh) {
      Tight& t = it->second;
      if (c < t.c || (c == t.c && strict && !t.strict)) t = Tight{c, strict};
    }
    return true;
  }

  bool too_large() const { return rows_.size() > max_; }
  std::map<Lin, Tight>& rows() { return rows_; }

 private:
  size_t max_;
  std::map<Lin, Tight> rows_;
};

class Engine {
 public:
  explicit Engine(size_t max_rows) : rows_(max_rows) {}

  // Eliminates every variable; with `record`, keeps for each eliminated variable the rows
  // that mentioned it, for find_point.
  Feasibility run(const std::vector<LinConstraint>& cs, bool record) {
    for (const LinConstraint& k : cs) {
      if (k.rel != Rel::Eq) continue;
      LinForm e = k.e;
      for (const auto& [v, f] : solved_) substitute_into(e, v, f);
      if (e.coef.empty()) {
        if (e.c != 0) return Feasibility::Infeasible;
        continue;
      }
      auto [v, a] = *e.coef.rbegin();
      LinForm f;
      for (const auto& [u, b] : e.coef) {
        if (u != v) f.coef.emplace(u, -b / a);
      }
      f.c = -e.c / a;
      for (auto& [w, g] : solved_) substitute_into(g, v, f);
      solved_.emplace_back(v, std::move(f));
    }
    for (const LinConstraint& k : cs) {
      if (k.rel == Rel::Eq || k.rel == Rel::Ne) continue;
      LinForm e = k.e;
      for (const auto& [v, f] : solved_) substitute_into(e, v, f);
      if (!rows_.add(to_lin(e), e.c, k.rel == Rel::Gt)) return Feasibility::Infeasible;
    }
    if (!record) drop_one_sided();
    while (true) {
      if (rows_.too_large()) return Feasibility::Unknown;
      std::map<uint32_t, std::pair<size_t, size_t>> counts;  // var -> (positive, negative)
      for (const auto& [a, t] : rows_.rows()) {
        for (const auto& [v, k] : a) (k > 0 ? counts[v].first : counts[v].second)++;
      }
      if (counts.empty()) return Feasibility::Feasible;
      uint32_t best = counts.begin()->first;
      long best_cost = 0;
      bool first = true;
      for (const auto& [v, pn] : counts) {
        long cost = long(pn.first * pn.second) - long(pn.first + pn.second);
        if (first || cost < best_cost) {
          best = v;
          best_cost = cost;
          first = false;
        }
      }
      if (!eliminate(best, record)) return Feasibility::Infeasible;
    }
  }

  const std::vector<std::pair<uint32_t, std::vector<std::pair<Lin, Tight>>>>& stages() const { return stages_; }
  const std::vector<std::pair<uint32_t, LinForm>>& solved() const { return solved_; }

 private:
  // A variable with coefficients of one sign only can always be chosen to satisfy its
  // rows (large or small enough), so the rows that mention it are dropped, to a fixpoint.
  // The same elimination the main loop would do, without its per-step bookkeeping.
  void drop_one_sided() {
    auto& rows = rows_.rows();
    while (true) {
      std::unordered_map<uint32_t, uint8_t> signs;  // bit 1: positive, bit 2: negative
      for (const auto& [a, t] : rows) {
        for (const auto& [v, k] : a) signs[v] |= k > 0 ? 1 : 2;
      }
      size_t before = rows.size();
      for (auto it = rows.begin(); it != rows.end();) {
        bool one_sided = false;
        for (const auto& [v, k] : it->first) one_sided = one_sided || signs[v] != 3;
        it = one_sided ? rows.erase(it) : std::next(it);
      }
      if (rows.size() == before) return;
    }
  }

  bool eliminate(uint32_t v, bool record) {
    std::vector<std::pair<Lin, Tight>> pos, neg;
    auto& rows = rows_.rows();
    for (auto it = rows.begin(); it != rows.end();) {
      const mpq_class* k = coef_of(it->first, v);
      if (!k) {
        ++it;
        continue;
      }
      (*k > 0 ? pos : neg).emplace_back(it->first, it->second);
      it = rows.erase(it);
    }
    if (record) {
      std::vector<std::pair<Lin, Tight>> all = pos;
      all.insert(all.end(), neg.begin(), neg.end());
      stages_.emplace_back(v, std::move(all));
    }
    for (const auto& [pa, pt] : pos) {
      mpq_class kp = *coef_of(pa, v);
      for (const auto& [na, nt] : neg) {
        mpq_class kn = -*coef_of(na, v);  // > 0
        // kn * p + kp * n cancels v.
        std::map<uint32_t, mpq_class> sum;
        for (const auto& [u, k] : pa) sum[u] += kn * k;
        for (const auto& [u, k] : na) sum[u] += kp * k;
        Lin a;
        for (auto& [u, k] : sum) {
          if (k != 0) a.emplace_back(u, std::move(k));
        }
        if (!rows_.add(std::move(a), kn * pt.c + kp * nt.c, pt.strict || nt.strict)) return false;
        if (rows_.too_large()) return true;  // run() reports Unknown
      }
    }
    return true;
  }

  Rows rows_;
  std::vector<std::pair<uint32_t, LinForm>> solved_;
  std::vector<std::pair<uint32_t, std::vector<std::pair<Lin, Tight>>>> stages_;
};

}  // namespace

std::optional<LinForm> linearize(const expr::Store& s, ExprId x, bool atoms) {
  auto atom = [&](ExprId v, const mpq_class& k) -> std::optional<LinForm> {
    if (!atoms || !s.is_finite(v) || s.is_condition(v)) return std::nullopt;
    return LinForm{{{v.index, k}}, mpq_class(0)};
  };
  switch (s.kind(x)) {
    case Kind::Const:
      if (!s.is_rational(x)) return std::nullopt;
      return LinForm{{}, s.rational(x)};
    case Kind::Symbol: return LinForm{{{x.index, mpq_class(1)}}, mpq_class(0)};
    case Kind::Mul: {
      if (s.arity(x) != 1 || s.weight(x, 0) != 1 || s.coef(x) == 0) return atom(x, mpq_class(1));
      if (s.kind(s.operand(x, 0)) != Kind::Symbol) return atom(s.operand(x, 0), s.coef(x));
      return LinForm{{{s.operand(x, 0).index, s.coef(x)}}, mpq_class(0)};
    }
    case Kind::Add: {
      if (!s.is_finite(x)) return std::nullopt;
      LinForm out{{}, s.coef(x)};
      for (uint32_t i = 0; i < s.arity(x); ++i) {
        std::optional<LinForm> t = linearize(s, s.operand(x, i), atoms);
        if (!t) return std::nullopt;
        const mpq_class& w = s.weight(x, i);
        for (const auto& [v, k] : t->coef) {
          mpq_class& slot = out.coef[v];
          slot += w * k;
          if (slot == 0) out.coef.erase(v);
        }
        out.c += w * t->c;
      }
      return out;
    }
    default: return atom(x, mpq_class(1));
  }
}

Feasibility check_feasible(const std::vector<LinConstraint>& cs, size_t max_rows) {
  std::vector<LinConstraint> base;
  for (const LinConstraint& k : cs) {
    if (k.rel != Rel::Ne) base.push_back(k);
  }
  Feasibility f = Engine(max_rows).run(base, false);
  if (f != Feasibility::Feasible) return f;
  // Each disequality on its own: the set minus its hyperplane is empty only if both open
  // sides are.
  bool unknown = false;
  for (const LinConstraint& k : cs) {
    if (k.rel != Rel::Ne) continue;
    Feasibility sides[2];
    for (int sign = 0; sign < 2; ++sign) {
      LinConstraint half{k.e, Rel::Gt};
      if (sign) {
        for (auto& [v, a] : half.e.coef) a = -a;
        half.e.c = -half.e.c;
      }
      base.push_back(half);
      sides[sign] = Engine(max_rows).run(base, false);
      base.pop_back();
      if (sides[sign] == Feasibility::Feasible) break;
    }
    if (sides[0] == Feasibility::Feasible || sides[1] == Feasibility::Feasible) continue;
    if (sides[0] == Feasibility::Infeasible && sides[1] == Feasibility::Infeasible) return Feasibility::Infeasible;
    unknown = true;
  }
  return unknown ? Feasibility::Unknown : Feasibility::Feasible;
}

std::vector<LinForm> implied_equalities(const std::vector<LinConstraint>& cs, size_t max_rows) {
  std::vector<LinForm> out;
  if (check_feasible(cs, max_rows) != Feasibility::Feasible) return out;
  // Most systems imply none: then all of their non-strict rows can be strict at once.
  std::vector<LinConstraint> trial = cs;
  bool eqs = false;
  for (LinConstraint& k : trial) {
    eqs = eqs || k.rel == Rel::Eq;
    if (k.rel == Rel::Ge) k.rel = Rel::Gt;
  }
  if (!eqs && check_feasible(trial, max_rows) == Feasibility::Feasible) return out;
  trial = cs;
  for (size_t i = 0; i < cs.size(); ++i) {
    if (cs[i].rel == Rel::Eq) {
      out.push_back(cs[i].e);
      continue;
    }
    if (cs[i].rel != Rel::Ge || cs[i].e.coef.empty()) continue;
    trial[i].rel = Rel::Gt;
    if (check_feasible(trial, max_rows) == Feasibility::Infeasible) out.push_back(cs[i].e);
    trial[i].rel = Rel::Ge;
  }
  return out;
}

std::vector<std::pair<uint32_t, LinForm>> solve_equalities(const std::vector<LinForm>& eqs) {
  std::vector<std::pair<uint32_t, LinForm>> solved;
  for (LinForm e : eqs) {
    for (const auto& [v, f] : solved) substitute_into(e, v, f);
    if (e.coef.empty()) continue;
    auto [v, a] = *e.coef.rbegin();
    LinForm f;
    for (const auto& [u, b] : e.coef) {
      if (u != v) f.coef.emplace(u, -b / a);
    }
    f.c = -e.c / a;
    for (auto& [w, g] : solved) substitute_into(g, v, f);
    solved.emplace_back(v, std::move(f));
  }
  return solved;
}

std::optional<std::map<uint32_t, mpq_class>> find_point(const std::vector<LinConstraint>& cs,
                                                       const ValueChooser& choose, size_t max_rows) {
  Engine eng(max_rows);
  if (eng.run(cs, true) != Feasibility::Feasible) return std::nullopt;
  std::map<uint32_t, mpq_class> at;
  const auto& stages = eng.stages();
  for (auto st = stages.rbegin(); st != stages.rend(); ++st) {
    uint32_t v = st->first;
    // A variable that left every row along with v is free in the rest of the system.
    for (const auto& [a, t] : st->second) {
      for (const auto& [u, k] : a) {
        if (u == v || at.count(u)) continue;
        std::optional<mpq_class> val = choose(u, Bound{}, Bound{});
        if (!val) return std::nullopt;
        at.emplace(u, *val);
      }
    }
    Bound lo, hi;
    for (const auto& [a, t] : st->second) {
      mpq_class rest = t.c, kv;
      for (const auto& [u, k] : a) {
        if (u == v) {
          kv = k;
        } else {
          rest += k * at.at(u);
        }
      }
      mpq_class b = -rest / kv;  // kv * v + rest >= 0
      Bound& side = kv > 0 ? lo : hi;
      if (side.v && b == *side.v) {
        side.strict = side.strict || t.strict;
      } else if (!side.v || (kv > 0 ? b > *side.v : b < *side.v)) {
        side = Bound{b, t.strict};
      }
    }
    std::optional<mpq_class> val = choose(v, lo, hi);
    if (!val) return std::nullopt;
    at.emplace(v, *val);
  }
  // Variables that cancelled out of every row, then the ones equalities determine.
  std::set<uint32_t> solved_vars;
  for (const auto& [v, f] : eng.solved()) solved_vars.insert(v);
  std::set<uint32_t> all;
  for (const LinConstraint& k : cs) {
    for (const auto& [v, c] : k.e.coef) all.insert(v);
  }
  for (uint32_t v : all) {
    if (at.count(v) || solved_vars.count(v)) continue;
    std::optional<mpq_class> val = choose(v, Bound{}, Bound{});
    if (!val) return std::nullopt;
    at.emplace(v, *val);
  }
  for (const auto& [v, f] : eng.solved()) at[v] = evaluate(f, at);
  return at;
}

mpq_class evaluate(const LinForm& f, const std::map<uint32_t, mpq_class>& at) {
  mpq_class out = f.c;
  for (const auto& [v, k] : f.coef) out += k * at.at(v);
  return out;
}

}  // namespace racer::decide
