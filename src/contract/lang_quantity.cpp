#include "contract/lang_quantity.hpp"

#include <cmath>
#include <vector>

namespace racer::contract {
namespace {

struct Format {
  const char* name;
  int roundoff_exp;  // u = 2^-roundoff_exp
};
constexpr Format kFormats[] = {{"FP64", 53}, {"FP32", 24}, {"TF32", 11}, {"FP16", 11},
                               {"BF16", 8},  {"FP8_E4M3", 4}, {"FP8_E5M2", 3}};

struct Failed {
  EvalError e;
};

double eval(const Quantity& q, const Env& env) {
  auto arg = [&](size_t i) { return eval(q.args[i], env); };
  auto check = [&](double v) {
    if (!std::isfinite(v)) throw Failed{{q.at, "the quantity is not a finite number"}};
    return v;
  };
  switch (q.kind) {
    case Quantity::Kind::Number: return q.number;
    case Quantity::Kind::Name: {
      auto it = env.find(q.name);
      if (it == env.end()) throw Failed{{q.at, "unknown name '" + q.name + "' (not a parameter of this contract)"}};
      return it->second;
    }
    case Quantity::Kind::Neg: return -arg(0);
    case Quantity::Kind::Add: return check(arg(0) + arg(1));
    case Quantity::Kind::Sub: return check(arg(0) - arg(1));
    case Quantity::Kind::Mul: return check(arg(0) * arg(1));
    case Quantity::Kind::Div: {
      double d = arg(1);
      if (d == 0) throw Failed{{q.args[1].at, "division by zero"}};
      return check(arg(0) / d);
    }
    case Quantity::Kind::Pow: return check(std::pow(arg(0), arg(1)));
    case Quantity::Kind::Call: break;
  }
  auto want = [&](size_t n) {
    if (q.args.size() != n)
      throw Failed{{q.at, "'" + q.name + "' takes " + std::to_string(n) + " argument" + (n == 1 ? "" : "s") + ", not " + std::to_string(q.args.size())}};
  };
  if (q.name == "u") {
    want(1);
    const Quantity& p = q.args[0];
    auto u = p.kind == Quantity::Kind::Name ? unit_roundoff(p.name) : std::nullopt;
    if (!u) throw Failed{{p.at, "u() takes a precision name (FP64, FP32, TF32, FP16, BF16, FP8_E4M3, FP8_E5M2)"}};
    return *u;
  }
  if (q.name == "log2" || q.name == "sqrt" || q.name == "ceil") {
    want(1);
    double x = arg(0);
    if (q.name != "ceil" && x <= 0) throw Failed{{q.args[0].at, q.name + "() needs a positive argument"}};
    return check(q.name == "log2" ? std::log2(x) : q.name == "sqrt" ? std::sqrt(x) : std::ceil(x));
  }
  if (q.name == "max_abs" || q.name == "sum_abs") {  // of an input tensor, per measured sample
    want(1);
    auto it = q.args[0].kind == Quantity::Kind::Name ? env.find(q.name + "(" + q.args[0].name + ")") : env.end();
    if (it == env.end()) throw Failed{{q.args[0].at, q.name + "() takes the name of a tensor of this contract"}};
    return it->second;
  }
  if (q.name == "max" || q.name == "min") {
    want(2);
    return q.name == "max" ? std::max(arg(0), arg(1)) : std::min(arg(0), arg(1));
  }
  throw Failed{{q.at, "unknown function '" + q.name + "'; expected u, log2, sqrt, ceil, max, min, max_abs or sum_abs"}};
}

}  // namespace

std::optional<double> unit_roundoff(const std::string& p) {
  for (const Format& f : kFormats)
    if (p == f.name) return std::ldexp(1.0, -f.roundoff_exp);
  return std::nullopt;
}

std::optional<int> precision_rank(const std::string& p) {
  for (const Format& f : kFormats)
    if (p == f.name) return f.roundoff_exp;
  return std::nullopt;
}

const std::vector<std::string>& precision_names() {
  static const std::vector<std::string> n = [] {
    std::vector<std::string> v;
    for (const Format& f : kFormats) v.push_back(f.name);
    return v;
  }();
  return n;
}

std::string precision_of_dtype(const std::string& d) {
  if (d == "f64") return "FP64";
  if (d == "f32") return "FP32";
  if (d == "f16") return "FP16";
  if (d == "bf16") return "BF16";
  if (d == "fp8e4m3") return "FP8_E4M3";
  if (d == "fp8e5m2") return "FP8_E5M2";
  return "";
}

EvalResult evaluate(const Quantity& q, const Env& env) {
  try {
    return {eval(q, env), std::nullopt};
  } catch (const Failed& f) {
    return {0, f.e};
  }
}

}  // namespace racer::contract
