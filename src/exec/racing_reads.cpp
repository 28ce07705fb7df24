// Replacing racing loads by fresh unknowns (exec/racing_reads.hpp says why).
#include "exec/machine.hpp"
#include "exec/refusal.hpp"
#include "expr/walk.hpp"

namespace racer::exec {

bool Machine::whole_float_element(const Region& r, uint64_t off, unsigned size) const {
  if (r.tensor < 0) return false;
  const TensorSpec& t = storage_.tensors()[static_cast<size_t>(r.tensor)];
  return ptx::is_float(t.elem) && size == t.elem_bytes() && off % size == 0;
}

Value Machine::racing_unknown(ExecContext& ctx, const ptx::Instr& ins, uint32_t access, const std::string& name) {
  SymbolOrigin o{SymbolOrigin::Kind::RacingRead, -1, static_cast<int64_t>(access), program_};
  expr::ExprId sym = session_.symbol(o, std::string(1, program_) + ": " + name);
  racing_.symbols.insert(sym.index);
  racing_.sites.emplace(sym.index, ctx.site(ins));
  return Value::of_expr(sym);
}

Value Machine::racing_read_value(ExecContext& ctx, const ptx::Instr& ins, uint32_t access, Value read, const Region& r,
                                 uint64_t off, unsigned size) {
  // Only float data becomes an unknown real: integer data could steer addresses, and a
  // packed value is not one real number. A concrete value is one float value only as a whole
  // element of a float tensor (an in-place accumulator that starts at -inf or 0).
  if (read.is_symbolic() ? read.integer : !(read.is_concrete() && whole_float_element(r, off, size)))
    refuse(ctx, ins, "a load racing with a store reads data that is not one float value");
  racing_.replaced.insert(access);
  return racing_unknown(ctx, ins, access, "racing read #" + std::to_string(access) + " of " + storage_.describe(&r, r.base + off, size));
}

Value Machine::racing_write_value(ExecContext& ctx, const ptx::Instr& ins, uint32_t access, Value stored, const Region& r,
                                  uint64_t off, unsigned size, ptx::Type type) {
  // One float value: a whole element of a float tensor, or (shared memory, which has no element
  // type) a store of a float type.
  const bool one_float = r.tensor >= 0 ? whole_float_element(r, off, size) : ptx::is_float(type) && size == ptx::type_bits(type) / 8;
  if (!one_float || (stored.is_symbolic() && stored.integer))
    refuse(ctx, ins, "a store racing with another thread's store writes data that is not one float value");
  ++racing_.replaced_writes;
  return racing_unknown(ctx, ins, access, "racing store #" + std::to_string(access) + " to " + storage_.describe(&r, r.base + off, size));
}

void Machine::every_racing_read(ExecContext& ctx, Region& r, uint64_t off, unsigned size, bool write, bool holds_same,
                                const AccessRecord& cur, const std::function<bool(const AccessRecord&)>& concurrent) {
  for (unsigned k = 0; k < size; ++k) {
    if (!write) {
      std::vector<AccessRecord>& readers = r.readers_since_write[off + k];
      if (readers.size() >= RacingReads::kMaxReadersPerByte) racing_.incomplete = true;
      else readers.push_back(cur);
      continue;
    }
    auto it = r.readers_since_write.find(off + k);
    if (it == r.readers_since_write.end()) continue;
    const ByteTrack& b = r.track.peek(off + k);
    // (A reader after the write that gave the bytes their value sees it in any order when this
    // write stores that value again.)
    for (const AccessRecord& rd : it->second)
      if (concurrent(rd) && !(holds_same && rd.seq > b.established.seq) && !read_used_before_collective(rd, ctx.cta, ctx.th))
        racing_.found.insert(rd.seq);
    // Readers ordered before a write that changes the bytes are ordered before every later
    // write too, unless that one races with this write (a race no second run excuses).
    if (!holds_same) r.readers_since_write.erase(it);
  }
}

void Machine::register_read(ExecContext& ctx, uint32_t reg) {
  auto& unread = ctx.th.unread_loads;
  for (size_t k = 0; k < unread.size();) {
    if (unread[k].first != reg) {
      ++k;
      continue;
    }
    racing_.used_at.emplace(unread[k].second, ctx.cta.warp_collectives[ctx.th.warp]);
    unread[k] = unread.back();
    unread.pop_back();
  }
}

void Machine::register_written(ExecContext& ctx, uint32_t reg) {
  auto& unread = ctx.th.unread_loads;
  std::erase_if(unread, [&](const auto& e) { return e.first == reg; });  // overwritten unread
  if (ctx.th.loading) unread.emplace_back(reg, ctx.th.loading), ctx.th.loading = 0;
}

bool Machine::read_used_before_collective(const AccessRecord& rd, const Cta& cta, const Thread& th) const {
  const uint32_t per_cta = static_cast<uint32_t>(cta.threads.size());
  if (rd.thread / per_cta != cta.linear || (rd.thread % per_cta) / 32 != th.warp) return false;
  auto it = racing_.used_at.find(rd.seq);
  return it != racing_.used_at.end() && cta.warp_collectives[th.warp] > it->second;
}

std::optional<expr::ExprId> Machine::racing_symbol_in(std::span<const expr::ExprId> roots) const {
  std::optional<expr::ExprId> found;
  if (racing_.symbols.empty()) return found;
  expr::any_node(session_.store(), roots, [&](expr::ExprId e) {
    if (racing_.symbols.count(e.index)) found = e;
    return found.has_value();
  });
  return found;
}

std::optional<Site> Machine::racing_read_reaching(std::span<const expr::ExprId> roots) const {
  std::optional<expr::ExprId> sym = racing_symbol_in(roots);
  if (!sym) return std::nullopt;
  return racing_.sites.at(sym->index);
}

bool Machine::depends_on_racing_read(Value v) const {
  if (!v.is_symbolic()) return false;
  expr::ExprId e = v.expr();
  return racing_symbol_in(std::span<const expr::ExprId>(&e, 1)).has_value();
}

}  // namespace racer::exec
