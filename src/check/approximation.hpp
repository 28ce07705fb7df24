#pragma once
// Approximations with no bit-level step: a compiled routine built only from arithmetic,
// selects and .approx instructions (nvcc's tanhf, expm1f's small-|x| polynomial) never
// trips the instruction-level recognizer, so a cell holds the routine's exact real function
// instead of the function it approximates. Such a cell side, if it is piecewise in one input
// and agrees with a family function at every probe point (the same points and the same
// error bounds as routine recognition), is read as that function.
#include <optional>
#include <string>

#include "expr/store.hpp"

namespace racer::check {

struct RecognizedApproximation {
  expr::ExprId function;    // a * f(b * t) + d over the side's one input
  std::string description;  // "tanh(t)"
};

std::optional<RecognizedApproximation> recognize_approximation(expr::Store& st, expr::ExprId side);

}  // namespace racer::check
