// Registers of byte lanes (exec/packed.hpp): two fp8 lanes, and four s8/u8/fp8 lanes of a
// 32-bit register (held in the session's LaneTable); what st.b8, whole-byte shifts, masks,
// or, prmt and ldmatrix's halves make of them, and where they refuse (a bit inside a
// symbolic lane, a sign filled from one).
#include <gtest/gtest.h>

#include <array>

#include "exec/packed.hpp"
#include "exec/refusal.hpp"

namespace racer::exec {
namespace {

const Value x{0, 7, false};  // symbolic fp8 data (expression 6)
const Value y{0, 9, false};
const Value i8{0, 13, true};  // symbolic integer data (an s8 or u8 element)
const Value zero = Value::of_bits(0);

Value pair(LaneTable& t, Value lo, Value hi) {
  const Value l[2] = {lo, hi};
  return pack_bytes(t, l);
}

Value quad(LaneTable& t, Value a, Value b, Value c, Value d) {
  const Value l[4] = {a, b, c, d};
  return pack_bytes(t, l);
}

TEST(PackedBytes, ConcreteLanesGiveConcreteBits) {
  LaneTable t;
  EXPECT_EQ(pair(t, Value::of_bits(0x1234), Value::of_bits(0xAB)), Value::of_bits(0xAB34));
  EXPECT_EQ(quad(t, Value::of_bits(1), Value::of_bits(2), Value::of_bits(3), Value::of_bits(4)), Value::of_bits(0x04030201));
  EXPECT_EQ(byte_lane(t, Value::of_bits(0xAB34), 0), Value::of_bits(0x34));
  EXPECT_EQ(byte_lane(t, Value::of_bits(0xAB34), 1), Value::of_bits(0xAB));
}

TEST(PackedBytes, LanesComeBackWhereTheyWerePut) {
  LaneTable t;
  Value p = pair(t, x, Value::of_bits(0x40));
  EXPECT_TRUE(p.is_bytes());
  EXPECT_EQ(byte_lane(t, p, 0), x);
  EXPECT_EQ(byte_lane(t, p, 1), Value::of_bits(0x40));
  EXPECT_EQ(byte_lane(t, p, 2), zero) << "a pair's register is zero above it";
  EXPECT_THROW(p.expr(), Refusal) << "two lanes are not one number";
  Value q = quad(t, x, y, i8, Value::of_bits(0x7F));
  EXPECT_TRUE(q.is_quad());
  EXPECT_EQ(byte_lane(t, q, 2), i8);
  EXPECT_EQ(byte_lane(t, q, 3), Value::of_bits(0x7F));
  EXPECT_THROW(q.expr(), Refusal) << "four lanes are not one number";
  EXPECT_EQ(quad(t, x, y, i8, Value::of_bits(0x7F)), q) << "the same lanes name the same entry";
  EXPECT_TRUE(quad(t, x, y, zero, zero).is_bytes()) << "four lanes whose upper two are zero fit a pair";
}

TEST(PackedBytes, ShiftsMoveWholeLanes) {
  LaneTable t;
  Value p = pair(t, y, x);
  Value down = bytes_shifted(t, p, 2, 1, false, false);
  EXPECT_EQ(byte_lane(t, down, 0), x);
  EXPECT_EQ(byte_lane(t, down, 1), zero);
  Value up = bytes_shifted(t, p, 2, 1, true, false);
  EXPECT_EQ(byte_lane(t, up, 0), zero);
  EXPECT_EQ(byte_lane(t, up, 1), y);
  EXPECT_EQ(byte_lane(t, up, 2), zero) << "shl.b16 drops what leaves the 16 bits";
  Value q = quad(t, x, y, i8, zero);
  Value down2 = bytes_shifted(t, q, 4, 2, false, false);  // shr.u32 by 16
  EXPECT_EQ(byte_lane(t, down2, 0), i8);
  EXPECT_EQ(byte_lane(t, down2, 1), zero);
  Value up3 = bytes_shifted(t, q, 4, 3, true, false);  // shl.b32 by 24
  EXPECT_EQ(byte_lane(t, up3, 3), x);
  EXPECT_EQ(byte_lane(t, up3, 0), zero);
}

TEST(PackedBytes, AnArithmeticShiftFillsBitsThatMustNotBeRead) {
  LaneTable t;
  Value down = bytes_shifted(t, pair(t, y, x), 2, 1, false, true);  // shr.s16 by 8
  EXPECT_EQ(byte_lane(t, down, 0), x) << "st.b8 of the result stores the upper lane";
  EXPECT_THROW(byte_lane(t, down, 1), Refusal) << "the sign of a symbolic fp8 value is not known";
  EXPECT_EQ(byte_lane(t, bytes_shifted(t, pair(t, x, Value::of_bits(0x80)), 2, 1, false, true), 1), Value::of_bits(0xFF))
      << "a concrete lane's sign is";
  Value low = low_byte(t, i8, false);  // ld.s8 into a 32-bit register
  EXPECT_EQ(byte_lane(t, low, 0), i8);
  EXPECT_THROW(byte_lane(t, low, 3), Refusal) << "the sign ld.s8 repeats is not known";
  EXPECT_EQ(byte_lane(t, low_byte(t, i8, true), 3), zero);
}

TEST(PackedBytes, MasksOfWholeBytesAndJoinsOfDisjointLanes) {
  LaneTable t;
  Value p = pair(t, x, y);
  auto low = bytes_masked(t, p, 0x00FF, 2);
  ASSERT_TRUE(low);
  EXPECT_EQ(byte_lane(t, *low, 0), x);
  EXPECT_EQ(byte_lane(t, *low, 1), zero);
  EXPECT_FALSE(bytes_masked(t, p, 0x000F, 2)) << "a mask inside a symbolic lane";
  auto joined = bytes_merged(t, *low, bytes_shifted(t, pair(t, y, zero), 2, 1, true, false), false);
  ASSERT_TRUE(joined);
  EXPECT_EQ(byte_lane(t, *joined, 0), x);
  EXPECT_EQ(byte_lane(t, *joined, 1), y);
  EXPECT_FALSE(bytes_merged(t, p, p, false)) << "two symbolic values in one lane";
  EXPECT_FALSE(bytes_merged(t, p, Value{0, 11, false}, false)) << "a symbolic value that is not lanes";
  auto third = bytes_masked(t, quad(t, x, y, i8, zero), 0x00FF0000, 4);
  ASSERT_TRUE(third);
  EXPECT_EQ(byte_lane(t, *third, 2), i8);
  EXPECT_EQ(byte_lane(t, *third, 0), zero);
}

TEST(PackedBytes, PrmtSelectsBytesOfBothOperands) {
  LaneTable t;
  // Triton's int8 packing: prmt(a, b, 0x3340) puts a's and b's low bytes side by side (a's
  // byte 3 is zero: a value in [0, 255]); prmt(lo, hi, 0x5410) joins two such halves.
  Value a = low_byte(t, i8, true), b = low_byte(t, x, true);
  Value lo = bytes_permuted(t, a, b, 0x3340);
  EXPECT_EQ(byte_lane(t, lo, 0), i8);
  EXPECT_EQ(byte_lane(t, lo, 1), x);
  EXPECT_EQ(byte_lane(t, lo, 2), zero);
  Value hi = bytes_permuted(t, low_byte(t, y, true), Value::of_bits(0x55), 0x3340);
  Value word = bytes_permuted(t, lo, hi, 0x5410);
  const std::array<Value, 4> want = {i8, x, y, Value::of_bits(0x55)};
  for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(byte_lane(t, word, k), want[k]) << "lane " << k;
  // torchao's extraction of byte 2 (selector 0x7772: byte 2 of a, then b's zeros).
  EXPECT_EQ(byte_lane(t, bytes_permuted(t, word, zero, 0x7772), 0), y);
  EXPECT_THROW(byte_lane(t, bytes_permuted(t, word, zero, 0x0008), 0), Refusal) << "the sign of a symbolic lane";
  EXPECT_EQ(bytes_permuted(t, Value::of_bits(0x80), zero, 0x4448), Value::of_bits(0xFF)) << "a concrete byte's sign";
}

TEST(PackedBytes, HalvesOfBytePairsJoinIntoFourLanes) {
  LaneTable t;
  Value q = join_halves(t, pair(t, x, y), pair(t, i8, Value::of_bits(3)));
  ASSERT_TRUE(q.is_quad());
  EXPECT_EQ(byte_lane(t, q, 1), y);
  EXPECT_EQ(byte_lane(t, q, 2), i8);
  auto halves = split_halves(t, q);
  EXPECT_EQ(byte_lane(t, halves[0], 0), x);
  EXPECT_EQ(byte_lane(t, halves[1], 1), Value::of_bits(3));
  EXPECT_EQ(bytes_truncated(t, q, 2), pair(t, x, y)) << "cvt.u16.u32 keeps the low two lanes";
  EXPECT_THROW(join_halves(t, pair(t, x, y), Value{0, 11, false}), Refusal) << "a 16-bit symbolic value is no byte pair";
}

}  // namespace
}  // namespace racer::exec
