#pragma once
// What race detection remembers of an access, and of a byte.
#include <cstdint>

namespace racer::exec {

// One access for race detection. Threads are numbered across the launch (cta * threads + tid).
struct AccessRecord {
  static constexpr uint32_t kNone = UINT32_MAX;
  // Writers from here on are not threads but the landings of an mbarrier's bulk copies
  // (Mbarrier::landing_writer): far above any launch's thread count.
  static constexpr uint32_t kAsyncWriterBase = 0x80000000u;
  uint32_t thread = kNone;
  uint32_t epoch = 0;       // the CTA's barrier epoch (unique across the program's run)
  uint16_t warp_epoch = 0;  // the warp's bar.warp.sync epoch
  uint16_t launch = 0;
  uint32_t seq = 0;         // order of the access in the engine's run
  uint32_t instr = kNone;   // the accessing instruction (index in the launch's function), to name it in a race
  bool valid() const { return thread != kNone; }
  bool operator==(const AccessRecord&) const = default;
};

struct ByteTrack {
  AccessRecord writer, reader, other_reader;  // two readers of distinct threads suffice
  // The write that gave the bytes their current value: re-storing the same value does not
  // change what a reader sees, so it does not replace this one.
  AccessRecord established;
  // The pending uninitialized read (index + 1) the last reader made here: if a write races
  // with that read, the read was only uninitialized in the engine's schedule, and the race
  // is the defect to report.
  uint32_t uninit_defect = 0;
};

}  // namespace racer::exec
