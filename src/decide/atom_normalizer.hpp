#pragma once
// Rewrites an expression so that atoms whose arguments are equal rational functions become
// the same node: exp((x+1)*(x+1)) and exp(x*x + 2*x + 1) both become exp(x^2 + 2x + 1).
// Bottom-up over the whole DAG (not one level only): every numeric argument of a function,
// min/max, comparison or select branch is replaced by its expanded normal form (see
// normal_form.hpp), after its own atoms were normalized the same way; sums and products are
// rebuilt over their normalized operands. An argument whose normal form is too large is
// kept as it is, so the rewrite never fails, it only does less. tanh is rewritten in terms
// of exp, so that logistic and hyperbolic forms of one function meet. A monomial times one
// sum is distributed, so that a running sum rescaled by a factor meets the same terms summed
// directly (online softmax).
//
// A select's comparison takes one orientation (x <= 0 becomes 0 < x, branches swapped) and the
// terms both branches share leave it: select(c, s + g, s) = s + select(c, g, 0), so that a sum
// accumulated under a branch meets the same sum of selects; select(p < q, q, p) is max(p, q) and
// select(p < q, p, q) min(p, q). A minimum becomes the negated maximum of the negated operands. u^m sqrt(u)^k in a product becomes u^(e div 2) sqrt(u)^(e mod
// 2) (e = 2m + k); erf and sin take their argument's sign out, cos and abs drop it; log of a
// max or min of positive values is the max or min of their logs, log of a product the sum of
// its positive factors' logs (positive: exps, square roots, and what the symbols' ranges keep
// above 0, expr/sign_bounds.hpp); exp(q log(u)) is u^q for q a multiple of 1/2 (negative
// only where u > 0), also as a product's factor exp(q log(u))^k;
// max(u, -u) and select(0 < u, u, -u) are |u|, |u| is u where the ranges keep u >= 0, and a
// max drops an operand the ranges keep below another, and a max or min of exps, erfs or square
// roots is the function of the max or min of their arguments (atom_symmetries.cpp). tanh goes
// into a max, a min or a select, a sum's selects on one condition are one select, |select(c, t,
// e)| is select(c, |t|, |e|), sqrt(c u^(2k)) is sqrt(c) |u|^k and exp(s/k)^k of a sum s of
// integer weights is exp(s).
//
// The rewrite preserves the value wherever the original is defined; it may define more
// (an argument (x^2-1)/(x-1) becomes x+1), which is the cancellation convention of the
// normal form itself.
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "decide/normal_form.hpp"
#include "expr/sign_bounds.hpp"
#include "expr/store.hpp"

namespace racer::decide {

using expr::Bounds;
using expr::SignBounds;

// x as c * y for a product of one factor y (weight 1): (c, y); anything else is (1, x).
std::pair<mpq_class, expr::ExprId> scaled_factor(const expr::Store& s, expr::ExprId x);

class AtomNormalizer {
 public:
  AtomNormalizer(expr::Store& s, PolyLimits limits) : s_(s), limits_(limits) {}

  expr::ExprId normalize(expr::ExprId x);

 private:
  expr::ExprId rewrite(expr::ExprId x, std::vector<expr::ExprId>& ops);
  expr::ExprId expand(expr::ExprId x);
  expr::ExprId tanh_as_exp(expr::ExprId u);
  expr::ExprId selects_merged(expr::ExprId sum);
  expr::ExprId tanh_in_form(expr::ExprId u);
  std::optional<expr::ExprId> tanh_written_out(expr::ExprId product);
  expr::ExprId cos_squares_as_sin(expr::ExprId product);
  expr::ExprId distribute_monomial(expr::ExprId product);
  expr::ExprId product_forms(expr::ExprId product);  // what rewrite makes of a product
  std::optional<expr::ExprId> halved(expr::ExprId x);
  void dominated_out(std::vector<expr::ExprId>& ops);
  std::optional<bool> sign_decided(expr::CmpOp op, expr::ExprId a, expr::ExprId b);
  expr::ExprId select_terms_out(expr::ExprId cond, expr::ExprId t, expr::ExprId e);
  // atom_symmetries.cpp
  expr::ExprId sqrt_powers(expr::ExprId product);
  std::optional<expr::ExprId> sqrt_of_even_powers(expr::ExprId arg);
  bool sign_taken_out(expr::FuncKind f, expr::ExprId& arg);
  std::optional<expr::ExprId> log_of_extremum(expr::ExprId arg);
  std::optional<expr::ExprId> log_of_product(expr::ExprId arg);
  std::optional<expr::ExprId> log_of_fractions(expr::ExprId sum);
  expr::ExprId log_of(expr::ExprId v);
  std::optional<expr::ExprId> exp_of_log(expr::ExprId arg);
  expr::ExprId exp_log_powers(expr::ExprId product);
  // A product with each factor in its normal form, not multiplied out.
  expr::ExprId factorwise(expr::ExprId product);
  expr::ExprId abs_of(expr::ExprId u);
  // `unexpanded`: the operands before their normal forms (for bounds), in the same order.
  // nullopt where nothing applies (the max stays as it was built).
  std::optional<expr::ExprId> max_of(std::vector<expr::ExprId> ops, const std::vector<expr::ExprId>& unexpanded);
  expr::ExprId max_in_form(const std::vector<expr::ExprId>& ops);
  expr::ExprId min_in_form(const std::vector<expr::ExprId>& ops);
  std::optional<expr::ExprId> increasing_out(const std::vector<expr::ExprId>& ops, bool min);

  expr::Store& s_;
  PolyLimits limits_;
  SignBounds bounds_{s_};
  // Kept across calls: one Decider normalizes many cells of one Store, which share atoms.
  std::unordered_map<uint32_t, expr::ExprId> memo_;
  std::unordered_map<uint32_t, expr::ExprId> expanded_;
};

}  // namespace racer::decide
