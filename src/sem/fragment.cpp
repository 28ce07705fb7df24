#include "sem/fragment.hpp"

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
      if (!v.is_concrete()) throw exec::Refusal("8-bit matrix elements that depend on symbolic inputs are not modelled");
      for (unsigned e = 0; e < 4; ++e) out.push_back(Value::of_bits(v.bits >> (8 * e) & 0xFF));
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

ExecContext lane_context(exec::Machine& m, exec::Cta& cta, const ptx::Function& fn, exec::Thread& th) {
  return ExecContext{m, cta, th, *m.current_launch().module, fn, m.current_domain()};
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
  if (sat) throw exec::Refusal("saturating integer matrix product of symbolic data");
  Value acc = use_c ? c : Value::of_bits(0);
  for (size_t k = 0; k < a.size(); ++k) {
    Value prod = dom.int_op(exec::IntOp::Mul, Type::S32, dom.as_integer(a[k], ab), dom.as_integer(b[k], ab));
    acc = dom.int_op(exec::IntOp::Add, Type::S32, dom.as_integer(acc, Type::S32), prod);
  }
  return acc;
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
  mpq_class sum = 0;
  bool finite = true;
  auto add_exact = [&](Type t, Value v, const mpq_class* times) {
    exec::ExactFloat x = exec::decode_float(t, v.bits);
    if (x.kind != exec::ExactFloat::Kind::Finite) return finite = false, mpq_class(0);
    return times ? mpq_class(x.value * *times) : x.value;
  };
  if (use_c) sum += add_exact(ctype, c, nullptr);
  for (size_t k = 0; k < a.size() && finite; ++k) {
    mpq_class bk = add_exact(ab, b[k], nullptr);
    sum += add_exact(ab, a[k], &bk);
  }
  if (finite) {
    if (auto bits = exec::encode_rounded(dtype, sum)) return Value::of_bits(*bits);
  }
  // Infinities, NaNs or overflow: IEEE arithmetic in the destination format decides them.
  Value acc = use_c ? dom.cvt(dtype, ctype, c, {}) : Value::of_bits(0);
  for (size_t k = 0; k < a.size(); ++k)
    acc = dom.fma(dtype, dom.cvt(dtype, ab, a[k], {}), dom.cvt(dtype, ab, b[k], {}), acc, {});
  return acc;
}

}  // namespace racer::sem
