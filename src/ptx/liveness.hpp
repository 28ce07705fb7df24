#pragma once
// Register liveness over a function's control flow, and which operands an instruction
// reads and writes. Used where the engine must know what a later instruction can still
// read: a recognized routine stepped over, or a data-dependent branch's paths merged.
#include <cstdint>
#include <vector>

#include "ptx/ir.hpp"

namespace racer::ptx {

// Registers an instruction reads (guard, sources, address bases) and writes.
void reads_of(const Instr& ins, std::vector<uint32_t>& out);
void writes_of(const Instr& ins, std::vector<uint32_t>& out);

class Liveness {
 public:
  explicit Liveness(const Function& f);
  // Whether register r may be read on some path starting at instruction `at` before it is
  // written (an index past the end means nothing is live).
  bool live_at(uint32_t at, uint32_t r) const;

 private:
  size_t words_;
  std::vector<uint64_t> live_in_;  // instrs.size() x words_
};

}  // namespace racer::ptx
