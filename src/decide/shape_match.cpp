// The side-by-side match of a pair against an earlier one (shape.hpp): cheaper than a canonical
// record when the two share most of their DAG, as neighbouring output cells do.
#include <algorithm>
#include <tuple>

#include "decide/shape.hpp"

namespace racer::decide {

using expr::ExprId;
using expr::Kind;

bool ShapeClasses::matches(ExprId pa, ExprId pb, ExprId ca, ExprId cb) {
  // (The invariants of both pairs' nodes are known: classify computed them before.)
  ++walk_;
  uint64_t kept_bits = 0;   // symbols under nodes taken as mapped to themselves
  uint64_t moved_bits = 0;  // symbols the renaming moves
  std::vector<std::pair<ExprId, ExprId>> stack{{pb, cb}, {pa, ca}};
  struct Operand {
    ExprId id;
    const mpq_class* weight;
    uint32_t height;
    uint64_t hash;
    uint32_t stored;
  };
  std::vector<Operand> xs, ys, rest_x, rest_y;
  while (!stack.empty()) {
    auto [x, y] = stack.back();
    stack.pop_back();
    const Position* fwd = paired_.find(x.index);
    if (fwd && fwd->walk == walk_) {
      if (fwd->at != y.index) return false;
      continue;
    }
    const Position* back = paired_back_.find(y.index);
    if (back && back->walk == walk_ && back->at != x.index) return false;
    paired_[x.index] = Position{walk_, y.index};
    paired_back_[y.index] = Position{walk_, x.index};
    if (x == y) {
      // The same node: mapped to itself, which holds if the renaming fixes every symbol under it
      // (checked at the end, by trait bits: a moved symbol sharing a bit with one kept refuses).
      kept_bits |= invariants_[x.index].trait_bits;
      continue;
    }
    const Kind k = store_.kind(x);
    if (k != store_.kind(y)) return false;
    switch (k) {
      case Kind::Symbol: {
        const uint64_t t = traits_id(x);
        if (t != traits_id(y)) return false;
        moved_bits |= trait_bit(t);
        continue;
      }
      case Kind::Const:
      case Kind::Bool: return false;  // interned: equal ones are one node
      case Kind::Func:
        if (store_.func_kind(x) != store_.func_kind(y)) return false;
        break;
      case Kind::Cmp:
        if (store_.cmp_op(x) != store_.cmp_op(y)) return false;
        break;
      case Kind::Add:
      case Kind::Mul:
        if (&store_.coef(x) != &store_.coef(y)) return false;
        break;
      default: break;
    }
    const uint32_t n = store_.arity(x);
    if (n != store_.arity(y)) return false;
    if (!commutative(k)) {
      for (uint32_t i = n; i-- > 0;) stack.push_back({store_.operand(x, i), store_.operand(y, i)});
      continue;
    }
    // Commutative operands: those present on both sides (with equal weights) pair with
    // themselves; the rest pair in the order of renaming-invariant keys, then stored order.
    const bool weighted = k == Kind::Add || k == Kind::Mul;
    auto operands = [&](ExprId e, std::vector<Operand>& out) {
      out.clear();
      for (uint32_t i = 0; i < n; ++i) {
        ExprId o = store_.operand(e, i);
        const Invariant& inv = invariants_[o.index];
        out.push_back({o, weighted ? &store_.weight(e, i) : nullptr, inv.height, inv.hash, i});
      }
    };
    operands(x, xs);
    operands(y, ys);
    auto by_id = [](const Operand& p, const Operand& q) { return std::tie(p.id.index, p.weight) < std::tie(q.id.index, q.weight); };
    std::sort(xs.begin(), xs.end(), by_id);
    std::sort(ys.begin(), ys.end(), by_id);
    rest_x.clear();
    rest_y.clear();
    size_t i = 0, j = 0;
    while (i < xs.size() || j < ys.size()) {
      if (i < xs.size() && j < ys.size() && xs[i].id == ys[j].id && xs[i].weight == ys[j].weight) {
        stack.push_back({xs[i].id, ys[j].id});
        ++i, ++j;
      } else if (j == ys.size() || (i < xs.size() && by_id(xs[i], ys[j]))) {
        rest_x.push_back(xs[i++]);
      } else {
        rest_y.push_back(ys[j++]);
      }
    }
    if (rest_x.size() != rest_y.size()) return false;
    auto by_key = [](const Operand& p, const Operand& q) {
      return std::tie(p.height, p.hash, p.weight, p.stored) < std::tie(q.height, q.hash, q.weight, q.stored);
    };
    std::sort(rest_x.begin(), rest_x.end(), by_key);
    std::sort(rest_y.begin(), rest_y.end(), by_key);
    for (size_t r = 0; r < rest_x.size(); ++r) {
      if (rest_x[r].weight != rest_y[r].weight || rest_x[r].hash != rest_y[r].hash) return false;
      stack.push_back({rest_x[r].id, rest_y[r].id});
    }
  }
  return (kept_bits & moved_bits) == 0;
}

}  // namespace racer::decide
