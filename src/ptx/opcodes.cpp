#include "ptx/opcodes.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "ptx/name_map.hpp"
#include "ptx/vocabulary.hpp"

namespace racer::ptx {
namespace {

// Operand shapes: space-separated items "<kind><type>", a trailing '?' marks an optional item
// (only trailing items may be optional).
//   kinds: d destination (register, vector of registers, or the sink _)
//          e destination with an optional "|pred" second destination (shfl, elect, match)
//          q predicate destination with an optional "|pred" second destination (setp)
//          s source (register, immediate, vector, special register)
//          m source that may also be a variable's address (mov, cvta)
//          p predicate source, possibly negated (!p)
//          a address [base+offset]
//          l branch target label
//          i integer immediate
//          x anything (checked by the semantics, not here)
//   types: 0-3 the instruction's types by position; w type 0 widened when .wide;
//          v type 0, a vector of .v2/.v4/.v8 elements when the vector modifier is present;
//          u 32-bit; U 64-bit; P predicate; . unchecked
using M = Mod;
constexpr Mod T = kTypesSlot;

struct Row {
  Op op;
  std::vector<Mod> slots;
  uint8_t min_types, max_types;
  std::string_view operands;
  bool wide_data = false;
};

const std::vector<Row>& rows() {
  static const std::vector<Row> r = {
      {Op::Add, {M::Rnd, M::Ftz, M::Sat, M::Cc, T}, 1, 1, "d0 s0 s0"},
      {Op::AddC, {M::Cc, T}, 1, 1, "d0 s0 s0"},
      {Op::Sub, {M::Rnd, M::Ftz, M::Sat, M::Cc, T}, 1, 1, "d0 s0 s0"},
      {Op::SubC, {M::Cc, T}, 1, 1, "d0 s0 s0"},
      {Op::Mul, {M::Mode, M::Rnd, M::Ftz, M::Sat, T}, 1, 1, "dw s0 s0"},
      {Op::Mad, {M::Mode, M::Rnd, M::Ftz, M::Sat, M::Cc, T}, 1, 1, "dw s0 s0 sw"},
      {Op::MadC, {M::Mode, M::Cc, T}, 1, 1, "d0 s0 s0 s0"},
      {Op::Mul24, {M::Mode, T}, 1, 1, "d0 s0 s0"},
      {Op::Mad24, {M::Mode, M::Sat, T}, 1, 1, "d0 s0 s0 s0"},
      {Op::Sad, {T}, 1, 1, "d0 s0 s0 s0"},
      {Op::Div, {M::Rnd, M::Ftz, M::Sat, T}, 1, 1, "d0 s0 s0"},
      {Op::Rem, {T}, 1, 1, "d0 s0 s0"},
      {Op::Abs, {M::Ftz, T}, 1, 1, "d0 s0"},
      {Op::Neg, {M::Ftz, T}, 1, 1, "d0 s0"},
      {Op::Min, {M::Ftz, M::NaN, M::XorSign, M::Abs, M::Relu, T}, 1, 1, "d0 s0 s0 s0?"},
      {Op::Max, {M::Ftz, M::NaN, M::XorSign, M::Abs, M::Relu, T}, 1, 1, "d0 s0 s0 s0?"},
      {Op::Popc, {T}, 1, 1, "du s0"},
      {Op::Clz, {T}, 1, 1, "du s0"},
      {Op::Bfind, {M::ShiftAmt, T}, 1, 1, "du s0"},
      {Op::Fns, {T}, 1, 1, "du su su su"},
      {Op::Brev, {T}, 1, 1, "d0 s0"},
      {Op::Bfe, {T}, 1, 1, "d0 s0 su su"},
      {Op::Bfi, {T}, 1, 1, "d0 s0 s0 su su"},
      {Op::Dp4a, {T}, 2, 2, "du su su su"},
      {Op::Dp2a, {M::Mode, T}, 2, 2, "du su su su"},
      {Op::Fma, {M::Rnd, M::Ftz, M::Sat, M::Relu, M::NaN, T}, 1, 1, "d0 s0 s0 s0"},
      {Op::Rcp, {M::Rnd, M::Ftz, T}, 1, 1, "d0 s0"},
      {Op::Sqrt, {M::Rnd, M::Ftz, T}, 1, 1, "d0 s0"},
      {Op::Rsqrt, {M::Rnd, M::Ftz, T}, 1, 1, "d0 s0"},
      {Op::Sin, {M::Rnd, M::Ftz, T}, 1, 1, "d0 s0"},
      {Op::Cos, {M::Rnd, M::Ftz, T}, 1, 1, "d0 s0"},
      {Op::Lg2, {M::Rnd, M::Ftz, T}, 1, 1, "d0 s0"},
      {Op::Ex2, {M::Rnd, M::Ftz, T}, 1, 1, "d0 s0"},
      {Op::Tanh, {M::Rnd, T}, 1, 1, "d0 s0"},
      {Op::Copysign, {T}, 1, 1, "d0 s0 s0"},
      {Op::Testp, {M::TestKind, T}, 1, 1, "dP s0"},
      {Op::Set, {M::Cmp, M::BoolOp, M::Ftz, T}, 2, 2, "d0 s1 s1 pP?"},
      {Op::Setp, {M::Cmp, M::BoolOp, M::Ftz, T}, 1, 1, "qP s0 s0 pP?"},
      {Op::Selp, {T}, 1, 1, "d0 s0 s0 pP"},
      {Op::Slct, {M::Ftz, T}, 2, 2, "d0 s0 s0 s1"},
      {Op::And, {T}, 1, 1, "d0 s0 s0"},
      {Op::Or, {T}, 1, 1, "d0 s0 s0"},
      {Op::Xor, {T}, 1, 1, "d0 s0 s0"},
      {Op::Not, {T}, 1, 1, "d0 s0"},
      {Op::Cnot, {T}, 1, 1, "d0 s0"},
      {Op::Lop3, {T}, 1, 1, "d0 s0 s0 s0 iu"},
      {Op::Shf, {M::ShfDir, M::ShfMode, T}, 1, 1, "d0 s0 s0 su"},
      {Op::Shl, {T}, 1, 1, "d0 s0 su"},
      {Op::Shr, {T}, 1, 1, "d0 s0 su"},
      {Op::Mov, {T}, 1, 1, "d0 m0"},
      {Op::Prmt, {T, M::PrmtMode}, 1, 1, "d0 s0 s0 s0"},
      {Op::Ld, {M::Sem, M::Scope, M::Space, M::CacheOp, M::Nc, M::L1Evict, M::L2Evict, M::CacheHint, M::Prefetch,
                M::Vec, T}, 1, 1, "dv a. sU?", true},
      {Op::Ldu, {M::Space, M::Vec, T}, 1, 1, "dv a.", true},
      {Op::St, {M::Sem, M::Scope, M::Space, M::CacheOp, M::L1Evict, M::L2Evict, M::CacheHint, M::Vec, T}, 1, 1,
       "a. sv sU?", true},
      {Op::StAsync, {M::Sem, M::Scope, M::Space, M::Completion, M::Vec, T}, 1, 1, "a. sv a."},
      {Op::RedAsync, {M::Sem, M::Scope, M::Space, M::Completion, M::AtomOp, T}, 1, 1, "a. s0 a."},
      {Op::Prefetch, {M::Space, M::Level, M::L2Evict}, 0, 0, "a."},
      {Op::Prefetchu, {M::Level}, 0, 0, "a."},
      {Op::Cvta, {M::To, M::Space, T}, 1, 1, "d0 m0"},
      {Op::Cvt, {M::Rnd, M::Ftz, M::Sat, M::Relu, T}, 2, 2, "d0 s1 s1?", true},
      {Op::Isspacep, {M::Space}, 0, 0, "dP sU"},
      {Op::ShflSync, {M::ShflMode, T}, 1, 1, "e0 s0 su su su"},
      {Op::VoteSync, {M::VoteMode, T}, 1, 1, "d0 pP su"},
      {Op::Match, {M::MatchMode, M::Sync, T}, 1, 1, "eu s0 su"},
      {Op::ReduxSync, {M::AtomOp, M::Abs, M::NaN, T}, 1, 1, "d0 s0 su"},
      {Op::Activemask, {T}, 1, 1, "d0"},
      {Op::ElectSync, {}, 0, 0, "eu su"},
      {Op::BarSync, {M::Aligned}, 0, 0, "su su?"},
      {Op::BarrierSync, {M::Aligned}, 0, 0, "su su?"},
      {Op::BarArrive, {M::Aligned}, 0, 0, "su su"},
      {Op::BarrierArrive, {M::Aligned}, 0, 0, "su su"},
      {Op::BarRed, {M::RedOp, M::Aligned, T}, 1, 1, "d0 su x. x.?"},
      {Op::BarrierRed, {M::RedOp, M::Aligned, T}, 1, 1, "d0 su x. x.?"},
      {Op::BarWarpSync, {}, 0, 0, "su"},
      {Op::BarrierClusterArrive, {M::Sem, M::Aligned}, 0, 0, ""},
      {Op::BarrierClusterWait, {M::Sem, M::Aligned}, 0, 0, ""},
      {Op::Mapa, {M::Space, T}, 1, 1, "d0 m0 su"},
      {Op::Getctarank, {M::Space, T}, 1, 1, "du m0"},
      {Op::FenceMbarrierInit, {M::Sem, M::Scope}, 0, 0, ""},
      {Op::Membar, {M::Scope}, 0, 0, ""},
      {Op::Fence, {M::Sem, M::Scope}, 0, 0, ""},
      {Op::FenceProxy, {M::ProxyKind, M::Space}, 0, 0, ""},
      {Op::Atom, {M::Sem, M::Scope, M::Space, M::AtomOp, M::NoFtz, M::Vec, T}, 1, 1, "dv a. sv sv?"},
      {Op::Red, {M::Sem, M::Scope, M::Space, M::AtomOp, M::NoFtz, M::Vec, T}, 1, 1, "a. sv"},
      {Op::Bra, {M::Uni}, 0, 0, "l."},
      {Op::Call, {M::Uni}, 0, 0, "x. x.? x.?"},
      {Op::Ret, {M::Uni}, 0, 0, ""},
      {Op::Exit, {}, 0, 0, ""},
      {Op::Trap, {}, 0, 0, ""},
      {Op::Brkpt, {}, 0, 0, ""},
      {Op::Nanosleep, {T}, 1, 1, "su"},
      {Op::GriddepcontrolWait, {}, 0, 0, ""},
      {Op::GriddepcontrolLaunchDependents, {}, 0, 0, ""},
      // createpolicy.fractional.L2::evict_first{.L2::evict_unchanged}.b64 d, fraction;
      // .range ... d, [a], primary_size, total_size; .cvt.L2.b64 d, src
      {Op::Createpolicy, {M::Policy, M::Level, M::L2Evict, M::L2Evict2, T}, 1, 1, "dU x.? x.? x.?"},
      {Op::Setmaxnreg, {M::IncDec, M::Sync, M::Aligned, T}, 1, 1, "iu"},
      {Op::CpAsync, {M::CacheOp, M::Space, M::Space2, M::L2Evict, M::CacheHint, M::Prefetch}, 0, 0,
       "a. a. iu x.? x.?"},
      {Op::CpAsyncCommitGroup, {}, 0, 0, ""},
      {Op::CpAsyncWaitGroup, {}, 0, 0, "iu"},
      {Op::CpAsyncWaitAll, {}, 0, 0, ""},
      {Op::CpAsyncMbarrierArrive, {M::NoInc, M::Space, T}, 1, 1, "a."},
      {Op::CpAsyncBulk, {M::Space, M::Space2, M::Completion, M::Multicast, M::CacheHint}, 0, 0,
       "a. a. su a.? x.? x.?"},
      {Op::CpAsyncBulkTensor, {M::Dim, M::Space, M::Space2, M::LoadMode, M::Completion, M::Multicast, M::CacheHint},
       0, 0, "a. a. a.? x.? x.?"},
      {Op::CpAsyncBulkCommitGroup, {}, 0, 0, ""},
      {Op::CpAsyncBulkWaitGroup, {M::Read}, 0, 0, "iu"},
      {Op::MbarrierInit, {M::Space, T}, 1, 1, "a. su"},
      {Op::MbarrierInval, {M::Space, T}, 1, 1, "a."},
      {Op::MbarrierArrive, {M::ExpectTx, M::NoComplete, M::Sem, M::Scope, M::Space, T}, 1, 1, "dU a. su?"},
      {Op::MbarrierArriveDrop, {M::ExpectTx, M::NoComplete, M::Sem, M::Scope, M::Space, T}, 1, 1, "dU a. su?"},
      {Op::MbarrierExpectTx, {M::Sem, M::Scope, M::Space, T}, 1, 1, "a. su"},
      {Op::MbarrierCompleteTx, {M::Sem, M::Scope, M::Space, T}, 1, 1, "a. su"},
      {Op::MbarrierTestWait, {M::Parity, M::Sem, M::Scope, M::Space, T}, 1, 1, "qP a. s."},
      {Op::MbarrierTryWait, {M::Parity, M::Sem, M::Scope, M::Space, T}, 1, 1, "qP a. s. su?"},
      {Op::MbarrierPendingCount, {T}, 1, 1, "du sU"},
      {Op::Ldmatrix, {M::Sync, M::Aligned, M::Shape, M::Num, M::Trans, M::Space, T}, 1, 1, "d. a."},
      {Op::Stmatrix, {M::Sync, M::Aligned, M::Shape, M::Num, M::Trans, M::Space, T}, 1, 1, "a. s."},
      {Op::Mma, {M::Sync, M::Aligned, M::Shape, M::LayoutA, M::LayoutB, M::Sat, T}, 2, 4, "d. s. s. s."},
      {Op::WmmaLoad, {M::Matrix, M::Sync, M::Aligned, M::LayoutA, M::Shape, M::Space, T}, 1, 1, "d. a. su?"},
      {Op::WmmaStore, {M::Matrix, M::Sync, M::Aligned, M::LayoutA, M::Shape, M::Space, T}, 1, 1, "a. s. su?"},
      {Op::WmmaMma, {M::Sync, M::Aligned, M::LayoutA, M::LayoutB, M::Shape, M::Sat, T}, 2, 4, "d. s. s. s."},
      {Op::WgmmaFence, {M::Sync, M::Aligned}, 0, 0, ""},
      {Op::WgmmaCommitGroup, {M::Sync, M::Aligned}, 0, 0, ""},
      {Op::WgmmaWaitGroup, {M::Sync, M::Aligned}, 0, 0, "iu"},
      {Op::WgmmaMmaAsync, {M::Sync, M::Aligned, M::Shape, M::Sat, T}, 3, 4, "d. s. s. x. i.? i.? i.? i.?"},  // integer forms: 4 operands
  };
  return r;
}

struct Table {
  std::array<OpInfo, static_cast<size_t>(Op::Count)> infos{};
  detail::NameMap<Op> by_name;
  detail::NameMap<detail::OpcodeHead> heads;  // by first word

  Table() {
    static constexpr std::array<std::string_view, static_cast<size_t>(Op::Count)> names = {
#define RACER_X(e, s) s,
        RACER_PTX_OPCODES(RACER_X)
#undef RACER_X
    };
    for (const Row& row : rows()) {
      auto i = static_cast<size_t>(row.op);
      infos[i] = {row.op, names[i], row.slots, row.min_types, row.max_types, row.operands, row.wide_data};
      by_name.emplace(names[i], row.op);
      std::string_view name = names[i];
      std::string_view head = name.substr(0, name.find('.'));
      auto words = static_cast<uint8_t>(1 + std::count(name.begin(), name.end(), '.'));
      detail::OpcodeHead& h = *heads.emplace(head, detail::OpcodeHead{}).first;
      if (words == 1) h.op = row.op;
      h.max_words = std::max(h.max_words, words);
    }
  }
};

const Table& table() {
  static const Table t;
  return t;
}

}  // namespace

const OpInfo& op_info(Op op) { return table().infos[static_cast<size_t>(op)]; }

std::optional<Op> op_from_name(std::string_view dotted_name) {
  if (const Op* op = table().by_name.find(dotted_name)) return *op;
  return std::nullopt;
}

const detail::OpcodeHead* detail::opcode_head(std::string_view first_word) { return table().heads.find(first_word); }

bool op_accepts(const OpInfo& info, Mod group) {
  for (Mod m : info.slots)
    if (m == group) return true;
  return false;
}

}  // namespace racer::ptx
