// Atomics are order-independent only where their combination is: exact-real or integer
// addition, min, max and the bitwise operations. They are recorded per cell and applied at
// the point where order stops mattering: the next barrier for shared memory, the end of
// the launch for global memory.
#include <algorithm>
#include <optional>

#include "exec/async_state.hpp"
#include "exec/float_bits_atomics.hpp"
#include "exec/machine.hpp"
#include "exec/refusal.hpp"
#include "ptx/modifiers.hpp"

namespace racer::exec {

void Machine::atomic(ExecContext& ctx, const ptx::Instr& ins, Space space, uint64_t addr, unsigned size, uint8_t op,
                     ptx::Type t, Value operand) {
  using namespace ptx::atomop;
  if (op != ADD && op != MIN && op != MAX && op != AND && op != OR && op != XOR)
    refuse(ctx, ins, std::string("atomic .") + std::string(ptx::mod_values(ptx::Mod::AtomOp)[op]) +
                         " depends on the order in which threads perform it");
  if (operand.is_poison()) refuse(ctx, ins, "an atomic's operand is the old value of another atomic");
  Located l = locate(ctx, space, addr);
  std::optional<uint64_t> at = target(ctx, ins, l, size, size, DefectKind::OobWrite, [] { return std::string("misaligned atomic"); });
  if (!at) return;
  const uint64_t off = *at;
  if (before_grid_wait(ctx.th)) write_before_grid_wait(ctx, ins, *l.region);
  if (!l.region->writable)
    defect(DefectKind::AccessViolation, SiteRef{&ctx, &ins}, [&] { return storage_.describe(l.region, l.offset, size); },
           [] { return std::string("atomically updates a tensor this launch was given only for reading"); });
  if (l.region == ctx.th.local) refuse(ctx, ins, "atomic on local memory");
  atomic_conflicts(ctx, ins, *l.region, off, size);
  pend_atomic(ctx, ins, l, off, size, op, t, operand);
}

namespace {

// The float maximum or minimum a concrete integer atomic of a float's bits is over a cell
// holding floats (exec/float_bits_atomics.hpp; its concrete lanes, masked ones, join sem's
// symbolic ones): the sign bit as the type's order needs, and not a NaN's bits.
std::optional<uint8_t> float_extreme_of_bits(uint8_t op, ptx::Type t, const Value& v) {
  const std::optional<uint8_t> f = float_extreme_op(op, t);
  if (!f || !v.is_concrete()) return std::nullopt;
  const ieee::Format fmt = format_of_width(t);
  if (ieee::is_neg(fmt, v.bits) == is_signed_view(t) || ieee::is_nan(fmt, v.bits)) return std::nullopt;
  return f;
}

// Whether `op` on t joins the pending p as one float maximum or minimum (p becomes one if need
// be). Two integer forms of one float extreme meet too (atom.max.s32 of a float >= 0 and
// atom.min.u32 of one < 0 in a concrete run): on a cell holding floats both are its maximum.
bool joins_float_extreme(PendingAtomic& p, uint8_t op, ptx::Type t, const Value& operand) {
  using namespace ptx::atomop;
  if (p.size != ptx::type_bits(t) / 8) return false;
  const std::optional<uint8_t> target = ptx::is_float(t) ? std::optional<uint8_t>(op) : float_extreme_of_bits(op, t, operand);
  if (!target || (*target != MAX && *target != MIN)) return false;
  if (ptx::is_float(p.type)) return p.op == *target;
  for (const Value& v : p.operands)
    if (float_extreme_of_bits(p.op, p.type, v) != target) return false;
  p.op = *target;
  p.type = ptx::is_float(t) ? t : float_of_width(t);
  return true;
}

}  // namespace

void Machine::pend_atomic(ExecContext& ctx, const ptx::Instr& ins, const Located& l, uint64_t off, unsigned size, uint8_t op,
                          ptx::Type t, Value operand) {
  Cta& owner = clusters_.region_cta(ctx, l.region);  // another CTA's, for distributed shared memory
  bool shared = l.region == owner.shared.get();
  if (shared && !l.region->in_flight.empty() && AsyncUnit::in_flight(*l.region, off, size)) {
    // Bytes an asynchronous write is still writing: a race, unless every one of them is a
    // red.async of this operation (atomics that combine in any order).
    AsyncCopy same;
    same.dst = l.offset;
    same.size = size;
    same.reduce_op = op;
    same.reduce_type = t;
    same.parts.push_back({0, static_cast<uint8_t>(size), operand});
    if (!async_.only_same_reductions(owner, same, off, size)) async_.in_flight_access(ctx, ins, *l.region, off, size, true, t);
  }
  auto& pending = shared ? owner.shared_atomics : global_atomics_;
  uint64_t key = shared ? off : l.region->base + off;
  if (swapped_overlaps(l.region, off, size, kAnyThread))
    refuse(ctx, ins, "an atomic on " + storage_.describe(l.region, l.offset, size) +
                         ", which a compare-and-swap or exchange also updates: the result would depend on their order");
  auto it = pending.find(key);
  if (it == pending.end()) {
    if (pending_atomic_overlaps(*l.region, off, size, owner)) refuse(ctx, ins, "overlapping atomics of different widths");
    pending.emplace(key, PendingAtomic{op, t, size, {operand}, ctx.site(ins)});
    return;
  }
  if ((it->second.op != op || it->second.type != t || it->second.size != size) && !joins_float_extreme(it->second, op, t, operand))
    refuse(ctx, ins, "different atomic operations meet on " + storage_.describe(l.region, l.offset, size) +
                         ": the result would depend on their order");
  it->second.operands.push_back(operand);
}

Value Machine::swap_atomic(ExecContext& ctx, const ptx::Instr& ins, Space space, uint64_t addr, unsigned size, ptx::Type t,
                          std::optional<Value> expected, Value desired) {
  Located l = locate(ctx, space, addr);
  std::optional<uint64_t> at = target(ctx, ins, l, size, size, DefectKind::OobWrite, [] { return std::string("misaligned atomic"); });
  if (!at) return Value::poison();
  if (l.region == ctx.th.local) refuse(ctx, ins, "atomic on local memory");
  const uint64_t me = uint64_t{ctx.cta.linear} * ctx.cta.threads.size() + ctx.th.linear;
  if (swapped_overlaps(l.region, *at, size, me))
    refuse(ctx, ins, "compare-and-swap or exchange on " + storage_.describe(l.region, l.offset, size) +
                         " by two threads: the outcome depends on their order");
  if (pending_atomic_overlaps(*l.region, *at, size, clusters_.region_cta(ctx, l.region)))
    refuse(ctx, ins, "compare-and-swap or exchange on " + storage_.describe(l.region, l.offset, size) +
                         ", which other atomics also update: the result would depend on their order");
  SwappedCell& cell = swapped_cells_[{l.region, *at}];
  cell = {std::max(cell.size, size), me};
  // One thread's swaps of a cell no other thread swaps are its own reads and writes, in its
  // program order (another thread's plain access of the cell is a race the tracking reports).
  const Value old = load(ctx, ins, space, addr, size, t);
  if (!old.is_concrete() || !desired.is_concrete() || (expected && !expected->is_concrete()))
    refuse(ctx, ins, "compare-and-swap or exchange of data that depends on symbolic inputs");
  const uint64_t mask = size >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * size)) - 1;
  if (!expected || ((old.bits ^ expected->bits) & mask) == 0) store(ctx, ins, space, addr, size, desired, t);
  return old;
}

bool Machine::swapped_overlaps(const Region* r, uint64_t off, unsigned size, uint64_t thread) const {
  // (A swap is at most 8 bytes: a cell starting 8 or more bytes below off ends before it.)
  for (auto it = swapped_cells_.lower_bound({r, off >= 8 ? off - 8 : 0});
       it != swapped_cells_.end() && it->first.first == r && it->first.second < off + size; ++it)
    if (it->first.second + it->second.size > off && it->second.thread != thread) return true;
  return false;
}

void Machine::atomic_conflicts(ExecContext& ctx, const ptx::Instr& ins, Region& r, uint64_t off, unsigned size) {
  // An atomic conflicts with unordered plain accesses by other threads, not with atomics.
  uint32_t per_cta = static_cast<uint32_t>(ctx.cta.threads.size());
  uint32_t me = ctx.cta.linear * per_cta + ctx.th.linear;
  if (r.indexed) indexed_conflicts(ctx, ins, r, off, size, IndexedKind::Atomic, nullptr, nullptr, {});
  for (unsigned k = 0; k < size; ++k) {
    const ByteTrack& b = r.track.peek(off + k);
    for (const AccessRecord* a : {&b.writer, &b.reader, &b.other_reader}) {
      if (!a->valid() || a->thread == me || a->launch != launch_index_) continue;
      if (!ordered_before(*a, ctx.cta, ctx.th)) {
        defect(DefectKind::Race, SiteRef{&ctx, &ins}, [&] { return storage_.describe(&r, r.base + off, size); },
               [] { return std::string("atomic conflicts with a plain access by another thread not ordered by a barrier"); });
        return;
      }
    }
  }
}

Value Machine::combine_atomic(const PendingAtomic& p, Value old) {
  using namespace ptx::atomop;
  if (ptx::is_float(p.type)) {
    FBin f = p.op == ADD ? FBin::Add : p.op == MIN ? FBin::Min : p.op == MAX ? FBin::Max : FBin::Add;
    if (p.op != ADD && p.op != MIN && p.op != MAX) throw Refusal("bitwise atomic on a float type");
    // A maximum through the bits (sem's float view) on a cell whose bits are a NaN's, an
    // integer's such as INT_MAX: the integer atomic keeps them, a float maximum would not.
    const bool wide_float = p.type == ptx::Type::F32 || p.type == ptx::Type::F64;
    if (p.op != ADD && wide_float && old.is_concrete() && ieee::is_nan(format_of_width(p.type), old.bits))
      throw Refusal("a float atomic minimum or maximum on a cell holding a NaN's bits");
    Value acc = old;
    for (const Value& v : p.operands) acc = dom_.fbin(f, p.type, acc, v, {});
    if (acc.is_symbolic()) {
      // Keep a constant result as bits when it has an exact encoding, like any stored float.
      if (auto b = dom_.bits(acc, p.type)) return Value::of_bits(*b);
    }
    return acc;
  }
  bool symbolic = !old.is_concrete();
  for (const Value& v : p.operands) symbolic |= !v.is_concrete();
  if (symbolic) {
    // Symbolic integer data: exact arithmetic, refused where it could wrap around.
    if (p.op != ADD && p.op != MIN && p.op != MAX) throw Refusal("bitwise atomic on symbolic integer data");
    IntOp op = p.op == ADD ? IntOp::Add : p.op == MIN ? IntOp::Min : IntOp::Max;
    Value acc = dom_.as_integer(old, p.type);
    for (const Value& v : p.operands) acc = dom_.int_op(op, p.type, acc, v);
    return acc;
  }
  unsigned bits = ptx::type_bits(p.type);
  uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  bool sgn = ptx::type_class(p.type) == ptx::TypeClass::Signed;
  auto sx = [&](uint64_t x) { return static_cast<int64_t>(x << (64 - bits)) >> (64 - bits); };
  uint64_t acc = old.bits & mask;
  for (const Value& v : p.operands) {
    if (!v.is_concrete()) throw Refusal("integer atomic with a symbolic operand");
    uint64_t x = v.bits & mask;
    switch (p.op) {
      case ADD: acc = (acc + x) & mask; break;
      case AND: acc &= x; break;
      case OR: acc |= x; break;
      case XOR: acc ^= x; break;
      case MIN: acc = sgn ? (sx(x) < sx(acc) ? x : acc) : std::min(acc, x); break;
      case MAX: acc = sgn ? (sx(x) > sx(acc) ? x : acc) : std::max(acc, x); break;
      default: break;
    }
  }
  return Value::of_bits(acc);
}

void Machine::flush_atomics(Region* shared_region, std::map<uint64_t, PendingAtomic>& pending, const Cta* cta) {
  for (auto& [key, p] : pending) {
    Region* r = shared_region;
    uint64_t off = key;
    if (!r) {
      r = storage_.region_at(key);
      off = key - r->base;
    }
    Value old = read_bytes(*r, off, p.size, cta, SiteRef{nullptr, nullptr, &p.first}, !ptx::is_float(p.type));
    if (atomic_order_) atomic_order_(p.operands);
    write_bytes(*r, off, p.size, combine_atomic(p, old));
    note_writer(*r, off, p.first.instr);
  }
  pending.clear();
}

void Machine::flush_atomics_global() { flush_atomics(nullptr, global_atomics_, nullptr); }

}  // namespace racer::exec
