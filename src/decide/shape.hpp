#pragma once
// Shape reduction: output cells whose pairs (a, b) are equal up to a bijective renaming of
// their symbols are one decision (DESIGN.md, the pipeline's decide/ step). A proof, a
// refutation (its witness carried through the renaming) or an Unknown of one such pair holds
// for every pair of its class, provided the renaming changes nothing a decision reads: so a
// symbol is renamed only to one with the same traits (domain, grid, kind, the Store's range).
//
// The shape of a pair is a canonical record of its DAG: every distinct node once, in the
// post-order of a deterministic walk of a then b, each node written as its operator, its
// constants exactly (interned rationals by identity) and its operands by their positions in
// that order; a symbol is written as its traits only. Equal records therefore describe the
// same pair up to the renaming that maps the i-th symbol of one walk to the i-th of the
// other: a bijection between symbols of equal traits. Sums, products, min and max are
// commutative, so their operands are recorded as a sorted multiset, and the walk visits them
// shallowest first (ties by a renaming-invariant hash, then by the earliest numbered node
// just below them, then stored order), which lets a cell's own input be numbered before the
// shared reduction it sits in, and its own term of that reduction be visited first (softmax:
// every cell of a row has one shape). The walk is linear in the DAG (memoized per node); a class is found by
// the record's hash and confirmed by comparing records word for word, so a hash collision can
// cost a reuse but never give a wrong class.
//
// Before that, a pair is matched against the last pair classed with the same renaming-invariant
// hash (shape_match.cpp): both walked side by side, a renaming built as they go, and a node the
// two share taken whole as mapped to itself, on condition that no symbol the renaming moves
// could be one under it. Neighbouring cells (a row's outputs over one softmax) share all but
// their own inputs, so this costs what they do not share; a match puts the pair in the class of
// the pair matched (equality up to renaming is transitive), a failure costs only the attempt.
#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

#include "decide/domain.hpp"
#include "decide/node_table.hpp"
#include "expr/store.hpp"

namespace racer::decide {

// What a decision may read about a symbol besides its value: renaming is allowed only between
// symbols whose traits are equal. `tag` is the caller's (where the symbol comes from: an
// input cell, out-of-bounds memory, uninitialized memory, and of which tensor).
struct SymbolTraits {
  SymbolDomain domain;
  uint64_t tag = 0;
};

struct PairShape {
  std::vector<uint64_t> words;  // the canonical record (shape.cpp says how it is laid out)
  uint64_t hash = 0;
};

class ShapeClasses {
 public:
  ShapeClasses(const expr::Store& store, std::function<SymbolTraits(expr::ExprId)> traits_of);

  PairShape shape(expr::ExprId a, expr::ExprId b);

  struct Found {
    size_t cls;   // class index, dense from 0 in order of first appearance
    bool is_new;  // (a, b) is the class's first pair: its representative
  };
  // The class of (a, b): the class whose representative has the identical shape, or a new one.
  Found classify(expr::ExprId a, expr::ExprId b);
  size_t size() const { return classes_.size(); }
  // How many pairs the side-by-side match classed (the rest took a canonical record).
  size_t matched() const { return matched_; }

 private:
  struct Invariant {
    uint32_t height = 0;
    bool known = false;
    uint64_t hash = 0;         // unchanged by renaming symbols of equal traits
    uint64_t trait_bits = 0;   // bit (traits index mod 64) of every symbol under the node
  };
  // A node's place in the current walk (valid when its walk is the current one).
  struct Position {
    uint32_t walk = 0;
    uint32_t at = 0;
  };
  const Invariant& invariant(expr::ExprId x);
  uint64_t traits_id(expr::ExprId symbol);
  const uint32_t* position(expr::ExprId x) const;
  void record(expr::ExprId x, std::vector<uint64_t>& out);
  // Fills order_ with x's operands in the order the walk numbers them.
  void visit_order(expr::ExprId x);
  // Whether (ca, cb) is (pa, pb) up to a bijective renaming of symbols of equal traits, found
  // by walking both side by side (shape_match.cpp). False may only cost a reuse.
  Found classify_by_record(expr::ExprId a, expr::ExprId b);
  bool matches(expr::ExprId pa, expr::ExprId pb, expr::ExprId ca, expr::ExprId cb);
  static uint64_t trait_bit(uint64_t traits) { return uint64_t{1} << (traits % 64); }
  // Sums, products, min and max: operands order-free.
  static bool commutative(expr::Kind k) {
    return k == expr::Kind::Add || k == expr::Kind::Mul || k == expr::Kind::Min || k == expr::Kind::Max;
  }

  const expr::Store& store_;
  std::function<SymbolTraits(expr::ExprId)> traits_of_;
  NodeTable<Invariant> invariants_;  // by node, across pairs
  NodeTable<Position> positions_;    // by node, for the pair being walked
  uint32_t walk_ = 0, numbered_ = 0;
  // Scratch space of one node's visit (the walk is iterative, so one of each serves).
  std::vector<expr::ExprId> order_;
  std::vector<std::pair<uint64_t, uint64_t>> terms_;
  std::unordered_map<uint32_t, uint64_t> symbol_traits_;  // by symbol: index into traits_
  struct StoredTraits {
    SymbolTraits t;
    const expr::Range* range;  // the Store's own (null: none)
  };
  std::vector<StoredTraits> traits_;
  // Per class, its representative; the record only once another pair's hash matches it (a
  // class of one cell keeps no record, so cells that share nothing cost no memory).
  struct Representative {
    expr::ExprId a, b;
    std::vector<uint64_t> words;
  };
  std::vector<Representative> classes_;
  // Per renaming-invariant hash of a pair, the last pair classed with it and its class.
  struct Member {
    expr::ExprId a, b;
    size_t cls;
  };
  std::unordered_map<uint64_t, Member> last_member_;
  size_t matched_ = 0;
  // The side-by-side walk's node pairing, both ways (valid for the current walk_).
  NodeTable<Position> paired_, paired_back_;
  std::unordered_map<uint64_t, std::vector<size_t>> classes_by_hash_;
};

}  // namespace racer::decide
