#include "contract/protocol.hpp"

#include "contract/compare.hpp"
#include "contract/lang_lint.hpp"
#include "support/error.hpp"

namespace racer::contract {
namespace {

int64_t num(const Quantity& q, const Env& env) {
  EvalResult r = evaluate(q, env);
  if (r.error) throw Error(ExitCode::BadInput, r.error->message);
  return static_cast<int64_t>(r.value);
}

}  // namespace

Protocol read_protocol(const Contract& c, const std::vector<Step>& steps) {
  Protocol p;
  Env env = parameter_env(c);
  for (const Step& s : steps) {
    switch (s.kind) {
      case Step::Kind::Sweep: {
        std::vector<double> vals;
        for (const Quantity& q : s.values) vals.push_back(static_cast<double>(num(q, env)));
        p.sweeps.emplace_back(s.what.text, vals);
        break;
      }
      case Step::Kind::Sample:
        p.samples.push_back({num(*s.count, env), s.seed ? static_cast<uint64_t>(num(*s.seed, env)) : 1,
                             s.scale ? evaluate(*s.scale, env).value : 1.0});
        break;
      case Step::Kind::Inject:
        p.injections.push_back({s.what.text, num(*s.count, env), s.seed ? static_cast<uint64_t>(num(*s.seed, env)) : 1});
        break;
      case Step::Kind::Enumerate: p.orders = num(*s.count, env); break;
      case Step::Kind::Repeat: p.repeats = num(*s.count, env); break;
      case Step::Kind::Within: p.within = s.within.get(); break;
      case Step::Kind::Transform:
        p.transforms.push_back({s.what.text, s.tensor.text, s.count ? evaluate(*s.count, env).value : 0.0});
        break;
      case Step::Kind::Compute: break;
    }
  }
  if (p.samples.empty()) p.samples.push_back({});
  return p;
}

std::vector<Env> configurations(const Protocol& p) {
  std::vector<Env> out{{}};
  for (const auto& [name, vals] : p.sweeps) {
    std::vector<Env> next;
    for (const Env& e : out)
      for (double v : vals) {
        Env x = e;
        x[name] = v;
        next.push_back(x);
      }
    out = std::move(next);
  }
  return out;
}

std::string show_config(const Contract& c, const Env& env) {
  std::string s;
  for (const Param& p : c.params) s += (s.empty() ? "" : " ") + p.name.text + "=" + show_double(env.at(p.name.text));
  return s.empty() ? "(no parameters)" : s;
}

}  // namespace racer::contract
