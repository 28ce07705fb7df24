#pragma once
// Floats as the GPU computes them: bit-exact IEEE arithmetic with the instruction's rounding
// mode, flush-to-zero and saturation (ieee.hpp), approximate instructions by the stated
// models there. Used to replay witnesses and to measure kernels against contracts.
#include <functional>

#include "exec/domain.hpp"

namespace racer::exec {

class ConcreteDomain final : public Domain {
 public:
  Value fbin(FBin op, ptx::Type t, Value a, Value b, const FloatMods& m) override;
  Value fun(FUn op, ptx::Type t, Value a, const FloatMods& m) override;
  Value fma(ptx::Type t, Value a, Value b, Value c, const FloatMods& m) override;
  Value fcmp(uint8_t cmp, ptx::Type t, Value a, Value b, bool ftz) override;
  Value pred(PredOp op, Value a, Value b) override;
  Value select(Value pred, Value if_true, Value if_false) override;
  Value cvt(ptx::Type dst, ptx::Type src, Value a, const FloatMods& m) override;
  bool truth(Value pred) override { return pred.bits & 1; }
  std::optional<uint64_t> bits(Value v, ptx::Type) override { return v.bits; }
  Value as_number(Value v, ptx::Type) override { return v; }
  Value int_op(IntOp op, ptx::Type t, Value a, Value b) override;
  Value int_cmp(uint8_t cmp, ptx::Type t, Value a, Value b) override;
  Value as_integer(Value v, ptx::Type) override { return v; }
  Value int_popc(ptx::Type t, Value a) override;
  Value int_shift_right(ptx::Type t, Value a, unsigned n) override;
  Value int_bit_field(ptx::Type t, Value a, unsigned p, unsigned q) override;
  std::optional<Value> int_flag_logic(bool xor_op, ptx::Type t, Value a, uint64_t k) override;
  Value sign_bit(ptx::Type ft, Value s) override;
  Value with_sign_bit(ptx::Type ft, Value sign, Value v, bool flip) override;

  // Told when a float operation makes NaN or an infinity from finite operands (an overflow, an
  // invalid operation such as 0/0 or inf - inf never starts from finite ones); unset: nothing.
  // Given the result's type and bits (NaN or which infinity).
  std::function<void(ptx::Type, uint64_t)> on_nonfinite;
  // Told when a product, quotient, fma without addend, ex2 or narrowing conversion of finite
  // nonzero operands gives zero (an underflow, or a subnormal flushed); a zero sum is exact
  // cancellation and is not reported. Given the result's type and bits (which zero).
  std::function<void(ptx::Type, uint64_t)> on_underflow;

 private:
  Value watched(ptx::Type t, Value result, std::initializer_list<Value> operands);
  // `result` (of type t) is zero although `operands` are finite and nonzero.
  void watch_underflow(ptx::Type t, Value result, std::initializer_list<Value> operands);
  Value fbin_bits(FBin op, ptx::Type t, Value a, Value b, const FloatMods& m);
  Value fun_bits(FUn op, ptx::Type t, Value a, const FloatMods& m);
  Value cvt_bits(ptx::Type dst, ptx::Type src, Value a, const FloatMods& m);
};

}  // namespace racer::exec
