#include "contract/inputs.hpp"

#include <cmath>
#include <cstdio>
#include <random>
#include <algorithm>
#include <set>

#include "exec/exact_float.hpp"
#include "exec/ieee.hpp"
#include "support/error.hpp"

namespace racer::contract {
namespace {

double eval_or_throw(const Quantity& q, const Env& env) {
  EvalResult r = evaluate(q, env);
  if (r.error) throw Error(ExitCode::BadInput, r.error->message);
  return r.value;
}

std::pair<double, double> range_of(const TensorDecl& t, const Env& env, bool is_float) {
  if (t.range) return {eval_or_throw(t.range->first, env), eval_or_throw(t.range->second, env)};
  return is_float ? std::pair{-1.0, 1.0} : std::pair{0.0, 16.0};
}

uint64_t float_bits(ptx::Type t, double v) {
  mpq_class q(v);
  if (auto b = exec::encode_rounded(t, q)) return *b;
  // Beyond the format's range: its largest finite value of that sign.
  ieee::Format f = t == ptx::Type::F16 ? ieee::Format::F16 : t == ptx::Type::BF16 ? ieee::Format::BF16 : t == ptx::Type::F64 ? ieee::Format::F64
                 : t == ptx::Type::E4M3 ? ieee::Format::E4M3 : t == ptx::Type::E5M2 ? ieee::Format::E5M2 : ieee::Format::F32;
  return ieee::max_finite(f, v < 0);
}

ieee::Format format_of(ptx::Type t) {
  switch (t) {
    case ptx::Type::F16: return ieee::Format::F16;
    case ptx::Type::BF16: return ieee::Format::BF16;
    case ptx::Type::F64: return ieee::Format::F64;
    case ptx::Type::E4M3: return ieee::Format::E4M3;
    case ptx::Type::E5M2: return ieee::Format::E5M2;
    default: return ieee::Format::F32;
  }
}

}  // namespace

std::vector<int64_t> tensor_shape(const TensorDecl& t, const Env& env) {
  std::vector<int64_t> s;
  for (const Quantity& q : t.shape) s.push_back(static_cast<int64_t>(eval_or_throw(q, env)));
  return s;
}

int64_t cell_count(const TensorDecl& t, const Env& env) {
  int64_t n = 1;
  for (int64_t d : tensor_shape(t, env)) n *= d;
  return n;
}

TensorBits make_inputs(const Contract& c, const Env& env, uint64_t seed, double scale) {
  TensorBits out;
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 1);
  for (const TensorDecl& t : c.tensors) {
    if (t.role.text != "input") continue;
    ptx::Type e = tensor_elem(t);
    bool is_float = ptx::is_float(e);
    auto [lo, hi] = range_of(t, env, is_float);
    auto& cells = out[t.name.text];
    int64_t n = cell_count(t, env);
    for (int64_t i = 0; i < n; ++i) {
      if (is_float) {
        double v = std::uniform_real_distribution<double>(lo * scale, hi * scale)(rng);
        cells.push_back(float_bits(e, v));
      } else {
        int64_t v = std::uniform_int_distribution<int64_t>(static_cast<int64_t>(lo), static_cast<int64_t>(hi))(rng);
        unsigned w = ptx::type_bits(e);
        cells.push_back(w == 64 ? static_cast<uint64_t>(v) : static_cast<uint64_t>(v) & ((uint64_t{1} << w) - 1));
      }
    }
  }
  return out;
}

std::vector<Injected> inject(const Contract& c, const Env& env, TensorBits& inputs, const std::string& kind, int64_t count, uint64_t seed) {
  std::vector<Injected> out;
  std::mt19937_64 rng(seed * 0xD1B54A32D192ED03ull + 7);
  for (const TensorDecl& t : c.tensors) {
    if (t.role.text != "input") continue;
    ptx::Type e = tensor_elem(t);
    bool oob = kind == "out_of_bounds";
    if (oob == ptx::is_float(e) || (oob && !t.range)) continue;
    auto& cells = inputs[t.name.text];
    if (cells.empty()) continue;
    std::set<int64_t> chosen;
    int64_t n = static_cast<int64_t>(cells.size());
    while (static_cast<int64_t>(chosen.size()) < std::min(count, n)) chosen.insert(std::uniform_int_distribution<int64_t>(0, n - 1)(rng));
    auto [lo, hi] = range_of(t, env, false);
    int k = 0;
    for (int64_t i : chosen) {
      uint64_t& b = cells[static_cast<size_t>(i)];
      ieee::Format f = format_of(e);
      bool neg = (k++ % 2) == 1;
      if (kind == "nan") b = ieee::canonical_nan(f);
      else if (kind == "inf") b = ieee::infinity(f, neg);
      else if (kind == "denormal") {
        // A random subnormal of the format: exponent field 0, fraction nonzero.
        uint64_t frac_mask = (uint64_t{1} << ieee::info(f).man_bits) - 1;
        uint64_t frac = std::uniform_int_distribution<uint64_t>(1, frac_mask)(rng);
        b = frac | (neg ? ieee::sign_bit(f) : 0);
      } else {
        // Alternately just above and just below the declared range, and far beyond it.
        int64_t d = 1 + static_cast<int64_t>(std::uniform_int_distribution<int>(0, 3)(rng)) * (k > 2 ? 1000 : 1);
        int64_t v = neg ? static_cast<int64_t>(lo) - d : static_cast<int64_t>(hi) + d;
        unsigned w = ptx::type_bits(e);
        b = w == 64 ? static_cast<uint64_t>(v) : static_cast<uint64_t>(v) & ((uint64_t{1} << w) - 1);
      }
      out.push_back({t.name.text, i, kind});
    }
  }
  return out;
}

void transform_input(const Contract& c, TensorBits& inputs, const std::string& kind, const std::string& tensor, double shift, uint64_t seed) {
  const TensorDecl* t = c.find_tensor(tensor);
  auto it = inputs.find(tensor);
  if (!t || it == inputs.end()) return;
  ptx::Type e = tensor_elem(*t);
  if (kind == "permute") {
    std::mt19937_64 rng(seed * 0x2545F4914F6CDD1Dull + 3);
    std::shuffle(it->second.begin(), it->second.end(), rng);
    return;
  }
  for (uint64_t& b : it->second) {
    if (ptx::is_float(e)) b = float_bits(e, bits_to_double(e, b) + shift);
    else b = static_cast<uint64_t>(static_cast<int64_t>(bits_to_double(e, b) + shift));
  }
}

void add_data_env(const Contract& c, const TensorBits& inputs, Env& env) {
  for (const TensorDecl& t : c.tensors) {
    if (t.role.text != "input") continue;
    ptx::Type e = tensor_elem(t);
    double mx = 0, sum = 0;
    if (auto it = inputs.find(t.name.text); it != inputs.end())
      for (uint64_t b : it->second) {
        double v = std::fabs(bits_to_double(e, b));
        if (!std::isfinite(v)) continue;  // anomalies do not widen the bound
        mx = std::max(mx, v);
        sum += v;
      }
    env["max_abs(" + t.name.text + ")"] = mx;
    env["sum_abs(" + t.name.text + ")"] = sum;
  }
}

std::string inputs_digest(const TensorBits& inputs) {
  uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&](uint64_t v) {
    for (int k = 0; k < 8; ++k) h = (h ^ ((v >> (8 * k)) & 0xFF)) * 0x100000001b3ull;
  };
  for (const auto& [name, cells] : inputs) {
    for (char ch : name) mix(static_cast<unsigned char>(ch));
    for (uint64_t b : cells) mix(b);
  }
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace racer::contract
