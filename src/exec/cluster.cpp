// Thread-block clusters. The CTAs of a cluster are created together and stepped in rounds:
// every ready thread of every CTA runs to its next synchronization point, then whatever can be
// released is (warp collectives, mbarrier phases and CTA barriers per CTA, then the cluster
// barrier). Ordering between CTAs comes from barrier.cluster (an access is ordered before
// another thread's when a release arrive of its thread follows it and the other thread knows
// that phase complete, Cluster::ordered) and from mbarriers, chained through the threads'
// clocks (exec/happens_before.hpp); neither depends on the order the engine ran the CTAs in.
// Accesses to another CTA's shared memory must also be ordered after that CTA
// started (a completed cluster barrier) and before it exits (a cluster barrier it waits at);
// otherwise they are races with its lifetime.
#include "exec/cluster.hpp"

#include <algorithm>

#include "exec/async_state.hpp"
#include "exec/cluster_unit.hpp"
#include "exec/refusal.hpp"

namespace racer::exec {

Dim3 cluster_shape(const LaunchSpec& l) { return l.clustered ? l.cluster : Dim3{}; }

bool uses_cluster_instructions(const ptx::Function& fn) {
  for (const ptx::Instr& i : fn.instrs) {
    if (i.op == ptx::Op::BarrierClusterArrive || i.op == ptx::Op::BarrierClusterWait || i.op == ptx::Op::Mapa ||
        i.op == ptx::Op::Getctarank || i.op == ptx::Op::StAsync || i.op == ptx::Op::RedAsync)
      return true;
    for (ptx::Mod m : {ptx::Mod::Space, ptx::Mod::Space2})
      if (i.has(m) && ptx::mod_values(m)[i.mod(m)] == "shared::cluster") return true;
  }
  return false;
}

int64_t Cluster::index(uint32_t launch_thread) const {
  auto it = rank_of.find(launch_thread / per_cta);
  if (it == rank_of.end()) return -1;
  return int64_t{it->second} * per_cta + launch_thread % per_cta;
}

bool Cluster::ordered(uint32_t t, uint32_t seq, uint32_t phases) const {
  int64_t a = index(t);
  if (a < 0) return false;
  const ClusterThread& w = threads[static_cast<size_t>(a)];
  // The first arrive after the access, then the first of those with release semantics.
  size_t p = static_cast<size_t>(std::lower_bound(w.arrive_seq.begin(), w.arrive_seq.end(), seq) - w.arrive_seq.begin());
  while (p < w.relaxed.size() && w.relaxed[p]) ++p;
  return p < w.arrive_seq.size() && phases > p;
}

bool Cluster::init_visible(uint32_t t, uint32_t seq, uint32_t phases) const {
  if (ordered(t, seq, phases)) return true;
  int64_t a = index(t);
  if (a < 0) return false;
  const ClusterThread& w = threads[static_cast<size_t>(a)];
  if (w.init_fence < seq) return false;
  size_t p = static_cast<size_t>(std::lower_bound(w.arrive_seq.begin(), w.arrive_seq.end(), w.init_fence) - w.arrive_seq.begin());
  return p < w.arrive_seq.size() && phases > p;
}

bool Cluster::phase_complete(uint32_t phase) const {
  return std::all_of(threads.begin(), threads.end(), [&](const ClusterThread& t) { return t.arrive_seq.size() > phase; });
}

bool ClusterUnit::init_visible(const ExecContext& ctx, const Mbarrier& b) const {
  return ctx.th.hb.seq_of(b.init_thread) >= b.init_seq ||
         cluster_->init_visible(b.init_thread, b.init_seq, ctx.th.hb.cluster_phases);
}

Value ClusterUnit::special(ExecContext& ctx, ptx::SpecialReg sr, uint32_t c) {
  const LaunchSpec& l = path_.current_launch();
  const Dim3 shape = cluster_shape(l);
  const std::array<uint32_t, 3> s = {shape.x, shape.y, shape.z}, g = {l.grid.x, l.grid.y, l.grid.z};
  switch (sr) {
    case ptx::SpecialReg::ClusterCtaid: return Value::of_bits(ctx.cta.ctaid[c] % s[c]);
    case ptx::SpecialReg::ClusterNctaid: return Value::of_bits(s[c]);
    case ptx::SpecialReg::ClusterCtarank: return Value::of_bits(ctx.cta.cluster_rank);
    case ptx::SpecialReg::ClusterNctarank: return Value::of_bits(shape.count());
    case ptx::SpecialReg::Clusterid: return Value::of_bits(ctx.cta.ctaid[c] / s[c]);
    case ptx::SpecialReg::Nclusterid: return Value::of_bits(g[c] / s[c]);
    case ptx::SpecialReg::IsExplicitCluster: return Value::of_bits(l.clustered ? 1 : 0);
    default: throw Refusal("not a cluster special register");
  }
}

void ClusterUnit::begin(std::vector<Cta>& ctas) {
  const uint32_t per_cta = static_cast<uint32_t>(ctas.front().threads.size());
  cluster_ = std::make_unique<Cluster>();
  cluster_->per_cta = per_cta;
  cluster_->threads.assign(ctas.size() * per_cta, ClusterThread{});
  for (uint32_t r = 0; r < ctas.size(); ++r) {
    Cta& cta = ctas[r];
    cta.cluster_rank = r;
    if (ctas.size() > 1) cta.shared->name = "shared memory of CTA " + dims_text(cta.ctaid);
    cluster_->ctas.push_back(&cta);
    cluster_->rank_of[cta.linear] = r;
  }
}

bool ClusterUnit::release_barrier(std::vector<Cta>& ctas) {
  Cluster& cl = *cluster_;
  bool released = false;
  for (Cta& c : ctas)
    for (Thread& t : c.threads) {
      if (t.wait != Wait::ClusterBarrier) continue;
      ClusterThread& ct = cl.threads[size_t{c.cluster_rank} * cl.per_cta + t.linear];
      if (!cl.phase_complete(ct.waits)) continue;
      if (!released)  // atomics pending before the barrier take effect at it, as at a CTA barrier
        for (Cta& o : ctas) path_.flush_shared_atomics(o);
      if (ct.waits < cl.phase_clocks.size()) t.hb.join(cl.phase_clocks[ct.waits]);
      ++ct.waits;
      t.hb.cluster_phases = std::max(t.hb.cluster_phases, ct.waits);
      t.wait = Wait::None;
      released = true;
    }
  return released;
}

void ClusterUnit::cluster_arrive(ExecContext& ctx, const ptx::Instr& ins, bool relaxed) {
  ClusterThread& t = cluster_->threads[size_t{ctx.cta.cluster_rank} * cluster_->per_cta + ctx.th.linear];
  if (t.arrive_seq.size() > t.waits)
    path_.refuse(ctx, ins, "barrier.cluster.arrive a second time without a barrier.cluster.wait between");
  if (!relaxed) {
    // Its own accesses are ordered through arrive_seq; what else is ordered before it goes with
    // the phase.
    Clock published = ctx.th.hb;
    published.raise_epoch(ctx.cta.linear, ctx.cta.epoch);
    if (cluster_->phase_clocks.size() <= t.arrive_seq.size()) cluster_->phase_clocks.resize(t.arrive_seq.size() + 1);
    cluster_->phase_clocks[t.arrive_seq.size()].join(published);
  }
  t.arrive_seq.push_back(path_.last_access());
  t.relaxed.push_back(relaxed);
}

void ClusterUnit::mbarrier_init_fence(ExecContext& ctx) {
  if (!cluster_) return;  // a cluster of one: nothing else to see the inits
  cluster_->threads[size_t{ctx.cta.cluster_rank} * cluster_->per_cta + ctx.th.linear].init_fence = path_.next_access();
}

void ClusterUnit::cluster_wait(ExecContext& ctx, const ptx::Instr& ins) {
  ClusterThread& t = cluster_->threads[size_t{ctx.cta.cluster_rank} * cluster_->per_cta + ctx.th.linear];
  if (t.arrive_seq.size() <= t.waits)
    path_.refuse(ctx, ins, "barrier.cluster.wait without a barrier.cluster.arrive of this thread before it");
  // Always wait for a round: the phase may be complete already, but the release (with its
  // flush of pending atomics) happens in one place.
  ctx.th.wait = Wait::ClusterBarrier;
  ctx.th.wait_instr = ctx.th.pc - 1;
}

Located ClusterUnit::locate(ExecContext& ctx, uint64_t addr) {
  if (addr < kClusterRankStride) return {ctx.cta.shared.get(), addr};
  const uint64_t rank = addr / kClusterRankStride - 1, local = addr % kClusterRankStride;
  const size_t n = cluster_ ? cluster_->ctas.size() : 1;
  if (rank >= n || !cluster_) {
    if (!cluster_ && rank == 0) return {ctx.cta.shared.get(), local};
    // No such CTA: an empty region that says so in the defect.
    auto r = std::make_unique<Region>("the shared memory of cluster rank " + std::to_string(rank) + " (the cluster has " +
                                          std::to_string(n) + (n == 1 ? " CTA)" : " CTAs)"),
                                      addr, 0, ByteState::Uninit);
    Region* p = r.get();
    if (cluster_) cluster_->beyond.push_back(std::move(r));
    else throw Refusal("a .shared::cluster address names CTA rank " + std::to_string(rank) + " outside a launch without clusters");
    return {p, addr};
  }
  Cta& target = *cluster_->ctas[rank];
  if (&target != &ctx.cta) {
    const uint32_t instr = ctx.th.pc - 1;
    const ptx::Instr& ins = ctx.fn.instrs[instr];
    const uint32_t me = ctx.cta.linear * cluster_->per_cta + ctx.th.linear;
    if (ctx.th.hb.cluster_phases == 0)  // no cluster barrier phase known complete
      path_.defect(DefectKind::Race, SiteRef{&ctx, &ins}, [&] { return target.shared->name; }, [&] {
        return "reaches the shared memory of cluster rank " + std::to_string(rank) +
               " before any barrier.cluster.wait: that CTA may not have started";
      });
    // Numbered now: atomics and mbarrier arrivals do not pass through the race tracker.
    AccessRecord access{me, ctx.cta.epoch, ctx.cta.warp_epoch[ctx.th.warp], static_cast<uint16_t>(path_.launch_index()), path_.next_access()};
    cluster_->remote[{instr, me}] = {access, static_cast<uint32_t>(rank)};
    if (!cluster_->remote_site.count(instr)) cluster_->remote_site.emplace(instr, ctx.site(ins));
  }
  return {target.shared.get(), local};
}

// Every access to another CTA's shared memory must precede that CTA's exit: a release arrive
// after it whose phase every thread of the target waited for.
void ClusterUnit::check_remote_lifetimes() {
  Cluster& cl = *cluster_;
  for (const auto& [key, value] : cl.remote) {
    const uint32_t instr = key.first, rank = value.rank;
    const Cta& target = *cl.ctas[rank];
    bool before_exit = true;
    for (uint32_t t = 0; t < cl.per_cta && before_exit; ++t) before_exit = path_.ordered_before(value.access, target, target.threads[t]);
    if (before_exit) continue;
    const Site& site = cl.remote_site.at(instr);
    path_.defect(DefectKind::Race, SiteRef{nullptr, nullptr, &site}, [&] { return cl.ctas[rank]->shared->name; }, [&] {
      return "reaches the shared memory of cluster rank " + std::to_string(rank) +
             " with no barrier.cluster that CTA waits at after it: the CTA may have exited";
    });
  }
}

const Cta& ClusterUnit::home_cta(const ExecContext& ctx) const {
  if (cluster_)
    for (const Cta* c : cluster_->ctas)
      if (&ctx.th >= c->threads.data() && &ctx.th < c->threads.data() + c->threads.size()) return *c;
  return ctx.cta;
}

uint32_t ClusterUnit::launch_thread(const ExecContext& ctx) const {
  const Cta& cta = home_cta(ctx);
  return cta.linear * static_cast<uint32_t>(cta.threads.size()) + ctx.th.linear;
}

Cta& ClusterUnit::region_cta(ExecContext& ctx, const Region* r) {
  if (!cluster_ || !r || r == ctx.cta.shared.get()) return ctx.cta;
  for (Cta* c : cluster_->ctas)
    if (c->shared.get() == r) return *c;
  return ctx.cta;
}

uint64_t ClusterUnit::cluster_map_address(ExecContext& ctx, uint64_t addr, uint32_t rank, bool generic) {
  uint64_t a = addr;
  if (generic) {
    if (addr < kSharedWindow || addr >= kSharedWindow + (uint64_t{1} << 32))
      throw Refusal("mapa of a generic address outside shared memory");
    a -= kSharedWindow;
  }
  (void)ctx;
  uint64_t mapped = (uint64_t{rank} + 1) * kClusterRankStride + a % kClusterRankStride;
  return generic ? mapped + kSharedWindow : mapped;
}

uint32_t ClusterUnit::cluster_rank_of(ExecContext& ctx, uint64_t addr, bool generic) {
  uint64_t a = generic ? addr - kSharedWindow : addr;
  if (generic && (addr < kSharedWindow || addr >= kSharedWindow + (uint64_t{1} << 32)))
    throw Refusal("getctarank of a generic address outside shared memory");
  return a < kClusterRankStride ? ctx.cta.cluster_rank : static_cast<uint32_t>(a / kClusterRankStride - 1);
}

uint64_t ClusterUnit::own_shared_address(ExecContext& ctx, uint64_t addr, const char* what) {
  if (addr < kClusterRankStride) return addr;
  uint32_t rank = static_cast<uint32_t>(addr / kClusterRankStride - 1);
  if (rank != ctx.cta.cluster_rank)
    throw Refusal(std::string(what) + " in the shared memory of another CTA of the cluster (rank " + std::to_string(rank) +
                  ") is not modelled");
  return addr % kClusterRankStride;
}

void ClusterUnit::bulk_copy_multicast(ExecContext& ctx, const ptx::Instr& ins, const AsyncCopy& copy, uint64_t mbar, uint32_t mask) {
  const size_t n = cluster_ ? cluster_->ctas.size() : 1;
  for (uint32_t rank = 0; rank < 16; ++rank) {
    if (!(mask >> rank & 1)) continue;
    if (rank >= n) {
      path_.defect(DefectKind::OobWrite, SiteRef{&ctx, &ins}, [&] {
        return "the shared memory of cluster rank " + std::to_string(rank) + " (the cluster has " + std::to_string(n) +
               (n == 1 ? " CTA)" : " CTAs)");
      }, [] { return std::string("the multicast's CTA mask names a rank outside the cluster"); });
      continue;
    }
    if (rank == ctx.cta.cluster_rank) {
      async_.bulk_copy_parts(ctx, ins, copy, mbar);
      continue;
    }
    // Another CTA: reached like a remote access (started, alive), its barrier initialized
    // before this copy by a cluster barrier.
    Located l = locate(ctx, (uint64_t{rank} + 1) * kClusterRankStride + mbar);
    Cta& target = region_cta(ctx, l.region);
    ExecContext remote = ctx.on(target);
    Mbarrier& b = async_.mbarrier_at(remote, mbar);
    if (!init_visible(ctx, b))
      throw Refusal("multicasts to cluster rank " + std::to_string(rank) +
                    ", whose mbarrier.init no barrier.cluster orders before this copy");
    async_.bulk_copy_parts(remote, ins, copy, mbar);
  }
}

uint64_t ClusterUnit::mbarrier_arrive_cluster(ExecContext& ctx, uint64_t addr, uint32_t count, uint32_t tx, bool drop,
                                          bool release) {
  Located l = locate(ctx, addr);
  Cta& target = region_cta(ctx, l.region);
  if (&target == &ctx.cta && l.region == ctx.cta.shared.get()) return async_.mbarrier_arrive(ctx, l.offset, count, tx, drop, release);
  if (l.region != target.shared.get())
    throw Refusal("mbarrier.arrive on " + l.region->name + ": no such CTA in the cluster");
  ExecContext remote = ctx.on(target);
  Mbarrier& b = async_.mbarrier_at(remote, l.offset);
  if (!init_visible(ctx, b))
    throw Refusal("arrives on an mbarrier of cluster rank " + std::to_string(target.cluster_rank) +
                  " whose mbarrier.init no barrier.cluster orders before this arrive");
  return async_.mbarrier_arrive(remote, l.offset, count, tx, drop, release);
}

}  // namespace racer::exec
