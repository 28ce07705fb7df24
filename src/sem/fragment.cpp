#include "sem/fragment.hpp"

#include <bit>

#include "exec/exact_float.hpp"
#include "exec/packed.hpp"
#include "exec/symbolic_domain.hpp"

namespace racer::sem {

unsigned per_register(Type elem) {
  unsigned b = ptx::type_bits(elem);
  return b == 16 ? 2 : b == 8 ? 4 : 1;
}

size_t fragment_registers(const ptx::Operand& vec) { return vec.kind == ptx::Operand::Kind::Vector ? vec.elems.size() : 1; }

static const ptx::Operand& reg_at(const ptx::Operand& vec, size_t k) { return vec.kind == ptx::Operand::Kind::Vector ? vec.elems[k] : vec; }

std::array<Value, 4> byte_elements(ExecContext& c, Value v, Type elem) {
  v = as_byte_lanes(c, v);
  std::array<Value, 4> out;
  for (unsigned e = 0; e < 4; ++e) {
    Value lane = exec::byte_lane(c.lanes(), v, e);
    if (lane.is_symbolic() && !lane.integer) throw exec::Refusal("8-bit integer elements that hold float data (a bit-level reinterpretation)");
    out[e] = lane.is_concrete() ? lane : c.dom.as_stored_integer(lane, elem);
  }
  return out;
}

std::vector<Value> read_fragment(ExecContext& c, const ptx::Operand& vec, Type elem) {
  std::vector<Value> out;
  unsigned p = per_register(elem);
  for (size_t k = 0; k < fragment_registers(vec); ++k) {
    Value v = c.get(reg_at(vec, k), Type::B32);
    if (p == 1) {
      out.push_back(v);
    } else if (p == 2) {
      auto lanes = exec::unpack_halves(v);
      out.push_back(lanes[0]);
      out.push_back(lanes[1]);
    } else {
      for (Value e : byte_elements(c, v, elem)) out.push_back(e);
    }
  }
  return out;
}

void write_fragment(ExecContext& c, const ptx::Operand& vec, Type elem, std::span<const Value> values) {
  unsigned p = per_register(elem);
  if (values.size() != fragment_registers(vec) * p) throw exec::Refusal("matrix fragment has the wrong number of registers");
  for (size_t k = 0; k < fragment_registers(vec); ++k) {
    if (p == 1) c.set(reg_at(vec, k), values[k]);
    else if (p == 2) c.set(reg_at(vec, k), exec::pack_halves(values[2 * k], values[2 * k + 1]));
    else {
      uint64_t bits = 0;
      for (unsigned e = 0; e < 4; ++e) {
        const Value& v = values[4 * k + e];
        if (!v.is_concrete()) throw exec::Refusal("8-bit matrix elements that depend on symbolic inputs are not modelled");
        bits |= (v.bits & 0xFF) << (8 * e);
      }
      c.set(reg_at(vec, k), Value::of_bits(bits));
    }
  }
}

void arrive_warp(ExecContext& c) {
  c.th.wait = exec::Wait::Warp;
  c.th.wait_instr = c.th.pc - 1;
  uint32_t mask = 0;
  for (uint32_t k = 0; k < 32 && size_t{c.th.warp} * 32 + k < c.cta.threads.size(); ++k) mask |= 1u << k;
  c.th.member_mask = mask;
}

void require_modelled_inputs(Type ab, const char* what) {
  switch (ab) {
    case Type::F16: case Type::BF16: case Type::TF32: case Type::S8: case Type::U8: return;
    default: throw exec::Refusal(std::string(what) + " with ." + std::string(ptx::type_name(ab)) + " inputs is not modelled");
  }
}

namespace {

// Integers: exact, then wrapped to 32 bits (or clamped by satfinite), as the hardware does.
Value integer_dot(exec::Domain& dom, Type ab, std::span<const Value> a, std::span<const Value> b, Value c, bool use_c, bool sat) {
  bool all_concrete = c.is_concrete() || !use_c;
  for (size_t k = 0; k < a.size(); ++k) all_concrete &= a[k].is_concrete() && b[k].is_concrete();
  IntT it(ab);
  if (all_concrete) {
    int64_t acc = use_c ? static_cast<int32_t>(c.bits) : 0;
    for (size_t k = 0; k < a.size(); ++k) acc += static_cast<int64_t>(it.ext(a[k].bits)) * static_cast<int64_t>(it.ext(b[k].bits));
    if (sat) acc = std::clamp<int64_t>(acc, INT32_MIN, INT32_MAX);
    return Value::of_bits(static_cast<uint32_t>(acc));
  }
  // With satfinite the sum is exact (in 64 bits: K products of 8-bit integers and an s32
  // accumulator cannot leave them) and then clamped to the s32 range.
  const Type sum_type = sat ? Type::S64 : Type::S32;
  Value acc = use_c ? dom.as_integer(c, Type::S32) : Value::of_bits(0);
  for (size_t k = 0; k < a.size(); ++k) {
    Value prod = dom.int_op(exec::IntOp::Mul, sum_type, dom.as_integer(a[k], ab), dom.as_integer(b[k], ab));
    acc = dom.int_op(exec::IntOp::Add, sum_type, dom.as_integer(acc, sum_type), prod);
  }
  if (sat) {
    acc = dom.int_op(exec::IntOp::Min, Type::S64, acc, Value::of_bits(static_cast<uint64_t>(int64_t{INT32_MAX})));
    acc = dom.int_op(exec::IntOp::Max, Type::S64, acc, Value::of_bits(static_cast<uint64_t>(int64_t{INT32_MIN})));
    acc = dom.as_integer(acc, Type::S32);
  }
  return acc;
}

}  // namespace

namespace {

__extension__ typedef unsigned __int128 U128;  // GCC's 128-bit integers, named once
__extension__ typedef __int128 I128;

// The exact value of c + sum a_k b_k, or nullopt if an operand is infinite or NaN. Each
// product is an integer times a power of two; they are aligned to the smallest exponent and
// summed as integers (in 128 bits when they fit, which is the common case), and only the sum
// becomes a rational.
std::optional<mpq_class> exact_dot_sum(Type ctype, Type ab, std::span<const Value> a, std::span<const Value> b, Value c,
                                       bool use_c) {
  struct Term {
    bool neg;
    U128 man;
    long exp;
  };
  std::vector<Term> terms;
  terms.reserve(a.size() + 1);
  auto finite = [](const exec::BinaryFloat& f) { return f.kind == exec::ExactFloat::Kind::Finite; };
  if (use_c) {
    exec::BinaryFloat f = exec::decode_binary(ctype, c.bits);
    if (!finite(f)) return std::nullopt;
    terms.push_back({f.neg, f.man, f.exp});
  }
  for (size_t k = 0; k < a.size(); ++k) {
    exec::BinaryFloat x = exec::decode_binary(ab, a[k].bits), y = exec::decode_binary(ab, b[k].bits);
    if (!finite(x) || !finite(y)) return std::nullopt;
    terms.push_back({x.neg != y.neg, static_cast<U128>(x.man) * y.man, x.exp + y.exp});
  }
  long emin = 0;
  int widest = 0;
  bool any = false;
  for (const Term& t : terms) {
    if (t.man == 0) continue;
    emin = any ? std::min(emin, t.exp) : t.exp;
    any = true;
  }
  if (!any) return mpq_class(0);
  for (const Term& t : terms) {
    if (t.man == 0) continue;
    int bits = 128 - (static_cast<uint64_t>(t.man >> 64) ? __builtin_clzll(static_cast<uint64_t>(t.man >> 64))
                                                          : 64 + __builtin_clzll(static_cast<uint64_t>(t.man)));
    widest = std::max(widest, bits + static_cast<int>(t.exp - emin));
  }
  mpz_class total;
  if (widest + 1 + std::bit_width(terms.size()) < 127) {
    I128 sum = 0;
    for (const Term& t : terms) {
      I128 v = static_cast<I128>(t.man << (t.exp - emin));
      sum += t.neg ? -v : v;
    }
    bool neg = sum < 0;
    U128 mag = neg ? static_cast<U128>(-sum) : static_cast<U128>(sum);
    mpz_class hi(static_cast<unsigned long>(static_cast<uint64_t>(mag >> 64)));
    total = (hi << 64) + mpz_class(static_cast<unsigned long>(static_cast<uint64_t>(mag)));
    if (neg) total = -total;
  } else {
    for (const Term& t : terms) {
      mpz_class v = (mpz_class(static_cast<unsigned long>(static_cast<uint64_t>(t.man >> 64))) << 64) +
                    mpz_class(static_cast<unsigned long>(static_cast<uint64_t>(t.man)));
      v <<= static_cast<mp_bitcnt_t>(t.exp - emin);
      total += t.neg ? mpz_class(-v) : v;
    }
  }
  mpq_class q(total);
  if (emin >= 0) mpq_mul_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<mp_bitcnt_t>(emin));
  else mpq_div_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<mp_bitcnt_t>(-emin));
  return q;
}

}  // namespace

Value dot(exec::Domain& dom, Type dtype, Type ctype, Type ab, std::span<const Value> a, std::span<const Value> b, Value c,
          bool use_c, bool satfinite) {
  if (!ptx::is_float(ab)) return integer_dot(dom, ab, a, b, c, use_c, satfinite);
  if (auto* sd = dynamic_cast<exec::SymbolicDomain*>(&dom)) {
    expr::Store& st = sd->store();
    std::vector<expr::ExprId> terms;
    terms.reserve(a.size() + 1);
    if (use_c) terms.push_back(sd->real(c, ctype));
    for (size_t k = 0; k < a.size(); ++k) terms.push_back(st.mul(sd->real(a[k], ab), sd->real(b[k], ab)));
    return Value::of_expr(terms.empty() ? st.zero() : st.add(terms));
  }
  // Concrete: the exact sum of exact products, rounded once.
  if (auto sum = exact_dot_sum(ctype, ab, a, b, c, use_c))
    if (auto bits = exec::encode_rounded(dtype, *sum)) return Value::of_bits(*bits);
  // Infinities, NaNs or overflow: IEEE arithmetic in the destination format decides them.
  Value acc = use_c ? dom.cvt(dtype, ctype, c, {}) : Value::of_bits(0);
  for (size_t k = 0; k < a.size(); ++k)
    acc = dom.fma(dtype, dom.cvt(dtype, ab, a[k], {}), dom.cvt(dtype, ab, b[k], {}), acc, {});
  return acc;
}

}  // namespace racer::sem
