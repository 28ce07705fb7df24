#pragma once
// One GPU thread's state, and the synchronization point it may be waiting at.
#include <array>
#include <cstdint>
#include <vector>

#include "exec/happens_before.hpp"
#include "exec/value.hpp"
#include "ptx/types.hpp"

namespace racer::exec {

struct Region;

enum class Wait : uint8_t {
  None,
  CtaBarrier,  // bar.sync / barrier.sync: barrier_id, expected count
  Warp,        // a warp collective (shfl.sync, vote.sync, bar.warp.sync, ...) at wait_instr
  Mbarrier,    // mbarrier.try_wait / test_wait at wait_instr, until the phase completes
  ClusterBarrier,  // barrier.cluster.wait, until every thread of the cluster arrived (exec/cluster.cpp)
};

// A recognized math routine being stepped over: the routine's own instructions are
// skipped, and at `commit` its result register gets the real function it computes.
struct AbsorbPlan {
  std::vector<uint32_t> skip;  // instruction indices, sorted
  uint32_t commit = 0;
  uint32_t reg = 0;
  Value value;
  // The result is in place where the routine's paths merge: set it just before `commit`
  // runs, and run `commit` itself (it is not the routine's).
  bool before = false;
  // The routine's result fused into an addition with an unrelated value (an accumulation
  // such as sum += exp(x)): that register's value is added at the commit point.
  uint32_t addend_reg = UINT32_MAX;
  bool addend_negated = false;
  ptx::Type addend_type = ptx::Type::F32;
  // Local scratch memory the routine's skipped stores would have written (local-space
  // address, size): at the commit it holds no value a later read may use.
  std::vector<std::pair<uint64_t, unsigned>> clobber_local;
  // Further results the same routine leaves in place (sin and cos of one range reduction).
  std::vector<std::pair<uint32_t, Value>> extra;
  // Where control goes at each skipped branch (sorted by branch): a branch on the routine's
  // own data goes to where its paths meet, an unconditional one to its target, and one on
  // other data to kLeaves (the plan cannot follow it: refused). Stepping over a branch by
  // falling through could leave the routine by a path the program never takes.
  static constexpr uint32_t kLeaves = UINT32_MAX;
  std::vector<std::pair<uint32_t, uint32_t>> jumps;
  // The routine's first instruction: reaching it again before the result is in place means
  // control left the routine without passing its merge point.
  uint32_t entry = 0;
  // A routine split across a loop (idiom/split_plan.hpp): its instructions are stepped over
  // wherever control meets them, each placed register gets its value at every visit of its
  // instruction, and the plan ends when control reaches `end` (which then runs). `commit`
  // is then kNoCommit.
  struct Placed {
    uint32_t instr = 0, reg = 0;
    Value value;
  };
  std::vector<Placed> placed;
  uint32_t end = 0;
  static constexpr uint32_t kNoCommit = UINT32_MAX - 1;
};

// A store made on a path of a branch on symbolic data: held by the path until the paths
// meet, then written as a select on the branch condition.
struct PathStore {
  Region* region = nullptr;
  uint64_t off = 0;
  unsigned size = 0;
  Value value;
  ptx::Type type = ptx::Type::B32;
  uint32_t instr = 0;  // the store
};

// A branch on symbolic data (or one instruction guarded by a symbolic predicate), run both
// ways: the taken path first, then the other, each up to `join` (the branch's immediate
// post-dominator, where the paths meet again; the function's end where a path exits). There
// the registers that may still be read, and the memory either path stored to, become
// selects on the branch condition.
struct PathFrame {
  uint32_t branch = 0;  // the bra (or the guarded instruction)
  uint32_t join = 0;
  uint32_t other = 0;   // where the path not taken starts
  Value taken;          // predicate: the branch is taken
  bool second = false;  // running the path not taken
  std::vector<Value> saved_regs;
  std::vector<uint32_t> saved_def_pc;
  std::vector<AbsorbPlan> saved_plans;  // routines pending at the branch
  bool saved_carry = false, taken_carry = false;
  std::vector<Value> taken_regs;  // the registers at the join along the taken path
  std::vector<PathStore> stores;        // the running path's stores, in the order made
  std::vector<PathStore> taken_stores;  // the taken path's, while the other runs
};

struct Thread {
  std::vector<Value> regs;
  std::vector<uint32_t> def_pc;   // per register: the instruction that last wrote it
  // (register, instruction) where a recognized routine's plan placed the register's value: that
  // instruction (the routine's last step) did not compute it from what it reads, whose registers
  // the thread stepped over and never wrote (a probe must not run it again from them).
  std::vector<std::pair<uint32_t, uint32_t>> plan_placed;
  std::vector<AbsorbPlan> plans;
  std::vector<PathFrame> paths;  // innermost last
  uint32_t pc = 0;
  bool carry = false;  // CC.CF: the carry (or borrow) of the last .cc instruction
  bool exited = false;
  Wait wait = Wait::None;
  uint32_t wait_instr = 0;      // the instruction it waits at (pc already points past it)
  uint32_t barrier_id = 0;
  uint32_t barrier_count = 0;   // 0: all threads of the CTA
  uint32_t member_mask = 0;     // warp collectives
  std::array<uint32_t, 3> tid{};
  uint32_t linear = 0;          // within the CTA
  uint32_t lane = 0, warp = 0;
  // The branches this lane took since launch (its node in the CTA's BranchHistories,
  // exec/branch_histories.hpp; sem/control.cpp), and whether it branched on symbolic data. Lanes
  // of a warp at one node with no data branch took one path: the program, not the schedule,
  // makes them run together (activemask, sem/warp.cpp).
  uint32_t branch_history = 0;
  bool data_branched = false;
  bool holds_deferred = false;  // a register may hold a deferred sum (exec/deferred_sums.hpp)
  bool grid_dependency_waited = false;  // passed griddepcontrol.wait (exec/grid_dependency.cpp)
  Region* local = nullptr;
  uint32_t pending_regs = 0;    // registers a wgmma.mma_async writes until wgmma.wait_group
  uint64_t mbar = 0;            // Wait::Mbarrier: the barrier's shared offset,
  uint64_t mbar_value = 0;      // the phase parity or the state token waited for,
  bool mbar_parity = false;     // and which of the two
  Clock hb;                     // what is ordered before its next access (exec/happens_before.hpp)
  // In a run that replaces racing loads (exec/racing_reads.hpp): the access number of the load
  // whose value the next register write receives, and the loads whose register no instruction
  // has read yet, as (register, access number).
  uint32_t loading = 0;
  std::vector<std::pair<uint32_t, uint32_t>> unread_loads;
};

}  // namespace racer::exec
