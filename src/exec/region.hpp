#pragma once
// One contiguous piece of memory (a tensor, a CTA's shared memory, a thread's local
// memory, a module variable): its bytes, what each byte holds, and who touched it when.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "exec/value.hpp"

namespace racer::exec {

enum class ByteState : uint8_t {
  Uninit,    // never written: reading it is a defect
  Concrete,  // bytes[] holds the value
  Symbolic,  // part of a symbolic value; sym[] holds the node, sym_size[] its size at the start byte
  Input,     // an input cell never overwritten: its value is the cell's symbol
};

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
  bool valid() const { return thread != kNone; }
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

struct Region {
  std::string name;        // tensor name, "shared", "local", a variable's name
  uint64_t base = 0;
  uint64_t size = 0;
  int tensor = -1;         // index in the instance's tensors, or -1
  bool readable = true, writable = true;  // what the current launch may do
  bool track_races = true;

  std::vector<uint8_t> bytes;
  std::vector<ByteState> state;
  std::vector<uint32_t> sym;      // node (ExprId index + 1) covering this byte
  std::vector<uint8_t> sym_size;  // at a symbolic value's first byte: its size, | kIntegerData for integer data
  static constexpr uint8_t kIntegerData = 0x80;
  std::vector<ByteTrack> track;
  // Per byte: how many cp.async copies are writing it (empty until the first one).
  std::vector<uint16_t> in_flight;
  // Every read of a byte since its last write, kept only in a run that replaces racing loads
  // (exec/racing_reads.hpp): ByteTrack remembers two readers, enough to find a race but not
  // every load in one.
  std::unordered_map<uint64_t, std::vector<AccessRecord>> readers_since_write;

  // What the engine keeps per byte of a region: its value, state, symbol and access record.
  static constexpr uint64_t kBytesPerByte =
      sizeof(uint8_t) + sizeof(ByteState) + sizeof(uint32_t) + sizeof(uint8_t) + sizeof(ByteTrack);

  Region(std::string name, uint64_t base, uint64_t size, ByteState initial);
  bool contains(uint64_t addr, uint64_t n) const { return addr >= base && addr + n <= base + size && addr + n >= addr; }
};

}  // namespace racer::exec
