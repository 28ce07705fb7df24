#pragma once
// The Store owns every expression node: an arena of compact nodes, a shared operand pool,
// a rational table, the symbol table, and a unique table that makes construction
// hash-consing (building a node that exists returns its id). Nodes are immutable and never
// freed; ids stay valid for the Store's lifetime. Not thread-safe: one Store per thread,
// or external locking.
//
// The smart constructors below are the only way to build nodes. Each returns the canonical
// form of its result (see DESIGN.md "Normal form" and canonical.hpp), using exact
// identities of the extended reals only. Conventions that matter to callers:
//  * Division cancels: x * x^-1 = 1 and x*y/y = x for finite x, the usual simplifier
//    convention; the result agrees with the original wherever the original is defined.
//  * Infinities are constants; Undefined (ConstKind) is what inf - inf, 0 * inf, 1/0,
//    log(-1), sin(inf) produce when that is certain at construction. Nothing throws for
//    NaN. When it depends on the inputs (s - s where s may be -inf), the result keeps a
//    zero-weighted term (0*s: 0 when s is finite, NaN when it is infinite), never 0; a
//    Mul with coefficient 0 means the same, and s/s for such s is 1 + 0*s.
//  * Symbols are finite reals; a node's "finite" flag (is_finite) is a cheap sound proof
//    that it never evaluates to +-inf or NaN where defined; folds that need finiteness
//    (x - x = 0, 0 * x = 0, x + (-inf) = -inf) consult it and otherwise keep the node.
//  * A constant too large to fold (2^(2^30)) throws racer::Error(Unknown).
#include <gmpxx.h>

#include <algorithm>
#include <array>
#include <concepts>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "expr/expr_id.hpp"
#include "expr/node.hpp"
#include "expr/rational_table.hpp"
#include "expr/symbol_names.hpp"
#include "support/flat_u32_map.hpp"

namespace racer::expr {

// A closed interval of rationals that a symbol is known to lie in (from a contract or an
// instance's input domain).
struct Range {
  mpq_class lo;
  mpq_class hi;
};

struct SymbolInfo {
  // Null where the symbol has no range. Ranges are interned by the Store (every cell of a
  // tensor shares its tensor's), so a symbol costs no copy of two rationals.
  const Range* range = nullptr;
  bool integer = false;  // takes integer values only (a cell of an integer tensor)
};

// A symbol of a family: the family's number (from 1) and the symbol's key in it.
struct FamilyKey {
  uint16_t family = 0;
  uint32_t key = 0;
};

class Store {
 public:
  Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;
  Store(Store&&) = default;
  Store& operator=(Store&&) = default;

  size_t size() const { return nodes_.size(); }
  // Whether any node is piecewise in its operands (a select, min, max or abs): where none is,
  // every expression is analytic.
  bool has_piecewise() const { return has_piecewise_; }
  // Whether x is what log(exp(x)) became (Store::func folds it): a float program that computed
  // it ran two math routines whose error the node itself no longer shows (the rounding bound
  // adds it back wherever x appears, a coarser bound than the program's own).
  bool stands_for_routines(ExprId x) const {
    return !stands_for_routines_.empty() && stands_for_routines_.contains(x.index);  // (most stores have none)
  }
  // Float operations whose operands' terms cancelled or merged in the sum the Store made of them
  // (a + (b - a) is b, (c + b) - b is c): the program still rounds each operand and the result,
  // which the folded node no longer shows. Recorded per result node as its operands (at most
  // kMaxUnfolded pairs; the rounding bound takes the largest of the node's own and theirs).
  static constexpr size_t kMaxUnfolded = 4;
  void note_unfolded(ExprId result, ExprId x, ExprId y);
  std::span<const std::pair<ExprId, ExprId>> unfolded(ExprId x) const {
    if (unfolded_.empty()) return {};  // (most stores have none)
    auto it = unfolded_.find(x.index);
    return it == unfolded_.end() ? std::span<const std::pair<ExprId, ExprId>>() : std::span(it->second);
  }
  // Whether x > 0 at every point by its shape alone: exp, a positive constant or ranged input,
  // and products, positively weighted sums and square roots of those (looks at `budget` nodes
  // at most: a few hundred by default, a glance where it is asked at every comparison).
  static constexpr int kPositiveBudget = 256;
  static constexpr int kShapeSignBudget = 1 << 13;  // a sum of a few dozen products of exps
  bool surely_positive(ExprId x, int budget = kPositiveBudget) const;
  size_t operand_slots() const { return pool_.size(); }  // the operand pool, reserved room included
  // Called before one of the store's large arrays grows, with the bytes the growth makes
  // resident beside what is there (the copy of the old array, or a rehashed table); it may
  // throw, and the store is unchanged when it does. A memory limit is held here: one doubling
  // of a large array would otherwise pass it between two periodic checks.
  void set_growth_guard(std::function<void(size_t bytes)> guard) { growth_guard_ = std::move(guard); }

  // ---- Inspection. Accessors check the kind only by assert.
  Kind kind(ExprId x) const { return node(x).kind; }
  bool is_finite(ExprId x) const { return (node(x).flags & detail::kFinite) != 0; }
  // Conditions (Bool, Cmp, Select of conditions) are a separate sort: arithmetic on one
  // throws racer::Error(Internal).
  bool is_condition(ExprId x) const { return (node(x).flags & detail::kBoolean) != 0; }
  ConstKind const_kind(ExprId x) const;  // Const only
  bool is_rational(ExprId x) const;      // a finite constant
  bool is_undefined(ExprId x) const { return x == undefined_; }
  bool is_inf(ExprId x) const { return x == pos_inf_ || x == neg_inf_; }
  const mpq_class& rational(ExprId x) const;  // is_rational only
  bool bool_value(ExprId x) const;            // Bool only
  FuncKind func_kind(ExprId x) const;         // Func only
  CmpOp cmp_op(ExprId x) const;               // Cmp only: Lt, Le, Eq or Ne
  SymbolInfo symbol_info(ExprId x) const;  // Symbol only
  // Symbol only: where the value came from, for witnesses: "x[3,1]", "uninit global 0x1000+12".
  std::string symbol_name(ExprId x) const;
  // Symbol only: symbols are numbered 0, 1, ... in the order they were made (for tables by symbol).
  uint32_t symbol_number(ExprId x) const;
  size_t symbol_count() const { return symbols_.size(); }
  ExprId symbol_at(uint32_t number) const { return ExprId{symbols_[number].node}; }
  // Symbol only: its family and key, where it was made by family_symbol.
  std::optional<FamilyKey> family_key(ExprId x) const;
  const mpq_class& coef(ExprId x) const;      // Add: the constant term; Mul: the coefficient
  // Operands, in canonical (id) order: Add terms, Mul bases, Min/Max arguments, the Func
  // argument, Cmp (lhs, rhs), Select (cond, then, else).
  uint32_t arity(ExprId x) const { return node(x).n; }
  ExprId operand(ExprId x, uint32_t i) const;
  const mpq_class& weight(ExprId x, uint32_t i) const;  // Add: term coefficient; Mul: integer exponent
  // Add/Mul: every weight is 1 (without reading one).
  bool unit_weights(ExprId x) const { return node(x).unit; }

  // ---- Leaves.
  ExprId constant(const mpq_class& q);
  template <std::integral T>
  ExprId constant(T v) {
    if constexpr (std::is_signed_v<T>) return constant(mpq_class(static_cast<long>(v)));
    else return constant(mpq_class(static_cast<unsigned long>(v)));
  }
  // No implicit float: its exact value must be spelled as the rational it encodes
  // (mpq_class(d) is exact), never rounded through an integer overload.
  template <std::floating_point T>
  ExprId constant(T) = delete;
  ExprId zero() const { return zero_; }
  ExprId one() const { return one_; }
  ExprId pos_inf() const { return pos_inf_; }
  ExprId neg_inf() const { return neg_inf_; }
  ExprId undefined() const { return undefined_; }
  ExprId true_value() const { return true_; }
  ExprId false_value() const { return false_; }
  // Symbols are interned by origin: the same origin names the same variable. Asking again
  // with a different range or integrality is a bug in the caller and throws racer::Error(Internal).
  ExprId symbol(const std::string& origin, const std::optional<Range>& range = std::nullopt, bool integer = false);
  // A family of symbols named by a key (a tensor's cells by their index): name_of(key) is
  // the name, made only when asked for (a witness, a printout). Millions of input cells are
  // millions of symbols; a family's cost no name each and no entry in the name table. Its
  // symbols share `range` and `integer`.
  uint16_t add_symbol_family(std::function<std::string(uint32_t key)> name_of, const std::optional<Range>& range, bool integer);
  // A new symbol of `family` with `key`. The caller asks for each key once (it keeps the
  // symbols it made): nothing here finds the symbol again by key or by name.
  ExprId family_symbol(uint16_t family, uint32_t key);

  // ---- Arithmetic.
  ExprId add(ExprId a, ExprId b);
  ExprId add(std::span<const ExprId> xs);
  ExprId sub(ExprId a, ExprId b);
  ExprId neg(ExprId a);
  ExprId mul(ExprId a, ExprId b);
  ExprId mul(std::span<const ExprId> xs);
  // Brings into the cache where mul(a, b) will look for the product of two plain bases (a
  // batch of products interned one after another waits for one miss at a time otherwise).
  void prefetch_product(ExprId a, ExprId b) const;
  ExprId div(ExprId a, ExprId b);
  ExprId recip(ExprId a);
  ExprId pow_int(ExprId a, long n);
  ExprId pow_int(ExprId a, const mpz_class& n);

  // ---- Functions.
  ExprId func(FuncKind f, ExprId a);
  ExprId exp(ExprId a) { return func(FuncKind::Exp, a); }
  ExprId log(ExprId a) { return func(FuncKind::Log, a); }
  ExprId sqrt(ExprId a) { return func(FuncKind::Sqrt, a); }
  ExprId tanh(ExprId a) { return func(FuncKind::Tanh, a); }
  ExprId erf(ExprId a) { return func(FuncKind::Erf, a); }
  ExprId sin(ExprId a) { return func(FuncKind::Sin, a); }
  ExprId cos(ExprId a) { return func(FuncKind::Cos, a); }
  ExprId abs(ExprId a) { return func(FuncKind::Abs, a); }
  // Two's-complement wrap-around (node.hpp, wrap_kind), built by build_wrap.cpp with the
  // identities of arithmetic mod 2^w: inside a wrap of width w, a wrap of width >= w in a ring
  // position (a sum's term with an integer weight; a factor of an integer product of integer
  // factors) is its operand, constants and integer weights reduce mod 2^w, so
  // wrap(wrap(a + b) + c) and wrap(a + wrap(b + c)) are one node.
  ExprId wrap(ExprId a, unsigned bits, bool is_signed) { return func(wrap_kind(bits, is_signed), a); }
  // Whether x takes integer values wherever it is defined, by its form: integer constants,
  // integer symbols, and sums, products (non-negative integer powers), selects, min/max and
  // wraps of such. False proves nothing.
  bool integral(ExprId x) const;

  ExprId min(ExprId a, ExprId b);
  ExprId min(std::span<const ExprId> xs);
  ExprId max(ExprId a, ExprId b);
  ExprId max(std::span<const ExprId> xs);

  // ---- Conditions. cmp yields a Cmp or a Bool (or Undefined when an operand is). select's
  // cond must be a condition and its branches both numbers or both conditions, so that
  // select(p, q, false) is "p and q" and select(p, false, true) is "not p". Comparisons
  // are over the extended reals and an Undefined operand makes the result Undefined, so
  // IEEE's unordered predicates are the executor's business, not this layer's.
  ExprId cmp(CmpOp op, ExprId a, ExprId b);
  ExprId select(ExprId cond, ExprId then_value, ExprId else_value);

  // Rebuilds x's operator over new operands (one per operand of x, same order) through the
  // smart constructors; the basis of substitution and other rewrites. Leaves return x.
  ExprId rebuild(ExprId x, std::span<const ExprId> operands);

 private:
  // A term (weight = coefficient) or a factor (weight = exponent); weights are rational
  // table indices so that collecting operands copies no GMP numbers.
  struct Term {
    ExprId id;
    uint32_t w;
  };
  struct AddAcc;
  struct MulAcc;

  const detail::Node& node(ExprId x) const { return nodes_[x.index]; }
  // The slots as stored: for an Add or Mul of unit weights, the ids alone.
  std::span<const uint32_t> slots(const detail::Node& n) const;
  // Add/Mul: operand i's id and weight (a rational table index), whatever the layout.
  uint32_t term_id(const detail::Node& n, uint32_t i) const { return pool_[n.off + (n.unit ? i : 2 * i)]; }
  uint32_t term_w(const detail::Node& n, uint32_t i) const;
  // Add/Mul: the place of the first operand whose id is not below `id` (operands sort by id).
  uint32_t first_not_below(const detail::Node& n, uint32_t id) const;
  // Add/Mul: n's (id, weight) pairs with (id, w) at `pos`, in place of the pair there where
  // `replace`; a weight of 0 leaves the pair out (a term cancelled).
  std::vector<uint32_t> pairs_with(const detail::Node& n, uint32_t pos, bool replace, uint32_t id, uint32_t w) const;
  // ops: Add/Mul as (id, weight) pairs (stored as ids alone where every weight is 1).
  ExprId intern(Kind kind, uint8_t op, uint32_t a, std::span<const uint32_t> ops, uint8_t flags);
  // The unique table's hash of a node (kind, op, a) whose slots hash to slots_sum, and that
  // sum for (id, weight) pairs as intern hashes them.
  static uint32_t node_hash(Kind kind, uint8_t op, uint32_t a, uint64_t slots_sum);
  static uint64_t slots_hash(std::span<const uint32_t> ops);
  // The pairs of a + b or a * b for distinct operands of weight 1, sorted: (lower id, 1, higher id, 1).
  static std::array<uint32_t, 4> unit_pair(ExprId a, ExprId b) {
    return {std::min(a.index, b.index), detail::RationalTable::kOne, std::max(a.index, b.index), detail::RationalTable::kOne};
  }
  // The node with slots as stored (`stored`, in `unit` layout), whose pairs hash to slots_sum.
  ExprId intern_stored(Kind kind, uint8_t op, uint32_t a, uint32_t n, std::span<const uint32_t> stored, bool unit,
                       uint64_t slots_sum, uint8_t flags);
  // The node (kind, op, a, n operands) whose slots hash to slots_sum, if one exists; else
  // nullopt and table_slot is where a new one goes. same_slots compares the candidate's.
  template <class SameSlots>
  std::optional<ExprId> find(Kind kind, uint8_t op, uint32_t a, uint32_t n, uint64_t slots_sum,
                             uint32_t& hash, size_t& table_slot, SameSlots same_slots) const;
  ExprId insert(const detail::Node& n, uint32_t hash, size_t table_slot, uint64_t slots_sum);
  // sum + w * term where term sorts after every term of sum: the new sum shares sum's slots
  // and costs two slots, not a copy (a running accumulation is linear, not quadratic).
  ExprId append_term(ExprId sum, uint32_t term, uint32_t w);
  void grow_table();
  // Before a new node whose operands take pool_more new slots (and a new symbol's entries,
  // with a name and a place in the name table where it is named).
  void before_growth(size_t pool_more, bool new_symbol = false, bool named = false);
  bool finite_all(std::span<const ExprId> xs) const;
  void require_number(ExprId x) const;
  ExprId constant_at(uint32_t rat_index);
  uint32_t rat_mul(uint32_t a, uint32_t b);
  uint32_t rat_add(uint32_t a, uint32_t b);
  int rat_sign(uint32_t a) const { return sgn(rats_[a]); }

  // build_add.cpp
  void collect_add(AddAcc& acc, ExprId x, uint32_t scale);
  ExprId finish_add(AddAcc& acc);
  ExprId scale_add(ExprId sum, uint32_t k);
  std::optional<ExprId> add_one_term(ExprId sum, ExprId x);
  bool plain_term(ExprId x) const;
  ExprId unit_part(ExprId product);
  ExprId rebuild_add(ExprId sum, std::span<const ExprId> terms);
  // build_mul.cpp
  void collect_mul(MulAcc& acc, ExprId x, uint32_t e);
  ExprId finish_mul(MulAcc& acc);
  ExprId make_mul(uint32_t c, std::vector<Term>& factors);
  std::optional<ExprId> mul_one_factor(ExprId product, ExprId x);
  ExprId rebuild_mul(ExprId product, std::span<const ExprId> bases);
  // A factor collect_mul keeps whole with its exponent: neither a constant, a product nor a sum.
  bool plain_base(ExprId x) const {
    Kind k = node(x).kind;
    return k != Kind::Const && k != Kind::Mul && k != Kind::Add;
  }
  // build_wrap.cpp
  ExprId wrap_func(FuncKind f, ExprId a);
  ExprId reduce_mod(ExprId x, unsigned bits);

  // build_minmax.cpp
  ExprId minmax(Kind kind, std::span<const ExprId> xs);
  // build_cmp.cpp
  std::optional<bool> decide_cmp(CmpOp op, ExprId a, ExprId b);

  std::vector<detail::Node> nodes_;
  std::vector<uint32_t> pool_;  // operand slots
  // Per node, the sum of its slots' hashes (hash.hpp), so that a sum one term longer hashes in O(1).
  // (Of the slots as pairs, whatever the layout: a node hashes the same either way.)
  std::vector<uint64_t> slot_sums_;
  std::vector<uint32_t> ids_;  // intern's scratch: the ids of a unit-weight node's pairs
  // Room reserved in pool_ after a long sum's slots: offset just past them -> end of the room.
  // A sum extended there takes the room; a second extension of the same sum copies.
  support::FlatU32Map append_room_;
  // Unique table, linear probing: (hash << 32) | (node index + 1), 0 = empty. The hash rides
  // in the slot so that probing and rehashing touch no node.
  std::vector<uint64_t> table_;
  size_t table_entries_ = 0;
  bool has_piecewise_ = false;
  std::unordered_set<uint32_t> stands_for_routines_;
  std::unordered_map<uint32_t, std::vector<std::pair<ExprId, ExprId>>> unfolded_;
  detail::RationalTable rats_;
  // The interned range equal to r (canonical), made on first use: its place in ranges_ + 1.
  uint32_t intern_range(const Range& r);

  // A symbol in 16 bytes: its node; its name's place in names_, or its key in its family;
  // its range's place in ranges_ + 1 (0: none); its family (0: named).
  struct SymbolEntry {
    uint32_t node;
    uint32_t name_or_key;
    uint32_t range;
    uint16_t family;
    bool integer;
  };
  static_assert(sizeof(SymbolEntry) == 16);
  const SymbolEntry& symbol_entry(ExprId x) const;
  // The interned range equal to *given (canonical) as a place in ranges_ + 1; 0 for none.
  // who() names the symbol in the error an empty range is.
  uint32_t range_place(const std::optional<Range>& given, const std::function<std::string()>& who);
  ExprId new_symbol(SymbolEntry entry, bool named);

  std::vector<SymbolEntry> symbols_;
  std::vector<std::string> names_;  // of named symbols
  struct Family {
    std::function<std::string(uint32_t)> name_of;
    uint32_t range;  // place + 1 in ranges_, 0: none
    bool integer;
  };
  std::vector<Family> families_;  // family f at f - 1
  std::vector<std::unique_ptr<Range>> ranges_;  // distinct ranges
  uint32_t last_range_ = 0;  // the place + 1 of the range last made or found (runs of symbols share one)
  SymbolNames symbol_by_origin_;
  mutable std::unordered_map<uint32_t, bool> integral_;  // integral()'s answers
  ExprId zero_, one_, pos_inf_, neg_inf_, undefined_, true_, false_;
  std::function<void(size_t)> growth_guard_;
};

}  // namespace racer::expr
