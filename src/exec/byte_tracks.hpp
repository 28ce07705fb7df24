#pragma once
// The access records of a region's bytes, allocated a page at a time when a byte of the page
// is first recorded: a tensor of which the kernels touch a few cells costs records for those
// pages only, and nothing is paid before execution for what may never be touched.
//
// A page starts with one record per 4-byte granule: while every access to the page covers
// whole granules (f32, u32, vectors of them), the bytes of a granule share one history, so one
// record is exactly what four would hold. The first access that splits a granule (a 1- or
// 2-byte access, or one at an odd offset) gives the page one record per byte, each a copy of
// its granule's, from then on.
//
// A granule page starts compact: one access record per granule and the roles it plays (the
// writer, the reader, the write that established the value), 21 bytes instead of a whole
// ByteTrack's 84. Most granules of an elementwise kernel's tensors are read once or written
// once, and a compact record holds exactly that. The first granule whose history needs more
// (a second reader, a read after another thread's write, a pending uninitialized read)
// turns the page into whole ByteTracks, each holding what its compact record held.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "exec/access_record.hpp"

namespace racer::exec {

class ByteTracks {
 public:
  static constexpr unsigned kPageBits = 12;
  static constexpr unsigned kGranuleBits = 2;

  explicit ByteTracks(uint64_t size) : pages_((size + kPageBytes - 1) >> kPageBits) {}

  // Calls visit(ByteTrack&) for the records of bytes [off, off + size), one per granule where
  // the page keeps granules, until visit returns true.
  template <class Visit>
  void each(uint64_t off, uint64_t size, Visit&& visit) {
    const uint64_t end = off + size;
    while (off < end) {
      const uint64_t stop = std::min(end, ((off >> kPageBits) + 1) << kPageBits);
      Page& page = pages_[off >> kPageBits];
      const bool whole_granules = ((off | stop) & kGranuleMask) == 0;
      if (!page.records && !page.compact) {
        if (whole_granules) page.compact = std::make_unique<CompactPage>();
        else allocate(page, true);
      } else if (!page.fine && !whole_granules) {
        if (page.compact) expand(page);
        refine(page);
      }
      uint64_t b = off;
      for (; page.compact && b < stop; b += uint64_t{1} << kGranuleBits) {
        const uint64_t i = (b & kPageMask) >> kGranuleBits;
        ByteTrack t = page.compact->get(i);
        const bool done = visit(t);
        if (!page.compact->put(i, t)) {
          expand(page);
          page.records[i] = t;
        }
        if (done) return;
      }
      const unsigned shift = page.fine ? 0 : kGranuleBits;
      for (; b < stop; b += uint64_t{1} << shift)
        if (visit(page.records[(b & kPageMask) >> shift])) return;
      off = stop;
    }
  }
  // The bytes the records hold now.
  size_t record_bytes() const {
    size_t n = 0;
    for (const Page& p : pages_)
      n += p.compact ? sizeof(CompactPage) : p.records ? (p.fine ? kPageBytes : kGranules) * sizeof(ByteTrack) : 0;
    return n;
  }
  // The record of byte off without allocating: an empty one where nothing was recorded
  // (or the records were dropped).
  ByteTrack peek(uint64_t off) const {
    if ((off >> kPageBits) >= pages_.size()) return {};
    const Page& page = pages_[off >> kPageBits];
    if (page.compact) return page.compact->get((off & kPageMask) >> kGranuleBits);
    if (!page.records) return {};
    return page.records[(off & kPageMask) >> (page.fine ? 0 : kGranuleBits)];
  }

 private:
  static constexpr uint64_t kPageBytes = uint64_t{1} << kPageBits;
  static constexpr uint64_t kPageMask = kPageBytes - 1;
  static constexpr uint64_t kGranuleMask = (uint64_t{1} << kGranuleBits) - 1;
  static constexpr uint64_t kGranules = kPageBytes >> kGranuleBits;

  // One record per granule and the roles it plays there (kWriter | kReader | kEstablished;
  // 0: nothing recorded).
  struct CompactPage {
    static constexpr uint8_t kWriter = 1, kReader = 2, kEstablished = 4;
    AccessRecord record[kGranules];
    uint8_t roles[kGranules] = {};

    ByteTrack get(uint64_t i) const {
      ByteTrack t;
      if (roles[i] & kWriter) t.writer = record[i];
      if (roles[i] & kReader) t.reader = record[i];
      if (roles[i] & kEstablished) t.established = record[i];
      return t;
    }
    // Keeps t here if one record holds it; false (and nothing changed) where it needs more.
    bool put(uint64_t i, const ByteTrack& t) {
      if (t.other_reader.valid() || t.uninit_defect) return false;
      const AccessRecord* one = nullptr;
      uint8_t r = 0;
      for (auto [rec, role] : {std::pair{&t.writer, kWriter}, {&t.reader, kReader}, {&t.established, kEstablished}}) {
        if (!rec->valid()) continue;
        if (one && !(*one == *rec)) return false;
        one = rec;
        r |= role;
      }
      if (one) record[i] = *one;
      roles[i] = r;
      return true;
    }
  };

  struct Page {
    std::unique_ptr<CompactPage> compact;  // a granule page while one record per granule holds its history
    std::unique_ptr<ByteTrack[]> records;
    bool fine = false;  // one record per byte (else per granule)
  };

  static void allocate(Page& page, bool fine) {
    page.records = std::make_unique<ByteTrack[]>(fine ? kPageBytes : kGranules);
    page.fine = fine;
  }
  static void expand(Page& page) {
    allocate(page, false);
    for (uint64_t i = 0; i < kGranules; ++i) page.records[i] = page.compact->get(i);
    page.compact.reset();
  }
  static void refine(Page& page) {
    auto bytes = std::make_unique<ByteTrack[]>(kPageBytes);
    for (uint64_t b = 0; b < kPageBytes; ++b) bytes[b] = page.records[b >> kGranuleBits];
    page.records = std::move(bytes);
    page.fine = true;
  }

  std::vector<Page> pages_;
};

}  // namespace racer::exec
