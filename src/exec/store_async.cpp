// st.async and red.async: a thread sends a value (or an atomic update) to shared memory of a
// CTA of its cluster, usually another one (a mapa'd .shared::cluster address), and the bytes
// complete_tx on an mbarrier of that CTA. They are bulk copies of a few bytes: in flight until
// a thread waits for the phase they complete (exec/mbarrier.cpp lands them there), so a read
// no such wait orders after them is a race and gets an unknown value. A red.async applies
// its operation to what the bytes hold when it lands; red.async of one operation on the same
// bytes are atomic with each other, not a race.
#include "exec/async_state.hpp"
#include "exec/cluster.hpp"
#include "exec/cluster_unit.hpp"
#include "exec/refusal.hpp"

namespace racer::exec {

void ClusterUnit::store_async(ExecContext& ctx, const ptx::Instr& ins, uint64_t dst, const std::vector<Value>& values,
                          unsigned elem_size, uint64_t mbar) {
  AsyncCopy copy;
  for (const Value& v : values) {
    if (v.is_poison()) path_.refuse(ctx, ins, "st.async of the old value returned by an atomic, whose value depends on the order of atomics");
    Value b = v;
    if (b.is_concrete() && elem_size < 8) b.bits &= (uint64_t{1} << (8 * elem_size)) - 1;
    copy.parts.push_back({copy.size, static_cast<uint8_t>(elem_size), b});
    copy.size += elem_size;
  }
  send_async(ctx, ins, std::move(copy), dst, mbar);
}

void ClusterUnit::reduce_async(ExecContext& ctx, const ptx::Instr& ins, uint64_t dst, uint8_t op, ptx::Type t, Value operand,
                           uint64_t mbar) {
  if (operand.is_poison()) path_.refuse(ctx, ins, "red.async's operand is the old value of an atomic");
  const unsigned size = ptx::type_bits(t) / 8;
  AsyncCopy copy;
  copy.size = size;
  copy.parts.push_back({0, static_cast<uint8_t>(size), operand});
  copy.reduce_op = op;
  copy.reduce_type = t;
  copy.reduce_site = ctx.site(ins);
  send_async(ctx, ins, std::move(copy), dst, mbar);
}

void ClusterUnit::send_async(ExecContext& ctx, const ptx::Instr& ins, AsyncCopy copy, uint64_t dst, uint64_t mbar) {
  const char* what = copy.reduction() ? "red.async" : "st.async";
  copy.instr = static_cast<uint32_t>(&ins - ctx.fn.instrs.data());
  Located d = locate(ctx, dst);
  Cta& target = region_cta(ctx, d.region);
  if (d.region != target.shared.get() || !d.region->contains(d.offset, copy.size)) {
    // No such CTA in the cluster, or outside its shared memory: nothing lands, nothing
    // completes on the barrier.
    path_.defect(DefectKind::OobWrite, SiteRef{&ctx, &ins}, [&] { return path_.describe(d.region, d.offset, copy.size); });
    return;
  }
  if (cluster_rank_of(ctx, mbar, false) != target.cluster_rank)
    path_.refuse(ctx, ins, std::string(what) + " whose mbarrier is not in the CTA of its destination");
  if (auto it = cluster_->remote.find({copy.instr, launch_thread(ctx)}); &target != &ctx.cta && it != cluster_->remote.end()) {
    copy.remote_thread = it->first.second;
    copy.remote_seq = it->second.access.seq;
  }
  ExecContext remote = ctx.on(target);
  const uint64_t bar = mbar % kClusterRankStride;
  Mbarrier& b = async_.mbarrier_at(remote, bar);
  if (&target != &ctx.cta && !init_visible(ctx, b))
    path_.refuse(ctx, ins, std::string(what) + " to cluster rank " + std::to_string(target.cluster_rank) +
                         ", whose mbarrier.init no barrier.cluster orders before it");
  Region& r = *d.region;
  const uint64_t off = d.offset - r.base;
  // Plain atomics not yet applied: only the same operation combines with a red.async in any order.
  if (path_.pending_atomic_overlaps(r, off, copy.size, target)) {
    auto it = target.shared_atomics.find(off);
    const bool same = copy.reduction() && it != target.shared_atomics.end() && it->second.op == copy.reduce_op &&
                      it->second.type == copy.reduce_type && it->second.size == copy.size;
    if (!same) path_.refuse(ctx, ins, std::string(what) + " to bytes with other atomic updates pending: the result would depend on their order");
  }
  // The write may happen at any moment until its phase completes: it conflicts with what
  // other threads did to these bytes that nothing orders before it (for a reduction, their
  // plain accesses only); later accesses meet it in flight.
  if (copy.reduction()) path_.atomic_conflicts(ctx, ins, r, off, copy.size);
  else path_.track(ctx, ins, r, off, copy.size, true, Value::poison());
  copy.dst = d.offset;
  const unsigned align = copy.size;  // the whole vector's size
  async_.bulk_copy_parts(remote, ins, std::move(copy), bar, align);
}

void ClusterUnit::landed_remote(const AsyncCopy& c) {
  if (c.remote_thread == UINT32_MAX || !cluster_) return;
  auto it = cluster_->remote.find({c.instr, c.remote_thread});
  if (it != cluster_->remote.end() && it->second.access.seq == c.remote_seq) cluster_->remote.erase(it);
}

}  // namespace racer::exec
