#include "idiom/probe.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>

#include "exec/concrete_domain.hpp"
#include "exec/refusal.hpp"
#include "idiom/probe_memory.hpp"
#include "ptx/effects.hpp"
#include "ptx/post_dominators.hpp"

namespace racer::idiom {
namespace {

using exec::Value;
using ptx::reads_of;
using ptx::writes_of;

// Registers in an operand (an address's base, a vector's elements).
void registers_in(const ptx::Operand& op, std::vector<uint32_t>& out) {
  if (op.kind == ptx::Operand::Kind::Reg) out.push_back(op.index);
  for (const auto& e : op.elems) registers_in(e, out);
}

// add/sub/fma with exactly one operand outside the routine (`outside`), in an additive
// position: the register and whether it is subtracted; otherwise nullopt.
template <class Outside>
std::optional<std::pair<uint32_t, bool>> additive_outsider(const ptx::Instr& I, Outside outside) {
  if (!ptx::is_float(I.type()) || I.type() == ptx::Type::F16x2 || I.type() == ptx::Type::BF16x2) return std::nullopt;
  std::vector<size_t> additive;
  if (I.op == ptx::Op::Add || I.op == ptx::Op::Sub) additive = {1, 2};
  else if (I.op == ptx::Op::Fma || I.op == ptx::Op::Mad) additive = {3};
  else return std::nullopt;
  std::optional<std::pair<uint32_t, bool>> found;
  for (size_t i = 1; i < I.operands.size(); ++i) {
    const ptx::Operand& op = I.operands[i];
    if (op.kind != ptx::Operand::Kind::Reg || !outside(op.index)) continue;
    if (found || std::find(additive.begin(), additive.end(), i) == additive.end()) return std::nullopt;
    found = std::pair{op.index, I.op == ptx::Op::Sub && i == 2};
  }
  // A subtrahend routine value (outsider - routine) would flip the fit's sign; keep it simple.
  if (found && I.op == ptx::Op::Sub && !found->second) return std::nullopt;
  return found;
}

// One probe: a private copy of the thread, what each register holds for the probe, and the
// run being recorded.
class Prober {
 public:
  Prober(const ProbeSite& site, uint64_t bits)
      : site_(site), fn_(site.ctx.fn), scratch_(site.ctx.th), state_(fn_.regs.size(), State::Fixed),
        written_(fn_.regs.size(), 0), mixed_(fn_.regs.size(), 0), own_(fn_.regs.size(), 0),
        sctx_(site.ctx.with(scratch_, concrete_)),
        sem_(site.ctx.semantics()) {
    const exec::Thread& th = site.ctx.th;
    auto fmt = format_of(fn_.regs[site.root].type);
    run_.t = static_cast<long double>(ieee::to_double(*fmt, bits));
    // The steps other routines open on the thread will step over (their results placed by their
    // plans): the thread never runs them, so what they write is the other routine's, not data this
    // probe may compute from the stale values the thread still holds (logf's result, placed after
    // erff's entry, read by erff's last add).
    for (const exec::AbsorbPlan& p : th.plans) foreign_.insert(foreign_.end(), p.skip.begin(), p.skip.end());
    std::sort(foreign_.begin(), foreign_.end());
    for (uint32_t pc : foreign_)
      for (uint32_t w : site.use->writes(pc)) state_[w] = State::Opaque;
    scratch_.plans.clear();
    const uint32_t input = th.regs[site.root].sym;
    for (size_t r = 0; r < fn_.regs.size(); ++r) {
      if (th.regs[r].sym == input) state_[r] = State::Sample, scratch_.regs[r] = Value::of_bits(sample_in(fn_.regs[r].type, bits)), own_[r] = 1;
      else if (!th.regs[r].is_concrete()) state_[r] = State::Opaque;
    }
  }

  // The sample as a register of type t holds it: a register of another width holding the same
  // number (the root's value converted, cvt.rn.f32.f64 of an f64 input, exact over the reals)
  // gets the sample in its own format.
  uint64_t sample_in(ptx::Type t, uint64_t bits) const {
    const ptx::Type root = fn_.regs[site_.root].type;
    const auto to = format_of(t);
    if (ptx::type_bits(t) == ptx::type_bits(root) || !to) return bits;
    return ieee::from_double(*to, ieee::to_double(*format_of(root), bits));
  }

  std::optional<Run> run() {
    run_prelude();
    uint32_t pc = site_.at;
    bool stopped = false;
    for (size_t n = 0; n < site_.max_steps && pc < fn_.instrs.size(); ++n) {
      bool seen = run_.visits.count(pc) > 0;
      auto next = site_.through ? step_through(pc) : step(pc, true);
      if (!next) {
        run_.stop = pc;
        run_.stop_visited_before = seen;
        stopped = true;
        break;
      }
      pc = *next;
    }
    if (!stopped && pc >= fn_.instrs.size()) run_.stop = pc;
    if (failed_) {
      if (site_.debug) std::fprintf(stderr, "  probe root %s: a step refused\n", fn_.regs[site_.root].name.c_str());
      return std::nullopt;
    }
    if (site_.debug) std::fprintf(stderr, "  run t=%Lg ends at pc %u after %zu events\n", run_.t, pc, run_.events.size());
    return std::move(run_);
  }

 private:
  // A list of registers the run keeps for its events.
  std::span<const uint32_t> owned(std::vector<uint32_t> regs) { return run_.owned_writes.emplace_back(std::move(regs)); }
  std::span<const uint64_t> one_value(uint64_t bits) {
    std::span<uint64_t> v = run_.value_arena.take(1);
    v[0] = bits;
    return v;
  }

  bool guard_on(const ptx::Instr& I) const {
    return !I.has_guard || ((scratch_.regs[I.guard].bits & 1) != I.guard_negated);
  }

  // A prelude instruction the probe cannot run (a warp shuffle, a load: the running sum of a
  // softmax reaches the routine's input through a loop full of them) computes something that
  // is not the input's alone: what it writes is other data to the probe, and a routine that
  // reads it has no values to fit there.
  void run_prelude() {
    for (uint32_t pc : site_.prelude) {
      if (!step(pc, false)) {
        writes_ = site_.use->writes(pc);
        for (uint32_t w : writes_) state_[w] = State::Opaque;
        failed_ = false;
      }
      for (uint32_t w : site_.use->writes(pc)) own_[w] = state_[w] == State::Sample;
    }
  }

  void record_visit(uint32_t pc) {
    if (run_.visits.count(pc)) return;
    Run::Visit v{run_.events.size(), {}};
    // The registers in State::Sample, in order (few among many: memchr finds them).
    const auto* first = reinterpret_cast<const unsigned char*>(state_.data());
    const size_t n = state_.size();
    for (const unsigned char* p = first; p < first + n;) {
      p = static_cast<const unsigned char*>(std::memchr(p, static_cast<int>(State::Sample), n - static_cast<size_t>(p - first)));
      if (!p) break;
      const uint32_t r = static_cast<uint32_t>(p - first);
      v.sample_regs.emplace_back(r, scratch_.regs[r].bits);
      ++p;
    }
    run_.visits.emplace(pc, std::move(v));
    run_.order.push_back(pc);
  }

  // Runs I's semantics on the scratch thread; false (and the probe failed) where they refuse.
  bool execute(uint32_t pc, const ptx::Instr& I) {
    scratch_.pc = pc + 1;
    try {
      sem_.step[static_cast<size_t>(I.op)](sctx_, I);
      return true;
    } catch (const exec::Refusal& refusal) {
      if (site_.debug) std::fprintf(stderr, "  probe step at pc %u refused: %s\n", pc, refusal.what());
      failed_ = true;
      return false;
    }
  }

  // A load from a constant table or local scratch, or a store to local scratch, or a load of
  // other data (other_data_load); false where the probe must stop (vectors, an address from
  // other symbolic data or from the input into other memory).
  bool access(const ptx::Instr& I, Event& ev) {
    bool load = I.op != ptx::Op::St;
    const ptx::Operand& data = I.operands[load ? 0 : 1];
    const ptx::Operand& where = I.operands[load ? 1 : 0];
    unsigned size = ptx::type_bits(I.type()) / 8;
    if (data.kind != ptx::Operand::Kind::Reg || size == 0 || size > 8) return false;
    std::vector<uint32_t> addr_regs;
    registers_in(where, addr_regs);
    State as = State::Fixed;
    for (uint32_t r : addr_regs) as = std::max(as, state_[r]);
    if (as == State::Opaque) return false;
    try {
      exec::Space sp = exec::space_of(I);
      uint64_t addr = sctx_.address(where);
      bool derived = as == State::Sample;
      for (uint32_t r : addr_regs) note_fixed_read(r, ev);
      if (!load) return store_scratch(data.index, sp, addr, size, derived, ev);
      if (ptx::type_bits(fn_.regs[data.index].type) != size * 8) return false;
      std::optional<uint64_t> bits = sp == exec::Space::Local ? scratch_memory_.load(addr, size, derived)
                                                               : site_.ctx.memory().peek_constant(sctx_, sp, addr, size);
      if (!bits) return other_data_load(I, sp, derived, ev);
      scratch_.regs[data.index] = Value::of_bits(*bits);
      written_[data.index] = 1;
      mixed_[data.index] = 0;
      ev.absorbed |= derived;
      state_[data.index] = ev.absorbed ? State::Sample : State::Fixed;
      ev.writes = site_.use->writes(static_cast<uint32_t>(&I - fn_.instrs.data()));  // (data's register alone)
      ev.values = one_value(*bits);
      return true;
    } catch (const exec::Refusal&) {
      return false;
    }
  }

  // A load of the thread's other data that the compiler placed among the routine's steps
  // (expf(c) + a with a's load between them): its value is other data to the probe (an addend
  // the fit may meet), and the load is not the routine's: the plan leaves it to run. Only a load
  // the thread makes whatever the input (an address and a guard of its own, outside the
  // routine's branches) of global or shared memory.
  bool other_data_load(const ptx::Instr& I, exec::Space sp, bool derived, Event& ev) {
    // At most kOtherLoads, among the first kOtherLoadSteps steps: the compiler places the other
    // operands' loads (one or two) among the routine's steps; a probe that went on through
    // loads would run on through the rest of a loop (a softmax's, probed at every candidate
    // input) for nothing.
    if (!site_.other_data_loads || other_loads_ == kOtherLoads || run_.events.size() > kOtherLoadSteps || derived ||
        ev.absorbed || (sp != exec::Space::Global && sp != exec::Space::Shared))
      return false;
    ++other_loads_;
    loads_other_data(static_cast<uint32_t>(&I - fn_.instrs.data()), ev);
    return true;
  }

  // What the load at pc writes is other data to the probe: the event lists it, with no values.
  void loads_other_data(uint32_t pc, Event& ev) {
    writes_ = site_.use->writes(pc);
    for (uint32_t w : writes_) state_[w] = State::Opaque, mixed_[w] = 0;
    ev.writes = writes_;
  }

  bool store_scratch(uint32_t reg, exec::Space sp, uint64_t addr, unsigned size, bool derived, Event& ev) {
    State vs = state_[reg];
    if (sp != exec::Space::Local || vs == State::Opaque) return false;
    derived |= vs == State::Sample;
    scratch_memory_.store(addr, size, scratch_.regs[reg].bits, derived);
    note_fixed_read(reg, ev);
    ev.absorbed |= derived;
    if (ev.absorbed) run_.local_stores.insert({ev.pc, addr, size});
    return true;
  }

  // A register read as the thread had it before the probe: a plan that reuses this probe
  // elsewhere must find the same bits there.
  void note_fixed_read(uint32_t reg, Event& ev) {
    if (state_[reg] == State::Fixed && !written_[reg]) ev.fixed_reads.emplace_back(reg, scratch_.regs[reg].bits);
  }

  // A routine's value added to an unrelated one (sum += exp(x)): evaluated with the outsider
  // at zero; this can only be the routine's last instruction. (The input added to other data,
  // x + t, is no such step: it uses nothing the routine computed, and the thread runs it.)
  std::optional<uint32_t> step_with_outsider(uint32_t pc, const ptx::Instr& I, std::pair<uint32_t, bool> outsider, Event ev) {
    Value saved = scratch_.regs[outsider.first];
    scratch_.regs[outsider.first] = Value::of_bits(0);
    if (!execute(pc, I)) return std::nullopt;
    // (sum = fma(a, b, sum): the outsider is the destination too, which now holds the result.)
    if (std::find(writes_.begin(), writes_.end(), outsider.first) == writes_.end()) scratch_.regs[outsider.first] = saved;
    ev.absorbed = true;
    ev.addend = outsider.first;
    ev.addend_negated = outsider.second;
    std::span<uint64_t> values = run_.value_arena.take(writes_.size());
    for (size_t i = 0; i < writes_.size(); ++i) {
      const uint32_t w = writes_[i];
      values[i] = scratch_.regs[w].bits;
      state_[w] = State::Opaque;  // what follows must not treat it as the routine's alone
      mixed_[w] = 1;              // but a read of it still consumes the routine's value
    }
    ev.values = values;
    run_.events.push_back(std::move(ev));
    return pc + 1;
  }

  // An instruction that reads other symbolic data: the probe has no value for what it writes.
  // On a path of a branch on the input, what it writes depends on the path taken even when
  // computed from other data: it belongs to the routine, so a plan that leaves such a
  // register live is rejected rather than stepping over its computation.
  std::optional<uint32_t> step_opaque(uint32_t pc, const ptx::Instr& I, State guard, bool record, Event ev) {
    if (I.op == ptx::Op::Bra) return std::nullopt;
    ev.absorbed = guard == State::Sample || !joins_.empty();
    for (uint32_t r : reads_) ev.escapes |= routine_value(r);
    // (Written on a path the input chose: a later reader consumes the routine's choice.)
    for (uint32_t w : writes_) state_[w] = State::Opaque, mixed_[w] = ev.absorbed;
    if (record) run_.events.push_back(std::move(ev));
    return pc + 1;
  }

  std::optional<uint32_t> step_memory(uint32_t pc, const ptx::Instr& I, State guard, bool record) {
    Event ev{pc, {}, {}, guard == State::Sample || !joins_.empty(), {}};
    if (guard_on(I) && !access(I, ev)) return std::nullopt;
    if (record) run_.events.push_back(std::move(ev));
    return pc + 1;
  }

  // A step of a probe that follows the thread past the routine: the event also records what
  // the instruction read, and the thread's own registers it read as they were (the path such
  // a probe takes depends on all of them).
  std::optional<uint32_t> step_through(uint32_t pc) {
    std::span<const uint32_t> reads = site_.use->reads(pc);
    std::vector<std::pair<uint32_t, uint64_t>> fixed;
    for (uint32_t r : reads)
      if (state_[r] == State::Fixed && !written_[r]) fixed.emplace_back(r, scratch_.regs[r].bits);
    size_t before = run_.events.size();
    auto next = step(pc, true);
    if (run_.events.size() > before) {
      Event& ev = run_.events.back();
      ev.reads = reads;
      ev.fixed_reads.insert(ev.fixed_reads.end(), fixed.begin(), fixed.end());
    }
    return next;
  }

  // A load or store of other memory while following the thread: a load's value is other
  // data, a store changes nothing the probe reads. Stops where the access is addressed or
  // guarded by the routine's data (the thread would not make the same access), and at local
  // memory (the routine's own scratch).
  std::optional<uint32_t> step_memory_through(uint32_t pc, const ptx::Instr& I, State guard, bool record) {
    if (guard == State::Sample || !joins_.empty()) return std::nullopt;
    exec::Space sp;
    try {
      sp = exec::space_of(I);
    } catch (const exec::Refusal&) {
      return std::nullopt;
    }
    if (sp == exec::Space::Const) return step_memory(pc, I, guard, record);
    if (sp == exec::Space::Local) return std::nullopt;
    const bool load = I.op != ptx::Op::St;
    std::vector<uint32_t> addr_regs;
    registers_in(I.operands[load ? 1 : 0], addr_regs);
    for (uint32_t r : addr_regs)
      if (state_[r] == State::Sample) return std::nullopt;
    Event ev{pc, {}, {}, false, {}};
    if (load && guard_on(I)) loads_other_data(pc, ev);
    if (record) run_.events.push_back(std::move(ev));
    return pc + 1;
  }

  // A branch on other data while following the thread: the probe cannot tell which way the
  // thread goes, but where nothing between the branch and where its paths meet reads the
  // routine's data, neither way touches the routine. The probe goes on at the meeting point,
  // with what either path writes as other data.
  std::optional<uint32_t> step_over_branch(uint32_t pc, bool record) {
    const uint32_t join = site_.ipdom[pc];
    if (join == ptx::kNoPostDominator || join >= fn_.instrs.size() || !joins_.empty()) return std::nullopt;
    std::set<uint32_t> region, written;
    std::vector<uint32_t> todo, next;
    ptx::successors_of(fn_, pc, todo);
    while (!todo.empty()) {
      uint32_t q = todo.back();
      todo.pop_back();
      if (q == join || !region.insert(q).second) continue;
      if (q >= fn_.instrs.size() || region.size() > kMaxRegion) return std::nullopt;
      reads_ = site_.use->reads(q);
      for (uint32_t r : reads_)
        if (state_[r] == State::Sample) return std::nullopt;
      writes_ = site_.use->writes(q);
      written.insert(writes_.begin(), writes_.end());
      ptx::successors_of(fn_, q, next);
      todo.insert(todo.end(), next.begin(), next.end());
    }
    for (uint32_t w : written) state_[w] = State::Opaque, mixed_[w] = 0;
    run_.unfollowed.insert(region.begin(), region.end());
    if (record) run_.events.push_back(Event{pc, owned({written.begin(), written.end()}), {}, false, {}});
    return join;
  }
  static constexpr size_t kMaxRegion = 4096;

  // One instruction of the probe: where control goes next, or nullopt to stop.
  std::optional<uint32_t> step(uint32_t pc, bool record) {
    const ptx::Instr& I = fn_.instrs[pc];
    while (!joins_.empty() && joins_.back() == pc) joins_.pop_back();
    if (record) record_visit(pc);
    // Parameter loads read constants of the launch: harmless between a routine's steps.
    bool param_load = ptx::is_param_load(I);
    bool memory = (I.op == ptx::Op::Ld || I.op == ptx::Op::Ldu || I.op == ptx::Op::St) && !param_load;
    if (!ptx::register_only_op(I.op) && !param_load && !memory) return std::nullopt;
    State g = I.has_guard ? state_[I.guard] : State::Fixed;
    if (std::binary_search(foreign_.begin(), foreign_.end(), pc)) {
      reads_ = site_.use->reads(pc);
      writes_ = site_.use->writes(pc);
      return step_opaque(pc, I, g, record, Event{pc, writes_, {}, false, {}});
    }
    if (g == State::Opaque && site_.through && I.op == ptx::Op::Bra) return step_over_branch(pc, record);
    if (g == State::Opaque) return std::nullopt;
    if (memory) return site_.through ? step_memory_through(pc, I, g, record) : step_memory(pc, I, g, record);
    reads_ = site_.use->reads(pc);
    writes_ = site_.use->writes(pc);
    const auto own_addend = record ? input_addend(I) : std::nullopt;
    if (record)
      for (uint32_t w : writes_) own_[w] = 0;
    State s = State::Fixed;
    for (uint32_t r : reads_)
      if (!(I.has_guard && r == I.guard)) s = std::max(s, state_[r]);
    Event ev{pc, writes_, {}, false, {}};
    bool on = guard_on(I);
    if (on && s == State::Opaque) {
      if (record && !site_.through)
        if (auto outsider = additive_outsider(I, [&](uint32_t r) { return state_[r] == State::Opaque; });
            outsider && reads_routine())
          return step_with_outsider(pc, I, *outsider, ev);
      return step_opaque(pc, I, g, record, std::move(ev));
    }
    ev.absorbed = s == State::Sample || g == State::Sample || !joins_.empty();
    if (own_addend && on) return step_with_outsider(pc, I, *own_addend, ev);
    const bool own_step = record && on && s == State::Sample && own_arithmetic(I);
    if (own_step) ev.absorbed = false;
    if (I.op == ptx::Op::Bra && g == State::Sample) {
      uint32_t join = site_.ipdom[pc];
      if (join == ptx::kNoPostDominator) return std::nullopt;
      joins_.push_back(join);
      if (record) run_.branch_joins[pc] = join;
    }
    uint32_t next = pc + 1;
    if (on) {
      for (uint32_t r : reads_) note_fixed_read(r, ev);
      if (!execute(pc, I)) return std::nullopt;
      next = scratch_.pc;
      // (Values only for an event the run keeps: a prelude step's is dropped.)
      std::span<uint64_t> values = record ? run_.value_arena.take(writes_.size()) : std::span<uint64_t>();
      for (size_t i = 0; i < writes_.size(); ++i) {
        const uint32_t w = writes_[i];
        state_[w] = ev.absorbed || own_step ? State::Sample : State::Fixed;
        written_[w] = 1;
        mixed_[w] = 0;
        if (record) values[i] = scratch_.regs[w].bits;
        own_[w] = own_step;
      }
      ev.values = values;
    } else {
      ev.writes = {};
    }
    if (record) run_.events.push_back(std::move(ev));
    return next;
  }

  // With ProbeSite::input_addends: an add/sub/fma that adds a value the thread computed from
  // the input before the routine (or the input itself) to what the routine computed, in an
  // additive position only (expf(x) + x, the addition fused into expf's last multiply): that
  // register is the outsider. Read before the instruction's own writes are noted.
  std::optional<std::pair<uint32_t, bool>> input_addend(const ptx::Instr& I) const {
    if (!site_.input_addends || site_.through || (I.has_guard && state_[I.guard] != State::Fixed)) return std::nullopt;
    auto addend = additive_outsider(I, [&](uint32_t r) { return own_[r] != 0; });
    if (!addend) return std::nullopt;
    for (uint32_t r : reads_)
      if (r != addend->first && ((state_[r] == State::Sample && written_[r] && !own_[r]) || mixed_[r])) return addend;
    return std::nullopt;
  }

  // With ProbeSite::input_addends: float arithmetic on the thread's own values alone (s + s
  // among expf(s)'s steps, fused into its last multiply as expf(s) + (s + s)), off the
  // routine's paths. The thread runs it (it is no bit-level step) and its result is the
  // thread's own too.
  bool own_arithmetic(const ptx::Instr& I) const {
    if (!site_.input_addends || site_.through || I.has_guard || !joins_.empty() || !ptx::is_float(I.type())) return false;
    switch (I.op) {
      case ptx::Op::Add: case ptx::Op::Sub: case ptx::Op::Mul: case ptx::Op::Fma: case ptx::Op::Neg: case ptx::Op::Abs:
      case ptx::Op::Sqrt: case ptx::Op::Div: case ptx::Op::Min: case ptx::Op::Max: break;
      default: return false;
    }
    bool any = false;
    for (uint32_t r : reads_) {
      if (state_[r] == State::Sample && !own_[r]) return false;
      any |= own_[r] != 0;
    }
    return any;
  }

  // Whether the instruction reads a value the probe computed from the input (the input
  // itself, and what the thread computed from it before the probe, it reads as any other
  // instruction does: the thread has them).
  bool routine_value(uint32_t r) const { return (state_[r] == State::Sample && written_[r]) || mixed_[r]; }
  bool reads_routine() const { return std::any_of(reads_.begin(), reads_.end(), [&](uint32_t r) { return routine_value(r); }); }

  const ProbeSite& site_;
  const ptx::Function& fn_;
  std::vector<uint32_t> foreign_;  // sorted: instructions other open routines step over
  exec::Thread scratch_;
  std::vector<State> state_;
  std::vector<uint8_t> written_;  // by the probe so far
  std::vector<uint8_t> mixed_;    // the routine's value plus an outsider (see step_with_outsider)
  // Computed from the input before the probe began (the input, what the prelude computed) and
  // not written since: the thread holds these values itself (see input_addend).
  std::vector<uint8_t> own_;
  // Where the paths of branches on the input meet again, innermost last: until then,
  // whatever the probe writes depends on the input through the path taken.
  std::vector<uint32_t> joins_;
  exec::ConcreteDomain concrete_;
  exec::ExecContext sctx_;
  const exec::Semantics& sem_;
  ProbeScratch scratch_memory_;
  // (other_data_load; a compiled expf is about 20 steps, logf 40)
  static constexpr size_t kOtherLoadSteps = 48, kOtherLoads = 2;
  size_t other_loads_ = 0;
  std::span<const uint32_t> reads_, writes_;  // the current instruction's (site_.use)
  Run run_;
  bool failed_ = false;
};

}  // namespace

std::optional<ieee::Format> format_of(ptx::Type t) {
  switch (ptx::type_bits(t)) {
    case 16: return t == ptx::Type::BF16 ? ieee::Format::BF16 : ieee::Format::F16;
    case 32: return ieee::Format::F32;
    case 64: return ieee::Format::F64;
    default: return std::nullopt;
  }
}

std::vector<uint32_t> prelude_of(const exec::Thread& th, const ptx::Function& fn, uint32_t input_sym) {
  std::vector<uint32_t> prelude, reads;
  std::vector<int8_t> memo(fn.regs.size(), -1);  // -1 unknown, 0 no, 1 yes
  // Depth-first along defining instructions; cycles through loops count as not downstream.
  auto downstream = [&](auto& self, uint32_t r, int depth) -> bool {
    if (memo[r] >= 0) return memo[r];
    if (th.regs[r].sym == input_sym) return (memo[r] = 1) != 0;
    uint32_t def = th.def_pc[r];
    if (!th.regs[r].is_symbolic() || depth > 64 || def >= fn.instrs.size()) return (memo[r] = 0) != 0;
    memo[r] = 0;
    // def_pc may name where a recognized routine's value was committed (a merge point), an
    // instruction that does not write r: r was not computed there from what it reads (that
    // instruction, a loop's running min, may read the input and overwrite it when run again).
    std::vector<uint32_t> rs;
    writes_of(fn.instrs[def], rs);
    if (std::find(rs.begin(), rs.end(), r) == rs.end()) return false;
    // Nor where a recognized routine placed r there: run again, that last step would read the
    // registers the thread stepped over (stale: expf(a) + s's fma with expf's 2^n never built).
    if (std::find(th.plan_placed.begin(), th.plan_placed.end(), std::pair{r, def}) != th.plan_placed.end()) return false;
    reads_of(fn.instrs[def], rs);
    bool any = false;
    for (uint32_t x : rs) any |= self(self, x, depth + 1);
    if (any) prelude.push_back(def);
    memo[r] = any ? 1 : 0;
    return any;
  };
  for (uint32_t r = 0; r < fn.regs.size(); ++r)
    if (th.regs[r].is_symbolic()) downstream(downstream, r, 0);
  std::sort(prelude.begin(), prelude.end());
  prelude.erase(std::unique(prelude.begin(), prelude.end()), prelude.end());
  return prelude;
}

std::optional<Run> probe_once(const ProbeSite& site, uint64_t bits) { return Prober(site, bits).run(); }

}  // namespace racer::idiom
