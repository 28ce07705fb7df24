#include "contract/measure.hpp"

#include <cmath>
#include <map>
#include <set>

#include "contract/compare.hpp"
#include "contract/inputs.hpp"
#include "contract/protocol.hpp"
#include "exec/defect.hpp"
#include "exec/exact_float.hpp"
#include "exec/ieee.hpp"
#include "support/error.hpp"

namespace racer::contract {

std::string verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Conforming: return "conforming";
    case Verdict::Violation: return "violation";
    case Verdict::UnderSpecified: return "under-specified";
    case Verdict::Refused: return "refused";
  }
  return "?";
}

namespace {

const std::string* declared(const Impl& impl, const std::string& policy) {
  for (const auto& [k, v] : impl.declares)
    if (k.text == policy) return &v.text;
  return nullptr;
}

// Which implementation gives reference values, and how.
struct ValueOracle {
  enum class Kind : uint8_t { None, Exact, Concrete } kind = Kind::None;
  const Impl* impl = nullptr;
};

ValueOracle value_oracle(const Contract& c, const Impl& impl) {
  ValueOracle o;
  if (c.reference) {
    const Reference& r = *c.reference;
    switch (r.kind) {
      case Reference::Kind::Exact:
        return {ValueOracle::Kind::Exact, r.impl ? c.find_impl(r.impl->text) : &impl};
      case Reference::Kind::HigherPrecision:
      case Reference::Kind::Alternate:
      case Reference::Kind::StableAlgorithm:
        if (r.impl) return {ValueOracle::Kind::Concrete, c.find_impl(r.impl->text)};
        break;
      default: break;
    }
  }
  // A reference implementation: run concretely when it declares a (higher) working
  // precision, else evaluated exactly as the specification it is written as.
  for (const Impl& i : c.impls)
    if (i.role && i.role->text == "reference") return {i.precision ? ValueOracle::Kind::Concrete : ValueOracle::Kind::Exact, &i};
  return o;
}

// The exact oracle depends only on the contract, the implementation evaluated and the
// parameter values; calibration asks for the same one six times per configuration, so one
// symbolic run serves them all (per process).
std::shared_ptr<ExactOracle> exact_oracle(const LoadedContracts& f, const Contract& c, const Impl& impl, const Env& env) {
  static std::map<std::string, std::shared_ptr<ExactOracle>> cache;
  std::string key = f.source->path() + "\n" + c.id.text + "\n" + impl.name.text;
  for (const auto& [k, v] : env) key += "\n" + k + "=" + show_double(v);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  if (cache.size() > 64) cache.clear();  // bound the memory the expression stores hold
  auto o = std::make_shared<ExactOracle>(c, impl, env, f.base_dir);
  cache.emplace(key, o);
  return o;
}

class Measurer {
 public:
  Measurer(const LoadedContracts& f, const Contract& c, const Impl& impl, const CheckOptions& o)
      : f_(f), c_(c), impl_(impl), o_(o), cpu_(cpu_backend()) {
    rep_.contract = c.id.text;
    rep_.impl = impl.name.text;
    rep_.role = impl.role ? impl.role->text : "";
    rep_.backend = o.backend->name();
    rep_.profile = o.backend->profile();
    rep_.visible = o.visible;
  }

  CheckReport run() {
    const auto& steps = o_.visible ? c_.visible : c_.measure;
    if (o_.visible && steps.empty()) unspecified("the contract has no 'visible' tests");
    Protocol p = read_protocol(c_, steps);
    if (o_.visible && !p.within) unspecified("the visible tests state no 'within' bound");
    for (Env over : configurations(p)) {
      if (!rep_.refusal.empty()) break;
      for (const auto& [k, v] : o_.overrides) over.emplace(k, v);  // a sweep's value wins
      config(parameter_env(c_, over), p);
    }
    if (!rep_.refusal.empty()) rep_.verdict = Verdict::Refused;
    else if (rep_.violations) rep_.verdict = Verdict::Violation;
    else if (!rep_.unspecified.empty()) rep_.verdict = Verdict::UnderSpecified;
    return std::move(rep_);
  }

 private:
  void unspecified(const std::string& why) {
    for (const auto& u : rep_.unspecified)
      if (u == why) return;
    rep_.unspecified.push_back(why);
  }

  void violation(Measurement& m, const std::string& observed) {
    m.pass = false;
    ++rep_.violations;
    if (rep_.findings.size() < 8) rep_.findings.push_back({m.config, m.seed, observed});
  }

  void config(const Env& env, const Protocol& p) {
    std::unique_ptr<ImplRunner> runner = o_.backend->prepare(c_, impl_, env, f_.base_dir);
    // Oracles only where the protocol needs them: reference values (close relations against a
    // value oracle, the visible tests) or the exact function (the nan/denormal policies).
    bool algebraic_ref = c_.reference && c_.reference->kind == Reference::Kind::Algebraic;
    bool need_values = o_.visible, need_exact = false;
    for (const Relation& r : c_.post) {
      if (r.kind == Relation::Kind::Close && !algebraic_ref) need_values = true;
      if (r.kind == Relation::Kind::DeclaredPolicy && (r.subject.text == "nan" || r.subject.text == "denormal") && !o_.visible) need_exact = true;
    }
    ValueOracle vo = value_oracle(c_, impl_);
    std::shared_ptr<ExactOracle> exact;
    std::unique_ptr<ImplRunner> concrete_ref;
    if (vo.kind == ValueOracle::Kind::Exact && (need_values || need_exact)) {
      exact = exact_oracle(f_, c_, *vo.impl, env);
      if (!exact->failure().empty()) {
        unspecified("the exact oracle (symbolic run of '" + vo.impl->name.text + "') failed: " + exact->failure());
        exact.reset();
      }
    } else if (vo.kind == ValueOracle::Kind::Concrete && need_values) {
      concrete_ref = cpu_->prepare(c_, *vo.impl, env, f_.base_dir);
    }
    bool gpu_repeats = o_.backend->repeats_vary();
    int64_t runs = gpu_repeats ? std::max(p.orders, p.repeats) : p.orders;
    if (!gpu_repeats && p.repeats > 1 && p.orders == 1)
      unspecified("'repeat' on the CPU backend reruns a deterministic emulation; use 'enumerate atomic_orders' for the orders a GPU may pick");
    for (const Protocol::Sample& s : p.samples)
      for (int64_t i = 0; i < s.count && rep_.refusal.empty(); ++i) {
        Measurement m;
        m.config = show_config(c_, env);
        m.seed = s.seed + static_cast<uint64_t>(i);
        TensorBits inputs = make_inputs(c_, env, m.seed, s.scale);
        std::vector<Injected> injected;
        for (const auto& inj : p.injections)
          for (const Injected& x : inject(c_, env, inputs, inj.kind, inj.count, inj.seed + m.seed)) injected.push_back(x);
        m.input_digest = inputs_digest(inputs);
        Env denv = env;
        add_data_env(c_, inputs, denv);
        std::vector<RunOutput> outs;
        for (int64_t k = 0; k < std::max<int64_t>(runs, 1); ++k) {
          outs.push_back(runner->run(inputs, static_cast<uint64_t>(k)));
          ++rep_.runs;
          if (!outs.back().refusal.empty()) {
            rep_.refusal = outs.back().refusal;
            return;
          }
        }
        judge_sample(m, p, env, denv, inputs, injected, outs, exact.get(), concrete_ref.get(), *runner);
        rep_.measurements.push_back(m);
      }
  }

  std::map<std::string, std::vector<RefValue>> reference_values(const TensorBits& inputs, ExactOracle* exact, ImplRunner* concrete) {
    std::map<std::string, std::vector<RefValue>> out;
    if (exact) {
      for (const TensorDecl& t : c_.tensors)
        if (t.role.text == "output")
          for (const auto& v : exact->evaluate(t.name.text, inputs)) out[t.name.text].push_back(RefValue::of_exact(v));
    } else if (concrete) {
      RunOutput r = concrete->run(inputs, 0);
      if (!r.refusal.empty()) {
        unspecified("the reference implementation could not be run: " + r.refusal);
        return out;
      }
      for (const auto& [name, cells] : r.outputs) {
        // A reference that writes `y_ref` supplies the reference for `y`.
        std::string target = name.size() > 4 && name.ends_with("_ref") ? name.substr(0, name.size() - 4) : name;
        const TensorDecl* td = c_.find_tensor(name);
        auto& vals = out[target];
        if (target != name || vals.empty()) {
          vals.clear();
          for (uint64_t b : cells) vals.push_back(RefValue::of_bits(tensor_elem(*td), b));
        }
      }
    }
    return out;
  }

  void judge_tensor(Measurement& m, const Tolerance& tol, const std::string& name, const std::vector<uint64_t>& y,
                    const std::vector<RefValue>& ref, const Env& denv, const char* against) {
    const TensorDecl* td = c_.find_tensor(name);
    ptx::Type t = tensor_elem(*td);
    bool reported = false;
    size_t judged = 0;
    for (size_t i = 0; i < y.size() && i < ref.size(); ++i) {
      CellJudgement j = judge(tol, t, y[i], ref[i], denv);
      if (!j.judged) continue;
      ++judged;
      ++rep_.cells_judged;
      double ratio = j.bound > 0 ? j.residual / j.bound : (j.residual > 0 ? INFINITY : 0);
      if (ratio >= m.residual) m.residual = ratio, m.worst_residual = j.residual, m.worst_bound = j.bound;
      if (!j.pass && !reported) {
        violation(m, name + "[" + std::to_string(i) + "] against " + against + ": " + j.detail);
        reported = true;  // one finding per tensor and sample; the count covers the rest
      } else if (!j.pass) {
        ++rep_.violations;
      }
    }
    // Nothing judged is not a pass: the oracle gave no value (an irrational result the exact
    // oracle cannot state, or every cell depending on an injected NaN/Inf).
    if (judged == 0 && !y.empty())
      unspecified(std::string("no cell of '") + name + "' could be judged against " + against +
                  " (the oracle gave no value; an irrational result needs a higher_precision reference)");
  }

  void judge_sample(Measurement& m, const Protocol& p, const Env& env, const Env& denv, const TensorBits& inputs,
                    const std::vector<Injected>& injected, const std::vector<RunOutput>& outs, ExactOracle* exact,
                    ImplRunner* concrete, ImplRunner& runner) {
    const std::string* oob_policy = declared(impl_, "out_of_bounds");
    for (const exec::Defect& d : outs[0].defects) {
      bool oob = d.kind == exec::DefectKind::OobRead;
      if (oob && oob_policy && *oob_policy == "UNDEFINED") continue;
      violation(m, std::string(exec::defect_kind_name(d.kind)) + " at " + d.memory + " (" + d.site.text + ")");
    }
    std::map<std::string, std::vector<RefValue>> refs;
    bool refs_made = false;
    auto reference = [&]() -> std::map<std::string, std::vector<RefValue>>& {
      if (!refs_made) refs = reference_values(inputs, exact, concrete), refs_made = true;
      return refs;
    };
    const Tolerance* tol = o_.visible && p.within ? p.within : c_.tolerance ? &*c_.tolerance : nullptr;
    bool any_close = false;
    for (const Relation& r : c_.post) {
      switch (r.kind) {
        case Relation::Kind::Close: {
          any_close = true;
          const auto& y = outs[0].outputs.at(r.output.text);
          if (c_.reference && c_.reference->kind == Reference::Kind::Algebraic && !o_.visible) {
            const std::string& prop = c_.reference->what.text;
            if (prop == "shift_invariance" || prop == "permutation_invariance") invariance(m, p, r.output.text, inputs, outs[0], runner, denv);
            else algebraic(m, r.output.text, outs, denv);
            break;
          }
          auto& ref = reference();
          if (!ref.count(r.output.text)) {
            unspecified("no reference values for '" + r.output.text + "' (the reference oracle gives none the runner can compute)");
            break;
          }
          if (tol) judge_tensor(m, *tol, r.output.text, y, ref.at(r.output.text), denv, "the reference");
          break;
        }
        case Relation::Kind::BitwiseIdentical:
          if (o_.visible) break;
          if (outs.size() < 2) unspecified("bitwise_identical across " + r.subject.text + " needs several runs ('enumerate atomic_orders N' or, on a GPU, 'repeat N')");
          else bitwise(m, outs, "run");
          break;
        case Relation::Kind::DeclaredPolicy:
          if (!o_.visible) policy(m, r, env, inputs, injected, outs, exact, runner);
          break;
        case Relation::Kind::Raise:
          if (!o_.visible) unspecified("'raise' cannot be observed on the " + o_.backend->name() + " backend");
          break;
      }
    }
    if (o_.visible && !any_close && p.within) {
      auto& ref = reference();
      if (ref.empty()) unspecified("the visible tests need reference values: give the contract an implementation with role reference");
      for (const auto& [name, y] : outs[0].outputs)
        if (ref.count(name)) judge_tensor(m, *p.within, name, y, ref.at(name), denv, "the reference");
    }
  }

  void bitwise(Measurement& m, const std::vector<RunOutput>& outs, const char* what) {
    for (size_t k = 1; k < outs.size(); ++k)
      for (const auto& [name, y0] : outs[0].outputs) {
        const auto& yk = outs[k].outputs.at(name);
        for (size_t i = 0; i < y0.size(); ++i)
          if (y0[i] != yk[i]) {
            ptx::Type t = tensor_elem(*c_.find_tensor(name));
            violation(m, name + "[" + std::to_string(i) + "] differs between " + what + " 0 and " + what + " " + std::to_string(k) + ": " +
                             show_cell(t, y0[i]) + " vs " + show_cell(t, yk[i]));
            return;
          }
      }
  }

  void algebraic(Measurement& m, const std::string& name, const std::vector<RunOutput>& outs, const Env& denv) {
    const Reference& r = *c_.reference;
    if (r.what.text != "determinism" && r.what.text != "idempotence") {
      unspecified("the runner does not implement the algebraic property '" + r.what.text + "' yet");
      return;
    }
    if (outs.size() < 2) {
      unspecified("algebraic " + r.what.text + " needs several runs ('enumerate atomic_orders N' or, on a GPU, 'repeat N')");
      return;
    }
    double eps = evaluate(*r.epsilon, denv).value;
    ptx::Type t = tensor_elem(*c_.find_tensor(name));
    Tolerance tol;
    tol.kind = eps == 0 ? Tolerance::Kind::Exact : Tolerance::Kind::Relative;
    tol.bound.number = eps;
    std::vector<RefValue> first;
    for (uint64_t b : outs[0].outputs.at(name)) first.push_back(RefValue::of_bits(t, b));
    for (size_t k = 1; k < outs.size(); ++k) judge_tensor(m, tol, name, outs[k].outputs.at(name), first, denv, ("run 0 (run " + std::to_string(k) + ")").c_str());
  }

  // An invariance: the output under the transformed input must stay within epsilon (absolute,
  // per cell) of the output under the input as sampled.
  void invariance(Measurement& m, const Protocol& p, const std::string& name, const TensorBits& inputs, const RunOutput& base,
                  ImplRunner& runner, const Env& denv) {
    const Reference& r = *c_.reference;
    std::string kind = r.what.text == "shift_invariance" ? "shift" : "permute";
    TensorBits changed = inputs;
    for (const auto& t : p.transforms)
      if (t.kind == kind) transform_input(c_, changed, kind, t.tensor, t.shift, m.seed);
    RunOutput out = runner.run(changed, 0);
    ++rep_.runs;
    if (!out.refusal.empty()) return unspecified("the transformed run was refused: " + out.refusal);
    ptx::Type t = tensor_elem(*c_.find_tensor(name));
    Tolerance tol;
    tol.kind = Tolerance::Kind::Absolute;
    tol.bound.number = evaluate(*r.epsilon, denv).value;
    std::vector<RefValue> first;
    for (uint64_t b : base.outputs.at(name)) first.push_back(RefValue::of_bits(t, b));
    judge_tensor(m, tol, name, out.outputs.at(name), first, denv, ("the untransformed run (" + r.what.text + ")").c_str());
  }

  void policy(Measurement& m, const Relation& r, const Env& env, const TensorBits& inputs, const std::vector<Injected>& injected,
              const std::vector<RunOutput>& outs, ExactOracle* exact, ImplRunner& runner) {
    const std::string* d = declared(impl_, r.subject.text);
    if (!d) {
      violation(m, "the implementation declares no " + r.subject.text + " policy (the contract requires one of its choices)");
      return;
    }
    std::set<std::pair<std::string, int64_t>> hit;
    for (const Injected& x : injected) hit.insert({x.tensor, x.cell});
    const std::string& pol = *d;
    if (r.subject.text == "determinism") {
      if (pol == "NONE") return;
      if (outs.size() < 2) return unspecified("determinism needs several runs ('enumerate atomic_orders N' or 'repeat N')");
      if (pol == "BITWISE") bitwise(m, outs, "run");
      else algebraic(m, c_.post.empty() ? "" : outs[0].outputs.begin()->first, outs, env);
      return;
    }
    if (injected.empty()) return;  // nothing injected: the policy is not exercised by this sample
    if (r.subject.text == "nan") {
      if (pol == "RAISE") return unspecified("a RAISE policy cannot be observed on the " + o_.backend->name() + " backend");
      if (!exact) return unspecified("the nan policy needs the exact oracle (to know which outputs depend on which inputs)");
      for (const auto& [name, y] : outs[0].outputs) {
        ptx::Type t = tensor_elem(*c_.find_tensor(name));
        auto deps = exact->dependencies(name);
        for (size_t i = 0; i < y.size() && i < deps.size(); ++i) {
          bool depends = false;
          for (const auto& dep : deps[i]) depends |= hit.count(dep) > 0;
          if (!depends) continue;
          bool nan = ptx::is_float(t) && RefValue::of_bits(t, y[i]).kind == RefValue::Kind::NaN;
          if (pol == "IEEE_PROPAGATE" && !nan)
            return violation(m, name + "[" + std::to_string(i) + "] depends on an injected NaN but holds " + show_cell(t, y[i]) + " (declared IEEE_PROPAGATE)");
          if (pol == "MASK" && nan) return violation(m, name + "[" + std::to_string(i) + "] is NaN (declared MASK)");
        }
      }
      return;
    }
    if (r.subject.text == "denormal") {
      if (!exact) return unspecified("the denormal policy needs the exact oracle");
      TensorBits flushed = inputs;
      if (pol == "FTZ")
        for (auto& [name, cells] : flushed) {
          ptx::Type t = tensor_elem(*c_.find_tensor(name));
          if (t == ptx::Type::F32) for (uint64_t& b : cells) b = ieee::flush(ieee::Format::F32, b);
        }
      for (const auto& [name, y] : outs[0].outputs) {
        ptx::Type t = tensor_elem(*c_.find_tensor(name));
        auto vals = exact->evaluate(name, flushed);
        for (size_t i = 0; i < y.size() && i < vals.size(); ++i) {
          if (!vals[i] || !ptx::is_float(t)) continue;
          auto want = exec::encode_rounded(t, *vals[i]);
          if (!want) continue;
          uint64_t w = pol == "FTZ" && t == ptx::Type::F32 ? ieee::flush(ieee::Format::F32, *want) : *want;
          bool same = w == y[i] || (bits_to_double(t, w) == 0 && bits_to_double(t, y[i]) == 0);
          ++rep_.cells_judged;
          if (!same)
            return violation(m, name + "[" + std::to_string(i) + "] = " + show_cell(t, y[i]) + " but the declared " + pol + " policy gives " + show_cell(t, w));
        }
      }
      return;
    }
    if (r.subject.text == "out_of_bounds") {
      if (pol == "RAISE") return unspecified("a RAISE policy cannot be observed on the " + o_.backend->name() + " backend");
      if (pol == "UNDEFINED") return;
      TensorBits clamped = inputs;
      for (const Injected& x : injected) {
        const TensorDecl* td = c_.find_tensor(x.tensor);
        ptx::Type t = tensor_elem(*td);
        double lo = evaluate(td->range->first, env).value, hi = evaluate(td->range->second, env).value;
        double v = bits_to_double(t, clamped[x.tensor][static_cast<size_t>(x.cell)]);
        uint64_t c = static_cast<uint64_t>(static_cast<int64_t>(std::clamp(v, lo, hi)));
        unsigned w = ptx::type_bits(t);
        clamped[x.tensor][static_cast<size_t>(x.cell)] = w == 64 ? c : c & ((uint64_t{1} << w) - 1);
      }
      RunOutput cl = runner.run(clamped, 0);
      if (!cl.refusal.empty()) return unspecified("the clamped-index run was refused: " + cl.refusal);
      for (const auto& [name, y] : outs[0].outputs) {
        ptx::Type t = tensor_elem(*c_.find_tensor(name));
        const auto& yc = cl.outputs.at(name);
        for (size_t i = 0; i < y.size(); ++i) {
          bool ok = pol == "CLAMP" ? y[i] == yc[i] : (y[i] == yc[i] || bits_to_double(t, y[i]) == 0);
          ++rep_.cells_judged;
          if (!ok)
            return violation(m, name + "[" + std::to_string(i) + "] = " + show_cell(t, y[i]) + " but the declared " + pol +
                                    " policy gives " + (pol == "CLAMP" ? show_cell(t, yc[i]) : std::string("0")));
        }
      }
    }
  }

  const LoadedContracts& f_;
  const Contract& c_;
  const Impl& impl_;
  const CheckOptions& o_;
  std::unique_ptr<Backend> cpu_;
  CheckReport rep_;
};

}  // namespace

CheckReport check_contract(const LoadedContracts& f, const Contract& c, const Impl& impl, const CheckOptions& opts) {
  return Measurer(f, c, impl, opts).run();
}

}  // namespace racer::contract
