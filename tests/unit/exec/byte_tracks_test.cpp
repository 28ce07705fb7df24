// Access records kept per 4-byte granule until an access splits one: every byte must read back
// the history it would have had with one record per byte.
#include <gtest/gtest.h>

#include <random>
#include <vector>

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

bool same(const ByteTrack& x, const ByteTrack& y) {
  return x.writer == y.writer && x.reader == y.reader && x.other_reader == y.other_reader && x.established == y.established &&
         x.uninit_defect == y.uninit_defect;
}

TEST(ByteTracks, GranulesReadOrWrittenOnceCostAQuarterOfWholeRecords) {
  ByteTracks reads(4096), writes(4096);
  for (uint64_t g = 0; g < 4096; g += 4) {
    AccessRecord r = by(static_cast<uint32_t>(g / 4));
    reads.each(g, 4, [&](ByteTrack& b) { return b.reader = r, false; });
    writes.each(g, 4, [&](ByteTrack& b) { return b.writer = r, b.established = r, false; });
  }
  for (uint64_t g = 0; g < 4096; g += 4) {
    EXPECT_EQ(reads.peek(g + 3).reader.thread, g / 4);
    EXPECT_FALSE(reads.peek(g).writer.valid());
    EXPECT_EQ(writes.peek(g).established.thread, g / 4);
    EXPECT_FALSE(writes.peek(g).reader.valid());
  }
  EXPECT_LE(reads.record_bytes(), 1024u * 22);
  EXPECT_LE(writes.record_bytes(), 1024u * 22);
  // A second reader of another thread needs two records: the page keeps whole ones.
  reads.each(8, 4, [](ByteTrack& b) { return b.other_reader = b.reader, b.reader = by(9999), false; });
  EXPECT_EQ(reads.record_bytes(), 1024u * sizeof(ByteTrack));
  EXPECT_EQ(reads.peek(8).other_reader.thread, 2u);
  EXPECT_EQ(reads.peek(8).reader.thread, 9999u);
  EXPECT_EQ(reads.peek(12).reader.thread, 3u);
}

// Every history, whatever its shape, reads back as it was written: random updates against a
// ByteTrack per granule kept aside.
TEST(ByteTracks, EveryHistoryReadsBackAsWritten) {
  std::mt19937 rng(5);
  for (int round = 0; round < 20; ++round) {
    ByteTracks t(3 * 4096);
    std::vector<ByteTrack> kept(3 * 1024);
    for (int step = 0; step < 400; ++step) {
      const uint64_t g = rng() % kept.size();
      const unsigned n = 1 + rng() % 3;  // granules in the access
      AccessRecord r = by(rng() % 3);
      r.seq = rng() % 2;
      const unsigned what = rng() % (round < 10 ? 3 : 6);  // later rounds: histories that need more
      auto update = [&](ByteTrack& b) {
        switch (what) {
          case 0: b.reader = r; break;
          case 1: b.writer = r, b.established = r; break;
          case 2: b.writer = r; break;
          case 3: b.other_reader = b.reader, b.reader = r; break;
          case 4: b.uninit_defect = 1 + r.thread; break;
          default: b = ByteTrack{}; break;
        }
        return false;
      };
      const uint64_t end = std::min<uint64_t>(g + n, kept.size());
      for (uint64_t k = g; k < end; ++k) update(kept[k]);
      t.each(4 * g, 4 * (end - g), update);
    }
    for (uint64_t b = 0; b < 3 * 4096; ++b) ASSERT_TRUE(same(t.peek(b), kept[b / 4])) << "round " << round << " byte " << b;
  }
}

}  // namespace
}  // namespace racer::exec
