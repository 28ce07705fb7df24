// Access records kept per 4-byte granule until an access splits one: every byte must read back
// the history it would have had with one record per byte.
#include <gtest/gtest.h>

#include "exec/byte_tracks.hpp"

namespace racer::exec {
namespace {

AccessRecord by(uint32_t thread) {
  AccessRecord r;
  r.thread = thread;
  return r;
}

unsigned visits(ByteTracks& t, uint64_t off, uint64_t size) {
  unsigned n = 0;
  t.each(off, size, [&](ByteTrack&) { return ++n, false; });
  return n;
}

TEST(ByteTracks, WholeGranuleAccessesShareOneRecordPerGranule) {
  ByteTracks t(8192);
  EXPECT_EQ(visits(t, 16, 4), 1u);
  EXPECT_EQ(visits(t, 32, 16), 4u);
  t.each(16, 4, [](ByteTrack& b) { return b.writer = by(3), false; });
  for (uint64_t k = 16; k < 20; ++k) EXPECT_EQ(t.peek(k).writer.thread, 3u) << k;
  EXPECT_FALSE(t.peek(20).writer.valid());
  EXPECT_FALSE(t.peek(15).writer.valid());
}

TEST(ByteTracks, SplittingAGranuleGivesEachByteItsGranulesHistory) {
  ByteTracks t(8192);
  t.each(0, 8, [](ByteTrack& b) { return b.writer = by(1), false; });
  t.each(4, 4, [](ByteTrack& b) { return b.reader = by(2), false; });
  // A 2-byte access at offset 6: from here on the page keeps one record per byte.
  EXPECT_EQ(visits(t, 6, 2), 2u);
  t.each(6, 2, [](ByteTrack& b) { return b.writer = by(5), false; });
  for (uint64_t k = 0; k < 6; ++k) EXPECT_EQ(t.peek(k).writer.thread, 1u) << k;
  for (uint64_t k = 6; k < 8; ++k) EXPECT_EQ(t.peek(k).writer.thread, 5u) << k;
  for (uint64_t k = 4; k < 8; ++k) EXPECT_EQ(t.peek(k).reader.thread, 2u) << k;
  EXPECT_FALSE(t.peek(3).reader.valid());
  // A whole-granule access on the refined page visits each of its bytes.
  EXPECT_EQ(visits(t, 0, 4), 4u);
  // The next page was never split.
  EXPECT_EQ(visits(t, 4096, 4), 1u);
}

TEST(ByteTracks, AVisitThatStopsLeavesTheRestUntouched) {
  ByteTracks t(8192);
  unsigned seen = 0;
  t.each(0, 16, [&](ByteTrack& b) {
    b.writer = by(7);
    return ++seen == 2;
  });
  EXPECT_EQ(seen, 2u);
  EXPECT_TRUE(t.peek(4).writer.valid());
  EXPECT_FALSE(t.peek(8).writer.valid());
}

TEST(ByteTracks, AnAccessAcrossPagesVisitsBoth) {
  ByteTracks t(8192);
  t.each(4094, 4, [](ByteTrack& b) { return b.writer = by(9), false; });
  for (uint64_t k = 4094; k < 4098; ++k) EXPECT_EQ(t.peek(k).writer.thread, 9u) << k;
  EXPECT_FALSE(t.peek(4098).writer.valid());
  EXPECT_FALSE(t.peek(4093).writer.valid());
}

}  // namespace
}  // namespace racer::exec
