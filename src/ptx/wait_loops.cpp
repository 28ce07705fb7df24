#include "ptx/wait_loops.hpp"

#include <map>
#include <set>
#include <utility>
#include <vector>

#include "ptx/effects.hpp"
#include "ptx/liveness.hpp"
#include "ptx/modifiers.hpp"
#include "ptx/opcodes.hpp"

namespace racer::ptx {

namespace {

constexpr int kMaxSteps = 64;

// A register whose value follows from the outcome alone: its value when the phase has not
// completed, and when it has.
using Outcomes = std::pair<int64_t, int64_t>;

// The registers an instruction reads and writes (operand roles from the opcode table), as sets.
std::set<uint32_t> sources(const Instr& ins) {
  std::vector<uint32_t> regs;
  reads_of(ins, regs);
  return {regs.begin(), regs.end()};
}

std::set<uint32_t> destinations(const Instr& ins) {
  std::vector<uint32_t> regs;
  writes_of(ins, regs);
  return {regs.begin(), regs.end()};
}

std::string at(const Function& f, uint32_t i) {
  return std::string(op_name(f.instrs[i].op)) + " (instruction " + std::to_string(i) + ")";
}

bool compare(uint8_t cmp, int64_t a, int64_t b, bool is_signed) {
  uint64_t ua = uint64_t(a), ub = uint64_t(b);
  switch (cmp) {
    case cmp::EQ: return a == b;
    case cmp::NE: return a != b;
    case cmp::LT: return is_signed ? a < b : ua < ub;
    case cmp::LE: return is_signed ? a <= b : ua <= ub;
    case cmp::GT: return is_signed ? a > b : ua > ub;
    case cmp::GE: return is_signed ? a >= b : ua >= ub;
    case cmp::LO: return ua < ub;
    case cmp::LS: return ua <= ub;
    case cmp::HI: return ua > ub;
    case cmp::HS: return ua >= ub;
    default: return false;
  }
}

class WaitLoop {
 public:
  WaitLoop(const Function& f, uint32_t wait) : f_(f), wait_(wait) {}

  std::optional<std::string> check() {
    const Operand& dest = f_.instrs[wait_].operands[0];
    const Operand& flag = dest.kind == Operand::Kind::Pair ? dest.elems[0] : dest;
    if (flag.kind != Operand::Kind::Reg) return "its outcome is discarded, so the wait does not block";
    outcome_[flag.index] = {0, 1};
    loop_.insert(wait_);
    // From the wait to the branch the outcome decides: register-only code, in which the
    // outcome flows only through selp, setp, mov and not.
    uint32_t i = wait_ + 1;
    std::optional<uint32_t> not_yet;
    for (int steps = 0; steps < kMaxSteps && !not_yet; ++steps) {
      if (i >= f_.instrs.size()) return "the code after it ends the function";
      const Instr& ins = f_.instrs[i];
      loop_.insert(i);
      if (ins.op == Op::Bra) {
        uint32_t target = f_.labels[ins.operands[0].index].target;
        if (!ins.has_guard) {
          i = target;
          continue;
        }
        auto g = outcome_.find(ins.guard);
        if (g == outcome_.end()) return "a branch not on its outcome, " + at(f_, i) + ", comes first";
        bool taken_if_not_yet = (g->second.first != 0) != ins.guard_negated;
        bool taken_if_done = (g->second.second != 0) != ins.guard_negated;
        if (taken_if_not_yet == taken_if_done) return at(f_, i) + " goes the same way either way";
        not_yet = taken_if_not_yet ? target : i + 1;
        break;
      }
      if (std::optional<std::string> why = step(i)) return why;
      ++i;
    }
    if (!not_yet) return "no branch on its outcome within " + std::to_string(kMaxSteps) + " instructions";
    // When the phase has not completed, straight back to the wait.
    i = *not_yet;
    for (int steps = 0; i != wait_; ++steps) {
      if (steps == kMaxSteps || i >= f_.instrs.size()) return "when the phase has not completed, the thread does not return to the wait";
      const Instr& ins = f_.instrs[i];
      loop_.insert(i);
      if (ins.op == Op::Bra && !ins.has_guard) {
        i = f_.labels[ins.operands[0].index].target;
        continue;
      }
      if (!register_only_op(ins.op) || ins.op == Op::Bra) {
        return "when the phase has not completed, the thread goes on to " + at(f_, i);
      }
      ++i;
    }
    return idempotent_loop();
  }

 private:
  // One register-only instruction between the wait and its branch.
  std::optional<std::string> step(uint32_t i) {
    const Instr& ins = f_.instrs[i];
    if (!register_only_op(ins.op)) return "before its outcome is tested, the thread goes on to " + at(f_, i);
    bool reads_outcome = false;
    for (uint32_t r : sources(ins)) reads_outcome |= outcome_.count(r) != 0;
    // Followed before its destinations are forgotten: `not.pred %p, %p` reads what it overwrites.
    std::optional<Outcomes> v = reads_outcome ? follow(ins) : std::nullopt;
    std::set<uint32_t> dests = destinations(ins);
    for (uint32_t r : dests) outcome_.erase(r);
    if (!reads_outcome) return std::nullopt;
    if (!v || dests.size() != 1) return "its outcome is read by " + at(f_, i);
    outcome_[*dests.begin()] = *v;
    chain_.insert(i);
    return std::nullopt;
  }

  // The value an instruction computes from the outcome, for the forms compilers emit.
  std::optional<Outcomes> follow(const Instr& ins) {
    auto value = [&](const Operand& o, bool done) -> std::optional<int64_t> {
      if (o.kind == Operand::Kind::Imm) return o.value;
      if (o.kind != Operand::Kind::Reg) return std::nullopt;
      auto it = outcome_.find(o.index);
      if (it == outcome_.end()) return std::nullopt;
      int64_t v = done ? it->second.second : it->second.first;
      return o.negated ? int64_t(v == 0) : v;
    };
    auto both = [&](auto compute) -> std::optional<Outcomes> {
      std::optional<int64_t> a = compute(false), b = compute(true);
      if (!a || !b) return std::nullopt;
      return Outcomes{*a, *b};
    };
    const auto& ops = ins.operands;
    if (ins.has_guard) return std::nullopt;
    switch (ins.op) {
      case Op::Mov:
        if (ops.size() != 2) return std::nullopt;
        return both([&](bool d) { return value(ops[1], d); });
      case Op::Not:
        if (ops.size() != 2 || ins.type() != Type::Pred) return std::nullopt;
        return both([&](bool d) -> std::optional<int64_t> {
          auto v = value(ops[1], d);
          return v ? std::optional<int64_t>(*v == 0) : std::nullopt;
        });
      case Op::Selp:
        if (ops.size() != 4) return std::nullopt;
        return both([&](bool d) -> std::optional<int64_t> {
          auto c = value(ops[3], d);
          if (!c) return std::nullopt;
          return value(ops[*c != 0 ? 1 : 2], d);
        });
      case Op::Setp: {
        if (ops.size() != 3 || ops[0].kind != Operand::Kind::Reg || !ins.has(Mod::Cmp) || is_float(ins.type())) return std::nullopt;
        uint8_t c = ins.mod(Mod::Cmp);
        bool is_signed = type_class(ins.type()) == TypeClass::Signed;
        return both([&](bool d) -> std::optional<int64_t> {
          auto a = value(ops[1], d), b = value(ops[2], d);
          if (!a || !b || c > cmp::HS) return std::nullopt;
          return int64_t(compare(c, *a, *b, is_signed));
        });
      }
      default: return std::nullopt;
    }
  }

  // Every retry must leave the registers as one pass does. Registers the loop does not write
  // are invariant; the other instructions of the loop may read only those (so what they write
  // is the same on every pass: stable), the wait may read stable ones, and the outcome's chain
  // stable ones besides the outcome's.
  std::optional<std::string> idempotent_loop() {
    std::map<uint32_t, std::set<uint32_t>> writers;
    for (uint32_t i : loop_) {
      for (uint32_t r : destinations(f_.instrs[i])) writers[r].insert(i);
    }
    auto invariant = [&](uint32_t r) { return writers.count(r) == 0; };
    auto plain = [&](uint32_t i) { return i != wait_ && !chain_.count(i) && f_.instrs[i].op != Op::Bra; };
    auto stable = [&](uint32_t r) {
      if (invariant(r)) return true;
      for (uint32_t w : writers.at(r)) {
        if (!plain(w)) return false;
      }
      return true;
    };
    for (uint32_t i : loop_) {
      const Instr& ins = f_.instrs[i];
      if (ins.op == Op::Bra) continue;
      for (uint32_t r : sources(ins)) {
        bool ok = plain(i) ? invariant(r) : stable(r) || (chain_.count(i) && outcome_written(r));
        if (!ok) return at(f_, i) + " reads a register its own retry loop changes, so a retry differs from the first pass";
      }
    }
    return std::nullopt;
  }

  bool outcome_written(uint32_t r) const {
    if (destinations(f_.instrs[wait_]).count(r)) return true;
    for (uint32_t i : chain_) {
      if (destinations(f_.instrs[i]).count(r)) return true;
    }
    return false;
  }

  const Function& f_;
  uint32_t wait_;
  std::map<uint32_t, Outcomes> outcome_;
  std::set<uint32_t> loop_;   // the instructions a retry runs again
  std::set<uint32_t> chain_;  // those computing from the outcome
};

}  // namespace

std::optional<std::string> wait_outcome_observed(const Function& f, uint32_t wait_index) {
  return WaitLoop(f, wait_index).check();
}

}  // namespace racer::ptx
