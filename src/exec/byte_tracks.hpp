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
      if (!page.records) allocate(page, !whole_granules);
      else if (!page.fine && !whole_granules) refine(page);
      const unsigned shift = page.fine ? 0 : kGranuleBits;
      for (uint64_t b = off; b < stop; b += uint64_t{1} << shift)
        if (visit(page.records[(b & kPageMask) >> shift])) return;
      off = stop;
    }
  }
  // The record of byte off without allocating: an empty one where nothing was recorded
  // (or the records were dropped).
  const ByteTrack& peek(uint64_t off) const {
    static const ByteTrack kEmpty{};
    if ((off >> kPageBits) >= pages_.size()) return kEmpty;
    const Page& page = pages_[off >> kPageBits];
    if (!page.records) return kEmpty;
    return page.records[(off & kPageMask) >> (page.fine ? 0 : kGranuleBits)];
  }

 private:
  static constexpr uint64_t kPageBytes = uint64_t{1} << kPageBits;
  static constexpr uint64_t kPageMask = kPageBytes - 1;
  static constexpr uint64_t kGranuleMask = (uint64_t{1} << kGranuleBits) - 1;

  struct Page {
    std::unique_ptr<ByteTrack[]> records;
    bool fine = false;  // one record per byte (else per granule)
  };

  static void allocate(Page& page, bool fine) {
    page.records = std::make_unique<ByteTrack[]>(fine ? kPageBytes : kPageBytes >> kGranuleBits);
    page.fine = fine;
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
