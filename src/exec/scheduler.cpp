// The scheduler (exec/scheduler.hpp): CTAs one at a time, or a cluster's together, in rounds
// of running threads to their synchronization points and releasing what can go on.
#include "exec/scheduler.hpp"

#include <algorithm>

#include "exec/cluster.hpp"
#include "exec/refusal.hpp"

namespace racer::exec {

void Scheduler::run(uint64_t shared_size, uint64_t local_bytes) {
  const LaunchSpec& spec = path_.current_launch();
  const ptx::Function& fn = spec.module->functions.at(spec.function);
  publishes_clocks_ = publishes_clocks(fn);
  if (spec.clustered || uses_cluster_instructions(fn)) {
    run_clusters(shared_size, local_bytes);
    return;
  }
  for (uint32_t z = 0; z < spec.grid.z; ++z)
    for (uint32_t y = 0; y < spec.grid.y; ++y)
      for (uint32_t x = 0; x < spec.grid.x; ++x) {
        Cta cta;
        init_cta(cta, x, y, z, shared_size, local_bytes);
        run_cta(cta);
        stepper_.ctas_done();
        spare_threads_ = std::move(cta.threads);
      }
  spare_threads_.clear();
}

void Scheduler::init_cta(Cta& cta, uint32_t x, uint32_t y, uint32_t z, uint64_t shared_size, uint64_t local_bytes) {
  const LaunchSpec& spec = path_.current_launch();
  const ptx::Function& fn = spec.module->functions[spec.function];
  uint64_t threads = spec.block.count();
  cta.ctaid = {x, y, z};
  cta.linear = static_cast<uint32_t>((uint64_t{z} * spec.grid.y + y) * spec.grid.x + x);
  cta.shared = std::make_unique<Region>("shared memory", kSharedBase, shared_size, ByteState::Uninit);
  cta.epoch = path_.next_epoch();
  cta.warp_epoch.assign((threads + 31) / 32, 0);
  cta.warp_collectives.assign((threads + 31) / 32, 0);
  // The previous CTA's threads, reset, with their register files' storage: a grid of many
  // small CTAs would otherwise allocate and free two arrays per thread per CTA.
  cta.threads = std::move(spare_threads_);
  spare_threads_.clear();
  cta.threads.resize(threads);
  for (uint64_t t = 0; t < threads; ++t) {
    Thread& th = cta.threads[t];
    std::vector<Value> regs = std::move(th.regs);
    std::vector<uint32_t> def_pc = std::move(th.def_pc);
    th = Thread{};
    th.regs = std::move(regs);
    th.def_pc = std::move(def_pc);
    th.regs.assign(fn.regs.size(), Value{});
    th.def_pc.assign(fn.regs.size(), UINT32_MAX);
    th.linear = static_cast<uint32_t>(t);
    th.tid = {static_cast<uint32_t>(t % spec.block.x), static_cast<uint32_t>(t / spec.block.x % spec.block.y),
              static_cast<uint32_t>(t / (uint64_t{spec.block.x} * spec.block.y))};
    th.lane = static_cast<uint32_t>(t % 32);
    th.warp = static_cast<uint32_t>(t / 32);
    if (local_bytes) {
      cta.locals.push_back(std::make_unique<Region>(
          "local memory of thread (" + std::to_string(th.tid[0]) + "," + std::to_string(th.tid[1]) + "," +
              std::to_string(th.tid[2]) + ")",
          kLocalBase, local_bytes, ByteState::Uninit));
      th.local = cta.locals.back().get();
    }
  }
}

void Scheduler::warp_synchronized(Cta& cta, std::span<Thread* const> lanes) {
  if (!publishes_clocks_) return;
  const uint32_t first = cta.linear * static_cast<uint32_t>(cta.threads.size());
  Clock all;
  for (const Thread* t : lanes) all.join(t->hb);
  for (const Thread* t : lanes) all.raise_seq(first + t->linear, path_.last_access());
  for (Thread* t : lanes) t->hb = all;  // `all` joins every lane's clock
}

void Scheduler::run_clusters(uint64_t shared_size, uint64_t local_bytes) {
  const LaunchSpec& l = path_.current_launch();
  const Dim3 s = cluster_shape(l);
  for (uint32_t cz = 0; cz < l.grid.z / s.z; ++cz)
    for (uint32_t cy = 0; cy < l.grid.y / s.y; ++cy)
      for (uint32_t cx = 0; cx < l.grid.x / s.x; ++cx) {
        std::vector<Cta> ctas(s.count());
        for (uint32_t r = 0; r < ctas.size(); ++r)
          init_cta(ctas[r], cx * s.x + r % s.x, cy * s.y + r / s.x % s.y, cz * s.z + r / (s.x * s.y), shared_size, local_bytes);
        clusters_.begin(ctas);
        run_cluster(ctas);
        clusters_.end();
        stepper_.ctas_done();
      }
}

void Scheduler::run_cluster(std::vector<Cta>& ctas) {
  for (;;) {
    bool all_exited = true;
    for (Cta& c : ctas) all_exited &= stepper_.run_ready_threads(c);
    if (all_exited) break;
    bool released = false;
    for (Cta& c : ctas) released |= release_sync(c);
    if (released || clusters_.release_barrier(ctas)) continue;
    // Nobody can go on: a CTA whose threads wait for something inside it says so first.
    for (Cta& c : ctas)
      for (const Thread& t : c.threads)
        if (!t.exited && t.wait != Wait::ClusterBarrier) stuck(c);
    for (Cta& c : ctas)
      for (const Thread& t : c.threads)
        if (!t.exited) stuck(c);
  }
  clusters_.check_remote_lifetimes();
  for (Cta& c : ctas) {
    if (c.async) async_.finish_async(c);
    path_.flush_shared_atomics(c);
  }
}

void Scheduler::run_cta(Cta& cta) {
  // Each round ends with every live thread at a synchronization point.
  while (!stepper_.run_ready_threads(cta))
    if (!release_sync(cta)) stuck(cta);
  if (cta.async) async_.finish_async(cta);
  path_.flush_shared_atomics(cta);
}

bool Scheduler::release_sync(Cta& cta) {
  bool released = false;

  // Warp collectives: the lanes of a member mask must all wait at the same instruction.
  uint32_t warps = static_cast<uint32_t>((cta.threads.size() + 31) / 32);
  for (uint32_t w = 0; w < warps; ++w) {
    for (uint32_t l = 0; l < 32; ++l) {
      size_t i = size_t{w} * 32 + l;
      if (i >= cta.threads.size()) break;
      Thread& th = cta.threads[i];
      if (th.wait != Wait::Warp) continue;
      std::vector<Thread*> lanes;
      bool complete = true;
      std::string why;
      for (uint32_t k = 0; k < 32; ++k) {
        if (!(th.member_mask >> k & 1)) continue;
        size_t j = size_t{w} * 32 + k;
        if (j >= cta.threads.size()) {
          complete = false;
          why = "the member mask names lane " + std::to_string(k) + ", which does not exist in this CTA";
          break;
        }
        Thread& o = cta.threads[j];
        if (o.exited) {
          complete = false;
          why = "lane " + std::to_string(k) + " of the member mask has exited";
          break;
        }
        if (o.wait != Wait::Warp || o.wait_instr != th.wait_instr) {
          complete = false;
          break;
        }
        if (o.member_mask != th.member_mask) {
          complete = false;
          why = "lanes disagree on the member mask";
          break;
        }
        lanes.push_back(&o);
      }
      if (!why.empty()) {
        ExecContext ctx = path_.context(cta, th);
        path_.refuse(ctx, ctx.fn.instrs[th.wait_instr], why);
      }
      if (!complete) continue;
      ExecContext ctx = path_.context(cta, th);
      const ptx::Instr& ins = ctx.fn.instrs[th.wait_instr];
      Collective c = sem_.collective[static_cast<size_t>(ins.op)];
      try {
        c(ctx, ins, lanes);
      } catch (const LocatedRefusal&) {
        throw;
      } catch (const Refusal& r) {
        path_.refuse(ctx, ins, r.what());
      }
      for (Thread* t : lanes) t->wait = Wait::None;
      if (lanes.size() == std::min<size_t>(32, cta.threads.size() - size_t{w} * 32)) ++cta.warp_collectives[w];
      released = true;
    }
  }
  if (released) return true;
  if (cta.async && async_.resolve_mbarrier_waits(cta)) return true;

  // CTA barriers whose phase completed (counted as threads arrived, exec/cta_barrier.cpp).
  return release_cta_barriers(cta);
}

void Scheduler::stuck(Cta& cta) {
  uint32_t exited = 0;
  for (const Thread& t : cta.threads) exited += t.exited;
  for (Thread& t : cta.threads) {
    if (t.exited || t.wait == Wait::None) continue;
    ExecContext ctx = path_.context(cta, t);
    std::string reason;
    if (t.wait == Wait::CtaBarrier && exited > 0)
      reason = std::to_string(exited) + " threads of the CTA exited while others wait at barrier " +
               std::to_string(t.barrier_id) + ": whether they count as arrived is not modelled";
    else if (t.wait == Wait::CtaBarrier)
      reason = "threads of the CTA wait at different barriers or collectives and can never meet" +
               cta_barrier_state(cta, t.barrier_id);
    else if (t.wait == Wait::Mbarrier)
      reason = "waits for an mbarrier phase that never completes (arrivals or expected bytes missing)";
    else if (t.wait == Wait::ClusterBarrier)
      reason = "waits at the cluster barrier, which threads of the cluster never arrive at (they exited or wait elsewhere)";
    else
      reason = "the lanes of this warp collective never all arrive at it";
    path_.refuse(ctx, ctx.fn.instrs[t.wait_instr], reason);
  }
  throw Refusal("no thread of the CTA can go on");  // unreachable: some live thread waits
}

}  // namespace racer::exec
