#include "contract/lint_ptx.hpp"

#include <cmath>
#include <optional>

#include "ptx/parser.hpp"
#include "support/error.hpp"

namespace racer::contract {
namespace {

std::string entries_of(const ptx::Module& m) {
  std::string s;
  for (const ptx::Function& f : m.functions)
    if (f.is_entry) s += (s.empty() ? "" : ", ") + f.name;
  return s.empty() ? "none" : s;
}

std::string parameter_text(size_t k, const ptx::Variable& p) {
  return "parameter " + std::to_string(k) + " (" + p.name + ": ." + std::string(ptx::type_name(p.type)) + ")";
}

// The number an argument passes (a quantity, or a parameter by name); nullopt where it does not
// evaluate, which the linter reports on its own.
std::optional<double> number_of(const Arg& a, const Env& params) {
  if (a.is_tensor) {
    auto it = params.find(a.tensor.text);
    return it == params.end() ? std::nullopt : std::optional<double>(it->second);
  }
  EvalResult r = evaluate(a.value, params);
  return r.error ? std::nullopt : std::optional<double>(r.value);
}

// Why `v` cannot be passed to integer parameter `p` ("" if it can). Unsigned parameters take
// negative numbers as two's complement, as instances do (FORMAT.md).
std::string integer_problem(double v, const ptx::Variable& p) {
  if (v != std::floor(v)) return "is not an integer";
  unsigned w = ptx::type_bits(p.type);
  if (w >= 64) return std::fabs(v) < 0x1p63 ? "" : "does not fit 64 bits";
  double lo = -std::ldexp(1.0, static_cast<int>(w) - 1);
  double hi = ptx::type_class(p.type) == ptx::TypeClass::Signed ? std::ldexp(1.0, static_cast<int>(w) - 1) - 1
                                                                 : std::ldexp(1.0, static_cast<int>(w)) - 1;
  return v < lo || v > hi ? "does not fit ." + std::string(ptx::type_name(p.type)) : "";
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

}  // namespace

void lint_ptx_launches(const Contract& c, const Impl& impl, const std::string& ptx_path, const Env& params,
                       const LintError& error) {
  std::optional<ptx::ParsedModule> pm;
  try {
    pm.emplace(ptx::parse_ptx_file(ptx_path));
  } catch (const Error& e) {
    error(impl.ptx->at, "the PTX file does not parse: " + first_line(e.what()));
    return;
  }
  for (const LaunchDecl& l : impl.launches) {
    const ptx::Function* fn = pm->module.find_entry(l.entry.text);
    if (!fn) {
      error(l.entry.at, "no entry '" + l.entry.text + "' in " + impl.ptx->text + " (entries: " + entries_of(pm->module) + ")");
      continue;
    }
    if (fn->params.size() != l.args.size()) {
      error(l.at, "entry '" + l.entry.text + "' takes " + std::to_string(fn->params.size()) + " parameters but the launch passes " +
                      std::to_string(l.args.size()) + " arguments");
      continue;
    }
    for (size_t k = 0; k < l.args.size(); ++k) {
      const Arg& a = l.args[k];
      const ptx::Variable& p = fn->params[k];
      bool pointer_sized = ptx::type_bits(p.type) == 64 && !ptx::is_float(p.type) && !p.has_dims;
      if (a.is_tensor && c.find_tensor(a.tensor.text)) {
        if (!pointer_sized)
          error(a.at, "tensor '" + a.tensor.text + "' is passed to " + parameter_text(k, p) + ", which is not a 64-bit pointer");
        continue;
      }
      if (p.has_dims) {
        error(a.at, "a number is passed to " + parameter_text(k, p) + ", an array of " + std::to_string(p.size_bytes()) + " bytes");
        continue;
      }
      std::optional<double> v = number_of(a, params);
      if (!v || ptx::is_float(p.type)) continue;
      if (std::string why = integer_problem(*v, p); !why.empty()) {
        char text[64];
        std::snprintf(text, sizeof text, "%.17g", *v);
        error(a.at, std::string("the argument ") + text + " " + why + ", but it is passed to integer " + parameter_text(k, p));
      }
    }
  }
}

}  // namespace racer::contract
