#pragma once
// Registers that hold two 16-bit lanes (f16x2, bf16x2) where a lane is symbolic: tensor-core
// fragments, ldmatrix results, 32-bit loads of half-precision data; and registers of 8-bit
// lanes (e4m3x2/e5m2x2 fp8 data, s8/u8 data moved a word at a time: Triton's int8 tiles,
// bytes gathered through shared memory). The lanes are structure, not arithmetic (DESIGN
// "Semantics"): they can be split again, stored, moved between places by whole bytes, or
// converted lane by lane; using the register as one number is refused.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "exec/value.hpp"

namespace racer::exec {

// Four byte lanes of which at least one is symbolic are more than a Value holds: the session
// keeps them here and the register names the entry (Value::kQuad, bits = the entry). Entries
// are interned (the same lanes, the same entry) and live as long as the session.
class LaneTable {
 public:
  using Codes = std::array<uint32_t, 4>;  // one code per lane (packed.cpp), lane 0 first
  uint64_t entry(const Codes& lanes);
  const Codes& at(uint64_t entry) const { return entries_.at(entry); }

 private:
  struct Hash {
    size_t operator()(const Codes& c) const;
  };
  std::vector<Codes> entries_;
  std::unordered_map<Codes, uint32_t, Hash> index_;
};

// lo is bits 15:0, hi bits 31:16. Two concrete lanes give plain concrete bits.
Value pack_halves(Value lo, Value hi);
// The two lanes of a 32-bit value (concrete bits split; a packed pair decoded). A symbolic
// 32-bit number cannot be split into halves: refused.
std::array<Value, 2> unpack_halves(Value v);
// As pack_halves and unpack_halves, where a half may itself be two byte lanes (int8 data that
// ldmatrix moves as 16-bit elements): the four lanes of one register.
Value join_halves(LaneTable& table, Value lo, Value hi);
std::array<Value, 2> split_halves(const LaneTable& table, Value v);

// Byte lanes from values: lanes[k] is bits 8k+7:8k (each a symbolic value whose low 8 bits
// are the byte, or concrete bits of which the low 8 count); 2 or 4 lanes, the register's
// bits above them zero. All lanes concrete give plain concrete bits.
Value pack_bytes(LaneTable& table, std::span<const Value> lanes);
// A 32-bit register holding one symbolic value in its low byte as lanes: lane 0 the value
// (an fp8 value, or an integer whose low 8 bits are the byte), above it zeros (`high_zero`:
// a zero-extending load, an integer known to lie in [0, 255]) or else bits that must not be
// read (the sign ld.s8 repeats, a wider integer's higher bytes).
Value low_byte(LaneTable& table, Value v, bool high_zero);
// Lane k (0..3) of concrete bits or of byte lanes; bits an arithmetic shift filled with a
// symbolic value's sign are refused, as is any other symbolic value.
Value byte_lane(const LaneTable& table, Value v, unsigned k);
// Whole-byte moves inside a register of `width` bytes (2 or 4): a shift by `bytes` whole
// bytes (shl: up; shr: down, filling with zeros or, for shr.s, the top lane's sign, which
// is unknown for a symbolic lane and may be stored away but never read); `and` with a mask
// whose bytes are 0x00 or 0xFF; `or` and `xor` where each lane has a concrete zero on one
// side; prmt's byte selection (each nibble of `selector` picks one of a's and b's eight
// bytes, or with its bit 3 that byte's sign). Null where a lane's bits would be split.
Value bytes_shifted(LaneTable& table, Value v, unsigned width, unsigned bytes, bool up, bool sign_fill);
std::optional<Value> bytes_masked(LaneTable& table, Value v, uint64_t mask, unsigned width);
std::optional<Value> bytes_merged(LaneTable& table, Value a, Value b, bool exclusive);
Value bytes_permuted(LaneTable& table, Value a, Value b, uint32_t selector);
// The low `width` bytes of a register of byte lanes (a narrowing cvt), the rest zero; or, up to
// byte `sign_to`, the sign of lane width - 1 (a signed type in a wider register).
Value bytes_truncated(LaneTable& table, Value v, unsigned width, unsigned sign_to = 0);
}  // namespace racer::exec
