#pragma once
// Evaluating quantities (`2 * log2(N) * u(FP32)`) and the format facts tolerances are derived
// from: each precision's unit roundoff.
#include <map>
#include <optional>
#include <string>

#include "contract/lang_ast.hpp"

namespace racer::contract {

// The unit roundoff of a precision as contracts name it: FP64 2^-53, FP32 2^-24, TF32 and FP16
// 2^-11, BF16 2^-8, FP8_E4M3 2^-4, FP8_E5M2 2^-3. nullopt for an unknown name.
std::optional<double> unit_roundoff(const std::string& precision);
// Rank for "is this precision higher": the unit roundoff's exponent, negated.
std::optional<int> precision_rank(const std::string& precision);
const std::vector<std::string>& precision_names();
// The precision of a tensor element type (f32 -> FP32), or "" when it is not a float.
std::string precision_of_dtype(const std::string& dtype);

using Env = std::map<std::string, double>;

struct EvalError {
  Span at;
  std::string message;
};

// The value, or the first problem (an unknown name, a bad call, division by zero, a result
// that is not finite).
struct EvalResult {
  double value = 0;
  std::optional<EvalError> error;
};
EvalResult evaluate(const Quantity& q, const Env& env);

}  // namespace racer::contract
