#pragma once
// The real functions compiled math routines implement, and fitting a routine's measured
// outputs to one of them: y = a * f(b * t) + d with small exact a, b, d.
#include <gmpxx.h>

#include <optional>
#include <string>
#include <vector>

#include "expr/store.hpp"

namespace racer::idiom {

enum class Fn : uint8_t { Exp, Exp2, Log, Log2, Log1p, Sqrt, Rsqrt, Tanh, Erf, Sigmoid, Sin, Cos, Pow };

struct Fit {
  Fn fn;
  mpq_class a, b, d;
  mpq_class e = 1;  // Pow: the constant exponent (an integer or half an odd integer)
  std::string describe() const;  // "1 + exp(-t)"
};

// A routine's output at one input. `nan` for a NaN result.
struct Sample {
  long double t;
  long double y;
  bool nan = false;
};

// How close a routine must come. Loose allows the absolute error of routines built on
// tanh.approx (2^-15); Strict holds every function but sin and cos to a few ulp relative,
// for recognitions nothing forces (a selection between exact forms, see RoutineRecognizer).
enum class Tolerance : uint8_t { Loose, Strict };

// The first member of the family that every sample agrees with (within the function's
// stated tolerance), or nullopt. `offsets`: constants the routine's last instruction adds (an
// fma's immediate addend, where the compiler fused the routine's final scaling with the
// `- 0.1f` after it), taken as d exactly where d is near one and no small rational.
std::optional<Fit> fit_routine(const std::vector<Sample>& samples, Tolerance tol = Tolerance::Loose,
                               const std::vector<mpq_class>& offsets = {});
// Whether a fit agrees with every sample.
bool agrees(const Fit& f, const std::vector<Sample>& samples, Tolerance tol = Tolerance::Loose);

// a * f(b * t) + d as an exact expression of t.
expr::ExprId build(expr::Store& st, const Fit& f, expr::ExprId t);

// The inputs a routine is probed at: ordinary values across its useful range, values near
// zero, the ends of its range reduction, and values where it must saturate.
const std::vector<long double>& probe_points();

}  // namespace racer::idiom
