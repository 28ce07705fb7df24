// Loads, stores and atomics: where an address lands, what the bytes hold, who else touched
// them in the same epoch, and the defects an access commits.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string_view>
#include <vector>

#include "exec/machine.hpp"
#include "exec/packed.hpp"
#include "exec/refusal.hpp"

namespace racer::exec {

namespace {
// target()'s common case, which it tests first; loads and stores also test it where they are
// made: the call and its optional result cost more than the check, on every access.
bool lands_whole(const Located& l, unsigned size, unsigned align) {
  return l.region && l.region->contains(l.offset, size) && l.offset % align == 0;
}

std::optional<Space> space_named(std::string_view n) {
  if (n == "global") return Space::Global;
  if (n == "shared" || n == "shared::cta") return Space::Shared;
  if (n == "shared::cluster") return Space::SharedCluster;
  if (n == "local") return Space::Local;
  if (n == "param" || n == "param::entry") return Space::Param;
  if (n == "const") return Space::Const;
  return std::nullopt;
}
}  // namespace

Space space_of(const ptx::Instr& i) {
  if (!i.has(ptx::Mod::Space)) return Space::Generic;
  // Every load and store asks: the names are compared once, not per access.
  static const std::vector<std::optional<Space>> by_value = [] {
    std::vector<std::optional<Space>> v;
    for (std::string_view n : ptx::mod_values(ptx::Mod::Space)) v.push_back(space_named(n));
    return v;
  }();
  size_t value = i.mod(ptx::Mod::Space);
  if (value < by_value.size() && by_value[value]) return *by_value[value];
  throw Refusal("state space ." + std::string(ptx::mod_values(ptx::Mod::Space)[value]) + " is not modelled");
}

std::optional<uint64_t> Machine::peek_constant(ExecContext& ctx, Space space, uint64_t addr, unsigned size) {
  if (space != Space::Global && space != Space::Const && space != Space::Generic) return std::nullopt;
  Located l = locate(ctx, space, addr);
  Region* r = l.region;
  if (!r || r->tensor >= 0 || r == ctx.cta.shared.get() || r == ctx.th.local || size > 8 || !r->contains(addr, size))
    return std::nullopt;
  uint64_t off = addr - r->base, bits = 0;
  for (unsigned k = 0; k < size; ++k) {
    if (r->state[off + k] != ByteState::Concrete || r->track.peek(off + k).established.valid() || r->track.peek(off + k).writer.valid())
      return std::nullopt;
    bits |= uint64_t{r->bytes[off + k]} << (8 * k);
  }
  return bits;
}

std::pair<Region*, uint64_t> Machine::local_bytes(ExecContext& ctx, uint64_t addr, unsigned size) {
  Located l = locate(ctx, Space::Local, addr);
  if (!l.region || !l.region->contains(addr, size)) return {nullptr, 0};
  return {l.region, addr - l.region->base};
}

Located Machine::locate(ExecContext& ctx, Space space, uint64_t addr) {
  if (space == Space::Generic) {
    // The shared window holds the cluster's shared memory (mapa's generic addresses).
    if (addr >= kSharedWindow && addr < kSharedWindow + (1ull << 32)) space = Space::SharedCluster, addr -= kSharedWindow;
    else if (addr >= kLocalWindow && addr < kLocalWindow + (1ull << 32)) space = Space::Local, addr -= kLocalWindow;
    else space = Space::Global;
  }
  switch (space) {
    case Space::Shared: return {ctx.cta.shared.get(), addr};
    case Space::SharedCluster: return clusters_.locate(ctx, addr);
    case Space::Local:
      if (!ctx.th.local) return {nullptr, addr};
      return {ctx.th.local, addr};
    default: return {storage_.region_at(addr), addr};
  }
}

bool Machine::pending_atomic_overlaps(const Region& r, uint64_t off, unsigned size, const Cta& cta) const {
  const auto& pending = &r == cta.shared.get() ? cta.shared_atomics : global_atomics_;
  uint64_t key = &r == cta.shared.get() ? off : r.base + off;
  auto it = pending.lower_bound(key >= 16 ? key - 16 : 0);
  for (; it != pending.end() && it->first < key + size; ++it)
    if (it->first + it->second.size > key) return true;
  return false;
}

// Four bytes that hold two 16-bit values (half-precision data stored or loaded element by
// element) rather than one 32-bit value.
static bool holds_two_halves(const Region& r, uint64_t off, const std::vector<TensorSpec>& tensors) {
  auto half_at = [&](uint64_t o) {
    switch (r.state[o]) {
      case ByteState::Symbolic: return (r.sym_size[o] & ~Region::kIntegerData) == 2;
      case ByteState::Input: return r.tensor >= 0 && tensors[r.tensor].elem_bytes() == 2;
      default: return false;
    }
  };
  return half_at(off) || half_at(off + 2);
}

// Bytes of which one holds a one-byte value (fp8, s8 or u8 data) rather than all one value.
// Uninitialized bytes among them are read as the access reads them (as one unknown value,
// as a concrete run names it, or refused beside other data), not byte by byte.
static bool holds_bytes(const Region& r, uint64_t off, unsigned size, const std::vector<TensorSpec>& tensors) {
  for (unsigned k = 0; k < size; ++k)
    if (r.state[off + k] == ByteState::Uninit) return false;
  for (unsigned k = 0; k < size; ++k) switch (r.state[off + k]) {
      case ByteState::Symbolic:
        if ((r.sym_size[off + k] & ~Region::kIntegerData) == 1) return true;
        break;
      case ByteState::Input:
        if (r.tensor >= 0 && tensors[r.tensor].elem_bytes() == 1) return true;
        break;
      default: break;
    }
  return false;
}

Value Machine::read_bytes(Region& r, uint64_t off, unsigned size, const Cta* cta, const SiteRef& site, bool as_integer) {
  if (size == 4 && off % 2 == 0 && holds_two_halves(r, off, storage_.tensors()))
    return join_halves(session_.lanes(), read_bytes(r, off, 2, cta, site, as_integer), read_bytes(r, off + 2, 2, cta, site, as_integer));
  if ((size == 2 || size == 4) && holds_bytes(r, off, size, storage_.tensors())) {
    std::array<Value, 4> lanes;
    for (unsigned k = 0; k < size; ++k) lanes[k] = read_bytes(r, off + k, 1, cta, site, as_integer);
    return pack_bytes(session_.lanes(), std::span<const Value>(lanes.data(), size));
  }
  ByteState s0 = r.state[off];
  bool same = true;
  for (unsigned k = 1; k < size; ++k) same &= r.state[off + k] == s0;
  if (!same) throw Refusal("reads " + std::to_string(size) + " bytes that mix symbolic, concrete or uninitialized data");
  switch (s0) {
    case ByteState::Concrete: {
      uint64_t bits = 0;
      for (unsigned k = 0; k < size && k < 8; ++k) bits |= uint64_t{r.bytes[off + k]} << (8 * k);
      return Value::of_bits(bits);
    }
    case ByteState::Symbolic: {
      uint32_t sym = r.sym[off];
      bool integer = r.sym_size[off] & Region::kIntegerData;
      bool whole = (r.sym_size[off] & ~Region::kIntegerData) == size;
      for (unsigned k = 1; k < size && whole; ++k) whole = r.sym[off + k] == sym && r.sym_size[off + k] == 0;
      if (!whole) throw Refusal("reads " + std::to_string(size) + " bytes of a symbolic value stored with another width (a bit-level reinterpretation)");
      return Value{0, sym, integer};
    }
    case ByteState::Input: {
      const TensorSpec& t = storage_.tensors()[r.tensor];
      if (size != t.elem_bytes() || off % size != 0)
        throw Refusal("reads input tensor " + t.name + " with a " + std::to_string(size) + "-byte access; its cells are " +
                      std::to_string(t.elem_bytes()) + " bytes (a bit-level reinterpretation of symbolic data)");
      int64_t cell = storage_.cell_of(r.tensor, off / size);
      if (cell < 0) return unmapped_read(r, off, size, site);
      return storage_.input_cell(static_cast<size_t>(r.tensor), cell);
    }
    case ByteState::Uninit: {
      std::string where;
      SymbolOrigin o;
      std::string name;
      if (r.tensor >= 0) {
        const TensorSpec& t = storage_.tensors()[r.tensor];
        int64_t cell = off % t.elem_bytes() == 0 && size == t.elem_bytes() ? storage_.cell_of(r.tensor, off / size) : -1;
        if (cell < 0) throw Refusal("reads uninitialized bytes of " + t.name + " with an access that is not one cell");
        where = t.cell_name(cell);
        o = {SymbolOrigin::Kind::UninitTensor, r.tensor, cell, 0};
        name = where + " (uninitialized)";
      } else {
        bool shared = cta && &r == cta->shared.get();
        // Private memory is fresh in every launch (and every thread, for local memory).
        where = std::string(shared ? "shared memory" : r.name) + " +" + std::to_string(off) +
                (cta ? " of CTA " + dims_text(cta->ctaid) : "") + " in launch " + std::to_string(launch_index_);
        o = {shared ? SymbolOrigin::Kind::UninitShared : SymbolOrigin::Kind::UninitLocal, -1, static_cast<int64_t>(off), program_};
        name = std::string(1, program_) + ": " + where + " (" + std::to_string(size) + " bytes, uninitialized)";
      }
      last_uninit_defect_ = log_.pend_uninit_read(site.get(), site.ctx ? where + only_where(site.ctx->th) : where);
      const bool integer = r.tensor >= 0 ? !ptx::is_float(storage_.tensors()[r.tensor].elem) : as_integer;
      if (concrete_unknown_) {
        Value c = Value::of_bits(concrete_unknown_(name, size, integer));
        write_bytes(r, off, size, c);
        return c;
      }
      Value v = Value::of_expr(session_.symbol(o, name));
      v.integer = integer;
      write_bytes(r, off, size, v);  // later reads see the same unknown value
      return v;
    }
  }
  return {};
}

// Storage of an input tensor that no cell of its shape and strides maps to (a kernel that
// assumes packed rows of a tensor with a row stride): a defect, and what it holds is unknown,
// one value for both programs (they are given the same storage). An output computed from it
// is refuted with that value in the witness; one that is not keeps its verdict.
Value Machine::unmapped_read(const Region& r, uint64_t off, unsigned size, const SiteRef& site) {
  const TensorSpec& t = storage_.tensors()[r.tensor];
  std::string where = storage_.describe(&r, r.base + off, size);
  defect(DefectKind::UnmappedRead, site, [&] { return where; },
         [&] { return "no cell of " + t.name + "'s shape and strides maps to this storage"; });
  const int64_t element = static_cast<int64_t>(off / size);
  std::string name = t.unmapped_name(element);
  if (concrete_unknown_) return Value::of_bits(concrete_unknown_(name, size, !ptx::is_float(t.elem)));
  SymbolOrigin o{SymbolOrigin::Kind::Unmapped, r.tensor, element, 0};
  Value v = Value::of_expr(session_.symbol(o, name));
  v.integer = !ptx::is_float(t.elem);
  return v;
}

void Machine::write_bytes(Region& r, uint64_t off, unsigned size, Value v) {
  if (v.is_word()) throw Refusal("stores one 32-bit word of a 64-bit value (its bits are not modelled)");
  if (v.is_packed()) {
    if (size != 4) throw Refusal("stores a register holding two 16-bit lanes with a " + std::to_string(size) + "-byte access");
    auto lanes = unpack_halves(v);
    write_bytes(r, off, 2, lanes[0]);
    write_bytes(r, off + 2, 2, lanes[1]);
    return;
  }
  if (v.holds_bytes()) {
    // st.b8 keeps lane 0 (the register's low byte), st.b16 two lanes, st.b32 four (a pair's
    // upper two are zero).
    if (size > 4)
      throw Refusal("stores a register holding byte lanes with a " + std::to_string(size) + "-byte access");
    for (unsigned k = 0; k < size; ++k) write_bytes(r, off + k, 1, byte_lane(session_.lanes(), v, k));
    return;
  }
  if (v.is_concrete()) {
    for (unsigned k = 0; k < size; ++k) {
      r.bytes[off + k] = k < 8 ? static_cast<uint8_t>(v.bits >> (8 * k)) : 0;
      r.state[off + k] = ByteState::Concrete;
      r.sym[off + k] = 0;
      r.sym_size[off + k] = 0;
    }
    return;
  }
  for (unsigned k = 0; k < size; ++k) {
    r.state[off + k] = ByteState::Symbolic;
    r.sym[off + k] = v.sym;
    r.sym_size[off + k] = k == 0 ? static_cast<uint8_t>(size | (v.integer ? Region::kIntegerData : 0)) : 0;
  }
}

Site Machine::access_site(const AccessRecord& a) const {
  const LaunchSpec& l = *launch_;
  const uint64_t per_cta = l.block.count();
  const uint64_t t = a.thread % per_cta, c = a.thread / per_cta;
  Site s = instruction_site(l, a.instr);
  s.launch = a.launch;
  s.tid = {static_cast<uint32_t>(t % l.block.x), static_cast<uint32_t>(t / l.block.x % l.block.y),
           static_cast<uint32_t>(t / (uint64_t{l.block.x} * l.block.y))};
  s.ctaid = {static_cast<uint32_t>(c % l.grid.x), static_cast<uint32_t>(c / l.grid.x % l.grid.y),
             static_cast<uint32_t>(c / (uint64_t{l.grid.x} * l.grid.y))};
  return s;
}

uint32_t Machine::track(ExecContext& ctx, const ptx::Instr& ins, Region& r, uint64_t off, unsigned size, bool write, Value v) {
  if (!r.track_races || &r == ctx.th.local) return 0;
  if (!race_tracking_ && (r.tensor >= 0 || &r == ctx.cta.shared.get())) return 0;
  if (r.indexed) indexed_conflicts(ctx, ins, r, off, size, write ? IndexedKind::Write : IndexedKind::Read, nullptr, nullptr, v);
  uint32_t per_cta = static_cast<uint32_t>(ctx.cta.threads.size());
  AccessRecord cur{ctx.cta.linear * per_cta + ctx.th.linear, ctx.cta.epoch, ctx.cta.warp_epoch[ctx.th.warp],
                   static_cast<uint16_t>(launch_index_), ++access_seq_, static_cast<uint32_t>(&ins - ctx.fn.instrs.data())};
  auto concurrent = [&](const AccessRecord& a) {
    if (!a.valid() || a.thread == cur.thread || a.launch != cur.launch) return false;
    return !ordered_before(a, ctx.cta, ctx.th);
  };
  auto other = [&](const AccessRecord& a) {
    if (a.thread >= AccessRecord::kAsyncWriterBase)
      return std::string("an asynchronous copy that landed when its mbarrier phase completed (only waiters of that phase, "
                         "and what follows them, are ordered after it)");
    uint32_t t = a.thread % per_cta;
    uint32_t c = a.thread / per_cta;
    std::string who = "thread " + std::to_string(t);
    if (c != ctx.cta.linear) who += " of CTA " + std::to_string(c);
    if (a.instr == AccessRecord::kNone) return who;
    Site s = access_site(a);
    return who + " at " + (s.ptx_line ? "PTX line " + std::to_string(s.ptx_line) : "instruction " + std::to_string(s.instr)) +
           (s.source.empty() ? "" : " (" + s.source + ")") + ": " + s.text;
  };
  auto race = [&](const AccessRecord& a, const Text& detail) {
    size_t index = defect(DefectKind::Race, SiteRef{&ctx, &ins}, [&] { return storage_.describe(&r, r.base + off, size); }, detail);
    if (a.thread < AccessRecord::kAsyncWriterBase && a.instr != AccessRecord::kNone) log_.set_other_side(index, [&] { return access_site(a); });
  };
  // A write of the very value the bytes already hold is harmless to a reader that read
  // after that value was stored: it saw what it would see in any order.
  bool holds_same = false;
  if (write && r.state[off] != ByteState::Uninit) {
    try {
      holds_same = read_bytes(r, off, size, &ctx.cta, SiteRef{&ctx, &ins}, v.integer) == v;
    } catch (const Refusal&) {
    }
  }
  bool reported = false;
  r.track.each(off, size, [&](ByteTrack& b) {
    if (write) {
      if (concurrent(b.writer)) {
        const AccessRecord w = b.writer;
        if (holds_same) {
          log_.note(SiteRef{&ctx, &ins}, [&] { return "stores the same value as " + other(w) + " to " + storage_.describe(&r, r.base + off, size) + " in the same epoch"; });
        } else {
          race(w, [&] { return "write conflicts with a write by " + other(w) + " not ordered by a barrier"; });
          reported = true;
          store_raced_ = racing_.replace_writes;
        }
      }
      for (const AccessRecord* rd : {&b.reader, &b.other_reader}) {
        if (reported || !concurrent(*rd)) continue;
        if (holds_same && rd->seq > b.established.seq) continue;
        if (b.uninit_defect) log_.withdraw_uninit_read(b.uninit_defect), b.uninit_defect = 0;
        const AccessRecord reader = *rd;
        if (!read_used_before_collective(reader, ctx.cta, ctx.th)) racing_.found.insert(reader.seq);
        ++racing_.read_races;
        race(reader, [&] { return "write conflicts with a read by " + other(reader) + " not ordered by a barrier"; });
        reported = true;
      }
    } else if (concurrent(b.established) && b.writer.thread != cur.thread) {
      // (A reader that itself stored the current value last sees it in every order: other
      // concurrent stores there wrote the same value, or they were reported as races.)
      const AccessRecord w = b.established;
      racing_.found.insert(cur.seq);
      ++racing_.read_races;
      race(w, [&] { return "read conflicts with a write by " + other(w) + " not ordered by a barrier"; });
      reported = true;
    }
    return reported;
  });
  if (racing_.replacing()) every_racing_read(ctx, r, off, size, write, holds_same, cur, concurrent);
  r.track.each(off, size, [&](ByteTrack& b) {
    if (write) {
      b.writer = cur;
      if (!holds_same) b.established = cur;
    } else {
      if (b.reader.valid() && b.reader.thread != cur.thread) b.other_reader = b.reader;
      b.reader = cur;
    }
    return false;
  });
  return cur.seq;
}

// The bytes [addr, addr + size) of l's region an access may touch: outside every region, or
// running past its end, records `oob` and gives nullopt; an address not a multiple of `align`
// records Misaligned and refuses with `misaligned`.
std::optional<uint64_t> Machine::target(ExecContext& ctx, const ptx::Instr& ins, const Located& l, unsigned size,
                                        unsigned align, DefectKind oob, const Text& misaligned) {
  if (lands_whole(l, size, align)) return l.offset - l.region->base;
  if (!l.region || !l.region->contains(l.offset, size)) {
    defect(oob, SiteRef{&ctx, &ins}, [&] { return storage_.describe(l.region, l.offset, size); });
    return std::nullopt;
  }
  if (l.offset % align != 0) {
    defect(DefectKind::Misaligned, SiteRef{&ctx, &ins}, [&] { return storage_.describe(l.region, l.offset, size); });
    refuse(ctx, ins, misaligned());
  }
  return l.offset - l.region->base;
}

Value Machine::out_of_bounds_value(const Located& l, uint64_t addr, unsigned size, ptx::Type t) {
  std::string where = storage_.describe(l.region, l.offset, size);
  SymbolOrigin o{SymbolOrigin::Kind::OutOfBounds, -1, static_cast<int64_t>(addr), program_};
  std::string name = std::string(1, program_) + ": out-of-bounds read at " + where;
  // A bit-typed load (Triton loads every element as .b32) past the end of a float tensor reads
  // what an element of it would hold, as a load inside it does: float data of that width.
  const bool past_float_tensor = ptx::type_class(t) == ptx::TypeClass::Bits && l.region && l.region->tensor >= 0 && [&] {
    const TensorSpec& spec = storage_.tensors()[static_cast<size_t>(l.region->tensor)];
    return ptx::is_float(spec.elem) && spec.elem_bytes() == size;
  }();
  const bool integer = !ptx::is_float(t) && !past_float_tensor;
  if (concrete_unknown_) return Value::of_bits(concrete_unknown_(name, size, integer));
  Value v = Value::of_expr(session_.symbol(o, name));
  v.integer = integer;
  return v;
}

Value Machine::load(ExecContext& ctx, const ptx::Instr& ins, Space space, uint64_t addr, unsigned size, ptx::Type t) {
  Located l = locate(ctx, space, addr);
  std::optional<uint64_t> at = lands_whole(l, size, size) ? std::optional<uint64_t>(l.offset - l.region->base)
                                : target(ctx, ins, l, size, size, DefectKind::OobRead, [size] { return "misaligned " + std::to_string(size) + "-byte load"; });
  if (!at) return out_of_bounds_value(l, addr, size, t);
  const uint64_t off = *at;
  if (l.region->tensor >= 0 && !l.region->readable)
    defect(DefectKind::AccessViolation, SiteRef{&ctx, &ins}, [&] { return storage_.describe(l.region, l.offset, size); },
           [] { return std::string("reads a tensor this launch was not given for reading"); });
  Cta& owner = clusters_.region_cta(ctx, l.region);  // another CTA's, for distributed shared memory
  if (pending_atomic_overlaps(*l.region, off, size, owner))
    refuse(ctx, ins, "reads " + storage_.describe(l.region, l.offset, size) + " while atomic updates to it are pending (their order is not established)");
  if (!l.region->in_flight.empty() && AsyncUnit::in_flight(*l.region, off, size))
    return async_.in_flight_access(ctx, ins, *l.region, off, size, false, t);
  if (before_grid_wait(ctx.th)) read_before_grid_wait(ctx, ins, *l.region, off, size);
  const uint32_t access = track(ctx, ins, *l.region, off, size, false, {});
  if (!ctx.th.paths.empty())
    if (auto held = path_load(ctx, ins, *l.region, off, size)) return *held;
  last_uninit_defect_ = 0;
  Value v = read_bytes(*l.region, off, size, &owner, SiteRef{&ctx, &ins}, !ptx::is_float(t));
  // Only where track() keeps records (access != 0): a concrete run without race tracking
  // would otherwise allocate every page of records it reads, for nobody to look at.
  if (access)
    l.region->track.each(off, size, [&](ByteTrack& b) { return b.uninit_defect = static_cast<uint32_t>(last_uninit_defect_), false; });
  if (racing_.replacing() && access) ctx.th.loading = access;
  if (access && racing_.to_replace.count(access)) return racing_read_value(ctx, ins, access, v, *l.region, off, size);
  return v;
}

void Machine::store(ExecContext& ctx, const ptx::Instr& ins, Space space, uint64_t addr, unsigned size, Value v, ptx::Type t) {
  if (v.is_poison()) refuse(ctx, ins, "stores the old value returned by an atomic, whose value depends on the order of atomics");
  if (v.is_concrete() && size < 8) v.bits &= (uint64_t{1} << (8 * size)) - 1;
  Located l = locate(ctx, space, addr);
  std::optional<uint64_t> at = lands_whole(l, size, size) ? std::optional<uint64_t>(l.offset - l.region->base)
                                : target(ctx, ins, l, size, size, DefectKind::OobWrite, [size] { return "misaligned " + std::to_string(size) + "-byte store"; });
  if (!at) return;
  const uint64_t off = *at;
  if (!l.region->writable)
    defect(DefectKind::AccessViolation, SiteRef{&ctx, &ins}, [&] { return storage_.describe(l.region, l.offset, size); },
           [&] { return std::string(l.region->tensor >= 0 ? "stores into a tensor this launch was given only for reading" : "stores into read-only memory"); });
  if (before_grid_wait(ctx.th)) write_before_grid_wait(ctx, ins, *l.region);
  if (pending_atomic_overlaps(*l.region, off, size, clusters_.region_cta(ctx, l.region)))
    refuse(ctx, ins, "stores to " + storage_.describe(l.region, l.offset, size) + " while atomic updates to it are pending");
  if (!l.region->in_flight.empty() && AsyncUnit::in_flight(*l.region, off, size)) async_.in_flight_access(ctx, ins, *l.region, off, size, true, t);
  store_raced_ = false;
  const uint32_t access = track(ctx, ins, *l.region, off, size, true, v);
  if (store_raced_) v = racing_write_value(ctx, ins, access, v, *l.region, off, size, t);
  const uint32_t instr = static_cast<uint32_t>(&ins - ctx.fn.instrs.data());
  if (!ctx.th.paths.empty()) return path_store(ctx, ins, ctx.th.paths.back(), PathStore{l.region, off, size, v, t, instr});
  write_bytes(*l.region, off, size, v);
  note_writer(*l.region, off, instr);
}

Value Machine::load_param(ExecContext& ctx, const ptx::Instr& ins, uint64_t offset, unsigned size) {
  const auto& p = launch_->params;
  if (offset + size > p.size()) refuse(ctx, ins, "reads past the end of the kernel's parameters");
  for (const SymbolicParam& s : launch_->symbolic_params) {
    if (offset >= s.offset + s.size || offset + size <= s.offset) continue;
    // The tensor's one cell, read as memory is: its symbol here, its value in a concrete run.
    if (offset != s.offset || size != s.size)
      refuse(ctx, ins, "reads part of a scalar parameter whose value is the input " + storage_.tensors()[s.tensor].name);
    return read_bytes(storage_.tensor_region(s.tensor), 0, size, &ctx.cta, SiteRef{&ctx, &ins},
                      !ptx::is_float(ins.type()));
  }
  uint64_t bits = 0;
  for (unsigned k = 0; k < size && k < 8; ++k) bits |= uint64_t{p[offset + k]} << (8 * k);
  return Value::of_bits(bits);
}

void Machine::note_writer(const Region& r, uint64_t off, uint32_t instr) {
  if (r.tensor < 0) return;
  const TensorSpec& t = storage_.tensors()[r.tensor];
  if (cell_writers_.size() <= static_cast<size_t>(r.tensor)) cell_writers_.resize(storage_.tensors().size());
  auto& w = cell_writers_[r.tensor];
  if (w.empty()) w.assign(t.storage_elements, 0);
  uint64_t elem = off / t.elem_bytes();
  if (elem < w.size()) w[elem] = (uint64_t{launch_index_} + 1) << 32 | instr;
}

std::optional<Site> Machine::writer_of(size_t tensor, int64_t flat) const {
  if (tensor >= cell_writers_.size() || cell_writers_[tensor].empty()) return std::nullopt;
  uint64_t w = cell_writers_[tensor][static_cast<size_t>(storage_.tensors()[tensor].storage_element(flat))];
  if (!w || (w >> 32) - 1 >= launches_run_.size()) return std::nullopt;
  Site s = instruction_site(launches_run_[(w >> 32) - 1], static_cast<uint32_t>(w));
  s.launch = static_cast<uint32_t>((w >> 32) - 1);
  return s;
}

size_t Machine::defect(DefectKind kind, const SiteRef& site, const Text& memory, const Text& detail) {
  if (kind == DefectKind::Race) ++racing_.races;
  if (!site.ctx || (site.ctx->th.paths.empty() && !access_condition_.address)) return log_.record(kind, site, memory, detail);
  // Found on a path of a data-dependent branch, or at a data-dependent address: a defect for
  // the inputs that take it there.
  const Thread& th = site.ctx->th;
  return log_.record(kind, site, memory, [&] {
    std::string d = detail ? detail() : "";
    return d + (d.empty() ? "" : "; ") + only_where(th).substr(2);
  });
}

std::string Machine::only_where(const Thread& th) const {
  if (th.paths.empty() && !access_condition_.address) return {};
  std::string c = access_condition_.address
                      ? candidate_condition_text(session_.store(), *access_condition_.address, *access_condition_.points)
                      : std::string();
  if (!th.paths.empty()) c += (c.empty() ? "" : " and ") + path_condition(th);
  return ", only where " + c;
}

Site SiteRef::get() const { return fixed ? *fixed : ctx->site(*ins); }
uint32_t SiteRef::launch() const { return fixed ? fixed->launch : ctx->m.launch_index(); }
uint32_t SiteRef::instr() const { return fixed ? fixed->instr : static_cast<uint32_t>(ins - ctx->fn.instrs.data()); }

}  // namespace racer::exec
