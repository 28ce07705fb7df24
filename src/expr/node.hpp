#pragma once
// The node vocabulary of the expression DAG and its compact storage record.
#include <cstdint>
#include <string_view>

namespace racer::expr {

enum class Kind : uint8_t {
  Const,   // an extended rational: a rational, +inf, -inf, or Undefined (see ConstKind)
  Bool,    // a decided condition (the folded value of a Cmp)
  Symbol,  // a free real variable
  Add,     // coef + sum(weight_i * term_i)
  Mul,     // coef * prod(base_i ^ weight_i), integer weights
  Func,    // a unary real function (FuncKind)
  Min,
  Max,
  Select,  // select(cond, then, else); cond is a condition; both branches numbers or both conditions
  Cmp,     // a comparison (CmpOp): a condition, used by Select only
};

// Undefined is the value of inf - inf, 0 * inf, sin(inf), log(-1), 1/0: an operation
// with no real (or extended real) result. It is a constant rather than an exception so
// that a NaN computed in a lane whose result is never used costs nothing; it absorbs
// every operation it meets, so if it reaches an output cell the decider sees it there.
enum class ConstKind : uint8_t { Rational, PosInf, NegInf, Undefined };

enum class FuncKind : uint8_t { Exp, Log, Sqrt, Tanh, Erf, Sin, Cos, Abs };

// Two's-complement wrap-around to w bits (1 <= w <= 64), signed or unsigned: the member of the
// type's range [lo, lo + 2^w) congruent to the operand mod 2^w, x - 2^w floor((x - lo) / 2^w)
// (lo = -2^(w-1) signed, 0 unsigned), a real function defined everywhere. Each (w, signedness)
// is a FuncKind value of its own from kWrapFirst on (no enumerator names them), so that every
// place comparing function kinds tells wraps apart; code switching over FuncKind asks is_wrap
// first.
inline constexpr uint8_t kWrapFirst = 16;
constexpr FuncKind wrap_kind(unsigned bits, bool is_signed) {
  return FuncKind(kWrapFirst + 2 * (bits - 1) + (is_signed ? 1 : 0));
}
constexpr bool is_wrap(FuncKind f) { return uint8_t(f) >= kWrapFirst; }
constexpr unsigned wrap_bits(FuncKind f) { return (uint8_t(f) - kWrapFirst) / 2u + 1; }
constexpr bool wrap_signed(FuncKind f) { return (uint8_t(f) - kWrapFirst) % 2 == 1; }

// Gt and Ge are accepted by Store::cmp and stored swapped as Lt and Le.
enum class CmpOp : uint8_t { Lt, Le, Eq, Ne, Gt, Ge };

std::string_view func_name(FuncKind f);
std::string_view cmp_symbol(CmpOp op);

namespace detail {

// Per-node facts computed once at construction.
inline constexpr uint8_t kFinite = 1;   // a real number (never +-inf or Undefined) wherever defined
inline constexpr uint8_t kBoolean = 2;  // a condition (Bool, Cmp, Select of conditions), not a number

// 16 bytes: operands live in the Store's shared pool (off, n), rationals in its rational
// table (a and the pool's weight slots hold table indices), so hashing and comparing a
// node touches only integers.
struct Node {
  Kind kind;
  uint8_t op;     // ConstKind, FuncKind, CmpOp, or the Bool value
  uint8_t flags;  // kFinite, kBoolean
  // Add/Mul whose every weight is 1: the pool holds the operand ids only, one slot each (most
  // sums and products: a dot product's terms, a product's factors), which halves their slots.
  // Decided by the operands alone, so equal nodes always have the same layout.
  uint8_t unit = 0;
  uint32_t a;     // Const: rational index; Symbol: symbol index; Add/Mul: coefficient index
  uint32_t off;   // first operand slot in the pool
  uint32_t n;     // operand count (Add/Mul: (id, weight index) pairs, two slots each, or ids alone where unit)
};
static_assert(sizeof(Node) == 16);

}  // namespace detail
}  // namespace racer::expr
