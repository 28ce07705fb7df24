#include "decide/shape.hpp"

#include <algorithm>
#include <tuple>

#include "expr/hash.hpp"

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

bool same_range(const expr::Range* x, const expr::Range* y) {
  return (x != nullptr) == (y != nullptr) && (!x || (x->lo == y->lo && x->hi == y->hi));
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
  struct Frame {
    ExprId id;
    bool expanded;
  };
  std::vector<Frame> stack{{root, false}};
  while (!stack.empty()) {
    const Frame f = stack.back();
    Invariant& inv = invariants_[f.id.index];  // (pages never move: the reference stays valid)
    if (inv.known) {
      stack.pop_back();
      continue;
    }
    const Kind k = store_.kind(f.id);
    if (!f.expanded) {
      bool leaf = true;
      switch (k) {
        case Kind::Symbol:
          inv = {0, true, hash_mix(header(store_, f.id), traits_id(f.id)), trait_bit(traits_id(f.id))};
          break;
        case Kind::Const:
          inv = {0, true, hash_mix(header(store_, f.id), store_.is_rational(f.id) ? identity(store_.rational(f.id)) : 0), 0};
          break;
        case Kind::Bool: inv = {0, true, header(store_, f.id), 0}; break;
        default: leaf = false;
      }
      if (leaf) {
        stack.pop_back();
        continue;
      }
      stack.back().expanded = true;
      for (uint32_t i = 0; i < store_.arity(f.id); ++i) {
        ExprId c = store_.operand(f.id, i);
        if (!invariants_[c.index].known) stack.push_back({c, false});
      }
      continue;
    }
    stack.pop_back();
    uint32_t height = 0;
    uint64_t h = header(store_, f.id), operands = 0, bits = 0;
    if (k == Kind::Add || k == Kind::Mul) h = hash_mix(h, identity(store_.coef(f.id)));
    for (uint32_t i = 0; i < store_.arity(f.id); ++i) {
      const Invariant& c = invariants_[store_.operand(f.id, i).index];
      height = std::max(height, c.height + 1);
      bits |= c.trait_bits;
      uint64_t w = (k == Kind::Add || k == Kind::Mul) ? identity(store_.weight(f.id, i)) : 0;
      // Commutative operands are summed (order-free); the others mixed in sequence.
      if (commutative(k)) operands += hash_mix(c.hash, w);
      else h = hash_mix(h, c.hash);
    }
    inv = Invariant{height, true, hash_mix(h, operands), bits};
  }
  return invariants_[root.index];
}

const uint32_t* ShapeClasses::position(ExprId x) const {
  const Position* p = positions_.find(x.index);
  return p && p->walk == walk_ ? &p->at : nullptr;
}

// A node's operands in the order the walk numbers them: as stored, except that commutative
// operands go shallowest first, then by invariant hash (both unchanged by renaming), and
// operands still alike after that by the earliest walk position found among their operands
// and those operands' operands (small nodes only, so the look costs O(1) per operand). That
// puts a cell's own term of a shared sum (the one over its already numbered input) first,
// wherever the sum's stored order has it. Any order is sound: it only decides which pairs
// get equal records.
void ShapeClasses::visit_order(ExprId x) {
  constexpr uint32_t kSmall = 8;
  uint32_t n = store_.arity(x);
  order_.clear();
  for (uint32_t i = 0; i < n; ++i) order_.push_back(store_.operand(x, i));
  if (!commutative(store_.kind(x))) return;
  auto earliest = [&](ExprId e) {
    uint64_t best = UINT64_MAX;
    auto seen = [&](ExprId o) {
      const uint32_t* at = position(o);
      if (at) best = std::min<uint64_t>(best, *at);
      return at != nullptr;
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
    const Invariant& inv = invariants_[order_[i].index];
    keyed.push_back({inv.height, inv.hash, earliest(order_[i]), i, order_[i]});
  }
  std::sort(keyed.begin(), keyed.end(), [](const Keyed& p, const Keyed& q) {
    return std::tie(p.height, p.hash, p.earliest, p.stored) < std::tie(q.height, q.hash, q.earliest, q.stored);
  });
  for (uint32_t i = 0; i < n; ++i) order_[i] = keyed[i].id;
}

void ShapeClasses::record(ExprId x, std::vector<uint64_t>& out) {
  Kind k = store_.kind(x);
  out.push_back(header(store_, x));
  auto at = [&](uint32_t i) -> uint64_t { return *position(store_.operand(x, i)); };
  uint32_t n = store_.arity(x);
  switch (k) {
    case Kind::Const: out.push_back(store_.is_rational(x) ? identity(store_.rational(x)) : 0); return;
    case Kind::Bool: return;
    case Kind::Symbol: out.push_back(traits_id(x)); return;
    case Kind::Add:
    case Kind::Mul: {
      out.push_back(identity(store_.coef(x)));
      out.push_back(n);
      terms_.clear();
      for (uint32_t i = 0; i < n; ++i) terms_.emplace_back(at(i), identity(store_.weight(x, i)));
      std::sort(terms_.begin(), terms_.end());
      for (auto [p, w] : terms_) out.insert(out.end(), {p, w});
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
  // A new walk: positions of earlier walks no longer count.
  ++walk_;
  numbered_ = 0;
  struct Frame {
    ExprId id;
    bool expanded;
  };
  std::vector<Frame> stack;
  for (ExprId root : {a, b}) {
    invariant(root);
    stack.push_back({root, false});
    while (!stack.empty()) {
      const Frame f = stack.back();
      if (position(f.id)) {
        stack.pop_back();
        continue;
      }
      if (!f.expanded) {
        stack.back().expanded = true;
        // Pushed last to first: the walk numbers them in visit order.
        visit_order(f.id);
        for (auto it = order_.rbegin(); it != order_.rend(); ++it)
          if (!position(*it)) stack.push_back({*it, false});
        continue;
      }
      stack.pop_back();
      record(f.id, s.words);
      positions_[f.id.index] = Position{walk_, numbered_++};
    }
  }
  s.words.push_back(*position(a));
  s.words.push_back(*position(b));
  uint64_t h = s.words.size();
  for (uint64_t w : s.words) h = expr::detail::hash_mix(h, w);
  s.hash = expr::detail::hash_finish(h);
  return s;
}

ShapeClasses::Found ShapeClasses::classify(ExprId a, ExprId b) {
  const uint64_t pair_hash = expr::detail::hash_mix(invariant(a).hash, invariant(b).hash);
  auto last = last_member_.find(pair_hash);
  if (last != last_member_.end() && matches(last->second.a, last->second.b, a, b)) {
    last->second.a = a, last->second.b = b;
    ++matched_;
    return {last->second.cls, false};
  }
  Found found = classify_by_record(a, b);
  last_member_[pair_hash] = Member{a, b, found.cls};
  return found;
}

ShapeClasses::Found ShapeClasses::classify_by_record(ExprId a, ExprId b) {
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
