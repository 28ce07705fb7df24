// 64-bit values moved as two 32-bit words (exec/word_halves.hpp): the words come back together
// only as the value they came from, moved by whole words; a word is never one number, and
// joining words of two values, or shifting a word by part of a word, is not a value.
#include <gtest/gtest.h>

#include "exec/refusal.hpp"
#include "exec/word_halves.hpp"

namespace racer::exec {
namespace {

const Value f{0, 7, false};  // symbolic f64 data (expression 6)
const Value g{0, 9, false};
const Value n{0, 13, true};  // symbolic 64-bit integer data
const Value zero = Value::of_bits(0);

TEST(WordHalves, SplitAndJoinedIsTheValue) {
  for (Value v : {f, n}) {
    auto w = words_split(v);
    EXPECT_TRUE(w[0].is_word());
    EXPECT_TRUE(w[1].is_word());
    EXPECT_NE(w[0], w[1]);
    EXPECT_THROW(w[0].expr(), Refusal) << "a word is not a number";
    auto joined = words_joined(w[0], w[1]);
    ASSERT_TRUE(joined);
    EXPECT_EQ(*joined, v) << "integer data stays integer data";
  }
}

TEST(WordHalves, WordsInTheWrongPlaceOrOfTwoValuesAreNoValue) {
  auto a = words_split(f), b = words_split(g);
  EXPECT_FALSE(words_joined(a[1], a[0])) << "swapped words";
  EXPECT_FALSE(words_joined(a[0], b[1])) << "words of two values";
  EXPECT_FALSE(words_joined(a[0], a[0]));
  EXPECT_FALSE(words_joined(a[0], Value::of_bits(5))) << "a word beside other bits";
}

TEST(WordHalves, ConcreteBitsSplitAndJoinAsBits) {
  auto w = words_split(Value::of_bits(0x1234567889ABCDEFull));
  EXPECT_EQ(w[0], Value::of_bits(0x89ABCDEF));
  EXPECT_EQ(w[1], Value::of_bits(0x12345678));
  EXPECT_EQ(words_joined(w[0], w[1]), Value::of_bits(0x1234567889ABCDEFull));
}

TEST(WordHalves, TritonsShiftAndOrJoin) {
  // lo = cvt.u32.u64 v; hi = shr.u64 v, 32 then cvt.u32.u64; rejoined by cvt.u64.u32, shl.b64 32, or.b64.
  Value lo = word_truncated(Value{f});
  EXPECT_EQ(lo, words_split(f)[0]);
  auto hi64 = word_shifted(f, 32, false);
  ASSERT_TRUE(hi64);
  Value hi = word_truncated(*hi64);
  EXPECT_EQ(hi, words_split(f)[1]);
  auto placed = word_shifted(hi, 32, true);
  ASSERT_TRUE(placed);
  EXPECT_EQ(word_truncated(*placed), zero) << "the low 32 bits of a word shifted up are zeros";
  EXPECT_EQ(words_merged(lo, *placed), f);
  EXPECT_EQ(words_merged(*placed, lo), f) << "or is symmetric";
  EXPECT_EQ(words_merged(lo, zero), lo);
  EXPECT_FALSE(words_merged(lo, lo)) << "both sides hold bits of the low word";
  EXPECT_FALSE(words_merged(hi, *placed)) << "the high word where the low one belongs";
}

TEST(WordHalves, ShiftsByPartOfAWordAreNoWord) {
  Value lo = words_split(f)[0];
  EXPECT_FALSE(word_shifted(lo, 8, true));
  EXPECT_FALSE(word_shifted(f, 16, false));
  EXPECT_EQ(word_shifted(lo, 64, true), zero);
  EXPECT_EQ(word_shifted(lo, 32, false), zero) << "a word in the low 32 bits has zeros above";
  EXPECT_EQ(word_shifted(lo, 0, true), lo);
}

TEST(WordHalves, OnlyASymbolicValueSplits) {
  Value lanes{0, Value::kPacked, false};
  EXPECT_THROW(word_of(lanes, false), Refusal);
  EXPECT_THROW(word_of(Value::poison(), true), Refusal);
}

}  // namespace
}  // namespace racer::exec
