#pragma once
// Race detection for accesses at data-dependent addresses (exec/indexed_address.hpp). Such an
// access touches each of its candidate cells only under a condition on the indices, so it is
// kept apart from the byte tracks (whose last-writer record a conditional write must not
// replace: the write it would hide may still race) in a list per region and launch: every one
// of them, with its condition. Two accesses race at a cell only where both can name it
// together: their points agree on the index symbols they share.
#include <cstdint>
#include <map>
#include <memory>

#include "exec/access_record.hpp"
#include "exec/indexed_address.hpp"
#include "exec/value.hpp"

namespace racer::exec {

enum class IndexedKind : uint8_t { Read, Write, Atomic };

struct IndexedEntry {
  AccessRecord rec;
  IndexedKind kind = IndexedKind::Read;
  unsigned size = 0;
  std::shared_ptr<const IndexedAddress> access;
  uint32_t candidate = 0;  // in access->candidates
  Value stored;            // Write: the value stored where the condition holds
};

struct IndexedAccesses {
  uint16_t launch = 0;
  // Offset in the region -> entry; reads apart from writes and atomics, so that a read (the
  // common case: a table looked up by every thread) checks only the updates.
  std::multimap<uint64_t, IndexedEntry> reads, updates;
  size_t size() const { return reads.size() + updates.size(); }
  // Entries kept per region and launch before the access is refused (memory).
  static constexpr size_t kMaxEntries = size_t{1} << 20;
};

}  // namespace racer::exec
