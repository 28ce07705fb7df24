// min and max: n-ary, flattened, sorted, deduplicated, with all constant arguments folded
// into one; -inf is the identity of max and +inf absorbs it (and symmetrically for min).
#include <algorithm>
#include <array>
#include <optional>

#include "expr/store.hpp"
#include "support/error.hpp"

namespace racer::expr {

using detail::kFinite;

namespace {

// Extended-real order on constants: -inf < every rational < +inf.
int const_rank(const Store& s, ExprId x) {
  if (x == s.neg_inf()) return -1;
  if (x == s.pos_inf()) return 1;
  return 0;
}

bool const_less(const Store& s, ExprId a, ExprId b) {
  int ra = const_rank(s, a), rb = const_rank(s, b);
  if (ra != rb) return ra < rb;
  return ra == 0 && s.rational(a) < s.rational(b);
}

}  // namespace

ExprId Store::minmax(Kind k, std::span<const ExprId> xs) {
  bool is_max = k == Kind::Max;
  if (xs.empty()) throw Error(ExitCode::Internal, "expr: min/max of no arguments");
  std::vector<ExprId> args;
  std::optional<ExprId> best;  // the extreme constant argument
  auto take = [&](ExprId x) {
    if (kind(x) == Kind::Const) {
      bool better = !best || (is_max ? const_less(*this, *best, x) : const_less(*this, x, *best));
      if (better) best = x;
    } else {
      args.push_back(x);
    }
  };
  for (ExprId x : xs) {
    require_number(x);
    if (x == undefined_) return undefined_;
    if (kind(x) == k) {
      for (uint32_t i = 0; i < arity(x); ++i) take(operand(x, i));
    } else {
      take(x);
    }
  }
  if (best) {
    ExprId identity = is_max ? neg_inf_ : pos_inf_;
    ExprId absorbing = is_max ? pos_inf_ : neg_inf_;
    // max(x, +inf) = +inf needs x to be a number: a NaN argument keeps the node.
    if (*best == absorbing && finite_all(args)) return absorbing;
    if (*best != identity || args.empty()) args.push_back(*best);
  }
  std::sort(args.begin(), args.end());
  args.erase(std::unique(args.begin(), args.end()), args.end());
  if (args.size() == 1) return args[0];
  std::vector<uint32_t> ops(args.size());
  for (size_t i = 0; i < args.size(); ++i) ops[i] = args[i].index;
  return intern(k, 0, 0, ops, finite_all(args) ? kFinite : 0);
}

ExprId Store::min(ExprId a, ExprId b) { return minmax(Kind::Min, std::array<ExprId, 2>{a, b}); }
ExprId Store::min(std::span<const ExprId> xs) { return minmax(Kind::Min, xs); }
ExprId Store::max(ExprId a, ExprId b) { return minmax(Kind::Max, std::array<ExprId, 2>{a, b}); }
ExprId Store::max(std::span<const ExprId> xs) { return minmax(Kind::Max, xs); }

}  // namespace racer::expr
