#include "decide/decider.hpp"
#include "decide/pairwise.hpp"

#include <algorithm>
#include <array>
#include <unordered_set>

#include "decide/atom_normalizer.hpp"
#include "decide/bounded_choices.hpp"
#include "decide/branch_flips.hpp"
#include "decide/exp_multiples.hpp"
#include "decide/integer_enumeration.hpp"
#include "decide/extreme_points.hpp"
#include "decide/negligible_terms.hpp"
#include "decide/normal_form.hpp"
#include "decide/separated_form.hpp"
#include "decide/refute.hpp"
#include "expr/applied_functions.hpp"
#include "expr/substitute.hpp"
#include "expr/walk.hpp"
#include "support/error.hpp"

namespace racer::decide {

using expr::ExprId;

namespace {

constexpr size_t kExtraPointsWhenDifferent = 18;
constexpr size_t kQuickPoints = 3;
// Points at the ranges' ends (extreme_points.hpp): the corners, then each symbol at the other end.
constexpr size_t kExtremePoints = 160;
constexpr size_t kCornerPoints = 32;         // (extreme_points.cpp: corners over at most 5 domains)
constexpr size_t kOneSidedOfLargeCell = 8;  // of a large cell's one-sided symbols, the first few
constexpr size_t kLargeCellNodes = 1000;  // a and b counted apart; shared nodes twice
constexpr size_t kManySymbols = 16;       // a cell over more inputs than this is a reduction's

CellDecision proved(const char* step) {
  CellDecision d;
  d.status = CellStatus::Proved;
  d.step = step;
  return d;
}

// The indices in src of the symbols that only one of a, b reads (a cell one side dropped from
// a max or a sum): the extreme points try them first.
std::vector<size_t> one_sided_symbols(const expr::Store& st, ExprId a, ExprId b, const PointSource& src) {
  auto symbols_of = [&](ExprId root) {
    std::unordered_set<uint32_t> seen;
    expr::any_node(st, root, [&](ExprId e) {
      if (st.kind(e) == expr::Kind::Symbol) seen.insert(e.index);
      return false;
    });
    return seen;
  };
  const std::unordered_set<uint32_t> in_a = symbols_of(a), in_b = symbols_of(b);
  std::vector<size_t> out;
  for (size_t k = 0; k < src.size(); ++k) {
    const uint32_t s = src.symbols()[k].index;
    if (in_a.count(s) != in_b.count(s)) out.push_back(k);
  }
  return out;
}

PolyLimits limits_of(const DeciderOptions& o) { return PolyLimits{o.max_terms, o.max_degree, o.max_vars, o.max_work}; }

// What step 3 learned, for an Unknown's reason.
std::string form_note(const FormResult& f) {
  switch (f.status) {
    case FormStatus::Zero: return "";
    case FormStatus::NonZero:
      return f.symbols_only ? "the difference is a nonzero rational function of the symbols"
                            : "the difference is a nonzero rational function of its atoms";
    case FormStatus::TooLarge: return "the normal form gave up: " + f.why;
    case FormStatus::NotRational: return "no normal form: " + f.why;
  }
  return "";
}

std::string search_reason(const SearchStats& st, bool balls) {
  std::string where = std::to_string(st.points) + " points and " + std::to_string(st.boundary_points) +
                      " boundary points";
  if (st.agreed == 0 && st.not_exact > 0) {
    if (st.transcendental) {
      return std::string("transcendental atoms could not be evaluated exactly at any of ") + where +
             (balls ? ", and ball arithmetic did not separate the sides at " + std::to_string(st.ball_points) +
                          " of them"
                    : std::string(" (ball arithmetic off)"));
    }
    return "no point among " + where + " where both sides are defined";
  }
  std::string r = "no refuting point found among " + where + " and no proof";
  if (st.not_exact > 0) r += " (" + std::to_string(st.not_exact) + " points not exactly evaluable)";
  return r;
}

}  // namespace

struct Decider::Impl {
  expr::Store& store;
  std::function<SymbolDomain(ExprId)> domain_of;
  uint64_t seed;
  DeciderOptions options;
  AtomNormalizer normalizer;

  Impl(expr::Store& s, std::function<SymbolDomain(ExprId)> dom, uint64_t sd, DeciderOptions o)
      : store(s), domain_of(std::move(dom)), seed(sd), options(o), normalizer(s, limits_of(o)) {}

  // A difference with its atoms in one form each, ready for the normal form. Exp multiples are
  // merged before the atoms are normalized (exp(m/4)^4 against exp(m), before the normalizer
  // takes the exps into the min m) and after (the exps it makes).
  ExprId normalized(ExprId d) { return merge_exp_multiples(store, normalizer.normalize(merge_exp_multiples(store, d))); }

  // A normalized difference's normal form; group by group (separated_form.hpp) where the
  // single fraction is too large.
  FormResult form_of(ExprId dn) {
    FormResult f = normal_form(store, dn, limits_of(options));
    if (f.status != FormStatus::TooLarge) return f;
    FormResult g = separated_normal_form(store, dn, limits_of(options));
    return g.status != FormStatus::TooLarge ? g : f;
  }

  // Steps 2 and 3. nullopt when they prove nothing; `note` says what was learned.
  std::optional<CellDecision> prove(ExprId a, ExprId b, ExprId& d, std::string& note, bool& differ) {
    if (store.is_condition(a) || store.is_condition(b)) {
      note = "conditions are compared by evaluation only";
      return std::nullopt;
    }
    try {
      d = store.sub(a, b);
      if (d == store.zero()) return proved("canonical difference");
      if (store.is_rational(d) && store.is_finite(a) && store.is_finite(b)) {
        note = "the sides differ by the constant " + store.rational(d).get_str() + " wherever both are defined";
      }
      ExprId dn = normalized(d);
      normalized_difference = NormalizedDifference{a, b, dn, {}};
      if (dn == store.zero()) return proved("polynomial normal form");
      FormResult f = form_of(dn);
      if (f.status == FormStatus::NonZero) normalized_difference->numerator_atoms = f.numerator_atoms;
      if (f.status == FormStatus::Zero) return proved("polynomial normal form");
      differ = f.status == FormStatus::NonZero;
      // The atoms' relations (tanh against exp) can hide from the normal form: a pairing is
      // worth trying even where it says the sides differ.
      if (f.status != FormStatus::Zero && pairwise(a, b)) return proved("operand by operand");
      if (note.empty()) note = form_note(f);
    } catch (const Error& e) {
      // The Store refuses constants too large to build; that proves nothing either way.
      note = std::string("the normal form gave up: ") + e.what();
      if (pairwise(a, b)) return proved("operand by operand");
    }
    return std::nullopt;
  }

  // Pairings tried for the cell being decided: each is cheap, but they recurse into operands
  // and the case split asks for many pieces.
  size_t pairings = 0;
  static constexpr size_t kMaxPairings = 4000;

  bool pairwise(ExprId a, ExprId b) {
    if (++pairings > kMaxPairings) return false;
    try {
      return equal_pairwise(store, a, b, domain_of, [this](ExprId x, ExprId y) { return equal(x, y); });
    } catch (const Error&) {
      return false;
    }
  }

  // Whether x = y is proved by steps 2 and 3 (the case split's check on each piece).
  bool equal(ExprId x, ExprId y) {
    try {
      ExprId d = store.sub(x, y);
      if (d == store.zero()) return true;
      ExprId dn = normalized(d);
      if (dn == store.zero()) return true;
      if (form_of(dn).status == FormStatus::Zero) return true;
    } catch (const Error&) {
    }
    return pairwise(x, y);
  }

  Z3Prover& z3() {
    if (!z3_) {
      Z3Options o = options.z3;
      o.balls = options.balls;
      z3_ = std::make_unique<Z3Prover>(o);
    }
    return *z3_;
  }

  bool large_cell(ExprId a, ExprId b) {
    size_t nodes = 0;
    ExprId roots[] = {a, b};
    for (ExprId r : roots) {
      expr::any_node(store, r, [&](ExprId) { return ++nodes > kLargeCellNodes; });
    }
    return nodes > kLargeCellNodes;
  }

  // A refutation from step 4, 5 or 6, re-checked from scratch; nullopt if that fails.
  std::optional<CellDecision> refuted(ExprId a, ExprId b, PointSource& src, const Refutation& r,
                                      const std::string& by) {
    if (!confirm_refutation(store, a, b, src, r)) return std::nullopt;
    CellDecision out;
    out.status = CellStatus::Refuted;
    out.step = by + (r.by_balls ? "refuted by ball arithmetic (Arb, " + std::to_string(r.precision) +
                                      " bits); values are ball midpoints"
                                : std::string("refuted by exact evaluation"));
    for (size_t k = 0; k < src.size(); ++k) out.witness.emplace(src.symbols()[k].index, r.point[k]);
    // An infinity is no rational value: the step names it instead.
    for (auto [side, inf] : {std::pair{'a', r.infinite_a}, std::pair{'b', r.infinite_b}})
      if (inf) out.step += std::string("; program ") + side + "'s value is " + (inf > 0 ? "+inf" : "-inf") + " there";
    if (!r.infinite_a) out.value_a = r.value_a;
    if (!r.infinite_b) out.value_b = r.value_b;
    out.difference_functions = difference_functions(a, b);
    return out;
  }

  // The normalized difference of the pair prove() saw last, and its normal form's numerator
  // atoms where that was built: kept for a refutation's difference_functions, which only a
  // refuted cell asks for (normalizing again costs as much as the first time).
  struct NormalizedDifference {
    ExprId a, b, dn;
    std::vector<ExprId> numerator_atoms;
  };
  std::optional<NormalizedDifference> normalized_difference;

  // The functions the difference a - b applies once normalized: those its normal form's
  // numerator reads where that was built, else those of its normalized atoms.
  unsigned difference_functions(ExprId a, ExprId b) {
    try {
      const bool seen = normalized_difference && normalized_difference->a == a && normalized_difference->b == b;
      if (seen && !normalized_difference->numerator_atoms.empty()) {
        unsigned read = 0;
        for (ExprId atom : normalized_difference->numerator_atoms) read |= expr::applied_functions(store, atom);
        return read;
      }
      return expr::applied_functions(store, seen ? normalized_difference->dn : normalized(store.sub(a, b)));
    } catch (const Error&) {
      return ~0u;
    }
  }

  // Steps 4 to 7.
  CellDecision refute(ExprId a, ExprId b, ExprId d, const std::string& note, bool differ) {
    CellDecision out;
    out.status = CellStatus::Unknown;
    PointSource src = point_source(a, b);
    const std::vector<ExprId>& syms = src.symbols();
    if (!src.impossible().empty()) {
      out.step = "no admissible point";
      out.reason = src.impossible();
      return out;
    }
    std::vector<std::string> notes;
    if (!note.empty()) notes.push_back(note);

    {
      // Integer inputs of small ranges (indices read from memory): every value substituted.
      std::string why;
      if (prove_by_enumeration(store, a, b, syms, src.domains(), [this](ExprId x, ExprId y) { return equal(x, y); }, {}, why))
        return proved("enumeration of the integer inputs");
      if (!why.empty()) notes.push_back(why);
    }

    // A refutation whose sides differ only at rounding level (rounding_level) may stand for a
    // constant read two ways while a branch the points did not take holds a real difference:
    // it is kept and the later steps look on for a larger one (not Z3: its model is one more
    // point); where none shows, it is the decision.
    std::optional<CellDecision> small;
    auto settles = [&](std::optional<CellDecision> rd, const Refutation& r) {
      if (!rd) return false;
      if (!rounding_level(r)) return true;
      if (!small) small = std::move(rd);
      return false;
    };

    if (differ && (large_cell(a, b) || syms.size() > kManySymbols)) {
      // A few random points with balls first: where the sides are different functions of
      // their atoms this usually refutes at once, before the case split rewrites a large DAG
      // once per piece, or goes deep into a reduction's maxima (a max over 66 cells took
      // 5 s of pieces to refute). Small cells keep the simple points' plainer witnesses.
      SearchOptions quick{kQuickPoints, 0, options.balls, kQuickPoints, true};
      SearchResult r = search_refutation(store, a, b, d, src, quick);
      if (r.refutation) {
        std::optional<CellDecision> rd = refuted(a, b, src, *r.refutation, "");
        if (settles(rd, *r.refutation)) return *rd;
      }
    }

    // Comparisons, min, max and abs that the ranges decide, made once for the whole box; the
    // split works on what is left (its witnesses are confirmed on the original sides).
    ExprId sa = a, sb = b;
    try {
      const std::vector<ExprId> settled = settle_bounded_choices(store, std::array{a, b});
      sa = settled[0], sb = settled[1];
    } catch (const Error&) {
      // (the Store refused a constant too large to build: the sides go on as they are)
    }
    if (!small && (sa != a || sb != b) && (sa == sb || equal(sa, sb))) return proved("choices the input ranges fix");

    bool differing_piece = false;  // the case split met a piece where the sides differ as functions
    if (options.use_case_split) {
      CaseSplitOptions co = options.case_split;
      co.balls = options.balls;
      co.seek_larger_difference = small.has_value();
      EqualityProver eq = [this](ExprId x, ExprId y) { return equal(x, y); };
      SplitResult sr;
      try {
        sr = case_split(store, sa, sb, src, eq, co);
      } catch (const Error& e) {
        // The Store refuses constants too large to build; that proves nothing either way.
        sr.status = SplitStatus::Undecided;
        sr.why = std::string("case split: ") + e.what();
      }
      if (sr.status == SplitStatus::Proved && !small) return proved("case split");
      if (sr.status == SplitStatus::Refuted && sr.refutation) {
        std::optional<CellDecision> r = refuted(a, b, src, *sr.refutation, "case split, ");
        if (settles(r, *sr.refutation)) return *r;
      }
      if (sr.status == SplitStatus::Undecided) notes.push_back(sr.why);
      differing_piece = sr.differing_piece;
    }

    SearchOptions so{options.points, options.boundary_points, options.balls};
    if (differ) {
      // The sides are different functions of their atoms, so some point shows it unless the
      // atoms' own relations (a max, a comparison) hide it there: worth more random points,
      // with balls, than a pair that may well be equal.
      so.points += kExtraPointsWhenDifferent;
      so.random_ball_points += kExtraPointsWhenDifferent;
    }
    SearchResult r = search_refutation(store, a, b, d, src, so);
    if (r.refutation) {
      std::optional<CellDecision> rd = refuted(a, b, src, *r.refutation, "");
      if (settles(rd, *r.refutation)) return *rd;
    }
    if (differ || small) {
      // The ends of the ranges: a max that dropped a cell, a sign every cell must share. A
      // large cell (a reduction's) gets the corners and the cells one side alone reads.
      const std::vector<size_t> one_sided = one_sided_symbols(store, a, b, src);
      const bool large = large_cell(a, b);
      const size_t budget = !large ? kExtremePoints : one_sided.empty() ? 0 : kCornerPoints + 2 * std::min(one_sided.size(), kOneSidedOfLargeCell);
      for (const Point& p : extreme_points(src, budget, one_sided))
        if (std::optional<Refutation> x = refutation_at(store, a, b, src, p, options.balls)) {
          std::optional<CellDecision> rd = refuted(a, b, src, *x, "at the ends of the ranges, ");
          if (settles(rd, *x)) return *rd;
        }
    }
    if (differ || small || differing_piece) {
      // Pieces no point reached: each branch point pushed to its other branch (branch_flips.hpp),
      // from the rounding-level witness where there is one.
      FlipOptions fo;
      fo.beyond_rounding = small.has_value();
      fo.balls = options.balls;
      fo.deadline = options.case_split.deadline;
      Point start;
      if (small)
        for (ExprId sym : syms) start.push_back(small->witness.at(sym.index));
      else
        start = src.point(src.simple_count());
      if (std::optional<Refutation> x = flip_branches(store, a, b, src, start, fo)) {
        std::optional<CellDecision> rd = refuted(a, b, src, *x, "after flipping a branch, ");
        if (settles(rd, *x)) return *rd;
      }
    }
    if (small) return *small;

    if (options.use_z3) {
      Z3Outcome zo = z3().check(store, a, b, src);
      if (zo.status == Z3Status::Proved) return proved("Z3 (unsat)");
      if (zo.status == Z3Status::Refuted && zo.refutation) {
        if (std::optional<CellDecision> rd = refuted(a, b, src, *zo.refutation, "Z3 model, ")) return *rd;
      }
      if (!zo.why.empty()) notes.push_back(zo.why);
    }

    out.step = "unknown";
    out.reason = search_reason(r.stats, options.balls);
    for (const std::string& n : notes) out.reason += "; " + n;
    return out;
  }

  CellDecision decide(ExprId a, ExprId b, bool may_drop_negligible) {
    if (a == b) return proved("identical");
    pairings = 0;
    std::string note;
    ExprId d;  // a - b, when the sides are numbers and the Store could build it
    bool differ = false;  // the normal form shows the sides are different functions of their atoms
    if (std::optional<CellDecision> p = prove(a, b, d, note, differ)) return *p;
    if (may_drop_negligible) {
      if (std::optional<CellDecision> n = without_negligible(a, b, note)) return *n;
    }
    return refute(a, b, d, note, differ);
  }

  // The decision on the sides without their negligible terms (negligible_terms.hpp): a proof
  // there says they differ by no more than those terms; a refutation there is confirmed on the
  // sides as they are, at the witness (the symbols read only inside the dropped terms at a
  // simple value). nullopt where there is no such term or neither holds; `note` then says why
  // where terms were found but not dropped.
  std::optional<CellDecision> without_negligible(ExprId a, ExprId b, std::string& note) {
    std::string why;
    std::optional<WithoutNegligible> w;
    try {
      w = drop_negligible_terms(store, a, b, why);
    } catch (const Error&) {
      return std::nullopt;  // (a constant too large to build: the sides go on as they are)
    }
    if (!w) {
      if (!why.empty()) note += (note.empty() ? "" : "; ") + why;
      return std::nullopt;
    }
    const std::string dropped = std::to_string(w->dropped) + " term" + (w->dropped == 1 ? "" : "s") + " below e^-" +
                                std::to_string(kNegligibleExponent) + " on the whole box (such as " + w->example + ")";
    CellDecision d = decide(w->a, w->b, false);
    if (d.status == CellStatus::Proved) {
      d.status = CellStatus::Negligible;
      d.step = "equal without " + dropped + ": " + d.step;
      return d;
    }
    if (d.status != CellStatus::Refuted) {
      note += (note.empty() ? "" : "; ") + ("without " + dropped + ": " + d.reason);
      return std::nullopt;
    }
    PointSource src = point_source(a, b);
    if (!src.impossible().empty()) return std::nullopt;
    Point p = src.point(0);
    for (size_t k = 0; k < src.size(); ++k)
      if (auto it = d.witness.find(src.symbols()[k].index); it != d.witness.end()) p[k] = it->second;
    std::optional<Refutation> r = refutation_at(store, a, b, src, p, options.balls);
    if (!r) return std::nullopt;
    return refuted(a, b, src, *r, "found without " + dropped + ", confirmed with them: ");
  }

  // The points over both sides' free symbols, in their domains; each cell its own stream, fixed
  // by the seed and the pair, so that a decision does not depend on which cells came before.
  PointSource point_source(ExprId a, ExprId b) {
    std::vector<ExprId> syms = expr::free_symbols(store, a);
    for (ExprId y : expr::free_symbols(store, b)) syms.push_back(y);
    std::sort(syms.begin(), syms.end());
    syms.erase(std::unique(syms.begin(), syms.end()), syms.end());
    std::vector<SymbolDomain> doms;
    for (ExprId y : syms) doms.push_back(domain_of(y));
    uint64_t cell_seed = seed ^ (uint64_t(a.index) << 32 | b.index) * 0x9e3779b97f4a7c15ULL;
    return PointSource(syms, doms, cell_seed);
  }

  std::unique_ptr<Z3Prover> z3_;
};

Decider::Decider(expr::Store& store, std::function<SymbolDomain(ExprId)> domain_of, uint64_t seed,
                 DeciderOptions options)
    : impl_(std::make_unique<Impl>(store, std::move(domain_of), seed, options)) {}

Decider::~Decider() = default;

CellDecision Decider::decide(ExprId a, ExprId b) { return impl_->decide(a, b, true); }

std::string_view status_name(CellStatus s) {
  switch (s) {
    case CellStatus::Proved: return "proved";
    case CellStatus::Refuted: return "refuted";
    case CellStatus::Unknown: return "unknown";
    case CellStatus::Negligible: return "negligible";
  }
  return "?";
}

}  // namespace racer::decide
