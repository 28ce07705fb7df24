#pragma once
// The value domain: what float data means. The instruction semantics are written once
// against this interface; the symbolic domain builds exact real expressions (to decide),
// the concrete domain computes bit-exact IEEE results (to replay and to measure).
// Integer and address arithmetic never reaches a domain: it is computed on bits.
#include <cstdint>
#include <optional>

#include "exec/value.hpp"
#include "ptx/types.hpp"

namespace racer::exec {

enum class FBin : uint8_t { Add, Sub, Mul, Div, Min, Max, Copysign };
enum class FUn : uint8_t { Neg, Abs, Sqrt, Rsqrt, Rcp, Ex2, Lg2, Sin, Cos, Tanh };
enum class PredOp : uint8_t { And, Or, Xor, Not };
enum class IntOp : uint8_t { Add, Sub, Mul, Min, Max };

// The float modifiers of one instruction.
struct FloatMods {
  uint8_t rounding = 0xFF;  // ptx::rnd index, 0xFF: none given
  bool ftz = false;
  bool sat = false;         // .sat: clamp to [0, 1]
  bool satfinite = false;   // .satfinite: beyond the format's largest finite value, that value
  bool nan = false;         // min/max .NaN
  bool xorsign_abs = false;  // min/max .xorsign.abs: of |a| and |b|, with the sign of a's xor b's
};

class Domain {
 public:
  virtual ~Domain() = default;

  virtual Value fbin(FBin op, ptx::Type t, Value a, Value b, const FloatMods& m) = 0;
  virtual Value fun(FUn op, ptx::Type t, Value a, const FloatMods& m) = 0;
  virtual Value fma(ptx::Type t, Value a, Value b, Value c, const FloatMods& m) = 0;
  // fma where c may be a deferred running sum and the result may be one (exec/deferred_sums.hpp):
  // for a register that only this thread reads, and only by the accessors that settle it.
  virtual Value fma_deferred(ptx::Type t, Value a, Value b, Value c, const FloatMods& m) { return fma(t, a, b, c, m); }
  // A deferred sum as the value it stands for; any other value as it is.
  virtual Value settle(Value v) { return v; }
  // Every deferred sum is dead (the launch's registers are gone).
  virtual void forget_deferred() {}
  // setp on floats; cmp is a ptx::cmp index. The result is a predicate value.
  virtual Value fcmp(uint8_t cmp, ptx::Type t, Value a, Value b, bool ftz) = 0;
  // Predicate logic (and.pred ...) and selp. For PredOp::Not, b is ignored.
  virtual Value pred(PredOp op, Value a, Value b) = 0;
  virtual Value select(Value pred, Value if_true, Value if_false) = 0;
  // cvt between float formats, float -> integer, integer -> float.
  virtual Value cvt(ptx::Type dst, ptx::Type src, Value a, const FloatMods& m) = 0;

  // A predicate's truth when the engine must branch on it; throws Refusal when it depends
  // on symbolic data.
  virtual bool truth(Value pred) = 0;
  // The bits of a value as type t, for bit-level instructions; nullopt when the value is
  // symbolic or a real with no exact encoding in t.
  virtual std::optional<uint64_t> bits(Value v, ptx::Type t) = 0;
  // Integer arithmetic where an operand is symbolic integer data (concrete operands never
  // get here: the semantics compute them on bits). Wrapped around where the result could
  // leave the type's range (refused where the data is not known to be integers).
  virtual Value int_op(IntOp op, ptx::Type t, Value a, Value b) = 0;
  // An integer comparison (ptx::cmp index) with a symbolic operand: a predicate.
  virtual Value int_cmp(uint8_t cmp, ptx::Type t, Value a, Value b) = 0;
  // A value of integer type t as a symbolic integer (concrete bits become a constant).
  virtual Value as_integer(Value v, ptx::Type t) = 0;
  // Integer data read back as type t (a load, an output cell of an integer tensor): its value as
  // t where that is known exactly, else the value unchanged. Concrete bits need nothing.
  virtual Value as_stored_integer(Value v, ptx::Type) { return v; }
  // popc of symbolic integer data (a ballot mask, say); refused where it is not exact.
  virtual Value int_popc(ptx::Type t, Value a) = 0;
  // Bit fields of symbolic integer data. shift_right: shr by 0 < n < the width of t, i.e.
  // floor(e / 2^n) of the value read as t (arithmetic for a signed t, logical otherwise).
  // bit_field: and with the mask of bits p..q-1 (p < q <= the width, not all of them).
  // Exact, or refused where the expression would need more than a few steps.
  virtual Value int_shift_right(ptx::Type t, Value a, unsigned n) = 0;
  virtual Value int_bit_field(ptx::Type t, Value a, unsigned p, unsigned q) = 0;
  // or/xor (xor true) of symbolic integer data that is 0 or 1 (a flag: a sign shifted down, a
  // comparison's select) with the constant k: exact; nullopt where a may be anything else.
  virtual std::optional<Value> int_flag_logic(bool xor_op, ptx::Type t, Value a, uint64_t k) = 0;
  // or/xor of integer data (or bits) whose set bits cannot overlap, by bounds: one operand a
  // multiple of 2^k, the other in [0, 2^k) (a nibble shifted up or'ed with the one below it):
  // their sum, exactly; nullopt where that is not shown. (Concrete operands never get here.)
  virtual std::optional<Value> int_disjoint_bits(ptx::Type, Value, Value) { return std::nullopt; }

  // Sign-bit views of float data of type ft (its width places the sign bit). sign_bit: the
  // bits of `and s, signmask`, s's sign alone, as integer data. with_sign_bit: the float v
  // with a sign bit or'ed in (flip false) or xor'ed in (flip true) from `sign`, integer data
  // that is a sign bit alone; refused otherwise. A symbolic float's sign is that of its real
  // value, a zero counting as +0 (as copysign reads it).
  virtual Value sign_bit(ptx::Type ft, Value s) = 0;
  virtual Value with_sign_bit(ptx::Type ft, Value sign, Value v, bool flip) = 0;

  // A value of float type t in the domain's own representation of numbers (the symbolic
  // domain turns concrete bits into exact constants), so it can meet symbolic values.
  virtual Value as_number(Value v, ptx::Type t) = 0;
};

}  // namespace racer::exec
