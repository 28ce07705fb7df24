#include "decide/decider.hpp"

#include <algorithm>

#include "decide/atom_normalizer.hpp"
#include "decide/normal_form.hpp"
#include "decide/refute.hpp"
#include "expr/substitute.hpp"
#include "support/error.hpp"

namespace racer::decide {

using expr::ExprId;

namespace {

CellDecision proved(const char* step) {
  CellDecision d;
  d.status = CellStatus::Proved;
  d.step = step;
  return d;
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

  // Steps 2 and 3. nullopt when they prove nothing; `note` says what was learned.
  std::optional<CellDecision> prove(ExprId a, ExprId b, ExprId& d, std::string& note) {
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
      ExprId dn = normalizer.normalize(d);
      if (dn == store.zero()) return proved("polynomial normal form");
      FormResult f = normal_form(store, dn, limits_of(options));
      if (f.status == FormStatus::Zero) return proved("polynomial normal form");
      if (note.empty()) note = form_note(f);
    } catch (const Error& e) {
      // The Store refuses constants too large to build; that proves nothing either way.
      note = std::string("the normal form gave up: ") + e.what();
    }
    return std::nullopt;
  }

  CellDecision refute(ExprId a, ExprId b, ExprId d, const std::string& note) {
    std::vector<ExprId> syms = expr::free_symbols(store, a);
    for (ExprId y : expr::free_symbols(store, b)) syms.push_back(y);
    std::sort(syms.begin(), syms.end());
    syms.erase(std::unique(syms.begin(), syms.end()), syms.end());
    std::vector<SymbolDomain> doms;
    for (ExprId y : syms) doms.push_back(domain_of(y));

    CellDecision out;
    out.status = CellStatus::Unknown;
    // Each cell gets its own stream, fixed by the seed and the pair, so that a decision
    // does not depend on which cells were decided before it.
    uint64_t cell_seed = seed ^ (uint64_t(a.index) << 32 | b.index) * 0x9e3779b97f4a7c15ULL;
    PointSource src(syms, doms, cell_seed);
    if (!src.impossible().empty()) {
      out.step = "no admissible point";
      out.reason = src.impossible();
      return out;
    }
    SearchOptions so{options.points, options.boundary_points, options.balls};
    SearchResult r = search_refutation(store, a, b, d, src, so);
    if (r.refutation && confirm_refutation(store, a, b, src, *r.refutation)) {
      out.status = CellStatus::Refuted;
      out.step = r.refutation->by_balls
                     ? "refuted by ball arithmetic (Arb, " + std::to_string(r.refutation->precision) +
                           " bits); values are ball midpoints"
                     : "refuted by exact evaluation";
      for (size_t k = 0; k < syms.size(); ++k) out.witness.emplace(syms[k].index, r.refutation->point[k]);
      out.value_a = r.refutation->value_a;
      out.value_b = r.refutation->value_b;
      return out;
    }
    out.step = "unknown";
    out.reason = search_reason(r.stats, options.balls);
    if (!note.empty()) out.reason += "; " + note;
    return out;
  }
};

Decider::Decider(expr::Store& store, std::function<SymbolDomain(ExprId)> domain_of, uint64_t seed,
                 DeciderOptions options)
    : impl_(std::make_unique<Impl>(store, std::move(domain_of), seed, options)) {}

Decider::~Decider() = default;

CellDecision Decider::decide(ExprId a, ExprId b) {
  if (a == b) return proved("identical");
  std::string note;
  ExprId d;  // a - b, when the sides are numbers and the Store could build it
  if (std::optional<CellDecision> p = impl_->prove(a, b, d, note)) return *p;
  return impl_->refute(a, b, d, note);
}

std::string_view status_name(CellStatus s) {
  switch (s) {
    case CellStatus::Proved: return "proved";
    case CellStatus::Refuted: return "refuted";
    case CellStatus::Unknown: return "unknown";
  }
  return "?";
}

}  // namespace racer::decide
