#include "exec/packed.hpp"

#include "exec/refusal.hpp"

namespace racer::exec {
namespace {

// One lane in 32 bits: bit 31 set: concrete, bits 15:0 hold it; else bit 30 marks integer
// data and bits 29:0 hold the symbolic value's `sym` (expression index + 1).
constexpr uint32_t kConcreteLane = 0x80000000u, kIntegerLane = 0x40000000u, kSymMask = 0x3FFFFFFFu;

// A byte lane of unknown bits: what an arithmetic shift fills in from a symbolic lane's sign.
constexpr uint32_t kOpaqueLane = kConcreteLane | kIntegerLane;

uint32_t encode_lane(Value v, uint64_t lane_mask = 0xFFFF) {
  if (v.is_poison()) throw Refusal("packs the old value returned by an atomic, whose value depends on the order of atomics");
  if (v.is_packed() || v.is_bytes()) throw Refusal("packs a register that already holds two lanes into one lane");
  if (v.is_concrete()) return kConcreteLane | static_cast<uint32_t>(v.bits & lane_mask);
  if (v.sym > kSymMask) throw Refusal("too many expressions to pack a 16-bit lane");
  return v.sym | (v.integer ? kIntegerLane : 0);
}

Value decode_lane(uint32_t x) {
  if (x == kOpaqueLane) throw Refusal("reads bits an arithmetic shift filled in from the sign of a symbolic fp8 value");
  if (x & kConcreteLane) return Value::of_bits(x & 0xFFFF);
  return Value{0, x & kSymMask, (x & kIntegerLane) != 0};
}

using ByteCodes = std::array<uint32_t, 2>;

// The lanes of concrete bits (a 16-bit register's) or of a byte pair; none for anything else.
std::optional<ByteCodes> byte_codes(Value v) {
  if (v.is_concrete()) return ByteCodes{kConcreteLane | static_cast<uint32_t>(v.bits & 0xFF), kConcreteLane | static_cast<uint32_t>(v.bits >> 8 & 0xFF)};
  if (v.is_bytes()) return ByteCodes{static_cast<uint32_t>(v.bits), static_cast<uint32_t>(v.bits >> 32)};
  return std::nullopt;
}

bool known_bits(uint32_t code) { return (code & kConcreteLane) && code != kOpaqueLane; }

Value from_codes(ByteCodes l) {
  if (known_bits(l[0]) && known_bits(l[1])) return Value::of_bits((l[0] & 0xFF) | (l[1] & 0xFF) << 8);
  return Value{uint64_t{l[0]} | uint64_t{l[1]} << 32, Value::kBytes, false};
}

ByteCodes codes_or_refuse(Value v) {
  if (auto c = byte_codes(v)) return *c;
  if (v.is_poison()) throw Refusal("splits the old value returned by an atomic, whose value depends on the order of atomics");
  throw Refusal("splits a symbolic value into bytes (a bit-level reinterpretation)");
}

}  // namespace

void Value::throw_packed_as_number() {
  throw Refusal("uses a register holding two lanes (packed half-precision or fp8 data) as one number");
}

Value pack_bytes(Value lo, Value hi) { return from_codes({encode_lane(lo, 0xFF), encode_lane(hi, 0xFF)}); }

// (A byte lane's concrete code holds 8 bits only: every code is made through byte_codes,
// encode_lane with an 8-bit mask, or a mask or join of such codes.)
Value byte_lane(Value v, unsigned k) { return decode_lane(codes_or_refuse(v)[k]); }

Value bytes_shifted_down(Value v, bool sign_fill) {
  ByteCodes c = codes_or_refuse(v);
  uint32_t fill = kConcreteLane;
  if (sign_fill) fill = !known_bits(c[1]) ? kOpaqueLane : (c[1] & 0x80) ? kConcreteLane | 0xFF : kConcreteLane;
  return from_codes({c[1], fill});
}

Value bytes_shifted_up(Value v) { return from_codes({kConcreteLane, codes_or_refuse(v)[0]}); }

std::optional<Value> bytes_masked(Value v, uint64_t mask) {
  auto c = byte_codes(v);
  if (!c) return std::nullopt;
  for (unsigned k = 0; k < 2; ++k) {
    uint64_t m = mask >> (8 * k) & 0xFF;
    if (m == 0) (*c)[k] = kConcreteLane;
    else if (m != 0xFF && !known_bits((*c)[k])) return std::nullopt;
    else if (m != 0xFF) (*c)[k] = kConcreteLane | ((*c)[k] & static_cast<uint32_t>(m));
  }
  return from_codes(*c);
}

std::optional<Value> bytes_merged(Value a, Value b, bool exclusive) {
  auto ca = byte_codes(a), cb = byte_codes(b);
  if (!ca || !cb) return std::nullopt;
  ByteCodes r;
  for (unsigned k = 0; k < 2; ++k) {
    uint32_t x = (*ca)[k], y = (*cb)[k];
    if (x == kConcreteLane) r[k] = y;
    else if (y == kConcreteLane) r[k] = x;
    else if (known_bits(x) && known_bits(y)) r[k] = kConcreteLane | (exclusive ? (x ^ y) & 0xFF : (x | y) & 0xFF);
    else return std::nullopt;
  }
  return from_codes(r);
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
