#pragma once
// Instruction modifiers, grouped the way the PTX ISA groups them (a rounding mode, a
// comparison, a cache operator, ...). An instruction holds at most one value per group;
// which groups an opcode takes, and in which order they print, is in the opcode table.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace racer::ptx {

enum class Mod : uint8_t {
  Rnd,        // rn rz rm rp rna rs rni rzi rmi rpi approx full
  Ftz,
  Sat,        // sat satfinite
  Relu,
  NaN,
  XorSign,
  Abs,
  Cc,
  Mode,       // lo hi wide
  Cmp,        // eq ne lt le gt ge lo ls hi hs equ neu ltu leu gtu geu num nan
  BoolOp,     // and or xor
  Sem,        // weak volatile relaxed acquire release acq_rel sc mmio
  Scope,      // cta cluster gpu sys gl
  Space,      // global shared shared::cta shared::cluster local param const generic ...
  Space2,     // second state space (cp.async .shared.global, cvta .to.global)
  To,
  Nc,
  CacheOp,    // ca cg cs lu cv wb wt
  L1Evict,    // L1::evict_normal ...
  L2Evict,    // L2::evict_first ...
  CacheHint,  // L2::cache_hint
  Prefetch,   // L2::64B L2::128B L2::256B
  Vec,        // v2 v4 v8
  AtomOp,     // and or xor cas exch add inc dec min max
  Uni,
  Sync,
  Aligned,
  ShflMode,   // up down bfly idx
  VoteMode,   // all any uni ballot
  RedOp,      // popc and or (bar.red)
  LayoutA,    // row col
  LayoutB,
  Matrix,     // a b c d (wmma)
  Num,        // x1 x2 x4
  Trans,
  ProxyKind,  // alias async tensormap::generic
  IncDec,     // inc dec (setmaxnreg)
  PrmtMode,   // f4e b4e rc8 ecl ecr rc16
  ShfDir,     // l r
  ShfMode,    // clamp wrap
  ShiftAmt,
  TestKind,   // finite infinite number notanumber normal subnormal
  MatchMode,  // any all
  ExpectTx,
  Parity,
  NoInc,
  NoComplete,
  Dim,        // 1d .. 5d
  LoadMode,   // tile im2col
  Completion, // mbarrier::complete_tx::bytes bulk_group
  Multicast,  // multicast::cluster
  Read,       // read (cp.async.bulk.wait_group.read)
  Level,      // L1 L2 (prefetch)
  Arrive,     // arrive (barrier.cluster.arrive variants)
  Policy,     // fractional range cvt (createpolicy)
  L2Evict2,   // L2::evict_unchanged: createpolicy's secondary eviction priority
  NoFtz,      // noftz (atom.add.noftz.f16: subnormal results kept)
  Shape,      // mMnNkK: value kept in Instr::shape, the group only marks presence
  Count
};

constexpr size_t kModCount = static_cast<size_t>(Mod::Count);

std::string_view mod_group_name(Mod g);
std::span<const std::string_view> mod_values(Mod g);
// Index of `value` (without the dot) in the group's vocabulary, or nullopt.
std::optional<uint8_t> mod_value_index(Mod g, std::string_view value);

// The rounding/approximation group's values, by index (for the executor and printer).
namespace rnd {
enum : uint8_t { RN, RZ, RM, RP, RNA, RS, RNI, RZI, RMI, RPI, APPROX, FULL };
// The modes that round to an integral value (cvt.rni/.rzi/.rmi/.rpi).
inline bool to_integer(uint8_t r) { return r == RNI || r == RZI || r == RMI || r == RPI; }
}
namespace cmp {
enum : uint8_t { EQ, NE, LT, LE, GT, GE, LO, LS, HI, HS, EQU, NEU, LTU, LEU, GTU, GEU, NUM, NAN_ };
}
namespace mode {
enum : uint8_t { LO, HI, WIDE };
}
namespace atomop {
enum : uint8_t { AND, OR, XOR, CAS, EXCH, ADD, INC, DEC, MIN, MAX };
}
namespace shfl {
enum : uint8_t { UP, DOWN, BFLY, IDX };
}
namespace vote {
enum : uint8_t { ALL, ANY, UNI, BALLOT };
}

// Matrix shape of mma/wmma/wgmma/ldmatrix (m16n8k16, m8n8, ...); k == 0 when absent.
struct Shape {
  uint16_t m = 0, n = 0, k = 0;
  bool operator==(const Shape&) const = default;
};
std::optional<Shape> parse_shape(std::string_view text);

}  // namespace racer::ptx
