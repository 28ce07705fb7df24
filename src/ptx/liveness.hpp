#pragma once
// Register liveness over a function's control flow, and which operands an instruction
// reads and writes. Used where the engine must know what a later instruction can still
// read: a recognized routine stepped over, or a data-dependent branch's paths merged.
#include <cstdint>
#include <span>
#include <vector>

#include "ptx/ir.hpp"

namespace racer::ptx {

// Registers an instruction reads (guard, sources, address bases) and writes.
void reads_of(const Instr& ins, std::vector<uint32_t>& out);
void writes_of(const Instr& ins, std::vector<uint32_t>& out);

// reads_of and writes_of of every instruction of a function, computed once (a routine's probe
// asks them at every step of every probe run).
class RegisterUse {
 public:
  explicit RegisterUse(const Function& f);
  std::span<const uint32_t> reads(uint32_t pc) const { return {regs_.data() + read_at_[pc], regs_.data() + write_at_[pc]}; }
  std::span<const uint32_t> writes(uint32_t pc) const { return {regs_.data() + write_at_[pc], regs_.data() + read_at_[pc + 1]}; }

 private:
  std::vector<uint32_t> regs_, read_at_, write_at_;  // read_at_ has one entry more: the end
};

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
