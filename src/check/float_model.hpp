#pragma once
// The rounding one program of an instance can introduce: its narrowest float format (in its
// instructions and in the tensors it reads and writes), and whether it uses low-precision
// approximations (tanh.approx, half-precision .approx) whose error is far above that format's.
#include "check/prepare.hpp"
#include "decide/rounding_bound.hpp"
#include "exec/ieee.hpp"

namespace racer::check {

decide::FloatModel float_model(const Prepared& prep, char which);
// The model allowing the most rounding of the two, field by field.
decide::FloatModel coarser(const decide::FloatModel& a, const decide::FloatModel& b);

// The exact values of expressions at a point (to long double precision): a rounding bound
// with no rounding. `at` must outlive it.
decide::RoundingBound exact_values(const expr::Store& st, const expr::Assignment& at);

// The IEEE format of a float type; nullopt for integers and untyped bits.
std::optional<ieee::Format> float_format(ptx::Type t);
// Half an ulp of 1 in a float type's format (2^-24 for f32); 0 for integers.
long double unit_roundoff(ptx::Type t);

}  // namespace racer::check
