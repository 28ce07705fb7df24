// The tolerance of a Freivalds check of C = A B (A m x n, B n x p), with k random vectors
// R (p x k, entries independent and uniform in [-1, 1]) and residual Y = A (B R) - C R.
//
// 1. The product's own error. Let E = C - A B (exact reals of the stored operands). A dot
//    product of n terms accumulated with unit roundoff u_acc, after rounding the inputs with
//    u_in (tf32 only), then stored with unit roundoff u_out, obeys
//        |E_ij| <= eps_acc (|A||B|)_ij + u_out/(1-u_out) |C_ij|,
//    eps_acc = gamma_n(u_acc) + 2 u_in + u_in^2   (WorstCase), or Higham-Mary's
//    exp(lambda_p sqrt(n) u_acc + n u_acc^2/(1-u_acc)) - 1 + 2 u_in + u_in^2 (Probabilistic).
//    Summing squares over the row and using (|A||B|)_ij <= ||A_i|| ||B_:j|| (Cauchy-Schwarz):
//        ||E_i|| <= eps_acc ||A_i|| ||B||_F + u_out/(1-u_out) ||C_i||.
// 2. The random vectors. For a correct product Y_iv = sum_j E_ij R_jv exactly, and E does not
//    depend on R, so Hoeffding's inequality gives P(|Y_iv| >= lambda_r ||E_i||) <=
//    2 exp(-lambda_r^2 / 2). A union bound over m k entries: lambda_r = sqrt(2 ln(2 m k / alpha))
//    makes a false alarm less likely than alpha. (Freivalds' 2^-k is for exact arithmetic
//    over a field: with a tolerance it does not hold; a corruption of size c times the
//    tolerance in one element is missed by one vector with probability about 1/c, none
//    below c = 1: the detection floor.)
// 3. The check's own rounding. Dot products are accumulated as runs in which a term is
//    rounded at most L times with u_inner (a chain of FMAs, or chains then a tree of additions:
//    L = chain length + tree depth), added into an accumulator with u_outer: relative error
//    gamma_c = gamma_{L+1}(u_inner) +
//    gamma_{n+p}(u_outer)(1 + gamma_{L+1}(u_inner)) of the sum of |terms|. X = fl(B R) (stored
//    with u_x) is off by at most gamma_x (|B| 1) with gamma_x = gamma_c + u_x (1 + gamma_c),
//    since |R| <= 1; then Y = A X - C R (n + p terms) is off by at most
//        gamma_x (|A||B|1)_i + gamma_c ((1 + gamma_x)(|A||B|1)_i + (|C|1)_i).
// 4. The magnitudes ||A_i||^2, ||B||_F^2, ||C_i||^2, |A||B|1, |C|1 are themselves computed
//    in the check's arithmetic (relative error at most gamma_c each, plus u_outer per square
//    root and product): the whole tolerance is multiplied by slack = 1 + 8 gamma_c.
#include "freivalds/tolerance.hpp"

#include <cmath>
#include <cstdio>

#include "freivalds/gpu_arithmetic.hpp"
#include "support/error.hpp"

namespace racer::freivalds {

ErrorModel parse_error_model(const std::string& name) {
  if (name == "worst-case") return ErrorModel::WorstCase;
  if (name == "probabilistic") return ErrorModel::Probabilistic;
  throw Error(ExitCode::BadInput, "unknown error model '" + name + "' (expected worst-case or probabilistic)");
}

const char* error_model_name(ErrorModel m) { return m == ErrorModel::WorstCase ? "worst-case" : "probabilistic"; }

CheckArithmetic cpu_check_arithmetic() {
  return {0x1p-53, 1, 0x1p-53, 0.0, "f64 throughout (BLAS dgemm/dgemv)"};
}

// The tiled CUDA kernels (src/freivalds/cuda/tiled_kernels.cuh, structure in
// gpu_arithmetic.hpp): a lane chains 16 terms in f32 FMAs (the A and C terms of two items'
// 16-byte pieces for 4-byte elements, 4 + 4 each, or one item's 8 + 8 for 2-byte), then 8 lanes' chains are added by a
// 3-level tree, also in f32, before the f64 accumulator: a term is rounded at most L + 3 times
// in f32 (the +1 of gamma_c covers rounding xm to f32).
// The same model for every format (the chain length is in terms, not loads).
CheckArithmetic gpu_check_arithmetic(Format) {
  return {0x1p-24, kGpuF32Roundings, 0x1p-53, 0x1p-24,
          "f32 FMA chains of 16 terms (8 of A X, 8 of C R) per lane, added over 8 lanes by a 3-level f32 tree, into f64; X = B R stored in f32"};
}

double gamma_n(double n, double u) {
  double nu = n * u;
  if (!(nu < 1)) throw Error(ExitCode::BadInput, "no rounding error bound: n u = " + std::to_string(nu) + " >= 1");
  return nu / (1 - nu);
}

Tolerance derive_tolerance(const ToleranceInputs& in) {
  if (in.m < 1 || in.n < 1 || in.p < 1) throw Error(ExitCode::BadInput, "matrix dimensions must be positive");
  if (in.k < 1) throw Error(ExitCode::BadInput, "k (random vectors) must be at least 1");
  if (!(in.false_alarm > 0 && in.false_alarm < 1)) throw Error(ExitCode::BadInput, "the false-alarm bound must be in (0, 1)");
  const double n = static_cast<double>(in.n);
  const double u_acc = accumulation_unit_roundoff(in.format), u_in = input_unit_roundoff(in.format);
  const double u_out = output_unit_roundoff(in.format);
  Tolerance t;
  double input_rounding = 2 * u_in + u_in * u_in;
  if (in.model == ErrorModel::WorstCase) {
    t.coef.eps_acc = gamma_n(n, u_acc) + input_rounding;
  } else {
    // Higham-Mary: each of the m p dot products exceeds the bound with probability at most
    // 2 n exp(-lambda^2 (1-u)^2 / 2); a union bound over them spends alpha/2 of the budget.
    double elements = static_cast<double>(in.m) * static_cast<double>(in.p);
    t.lambda_p = std::sqrt(2 * std::log(2 * n * elements / (in.false_alarm / 2))) / (1 - u_acc);
    t.coef.eps_acc = std::expm1(t.lambda_p * std::sqrt(n) * u_acc + n * u_acc * u_acc / (1 - u_acc)) + input_rounding;
  }
  t.coef.u_out_rel = u_out / (1 - u_out);
  double alpha_r = in.model == ErrorModel::WorstCase ? in.false_alarm : in.false_alarm / 2;
  t.coef.lambda_r = std::sqrt(2 * std::log(2 * static_cast<double>(in.m) * in.k / alpha_r));
  const CheckArithmetic& a = in.arithmetic;
  double gamma_c = gamma_n(a.inner_len + 1, a.u_inner) + gamma_n(n + static_cast<double>(in.p), a.u_outer) * (1 + gamma_n(a.inner_len + 1, a.u_inner));
  double gamma_x = gamma_c + a.u_x_store * (1 + gamma_c);
  t.coef.d_am = gamma_x + gamma_c * (1 + gamma_x);
  t.coef.d_cm = gamma_c;
  t.coef.slack = 1 + 8 * gamma_c;
  char buf[1600];
  std::snprintf(buf, sizeof buf,
                "tol_i = slack * (lambda_r * (eps_acc * ||A_i|| * ||B||_F + u_out/(1-u_out) * ||C_i||)"
                " + d_am * (|A||B|1)_i + d_cm * (|C|1)_i)\n"
                "  format %s: u_acc = 2^%d, u_in = %s, u_out = 2^%d; n = %lld, m = %lld, k = %d\n"
                "  eps_acc = %.3e (%s%s), lambda_r = %.2f (Hoeffding over the random vectors, false alarm < %.1e)\n"
                "  check arithmetic: %s: d_am = %.3e, d_cm = %.3e, slack = 1 + %.1e\n"
                "  guarantee: not Freivalds' 2^-k (that needs exact arithmetic); one element off by c * tol_i\n"
                "  escapes one vector with probability about 1/c (c > 1) and every vector below c = 1",
                format_name(in.format), static_cast<int>(std::lround(std::log2(u_acc))),
                u_in ? "2^-11 (tf32 inputs)" : "0", static_cast<int>(std::lround(std::log2(u_out))),
                static_cast<long long>(in.n), static_cast<long long>(in.m), in.k, t.coef.eps_acc,
                in.model == ErrorModel::WorstCase ? "gamma_n(u_acc), worst case" : "Higham-Mary, lambda_p = ",
                in.model == ErrorModel::WorstCase ? "" : std::to_string(t.lambda_p).substr(0, 5).c_str(),
                t.coef.lambda_r, in.false_alarm, a.description, t.coef.d_am, t.coef.d_cm, t.coef.slack - 1);
  t.derivation = buf;
  return t;
}

}  // namespace racer::freivalds
