#pragma once
// A register or memory value: concrete bits, or a real-valued expression from the shared
// Store. Integer and address arithmetic stays on bits; only data derived from symbolic
// inputs becomes an expression.
#include <cstdint>

#include "expr/expr_id.hpp"

namespace racer::exec {

struct Value {
  uint64_t bits = 0;
  // 0: concrete (bits valid); kPoison: an atomic's old value, never to be read;
  // otherwise ExprId index + 1 of a real number or a condition (for predicates).
  uint32_t sym = 0;
  // A symbolic value is either float data (a real) or integer data (an exact integer whose
  // range is known to fit the type it was computed in); reading one as the other would be
  // a bit-level reinterpretation.
  bool integer = false;

  static constexpr uint32_t kPoison = UINT32_MAX;
  // Two 16-bit lanes of one register (f16x2 / bf16x2 data) of which at least one is
  // symbolic: the lanes are encoded in `bits` (exec/packed.hpp), never read as one number.
  static constexpr uint32_t kPacked = UINT32_MAX - 1;
  // A running sum not yet in the store (exec/deferred_sums.hpp): `bits` names its last step.
  // Only a register holds one, and only until an instruction reads it other than to add to it.
  static constexpr uint32_t kDeferred = UINT32_MAX - 2;
  // Two 8-bit lanes in the low 16 bits of a register (e4m3x2 / e5m2x2 data, or an fp8 byte
  // loaded into a wider register) of which at least one is symbolic: encoded as kPacked's
  // lanes are (exec/packed.hpp); the register's bits above 16 are zero.
  static constexpr uint32_t kBytes = UINT32_MAX - 3;
  // Four 8-bit lanes of a 32-bit register of which one above the second is not zero and one
  // is symbolic (s8/u8 or fp8 data moved a word at a time): `bits` names the session's entry
  // of their lanes (exec/packed.hpp: LaneTable).
  static constexpr uint32_t kQuad = UINT32_MAX - 4;
  // One 32-bit word of a symbolic 64-bit value (an f64 or a 64-bit integer split for warp
  // shuffles): `bits` names the value and which word (exec/word_halves.hpp).
  static constexpr uint32_t kWord = UINT32_MAX - 5;
  // The least of the markers above: a `sym` below it names an expression.
  static constexpr uint32_t kFirstMarker = kWord;

  static Value of_bits(uint64_t b) { return {b, 0, false}; }
  static Value of_expr(expr::ExprId e) { return {0, e.index + 1, false}; }
  static Value of_int_expr(expr::ExprId e) { return {0, e.index + 1, true}; }
  static Value poison() { return {0, kPoison, false}; }

  bool is_concrete() const { return sym == 0; }
  bool is_poison() const { return sym == kPoison; }
  bool is_symbolic() const { return sym != 0 && sym != kPoison; }
  bool is_packed() const { return sym == kPacked; }
  bool is_deferred() const { return sym == kDeferred; }
  bool is_bytes() const { return sym == kBytes; }
  bool is_quad() const { return sym == kQuad; }
  // Byte lanes, two or four (exec/packed.hpp).
  bool holds_bytes() const { return sym == kBytes || sym == kQuad; }
  bool is_word() const { return sym == kWord; }
  // Lanes of any kind (two halves, two or four bytes, a word of a wider value): never one number.
  bool holds_lanes() const { return sym == kPacked || sym == kBytes || sym == kQuad || sym == kWord; }
  // The number this value is; packed lanes are not one number (fail closed), and a
  // deferred sum must be settled by its domain first.
  expr::ExprId expr() const {
    if (sym >= kFirstMarker) [[unlikely]] {
      if (holds_lanes()) throw_packed_as_number();
      if (sym == kDeferred) throw_deferred_as_number();
    }
    return expr::ExprId{sym - 1};
  }
  [[noreturn]] static void throw_packed_as_number();
  [[noreturn]] static void throw_deferred_as_number();
  bool operator==(const Value&) const = default;
};

}  // namespace racer::exec
