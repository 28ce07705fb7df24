#include "ptx/liveness.hpp"

namespace racer::ptx {
namespace {

// Operand roles from the opcode table's operand shapes (see ptx/opcodes.cpp).
bool is_destination_slot(const Instr& ins, size_t i) {
  std::string_view spec = op_info(ins.op).operands;
  size_t slot = 0;
  for (size_t k = 0; k < spec.size();) {
    if (spec[k] == ' ') {
      ++k;
      continue;
    }
    if (slot == i) return spec[k] == 'd' || spec[k] == 'e' || spec[k] == 'q';
    k += 2;
    if (k < spec.size() && spec[k] == '?') ++k;
    ++slot;
  }
  return false;
}

void registers_in(const Operand& op, std::vector<uint32_t>& out) {
  if (op.kind == Operand::Kind::Reg) out.push_back(op.index);
  for (const auto& e : op.elems) registers_in(e, out);
}

}  // namespace

void reads_of(const Instr& ins, std::vector<uint32_t>& out) {
  out.clear();
  if (ins.has_guard) out.push_back(ins.guard);
  for (size_t i = 0; i < ins.operands.size(); ++i) {
    const Operand& op = ins.operands[i];
    if (is_destination_slot(ins, i)) {
      // A destination's address-free parts are written, not read.
      continue;
    }
    registers_in(op, out);
  }
}

void writes_of(const Instr& ins, std::vector<uint32_t>& out) {
  out.clear();
  for (size_t i = 0; i < ins.operands.size(); ++i)
    if (is_destination_slot(ins, i)) registers_in(ins.operands[i], out);
}

RegisterUse::RegisterUse(const Function& f) {
  std::vector<uint32_t> regs;
  for (const Instr& ins : f.instrs) {
    read_at_.push_back(static_cast<uint32_t>(regs_.size()));
    reads_of(ins, regs);
    regs_.insert(regs_.end(), regs.begin(), regs.end());
    write_at_.push_back(static_cast<uint32_t>(regs_.size()));
    writes_of(ins, regs);
    regs_.insert(regs_.end(), regs.begin(), regs.end());
  }
  read_at_.push_back(static_cast<uint32_t>(regs_.size()));
}

Liveness::Liveness(const Function& f) {
  size_t n = f.instrs.size();
  words_ = (f.regs.size() + 63) / 64;
  live_in_.assign((n + 1) * words_, 0);
  std::vector<uint32_t> reads, writes;
  std::vector<uint64_t> out(words_);
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t i = n; i-- > 0;) {
      const Instr& ins = f.instrs[i];
      std::fill(out.begin(), out.end(), 0);
      auto merge = [&](size_t succ) {
        for (size_t w = 0; w < words_; ++w) out[w] |= live_in_[succ * words_ + w];
      };
      bool ends = (ins.op == Op::Ret || ins.op == Op::Exit || ins.op == Op::Trap) && !ins.has_guard;
      if (ins.op == Op::Bra) {
        merge(f.labels[ins.operands[0].index].target);
        if (ins.has_guard) merge(i + 1);
      } else if (!ends) {
        merge(i + 1);
      }
      writes_of(ins, writes);
      if (!ins.has_guard)
        for (uint32_t r : writes) out[r / 64] &= ~(uint64_t{1} << (r % 64));
      reads_of(ins, reads);
      for (uint32_t r : reads) out[r / 64] |= uint64_t{1} << (r % 64);
      for (size_t w = 0; w < words_; ++w) {
        uint64_t& cell = live_in_[i * words_ + w];
        if (cell != out[w]) cell = out[w], changed = true;
      }
    }
  }
}

bool Liveness::live_at(uint32_t at, uint32_t r) const {
  if (static_cast<size_t>(at) * words_ >= live_in_.size()) return false;
  return live_in_[static_cast<size_t>(at) * words_ + r / 64] >> (r % 64) & 1;
}

}  // namespace racer::ptx
