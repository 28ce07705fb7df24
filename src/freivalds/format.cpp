#include "freivalds/format.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "support/error.hpp"

namespace racer::freivalds {
namespace {

// Round to `bits` fraction bits with exponent range [emin, emax] (subnormals below emin).
float round_to_precision(float x, int bits, int emin, int emax) {
  if (!std::isfinite(x) || x == 0) return x;
  int e;
  std::frexp(x, &e);  // x = m * 2^e, 0.5 <= |m| < 1: the leading bit has exponent e-1
  int lead = std::max(e - 1, emin);
  double quantum = std::ldexp(1.0, lead - bits);
  double r = std::nearbyint(static_cast<double>(x) / quantum) * quantum;  // ties to even (default mode)
  double largest = std::ldexp(2.0 - std::ldexp(1.0, -bits), emax);
  if (std::fabs(r) > largest) return std::copysign(INFINITY, x);
  return static_cast<float>(r);
}

}  // namespace

Format parse_format(const std::string& name) {
  if (name == "f32") return Format::F32;
  if (name == "tf32") return Format::TF32;
  if (name == "f16") return Format::F16;
  if (name == "bf16") return Format::BF16;
  throw Error(ExitCode::BadInput, "unknown format '" + name + "' (expected f32, tf32, f16 or bf16)");
}

const char* format_name(Format f) {
  switch (f) {
    case Format::F32: return "f32";
    case Format::TF32: return "tf32";
    case Format::F16: return "f16";
    case Format::BF16: return "bf16";
  }
  return "?";
}

double output_unit_roundoff(Format f) {
  switch (f) {
    case Format::F16: return std::ldexp(1.0, -11);
    case Format::BF16: return std::ldexp(1.0, -8);
    default: return std::ldexp(1.0, -24);
  }
}

double input_unit_roundoff(Format f) { return f == Format::TF32 ? std::ldexp(1.0, -11) : 0.0; }

double accumulation_unit_roundoff(Format f) { return f == Format::F32 ? std::ldexp(1.0, -24) : std::ldexp(1.0, -23); }

float round_to_format(Format f, float x) {
  switch (f) {
    case Format::F16: return round_to_precision(x, 10, -14, 15);
    case Format::BF16: return round_to_precision(x, 7, -126, 127);
    default: return x;  // tf32 data is stored as f32; the multiply rounds it
  }
}

float multiply_input(Format f, float x) {
  if (f != Format::TF32 || !std::isfinite(x) || x == 0) return x;
  int e;
  float m = std::frexp(x, &e);  // 0.5 <= |m| < 1: 11 significant bits = 1 + 10 fraction bits
  return std::ldexp(std::nearbyint(std::ldexp(m, 11)) / 2048.0f, e);
}

}  // namespace racer::freivalds
