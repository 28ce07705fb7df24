// wgmma accumulators: registers a wgmma.mma_async writes stay pending until a
// wgmma.wait_group retires its group. Another instruction touching them before is a defect,
// and a read gets an unknown value: the accumulator is only valid after the wait. One move is
// read as ptxas compiles it: splitting a 32-bit accumulator into its two 16-bit halves
// (Triton's f16 accumulators, unpacked before the wait). ptxas keeps 16-bit values in the
// halves of 32-bit registers, so the split moves nothing and the halves are read where they
// are used; the halves stay pending with the accumulator, and a later wgmma writing the
// accumulator before the wait is refused (the halves would follow it). On an H100, DeepSpeed's
// and SageAttention's Triton attention kernels with f16 accumulators, compiled by ptxas 12
// without serializing, came within f16 rounding of naive references (session 29).
#include <algorithm>

#include "exec/async_state.hpp"
#include "exec/async_unit.hpp"

namespace racer::exec {
namespace {

ThreadAsync& thread_async(ExecContext& ctx) {
  if (!ctx.cta.async) ctx.cta.async = std::make_shared<CtaAsync>();
  return ctx.cta.async->of(ctx.th.linear);
}

}  // namespace

void AsyncUnit::pend_registers(ExecContext& ctx, const ptx::Instr& ins, std::span<const uint32_t> regs) {
  ThreadAsync& ta = thread_async(ctx);
  settle_deferred(ctx.th, ctx.dom);  // a pending register's reads and writes go through the unit
  uint32_t at = static_cast<uint32_t>(&ins - ctx.fn.instrs.data());
  for (uint32_t r : regs)
    if (std::any_of(ta.regs.begin(), ta.regs.end(), [&](const PendingRegister& p) { return p.half_of == r; }))
      path_.refuse(ctx, ins, "writes " + ctx.fn.regs[r].name + ", a wgmma accumulator whose 16-bit halves were unpacked before " +
                                 "the wgmma.wait_group that retires them (the halves would follow the new value)");
  for (uint32_t r : regs) {
    auto it = std::find_if(ta.regs.begin(), ta.regs.end(), [&](const PendingRegister& p) { return p.reg == r; });
    if (it == ta.regs.end()) ta.regs.push_back({r, at, AsyncCopy::kUncommitted});
    else it->instr = at, it->group = AsyncCopy::kUncommitted;  // chained into a later group
  }
  ctx.th.pending_regs = static_cast<uint32_t>(ta.regs.size());
}

void AsyncUnit::wgmma_commit(ExecContext& ctx) {
  ThreadAsync& ta = thread_async(ctx);
  for (PendingRegister& p : ta.regs)
    if (p.group == AsyncCopy::kUncommitted) p.group = ta.wgmma_groups;
  ++ta.wgmma_groups;
}

void AsyncUnit::wgmma_wait(ExecContext& ctx, uint32_t keep) {
  ThreadAsync& ta = thread_async(ctx);
  uint32_t below = ta.wgmma_groups > keep ? ta.wgmma_groups - keep : 0;
  std::erase_if(ta.regs, [&](const PendingRegister& p) { return p.group != AsyncCopy::kUncommitted && p.group < below; });
  ctx.th.pending_regs = static_cast<uint32_t>(ta.regs.size());
}

bool AsyncUnit::is_pending_accumulator(ExecContext& ctx, uint32_t reg) {
  if (!ctx.th.pending_regs) return false;
  ThreadAsync& ta = thread_async(ctx);
  return std::any_of(ta.regs.begin(), ta.regs.end(),
                     [&](const PendingRegister& p) { return p.reg == reg && p.half_of == PendingRegister::kNone; });
}

void AsyncUnit::pend_halves(ExecContext& ctx, const ptx::Instr& ins, uint32_t acc, uint32_t lo, uint32_t hi) {
  ThreadAsync& ta = thread_async(ctx);
  auto it = std::find_if(ta.regs.begin(), ta.regs.end(), [&](const PendingRegister& p) { return p.reg == acc; });
  if (it == ta.regs.end()) return;
  const PendingRegister of = *it;
  for (uint32_t h : {lo, hi}) {
    std::erase_if(ta.regs, [&](const PendingRegister& p) { return p.reg == h; });
    ta.regs.push_back({h, of.instr, of.group, acc});
  }
  ctx.th.pending_regs = static_cast<uint32_t>(ta.regs.size());
  const std::string name = ctx.fn.regs[acc].name;
  path_.note(SiteRef{&ctx, &ins}, [&] {
    return "unpacks " + name + ", an accumulator of the wgmma.mma_async at instruction " + std::to_string(of.instr) +
           ", before a wgmma.wait_group retires it (undefined in PTX): read as ptxas compiles it, the halves in place " +
           "until the wait";
  });
}

Value AsyncUnit::pending_register_access(ExecContext& ctx, uint32_t reg, Value v, bool write) {
  ThreadAsync& ta = thread_async(ctx);
  auto it = std::find_if(ta.regs.begin(), ta.regs.end(), [&](const PendingRegister& p) { return p.reg == reg; });
  if (it == ta.regs.end()) return v;
  const ptx::Instr& ins = ctx.fn.instrs[ctx.th.pc - 1];
  std::string name = ctx.fn.regs[reg].name;
  uint32_t writer = it->instr;
  path_.defect(DefectKind::Race, SiteRef{&ctx, &ins}, [&] { return "register " + name; }, [&] {
    return std::string(write ? "writes" : "reads") + " an accumulator of the wgmma.mma_async at instruction " +
           std::to_string(writer) + " before a wgmma.wait_group retires it";
  });
  if (write) return v;
  std::string where = "register " + name + " of thread " + std::to_string(ctx.th.linear) + ", CTA " + std::to_string(ctx.cta.linear);
  return path_.unknown_value(std::string(1, path_.program()) + ": " + where + ", read before wgmma.wait_group", where, reg, 4, v.integer);
}

}  // namespace racer::exec

namespace racer::exec {

void AsyncUnit::proxy_fence(ExecContext& ctx) {
  if (!ctx.cta.async) ctx.cta.async = std::make_shared<CtaAsync>();
  ctx.cta.async->proxy_fence[ctx.th.linear] = path_.next_access();
}

Value AsyncUnit::async_proxy_load(ExecContext& ctx, const ptx::Instr& ins, uint64_t addr, unsigned size, ptx::Type t) {
  Located l = path_.locate(ctx, Space::Shared, addr);
  if (l.region && l.region->contains(l.offset, size) && l.region->track_races) {
    uint64_t off = l.offset - l.region->base;
    uint32_t per_cta = static_cast<uint32_t>(ctx.cta.threads.size());
    for (unsigned k = 0; k < size; ++k) {
      const AccessRecord w = l.region->track.peek(off + k).writer;
      if (!w.valid() || w.launch != path_.launch_index() || w.thread / per_cta != ctx.cta.linear) continue;
      uint32_t writer = w.thread % per_cta, fenced = 0;
      if (ctx.cta.async) {
        auto it = ctx.cta.async->proxy_fence.find(writer);
        if (it != ctx.cta.async->proxy_fence.end()) fenced = it->second;
      }
      if (fenced > w.seq) continue;
      std::string where = path_.describe(l.region, l.offset, size);
      path_.defect(DefectKind::Race, SiteRef{&ctx, &ins}, [&] { return where; }, [&] {
        return "the async proxy (wgmma) reads bytes thread " + std::to_string(writer) +
               " stored without a fence.proxy.async after the store: the wgmma may see the old contents";
      });
      std::string name = std::string(1, path_.program()) + ": " + where + " of CTA " + std::to_string(ctx.cta.linear) +
                         " in launch " + std::to_string(path_.launch_index()) + ", read by wgmma without a proxy fence";
      return path_.unknown_value(name, where, off, size, !ptx::is_float(t));
    }
  }
  return path_.load(ctx, ins, Space::Shared, addr, size, t);
}

}  // namespace racer::exec
