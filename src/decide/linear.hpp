#pragma once
// Exact linear arithmetic over Q for the case split (case_split.hpp): affine forms over
// symbols, constraints e > 0, e >= 0 and e = 0, and Fourier-Motzkin elimination. The
// elimination decides feasibility over the reals exactly (no floating point anywhere), and
// its recorded stages give back points of a feasible system, one variable at a time, so a
// caller can pick each value on its symbol's grid.
//
// Disequalities e != 0 are decided exactly too: a convex polyhedron minus finitely many
// hyperplanes is empty only if one hyperplane contains it, i.e. only if the rows with e > 0
// and the rows with e < 0 are both infeasible; find_point does not avoid them (a caller
// re-checks the points it builds).
//
// Limits: rows (constraints) are capped; past the cap the answer is Unknown, never a guess.
#include <gmpxx.h>

#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "expr/store.hpp"

namespace racer::decide {

// sum(coef[v] * v) + c over symbols v (ExprId indices); no zero coefficients are stored.
struct LinForm {
  std::map<uint32_t, mpq_class> coef;
  mpq_class c;
};

enum class Rel : uint8_t { Gt, Ge, Eq, Ne };  // e > 0, e >= 0, e = 0, e != 0

struct LinConstraint {
  LinForm e;
  Rel rel = Rel::Ge;
};

// The affine form of x when it is a rational constant, a symbol, or a sum of rational
// multiples of symbols; nullopt for anything else (products of symbols, atoms, infinities).
// With `atoms`, any other finite number (log(s), x * y) is a variable of its own, keyed by
// its node, c * v by v: a system over such variables is infeasible only if it is with the
// atoms' values tied to the symbols, but its points are not points of the symbols.
std::optional<LinForm> linearize(const expr::Store& s, expr::ExprId x, bool atoms = false);

enum class Feasibility { Infeasible, Feasible, Unknown };

Feasibility check_feasible(const std::vector<LinConstraint>& cs, size_t max_rows);

// The equalities the system implies: every e >= 0 whose strict form e > 0 is infeasible
// with the rest, and every e = 0 it states. Empty when the system is infeasible or too large.
std::vector<LinForm> implied_equalities(const std::vector<LinConstraint>& cs, size_t max_rows);

// Solves equalities for some of their variables by exact Gaussian elimination: each entry
// (v, f) says v = f, where no f mentions a solved variable. Inconsistent or redundant
// equalities are skipped (the caller only substitutes, so nothing false can follow).
std::vector<std::pair<uint32_t, LinForm>> solve_equalities(const std::vector<LinForm>& eqs);

// A bound on one variable given the values chosen so far; absent v means unbounded.
struct Bound {
  std::optional<mpq_class> v;
  bool strict = false;
};

// Picks a value for variable `var` strictly/non-strictly inside (lo, hi), or nullopt.
using ValueChooser = std::function<std::optional<mpq_class>(uint32_t var, const Bound& lo, const Bound& hi)>;

// A point satisfying every constraint: variables are fixed in the reverse of their
// elimination order, each by `choose` inside the bounds the earlier choices leave (never
// empty when the system is feasible over the reals, since elimination is exact). nullopt
// when the system is infeasible or too large, or a choice failed. Every variable that
// occurs in `cs` gets a value.
std::optional<std::map<uint32_t, mpq_class>> find_point(const std::vector<LinConstraint>& cs,
                                                       const ValueChooser& choose, size_t max_rows);

// The value of f at a point (every variable of f must be assigned).
mpq_class evaluate(const LinForm& f, const std::map<uint32_t, mpq_class>& at);

}  // namespace racer::decide
