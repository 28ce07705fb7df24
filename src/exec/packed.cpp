#include "exec/packed.hpp"

#include "exec/refusal.hpp"

namespace racer::exec {
namespace {

// One lane in 32 bits: bit 31 set: concrete, bits 15:0 hold it; else bit 30 marks integer
// data and bits 29:0 hold the symbolic value's `sym` (expression index + 1).
constexpr uint32_t kConcreteLane = 0x80000000u, kIntegerLane = 0x40000000u, kSymMask = 0x3FFFFFFFu;

uint32_t encode_lane(Value v) {
  if (v.is_poison()) throw Refusal("packs the old value returned by an atomic, whose value depends on the order of atomics");
  if (v.is_packed()) throw Refusal("packs a register that already holds two 16-bit lanes into one 16-bit lane");
  if (v.is_concrete()) return kConcreteLane | static_cast<uint32_t>(v.bits & 0xFFFF);
  if (v.sym > kSymMask) throw Refusal("too many expressions to pack a 16-bit lane");
  return v.sym | (v.integer ? kIntegerLane : 0);
}

Value decode_lane(uint32_t x) {
  if (x & kConcreteLane) return Value::of_bits(x & 0xFFFF);
  return Value{0, x & kSymMask, (x & kIntegerLane) != 0};
}

}  // namespace

void Value::throw_packed_as_number() {
  throw Refusal("uses a register holding two 16-bit lanes (packed half-precision data) as one number");
}

Value pack_halves(Value lo, Value hi) {
  if (lo.is_concrete() && hi.is_concrete()) return Value::of_bits((lo.bits & 0xFFFF) | (hi.bits & 0xFFFF) << 16);
  return Value{uint64_t{encode_lane(lo)} | uint64_t{encode_lane(hi)} << 32, Value::kPacked, false};
}

std::array<Value, 2> unpack_halves(Value v) {
  if (v.is_concrete()) return {Value::of_bits(v.bits & 0xFFFF), Value::of_bits(v.bits >> 16 & 0xFFFF)};
  if (v.is_packed()) return {decode_lane(static_cast<uint32_t>(v.bits)), decode_lane(static_cast<uint32_t>(v.bits >> 32))};
  if (v.is_poison()) throw Refusal("splits the old value returned by an atomic, whose value depends on the order of atomics");
  throw Refusal("splits a symbolic 32-bit value into 16-bit halves (a bit-level reinterpretation)");
}

}  // namespace racer::exec
