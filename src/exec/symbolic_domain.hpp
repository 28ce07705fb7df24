#pragma once
// Floats as exact real expressions in a shared Store (DESIGN "Semantics").
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "exec/concrete_domain.hpp"
#include "exec/deferred_sums.hpp"
#include "exec/domain.hpp"
#include "exec/int_bounds.hpp"
#include "expr/sign_bounds.hpp"
#include "expr/store.hpp"

namespace racer::exec {

class SymbolicDomain final : public Domain {
 public:
  explicit SymbolicDomain(expr::Store& store);

  // A test hook that makes the symbolic semantics wrong on purpose (an operator read as
  // another), so that a test can see the self-check against the emulator catch it. Never set
  // outside tests.
  static inline FBin (*fault_for_testing)(FBin) = nullptr;

  Value fbin(FBin op, ptx::Type t, Value a, Value b, const FloatMods& m) override;
  Value fun(FUn op, ptx::Type t, Value a, const FloatMods& m) override;
  Value fma(ptx::Type t, Value a, Value b, Value c, const FloatMods& m) override;
  Value fma_deferred(ptx::Type t, Value a, Value b, Value c, const FloatMods& m) override;
  Value settle(Value v) override { return v.is_deferred() ? Value::of_expr(sums_.settle(v)) : v; }
  void forget_deferred() override { sums_.clear(); }
  // The session's limits, checked while a long deferred sum settles.
  void set_limits_check(std::function<void()> check) { sums_.set_limits_check(std::move(check)); }
  // The same limits, for work inside one instruction that may take long (a routine's probes).
  void check_limits() const { sums_.check_limits(); }
  Value fcmp(uint8_t cmp, ptx::Type t, Value a, Value b, bool ftz) override;
  Value pred(PredOp op, Value a, Value b) override;
  Value select(Value pred, Value if_true, Value if_false) override;
  Value cvt(ptx::Type dst, ptx::Type src, Value a, const FloatMods& m) override;
  bool truth(Value pred) override;
  std::optional<uint64_t> bits(Value v, ptx::Type t) override;
  Value as_number(Value v, ptx::Type t) override { return Value::of_expr(real(v, t)); }
  Value int_op(IntOp op, ptx::Type t, Value a, Value b) override;
  Value int_cmp(uint8_t cmp, ptx::Type t, Value a, Value b) override;
  Value as_integer(Value v, ptx::Type t) override;
  Value as_stored_integer(Value v, ptx::Type t) override;
  Value int_popc(ptx::Type t, Value a) override;
  Value int_shift_right(ptx::Type t, Value a, unsigned n) override;
  Value int_bit_field(ptx::Type t, Value a, unsigned p, unsigned q) override;
  std::optional<Value> int_flag_logic(bool xor_op, ptx::Type t, Value a, uint64_t k) override;
  std::optional<Value> int_disjoint_bits(ptx::Type t, Value a, Value b) override;
  Value sign_bit(ptx::Type ft, Value s) override;
  Value with_sign_bit(ptx::Type ft, Value sign, Value v, bool flip) override;
  // Where symbolic integers from integer tensors may lie (their dtype's range, or the
  // instance's range).
  void set_symbol_range(IntBounds::SymbolRange f) { bounds_.set_symbol_range(std::move(f)); }
  // The truth of a comparison that reads no symbol (3 exp(-log(10000)/16) < 105615: a rotary
  // frequency against a sine's range-reduction bound), where rigorous evaluation settles it;
  // nullopt where it cannot. Given by the layer that has such an evaluation (check/); without
  // it such comparisons stay symbolic, and a branch on one is a data-dependent branch.
  using GroundTruth = std::function<std::optional<bool>(expr::ExprId)>;
  void set_ground_truth(GroundTruth f) { ground_truth_ = std::move(f); }
  // A comparison's truth: a Bool constant's value, a comparison reading no symbol as the
  // evaluation above settles it; else nullopt.
  std::optional<bool> ground_truth(expr::ExprId cond);
  // Whether e reads no symbol (searched depth first, stopping at the first symbol).
  bool is_ground(expr::ExprId e) const;

  // The exact real a value denotes when read as float type t.
  expr::ExprId real(Value v, ptx::Type t);
  // The exact integer a value denotes when read as integer type t (wrapped where it may not fit).
  expr::ExprId integer(Value v, ptx::Type t);
  // A predicate as a condition expression.
  expr::ExprId condition(Value p);
  expr::Store& store() { return store_; }
  // Float constants read as the real constant they approximate, by form, with counts.
  const std::map<std::string, size_t>& recognized() const { return recognized_; }
  // For a program run twice (check/execution.cpp): the counts of one run.
  void set_recognized(std::map<std::string, size_t> counts) { recognized_ = std::move(counts); }

 private:
  static mpz_class round_integral(const mpq_class& q, uint8_t rnd);
  expr::ExprId integral_part(expr::ExprId e, uint8_t rnd);
  Value finish(expr::ExprId e, const FloatMods& m);
  // A float operation on concrete operands whose exact result is the float the GPU computes
  // (nothing was rounded): that float's bits, so that bit-level steps after it run (a masked
  // lane's 0 * 2^23 inside a compiled logf). Where the operation rounded: the exact value.
  Value exact_as_bits(Value exact, ptx::Type t, Value ieee);
  Value infinity_as_bits(Value v, ptx::Type t) const;
  Value popc_of_disjoint_masks(expr::ExprId e);
  Value symbolic_fbin(FBin op, ptx::Type t, Value a, Value b, const FloatMods& m);
  Value symbolic_fun(FUn op, ptx::Type t, Value a, const FloatMods& m);
  ConcreteDomain ieee_;
  expr::ExprId ln2();
  GroundTruth ground_truth_;

  // Integer data e as the value of type t's bits (symbolic_wrap.cpp): e itself where its
  // bounds prove it fits t, else its two's-complement wrap-around to t; refused where e is not
  // known to be an integer (data from uninitialized memory: its witnesses are not integers).
  expr::ExprId wrapped(expr::ExprId e, ptx::Type t);
  // Whether e is integer-valued by construction: built by integer arithmetic from integer
  // inputs and from floats converted to integers (symbolic_wrap.cpp).
  bool from_integer_inputs(expr::ExprId e);
  unsigned low_zero_bits(expr::ExprId e, unsigned width);
  std::unordered_map<uint32_t, bool> integer_inputs_;
  // The results of float-to-integer conversions (cvt.rzi.s16.f32 and the like): integers
  // whatever the float they came from, so their wrap-around is exact.
  std::unordered_set<uint32_t> converted_integers_;
  Value checked_int(expr::ExprId e, ptx::Type t);
  // The float of type t whose bits are the integer e, where e is an exponent field alone
  // (2^k built as (k + bias) << mantissa bits) within the normal range: 2^k exactly.
  std::optional<expr::ExprId> power_of_two_float(expr::ExprId e, ptx::Type t);
  // floor(e / 2^n) and e mod 2^n for integer data e (symbolic_bit_views.cpp).
  expr::ExprId floor_pow2(expr::ExprId e, unsigned n);
  expr::ExprId mod_pow2(expr::ExprId e, unsigned n);
  static const mpq_class& log2e_float();
  static const mpq_class& ln2_float();
  std::optional<expr::ExprId> divide_if_multiple(expr::ExprId x, const mpq_class& c);
  std::optional<expr::ExprId> unfold_scaled_log2e(expr::ExprId x);
  bool defined_everywhere(expr::ExprId x);
  std::optional<bool> compare_with_zero(uint8_t cmp, expr::ExprId x);
  expr::ExprId min_xorsign_abs(expr::ExprId x, expr::ExprId y);
  // r, the Store's sum of x and y; where their terms cancelled or merged in it, noted for the
  // rounding bound (Store::note_unfolded).
  expr::ExprId noting_merges(expr::ExprId x, expr::ExprId y, expr::ExprId r);
  std::map<std::string, size_t> recognized_;

  expr::Store& store_;
  DeferredSums sums_{store_};
  expr::ExprId ln2_{};
  IntBounds bounds_{store_};
  expr::SignBounds signs_{store_};  // a comparison with 0 the store cannot fold (max of |x|s >= 0)
};

}  // namespace racer::exec
