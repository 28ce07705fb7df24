#pragma once
// One contiguous piece of memory (a tensor, a CTA's shared memory, a thread's local
// memory, a module variable): its bytes, what each byte holds, and who touched it when.
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "exec/byte_tracks.hpp"
#include "support/zero_page_allocator.hpp"
#include "exec/value.hpp"

namespace racer::exec {

struct IndexedAccesses;

enum class ByteState : uint8_t {
  Uninit,    // never written: reading it is a defect
  Concrete,  // bytes[] holds the value
  Symbolic,  // part of a symbolic value; sym[] holds the node, sym_size[] its size at the start byte
  Input,     // an input cell never overwritten: its value is the cell's symbol
};

struct Region {
  std::string name;        // tensor name, "shared", "local", a variable's name
  uint64_t base = 0;
  uint64_t size = 0;
  int tensor = -1;         // index in the instance's tensors, or -1
  bool readable = true, writable = true;  // what the current launch may do
  bool track_races = true;

  // Zero where nothing has written (ZeroPageAllocator): the parts of a large tensor no access
  // touches, and the symbolic arrays of a concrete run, take no memory.
  template <class T>
  using Bytewise = std::vector<T, support::ZeroPageAllocator<T>>;
  Bytewise<uint8_t> bytes;
  Bytewise<ByteState> state;
  Bytewise<uint32_t> sym;      // node (ExprId index + 1) covering this byte
  Bytewise<uint8_t> sym_size;  // at a symbolic value's first byte: its size, | kIntegerData for integer data
  static constexpr uint8_t kIntegerData = 0x80;
  ByteTracks track;
  // Per byte: how many cp.async copies are writing it (empty until the first one).
  std::vector<uint16_t> in_flight;
  // Every read of a byte since its last write, kept only in a run that replaces racing loads
  // (exec/racing_reads.hpp): ByteTrack remembers two readers, enough to find a race but not
  // every load in one.
  std::unordered_map<uint64_t, std::vector<AccessRecord>> readers_since_write;
  // Accesses at data-dependent addresses in the current launch (exec/indexed_races.hpp).
  std::shared_ptr<IndexedAccesses> indexed;

  // What the engine keeps per byte of a region at most: its value, state and symbol (reserved
  // against the memory limit up front; resident only where written, and access records come
  // a page at a time, when touched).
  static constexpr uint64_t kBytesPerByte = sizeof(uint8_t) + sizeof(ByteState) + sizeof(uint32_t) + sizeof(uint8_t);

  Region(std::string name, uint64_t base, uint64_t size, ByteState initial);
  bool contains(uint64_t addr, uint64_t n) const { return addr >= base && addr + n <= base + size && addr + n >= addr; }
};

}  // namespace racer::exec
