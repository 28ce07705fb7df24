#include "decide/shape.hpp"

#include <algorithm>
#include <tuple>

#include "expr/hash.hpp"
#include "expr/walk.hpp"

namespace racer::decide {

using expr::ExprId;
using expr::Kind;

namespace {

// A record's words: per node, first its header (the Kind in the low byte, the op byte above
// it), then by kind:
//   Const   the rational's identity (0 for +-inf and Undefined, told apart by op)
//   Bool    nothing (the value is the op byte)
//   Symbol  its traits' index
//   Add/Mul the coefficient's identity, n, then n (operand position, weight identity) pairs sorted
//   Min/Max n, then n operand positions sorted
//   Func, Cmp, Select  the operand positions in order (the function or comparison is the op byte)
// and after every node, a's position and b's. Rationals are interned by the Store, so the
// address of one is its identity (equal addresses are equal values; the reverse is what
// interning adds, and only costs a reuse if it fails).
uint64_t identity(const mpq_class& q) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(&q)); }

bool commutative(Kind k) { return k == Kind::Add || k == Kind::Mul || k == Kind::Min || k == Kind::Max; }

uint8_t op_byte(const expr::Store& st, ExprId x) {
  switch (st.kind(x)) {
    case Kind::Const: return static_cast<uint8_t>(st.const_kind(x));
    case Kind::Bool: return st.bool_value(x) ? 1 : 0;
    case Kind::Func: return static_cast<uint8_t>(st.func_kind(x));
    case Kind::Cmp: return static_cast<uint8_t>(st.cmp_op(x));
    default: return 0;
  }
}

uint64_t header(const expr::Store& st, ExprId x) {
  return static_cast<uint64_t>(st.kind(x)) | static_cast<uint64_t>(op_byte(st, x)) << 8;
}

bool same_range(const std::optional<expr::Range>& x, const std::optional<expr::Range>& y) {
  return x.has_value() == y.has_value() && (!x || (x->lo == y->lo && x->hi == y->hi));
}

bool same_traits(const SymbolTraits& x, const SymbolTraits& y) {
  return x.tag == y.tag && x.domain.grid == y.domain.grid && x.domain.lo == y.domain.lo && x.domain.hi == y.domain.hi;
}

}  // namespace

ShapeClasses::ShapeClasses(const expr::Store& store, std::function<SymbolTraits(ExprId)> traits_of)
    : store_(store), traits_of_(std::move(traits_of)) {}

uint64_t ShapeClasses::traits_id(ExprId symbol) {
  if (auto it = symbol_traits_.find(symbol.index); it != symbol_traits_.end()) return it->second;
  StoredTraits t{traits_of_(symbol), store_.symbol_info(symbol).range};
  size_t id = 0;
  while (id < traits_.size() && !(same_traits(traits_[id].t, t.t) && same_range(traits_[id].range, t.range))) ++id;
  if (id == traits_.size()) traits_.push_back(std::move(t));
  symbol_traits_.emplace(symbol.index, id);
  return id;
}

const ShapeClasses::Invariant& ShapeClasses::invariant(ExprId root) {
  using expr::detail::hash_mix;
  auto leaf = [&](ExprId x) -> std::optional<Invariant> {
    switch (store_.kind(x)) {
      case Kind::Symbol: return Invariant{0, hash_mix(header(store_, x), traits_id(x))};
      case Kind::Const:
        return Invariant{0, hash_mix(header(store_, x), store_.is_rational(x) ? identity(store_.rational(x)) : 0)};
      case Kind::Bool: return Invariant{0, header(store_, x)};
      default: return std::nullopt;
    }
  };
  auto combine = [&](ExprId x) {
    Kind k = store_.kind(x);
    uint32_t height = 0;
    uint64_t h = header(store_, x), operands = 0;
    if (k == Kind::Add || k == Kind::Mul) h = hash_mix(h, identity(store_.coef(x)));
    for (uint32_t i = 0; i < store_.arity(x); ++i) {
      const Invariant& c = invariants_.at(store_.operand(x, i).index);
      height = std::max(height, c.height + 1);
      uint64_t w = (k == Kind::Add || k == Kind::Mul) ? identity(store_.weight(x, i)) : 0;
      // Commutative operands are summed (order-free); the others mixed in sequence.
      if (commutative(k)) operands += hash_mix(c.hash, w);
      else h = hash_mix(h, c.hash);
    }
    return Invariant{height, hash_mix(h, operands)};
  };
  expr::fold_post_order<Invariant>(root, invariants_, leaf, expr::AllOperands{store_}, combine);
  return invariants_.at(root.index);
}

// A node's operands in the order the walk numbers them: as stored, except that commutative
// operands go shallowest first, then by invariant hash (both unchanged by renaming), and
// operands still alike after that by the earliest walk position found among their operands
// and those operands' operands (small nodes only, so the look costs O(1) per operand). That
// puts a cell's own term of a shared sum (the one over its already numbered input) first,
// wherever the sum's stored order has it. Any order is sound: it only decides which pairs
// get equal records.
std::vector<ExprId> ShapeClasses::visit_order(ExprId x, const std::unordered_map<uint32_t, uint32_t>& position) {
  constexpr uint32_t kSmall = 8;
  uint32_t n = store_.arity(x);
  std::vector<ExprId> ops;
  ops.reserve(n);
  for (uint32_t i = 0; i < n; ++i) ops.push_back(store_.operand(x, i));
  if (!commutative(store_.kind(x))) return ops;
  auto earliest = [&](ExprId e) {
    uint64_t best = UINT64_MAX;
    auto seen = [&](ExprId o) {
      auto it = position.find(o.index);
      if (it != position.end()) best = std::min<uint64_t>(best, it->second);
      return it != position.end();
    };
    if (store_.arity(e) > kSmall) return best;
    for (uint32_t i = 0; i < store_.arity(e); ++i) {
      ExprId o = store_.operand(e, i);
      if (seen(o) || store_.arity(o) > kSmall) continue;
      for (uint32_t j = 0; j < store_.arity(o); ++j) seen(store_.operand(o, j));
    }
    return best;
  };
  struct Keyed {
    uint32_t height;
    uint64_t hash, earliest;
    uint32_t stored;
    ExprId id;
  };
  std::vector<Keyed> keyed;
  keyed.reserve(n);
  for (uint32_t i = 0; i < n; ++i) {
    const Invariant& inv = invariants_.at(ops[i].index);
    keyed.push_back({inv.height, inv.hash, earliest(ops[i]), i, ops[i]});
  }
  std::sort(keyed.begin(), keyed.end(), [](const Keyed& p, const Keyed& q) {
    return std::tie(p.height, p.hash, p.earliest, p.stored) < std::tie(q.height, q.hash, q.earliest, q.stored);
  });
  for (uint32_t i = 0; i < n; ++i) ops[i] = keyed[i].id;
  return ops;
}

void ShapeClasses::record(ExprId x, const std::unordered_map<uint32_t, uint32_t>& position, std::vector<uint64_t>& out) {
  Kind k = store_.kind(x);
  out.push_back(header(store_, x));
  auto at = [&](uint32_t i) -> uint64_t { return position.at(store_.operand(x, i).index); };
  uint32_t n = store_.arity(x);
  switch (k) {
    case Kind::Const: out.push_back(store_.is_rational(x) ? identity(store_.rational(x)) : 0); return;
    case Kind::Bool: return;
    case Kind::Symbol: out.push_back(traits_id(x)); return;
    case Kind::Add:
    case Kind::Mul: {
      out.push_back(identity(store_.coef(x)));
      out.push_back(n);
      std::vector<std::pair<uint64_t, uint64_t>> terms;
      terms.reserve(n);
      for (uint32_t i = 0; i < n; ++i) terms.emplace_back(at(i), identity(store_.weight(x, i)));
      std::sort(terms.begin(), terms.end());
      for (auto [p, w] : terms) out.insert(out.end(), {p, w});
      return;
    }
    case Kind::Min:
    case Kind::Max: {
      out.push_back(n);
      size_t first = out.size();
      for (uint32_t i = 0; i < n; ++i) out.push_back(at(i));
      std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
      return;
    }
    case Kind::Func:
    case Kind::Cmp:
    case Kind::Select:
      for (uint32_t i = 0; i < n; ++i) out.push_back(at(i));
      return;
  }
}

PairShape ShapeClasses::shape(ExprId a, ExprId b) {
  PairShape s;
  std::unordered_map<uint32_t, uint32_t> position;  // node -> its place in the walk
  for (ExprId root : {a, b}) {
    invariant(root);
    expr::fold_post_order<uint32_t>(
        root, position, [](ExprId) { return std::optional<uint32_t>(); },
        [&](ExprId x, auto push) {
          // Pushed last to first: the walk numbers them in visit order.
          std::vector<ExprId> ops = visit_order(x, position);
          for (auto it = ops.rbegin(); it != ops.rend(); ++it) push(*it);
        },
        [&](ExprId x) {
          record(x, position, s.words);
          return static_cast<uint32_t>(position.size());
        });
  }
  s.words.push_back(position.at(a.index));
  s.words.push_back(position.at(b.index));
  uint64_t h = s.words.size();
  for (uint64_t w : s.words) h = expr::detail::hash_mix(h, w);
  s.hash = expr::detail::hash_finish(h);
  return s;
}

ShapeClasses::Found ShapeClasses::classify(ExprId a, ExprId b) {
  PairShape s = shape(a, b);
  auto it = classes_by_hash_.try_emplace(s.hash).first;
  for (size_t cls : it->second) {
    Representative& r = classes_[cls];
    if (r.words.empty()) r.words = shape(r.a, r.b).words;  // the walk is deterministic: the same record
    if (r.words == s.words) return {cls, false};
  }
  it->second.push_back(classes_.size());
  classes_.push_back({a, b, {}});
  return {classes_.size() - 1, true};
}

}  // namespace racer::decide
