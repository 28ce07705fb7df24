// ldmatrix / stmatrix .m8n8 .x1/.x2/.x4 .b16 (optionally .trans): warp-wide moves of 8x8
// tiles of 16-bit elements between shared memory and fragment registers. Lane 8*i + r gives
// the address of row r of tile i; lane L holds, in register i, the elements (L/4, 2*(L%4))
// and (L/4, 2*(L%4)+1) of tile i, or with .trans those of the transposed tile.
#include <optional>

#include "exec/packed.hpp"
#include "sem/fragment.hpp"
#include "sem/semantics.hpp"

namespace racer::sem {
namespace {

using exec::Cta;
using exec::Machine;
using exec::Thread;

unsigned tile_count(const Instr& i) {
  if (!i.has(Mod::Num)) throw exec::Refusal("ldmatrix/stmatrix without .x1/.x2/.x4");
  std::string_view n = ptx::mod_values(Mod::Num)[i.mod(Mod::Num)];
  return n == "x1" ? 1 : n == "x2" ? 2 : 4;
}

void check_form(const Instr& i) {
  if (i.has(Mod::Shape) && !(i.shape.m == 8 && i.shape.n == 8)) throw exec::Refusal("ldmatrix/stmatrix shapes other than .m8n8 are not modelled");
  if (ptx::type_bits(i.type()) != 16) throw exec::Refusal("ldmatrix/stmatrix of elements other than .b16 are not modelled");
}

// The two elements lane `lane` holds of an 8x8 tile, as (row, col) pairs.
void held(unsigned lane, bool trans, unsigned out[2][2]) {
  for (unsigned h = 0; h < 2; ++h) {
    unsigned r = lane / 4, col = 2 * (lane % 4) + h;
    out[h][0] = trans ? col : r;
    out[h][1] = trans ? r : col;
  }
}

void step(ExecContext& c, const Instr& i) {
  check_form(i);
  tile_count(i);
  arrive_warp(c);
  if (c.th.member_mask != 0xFFFFFFFFu) throw exec::Refusal("ldmatrix/stmatrix in a warp of fewer than 32 threads");
}

// A 32-bit register that is one symbolic number (f32 data Triton moves through a .b16
// layout conversion) cannot be split into halves; without .trans its halves are the two
// adjacent elements of one row, so its four bytes stay together in memory: stored whole by
// stmatrix, loaded whole by ldmatrix.
struct TileElement {
  Value half;
  std::optional<Value> whole;  // at the even column of a pair: the register both came from
};

void ldmatrix(ExecContext& c0, const Instr& i, std::span<Thread* const> lanes) {
  unsigned n = tile_count(i);
  bool trans = i.has(Mod::Trans);
  exec::Space sp = space_of(i);
  std::vector<TileElement> tiles(n * 64);
  for (unsigned t = 0; t < n; ++t)
    for (unsigned r = 0; r < 8; ++r) {
      Thread& th = *lanes[8 * t + r];
      ExecContext lc = c0.with(th);
      uint64_t row = lc.address(i.operands[1]);
      for (unsigned col = 0; col < 8; col += 2) {
        TileElement* e = &tiles[t * 64 + r * 8 + col];
        if (!trans) {
          // The pair's four bytes as one value where they hold one (a symbolic f32 stored
          // whole); bytes that do not read as four (some never written) are read by halves.
          std::optional<Value> v;
          try {
            v = c0.memory().load(lc, i, sp, row + 2 * col, 4, Type::B32);
          } catch (const exec::LocatedRefusal&) {
            throw;
          } catch (const exec::Refusal&) {
          }
          if (v && v->is_symbolic() && !v->is_packed()) {
            e->whole = v;
            continue;
          }
          if (v && !v->is_poison()) {
            auto halves = exec::split_halves(c0.lanes(), *v);
            e[0].half = halves[0], e[1].half = halves[1];
            continue;
          }
        }
        for (unsigned h = 0; h < 2; ++h) e[h].half = c0.memory().load(lc, i, sp, row + 2 * (col + h), 2, Type::B16);
      }
    }
  for (Thread* th : lanes) {
    ExecContext lc = c0.with(*th);
    const ptx::Operand& d = i.operands[0];
    if (fragment_registers(d) != n) throw exec::Refusal("ldmatrix destination has the wrong number of registers");
    unsigned pos[2][2];
    held(th->lane, trans, pos);
    for (unsigned t = 0; t < n; ++t) {
      const TileElement& lo = tiles[t * 64 + pos[0][0] * 8 + pos[0][1]];
      const TileElement& hi = tiles[t * 64 + pos[1][0] * 8 + pos[1][1]];
      lc.set(d.kind == ptx::Operand::Kind::Vector ? d.elems[t] : d, lo.whole ? *lo.whole : exec::join_halves(c0.lanes(), lo.half, hi.half));
    }
  }
}

void stmatrix(ExecContext& c0, const Instr& i, std::span<Thread* const> lanes) {
  unsigned n = tile_count(i);
  bool trans = i.has(Mod::Trans);
  exec::Space sp = space_of(i);
  std::vector<TileElement> tiles(n * 64);
  const ptx::Operand& src = i.operands[1];
  if (fragment_registers(src) != n) throw exec::Refusal("stmatrix source has the wrong number of registers");
  for (Thread* th : lanes) {
    ExecContext lc = c0.with(*th);
    unsigned pos[2][2];
    held(th->lane, trans, pos);
    for (unsigned t = 0; t < n; ++t) {
      const ptx::Operand& reg = src.kind == ptx::Operand::Kind::Vector ? src.elems[t] : src;
      Value v = lc.get(reg, Type::B32);
      TileElement* at[2] = {&tiles[t * 64 + pos[0][0] * 8 + pos[0][1]], &tiles[t * 64 + pos[1][0] * 8 + pos[1][1]]};
      if (v.is_symbolic() && !v.is_packed() && !trans) {
        at[0]->whole = v;
        continue;
      }
      auto halves = exec::split_halves(c0.lanes(), v);
      at[0]->half = halves[0], at[1]->half = halves[1];
    }
  }
  for (unsigned t = 0; t < n; ++t)
    for (unsigned r = 0; r < 8; ++r) {
      Thread& th = *lanes[8 * t + r];
      ExecContext lc = c0.with(th);
      uint64_t row = lc.address(i.operands[0]);
      for (unsigned col = 0; col < 8; ++col) {
        const TileElement& e = tiles[t * 64 + r * 8 + col];
        if (e.whole) {
          c0.memory().store(lc, i, sp, row + 2 * col, 4, *e.whole, Type::B32);
          ++col;
          continue;
        }
        c0.memory().store(lc, i, sp, row + 2 * col, 2, e.half, Type::B16);
      }
    }
}

}  // namespace

void register_ldmatrix(exec::Semantics& s) {
  s.step[size_t(ptx::Op::Ldmatrix)] = step;
  s.collective[size_t(ptx::Op::Ldmatrix)] = ldmatrix;
  s.step[size_t(ptx::Op::Stmatrix)] = step;
  s.collective[size_t(ptx::Op::Stmatrix)] = stmatrix;
}

}  // namespace racer::sem
