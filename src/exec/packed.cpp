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
  if (v.holds_lanes()) throw Refusal("packs a register that already holds lanes into one lane");
  if (v.is_concrete()) return kConcreteLane | static_cast<uint32_t>(v.bits & lane_mask);
  if (v.sym > kSymMask) throw Refusal("too many expressions to pack a 16-bit lane");
  return v.sym | (v.integer ? kIntegerLane : 0);
}

Value decode_lane(uint32_t x) {
  if (x == kOpaqueLane) throw Refusal("reads bits an arithmetic shift filled in from the sign of a symbolic fp8 value");
  if (x & kConcreteLane) return Value::of_bits(x & 0xFFFF);
  return Value{0, x & kSymMask, (x & kIntegerLane) != 0};
}

using Codes = LaneTable::Codes;
constexpr uint32_t kZeroLane = kConcreteLane;

bool known_bits(uint32_t code) { return (code & kConcreteLane) && code != kOpaqueLane; }

// The lanes of concrete bits (a register's low four bytes) or of byte lanes; none for
// anything else.
std::optional<Codes> byte_codes(const LaneTable& table, Value v) {
  if (v.is_concrete()) {
    Codes c;
    for (unsigned k = 0; k < 4; ++k) c[k] = kConcreteLane | static_cast<uint32_t>(v.bits >> (8 * k) & 0xFF);
    return c;
  }
  if (v.is_bytes()) return Codes{static_cast<uint32_t>(v.bits), static_cast<uint32_t>(v.bits >> 32), kZeroLane, kZeroLane};
  if (v.is_quad()) return table.at(v.bits);
  return std::nullopt;
}

// Two lanes with zeros above them: concrete bits where both are known, else a byte pair (it
// fits the Value).
Value from_pair(uint32_t lo, uint32_t hi) {
  if (known_bits(lo) && known_bits(hi)) return Value::of_bits((lo & 0xFF) | (hi & 0xFF) << 8);
  return Value{uint64_t{lo} | uint64_t{hi} << 32, Value::kBytes, false};
}

// A pair where the upper two lanes are zero; concrete bits where every lane is known; else
// the table's entry.
Value from_codes(LaneTable& table, const Codes& l) {
  if (l[2] == kZeroLane && l[3] == kZeroLane) return from_pair(l[0], l[1]);
  if (known_bits(l[0]) && known_bits(l[1]) && known_bits(l[2]) && known_bits(l[3])) {
    uint64_t bits = 0;
    for (unsigned k = 0; k < 4; ++k) bits |= uint64_t{l[k] & 0xFF} << (8 * k);
    return Value::of_bits(bits);
  }
  return Value{table.entry(l), Value::kQuad, false};
}

Codes codes_or_refuse(const LaneTable& table, Value v) {
  if (auto c = byte_codes(table, v)) return *c;
  if (v.is_poison()) throw Refusal("splits the old value returned by an atomic, whose value depends on the order of atomics");
  throw Refusal("splits a symbolic value into bytes (a bit-level reinterpretation)");
}

// The byte that replicates a lane's sign (prmt's sign mode, shr.s): known for known bits.
uint32_t sign_fill_of(uint32_t code) {
  if (!known_bits(code)) return kOpaqueLane;
  return (code & 0x80) ? kConcreteLane | 0xFF : kZeroLane;
}

void check_width(unsigned width) {
  if (width != 2 && width != 4) throw Refusal("byte lanes of a " + std::to_string(8 * width) + "-bit register are not modelled");
}

}  // namespace

size_t LaneTable::Hash::operator()(const Codes& c) const {
  uint64_t h = 0x9E3779B97F4A7C15ull;
  for (uint32_t x : c) h = (h ^ x) * 0xFF51AFD7ED558CCDull;
  return static_cast<size_t>(h ^ (h >> 29));
}

uint64_t LaneTable::entry(const Codes& lanes) {
  auto [it, fresh] = index_.try_emplace(lanes, static_cast<uint32_t>(entries_.size()));
  if (fresh) {
    if (entries_.size() >= UINT32_MAX) throw Refusal("too many registers of symbolic byte lanes");
    entries_.push_back(lanes);
  }
  return it->second;
}

void Value::throw_packed_as_number() {
  throw Refusal("uses a register holding lanes (packed half-precision, fp8 or 8-bit integer data, or one 32-bit word of a 64-bit value) as one number");
}

Value pack_bytes(LaneTable& table, std::span<const Value> lanes) {
  if (lanes.size() != 2 && lanes.size() != 4) throw Refusal("byte lanes of other than 16 or 32 bits are not modelled");
  Codes c{kZeroLane, kZeroLane, kZeroLane, kZeroLane};
  for (size_t k = 0; k < lanes.size(); ++k) c[k] = encode_lane(lanes[k], 0xFF);
  return from_codes(table, c);
}

Value low_byte(LaneTable& table, Value v, bool high_zero) {
  const uint32_t high = high_zero ? kZeroLane : kOpaqueLane;
  return from_codes(table, {encode_lane(v, 0xFF), high, high, high});
}

// (A byte lane's concrete code holds 8 bits only: every code is made through byte_codes,
// encode_lane with an 8-bit mask, or a mask or join of such codes.)
Value byte_lane(const LaneTable& table, Value v, unsigned k) { return decode_lane(codes_or_refuse(table, v).at(k)); }

Value bytes_shifted(LaneTable& table, Value v, unsigned width, unsigned bytes, bool up, bool sign_fill) {
  check_width(width);
  const Codes c = codes_or_refuse(table, v);
  const uint32_t fill = sign_fill ? sign_fill_of(c[width - 1]) : kZeroLane;
  Codes r{kZeroLane, kZeroLane, kZeroLane, kZeroLane};
  for (unsigned k = 0; k < width; ++k) {
    if (up) r[k] = k >= bytes ? c[k - bytes] : kZeroLane;
    else r[k] = k + bytes < width ? c[k + bytes] : fill;
  }
  return from_codes(table, r);
}

std::optional<Value> bytes_masked(LaneTable& table, Value v, uint64_t mask, unsigned width) {
  check_width(width);
  auto c = byte_codes(table, v);
  if (!c) return std::nullopt;
  for (unsigned k = 0; k < 4; ++k) {
    uint64_t m = k < width ? mask >> (8 * k) & 0xFF : 0;
    if (m == 0) (*c)[k] = kZeroLane;
    else if (m != 0xFF && !known_bits((*c)[k])) return std::nullopt;
    else if (m != 0xFF) (*c)[k] = kConcreteLane | ((*c)[k] & static_cast<uint32_t>(m));
  }
  return from_codes(table, *c);
}

std::optional<Value> bytes_merged(LaneTable& table, Value a, Value b, bool exclusive) {
  auto ca = byte_codes(table, a), cb = byte_codes(table, b);
  if (!ca || !cb) return std::nullopt;
  Codes r;
  for (unsigned k = 0; k < 4; ++k) {
    uint32_t x = (*ca)[k], y = (*cb)[k];
    if (x == kZeroLane) r[k] = y;
    else if (y == kZeroLane) r[k] = x;
    else if (known_bits(x) && known_bits(y)) r[k] = kConcreteLane | (exclusive ? (x ^ y) & 0xFF : (x | y) & 0xFF);
    else return std::nullopt;
  }
  return from_codes(table, r);
}

Value bytes_permuted(LaneTable& table, Value a, Value b, uint32_t selector) {
  const Codes ca = codes_or_refuse(table, a), cb = codes_or_refuse(table, b);
  Codes r;
  for (unsigned k = 0; k < 4; ++k) {
    const unsigned s = selector >> (4 * k) & 0xF;
    const uint32_t x = (s & 7) < 4 ? ca[s & 7] : cb[(s & 7) - 4];
    r[k] = (s & 8) ? sign_fill_of(x) : x;
  }
  return from_codes(table, r);
}

Value bytes_truncated(LaneTable& table, Value v, unsigned width, unsigned sign_to) {
  Codes c = codes_or_refuse(table, v);
  const uint32_t fill = sign_fill_of(c[width - 1]);
  for (unsigned k = width; k < 4; ++k) c[k] = k < sign_to ? fill : kZeroLane;
  return from_codes(table, c);
}

Value join_halves(LaneTable& table, Value lo, Value hi) {
  if (!lo.is_bytes() && !hi.is_bytes()) return pack_halves(lo, hi);
  auto half = [&](Value v) {
    if (!v.is_concrete() && !v.is_bytes()) throw Refusal("joins byte lanes with a 16-bit symbolic value into one register");
    return codes_or_refuse(table, v);
  };
  const Codes l = half(lo), h = half(hi);
  return from_codes(table, {l[0], l[1], h[0], h[1]});
}

std::array<Value, 2> split_halves(const LaneTable& table, Value v) {
  if (!v.holds_bytes()) return unpack_halves(v);
  const Codes c = codes_or_refuse(table, v);
  return {from_pair(c[0], c[1]), from_pair(c[2], c[3])};
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
