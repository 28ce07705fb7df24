#pragma once
// Bit-exact emulation of the floating-point arithmetic of NVIDIA GPUs (sm_80 / sm_90) as PTX
// exposes it, on concrete bit patterns: the Concrete domain's arithmetic (witness replay,
// kernel-contract measurement). Pure functions on bits; nothing here knows the PTX IR.
//
// Values travel as std::uint64_t holding the format's storage bits in the low bits (F16 and
// BF16: 16 bits; TF32 and F32: 32; F64: 64; E4M3 and E5M2: 8). TF32 is stored as an F32 bit
// pattern whose low 13 mantissa bits are zero; readers ignore those 13 bits.
//
// Exactness. Every correctly rounded operation (add, sub, mul, fma, div, rcp, sqrt, every
// conversion) is computed exactly on integer significands (128-bit where needed) and rounded
// once by round_from_exact: no double rounding, fma included.
//
// Hardware behaviour modelled. Each rule below was measured on an H200 (sm_90, driver 580,
// CUDA 13) with tests/unit/exec/ieee_gpu_probe.cu: 197 exactly modelled instruction
// variants, 2*10^5 operands each (specials crossed, subnormals, halfway and cancellation
// cases), showed no difference from the models; ieee_gpu_test.cpp replays ~5000 of the
// recorded results.
//  * NaN results. f32, f16, bf16 (and fp8, tf32) arithmetic returns the canonical NaN
//    (canonical_nan: f32 0x7FFFFFFF, f16/bf16 0x7FFF, e4m3/e5m2 0x7F); payloads never pass.
//    f64 propagates: the NaN operand comes out quieted with its sign and payload; where
//    several are NaN the preferred one is b then a (add, sub, mul), b, c, a (fma), a then b
//    (div); an invalid operation (inf - inf, 0 * inf, 0 / 0, sqrt(-x)) gives
//    0xFFF8000000000000, which is canonical_nan(F64).
//  * abs and neg act on the bits, except that a NaN gives the canonical NaN (f64: the NaN
//    quieted, sign unchanged); copysign acts on the bits, NaN included.
//  * .ftz flushes subnormal operands to zero of the same sign, and results that are tiny
//    after rounding to the destination's precision with an unbounded exponent (the x86 FTZ
//    rule): 2^-126 - 2^-150 flushes to 0 (the subnormal grid would round it to 2^-126),
//    2^-126 (1 - 2^-46) rounds to 2^-126 and stays.
//  * .sat clamps to [+0, 1]: NaN and every negative value (-0 included) give +0.
//  * .relu: negative values give +0, NaN the canonical NaN.
//  * min/max return the other operand when exactly one is NaN; when both are, the
//    canonical NaN (f64: b quieted); .NaN makes any NaN operand give it. -0 < +0.
//  * cvt NaNs: to or from f64, sign and the top of the payload are kept and the quiet bit
//    set; bf16 -> f32 is a shift (payload kept, not quieted); f32 -> tf32 truncates the low
//    13 bits (with .satfinite then subtracts one tf32 ulp, NaN or inf alike); cvt.ftz from
//    f32 canonicalizes first; other pairs give the destination's canonical NaN. Float to
//    integer: NaN gives 0, except 0x80..0 of the destination width for 64-bit destinations
//    and for f64 sources. Float to integer saturates.
//  * testp.normal is true for zeros (as PTX states).
//
// Approximate instructions (the hardware's tables are not public). Model, and its measured
// distance to the H200 (every 509th f32 bit pattern; all 2^16 f16/bf16 inputs):
//    rcp.approx.f32          correctly rounded 1/x              <= 1 ulp (87% identical)
//    sqrt.approx.f32         correctly rounded sqrt             <= 1 ulp (92%)
//    rsqrt.approx.f32        correctly rounded 1/sqrt           <= 2 ulp (89%)
//    ex2.approx.f32          2^x (long double, RN)              <= 2 ulp (96%)
//    lg2.approx.f32          log2 (long double, RN)             <= 2 ulp, or absolute 2^-22
//                                                                  near x = 1 (75%)
//    sin/cos.approx.f32      sin/cos (long double, RN)          absolute <= 2^-21.2 on
//                            [-pi, pi], <= 2^-14.7 on [-100 pi, 100 pi]; beyond, the
//                            hardware's argument reduction departs from the real function
//    tanh.approx.f32         tanh (long double, RN)             <= 127 ulp, absolute 2^-17
//    ex2.approx.f16, ex2.approx.ftz.bf16, tanh.approx.f16/bf16: <= 1 ulp
//    rsqrt.approx.f64        correctly rounded                  <= 1 ulp (37 in 2*10^5)
//    rcp.approx.ftz.f64, rsqrt.approx.ftz.f64: computed from the upper 32-bit word of the
//                            operand, truncated to 20 fraction bits, low word 0; NaN gives
//                            0x7FFFFFFF00000000   identical in 96% / 98%, else 1 unit in the
//                            20th fraction bit
//    div.approx.f32          a * rcp(b), both RN; |b| > 2^126 gives a * 0; a subnormal b
//                            (no ftz) scales both operands by 2^24 first   <= 2 ulp
//    div.full.f32            as div.approx, but |b| > 2^126 scales both operands by 1/4
//                                                                      <= 2 ulp
// .ftz flushes subnormal inputs and outputs of these too. ex2/lg2/sin/cos/tanh use x87 long
// double (64-bit significand); the rounding to f32 is then wrong only where the real value
// lies within ~2^-62 (relative) of a rounding boundary.
#include <cstdint>

namespace racer::ieee {

__extension__ typedef unsigned __int128 u128;

enum class Format : std::uint8_t { F16, BF16, TF32, F32, F64, E4M3, E5M2 };

// RN: nearest, ties to even. RNA: nearest, ties away from zero (cvt.rna, tf32). The integer
// rounding modifiers of cvt (rni, rzi, rmi, rpi) are RN, RZ, RM, RP.
enum class Rounding : std::uint8_t { RN, RZ, RM, RP, RNA };

enum class FpClass : std::uint8_t { Zero, Subnormal, Normal, Inf, NaN };

struct FormatInfo {
  const char* name;
  int storage_bits;  // bits a value occupies in a register
  int exp_bits;
  int man_bits;      // stored fraction bits (precision is man_bits + 1)
  int bias;
  bool has_inf;      // E4M3 has no infinity: exponent field all ones is still finite
  int shift;         // position of the encoding inside the storage (13 for TF32, else 0)
  int emin() const { return 1 - bias; }  // unbiased exponent of the smallest normal
  int precision() const { return man_bits + 1; }
};
const FormatInfo& info(Format f);

// --- encoding ------------------------------------------------------------------------------
// The NaN that arithmetic of format f makes (F64: of an invalid operation, 0xFFF8000000000000).
std::uint64_t canonical_nan(Format f);
std::uint64_t quiet(Format f, std::uint64_t bits);  // NaN with its quiet bit set; others as is
std::uint64_t sign_bit(Format f);                  // the mask of the sign bit
std::uint64_t zero(Format f, bool neg);
std::uint64_t infinity(Format f, bool neg);        // E4M3: its canonical NaN
std::uint64_t max_finite(Format f, bool neg);      // F32 0x7F7FFFFF, E4M3 448, E5M2 57344
std::uint64_t min_normal(Format f, bool neg);
std::uint64_t one(Format f, bool neg = false);
FpClass classify(Format f, std::uint64_t bits);
bool is_nan(Format f, std::uint64_t bits);
bool is_inf(Format f, std::uint64_t bits);
bool is_zero(Format f, std::uint64_t bits);        // +0 or -0
bool is_subnormal(Format f, std::uint64_t bits);
bool is_neg(Format f, std::uint64_t bits);         // the sign bit, NaN included
// Zero of the same sign when ftz and bits is subnormal; otherwise bits unchanged.
std::uint64_t flush(Format f, std::uint64_t bits, bool ftz = true);

// Exact decomposition: value = (-1)^neg * mantissa * 2^exponent for finite values (zero has
// mantissa 0). For inf and NaN, mantissa and exponent are 0 and the flags say which.
struct Decoded {
  bool neg = false;
  bool inf = false;
  bool nan = false;
  std::uint64_t mantissa = 0;
  int exponent = 0;
};
Decoded decode(Format f, std::uint64_t bits);

// The value as a double. Exact for every format (each is a subset of F64); NaN gives a
// quiet NaN with the input's sign.
double to_double(Format f, std::uint64_t bits);
// The double x rounded to f (for tests and constants); a NaN converts as cvt from f64 does.
std::uint64_t from_double(Format f, double x, Rounding r = Rounding::RN, bool ftz = false,
                          bool satfinite = false);

// The core correctly rounded encoder. The exact operand is
//   (-1)^neg * (mant + s) * 2^exp,  s = 0 if !sticky, else some s in (0, 1),
// i.e. sticky says that nonzero bits lie below bit 0 of mant. Rounds once to f under r:
//  * subnormals are produced exactly (gradual underflow); with ftz a tiny result becomes
//    zero of the operand's sign;
//  * overflow gives infinity or max_finite as the mode dictates (RN, RNA: inf; RZ: max;
//    RP / RM: inf toward their direction, max the other way); with satfinite it gives
//    max_finite of the sign whatever the mode; E4M3 (no infinity) gives NaN where the mode
//    would give infinity, unless satfinite;
//  * an exact zero (mant == 0, !sticky) gives zero of sign neg.
// ftz flushes by the rule above (tiny after rounding with an unbounded exponent).
// Precondition when sticky: mant != 0, or exp lies below the format's smallest subnormal
// exponent (the rounding position is then above the sticky bits).
std::uint64_t round_from_exact(Format f, bool neg, u128 mant, int exp, bool sticky,
                               Rounding r, bool ftz = false, bool satfinite = false);

// --- modifiers shared by arithmetic and conversions ----------------------------------------
struct Mode {
  Rounding rnd = Rounding::RN;
  bool ftz = false;        // .ftz: flush subnormal inputs and results
  bool sat = false;        // .sat: clamp to [+0, 1], NaN -> +0
  bool relu = false;       // .relu: negative -> +0, NaN -> canonical NaN
  bool satfinite = false;  // .satfinite: overflow and inf -> +-max_finite, NaN stays NaN
};
std::uint64_t apply_sat(Format f, std::uint64_t bits);   // the .sat clamp
std::uint64_t apply_relu(Format f, std::uint64_t bits);  // the .relu clamp

// --- correctly rounded arithmetic (add/sub/mul/fma/div/rcp/sqrt{.rnd}{.ftz}{.sat}) --------
// Any format; PTX allows .rn/.rz/.rm/.rp for f32 and f64, .rn for f16/bf16 (fma.relu too).
// NaN results follow the NaN rules above; an exact zero sum is +0 (-0 under RM) unless both
// addends are -0. relu applies to fma of f16/bf16; sat to f32/f16.
std::uint64_t add(Format f, std::uint64_t a, std::uint64_t b, const Mode& m = {});
std::uint64_t sub(Format f, std::uint64_t a, std::uint64_t b, const Mode& m = {});
std::uint64_t mul(Format f, std::uint64_t a, std::uint64_t b, const Mode& m = {});
std::uint64_t fma(Format f, std::uint64_t a, std::uint64_t b, std::uint64_t c,
                  const Mode& m = {});  // a * b + c, one rounding
std::uint64_t div(Format f, std::uint64_t a, std::uint64_t b, const Mode& m = {});
std::uint64_t rcp(Format f, std::uint64_t a, const Mode& m = {});  // rcp.rnd: 1 / a
std::uint64_t sqrt(Format f, std::uint64_t a, const Mode& m = {});

// Packed x2 forms on 32-bit words holding two F16 or BF16 (bits 15:0 and 31:16), each half
// computed independently (add/sub/mul/fma/min/max/neg/abs .f16x2 / .bf16x2).
std::uint32_t add_x2(Format f, std::uint32_t a, std::uint32_t b, const Mode& m = {});
std::uint32_t sub_x2(Format f, std::uint32_t a, std::uint32_t b, const Mode& m = {});
std::uint32_t mul_x2(Format f, std::uint32_t a, std::uint32_t b, const Mode& m = {});
std::uint32_t fma_x2(Format f, std::uint32_t a, std::uint32_t b, std::uint32_t c,
                     const Mode& m = {});
// Applies fn (uint64 -> uint64) to each 16-bit half.
template <class Fn>
std::uint32_t map_x2(std::uint32_t a, Fn fn) {
  return static_cast<std::uint32_t>(fn(std::uint64_t{a & 0xFFFFu}) & 0xFFFFu) |
         static_cast<std::uint32_t>(fn(std::uint64_t{a >> 16}) & 0xFFFFu) << 16;
}
template <class Fn>
std::uint32_t map_x2(std::uint32_t a, std::uint32_t b, Fn fn) {
  return static_cast<std::uint32_t>(fn(std::uint64_t{a & 0xFFFFu}, std::uint64_t{b & 0xFFFFu}) &
                                    0xFFFFu) |
         static_cast<std::uint32_t>(fn(std::uint64_t{a >> 16}, std::uint64_t{b >> 16}) &
                                    0xFFFFu)
             << 16;
}

// --- division models ------------------------------------------------------------------------
// div.approx{.ftz}.f32 and div.full{.ftz}.f32, modelled as in the file comment.
std::uint32_t div_approx_f32(std::uint32_t a, std::uint32_t b, bool ftz);
std::uint32_t div_full_f32(std::uint32_t a, std::uint32_t b, bool ftz);

// --- approximate functions (model in the file comment) ---------------------------------------
// Formats: rcp F32 F64 (rcp.approx.ftz.f64); sqrt F32; rsqrt F32 F64; ex2 F32 F16 BF16;
// lg2 F32; sin cos F32; tanh F32 F16 BF16. ftz flushes subnormal inputs and outputs (for
// F64, ftz selects the upper-word forms rcp/rsqrt.approx.ftz.f64).
std::uint64_t rcp_approx(Format f, std::uint64_t a, bool ftz);
std::uint64_t sqrt_approx(Format f, std::uint64_t a, bool ftz);
std::uint64_t rsqrt_approx(Format f, std::uint64_t a, bool ftz);
std::uint64_t ex2_approx(Format f, std::uint64_t a, bool ftz);
std::uint64_t lg2_approx(Format f, std::uint64_t a, bool ftz);
std::uint64_t sin_approx(Format f, std::uint64_t a, bool ftz);
std::uint64_t cos_approx(Format f, std::uint64_t a, bool ftz);
std::uint64_t tanh_approx(Format f, std::uint64_t a, bool ftz);

// --- comparisons, min/max, sign operations --------------------------------------------------
// setp/set comparison operators. Ordered ones are false when either operand is NaN,
// unordered ones (...U) true; Num: neither is NaN; Nan: either is. -0 == +0.
enum class Cmp : std::uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };
bool compare(Format f, Cmp c, std::uint64_t a, std::uint64_t b, bool ftz = false);

struct MinMax {
  bool ftz = false;
  bool nan = false;          // .NaN: any NaN operand gives the canonical NaN
  bool xorsign_abs = false;  // .xorsign.abs: min/max of |a|, |b|, sign = sign(a) ^ sign(b)
};
std::uint64_t min(Format f, std::uint64_t a, std::uint64_t b, const MinMax& m = {});
std::uint64_t max(Format f, std::uint64_t a, std::uint64_t b, const MinMax& m = {});
std::uint64_t abs(Format f, std::uint64_t a, bool ftz = false);
std::uint64_t neg(Format f, std::uint64_t a, bool ftz = false);
// copysign.type d, a, b: b's magnitude with a's sign (PTX operand order).
std::uint64_t copysign(Format f, std::uint64_t a, std::uint64_t b);

// testp.op
enum class TestOp : std::uint8_t { Finite, Infinite, Number, NotANumber, Normal, Subnormal };
bool testp(Format f, TestOp op, std::uint64_t a);

// --- conversions ---------------------------------------------------------------------------
// cvt{.rnd}{.ftz}{.sat}{.relu}{.satfinite}.to.from between any two float formats, rounded
// once; NaNs by the cvt rule above (+0 with sat). satfinite maps +-inf to +-max_finite
// (E4M3/E5M2 destinations: PTX requires .satfinite). Widening conversions are exact. ftz
// applies to the F32 side(s) only, as in PTX.
std::uint64_t convert(Format to, Format from, std::uint64_t bits, const Mode& m = {});
// Pairs: cvt.rn{.relu}{.satfinite}.f16x2.f32 d, a, b (also bf16x2, e4m3x2, e5m2x2): a goes
// to the upper half, b to the lower.
std::uint64_t convert_pair(Format to, Format from, std::uint64_t a, std::uint64_t b,
                           const Mode& m = {});
// Packed to packed: each of the two lanes (upper and lower) converted, e.g.
// cvt.rn.f16x2.e4m3x2 (8-bit lanes to 16-bit lanes) or cvt.rn.satfinite.e4m3x2.f16x2.
std::uint64_t convert_x2(Format to, Format from, std::uint64_t packed, const Mode& m = {});

// cvt.rni/rzi/rmi/rpi{.ftz}{.sat}.f.f: round to an integral value in the same format.
std::uint64_t round_to_integral(Format f, std::uint64_t bits, Rounding r, bool ftz = false,
                                bool sat = false);

enum class IntType : std::uint8_t { S8, S16, S32, S64, U8, U16, U32, U64 };
int int_bits(IntType t);
bool int_signed(IntType t);
// cvt.{rni,rzi,rmi,rpi}{.ftz}.int.float: rounds, then saturates to the integer type's range
// (PTX: float-to-int always saturates); NaN by the rule above. The result is the integer
// sign-extended (signed types) or zero-extended (unsigned) to 64 bits.
std::uint64_t to_int(IntType to, Format from, std::uint64_t bits, Rounding r, bool ftz = false);
// cvt.rnd{.sat}.float.int: the integer (its low int_bits(from) bits, read as signed or
// unsigned) rounded to f.
std::uint64_t from_int(Format to, IntType from, std::uint64_t value, const Mode& m = {});

}  // namespace racer::ieee
