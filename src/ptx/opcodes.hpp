#pragma once
// The instruction table: every opcode Racer reads, the modifier groups it accepts (in the
// order they print), how many types it carries, and the shape of its operands.
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "ptx/modifiers.hpp"

namespace racer::ptx {

#define RACER_PTX_OPCODES(X)                                                                          \
  X(Add, "add") X(AddC, "addc") X(Sub, "sub") X(SubC, "subc") X(Mul, "mul") X(Mad, "mad")             \
  X(MadC, "madc") X(Mul24, "mul24") X(Mad24, "mad24") X(Sad, "sad") X(Div, "div") X(Rem, "rem")       \
  X(Abs, "abs") X(Neg, "neg") X(Min, "min") X(Max, "max") X(Popc, "popc") X(Clz, "clz")               \
  X(Bfind, "bfind") X(Fns, "fns") X(Brev, "brev") X(Bfe, "bfe") X(Bfi, "bfi") X(Dp4a, "dp4a")         \
  X(Dp2a, "dp2a") X(Fma, "fma") X(Rcp, "rcp") X(Sqrt, "sqrt") X(Rsqrt, "rsqrt") X(Sin, "sin")         \
  X(Cos, "cos") X(Lg2, "lg2") X(Ex2, "ex2") X(Tanh, "tanh") X(Copysign, "copysign")                   \
  X(Testp, "testp") X(Set, "set") X(Setp, "setp") X(Selp, "selp") X(Slct, "slct") X(And, "and")       \
  X(Or, "or") X(Xor, "xor") X(Not, "not") X(Cnot, "cnot") X(Lop3, "lop3") X(Shf, "shf")               \
  X(Shl, "shl") X(Shr, "shr") X(Mov, "mov") X(Prmt, "prmt") X(Ld, "ld") X(Ldu, "ldu") X(St, "st")     \
  X(StAsync, "st.async") X(RedAsync, "red.async")                                                   \
  X(Prefetch, "prefetch") X(Prefetchu, "prefetchu") X(Cvta, "cvta") X(Cvt, "cvt")                     \
  X(Isspacep, "isspacep") X(ShflSync, "shfl.sync") X(VoteSync, "vote.sync")                           \
  X(Match, "match") X(ReduxSync, "redux.sync") X(Activemask, "activemask")                   \
  X(ElectSync, "elect.sync") X(BarSync, "bar.sync") X(BarrierSync, "barrier.sync")                    \
  X(BarArrive, "bar.arrive") X(BarrierArrive, "barrier.arrive") X(BarRed, "bar.red")                  \
  X(BarrierRed, "barrier.red") X(BarWarpSync, "bar.warp.sync")                                        \
  X(BarrierClusterArrive, "barrier.cluster.arrive") X(BarrierClusterWait, "barrier.cluster.wait")     \
  X(Membar, "membar") X(Fence, "fence") X(FenceProxy, "fence.proxy") X(Atom, "atom") X(Red, "red")    \
  X(Bra, "bra") X(Call, "call") X(Ret, "ret") X(Exit, "exit") X(Trap, "trap") X(Brkpt, "brkpt")       \
  X(Nanosleep, "nanosleep") X(Createpolicy, "createpolicy") X(Setmaxnreg, "setmaxnreg") X(CpAsync, "cp.async")                        \
  X(GriddepcontrolWait, "griddepcontrol.wait") X(GriddepcontrolLaunchDependents, "griddepcontrol.launch_dependents") \
  X(CpAsyncCommitGroup, "cp.async.commit_group") X(CpAsyncWaitGroup, "cp.async.wait_group")           \
  X(CpAsyncWaitAll, "cp.async.wait_all") X(CpAsyncMbarrierArrive, "cp.async.mbarrier.arrive")         \
  X(CpAsyncBulk, "cp.async.bulk") X(CpAsyncBulkTensor, "cp.async.bulk.tensor")                        \
  X(CpAsyncBulkCommitGroup, "cp.async.bulk.commit_group")                                             \
  X(CpAsyncBulkWaitGroup, "cp.async.bulk.wait_group") X(MbarrierInit, "mbarrier.init")                \
  X(MbarrierInval, "mbarrier.inval") X(MbarrierArrive, "mbarrier.arrive")                             \
  X(MbarrierArriveDrop, "mbarrier.arrive_drop") X(MbarrierExpectTx, "mbarrier.expect_tx")             \
  X(MbarrierCompleteTx, "mbarrier.complete_tx") X(MbarrierTestWait, "mbarrier.test_wait")             \
  X(MbarrierTryWait, "mbarrier.try_wait") X(MbarrierPendingCount, "mbarrier.pending_count")           \
  X(Ldmatrix, "ldmatrix") X(Stmatrix, "stmatrix") X(Mma, "mma") X(WmmaLoad, "wmma.load")              \
  X(WmmaStore, "wmma.store") X(WmmaMma, "wmma.mma") X(WgmmaFence, "wgmma.fence")                      \
  X(WgmmaCommitGroup, "wgmma.commit_group") X(WgmmaWaitGroup, "wgmma.wait_group")                     \
  X(WgmmaMmaAsync, "wgmma.mma_async") X(Mapa, "mapa") X(Getctarank, "getctarank")     \
  X(FenceMbarrierInit, "fence.mbarrier_init")

enum class Op : uint16_t {
#define RACER_X(e, s) e,
  RACER_PTX_OPCODES(RACER_X)
#undef RACER_X
      Count
};

// The position of the type list among an opcode's modifier slots.
constexpr Mod kTypesSlot = Mod::Count;

struct OpInfo {
  Op op;
  std::string_view name;
  std::span<const Mod> slots;     // modifier groups in print order, kTypesSlot where the types go
  uint8_t min_types, max_types;
  std::string_view operands;      // operand shape, see opcodes.cpp
  bool wide_data;                 // registers may be wider than the type (ld, st, cvt)
};

const OpInfo& op_info(Op op);
inline std::string_view op_name(Op op) { return op_info(op).name; }
std::optional<Op> op_from_name(std::string_view dotted_name);
bool op_accepts(const OpInfo& info, Mod group);

}  // namespace racer::ptx
