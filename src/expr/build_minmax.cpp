// min and max: n-ary, flattened, sorted, deduplicated, with all constant arguments folded
// into one; -inf is the identity of max and +inf absorbs it (and symmetrically for min).
#include <algorithm>
#include <array>
#include <optional>
#include <unordered_map>

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

// select(c, x, I) and select(!c, x, I) among max's (min's) arguments, I its identity -inf
// (+inf): together they are x (whichever of c, !c holds gives x, the other nothing). Guarded
// atomics make them (exec/atomics.cpp: x >= 0 for atom.max.s32, x < 0 for atom.min.u32).
// Complements are the comparisons a < b and b <= a.
bool join_complementary_selects(const Store& s, bool is_max, std::vector<ExprId>& args) {
  const ExprId identity = is_max ? s.neg_inf() : s.pos_inf();
  auto complementary = [&](ExprId c, ExprId d) {
    if (s.kind(c) != Kind::Cmp || s.kind(d) != Kind::Cmp) return false;
    return ((s.cmp_op(c) == CmpOp::Lt && s.cmp_op(d) == CmpOp::Le) || (s.cmp_op(c) == CmpOp::Le && s.cmp_op(d) == CmpOp::Lt)) &&
           s.operand(c, 0) == s.operand(d, 1) && s.operand(c, 1) == s.operand(d, 0);
  };
  std::unordered_map<uint32_t, size_t> waiting;  // a select's value -> where it stands in args
  std::vector<bool> gone(args.size(), false);
  for (size_t i = 0; i < args.size(); ++i) {
    const ExprId a = args[i];
    if (s.kind(a) != Kind::Select || s.operand(a, 2) != identity) continue;
    auto [it, fresh] = waiting.emplace(s.operand(a, 1).index, i);
    if (fresh) continue;
    if (!complementary(s.operand(args[it->second], 0), s.operand(a, 0))) continue;
    args[it->second] = s.operand(a, 1);
    gone[i] = true;
    waiting.erase(it);
  }
  size_t kept = 0;
  for (size_t i = 0; i < args.size(); ++i)
    if (!gone[i]) args[kept++] = args[i];
  const bool joined = kept < args.size();
  args.resize(kept);
  return joined;
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
  // (What a pair joins into is built again with the rest: it may itself be a max to flatten.)
  if (join_complementary_selects(*this, is_max, args)) {
    if (best) args.push_back(*best);
    return minmax(k, args);
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
