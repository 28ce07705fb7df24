// Where asynchronous writes land: a copy or st.async overwrites its bytes; a red.async
// applies its atomic operation to what they hold then. red.async of one operation on the same
// bytes commute, so they may be in flight together; anything else in flight there is a race.
#include "exec/async_state.hpp"
#include "exec/async_unit.hpp"
#include "exec/refusal.hpp"
#include "ptx/modifiers.hpp"

namespace racer::exec {

// Whether every asynchronous write in flight on r's bytes [off, off+size) is a red.async of
// `c`'s operation and type: atomics of one operation that land in any order to one result.
bool AsyncUnit::only_same_reductions(const Cta& cta, const AsyncCopy& c, uint64_t off, unsigned size) const {
  if (!c.reduction() || !cta.async) return false;
  const uint64_t lo = cta.shared->base + off, hi = lo + size;
  for (const auto& [thread, ta] : cta.async->threads)
    for (const AsyncCopy& o : ta.copies)
      if (o.dst < hi && lo < o.dst + o.size) return false;
  for (const auto& [at, b] : cta.async->barriers)
    for (const AsyncCopy& o : b.copies) {
      if (!(o.dst < hi && lo < o.dst + o.size)) continue;
      if (!o.reduction() || o.dst != c.dst || o.size != c.size) return false;
      if (o.reduce_op != c.reduce_op || o.reduce_type != c.reduce_type)
        throw Refusal("different red.async operations meet on the same bytes: the result would depend on their order");
      using namespace ptx::atomop;
      // inc and dec wrap at their operand: only equal operands commute.
      if ((c.reduce_op == INC || c.reduce_op == DEC) && !(o.parts[0].value == c.parts[0].value))
        throw Refusal("red.async.inc/.dec with different operands meet on the same bytes: the result would depend on their order");
    }
  return true;
}

void AsyncUnit::land(Cta& cta, Region& shared, const AsyncCopy& c) {
  const uint64_t off = c.dst - shared.base;
  if (!c.reduction()) {
    for (const AsyncCopy::Part& p : c.parts) path_.write_bytes(shared, off + p.offset, p.size, p.value);
    return;
  }
  // Landing happens at a wait (or the CTA's end), not at the red.async: what cannot be
  // combined is refused at the red.async that sent it.
  try {
    Value old = path_.read_bytes(shared, off, c.size, &cta, SiteRef{nullptr, nullptr, &c.reduce_site}, true);
    const Value& x = c.parts[0].value;
    using namespace ptx::atomop;
    if (c.reduce_op == INC || c.reduce_op == DEC) {
      if (!old.is_concrete() || !x.is_concrete()) throw Refusal("red.async.inc/.dec on symbolic data");
      const uint64_t o = old.bits & 0xffffffffu, b = x.bits & 0xffffffffu;
      const uint64_t v = c.reduce_op == INC ? (o >= b ? 0 : o + 1) : (o == 0 || o > b ? b : o - 1);
      path_.write_bytes(shared, off, c.size, Value::of_bits(v));
      return;
    }
    path_.write_bytes(shared, off, c.size, path_.combine_atomic(PendingAtomic{c.reduce_op, c.reduce_type, c.size, {x}, c.reduce_site}, old));
  } catch (const LocatedRefusal&) {
    throw;
  } catch (const Refusal& r) {
    path_.refuse_at(c.reduce_site, std::string("when it lands: ") + r.what());
  }
}

}  // namespace racer::exec
