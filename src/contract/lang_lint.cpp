#include "contract/lang_lint.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "contract/lang_parser.hpp"
#include "contract/lint_ptx.hpp"
#include "support/error.hpp"

namespace racer::contract {
namespace {

const std::vector<std::string> kDtypes = {"f64", "f32", "f16", "bf16", "fp8e4m3", "fp8e5m2", "i64", "i32", "i16", "i8", "u8", "bool"};
const std::vector<std::string> kRoles = {"baseline", "bad", "good", "reference"};
const std::vector<std::string> kTensorRoles = {"input", "output", "scratch"};
const std::vector<std::string> kSpecials = {"NaN", "Inf", "Denormal", "OutOfBounds"};
const std::vector<std::string> kProperties = {"determinism", "idempotence", "permutation_invariance", "shift_invariance"};
const std::vector<std::string> kSpecs = {"IEEE754"};
const std::vector<std::string> kInjections = {"nan", "inf", "denormal", "out_of_bounds"};
const std::vector<std::string> kSpaces = {"atomic_orders"};
const std::vector<std::string> kAggregates = {"max_relative", "max_absolute", "max_ulp", "bitwise"};
const std::vector<std::string> kVaries = {"runs", "atomic_orders", "schedules"};

bool among(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

std::string listing(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

class Linter {
 public:
  Linter(const SourceText& src, Diagnostics& d, const LintOptions& o) : src_(src), d_(d), o_(o) {}

  void contract(const Contract& c) {
    c_ = &c;
    if (!c.incomplete) required_parts();
    names();
    env_ = {};
    for (const TensorDecl& t : c.tensors)  // data-dependent bounds: a placeholder to type-check with
      for (const char* f : {"max_abs", "sum_abs"}) env_[std::string(f) + "(" + t.name.text + ")"] = 1;
    for (const Param& p : c.params) {
      if (auto v = value(p.value, "a parameter")) env_[p.name.text] = *v;
    }
    for (const TensorDecl& t : c.tensors) tensor(t);
    for (const Predicate& p : c.pre) predicate(p);
    for (const Relation& r : c.post) relation(r);
    if (c.tolerance) tolerance(*c.tolerance, true);
    if (c.reference) reference(*c.reference);
    for (const Step& s : c.measure) step(s);
    for (const Step& s : c.visible) step(s);
    for (const Impl& i : c.impls) impl(i);
  }

 private:
  void err(const Span& at, const std::string& m) { d_.error(src_, at.offset, at.width, m); }
  // A name that resolves to nothing: in a contract a syntax error cut short, most likely
  // declared where the error was, so not reported twice.
  void unresolved(const Span& at, const std::string& m) {
    if (!c_->incomplete) err(at, m);
  }

  void required_parts() {
    for (const char* part : {"scope", "pre", "post", "tolerance", "reference", "measure", "violation"})
      if (!c_->parts_seen.count(part)) err(c_->id.at, "contract '" + c_->id.text + "' has no '" + part + "' part");
    if (c_->id.text.rfind("C-", 0) != 0) err(c_->id.at, "contract identifier '" + c_->id.text + "' must have the form C-FAMILY-NN (e.g. C-PRC-01)");
  }

  void names() {
    // In the order written, so the second occurrence is the one reported.
    std::vector<std::pair<const Name*, const char*>> all;
    for (const Param& p : c_->params) all.emplace_back(&p.name, "parameter");
    for (const TensorDecl& t : c_->tensors) all.emplace_back(&t.name, "tensor");
    for (const Impl& i : c_->impls) all.emplace_back(&i.name, "implementation");
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first->at.offset < b.first->at.offset; });
    std::set<std::string> seen;
    for (const auto& [n, what] : all)
      if (!seen.insert(n->text).second) err(n->at, std::string(what) + " '" + n->text + "' declared twice (parameters, tensors and implementations share one namespace)");
  }

  std::optional<double> value(const Quantity& q, const char* what) {
    EvalResult r = evaluate(q, env_);
    if (r.error) {
      if (r.error->message.starts_with("unknown name")) unresolved(r.error->at, r.error->message + " in " + what);
      else err(r.error->at, r.error->message + " in " + what);
      return std::nullopt;
    }
    return r.value;
  }

  std::optional<int64_t> count(const Quantity& q, const char* what, int64_t lo, int64_t hi) {
    auto v = value(q, what);
    if (!v) return std::nullopt;
    if (*v != std::floor(*v) || *v < static_cast<double>(lo) || *v > static_cast<double>(hi)) {
      err(q.at, std::string(what) + " must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], not " + fmt(*v));
      return std::nullopt;
    }
    return static_cast<int64_t>(*v);
  }

  static std::string fmt(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
  }

  void need_tensor(const Name& n) {
    if (!c_->find_tensor(n.text)) unresolved(n.at, "unknown tensor '" + n.text + "'");
  }

  void precision(const Name& n) {
    if (!unit_roundoff(n.text)) err(n.at, "unknown precision '" + n.text + "'; expected one of " + listing(precision_names()));
  }

  void tensor(const TensorDecl& t) {
    if (!among(kDtypes, t.dtype.text)) err(t.dtype.at, "unknown element type '" + t.dtype.text + "'; expected one of " + listing(kDtypes));
    if (!among(kTensorRoles, t.role.text)) err(t.role.at, "unknown tensor role '" + t.role.text + "'; expected input, output or scratch");
    for (const Quantity& q : t.shape) count(q, "a shape dimension", 1, int64_t{1} << 24);
    if (t.range) {
      auto lo = value(t.range->first, "the range");
      auto hi = value(t.range->second, "the range");
      if (lo && hi && !(*lo <= *hi)) err(t.range->first.at, "empty range: " + fmt(*lo) + " > " + fmt(*hi));
      if (t.role.text != "input") err(t.range->first.at, "only input tensors take a value range");
    }
  }

  void predicate(const Predicate& p) {
    for (const Name& t : p.tensors)
      if (p.kind != Predicate::Kind::Flag) need_tensor(t);
    switch (p.kind) {
      case Predicate::Kind::Precision:
        for (const Name& n : p.names) precision(n);
        break;
      case Predicate::Kind::Special:
        for (const Name& n : p.names)
          if (!among(kSpecials, n.text)) err(n.at, "unknown special value '" + n.text + "'; expected one of " + listing(kSpecials));
        break;
      case Predicate::Kind::Shape:
        for (const Quantity& q : p.values) count(q, "a shape dimension", 1, int64_t{1} << 24);
        if (p.tensors.size() == 1)
          if (const TensorDecl* t = c_->find_tensor(p.tensors[0].text); t && t->shape.size() != p.values.size())
            err(p.at, "shape(" + t->name.text + ") has " + std::to_string(p.values.size()) + " dimensions here but " + std::to_string(t->shape.size()) + " where the tensor is declared");
        break;
      case Predicate::Kind::ValueRange:
        for (const Quantity& q : p.values) value(q, "the value range");
        break;
      default: break;
    }
  }

  void relation(const Relation& r) {
    switch (r.kind) {
      case Relation::Kind::Close:
        if (const TensorDecl* t = c_->find_tensor(r.output.text); !t) need_tensor(r.output);
        else if (t->role.text != "output") err(r.output.at, "'" + r.output.text + "' is not an output tensor");
        if (c_->tolerance && c_->tolerance->kind == Tolerance::Kind::None)
          err(r.at, "'close' needs a tolerance; 'tolerance none' leaves the postcondition under-specified");
        break;
      case Relation::Kind::DeclaredPolicy: {
        const auto& choices = policy_choices(r.subject.text);
        if (choices.empty()) {
          err(r.subject.at, "unknown policy '" + r.subject.text + "'; expected nan, denormal, out_of_bounds or determinism");
          break;
        }
        for (const Name& n : r.choices)
          if (!among(choices, n.text)) err(n.at, "'" + n.text + "' is not a " + r.subject.text + " policy; expected one of " + listing(choices));
        break;
      }
      case Relation::Kind::BitwiseIdentical:
        if (!among(kVaries, r.subject.text)) err(r.subject.at, "bitwise_identical across '" + r.subject.text + "'; expected one of " + listing(kVaries));
        break;
      case Relation::Kind::Raise: break;
    }
  }

  void tolerance(const Tolerance& t, bool top) {
    switch (t.kind) {
      case Tolerance::Kind::Absolute:
      case Tolerance::Kind::Relative:
      case Tolerance::Kind::Ulp:
        if (auto v = value(t.bound, "the tolerance"); v && *v < 0) err(t.bound.at, "a tolerance must not be negative, not " + fmt(*v));
        if (top && !c_->derivation) err(t.at, "tolerance has no 'derivation' saying how it follows from the formats' unit roundoff and the operator's condition");
        break;
      case Tolerance::Kind::Elementwise:
      case Tolerance::Kind::PerPrecision: {
        std::set<std::string> kinds;
        for (size_t i = 0; i < t.parts.size(); ++i) {
          const Tolerance& p = t.parts[i];
          if (t.kind == Tolerance::Kind::Elementwise && (p.kind == Tolerance::Kind::Elementwise || p.kind == Tolerance::Kind::PerPrecision || p.kind == Tolerance::Kind::None))
            err(p.at, "elementwise combines absolute, relative, ulp and exact bounds only");
          if (t.kind == Tolerance::Kind::Elementwise && !kinds.insert(std::to_string(static_cast<int>(p.kind))).second)
            err(p.at, "the same kind of bound given twice in one elementwise tolerance");
          if (t.kind == Tolerance::Kind::PerPrecision) precision(t.precisions[i]);
          tolerance(p, false);
        }
        if (top && !c_->derivation) err(t.at, "tolerance has no 'derivation' saying how it follows from the formats' unit roundoff and the operator's condition");
        break;
      }
      default: break;
    }
  }

  const Impl* need_impl(const Name& n) {
    const Impl* i = c_->find_impl(n.text);
    if (!i) unresolved(n.at, "unknown implementation '" + n.text + "'");
    return i;
  }

  void reference(const Reference& r) {
    switch (r.kind) {
      case Reference::Kind::HigherPrecision: {
        precision(r.what);
        if (!r.impl) {
          err(r.at, "higher_precision " + r.what.text + " needs 'impl NAME': the implementation that computes in " + r.what.text);
          break;
        }
        const Impl* i = need_impl(*r.impl);
        if (i && (!i->precision || i->precision->text != r.what.text))
          err(r.impl->at, "implementation '" + r.impl->text + "' does not declare 'precision " + r.what.text + "'");
        for (const TensorDecl& t : c_->tensors) {
          std::string p = precision_of_dtype(t.dtype.text);
          auto rank = precision_rank(r.what.text), trank = precision_rank(p);
          bool is_ref = t.name.text.size() > 4 && t.name.text.ends_with("_ref");  // where the reference writes
          if (t.role.text == "output" && !is_ref && rank && trank && *rank <= *trank)
            err(r.what.at, r.what.text + " is not a higher precision than output '" + t.name.text + "' (" + p + ")");
        }
        break;
      }
      case Reference::Kind::Alternate: need_impl(*r.impl); break;
      case Reference::Kind::Exact:
      case Reference::Kind::StableAlgorithm:
        if (r.impl) need_impl(*r.impl);
        break;
      case Reference::Kind::Algebraic:
        if (!among(kProperties, r.what.text)) err(r.what.at, "unknown algebraic property '" + r.what.text + "'; expected one of " + listing(kProperties));
        if (r.what.text == "shift_invariance" || r.what.text == "permutation_invariance") {
          std::string kind = r.what.text == "shift_invariance" ? "shift" : "permute";
          bool found = false;
          for (const Step& s : c_->measure) found |= s.kind == Step::Kind::Transform && s.what.text == kind;
          if (!found) err(r.at, "algebraic " + r.what.text + " needs a 'transform " + kind + (kind == "shift" ? " TENSOR by Q" : " TENSOR") + "' step in the measurement");
        }
        if (!r.epsilon) err(r.at, "algebraic " + r.what.text + " states no epsilon: an algebraic relation holds in floating point only within a stated bound ('epsilon 0' for bitwise)");
        else if (auto v = value(*r.epsilon, "the epsilon"); v && *v < 0) err(r.epsilon->at, "epsilon must not be negative");
        break;
      case Reference::Kind::Spec:
        if (!among(kSpecs, r.what.text)) err(r.what.at, "unknown specification '" + r.what.text + "'; expected one of " + listing(kSpecs));
        break;
      case Reference::Kind::AlternateStack:
        break;  // another machine's results are compared by hand; the runner reports under-specified
    }
  }

  void step(const Step& s) {
    switch (s.kind) {
      case Step::Kind::Sample:
        count(*s.count, "the sample count", 1, 100000);
        if (s.seed) count(*s.seed, "the seed", 0, int64_t{1} << 53);
        if (s.scale) value(*s.scale, "the scale");
        break;
      case Step::Kind::Sweep:
        if (!c_->find_param(s.what.text)) unresolved(s.what.at, "sweep over '" + s.what.text + "', which is not a parameter of this contract");
        for (const Quantity& q : s.values) value(q, "a swept value");
        break;
      case Step::Kind::Inject:
        if (!among(kInjections, s.what.text)) err(s.what.at, "cannot inject '" + s.what.text + "'; expected one of " + listing(kInjections));
        count(*s.count, "the injection count", 1, 4096);
        if (s.seed) count(*s.seed, "the seed", 0, int64_t{1} << 53);
        break;
      case Step::Kind::Enumerate:
        if (!among(kSpaces, s.what.text)) err(s.what.at, "cannot enumerate '" + s.what.text + "'; expected one of " + listing(kSpaces));
        count(*s.count, "the number of orders", 2, 10000);
        break;
      case Step::Kind::Repeat: count(*s.count, "the repeat count", 2, 10000); break;
      case Step::Kind::Transform: {
        const TensorDecl* t = c_->find_tensor(s.tensor.text);
        if (!t) need_tensor(s.tensor);
        else if (t->role.text != "input") err(s.tensor.at, "'" + s.tensor.text + "' is not an input tensor");
        if (s.count) value(*s.count, "the shift");
        break;
      }
      case Step::Kind::Within:
        if (s.within->kind == Tolerance::Kind::None) err(s.at, "'within none' accepts anything; give the smoke test's bound");
        tolerance(*s.within, false);
        break;
      case Step::Kind::Compute:
        if (!among(kAggregates, s.what.text)) err(s.what.at, "unknown aggregate '" + s.what.text + "'; expected one of " + listing(kAggregates));
        break;
    }
  }

  void impl(const Impl& i) {
    if (i.incomplete) return;  // its items after the syntax error were skipped
    if (!i.role) err(i.name.at, "implementation '" + i.name.text + "' has no 'role' (baseline, bad, good or reference)");
    else if (!among(kRoles, i.role->text)) err(i.role->at, "unknown role '" + i.role->text + "'; expected baseline, bad, good or reference");
    int kinds = (i.ptx ? 1 : 0) + (i.cuda ? 1 : 0) + (i.triton ? 1 : 0);
    if (kinds == 0) err(i.name.at, "implementation '" + i.name.text + "' has no 'ptx', 'cuda' or 'triton' file");
    if (kinds > 1)
      err((i.triton ? i.triton : i.cuda)->at, "implementation '" + i.name.text + "' gives more than one of 'ptx', 'cuda' and 'triton'; give one");
    if (!i.triton && (i.warps || i.stages || !i.constexprs.empty()))
      err(i.name.at, "'warps', 'stages' and 'constexpr' are options of a 'triton' implementation");
    if (i.warps) count(*i.warps, "the number of warps", 1, 32);
    if (i.stages) count(*i.stages, "the number of pipeline stages", 1, 8);
    for (const auto& [k, q] : i.constexprs) value(q, "a constexpr value");
    for (const auto* f : {&i.ptx, &i.cuda, &i.triton, &i.source})
      if (*f && o_.check_files && !std::filesystem::exists(std::filesystem::path(o_.base_dir) / (*f)->text))
        err((*f)->at, "file '" + (*f)->text + "' does not exist (paths resolve against the contract's directory)");
    if (i.precision) precision(*i.precision);
    if (i.launches.empty()) err(i.name.at, "implementation '" + i.name.text + "' has no 'launch'");
    for (const LaunchDecl& l : i.launches) {
      if (l.grid.empty() || l.block.empty()) err(l.at, "launch of '" + l.entry.text + "' needs a grid and a block");
      for (const auto* dims : {&l.grid, &l.block}) {
        if (dims->size() > 3) err((*dims)[3].at, "at most 3 dimensions");
        for (const Quantity& q : *dims) count(q, "a launch dimension", 1, 65535);
      }
      if (l.shared) count(*l.shared, "the dynamic shared memory", 0, 232448);
      for (const Arg& a : l.args) {
        if (a.is_tensor) {
          if (!c_->find_tensor(a.tensor.text) && !env_.count(a.tensor.text))
            unresolved(a.tensor.at, "unknown argument '" + a.tensor.text + "' (neither a tensor nor a parameter)");
        } else {
          value(a.value, "an argument");
        }
      }
    }
    for (const auto& decl : i.declares) {
      const Name& k = decl.first;
      const Name& v = decl.second;
      const auto& choices = policy_choices(k.text);
      if (choices.empty()) err(k.at, "unknown policy '" + k.text + "'; expected nan, denormal, out_of_bounds or determinism");
      else if (!among(choices, v.text)) err(v.at, "'" + v.text + "' is not a " + k.text + " policy; expected one of " + listing(choices));
      for (const Relation& r : c_->post)
        if (r.kind == Relation::Kind::DeclaredPolicy && r.subject.text == k.text &&
            std::none_of(r.choices.begin(), r.choices.end(), [&](const Name& n) { return n.text == v.text; }))
          err(v.at, "the contract admits " + k.text + " policies {" + [&] {
            std::string s;
            for (const Name& n : r.choices) s += (s.empty() ? "" : ", ") + n.text;
            return s;
          }() + "}, not " + v.text);
    }
    if (i.ptx && o_.check_files && std::filesystem::is_regular_file(std::filesystem::path(o_.base_dir) / i.ptx->text))
      lint_ptx_launches(*c_, i, (std::filesystem::path(o_.base_dir) / i.ptx->text).string(), env_,
                        [this](const Span& at, const std::string& m) { err(at, m); });
  }

  const SourceText& src_;
  Diagnostics& d_;
  const LintOptions& o_;
  const Contract* c_ = nullptr;
  Env env_;
};

}  // namespace

const std::vector<std::string>& policy_choices(const std::string& policy) {
  static const std::map<std::string, std::vector<std::string>> m = {
      {"nan", {"IEEE_PROPAGATE", "MASK", "RAISE"}},
      {"denormal", {"IEEE", "FTZ"}},
      {"out_of_bounds", {"RAISE", "CLAMP", "ZERO", "UNDEFINED"}},
      {"determinism", {"BITWISE", "RUN_TO_RUN", "NONE"}}};
  static const std::vector<std::string> none;
  auto it = m.find(policy);
  return it == m.end() ? none : it->second;
}

void lint(const SourceText& src, const ContractFile& file, Diagnostics& diags, const LintOptions& opts) {
  if (file.unreadable) return;
  std::set<std::string> ids;
  for (const Contract& c : file.contracts) {
    if (!c.id.text.empty() && !ids.insert(c.id.text).second) diags.error(src, c.id.at.offset, c.id.at.width, "contract '" + c.id.text + "' defined twice in this file");
    Linter(src, diags, opts).contract(c);
  }
}

Env parameter_env(const Contract& c, const Env& overrides) {
  Env env;
  for (const Param& p : c.params) {
    if (auto it = overrides.find(p.name.text); it != overrides.end()) {
      env[p.name.text] = it->second;
      continue;
    }
    EvalResult r = evaluate(p.value, env);
    if (r.error) throw Error(ExitCode::BadInput, "parameter '" + p.name.text + "': " + r.error->message);
    env[p.name.text] = r.value;
  }
  return env;
}

LoadedContracts load_contracts(const std::string& path) {
  auto src = std::make_shared<SourceText>(SourceText::load(path));
  Diagnostics diags;
  ContractFile f = parse_contracts(*src, diags);
  std::string base = std::filesystem::path(path).parent_path().string();
  lint(*src, f, diags, {base, true});  // after syntax errors too: what did parse is checked
  diags.throw_if_any();
  return {src, std::move(f), base};
}

}  // namespace racer::contract
