#include "decide/case_split.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <set>
#include <unordered_map>

#include "decide/ball_eval.hpp"
#include "decide/continuity.hpp"
#include "decide/grid.hpp"
#include "decide/linear.hpp"
#include "decide/piecewise.hpp"
#include "expr/eval.hpp"
#include "expr/substitute.hpp"
#include "support/error.hpp"

namespace racer::decide {

using expr::CmpOp;
using expr::ExprId;
using expr::Kind;

namespace {

// Values tried first inside a piece's bounds: a witness x = 0 explains itself.
const std::array<mpq_class, 13>& simple_values() {
  static const std::array<mpq_class, 13> v{mpq_class(0),     mpq_class(1),     mpq_class(-1), mpq_class(1, 2),
                                           mpq_class(-1, 2), mpq_class(2),     mpq_class(-2), mpq_class(3, 2),
                                           mpq_class(-3, 2), mpq_class(1, 4),  mpq_class(3),  mpq_class(-3),
                                           mpq_class(4)};
  return v;
}

bool within(const mpq_class& q, const Bound& lo, const Bound& hi) {
  if (lo.v && (lo.strict ? q <= *lo.v : q < *lo.v)) return false;
  if (hi.v && (hi.strict ? q >= *hi.v : q > *hi.v)) return false;
  return true;
}

class Splitter {
 public:
  Splitter(expr::Store& s, ExprId a, ExprId b, PointSource& src, const EqualityProver& prove,
           const CaseSplitOptions& o)
      : s_(s), a_(a), b_(b), src_(src), prove_(prove), opt_(o), pw_(s), rng_(0x5eed ^ (uint64_t(a.index) << 32 | b.index)) {
    for (size_t k = 0; k < src.size(); ++k) sym_index_.emplace(src.symbols()[k].index, k);
  }

  SplitResult run() {
    SplitResult out;
    if (!pw_.has_branch(a_) && !pw_.has_branch(b_)) {
      out.why = "no comparisons, min, max or abs to split on";
      return out;
    }
    // Conditions: a comparison or an abs is one, an n-ary min or max n - 1.
    std::vector<ExprId> points = pw_.branch_points(a_);
    for (ExprId c : pw_.branch_points(b_)) points.push_back(c);
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
    size_t conditions = 0;
    for (ExprId p : points) conditions += s_.kind(p) == Kind::Min || s_.kind(p) == Kind::Max ? s_.arity(p) - 1 : 1;
    if (conditions > opt_.max_conditions) {
      out.status = SplitStatus::Undecided;
      out.why = "case split: " + std::to_string(conditions) + " conditions, more than " +
                std::to_string(opt_.max_conditions);
      return out;
    }
    auto real_symbol = [&](ExprId y) {
      auto it = sym_index_.find(y.index);
      return it != sym_index_.end() && src_.domain(it->second).grid != Grid::Integer;
    };
    continuous_ = continuous_everywhere(s_, a_, real_symbol) && continuous_everywhere(s_, b_, real_symbol);
    std::vector<ExprId> roots;
    bool numeric = !s_.is_condition(a_) && !s_.is_condition(b_);
    if (numeric && s_.is_finite(a_) && s_.is_finite(b_)) {
      mode_ = Mode::Zero;
      try {
        roots.push_back(reduce_groups(s_.sub(a_, b_)));
      } catch (const Error&) {
        roots.clear();  // a constant too large to build: split the pair instead
      }
    }
    if (roots.empty()) {
      mode_ = Mode::Pair;
      roots = {a_, b_};
    }
    pieces_ = 0;
    Out o = node(roots, 0);
    out.pieces = total_pieces_ + pieces_;
    out.pruned = pruned_;
    out.negligible = negligible_;
    switch (o) {
      case Out::Closed: out.status = SplitStatus::Proved; break;
      case Out::Refuted:
        out.status = SplitStatus::Refuted;
        out.refutation = refutation_;
        break;
      case Out::Stop:
        out.status = SplitStatus::Undecided;
        out.why = "case split: " + why_;
        out.differing_piece = differing_piece_;
        break;
    }
    // A rounding-level witness was kept while the other pieces were searched for a larger
    // difference; none showed one (or the split stopped): it is the refutation.
    if (o != Out::Refuted && small_refutation_) {
      out.status = SplitStatus::Refuted;
      out.refutation = std::move(small_refutation_);
      out.why.clear();
    } else if (o != Out::Refuted && opt_.seek_larger_difference) {
      out.status = SplitStatus::Undecided;  // its pieces were searched, not proved
      out.why = "case split: no piece showed a larger difference";
    }
    return out;
  }

 private:
  enum class Mode { Zero, Pair, Uniform };
  enum class Out { Closed, Refuted, Stop };

  // ---- the decision tree

  Out node(const std::vector<ExprId>& roots, size_t depth) {
    if (closed_at_once(roots)) return count_piece() ? Out::Closed : Out::Stop;
    ExprId point = pw_.pick(roots);
    if (!point.valid()) return leaf(roots);
    if (opt_.deadline != std::chrono::steady_clock::time_point::max() && std::chrono::steady_clock::now() > opt_.deadline) {
      why_ = "the time limit was reached";
      return Out::Stop;
    }
    if (depth >= opt_.max_depth) {
      why_ = "more than " + std::to_string(opt_.max_depth) + " nested conditions";
      return Out::Stop;
    }
    for (Branch& br : branches(point)) {
      size_t mark = rows_.size();
      rows_.insert(rows_.end(), br.rows.begin(), br.rows.end());
      bool on_symbols = std::any_of(br.rows.begin(), br.rows.end(), [&](const LinConstraint& k) { return over_symbols(k); });
      if (on_symbols && check_feasible(system(false), opt_.max_rows) == Feasibility::Infeasible) {
        rows_.resize(mark);
        ++pruned_;
        continue;
      }
      decided_[point] = br.value;
      std::vector<ExprId> next;
      for (ExprId r : roots) next.push_back(pw_.rewrite(r, decided_, true));
      Out o = Out::Stop;
      if (pw_.work() > opt_.max_work) {
        why_ = "more than " + std::to_string(opt_.max_work) + " nodes rewritten";
      } else {
        o = node(next, depth + 1);
      }
      decided_.erase(point);
      rows_.resize(mark);
      if (o != Out::Closed) return o;
    }
    return Out::Closed;
  }

  // The choices at a branch point, each with the linear conditions that select it (where
  // the operands are linear). Together they cover every point.
  struct Branch {
    ExprId value;
    std::vector<LinConstraint> rows;
  };

  std::vector<Branch> branches(ExprId p) {
    std::vector<Branch> out;
    switch (s_.kind(p)) {
      case Kind::Cmp:
        for (bool v : {true, false}) {
          out.push_back({v ? s_.true_value() : s_.false_value(), {}});
          if (std::optional<LinConstraint> row = constraint_of(p, v)) out.back().rows.push_back(*row);
        }
        break;
      case Kind::Func: {  // abs
        ExprId u = s_.operand(p, 0);
        out.push_back({u, {}});
        out.push_back({s_.neg(u), {}});
        if (std::optional<LinForm> l = linearize(s_, u, true)) {
          out[0].rows.push_back({*l, Rel::Ge});
          out[1].rows.push_back({negated(*l), Rel::Gt});
        }
        break;
      }
      default: {  // min, max: argument k where it is the first extreme one
        bool is_max = s_.kind(p) == Kind::Max;
        uint32_t n = s_.arity(p);
        std::vector<std::optional<LinForm>> lin;
        for (uint32_t j = 0; j < n; ++j) lin.push_back(linearize(s_, s_.operand(p, j), true));
        for (uint32_t k = 0; k < n; ++k) {
          out.push_back({s_.operand(p, k), {}});
          for (uint32_t j = 0; j < n && lin[k]; ++j) {
            if (j == k || !lin[j]) continue;
            LinForm d = is_max ? minus(*lin[k], *lin[j]) : minus(*lin[j], *lin[k]);
            out.back().rows.push_back({std::move(d), j < k ? Rel::Gt : Rel::Ge});
          }
        }
        break;
      }
    }
    return out;
  }

  static LinForm minus(const LinForm& x, const LinForm& y) {
    LinForm d = x;
    for (const auto& [v, k] : y.coef) {
      mpq_class& slot = d.coef[v];
      slot -= k;
      if (slot == 0) d.coef.erase(v);
    }
    d.c -= y.c;
    return d;
  }

  static LinForm negated(const LinForm& x) {
    LinForm n;
    for (const auto& [v, k] : x.coef) n.coef.emplace(v, -k);
    n.c = -x.c;
    return n;
  }

  bool closed_at_once(const std::vector<ExprId>& roots) const {
    switch (mode_) {
      case Mode::Zero: return roots[0] == s_.zero();
      case Mode::Pair: return roots[0] == roots[1];
      case Mode::Uniform: return uniform_.valid() && roots[0] == uniform_;
    }
    return false;
  }

  bool count_piece() {
    // Looking on past a rounding-level witness is worth a few pieces, not a large tree's
    // rewriting: past kPiecesAfterSmall more, the small witness is the answer.
    if (seeking_larger() && ++pieces_after_small_ > kPiecesAfterSmall) {
      why_ = "the pieces searched past a rounding-level witness";
      return false;
    }
    if (++pieces_ <= opt_.max_pieces) return true;
    why_ = "more than " + std::to_string(opt_.max_pieces) + " pieces";
    return false;
  }

  Out leaf(const std::vector<ExprId>& roots) {
    if (!count_piece()) return Out::Stop;
    ExprId x = roots[0];
    switch (mode_) {
      case Mode::Uniform:
        if (s_.is_undefined(x)) {
          why_ = "a group is undefined on a piece";
          return Out::Stop;
        }
        if (!uniform_.valid()) {
          uniform_ = x;
          return Out::Closed;
        }
        if (equal_on_piece(x, uniform_) || ruled_out_with_atoms()) return Out::Closed;
        why_ = "a group takes different values on its pieces";
        return Out::Stop;
      case Mode::Zero:
        if (s_.is_undefined(x)) return both_undefined();
        if (seeking_larger()) return larger_difference();
        if (equal_on_piece(x, s_.zero())) return Out::Closed;
        return differs_unless_ruled_out();
      case Mode::Pair: {
        ExprId y = roots[1];
        if (s_.is_undefined(x) || s_.is_undefined(y)) {
          if (s_.is_undefined(x) && s_.is_undefined(y)) return Out::Closed;
          why_ = "on a piece one side is undefined and the other is not";
          return Out::Stop;
        }
        if (s_.is_condition(x) || s_.is_condition(y)) {
          if (s_.kind(x) == Kind::Bool && s_.kind(y) == Kind::Bool) return differs();  // x != y
          why_ = "a condition was left undecided on a piece";
          return Out::Stop;
        }
        if (seeking_larger()) return larger_difference();
        if (equal_on_piece(x, y)) return Out::Closed;
        return differs_unless_ruled_out();
      }
    }
    return Out::Stop;
  }

  // A piece where the difference is undefined: acceptable only if both sides are.
  Out both_undefined() {
    ExprId x = pw_.rewrite(a_, decided_, true), y = pw_.rewrite(b_, decided_, true);
    if (s_.is_undefined(x) && s_.is_undefined(y)) return Out::Closed;
    why_ = "on a piece the difference is undefined but a side may not be";
    return Out::Stop;
  }

  // x = y on the current piece: by the normal form, else after substituting the equalities
  // the piece implies.
  bool equal_on_piece(ExprId x, ExprId y) {
    if (prove_(x, y)) return true;
    std::vector<LinForm> eqs = implied_equalities(system(false), opt_.max_rows);
    if (eqs.empty()) return false;
    expr::Substitution map;
    for (const auto& [v, f] : solve_equalities(eqs)) map.emplace(ExprId{v}, build(f));
    ExprId x2 = pw_.rewrite(x, map, false), y2 = pw_.rewrite(y, map, false);
    return x2 == y2 || prove_(x2, y2);
  }

  // Whether the piece lies in the zero set of a function that is not zero everywhere: an
  // equality it implies, a linear form in symbols and atoms, nonzero at a point of the box.
  // With atoms branch-free pieces of continuous sides, that function is analytic, so its
  // zero set has measure zero; the pieces of positive measure are then dense in the box, and
  // sides continuous everywhere that agree on them agree here too (the split stops on any
  // piece of positive measure it does not prove). Integer symbols keep every piece.
  bool negligible_piece(const std::vector<LinConstraint>& with_atoms) {
    if (!continuous_) return false;
    for (const LinForm& e : implied_equalities(with_atoms, opt_.max_rows)) {
      if (nonzero_somewhere(build(e))) {
        ++negligible_;
        return true;
      }
    }
    return false;
  }

  bool nonzero_somewhere(ExprId f) {
    for (size_t t = 0; t < 3; ++t) {
      Point p = src_.point(t);
      bool inside = true;
      for (size_t k = 0; k < p.size() && inside; ++k) {
        auto [lo, hi] = range_of(src_.symbols()[k].index);
        inside = (!lo || p[k] >= *lo) && (!hi || p[k] <= *hi);
      }
      if (!inside) continue;
      expr::Assignment at = src_.assignment(p);
      if (std::optional<mpq_class> v = expr::eval_exact(s_, f, at)) {
        if (*v != 0) return true;
        continue;
      }
      if (balls_separate(s_, f, s_.zero(), at, 2)) return true;
    }
    return false;
  }

  ExprId build(const LinForm& f) {
    std::vector<ExprId> terms{s_.constant(f.c)};
    for (const auto& [v, k] : f.coef) terms.push_back(s_.mul(s_.constant(k), ExprId{v}));
    return s_.add(terms);
  }

  // ---- the region of the current piece

  std::optional<LinConstraint> constraint_of(ExprId atom, bool truth) {
    std::optional<LinForm> l = linearize(s_, s_.operand(atom, 0), true), r = linearize(s_, s_.operand(atom, 1), true);
    if (!l || !r) return std::nullopt;
    LinForm d = minus(*r, *l), neg = negated(d);
    switch (s_.cmp_op(atom)) {
      case CmpOp::Lt: return truth ? LinConstraint{d, Rel::Gt} : LinConstraint{neg, Rel::Ge};
      case CmpOp::Le: return truth ? LinConstraint{d, Rel::Ge} : LinConstraint{neg, Rel::Gt};
      case CmpOp::Eq: return LinConstraint{d, truth ? Rel::Eq : Rel::Ne};
      case CmpOp::Ne: return LinConstraint{d, truth ? Rel::Ne : Rel::Eq};
      default: return std::nullopt;
    }
  }

  // A piece where the sides differ but no point showed it: closed if, with each atom an
  // unknown of the linear arithmetic, its conditions cannot hold together (log(s) > x and
  // log(s) < x - 1), or imply an equality that makes it a set of measure zero
  // (negligible_piece). Only here, and only for a few atoms, since elimination over atoms
  // costs more rows than over the symbols alone.
  Out differs_unless_ruled_out() {
    Out o = differs();
    if (o == Out::Stop && ruled_out_with_atoms()) return Out::Closed;
    return o;
  }

  bool ruled_out_with_atoms() {
    std::optional<std::vector<LinConstraint>> sys = system_with_atoms();
    if (!sys) return false;
    if (check_feasible(*sys, opt_.max_rows) == Feasibility::Infeasible) {
      ++pruned_;
      return true;
    }
    return negligible_piece(*sys);
  }

  static constexpr size_t kMaxAtomRows = 16, kMaxAtoms = 4;

  std::optional<std::vector<LinConstraint>> system_with_atoms() {
    std::set<uint32_t> atoms;
    size_t atom_rows = 0;
    for (const LinConstraint& k : rows_) {
      bool any = false;
      for (const auto& [v, c] : k.e.coef)
        if (s_.kind(ExprId{v}) != Kind::Symbol) any = true, atoms.insert(v);
      atom_rows += any;
    }
    if (atoms.empty() || atoms.size() > kMaxAtoms || atom_rows > kMaxAtomRows) return std::nullopt;
    return system(true);
  }

  bool over_symbols(const LinConstraint& k) const {
    return std::all_of(k.e.coef.begin(), k.e.coef.end(), [&](const auto& vc) { return s_.kind(ExprId{vc.first}) == Kind::Symbol; });
  }

  // The piece's linear conditions and the ranges of the symbols they mention. A condition on
  // atoms (log(s) < x) leaves its row out unless `with_atoms` (system_with_atoms): the
  // pruning, the equalities substituted and the points built see the symbols' rows only.
  std::vector<LinConstraint> system(bool with_atoms) {
    std::vector<LinConstraint> out;
    for (const LinConstraint& k : rows_)
      if (with_atoms || over_symbols(k)) out.push_back(k);
    std::vector<uint32_t> vars;
    for (const LinConstraint& k : out) {
      for (const auto& [v, c] : k.e.coef) {
        if (s_.kind(ExprId{v}) == Kind::Symbol) vars.push_back(v);
      }
    }
    std::sort(vars.begin(), vars.end());
    vars.erase(std::unique(vars.begin(), vars.end()), vars.end());
    for (uint32_t v : vars) {
      auto [lo, hi] = range_of(v);
      if (lo) out.push_back(LinConstraint{LinForm{{{v, mpq_class(1)}}, -*lo}, Rel::Ge});
      if (hi) out.push_back(LinConstraint{LinForm{{{v, mpq_class(-1)}}, *hi}, Rel::Ge});
    }
    return out;
  }

  // The symbol's range: its domain's and the Store's, intersected.
  std::pair<std::optional<mpq_class>, std::optional<mpq_class>> range_of(uint32_t v) {
    std::optional<mpq_class> lo, hi;
    if (auto it = sym_index_.find(v); it != sym_index_.end()) {
      lo = src_.domain(it->second).lo;
      hi = src_.domain(it->second).hi;
    }
    if (const auto& r = s_.symbol_info(ExprId{v}).range) {
      if (!lo || r->lo > *lo) lo = r->lo;
      if (!hi || r->hi < *hi) hi = r->hi;
    }
    return {lo, hi};
  }

  // ---- witnesses

  // Once a rounding-level witness is kept, the split ends Refuted whatever the other pieces
  // hold, so a piece is not proved: one point of it is tried (one ball precision), for a
  // larger difference.
  Out larger_difference() {
    std::optional<Point> p = make_point(0);
    if (!p) return Out::Closed;
    if (std::optional<Refutation> r = confirm(*p, 1)) {
      if (!rounding_level(*r)) {
        refutation_ = std::move(*r);
        return Out::Refuted;
      }
      if (!small_refutation_) small_refutation_ = std::move(*r);
    }
    return Out::Closed;
  }

  Out differs() {
    for (size_t t = 0; t < opt_.witness_tries; ++t) {
      std::optional<Point> p = make_point(t);
      if (!p) continue;
      // Balls are costly on large sides and never separate equal values: two precisions on
      // the first point, one on the next two, exact evaluation only after that.
      if (std::optional<Refutation> r = confirm(*p, t == 0 ? 2 : t < 3 ? 1 : 0)) {
        if (rounding_level(*r)) {
          // Possibly only a constant read two ways here, and a real difference on a piece
          // not yet visited (a branch random points rarely take): kept, and the split goes
          // on. No proof is claimed from it: the split ends Refuted.
          if (!small_refutation_) small_refutation_ = std::move(*r);
          return Out::Closed;
        }
        refutation_ = std::move(*r);
        return Out::Refuted;
      }
    }
    why_ = "on a piece the sides differ as functions, but no point of it (" + std::to_string(opt_.witness_tries) +
           " tried) showed a difference";
    differing_piece_ = true;
    return Out::Stop;
  }

  std::optional<Point> make_point(size_t t) {
    Point p = src_.point(t % std::max<size_t>(1, src_.simple_count()));
    std::vector<LinConstraint> sys = system(false);
    if (!sys.empty()) {
      auto choose = [&](uint32_t var, const Bound& lo, const Bound& hi) -> std::optional<mpq_class> {
        auto it = sym_index_.find(var);
        if (it == sym_index_.end()) return std::nullopt;
        return choose_value(src_.domain(it->second), lo, hi, t);
      };
      std::optional<std::map<uint32_t, mpq_class>> at = find_point(sys, choose, opt_.max_rows);
      if (!at) return std::nullopt;
      for (const auto& [v, q] : *at) {
        auto it = sym_index_.find(v);
        if (it == sym_index_.end()) return std::nullopt;
        p[it->second] = q;
      }
    }
    for (size_t k = 0; k < p.size(); ++k) {
      if (!admissible(p[k], src_.domain(k))) return std::nullopt;
    }
    return p;
  }

  // An admissible value inside (lo, hi): simple values first on try 0 (and from a later
  // start on even tries), random ones on odd tries, then the grid values at the bounds.
  std::optional<mpq_class> choose_value(const SymbolDomain& d, const Bound& lo, const Bound& hi, size_t t) {
    auto ok = [&](const std::optional<mpq_class>& q) { return q && within(*q, lo, hi) && admissible(*q, d); };
    const auto& simple = simple_values();
    if (t % 2 == 0) {
      for (size_t i = t / 2; i < simple.size(); ++i) {
        if (ok(simple[i])) return simple[i];
      }
    }
    std::vector<mpq_class> cands;
    mpq_class m(long(rng_.below(255)) + 1, 1L << rng_.below(7));
    m.canonicalize();
    if (lo.v && hi.v) {
      mpq_class u(long(rng_.below(1023)) + 1, 1024);
      u.canonicalize();
      cands.push_back(*lo.v + (*hi.v - *lo.v) * u);
      cands.push_back((*lo.v + *hi.v) / 2);
    } else if (lo.v) {
      cands.push_back(*lo.v + m);
    } else if (hi.v) {
      cands.push_back(*hi.v - m);
    } else {
      cands.push_back(rng_.below(2) ? m : mpq_class(-m));
    }
    for (const mpq_class& c : cands) {
      for (Rounding r : {Rounding::Nearest, Rounding::Down, Rounding::Up}) {
        std::optional<mpq_class> q = round_to_grid(c, d.grid, r);
        if (ok(q)) return q;
      }
    }
    if (lo.v) {
      std::optional<mpq_class> q = round_to_grid(*lo.v, d.grid, Rounding::Up);
      if (ok(q)) return q;
      if (q && (q = next_up(*q, d.grid)) && ok(q)) return q;
    }
    if (hi.v) {
      std::optional<mpq_class> q = round_to_grid(*hi.v, d.grid, Rounding::Down);
      if (ok(q)) return q;
      if (q && (q = next_down(*q, d.grid)) && ok(q)) return q;
    }
    for (const mpq_class& q : simple) {
      if (ok(q)) return q;
    }
    return std::nullopt;
  }

  // The original sides at p: exact values that differ, or disjoint balls.
  std::optional<Refutation> confirm(const Point& p, size_t levels) {
    expr::Assignment at = src_.assignment(p);
    std::optional<mpq_class> va = expr::eval_exact(s_, a_, at);
    std::optional<mpq_class> vb = va ? expr::eval_exact(s_, b_, at) : std::nullopt;
    if (va && vb) {
      if (*va == *vb) return std::nullopt;
      return Refutation{p, *va, *vb, false, 0};
    }
    if (!opt_.balls || levels == 0) return std::nullopt;
    std::optional<BallSeparation> sep = balls_separate(s_, a_, b_, at, levels);
    if (!sep) return std::nullopt;
    return Refutation{p, sep->mid_a, sep->mid_b, true, sep->precision};
  }

  // ---- independent groups of a sum

  ExprId reduce_groups(ExprId d) {
    if (s_.kind(d) != Kind::Add) return d;
    uint32_t n = s_.arity(d);
    std::vector<uint32_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0u);
    auto find = [&](uint32_t i) {
      while (parent[i] != i) i = parent[i] = parent[parent[i]];
      return i;
    };
    // Terms whose comparisons share a symbol go together: x > 0 and x <= 0 are different
    // comparisons, but only together do they take one value.
    std::unordered_map<uint32_t, uint32_t> owner;  // symbol -> a term with a comparison on it
    std::vector<bool> piecewise(n, false);
    for (uint32_t i = 0; i < n; ++i) {
      for (ExprId c : pw_.branch_points(s_.operand(d, i))) {
        piecewise[i] = true;
        for (ExprId y : expr::free_symbols(s_, c)) {
          auto [it, fresh] = owner.emplace(y.index, i);
          if (!fresh) parent[find(i)] = find(it->second);
        }
      }
    }
    std::map<uint32_t, std::vector<uint32_t>> groups;
    for (uint32_t i = 0; i < n; ++i) {
      if (piecewise[i]) groups[find(i)].push_back(i);
    }
    if (groups.size() < 2 || groups.size() > opt_.max_groups) return d;
    std::vector<ExprId> parts{s_.constant(s_.coef(d))};
    for (uint32_t i = 0; i < n; ++i) {
      if (!piecewise[i]) parts.push_back(s_.mul(s_.constant(s_.weight(d, i)), s_.operand(d, i)));
    }
    for (const auto& [root, members] : groups) {
      std::vector<ExprId> terms;
      for (uint32_t i : members) terms.push_back(s_.mul(s_.constant(s_.weight(d, i)), s_.operand(d, i)));
      ExprId g = s_.add(terms);
      parts.push_back(uniform_value(g).value_or(g));
    }
    return s_.add(parts);
  }

  // The one value g takes on all of its pieces, if it has one.
  std::optional<ExprId> uniform_value(ExprId g) {
    Mode saved = mode_;
    mode_ = Mode::Uniform;
    uniform_ = ExprId{};
    pieces_ = 0;
    Out o = node({g}, 0);
    total_pieces_ += pieces_;
    mode_ = saved;
    std::optional<ExprId> out;
    if (o == Out::Closed && uniform_.valid()) out = uniform_;
    uniform_ = ExprId{};
    return out;
  }

  expr::Store& s_;
  ExprId a_, b_;
  PointSource& src_;
  const EqualityProver& prove_;
  CaseSplitOptions opt_;
  Piecewise pw_;
  Rng rng_;
  std::unordered_map<uint32_t, size_t> sym_index_;  // symbol -> position in src

  Mode mode_ = Mode::Pair;
  ExprId uniform_;
  std::vector<LinConstraint> rows_;  // the linear conditions decided on the current path
  expr::Substitution decided_;       // comparison -> true/false on the current path
  size_t pieces_ = 0, total_pieces_ = 0, pruned_ = 0, negligible_ = 0;
  bool continuous_ = false;  // both sides continuous and defined on the whole box
  std::string why_;
  bool differing_piece_ = false;
  Refutation refutation_;
  std::optional<Refutation> small_refutation_;  // the first rounding-level one (differs())
  // Past a rounding-level witness (this split's, or one the caller holds: the options'
  // seek_larger_difference), pieces are searched for points only, kPiecesAfterSmall of them.
  bool seeking_larger() const { return opt_.seek_larger_difference || small_refutation_.has_value(); }
  static constexpr size_t kPiecesAfterSmall = 8;
  size_t pieces_after_small_ = 0;
};

}  // namespace

SplitResult case_split(expr::Store& s, ExprId a, ExprId b, PointSource& src, const EqualityProver& prove,
                       const CaseSplitOptions& options) {
  return Splitter(s, a, b, src, prove, options).run();
}

}  // namespace racer::decide
