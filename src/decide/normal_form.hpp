#pragma once
// The polynomial/rational normal form of an expression: a reduced fraction p/q of
// multivariate polynomials over Q (FLINT fmpq_mpoly) whose variables are the expression's
// atoms, i.e. every node that is not a sum, a product or a rational constant (symbols,
// functions, min/max, select). Sums and products with integer exponents map exactly;
// gcd(p, q) = 1 and q is monic, so two expressions have the same form exactly when they
// are the same rational function of the same atoms.
//
// What a zero form proves: wherever every atom is finite and the expression is defined,
// its value is 0, since p/q = 0 in Q(atoms) makes p the zero polynomial. Two conventions
// follow the Store's and are not new: cancellation (x/x contributes 1 where x != 0) and
// dropping the Store's NaN guards (a zero-weighted term 0*s or a product 0*s^k, which are
// 0 wherever they are defined).
#include <optional>
#include <string>
#include <vector>

#include "expr/store.hpp"

namespace racer::decide {

struct PolyLimits {
  size_t max_terms = 5000;
  long max_degree = 256;
  size_t max_vars = 1024;
  uint64_t max_work = 50000000;
};

enum class FormStatus {
  Zero,         // the zero rational function
  NonZero,      // a nonzero rational function of its atoms
  TooLarge,     // a limit was hit; nothing is known
  NotRational,  // an infinite or undefined constant, or a division by the zero function
};

struct FormResult {
  FormStatus status = FormStatus::TooLarge;
  std::string why;              // TooLarge / NotRational: which limit or which node
  bool symbols_only = false;    // NonZero: every atom is a symbol (a plain rational function)
  // NonZero: the atoms the reduced numerator reads (an atom that cancelled, such as softmax's
  // exp(max) in both sums of a ratio, is not among them).
  std::vector<expr::ExprId> numerator_atoms;
};

FormResult normal_form(const expr::Store& s, expr::ExprId x, const PolyLimits& limits);

// x rebuilt in the Store from its normal form: the expanded numerator over the expanded
// denominator (just the numerator when that is 1). Equal normal forms give the same id,
// which is what makes atoms with equal-but-differently-written arguments meet. nullopt
// when the form is TooLarge or NotRational.
std::optional<expr::ExprId> expanded_form(expr::Store& s, expr::ExprId x, const PolyLimits& limits);

}  // namespace racer::decide
