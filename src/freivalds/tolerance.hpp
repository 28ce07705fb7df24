#pragma once
// Where a Freivalds check's tolerance comes from (the derivation is in tolerance.cpp).
#include <cstdint>
#include <string>

#include "freivalds/format.hpp"
#include "freivalds/row_tolerance.hpp"

namespace racer::freivalds {

// How the checked product's own rounding error is bounded.
//  WorstCase: the deterministic bound gamma_n = n u / (1 - n u) (holds for every summation order).
//  Probabilistic: Higham and Mary's bound exp(lambda sqrt(n) u + n u^2/(1-u)) - 1, valid when
//  rounding errors behave as independent mean-zero variables (an assumption about the
//  hardware's rounding, not a theorem); far tighter, hence a lower detection floor.
enum class ErrorModel { WorstCase, Probabilistic };
ErrorModel parse_error_model(const std::string& name);
const char* error_model_name(ErrorModel m);

// The arithmetic of the check itself (not of the product it checks).
struct CheckArithmetic {
  double u_inner;    // unit roundoff of the inner runs of each dot product
  int inner_len;     // most roundings of a term in an inner run (chain length + tree depth), then the outer accumulator
  double u_outer;    // unit roundoff of the outer accumulator
  double u_x_store;  // rounding of the stored skinny product X = B R (0 if kept exactly)
  const char* description;
};
CheckArithmetic cpu_check_arithmetic();  // f64 throughout (BLAS dgemm)
CheckArithmetic gpu_check_arithmetic(Format f);  // the CUDA kernels': f32 chains and a tree into f64, X in f32

struct ToleranceInputs {
  Format format;
  int64_t m, n, p;  // A is m x n, B is n x p, C is m x p
  int k;            // random vectors
  ErrorModel model = ErrorModel::WorstCase;
  double false_alarm = 0x1p-40;  // bound on P(a correct product fails), over the random vectors
  CheckArithmetic arithmetic;
};

struct Tolerance {
  ToleranceCoefficients coef;
  double lambda_p = 0;     // Higham-Mary multiplier (Probabilistic model), else 0
  std::string derivation;  // the formula with these numbers, for the user
};

// racer::Error (BadInput) when n u >= 1 (no bound exists) or an argument is out of range.
Tolerance derive_tolerance(const ToleranceInputs& in);

// gamma_n(u) = n u / (1 - n u), the classic bound on the relative error of an n-term sum.
double gamma_n(double n, double u);

}  // namespace racer::freivalds
