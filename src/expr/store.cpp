#include "expr/store.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "expr/hash.hpp"
#include "expr/rational_ops.hpp"
#include "support/error.hpp"

namespace racer::expr {

using detail::kFinite;
using detail::Node;
using detail::RationalTable;

Store::Store() : table_(1024, 0) {
  zero_ = intern(Kind::Const, uint8_t(ConstKind::Rational), RationalTable::kZero, {}, kFinite);
  one_ = intern(Kind::Const, uint8_t(ConstKind::Rational), RationalTable::kOne, {}, kFinite);
  pos_inf_ = intern(Kind::Const, uint8_t(ConstKind::PosInf), 0, {}, 0);
  neg_inf_ = intern(Kind::Const, uint8_t(ConstKind::NegInf), 0, {}, 0);
  undefined_ = intern(Kind::Const, uint8_t(ConstKind::Undefined), 0, {}, 0);
  true_ = intern(Kind::Bool, 1, 0, {}, kFinite | detail::kBoolean);
  false_ = intern(Kind::Bool, 0, 0, {}, kFinite | detail::kBoolean);
}

std::span<const uint32_t> Store::slots(const Node& n) const {
  size_t count = (n.kind == Kind::Add || n.kind == Kind::Mul) ? 2 * size_t(n.n) : n.n;
  return {pool_.data() + n.off, count};
}

ExprId Store::intern(Kind kind, uint8_t op, uint32_t a, std::span<const uint32_t> ops, uint8_t flags) {
  uint64_t slots_sum = 0;
  for (size_t i = 0; i < ops.size(); ++i) slots_sum += detail::hash_slot(ops[i], i);
  uint64_t h = detail::hash_mix(detail::hash_mix(uint64_t(kind) << 8 | op, a), slots_sum);
  uint32_t h32 = static_cast<uint32_t>(detail::hash_finish(h));
  uint32_t n = (kind == Kind::Add || kind == Kind::Mul) ? uint32_t(ops.size() / 2) : uint32_t(ops.size());

  size_t mask = table_.size() - 1;
  size_t i = h32 & mask;
  for (; table_[i] != 0; i = (i + 1) & mask) {
    if (uint32_t(table_[i] >> 32) != h32) continue;
    uint32_t index = uint32_t(table_[i]) - 1;
    const Node& cand = nodes_[index];
    if (cand.kind != kind || cand.op != op || cand.a != a || cand.n != n) continue;
    if (std::equal(ops.begin(), ops.end(), pool_.begin() + cand.off)) return ExprId{index};
  }

  if (nodes_.size() >= ExprId::kInvalid - 1) throw Error(ExitCode::Internal, "expression store is full");
  // ops may point into pool_ (a caller re-interning existing operands); appending could
  // reallocate under it, so copy first in that case.
  uint32_t off = static_cast<uint32_t>(pool_.size());
  if (!ops.empty() && ops.data() >= pool_.data() && ops.data() < pool_.data() + pool_.size()) {
    std::vector<uint32_t> copy(ops.begin(), ops.end());
    pool_.insert(pool_.end(), copy.begin(), copy.end());
  } else {
    pool_.insert(pool_.end(), ops.begin(), ops.end());
  }
  uint32_t index = static_cast<uint32_t>(nodes_.size());
  nodes_.push_back(Node{kind, op, flags, 0, a, off, n});
  table_[i] = uint64_t(h32) << 32 | (index + 1);
  if (nodes_.size() * 2 > table_.size()) grow_table();
  return ExprId{index};
}

void Store::grow_table() {
  decltype(table_) table(table_.size() * 2, 0);
  size_t mask = table.size() - 1;
  for (uint64_t entry : table_) {
    if (entry == 0) continue;
    size_t i = (entry >> 32) & mask;
    while (table[i] != 0) i = (i + 1) & mask;
    table[i] = entry;
  }
  table_ = std::move(table);
}

bool Store::finite_all(std::span<const ExprId> xs) const {
  return std::all_of(xs.begin(), xs.end(), [&](ExprId x) { return is_finite(x); });
}

void Store::require_number(ExprId x) const {
  if (is_condition(x)) throw Error(ExitCode::Internal, "expr: a condition used as a number");
}

ExprId Store::constant_at(uint32_t rat_index) {
  return intern(Kind::Const, uint8_t(ConstKind::Rational), rat_index, {}, kFinite);
}

uint32_t Store::rat_mul(uint32_t a, uint32_t b) {
  if (a == RationalTable::kOne) return b;
  if (b == RationalTable::kOne) return a;
  if (a == RationalTable::kZero || b == RationalTable::kZero) return RationalTable::kZero;
  mpq_class p = rats_[a] * rats_[b];  // before interning, which may move the table
  return rats_.intern(p);
}

uint32_t Store::rat_add(uint32_t a, uint32_t b) {
  if (a == RationalTable::kZero) return b;
  if (b == RationalTable::kZero) return a;
  mpq_class p = rats_[a] + rats_[b];
  return rats_.intern(p);
}

// ---- Inspection.

ConstKind Store::const_kind(ExprId x) const {
  assert(kind(x) == Kind::Const);
  return ConstKind(node(x).op);
}

bool Store::is_rational(ExprId x) const {
  const Node& n = node(x);
  return n.kind == Kind::Const && ConstKind(n.op) == ConstKind::Rational;
}

const mpq_class& Store::rational(ExprId x) const {
  assert(is_rational(x));
  return rats_[node(x).a];
}

bool Store::bool_value(ExprId x) const {
  assert(kind(x) == Kind::Bool);
  return node(x).op != 0;
}

FuncKind Store::func_kind(ExprId x) const {
  assert(kind(x) == Kind::Func);
  return FuncKind(node(x).op);
}

CmpOp Store::cmp_op(ExprId x) const {
  assert(kind(x) == Kind::Cmp);
  return CmpOp(node(x).op);
}

const SymbolInfo& Store::symbol_info(ExprId x) const {
  assert(kind(x) == Kind::Symbol);
  return symbols_[node(x).a];
}

const mpq_class& Store::coef(ExprId x) const {
  assert(kind(x) == Kind::Add || kind(x) == Kind::Mul);
  return rats_[node(x).a];
}

ExprId Store::operand(ExprId x, uint32_t i) const {
  const Node& n = node(x);
  assert(i < n.n);
  bool pairs = n.kind == Kind::Add || n.kind == Kind::Mul;
  return ExprId{pool_[n.off + (pairs ? 2 * i : i)]};
}

const mpq_class& Store::weight(ExprId x, uint32_t i) const {
  const Node& n = node(x);
  assert((n.kind == Kind::Add || n.kind == Kind::Mul) && i < n.n);
  return rats_[pool_[n.off + 2 * i + 1]];
}

// ---- Leaves.

ExprId Store::constant(const mpq_class& q) {
  // gmpxx does not canonicalize mpq_class(6, 8); interning and arithmetic both need it.
  if (q.get_den() != 1 && !detail::is_canonical_rational(q)) {
    mpq_class c = q;
    c.canonicalize();
    return constant(c);
  }
  return constant_at(rats_.intern(q));
}

ExprId Store::symbol(const std::string& origin, std::optional<Range> range) {
  if (range) {
    range->lo.canonicalize();
    range->hi.canonicalize();
  }
  if (range && range->lo > range->hi) {
    throw Error(ExitCode::Internal, "symbol " + origin + ": empty range [" + range->lo.get_str() + ", " +
                                        range->hi.get_str() + "]");
  }
  auto it = symbol_by_origin_.find(origin);
  if (it != symbol_by_origin_.end()) {
    const std::optional<Range>& old = symbols_[node(it->second).a].range;
    bool same = old.has_value() == range.has_value() && (!old || (old->lo == range->lo && old->hi == range->hi));
    if (!same) throw Error(ExitCode::Internal, "symbol " + origin + " requested again with a different range");
    return it->second;
  }
  uint32_t index = static_cast<uint32_t>(symbols_.size());
  symbols_.push_back(SymbolInfo{origin, std::move(range)});
  ExprId id = intern(Kind::Symbol, 0, index, {}, kFinite);
  symbol_by_origin_.emplace(origin, id);
  return id;
}

}  // namespace racer::expr
