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

// A clamp has one form, min(H, max(L, z)): max(L, min(H, z)) is the same function for L <= H
// (below L both give L, above H both H, between them z), and written the other way a clamp
// taken twice (tl.clamp, then cvt's .satfinite) would not fold into one. `args` are max's.
std::optional<ExprId> as_clamp(Store& s, std::span<const ExprId> args) {
  if (args.size() != 2) return std::nullopt;
  const bool lo_first = s.kind(args[0]) == Kind::Const;
  const ExprId lo = args[lo_first ? 0 : 1], inner = args[lo_first ? 1 : 0];
  if (s.kind(lo) != Kind::Const || s.kind(inner) != Kind::Min) return std::nullopt;
  std::vector<ExprId> rest;
  std::optional<ExprId> hi;
  for (uint32_t i = 0; i < s.arity(inner); ++i) {
    if (s.kind(s.operand(inner, i)) == Kind::Const) hi = s.operand(inner, i);
    else rest.push_back(s.operand(inner, i));
  }
  if (!hi || const_less(s, *hi, lo)) return std::nullopt;
  return s.min(*hi, s.max(lo, s.min(rest)));
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
  if (is_max)
    if (auto c = as_clamp(*this, args)) return *c;
  std::vector<uint32_t> ops(args.size());
  for (size_t i = 0; i < args.size(); ++i) ops[i] = args[i].index;
  return intern(k, 0, 0, ops, finite_all(args) ? kFinite : 0);
}

ExprId Store::min(ExprId a, ExprId b) { return minmax(Kind::Min, std::array<ExprId, 2>{a, b}); }
ExprId Store::min(std::span<const ExprId> xs) { return minmax(Kind::Min, xs); }
ExprId Store::max(ExprId a, ExprId b) { return minmax(Kind::Max, std::array<ExprId, 2>{a, b}); }
ExprId Store::max(std::span<const ExprId> xs) { return minmax(Kind::Max, xs); }

}  // namespace racer::expr
