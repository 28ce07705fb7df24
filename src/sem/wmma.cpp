// wmma.load / wmma.mma / wmma.store (warp-level matrix fragments): m16n16k16, m32n8k16 and
// m8n32k16 for f16/bf16/s8/u8, m16n16k8 for tf32, f32/f16/s32 accumulators.
//
// The PTX ISA leaves the distribution of a wmma fragment over the lanes unspecified, so a
// correct program never depends on it: Racer gives lane L the tile's elements L*u .. L*u+u-1
// in row-major order (u = elements / 32). Where a fragment has more slots than that (f16 A
// and B on the older shapes), the extra slots hold copies; wmma.mma requires the copies to
// agree and refuses otherwise (an answer would then depend on the unspecified layout).
#include "sem/fragment.hpp"
#include "sem/semantics.hpp"

namespace racer::sem {
namespace {

using exec::Cta;
using exec::Machine;
using exec::Thread;

enum class Which : uint8_t { A, B, C, D };

Which which(const Instr& i) {
  std::string_view n = ptx::mod_values(Mod::Matrix)[i.mod(Mod::Matrix)];
  return n == "a" ? Which::A : n == "b" ? Which::B : n == "c" ? Which::C : Which::D;
}

struct Tile {
  unsigned rows, cols;
};

Tile tile_of(Which w, ptx::Shape s) {
  switch (w) {
    case Which::A: return {s.m, s.k};
    case Which::B: return {s.k, s.n};
    default: return {s.m, s.n};
  }
}

void check_shape(ptx::Shape s, Type ab) {
  bool ok = ab == Type::TF32 ? s.m == 16 && s.n == 16 && s.k == 8
                             : s.k == 16 && ((s.m == 16 && s.n == 16) || (s.m == 32 && s.n == 8) || (s.m == 8 && s.n == 32));
  if (!ok)
    throw exec::Refusal("wmma shape m" + std::to_string(s.m) + "n" + std::to_string(s.n) + "k" + std::to_string(s.k) +
                        " with ." + std::string(ptx::type_name(ab)) + " is not modelled");
}

// The tile element (row-major index) in slot `s` of lane `lane`.
unsigned element_of(unsigned lane, unsigned slot, Tile t) {
  unsigned u = t.rows * t.cols / 32;
  return lane * u + slot % u;
}

void layout_row_col(const Instr& i, bool& row_major) {
  if (!i.has(Mod::LayoutA)) throw exec::Refusal("wmma without a .row/.col layout");
  row_major = ptx::mod_values(Mod::LayoutA)[i.mod(Mod::LayoutA)] == "row";
}

// Addresses of a lane's slots in memory: element (r, c) at (row-major ? r * ld + c : c * ld + r).
void for_each_slot(ExecContext& c, const Instr& i, Tile t, size_t slots, auto&& f) {
  bool row_major;
  layout_row_col(i, row_major);
  if (i.operands.size() < 3) throw exec::Refusal("wmma without a stride operand is not modelled");
  uint64_t ld = int_operand(c, i.operands[2], Type::U32);
  for (size_t s = 0; s < slots; ++s) {
    unsigned e = element_of(c.th.lane, static_cast<unsigned>(s), t);
    uint64_t r = e / t.cols, col = e % t.cols;
    f(s, row_major ? r * ld + col : col * ld + r);
  }
}

void wmma_load(ExecContext& c, const Instr& i) {
  Type t = i.type();
  Which w = which(i);
  if (w == Which::D) throw exec::Refusal("wmma.load of a d matrix");
  Type ab = w == Which::A || w == Which::B ? t : Type::F16;
  if (w == Which::A || w == Which::B) require_modelled_inputs(ab, "wmma");
  check_shape(i.shape, w == Which::A || w == Which::B ? ab : i.shape.k == 8 ? Type::TF32 : Type::F16);
  Tile tile = tile_of(w, i.shape);
  const ptx::Operand& dst = i.operands[0];
  size_t slots = fragment_registers(dst) * per_register(t);
  if (slots < tile.rows * tile.cols / 32) throw exec::Refusal("wmma fragment has too few registers for its tile");
  unsigned size = ptx::type_bits(t == Type::TF32 ? Type::F32 : t) / 8;
  uint64_t base = c.address(i.operands[1]);
  exec::Space sp = space_of(i);
  std::vector<Value> vals(slots);
  for_each_slot(c, i, tile, slots, [&](size_t s, uint64_t elem) { vals[s] = c.memory().load(c, i, sp, base + elem * size, size, t); });
  write_fragment(c, dst, t, vals);
}

void wmma_store(ExecContext& c, const Instr& i) {
  Type t = i.type();
  if (which(i) != Which::D) throw exec::Refusal("wmma.store of a matrix other than d");
  Tile tile = tile_of(Which::D, i.shape);
  auto vals = read_fragment(c, i.operands[1], t);
  unsigned u = tile.rows * tile.cols / 32;
  if (vals.size() != u) throw exec::Refusal("wmma.store fragment has the wrong number of registers");
  unsigned size = ptx::type_bits(t) / 8;
  uint64_t base = c.address(i.operands[0]);
  exec::Space sp = space_of(i);
  for_each_slot(c, i, tile, vals.size(), [&](size_t s, uint64_t elem) { c.memory().store(c, i, sp, base + elem * size, size, vals[s], t); });
}

struct MmaTypes {
  Type d, ab, c;
};
MmaTypes mma_types(const Instr& i) {
  if (i.num_types == 2) return {i.type(0), Type::F16, i.type(1)};
  if (i.num_types == 4) return {i.type(0), i.type(1), i.type(3)};
  throw exec::Refusal("wmma.mma type list not modelled");
}

void wmma_mma_step(ExecContext& c, const Instr& i) {
  MmaTypes t = mma_types(i);
  require_modelled_inputs(t.ab, "wmma.mma");
  check_shape(i.shape, t.ab);
  arrive_warp(c);
  if (c.th.member_mask != 0xFFFFFFFFu) throw exec::Refusal("wmma in a warp of fewer than 32 threads");
}

// The whole tile from every lane's fragment, checking that copies of an element agree.
std::vector<Value> gather(ExecContext& c0, std::span<Thread* const> lanes, const ptx::Operand& op,
                          Type t, Tile tile) {
  std::vector<Value> out(tile.rows * tile.cols);
  std::vector<bool> seen(out.size());
  for (Thread* th : lanes) {
    ExecContext lc = c0.with(*th);
    auto f = read_fragment(lc, op, t);
    if (f.size() < tile.rows * tile.cols / 32) throw exec::Refusal("wmma fragment has too few registers for its tile");
    for (unsigned s = 0; s < f.size(); ++s) {
      unsigned e = element_of(th->lane, s, tile);
      if (seen[e] && !(out[e] == f[s]))
        throw exec::Refusal("copies of a wmma fragment element disagree: the result would depend on the fragment layout, which PTX leaves unspecified");
      out[e] = f[s];
      seen[e] = true;
    }
  }
  return out;
}

void wmma_mma(ExecContext& c0, const Instr& i, std::span<Thread* const> lanes) {
  MmaTypes t = mma_types(i);
  ptx::Shape s = i.shape;
  Tile ta = tile_of(Which::A, s), tb = tile_of(Which::B, s), tc = tile_of(Which::C, s);
  auto A = gather(c0, lanes, i.operands[1], t.ab, ta);
  auto B = gather(c0, lanes, i.operands[2], t.ab, tb);
  auto C = gather(c0, lanes, i.operands[3], t.c, tc);
  bool sat = i.has(Mod::Sat);
  std::vector<Value> row(s.k), col(s.k);
  for (Thread* th : lanes) {
    unsigned u = tc.rows * tc.cols / 32;
    std::vector<Value> out(u);
    for (unsigned slot = 0; slot < u; ++slot) {
      unsigned e = element_of(th->lane, slot, tc), r = e / tc.cols, cl = e % tc.cols;
      for (unsigned k = 0; k < s.k; ++k) row[k] = A[r * s.k + k], col[k] = B[k * s.n + cl];
      out[slot] = dot(c0.dom, t.d, t.c, t.ab, row, col, C[e], true, sat);
    }
    ExecContext lc = c0.with(*th);
    write_fragment(lc, i.operands[0], t.d, out);
  }
}

}  // namespace

void register_wmma(exec::Semantics& s) {
  s.step[size_t(ptx::Op::WmmaLoad)] = wmma_load;
  s.step[size_t(ptx::Op::WmmaStore)] = wmma_store;
  s.step[size_t(ptx::Op::WmmaMma)] = wmma_mma_step;
  s.collective[size_t(ptx::Op::WmmaMma)] = wmma_mma;
}

}  // namespace racer::sem
