// wgmma (warpgroup matrix multiply-accumulate, sm_90a): wgmma.mma_async m64nNk16 (f16,
// bf16), m64nNk8 (tf32), m64nNk32 (s8/u8) with A and B in shared memory (matrix descriptors
// with their swizzle modes) or A in registers; wgmma.fence, commit_group, wait_group.
//
// Each warp of the warpgroup owns 16 rows of D, so the instruction runs per warp (a warp
// collective). Its operands are read when it is issued; the accumulator registers are then
// pending until a wgmma.wait_group retires their group (exec/async_registers.cpp): reading
// or writing them earlier, other than by a later wgmma.mma_async, is a defect. Shared-memory
// operands stored by ordinary st.shared must have been fenced (fence.proxy.async) by the
// storing thread first, or the wgmma's read of them is a race.
#include "exec/async_state.hpp"
#include "exec/packed.hpp"
#include "sem/fragment.hpp"
#include "sem/semantics.hpp"

namespace racer::sem {
namespace {

using exec::Cta;
using exec::Machine;
using exec::Thread;

struct Descriptor {
  uint64_t start, lbo, sbo;
  unsigned swizzle_bytes;  // 0: none (interleaved core matrices), else 128, 64 or 32
};

Descriptor decode(uint64_t d) {
  if ((d >> 49) & 7) throw exec::Refusal("wgmma matrix descriptor with a nonzero base offset is not modelled");
  static constexpr unsigned kSwizzle[4] = {0, 128, 64, 32};
  return {(d & 0x3FFF) << 4, ((d >> 16) & 0x3FFF) << 4, ((d >> 32) & 0x3FFF) << 4, kSwizzle[d >> 62]};
}

// The shared-memory address of element (mn, k) of an operand in the canonical layouts the
// descriptor names: K-major (k contiguous) or MN-major (m or n contiguous), each either as
// 8-row x 16-byte core matrices (LBO / SBO between them) or as swizzle atoms of 8 rows of
// 32/64/128 bytes whose 16-byte chunks are permuted by the row within the atom.
uint64_t element_address(const Descriptor& d, bool mn_major, unsigned mn, unsigned k, unsigned eb) {
  unsigned per16 = 16 / eb;
  uint64_t a;
  if (d.swizzle_bytes == 0) {
    a = mn_major ? d.start + (mn % per16) * eb + (mn / per16) * d.sbo + (k % 8) * 16 + (k / 8) * d.lbo
                 : d.start + (mn % 8) * 16 + (mn / 8) * d.sbo + (k % per16) * eb + (k / per16) * d.lbo;
    return a;
  }
  unsigned w = d.swizzle_bytes, row_elems = w / eb;
  a = mn_major ? d.start + (mn % row_elems) * eb + (mn / row_elems) * d.lbo + (k % 8) * w + (k / 8) * d.sbo
               : d.start + (mn % 8) * w + (mn / 8) * d.sbo + k * eb;
  uint64_t row_bits = w == 128 ? 7 : w == 64 ? 3 : 1;
  return a ^ (((a >> 7) & row_bits) << 4);
}

struct Form {
  Type d, a, b;
  unsigned n, k;
  bool a_in_registers;
};

Form form_of(const Instr& i) {
  if (i.num_types != 3) throw exec::Refusal("wgmma.mma_async type list not modelled");
  Form f{i.type(0), i.type(1), i.type(2), i.shape.n, i.shape.k, i.operands[1].kind == ptx::Operand::Kind::Vector};
  require_modelled_inputs(f.a, "wgmma.mma_async");
  if (f.a != f.b) throw exec::Refusal("wgmma.mma_async with different A and B types is not modelled");
  unsigned want_k = ptx::type_bits(f.a) == 16 ? 16 : f.a == Type::TF32 ? 8 : 32;
  if (i.shape.m != 64 || f.k != want_k || f.n % 8 || f.n == 0 || f.n > 256)
    throw exec::Refusal("wgmma shape m" + std::to_string(i.shape.m) + "n" + std::to_string(f.n) + "k" + std::to_string(f.k) +
                        " with ." + std::string(ptx::type_name(f.a)) + " is not modelled");
  return f;
}

void mma_async_step(ExecContext& c, const Instr& i) {
  Form f = form_of(i);
  if (c.cta.threads.size() % 128) throw exec::Refusal("wgmma in a CTA whose threads do not form whole warpgroups");
  size_t want = ptx::is_float(f.d) && ptx::type_bits(f.d) == 16 ? f.n / 4 : f.n / 2;
  if (fragment_registers(i.operands[0]) != want) throw exec::Refusal("wgmma accumulator has the wrong number of registers");
  arrive_warp(c);
}

int64_t immediate(const Instr& i, size_t k, int64_t dflt) {
  if (k >= i.operands.size()) return dflt;
  if (i.operands[k].kind != ptx::Operand::Kind::Imm) throw exec::Refusal("wgmma scale/transpose operand is not an immediate");
  return i.operands[k].value;
}

void mma_async(ExecContext& c0, const Instr& i, std::span<Thread* const> lanes) {
  Form f = form_of(i);
  exec::Domain& dom = c0.dom;
  unsigned eb = ptx::type_bits(f.a == Type::TF32 ? Type::F32 : f.a) / 8, K = f.k, N = f.n;
  bool fl = ptx::is_float(f.a);
  // Operands: d, a, b, scale-d, then for floats imm-scale-a, imm-scale-b and (16-bit types)
  // imm-tnsp-a (descriptor A only) and imm-tnsp-b.
  size_t next = 4;
  int64_t scale_a = fl ? immediate(i, next++, 1) : 1, scale_b = fl ? immediate(i, next++, 1) : 1;
  bool tnsp_a = !f.a_in_registers && fl && immediate(i, f.a_in_registers ? 99 : next++, 0) != 0;
  bool tnsp_b = fl && immediate(i, next, 0) != 0;
  if ((tnsp_a || tnsp_b) && eb != 2) throw exec::Refusal("transposed wgmma operands of other than 16-bit types");
  if ((scale_a != 1 && scale_a != -1) || (scale_b != 1 && scale_b != -1)) throw exec::Refusal("wgmma scale other than 1 or -1");

  ExecContext lead = c0.with(*lanes.front());
  unsigned w = lanes.front()->warp % 4;
  // A: this warp's 16 rows; B: all N columns.
  std::vector<Value> A(16 * K), B(N * K);
  if (f.a_in_registers) {
    for (Thread* t : lanes) {
      ExecContext lc = c0.with(*t);
      auto fa = read_fragment(lc, i.operands[1], f.a);
      unsigned p = per_register(f.a);
      if (fa.size() != K / 2) throw exec::Refusal("wgmma register A fragment has the wrong number of registers");
      for (unsigned e = 0; e < fa.size(); ++e) {
        unsigned g = t->lane / 4, tq = t->lane % 4, reg = e / p, x = e % p;
        A[(g + 8 * (reg & 1)) * K + tq * p + x + 4 * p * (reg >> 1)] = fa[e];
      }
    }
  } else {
    Descriptor da = decode(lead.get_bits(i.operands[1], Type::B64));
    for (unsigned r = 0; r < 16; ++r)
      for (unsigned k = 0; k < K; ++k)
        A[r * K + k] = c0.async().async_proxy_load(lead, i, element_address(da, tnsp_a, 16 * w + r, k, eb), eb, f.a);
  }
  Descriptor db = decode(lead.get_bits(i.operands[2], Type::B64));
  for (unsigned n = 0; n < N; ++n)
    for (unsigned k = 0; k < K; ++k) B[n * K + k] = c0.async().async_proxy_load(lead, i, element_address(db, tnsp_b, n, k, eb), eb, f.a);
  if (scale_a < 0)
    for (Value& v : A) v = dom.fun(exec::FUn::Neg, f.a, v, {});
  if (scale_b < 0)
    for (Value& v : B) v = dom.fun(exec::FUn::Neg, f.a, v, {});
  Value scale_d = lead.get(i.operands[3], Type::Pred);
  if (!scale_d.is_concrete()) throw exec::Refusal("wgmma scale-d depends on symbolic data");
  bool use_c = scale_d.bits & 1;

  const ptx::Operand& dv = i.operands[0];
  unsigned per = per_register(f.d), elems = static_cast<unsigned>(dv.elems.size()) * per;
  std::vector<uint32_t> regs;
  for (const ptx::Operand& r : dv.elems) regs.push_back(r.index);
  std::vector<Value> row(K), col(K);
  for (Thread* t : lanes) {
    // The accumulator as it stands (a chained wgmma reads it while it is still pending).
    exec::settle_deferred(*t, dom);
    std::vector<Value> c_in;
    for (uint32_t r : regs) {
      if (per == 1) c_in.push_back(t->regs[r]);
      else for (Value h : exec::unpack_halves(t->regs[r])) c_in.push_back(h);
    }
    std::vector<Value> out(elems);
    unsigned g = t->lane / 4, tq = t->lane % 4;
    for (unsigned e = 0; e < elems; ++e) {
      unsigned j = e / 4, q = e % 4, r = g + 8 * (q >> 1), cl = 8 * j + tq * 2 + (q & 1);
      for (unsigned k = 0; k < K; ++k) row[k] = A[r * K + k], col[k] = B[cl * K + k];
      out[e] = dot(dom, f.d, f.d, f.a, row, col, c_in[e], use_c, i.has(Mod::Sat));
    }
    for (size_t k = 0; k < regs.size(); ++k) {
      t->regs[regs[k]] = per == 1 ? out[k] : exec::pack_halves(out[2 * k], out[2 * k + 1]);
      t->def_pc[regs[k]] = t->pc - 1;
    }
    ExecContext lc = c0.with(*t);
    c0.async().pend_registers(lc, i, regs);
  }
}

}  // namespace

void register_wgmma(exec::Semantics& s) {
  s.step[size_t(ptx::Op::WgmmaMmaAsync)] = mma_async_step;
  s.collective[size_t(ptx::Op::WgmmaMmaAsync)] = mma_async;
  // wgmma.fence orders register and shared-memory accesses before a wgmma; Racer reads the
  // operands when the wgmma is issued, in program order, so it changes nothing here.
  s.step[size_t(ptx::Op::WgmmaFence)] = [](ExecContext&, const Instr&) {};
  s.step[size_t(ptx::Op::WgmmaCommitGroup)] = [](ExecContext& c, const Instr&) { c.async().wgmma_commit(c); };
  s.step[size_t(ptx::Op::WgmmaWaitGroup)] = [](ExecContext& c, const Instr& i) {
    c.async().wgmma_wait(c, static_cast<uint32_t>(int_operand(c, i.operands[0], Type::U32)));
  };
}

}  // namespace racer::sem
