// Branches, exits and CTA barriers.
#include "sem/common.hpp"
#include "sem/semantics.hpp"

namespace racer::sem {
namespace {

// A branch taken: the lane's history grows by it (exec/branch_histories.hpp), which activemask
// compares across lanes.
void bra(ExecContext& c, const Instr& i) {
  c.th.branch_history = c.cta.histories.taken(c.fn, c.th.branch_history, c.th.pc - 1);
  c.th.pc = c.fn.labels[i.operands[0].index].target;
}

void exit_(ExecContext& c, const Instr&) { c.th.exited = true; }

void bar_sync(ExecContext& c, const Instr& i) {
  c.th.wait = exec::Wait::CtaBarrier;
  c.th.wait_instr = c.th.pc - 1;
  c.th.barrier_id = static_cast<uint32_t>(int_operand(c, i.operands[0], Type::U32));
  c.th.barrier_count = i.operands.size() > 1 ? static_cast<uint32_t>(int_operand(c, i.operands[1], Type::U32)) : 0;
  if (c.th.barrier_id > 15) throw exec::Refusal("barrier id " + std::to_string(c.th.barrier_id) + " is out of range 0..15");
  if (c.th.barrier_count % 32 != 0) throw exec::Refusal("a barrier's thread count must be a multiple of 32");
  c.sync().cta_barrier_arrive(c, c.th.barrier_id, c.th.barrier_count, true);
}

// bar.arrive: counts toward the barrier's phase without waiting for it (a producer's signal).
void bar_arrive(ExecContext& c, const Instr& i) {
  uint32_t id = static_cast<uint32_t>(int_operand(c, i.operands[0], Type::U32));
  uint32_t count = static_cast<uint32_t>(int_operand(c, i.operands[1], Type::U32));
  if (id > 15) throw exec::Refusal("barrier id " + std::to_string(id) + " is out of range 0..15");
  if (count == 0 || count % 32 != 0) throw exec::Refusal("bar.arrive needs a thread count that is a nonzero multiple of 32");
  c.sync().cta_barrier_arrive(c, id, count, false);
}

[[noreturn]] void refuse_with(const char* why) { throw exec::Refusal(why); }

}  // namespace

void register_control(exec::Semantics& s) {
  auto& st = s.step;
  st[size_t(ptx::Op::Bra)] = bra;
  st[size_t(ptx::Op::Ret)] = exit_;
  st[size_t(ptx::Op::Exit)] = exit_;
  st[size_t(ptx::Op::BarSync)] = bar_sync;
  st[size_t(ptx::Op::BarrierSync)] = bar_sync;
  st[size_t(ptx::Op::Nanosleep)] = [](ExecContext&, const Instr&) {};
  // Programmatic dependent launch: launches run one after another here, so what follows the
  // wait sees the previous launch's memory; what comes before it is checked by the machine
  // (exec/grid_dependency.cpp). Letting the next launch start early changes nothing for this one.
  st[size_t(ptx::Op::GriddepcontrolWait)] = [](ExecContext& c, const Instr&) { c.th.grid_dependency_waited = true; };
  st[size_t(ptx::Op::GriddepcontrolLaunchDependents)] = [](ExecContext&, const Instr&) {};
  st[size_t(ptx::Op::Setmaxnreg)] = [](ExecContext&, const Instr&) {};
  st[size_t(ptx::Op::Trap)] = [](ExecContext&, const Instr&) { refuse_with("the kernel traps (trap): the launch would fail"); };
  st[size_t(ptx::Op::Brkpt)] = [](ExecContext&, const Instr&) { refuse_with("brkpt suspends the kernel for a debugger"); };
  st[size_t(ptx::Op::Call)] = [](ExecContext&, const Instr&) { refuse_with("calls to device functions are not modelled yet"); };
  st[size_t(ptx::Op::BarArrive)] = bar_arrive;
  st[size_t(ptx::Op::BarrierArrive)] = st[size_t(ptx::Op::BarArrive)];
  st[size_t(ptx::Op::BarRed)] = [](ExecContext&, const Instr&) { refuse_with("barrier reductions (bar.red) are not modelled"); };
  st[size_t(ptx::Op::BarrierRed)] = st[size_t(ptx::Op::BarRed)];
}

}  // namespace racer::sem
