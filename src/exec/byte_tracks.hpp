#pragma once
// The access records of a region's bytes, allocated a page at a time when a byte of the page
// is first recorded: a tensor of which the kernels touch a few cells costs records for those
// pages only, and nothing is paid before execution for what may never be touched.
#include <cstdint>
#include <memory>
#include <vector>

#include "exec/access_record.hpp"

namespace racer::exec {

class ByteTracks {
 public:
  static constexpr unsigned kPageBits = 12;

  explicit ByteTracks(uint64_t size) : pages_((size + (uint64_t{1} << kPageBits) - 1) >> kPageBits) {}

  // The record of byte off, its page allocated (empty records) if this is the page's first.
  ByteTrack& operator[](uint64_t off) {
    std::unique_ptr<ByteTrack[]>& page = pages_[off >> kPageBits];
    if (!page) page = std::make_unique<ByteTrack[]>(uint64_t{1} << kPageBits);
    return page[off & ((uint64_t{1} << kPageBits) - 1)];
  }
  // The record of byte off without allocating: an empty one where nothing was recorded.
  const ByteTrack& peek(uint64_t off) const {
    static const ByteTrack kEmpty{};
    const std::unique_ptr<ByteTrack[]>& page = pages_[off >> kPageBits];
    return page ? page[off & ((uint64_t{1} << kPageBits) - 1)] : kEmpty;
  }

 private:
  std::vector<std::unique_ptr<ByteTrack[]>> pages_;
};

}  // namespace racer::exec
