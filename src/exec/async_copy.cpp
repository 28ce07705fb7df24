// cp.async: the source is read when the copy is issued; the destination bytes are "in
// flight" until a cp.async.wait_group / wait_all of the issuing thread lands them. Any access
// to in-flight bytes is a race with the copy, and a read of them gets an unknown value
// (neither the old contents nor the copied ones): the ordering that makes a pipeline correct
// is the wait, never the engine's schedule.
#include <algorithm>

#include "exec/async_state.hpp"
#include "exec/async_unit.hpp"
#include "exec/refusal.hpp"

namespace racer::exec {
namespace {

ptx::Type bits_type(unsigned size) {
  switch (size) {
    case 1: return ptx::Type::B8;
    case 2: return ptx::Type::B16;
    case 4: return ptx::Type::B32;
    default: return ptx::Type::B64;
  }
}

}  // namespace

bool AsyncUnit::in_flight(const Region& r, uint64_t off, unsigned size) {
  for (unsigned k = 0; k < size; ++k)
    if (r.in_flight[off + k]) return true;
  return false;
}

Value AsyncUnit::in_flight_access(ExecContext& ctx, const ptx::Instr& ins, Region& r, uint64_t off, unsigned size, bool write,
                                ptx::Type t) {
  // The copy writing these bytes: its kind names the missing ordering, and its data's kind
  // (integer or float) is that of the unknown value a read gets.
  bool integer = !ptx::is_float(t), bulk = false;
  ptx::Op op = ptx::Op::CpAsync;
  auto covering = [&](const AsyncCopy& c, bool is_bulk) {
    for (const AsyncCopy::Part& p : c.parts)
      if (c.dst + p.offset <= r.base + off && r.base + off < c.dst + p.offset + p.size) {
        if (p.value.is_symbolic()) integer = p.value.integer;
        bulk = is_bulk;
        op = c.instr < ctx.fn.instrs.size() ? ctx.fn.instrs[c.instr].op : op;
      }
  };
  if (ctx.cta.async) {
    for (const auto& [thread, ta] : ctx.cta.async->threads)
      for (const AsyncCopy& c : ta.copies) covering(c, false);
    for (const auto& [at, b] : ctx.cta.async->barriers)
      for (const AsyncCopy& c : b.copies) covering(c, true);
  }
  std::string where = path_.describe(&r, r.base + off, size);
  path_.defect(DefectKind::Race, SiteRef{&ctx, &ins}, [&] { return where; }, [&] {
    return std::string(write ? "write" : "read") + " of bytes an asynchronous copy is still writing: " +
           (bulk ? "no wait for the phase of the " + std::string(op == ptx::Op::StAsync || op == ptx::Op::RedAsync ? ptx::op_info(op).name : "cp.async.bulk") +
                       "'s mbarrier orders the copy before it"
                 : "no cp.async.wait_group of the issuing thread, followed by a barrier, orders the copy (cp.async) before it");
  });
  if (write) return {};
  std::string name = std::string(1, path_.program()) + ": " + where + " of CTA " + std::to_string(ctx.cta.linear) +
                     " in launch " + std::to_string(path_.launch_index()) + ", read while an asynchronous copy writes it";
  return path_.unknown_value(name, where, off, size, integer);
}

// The copy's source, read now in the units its bytes were written in (tensor cells, stored
// values), bytes past src_size zero.
AsyncCopy AsyncUnit::read_source(ExecContext& ctx, const ptx::Instr& ins, uint64_t dst, uint64_t src, unsigned size, unsigned src_size) {
  AsyncCopy copy;
  copy.instr = static_cast<uint32_t>(&ins - ctx.fn.instrs.data());
  copy.dst = dst;
  copy.size = size;
  src_size = std::min(src_size, size);
  Located s = path_.locate(ctx, Space::Global, src);
  for (unsigned k = 0; k < src_size;) {
    unsigned unit = 1;
    ptx::Type t = ptx::Type::B8;
    if (s.region && s.region->contains(s.offset + k, 1)) {
      uint64_t o = s.offset + k - s.region->base;
      if (s.region->tensor >= 0) {
        t = path_.tensors()[s.region->tensor].elem;
        unit = path_.tensors()[s.region->tensor].elem_bytes();
      }
      if (s.region->state[o] == ByteState::Symbolic) unit = s.region->sym_size[o] & ~Region::kIntegerData;
      if (s.region->state[o] == ByteState::Concrete && unit > 8) unit = 1;
    }
    if (unit == 0 || k + unit > src_size || (src + k) % unit) unit = 1, t = ptx::Type::B8;
    if (!ptx::is_float(t) || ptx::type_bits(t) != unit * 8) t = bits_type(unit);
    Value v = path_.load(ctx, ins, Space::Global, src + k, unit, t);
    copy.parts.push_back({k, static_cast<uint8_t>(unit), v});
    k += unit;
  }
  for (unsigned k = src_size; k < size; ++k) copy.parts.push_back({k, 1, Value::of_bits(0)});  // zero fill
  return copy;
}

void AsyncUnit::async_copy(ExecContext& ctx, const ptx::Instr& ins, uint64_t dst, uint64_t src, unsigned size, unsigned src_size) {
  if (!ctx.cta.async) ctx.cta.async = std::make_shared<CtaAsync>();
  AsyncCopy copy = read_source(ctx, ins, dst, src, size, src_size);
  Located d = path_.locate(ctx, Space::Shared, dst);
  std::optional<uint64_t> at = path_.target(ctx, ins, d, size, size, DefectKind::OobWrite, [size] { return "misaligned " + std::to_string(size) + "-byte cp.async destination"; });
  if (!at) return;
  const uint64_t off = *at;
  if (!d.region->in_flight.empty() && in_flight(*d.region, off, size)) in_flight_access(ctx, ins, *d.region, off, size, true, ptx::Type::B8);
  // The copy may write at any moment from now to its wait: it conflicts with what other
  // threads did to these bytes in this epoch, and (through in_flight) with anything later.
  path_.track(ctx, ins, *d.region, off, size, true, Value::poison());
  if (d.region->in_flight.empty()) d.region->in_flight.assign(d.region->size, 0);
  for (unsigned k = 0; k < size; ++k) ++d.region->in_flight[off + k];
  ctx.cta.async->of(ctx.th.linear).copies.push_back(std::move(copy));
}

void AsyncUnit::async_commit(ExecContext& ctx) {
  if (!ctx.cta.async) ctx.cta.async = std::make_shared<CtaAsync>();
  ThreadAsync& ta = ctx.cta.async->of(ctx.th.linear);
  for (AsyncCopy& c : ta.copies)
    if (c.group == AsyncCopy::kUncommitted) c.group = ta.copy_groups;
  ++ta.copy_groups;
}

void AsyncUnit::async_wait(ExecContext& ctx, uint32_t keep, bool all) {
  if (!ctx.cta.async) return;
  ThreadAsync& ta = ctx.cta.async->of(ctx.th.linear);
  uint32_t below = ta.copy_groups > keep ? ta.copy_groups - keep : 0;
  auto done = [&](const AsyncCopy& c) { return all || (c.group != AsyncCopy::kUncommitted && c.group < below); };
  std::vector<AsyncCopy> landing;
  std::vector<AsyncCopy> rest;
  for (AsyncCopy& c : ta.copies) (done(c) ? landing : rest).push_back(std::move(c));
  ta.copies = std::move(rest);
  Region& shared = *ctx.cta.shared;
  for (const AsyncCopy& c : landing) {
    uint64_t off = c.dst - shared.base;
    for (unsigned k = 0; k < c.size; ++k) --shared.in_flight[off + k];
  }
  for (const AsyncCopy& c : landing) {
    const ptx::Instr& ins = ctx.fn.instrs[c.instr];
    for (const AsyncCopy::Part& p : c.parts)
      path_.store(ctx, ins, Space::Shared, c.dst + p.offset, p.size, p.value, bits_type(p.size));
  }
}

void AsyncUnit::finish_async(Cta& cta) {
  // Bulk copies nobody waited for land when the CTA ends (their phase may never complete).
  for (auto& [off, b] : cta.async->barriers) {
    for (const AsyncCopy& c : b.copies) {
      uint64_t o = c.dst - cta.shared->base;
      for (unsigned k = 0; k < c.size; ++k) --cta.shared->in_flight[o + k];
      land(cta, *cta.shared, c);
    }
    b.copies.clear();
  }
  for (auto& [thread, ta] : cta.async->threads) {
    if (ta.copies.empty()) continue;
    ExecContext ctx = path_.context(cta, cta.threads[thread]);
    async_wait(ctx, 0, true);
  }
}

}  // namespace racer::exec
