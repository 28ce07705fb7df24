// Registers of two fp8 lanes (exec/packed.hpp): what st.b8, shr.s16 by 8, masks and or make
// of them, and where they refuse (a bit inside a symbolic lane, a sign filled from one).
#include <gtest/gtest.h>

#include "exec/packed.hpp"
#include "exec/refusal.hpp"

namespace racer::exec {
namespace {

const Value x{0, 7, false};  // symbolic fp8 data (expression 6)
const Value y{0, 9, false};

TEST(PackedBytes, ConcreteLanesGiveConcreteBits) {
  EXPECT_EQ(pack_bytes(Value::of_bits(0x1234), Value::of_bits(0xAB)), Value::of_bits(0xAB34));
  EXPECT_EQ(byte_lane(Value::of_bits(0xAB34), 0), Value::of_bits(0x34));
  EXPECT_EQ(byte_lane(Value::of_bits(0xAB34), 1), Value::of_bits(0xAB));
}

TEST(PackedBytes, LanesComeBackWhereTheyWerePut) {
  Value p = pack_bytes(x, Value::of_bits(0x40));
  EXPECT_TRUE(p.is_bytes());
  EXPECT_EQ(byte_lane(p, 0), x);
  EXPECT_EQ(byte_lane(p, 1), Value::of_bits(0x40));
  EXPECT_THROW(p.expr(), Refusal) << "two lanes are not one number";
}

TEST(PackedBytes, ShiftsMoveWholeLanes) {
  Value p = pack_bytes(y, x);
  Value down = bytes_shifted_down(p, false);
  EXPECT_EQ(byte_lane(down, 0), x);
  EXPECT_EQ(byte_lane(down, 1), Value::of_bits(0));
  Value up = bytes_shifted_up(p);
  EXPECT_EQ(byte_lane(up, 0), Value::of_bits(0));
  EXPECT_EQ(byte_lane(up, 1), y);
}

TEST(PackedBytes, AnArithmeticShiftFillsBitsThatMustNotBeRead) {
  Value down = bytes_shifted_down(pack_bytes(y, x), true);  // shr.s16 by 8
  EXPECT_EQ(byte_lane(down, 0), x) << "st.b8 of the result stores the upper lane";
  EXPECT_THROW(byte_lane(down, 1), Refusal) << "the sign of a symbolic fp8 value is not known";
  EXPECT_EQ(byte_lane(bytes_shifted_down(pack_bytes(x, Value::of_bits(0x80)), true), 1), Value::of_bits(0xFF))
      << "a concrete lane's sign is";
}

TEST(PackedBytes, MasksOfWholeBytesAndJoinsOfDisjointLanes) {
  Value p = pack_bytes(x, y);
  auto low = bytes_masked(p, 0x00FF);
  ASSERT_TRUE(low);
  EXPECT_EQ(byte_lane(*low, 0), x);
  EXPECT_EQ(byte_lane(*low, 1), Value::of_bits(0));
  EXPECT_FALSE(bytes_masked(p, 0x000F)) << "a mask inside a symbolic lane";
  auto joined = bytes_merged(*low, bytes_shifted_up(pack_bytes(y, Value::of_bits(0))), false);
  ASSERT_TRUE(joined);
  EXPECT_EQ(byte_lane(*joined, 0), x);
  EXPECT_EQ(byte_lane(*joined, 1), y);
  EXPECT_FALSE(bytes_merged(p, p, false)) << "two symbolic values in one lane";
  EXPECT_FALSE(bytes_merged(p, Value{0, 11, false}, false)) << "a symbolic value that is not lanes";
}

}  // namespace
}  // namespace racer::exec
