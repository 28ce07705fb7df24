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
  size_t count = (n.kind == Kind::Add || n.kind == Kind::Mul) && !n.unit ? 2 * size_t(n.n) : n.n;
  return {pool_.data() + n.off, count};
}

uint32_t Store::term_w(const Node& n, uint32_t i) const { return n.unit ? RationalTable::kOne : pool_[n.off + 2 * i + 1]; }

uint32_t Store::first_not_below(const Node& n, uint32_t id) const {
  uint32_t lo = 0, hi = n.n;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (term_id(n, mid) < id) lo = mid + 1; else hi = mid;
  }
  return lo;
}

std::vector<uint32_t> Store::pairs_with(const Node& n, uint32_t pos, bool replace, uint32_t id, uint32_t w) const {
  std::vector<uint32_t> ops;
  ops.reserve(2 * size_t(n.n) + 2);
  auto copy = [&](uint32_t from, uint32_t to) {
    for (uint32_t i = from; i < to; ++i) ops.push_back(term_id(n, i)), ops.push_back(term_w(n, i));
  };
  copy(0, pos);
  if (w != RationalTable::kZero) ops.push_back(id), ops.push_back(w);
  copy(replace ? pos + 1 : pos, n.n);
  return ops;
}

uint32_t Store::node_hash(Kind kind, uint8_t op, uint32_t a, uint64_t slots_sum) {
  return static_cast<uint32_t>(detail::hash_finish(detail::hash_mix(detail::hash_mix(uint64_t(kind) << 8 | op, a), slots_sum)));
}

template <class SameSlots>
std::optional<ExprId> Store::find(Kind kind, uint8_t op, uint32_t a, uint32_t n, uint64_t slots_sum,
                                  uint32_t& hash, size_t& table_slot, SameSlots same_slots) const {
  hash = node_hash(kind, op, a, slots_sum);
  size_t mask = table_.size() - 1;
  size_t i = hash & mask;
  for (; table_[i] != 0; i = (i + 1) & mask) {
    if (uint32_t(table_[i] >> 32) != hash) continue;
    uint32_t index = uint32_t(table_[i]) - 1;
    const Node& cand = nodes_[index];
    if (cand.kind != kind || cand.op != op || cand.a != a || cand.n != n) continue;
    if (same_slots(cand)) return ExprId{index};
  }
  table_slot = i;
  return std::nullopt;
}

ExprId Store::insert(const Node& n, uint32_t hash, size_t table_slot, uint64_t slots_sum) {
  if (nodes_.size() >= ExprId::kInvalid - 1) throw Error(ExitCode::Internal, "expression store is full");
  uint32_t index = static_cast<uint32_t>(nodes_.size());
  nodes_.push_back(n);
  slot_sums_.push_back(slots_sum);
  has_piecewise_ |= n.kind == Kind::Select || n.kind == Kind::Min || n.kind == Kind::Max ||
                    (n.kind == Kind::Func && n.op == static_cast<uint8_t>(FuncKind::Abs));
  table_[table_slot] = uint64_t(hash) << 32 | (index + 1);
  if (++table_entries_ * 2 > table_.size()) grow_table();
  return ExprId{index};
}

uint64_t Store::slots_hash(std::span<const uint32_t> ops) {
  uint64_t sum = 0;
  for (size_t i = 0; i < ops.size(); ++i) sum += detail::hash_slot(ops[i], i);
  return sum;
}

ExprId Store::intern(Kind kind, uint8_t op, uint32_t a, std::span<const uint32_t> ops, uint8_t flags) {
  const uint64_t slots_sum = slots_hash(ops);
  const bool pairs = kind == Kind::Add || kind == Kind::Mul;
  uint32_t n = pairs ? uint32_t(ops.size() / 2) : uint32_t(ops.size());
  bool unit = pairs && n > 0;
  for (size_t i = 1; unit && i < ops.size(); i += 2) unit = ops[i] == RationalTable::kOne;
  if (!unit) return intern_stored(kind, op, a, n, ops, false, slots_sum, flags);
  ids_.resize(n);
  for (uint32_t i = 0; i < n; ++i) ids_[i] = ops[2 * i];
  return intern_stored(kind, op, a, n, ids_, true, slots_sum, flags);
}

ExprId Store::intern_stored(Kind kind, uint8_t op, uint32_t a, uint32_t n, std::span<const uint32_t> stored, bool unit,
                            uint64_t slots_sum, uint8_t flags) {
  uint32_t hash = 0;
  size_t table_slot = 0;
  auto same = [&](const Node& cand) {
    return cand.unit == unit && std::equal(stored.begin(), stored.end(), pool_.begin() + cand.off);
  };
  if (std::optional<ExprId> found = find(kind, op, a, n, slots_sum, hash, table_slot, same)) return *found;

  // Slots are never written once a node uses them, so operands that already lie in pool_
  // (a node rebuilt with another coefficient) are shared rather than copied.
  uint32_t off = static_cast<uint32_t>(pool_.size());
  const bool shared = !stored.empty() && stored.data() >= pool_.data() && stored.data() < pool_.data() + pool_.size();
  before_growth(shared ? 0 : stored.size());
  if (shared) {
    off = static_cast<uint32_t>(stored.data() - pool_.data());
  } else {
    pool_.insert(pool_.end(), stored.begin(), stored.end());
  }
  return insert(Node{kind, op, flags, uint8_t(unit), a, off, n}, hash, table_slot, slots_sum);
}

ExprId Store::append_term(ExprId sum, uint32_t term, uint32_t w) {
  // Below this many terms a copy is as cheap as the bookkeeping; above it a copy reserves as
  // much room again, so a sum grown one term at a time costs amortized O(1) slots per term.
  constexpr uint32_t kRoomFrom = 8;
  const Node s = node(sum);
  const uint32_t n = s.n + 1;
  const bool unit = s.unit && w == RationalTable::kOne;
  // A weight other than 1 after unit ones: the result is stored as pairs, all of it anew.
  if (s.unit && !unit) return intern(Kind::Add, 0, s.a, pairs_with(s, s.n, false, term, w), s.flags);
  const uint32_t stride = unit ? 1 : 2;  // (s has the result's layout)
  const uint32_t end = s.off + stride * s.n;
  uint64_t slots_sum = slot_sums_[sum.index] + detail::hash_slot(term, 2 * s.n) + detail::hash_slot(w, 2 * s.n + 1);
  uint32_t hash = 0;
  size_t table_slot = 0;
  auto same = [&](const Node& cand) {
    return cand.unit == unit && pool_[cand.off + stride * s.n] == term && (unit || pool_[cand.off + 2 * s.n + 1] == w) &&
           (cand.off == s.off || std::equal(pool_.begin() + s.off, pool_.begin() + end, pool_.begin() + cand.off));
  };
  if (std::optional<ExprId> found = find(Kind::Add, 0, s.a, n, slots_sum, hash, table_slot, same)) return *found;

  uint32_t off = s.off;
  std::optional<uint32_t> room_end = end == pool_.size() ? std::nullopt : append_room_.find(end);
  const size_t capacity = stride * (n >= kRoomFrom ? 2 * size_t(n) : size_t(n));
  before_growth(end == pool_.size() ? stride : room_end ? 0 : capacity);
  if (end == pool_.size()) {
    pool_.push_back(term);
    if (!unit) pool_.push_back(w);
  } else if (room_end) {
    append_room_.erase(end);
    pool_[end] = term;
    if (!unit) pool_[end + 1] = w;
    if (end + stride < *room_end) append_room_.set(end + stride, *room_end);
  } else {
    off = static_cast<uint32_t>(pool_.size());
    pool_.resize(off + capacity);
    std::copy(pool_.begin() + s.off, pool_.begin() + end, pool_.begin() + off);
    pool_[off + stride * s.n] = term;
    if (!unit) pool_[off + 2 * s.n + 1] = w;
    if (capacity > stride * size_t(n)) append_room_.set(off + stride * n, uint32_t(off + capacity));
  }
  return insert(Node{Kind::Add, 0, s.flags, uint8_t(unit), s.a, off, n}, hash, table_slot, slots_sum);
}

void Store::before_growth(size_t pool_more, bool new_symbol, bool named) {
  // Smaller growths are left to the periodic checks: guarding them would read the resident
  // memory on every early doubling for nothing.
  constexpr size_t kGuardedBytes = size_t{1} << 20;
  if (!growth_guard_) return;
  size_t bytes = 0;
  auto copied = [&](const auto& v, size_t more) {
    if (v.size() + more > v.capacity()) bytes += v.size() * sizeof(v[0]);
  };
  copied(nodes_, 1);
  copied(slot_sums_, 1);
  copied(pool_, pool_more);
  const bool in_table = !new_symbol || named;  // (a family's symbols are not: nothing finds them there)
  if (in_table && (table_entries_ + 1) * 2 > table_.size()) bytes += 2 * table_.size() * sizeof(table_[0]);
  if (new_symbol) copied(symbols_, 1);
  if (named) {
    copied(names_, 1);
    bytes += symbol_by_origin_.growth_bytes();
  }
  if (bytes >= kGuardedBytes) growth_guard_(bytes);
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

void Store::note_unfolded(ExprId result, ExprId x, ExprId y) {
  std::vector<std::pair<ExprId, ExprId>>& pairs = unfolded_[result.index];
  if (pairs.size() >= kMaxUnfolded || std::find(pairs.begin(), pairs.end(), std::pair{x, y}) != pairs.end()) return;
  pairs.emplace_back(x, y);
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

const Store::SymbolEntry& Store::symbol_entry(ExprId x) const {
  assert(kind(x) == Kind::Symbol);
  return symbols_[node(x).a];
}

SymbolInfo Store::symbol_info(ExprId x) const {
  const SymbolEntry& e = symbol_entry(x);
  return SymbolInfo{e.range ? ranges_[e.range - 1].get() : nullptr, e.integer};
}

std::string Store::symbol_name(ExprId x) const {
  const SymbolEntry& e = symbol_entry(x);
  return e.family ? families_[e.family - 1].name_of(e.name_or_key) : names_[e.name_or_key];
}

std::optional<FamilyKey> Store::family_key(ExprId x) const {
  const SymbolEntry& e = symbol_entry(x);
  if (!e.family) return std::nullopt;
  return FamilyKey{e.family, e.name_or_key};
}

uint32_t Store::symbol_number(ExprId x) const {
  assert(kind(x) == Kind::Symbol);
  return node(x).a;
}

const mpq_class& Store::coef(ExprId x) const {
  assert(kind(x) == Kind::Add || kind(x) == Kind::Mul);
  return rats_[node(x).a];
}

ExprId Store::operand(ExprId x, uint32_t i) const {
  const Node& n = node(x);
  assert(i < n.n);
  bool pairs = n.kind == Kind::Add || n.kind == Kind::Mul;
  return ExprId{pool_[n.off + (pairs && !n.unit ? 2 * i : i)]};
}

const mpq_class& Store::weight(ExprId x, uint32_t i) const {
  const Node& n = node(x);
  assert((n.kind == Kind::Add || n.kind == Kind::Mul) && i < n.n);
  return rats_[term_w(n, i)];
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

uint32_t Store::intern_range(const Range& r) {
  // Few distinct ranges exist (one per tensor or contract input), and runs of symbols share
  // one: the last one made or found is tried first.
  if (last_range_ && ranges_[last_range_ - 1]->lo == r.lo && ranges_[last_range_ - 1]->hi == r.hi) return last_range_;
  for (size_t i = 0; i < ranges_.size(); ++i)
    if (ranges_[i]->lo == r.lo && ranges_[i]->hi == r.hi) return last_range_ = static_cast<uint32_t>(i + 1);
  ranges_.push_back(std::make_unique<Range>(r));
  return last_range_ = static_cast<uint32_t>(ranges_.size());
}

uint32_t Store::range_place(const std::optional<Range>& given, const std::function<std::string()>& who) {
  if (!given) return 0;
  std::optional<Range> canonical;  // a copy only where the given one is not canonical
  if (!detail::is_canonical_rational(given->lo) || !detail::is_canonical_rational(given->hi)) {
    canonical = given;
    canonical->lo.canonicalize();
    canonical->hi.canonicalize();
  }
  const Range& r = canonical ? *canonical : *given;
  if (r.lo > r.hi) throw Error(ExitCode::Internal, "symbol " + who() + ": empty range [" + r.lo.get_str() + ", " + r.hi.get_str() + "]");
  return intern_range(r);
}

ExprId Store::new_symbol(SymbolEntry entry, bool named) {
  before_growth(0, true, named);
  if (symbols_.size() >= ExprId::kInvalid - 1) throw Error(ExitCode::Internal, "expression store is full");
  const uint32_t number = static_cast<uint32_t>(symbols_.size());
  if (named) {
    // Found again by name: the symbol goes in the unique table so that intern finds its node.
    symbol_by_origin_.insert(names_[entry.name_or_key], number);
    entry.node = intern(Kind::Symbol, 0, number, {}, kFinite).index;
  } else {
    // Never found again (the caller keeps it): no entry in the unique table.
    if (nodes_.size() >= ExprId::kInvalid - 1) throw Error(ExitCode::Internal, "expression store is full");
    entry.node = static_cast<uint32_t>(nodes_.size());
    nodes_.push_back(Node{Kind::Symbol, 0, kFinite, 0, number, 0, 0});
    slot_sums_.push_back(0);
  }
  symbols_.push_back(entry);
  return ExprId{entry.node};
}

ExprId Store::symbol(const std::string& origin, const std::optional<Range>& given, bool integer) {
  const uint32_t range = range_place(given, [&] { return origin; });
  int64_t known = symbol_by_origin_.find(origin, [&](uint32_t number) -> std::string_view { return names_[symbols_[number].name_or_key]; });
  if (known >= 0) {
    const SymbolEntry& e = symbols_[static_cast<size_t>(known)];
    if (e.range != range)  // (interned: equal ranges are one)
      throw Error(ExitCode::Internal, "symbol " + origin + " requested again with a different range");
    if (e.integer != integer) throw Error(ExitCode::Internal, "symbol " + origin + " requested again with a different integrality");
    return ExprId{e.node};
  }
  names_.push_back(origin);
  return new_symbol(SymbolEntry{0, static_cast<uint32_t>(names_.size() - 1), range, 0, integer}, true);
}

uint16_t Store::add_symbol_family(std::function<std::string(uint32_t key)> name_of, const std::optional<Range>& range, bool integer) {
  if (families_.size() >= 0xFFFF) throw Error(ExitCode::Internal, "too many symbol families");
  const uint32_t place = range_place(range, [&] { return "family of " + name_of(0); });
  families_.push_back(Family{std::move(name_of), place, integer});
  return static_cast<uint16_t>(families_.size());
}

ExprId Store::family_symbol(uint16_t family, uint32_t key) {
  assert(family >= 1 && family <= families_.size());
  const Family& f = families_[family - 1];
  return new_symbol(SymbolEntry{0, key, f.range, family, f.integer}, false);
}

}  // namespace racer::expr
