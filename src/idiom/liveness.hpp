#pragma once
// Register liveness over a function's control flow, and which operands an instruction
// reads and writes. A recognized routine may be stepped over only if nothing it computed,
// besides its result, is read afterwards.
#include <cstdint>
#include <vector>

#include "ptx/ir.hpp"

namespace racer::idiom {

// Registers an instruction reads (guard, sources, address bases) and writes.
void reads_of(const ptx::Instr& ins, std::vector<uint32_t>& out);
void writes_of(const ptx::Instr& ins, std::vector<uint32_t>& out);

class Liveness {
 public:
  explicit Liveness(const ptx::Function& f);
  // Whether register r may be read on some path starting at instruction `at` before it is
  // written (an index past the end means nothing is live).
  bool live_at(uint32_t at, uint32_t r) const;

 private:
  size_t words_;
  std::vector<uint64_t> live_in_;  // instrs.size() x words_
};

}  // namespace racer::idiom
