#include "check/float_model.hpp"

#include <cfloat>
#include <cmath>

namespace racer::check {
namespace {

// Significand bits, the hidden one included.
int precision(ieee::Format f) { return ieee::info(f).precision(); }

}  // namespace

std::optional<ieee::Format> float_format(ptx::Type t) {
  switch (t) {
    case ptx::Type::F16: case ptx::Type::F16x2: return ieee::Format::F16;
    case ptx::Type::BF16: case ptx::Type::BF16x2: return ieee::Format::BF16;
    case ptx::Type::TF32: return ieee::Format::TF32;
    case ptx::Type::F32: return ieee::Format::F32;
    case ptx::Type::F64: return ieee::Format::F64;
    case ptx::Type::E4M3: case ptx::Type::E4M3x2: return ieee::Format::E4M3;
    case ptx::Type::E5M2: case ptx::Type::E5M2x2: return ieee::Format::E5M2;
    default: return std::nullopt;
  }
}

long double unit_roundoff(ptx::Type t) {
  auto f = float_format(t);
  return f ? std::ldexp(1.0L, -precision(*f)) : 0.0L;
}

decide::FloatModel float_model(const Prepared& prep, char which) {
  int bits = 53;
  std::optional<ieee::Format> narrowest;
  auto consider = [&](ptx::Type t) {
    auto f = float_format(t);
    if (!f || precision(*f) >= bits) return;
    bits = precision(*f);
    narrowest = f;
  };
  bool coarse_approximation = false;
  for (const exec::TensorSpec& t : prep.tensors()) consider(t.elem);
  for (const exec::LaunchSpec& l : prep.program(which).launches) {
    const ptx::Function& fn = l.module->functions[l.function];
    for (const ptx::Instr& I : fn.instrs) {
      for (size_t k = 0; k < I.num_types; ++k) consider(I.types[k]);
      // tanh.approx.f32 is good to 2^-11 relative; every half-precision .approx to about that.
      bool approx = I.has(ptx::Mod::Rnd) && I.mod(ptx::Mod::Rnd) == ptx::rnd::APPROX;
      if (approx && (I.op == ptx::Op::Tanh || ptx::type_bits(I.type()) == 16)) coarse_approximation = true;
    }
  }
  if (!narrowest) narrowest = ieee::Format::F32;  // no float at all: integers are exact anyway
  decide::FloatModel m;
  m.unit_roundoff = std::ldexp(1.0L, -bits);
  m.function_error = std::max(16 * m.unit_roundoff, coarse_approximation ? 0x1p-10L : 0.0L);
  m.absolute_floor = ieee::to_double(*narrowest, ieee::min_normal(*narrowest, false));
  m.max_finite = ieee::to_double(*narrowest, ieee::max_finite(*narrowest, false));
  return m;
}

decide::RoundingBound exact_values(const expr::Store& st, const expr::Assignment& at) {
  decide::FloatModel none;
  none.unit_roundoff = none.function_error = none.absolute_floor = 0;
  none.max_finite = LDBL_MAX;
  return decide::RoundingBound(st, none, at);
}

decide::FloatModel coarser(const decide::FloatModel& a, const decide::FloatModel& b) {
  decide::FloatModel m;
  m.unit_roundoff = std::max(a.unit_roundoff, b.unit_roundoff);
  m.function_error = std::max(a.function_error, b.function_error);
  m.absolute_floor = std::max(a.absolute_floor, b.absolute_floor);
  m.max_finite = std::min(a.max_finite, b.max_finite);
  return m;
}

}  // namespace racer::check
