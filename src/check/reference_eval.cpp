#include "check/reference_eval.hpp"

#include <cmath>
#include <string>

#include "check/concrete_run.hpp"
#include "check/float_model.hpp"
#include "exec/exact_float.hpp"
#include "exec/ieee.hpp"

namespace racer::check {
namespace {

using instance::RefOp;

long double input_value(const exec::TensorSpec& t, int64_t cell) {
  int64_t off = 0, rest = cell;
  for (size_t d = t.shape.size(); d-- > 0;) {
    off += (rest % t.shape[d]) * t.strides[d];
    rest /= t.shape[d];
  }
  uint64_t bits = 0;
  size_t pos = static_cast<size_t>(off) * t.elem_bytes();
  for (unsigned k = 0; k < t.elem_bytes() && pos + k < t.bytes.size(); ++k) bits |= uint64_t{t.bytes[pos + k]} << (8 * k);
  return cell_value(t.elem, bits);
}

// The long double as an exact rational (two doubles carry its 64 significand bits).
mpq_class exact(long double v) {
  double hi = static_cast<double>(v);
  double lo = static_cast<double>(v - hi);
  return mpq_class(hi) + mpq_class(lo);
}

uint64_t round_to(ptx::Type t, long double v) {
  if (auto f = float_format(t)) {
    if (std::isnan(v)) return ieee::canonical_nan(*f);
    if (std::isinf(v)) return ieee::infinity(*f, v < 0);
    auto bits = exec::encode_rounded(t, exact(v));
    return bits ? *bits : ieee::infinity(*f, v < 0);
  }
  // An integer output (an argmax, a count): the nearest integer, in the type's width.
  long double r = std::nearbyint(v);
  if (!std::isfinite(r)) return 0;
  uint64_t bits = static_cast<uint64_t>(static_cast<int64_t>(r));
  unsigned w = t == ptx::Type::Pred ? 8 : ptx::type_bits(t);
  return w >= 64 ? bits : bits & ((uint64_t{1} << w) - 1);
}

// "p/q" as the nearest long double (to within a rounding of numerator and denominator).
long double exact_value(const std::string& text) {
  size_t slash = text.find('/');
  if (slash == std::string::npos) return std::stold(text);
  return std::stold(text.substr(0, slash)) / std::stold(text.substr(slash + 1));
}

long double apply(RefOp op, const std::vector<long double>& v, const instance::RefNode& n) {
  switch (op) {
    case RefOp::Add: {
      long double s = 0;
      for (long double x : v) s += x;
      return s;
    }
    case RefOp::Mul: {
      long double p = 1;
      for (long double x : v) p *= x;
      return p;
    }
    case RefOp::Neg: return -v[0];
    case RefOp::Div: return v[0] / v[1];
    case RefOp::PowInt: return std::pow(v[0], std::stold(n.value));
    case RefOp::Exp: return std::exp(v[0]);
    case RefOp::Log: return v[0] < 0 ? NAN : std::log(v[0]);
    case RefOp::Sqrt: return v[0] < 0 ? NAN : std::sqrt(v[0]);
    case RefOp::Tanh: return std::tanh(v[0]);
    case RefOp::Erf: return std::erf(v[0]);
    case RefOp::Sin: return std::sin(v[0]);
    case RefOp::Cos: return std::cos(v[0]);
    case RefOp::Abs: return std::fabs(v[0]);
    case RefOp::Max:
    case RefOp::Min: {
      long double m = v[0];
      for (long double x : v) {
        if (std::isnan(x)) return NAN;
        m = op == RefOp::Max ? std::max(m, x) : std::min(m, x);
      }
      return m;
    }
    // Conditions are 0 or 1.
    case RefOp::Lt: return v[0] < v[1];
    case RefOp::Le: return v[0] <= v[1];
    case RefOp::Eq: return v[0] == v[1];
    case RefOp::Ne: return v[0] != v[1];
    case RefOp::Select: return v[0] != 0 ? v[1] : v[2];
    default: return NAN;
  }
}

}  // namespace

std::vector<std::vector<uint64_t>> evaluate_reference(const instance::Reference& ref,
                                                      const std::vector<exec::TensorSpec>& tensors,
                                                      const std::vector<size_t>& outputs) {
  std::vector<long double> val(ref.nodes.size());
  std::vector<long double> ops;
  for (size_t i = 0; i < ref.nodes.size(); ++i) {
    const instance::RefNode& n = ref.nodes[i];
    switch (n.op) {
      case RefOp::Input: val[i] = input_value(tensors[static_cast<size_t>(n.tensor)], n.cell); break;
      case RefOp::Const: val[i] = exact_value(n.value); break;
      case RefOp::PosInf: val[i] = INFINITY; break;
      case RefOp::NegInf: val[i] = -INFINITY; break;
      default:
        ops.clear();
        for (uint32_t a : n.args) ops.push_back(val[a]);
        val[i] = apply(n.op, ops, n);
    }
  }
  std::vector<std::vector<uint64_t>> out;
  for (size_t o = 0; o < outputs.size() && o < ref.outputs.size(); ++o) {
    ptx::Type t = tensors[outputs[o]].elem;
    out.emplace_back();
    for (uint32_t node : ref.outputs[o]) out.back().push_back(round_to(t, val[node]));
  }
  return out;
}

}  // namespace racer::check
