#include "contract/compare.hpp"

#include <cmath>
#include <cstdio>

#include "contract/run_impl.hpp"
#include "exec/exact_float.hpp"
#include "support/error.hpp"

namespace racer::contract {
namespace {

double bound_of(const Quantity& q, const Env& env) {
  EvalResult r = evaluate(q, env);
  if (r.error) throw Error(ExitCode::BadInput, "tolerance: " + r.error->message);
  return r.value;
}

// Ordered integer of a float's bits, so adjacent floats differ by one (sign-magnitude to
// two's complement; -0 and +0 both map to 0).
int64_t ordered(ptx::Type t, uint64_t bits) {
  unsigned w = ptx::type_bits(t);
  uint64_t sign = uint64_t{1} << (w - 1);
  int64_t mag = static_cast<int64_t>(bits & (sign - 1));
  return bits & sign ? -mag : mag;
}

std::string precision_name(ptx::Type t) {
  switch (t) {
    case ptx::Type::F64: return "FP64";
    case ptx::Type::F32: return "FP32";
    case ptx::Type::F16: return "FP16";
    case ptx::Type::BF16: return "BF16";
    case ptx::Type::E4M3: return "FP8_E4M3";
    case ptx::Type::E5M2: return "FP8_E5M2";
    default: return "";
  }
}

}  // namespace

RefValue RefValue::of_bits(ptx::Type t, uint64_t bits) {
  RefValue r;
  if (!ptx::is_float(t)) {
    r.kind = Kind::Exact;
    r.value = mpq_class(exec::exact_integer(bits, ptx::type_bits(t), ptx::type_class(t) == ptx::TypeClass::Signed));
    return r;
  }
  exec::ExactFloat f = exec::decode_float(t, bits);
  switch (f.kind) {
    case exec::ExactFloat::Kind::Finite: r.kind = Kind::Exact, r.value = f.value; break;
    case exec::ExactFloat::Kind::NaN: r.kind = Kind::NaN; break;
    case exec::ExactFloat::Kind::PosInf: r.kind = Kind::PosInf; break;
    case exec::ExactFloat::Kind::NegInf: r.kind = Kind::NegInf; break;
  }
  return r;
}

RefValue RefValue::of_exact(const std::optional<mpq_class>& v) {
  RefValue r;
  if (v) r.kind = Kind::Exact, r.value = *v;
  return r;
}

std::string show_double(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string show_cell(ptx::Type t, uint64_t bits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g (0x%llx)", bits_to_double(t, bits), static_cast<unsigned long long>(bits));
  return buf;
}

CellJudgement judge(const Tolerance& tol, ptx::Type t, uint64_t y_bits, const RefValue& ref, const Env& env) {
  CellJudgement j;
  if (ref.kind == RefValue::Kind::Unknown) return j;
  j.judged = true;
  if (tol.kind == Tolerance::Kind::PerPrecision) {
    std::string p = precision_name(t);
    for (size_t i = 0; i < tol.parts.size(); ++i)
      if (tol.precisions[i].text == p) return judge(tol.parts[i], t, y_bits, ref, env);
    j.pass = false;
    j.detail = "the tolerance names no bound for " + (p.empty() ? std::string("this element type") : p);
    return j;
  }
  RefValue y = RefValue::of_bits(t, y_bits);
  std::string yshow = show_cell(t, y_bits);
  auto ref_show = [&] {
    switch (ref.kind) {
      case RefValue::Kind::NaN: return std::string("NaN");
      case RefValue::Kind::PosInf: return std::string("+inf");
      case RefValue::Kind::NegInf: return std::string("-inf");
      default: return show_double(ref.value.get_d());
    }
  };
  if (y.kind != RefValue::Kind::Exact || ref.kind != RefValue::Kind::Exact) {
    j.pass = y.kind == ref.kind;
    j.residual = j.pass ? 0 : INFINITY;
    if (!j.pass) j.detail = "got " + yshow + ", reference " + ref_show();
    return j;
  }
  mpq_class diff = abs(y.value - ref.value);
  j.residual = diff.get_d();
  // absolute A and relative R combine as |y - r| <= A + R |r|; ulp and exact are separate tests.
  std::optional<double> abs_b, rel_b, ulp_b;
  bool exact = false;
  std::vector<const Tolerance*> parts;
  if (tol.kind == Tolerance::Kind::Elementwise) for (const Tolerance& p : tol.parts) parts.push_back(&p);
  else parts.push_back(&tol);
  for (const Tolerance* p : parts) {
    switch (p->kind) {
      case Tolerance::Kind::Absolute: abs_b = bound_of(p->bound, env); break;
      case Tolerance::Kind::Relative: rel_b = bound_of(p->bound, env); break;
      case Tolerance::Kind::Ulp: ulp_b = bound_of(p->bound, env); break;
      case Tolerance::Kind::Exact: exact = true; break;
      default: break;
    }
  }
  std::string why;
  if (abs_b || rel_b) {
    mpq_class bound = mpq_class(abs_b.value_or(0)) + mpq_class(rel_b.value_or(0)) * abs(ref.value);
    j.bound = bound.get_d();
    if (diff > bound) j.pass = false, why = "|error| " + show_double(j.residual) + " > bound " + show_double(j.bound);
  }
  if (ulp_b || exact) {
    // Against the reference rounded once to the output's format.
    auto r = ptx::is_float(t) ? exec::encode_rounded(t, ref.value) : std::nullopt;
    double ulps = r ? std::fabs(static_cast<double>(ordered(t, y_bits) - ordered(t, *r))) : (diff == 0 ? 0 : INFINITY);
    double limit = exact ? 0 : *ulp_b;
    if (!abs_b && !rel_b) j.residual = ulps, j.bound = limit;
    if (ulps > limit) j.pass = false, why += (why.empty() ? "" : "; ") + show_double(ulps) + " ulp from the correctly rounded reference (allowed " + show_double(limit) + ")";
  }
  if (!j.pass) j.detail = "got " + yshow + ", reference " + ref_show() + ": " + why;
  return j;
}

}  // namespace racer::contract
