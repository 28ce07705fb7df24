#pragma once
// Judging one output cell against its reference under a tolerance. The residual is computed
// exactly (GMP rationals) from the cell's bits and the reference's exact value, and reported
// as a double.
#include <optional>
#include <string>

#include <gmpxx.h>

#include "contract/lang_ast.hpp"
#include "contract/lang_quantity.hpp"
#include "ptx/types.hpp"

namespace racer::contract {

// A reference value: an exact real, a special, or nothing known (the oracle could not give
// one: an irrational result, an input that was NaN/Inf).
struct RefValue {
  enum class Kind : uint8_t { Exact, NaN, PosInf, NegInf, Unknown } kind = Kind::Unknown;
  mpq_class value;
  static RefValue of_bits(ptx::Type t, uint64_t bits);
  static RefValue of_exact(const std::optional<mpq_class>& v);
};

struct CellJudgement {
  bool pass = true;
  bool judged = false;  // false: the reference was Unknown
  double residual = 0;  // |y - ref| (or ulps for ulp bounds); inf when one side is special
  double bound = 0;
  std::string detail;   // what was observed, for the violation signature
};

// `y_bits` is the cell of element type `t`; bounds are evaluated in `env`.
CellJudgement judge(const Tolerance& tol, ptx::Type t, uint64_t y_bits, const RefValue& ref, const Env& env);
// Bitwise equality of two cells (NaNs equal only bit for bit).
std::string show_cell(ptx::Type t, uint64_t bits);
std::string show_double(double v);

}  // namespace racer::contract
