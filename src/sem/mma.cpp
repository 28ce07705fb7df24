// mma.sync (warp-level matrix multiply-accumulate): m16n8k8 and m16n8k16 for f16/bf16,
// m16n8k4 and m16n8k8 for tf32, m16n8k16 and m16n8k32 for s8/u8, A row-major and B
// column-major, with the fragment layouts of the PTX ISA. Each result element is the exact
// dot product of its row and column plus the accumulator (fragment.hpp: dot).
#include "sem/fragment.hpp"
#include "sem/semantics.hpp"

namespace racer::sem {
namespace {

using exec::Cta;
using exec::Machine;
using exec::Thread;

bool shape_modelled(Type ab, ptx::Shape s) {
  if (s.m != 16 || s.n != 8) return false;
  switch (ab) {
    case Type::F16: case Type::BF16: return s.k == 8 || s.k == 16;
    case Type::TF32: return s.k == 4 || s.k == 8;
    case Type::S8: case Type::U8: return s.k == 16 || s.k == 32;
    default: return false;
  }
}

// Where element i of a lane's A fragment sits in the 16 x K tile: registers alternate
// between rows g and g + 8, then move K_reg columns on (K_reg = 4 elements per register).
struct RowCol {
  unsigned row, col;
};
RowCol a_position(unsigned lane, unsigned i, unsigned p) {
  unsigned g = lane / 4, t = lane % 4, reg = i / p, e = i % p;
  return {g + 8 * (reg & 1), t * p + e + 4 * p * (reg >> 1)};
}
RowCol b_position(unsigned lane, unsigned i, unsigned p) {  // in the K x 8 tile
  unsigned g = lane / 4, t = lane % 4, reg = i / p, e = i % p;
  return {t * p + e + 4 * p * reg, g};
}
RowCol c_position(unsigned lane, unsigned i) {  // in the 16 x 8 tile
  unsigned g = lane / 4, t = lane % 4;
  return {g + 8 * (i >> 1), t * 2 + (i & 1)};
}

void mma_step(ExecContext& c, const Instr& i) {
  Type d = i.type(0), a = i.type(1), b = i.type(2), ct = i.type(3);
  if (i.num_types != 4) throw exec::Refusal("mma without its four types is not modelled");
  require_modelled_inputs(a, "mma");
  if (a != b) throw exec::Refusal("mma with different A and B types is not modelled");
  if (!shape_modelled(a, i.shape))
    throw exec::Refusal("mma shape m" + std::to_string(i.shape.m) + "n" + std::to_string(i.shape.n) + "k" +
                        std::to_string(i.shape.k) + " with ." + std::string(ptx::type_name(a)) + " is not modelled");
  std::string_view la = i.has(Mod::LayoutA) ? ptx::mod_values(Mod::LayoutA)[i.mod(Mod::LayoutA)] : "";
  std::string_view lb = i.has(Mod::LayoutB) ? ptx::mod_values(Mod::LayoutB)[i.mod(Mod::LayoutB)] : "";
  if ((!la.empty() && la != "row") || (!lb.empty() && lb != "col")) throw exec::Refusal("mma layouts other than .row.col are not modelled");
  if (ptx::is_float(a) ? !(d == Type::F32 || d == Type::F16) || !(ct == Type::F32 || ct == Type::F16)
                       : d != Type::S32 || ct != Type::S32)
    throw exec::Refusal("mma accumulator types ." + std::string(ptx::type_name(d)) + "/." + std::string(ptx::type_name(ct)) + " are not modelled");
  arrive_warp(c);
  if (c.th.member_mask != 0xFFFFFFFFu) throw exec::Refusal("mma.sync in a warp of fewer than 32 threads");
}

void mma_collective(ExecContext& c0, const Instr& i, std::span<Thread* const> lanes) {
  Type d = i.type(0), ab = i.type(1), ct = i.type(3);
  unsigned K = i.shape.k, p = per_register(ab);
  bool sat = i.has(Mod::Sat);
  std::vector<Value> A(16 * K), B(K * 8), C(16 * 8);
  for (Thread* t : lanes) {
    ExecContext lc = c0.with(*t);
    auto fa = read_fragment(lc, i.operands[1], ab);
    auto fb = read_fragment(lc, i.operands[2], ab);
    auto fc = read_fragment(lc, i.operands[3], ct);
    if (fa.size() != K / 2 || fb.size() != K / 4 || fc.size() != 4) throw exec::Refusal("mma fragment has the wrong number of registers");
    for (unsigned e = 0; e < fa.size(); ++e) {
      RowCol rc = a_position(t->lane, e, p);
      A[rc.row * K + rc.col] = fa[e];
    }
    for (unsigned e = 0; e < fb.size(); ++e) {
      RowCol rc = b_position(t->lane, e, p);
      B[rc.row * 8 + rc.col] = fb[e];
    }
    for (unsigned e = 0; e < 4; ++e) {
      RowCol rc = c_position(t->lane, e);
      C[rc.row * 8 + rc.col] = fc[e];
    }
  }
  std::vector<Value> row(K), col(K);
  for (Thread* t : lanes) {
    std::vector<Value> out(4);
    for (unsigned e = 0; e < 4; ++e) {
      RowCol rc = c_position(t->lane, e);
      for (unsigned k = 0; k < K; ++k) row[k] = A[rc.row * K + k], col[k] = B[k * 8 + rc.col];
      out[e] = dot(c0.dom, d, ct, ab, row, col, C[rc.row * 8 + rc.col], true, sat);
    }
    ExecContext lc = c0.with(*t);
    write_fragment(lc, i.operands[0], d, out);
  }
}

}  // namespace

void register_mma(exec::Semantics& s) {
  s.step[size_t(ptx::Op::Mma)] = mma_step;
  s.collective[size_t(ptx::Op::Mma)] = mma_collective;
}

}  // namespace racer::sem
