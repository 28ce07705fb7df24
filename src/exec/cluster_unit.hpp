#pragma once
// The cluster unit: the CTAs of the cluster being run (exec/cluster.hpp has its state), their
// distributed shared memory, barrier.cluster, and the asynchronous operations that cross CTAs
// (st.async, red.async, multicast bulk copies, remote mbarrier arrivals). It reaches memory
// through the access path and mbarriers through the asynchronous unit.
#include <cstdint>
#include <memory>
#include <vector>

#include "exec/access_path.hpp"
#include "exec/async_unit.hpp"
#include "exec/cluster.hpp"
#include "exec/context.hpp"
#include "exec/cta.hpp"
#include "exec/ports.hpp"

namespace racer::exec {

class ClusterUnit final : public ClusterPort, public RemoteLandings {
 public:
  ClusterUnit(AccessPath& path, AsyncUnit& async) : path_(path), async_(async) {}

  // --- the port instruction semantics see (exec/ports.hpp) ---
  void cluster_arrive(ExecContext& ctx, const ptx::Instr& ins, bool relaxed) override;
  void cluster_wait(ExecContext& ctx, const ptx::Instr& ins) override;
  void mbarrier_init_fence(ExecContext& ctx) override;
  uint64_t cluster_map_address(ExecContext& ctx, uint64_t addr, uint32_t rank, bool generic) override;
  uint32_t cluster_rank_of(ExecContext& ctx, uint64_t addr, bool generic) override;
  uint64_t own_shared_address(ExecContext& ctx, uint64_t cluster_addr, const char* what) override;
  void bulk_copy_multicast(ExecContext& ctx, const ptx::Instr& ins, const AsyncCopy& copy, uint64_t mbar,
                           uint32_t mask) override;
  void store_async(ExecContext& ctx, const ptx::Instr& ins, uint64_t dst, const std::vector<Value>& values,
                   unsigned elem_size, uint64_t mbar) override;
  void reduce_async(ExecContext& ctx, const ptx::Instr& ins, uint64_t dst, uint8_t op, ptx::Type t, Value operand,
                    uint64_t mbar) override;
  uint64_t mbarrier_arrive_cluster(ExecContext& ctx, uint64_t cluster_addr, uint32_t count, uint32_t tx, bool drop,
                                   bool release = true) override;
  void landed_remote(const AsyncCopy& c) override;

  // --- for the access path and the scheduler ---
  // The cluster being run (null outside one: a launch without cluster instructions).
  const Cluster* current() const { return cluster_.get(); }
  // A cluster of these CTAs (initialized, in rank order) starts; end() forgets it.
  void begin(std::vector<Cta>& ctas);
  void end() { cluster_.reset(); }
  // Lets threads waiting at barrier.cluster go on where their phase completed.
  bool release_barrier(std::vector<Cta>& ctas);
  // Every access to another CTA's shared memory must precede that CTA's exit.
  void check_remote_lifetimes();
  // Where a .shared::cluster address lands (another CTA's shared memory is a remote access).
  Located locate(ExecContext& ctx, uint64_t addr);
  // The CTA whose memory r is: another CTA of the cluster for its shared memory, else ctx's.
  Cta& region_cta(ExecContext& ctx, const Region* r);
  // The CTA ctx's thread belongs to (ctx.cta may be another CTA of the cluster), and its
  // launch-wide number.
  const Cta& home_cta(const ExecContext& ctx) const;
  uint32_t launch_thread(const ExecContext& ctx) const;
  Value special(ExecContext& ctx, ptx::SpecialReg sr, uint32_t component);

 private:
  // Whether b's mbarrier.init is visible to ctx's thread, an arrive or copy from another CTA.
  bool init_visible(const ExecContext& ctx, const Mbarrier& b) const;
  // st.async / red.async (exec/store_async.cpp): `copy` (its parts read) to the
  // .shared::cluster address dst, completing on the mbarrier at .shared::cluster address mbar.
  void send_async(ExecContext& ctx, const ptx::Instr& ins, AsyncCopy copy, uint64_t dst, uint64_t mbar);

  AccessPath& path_;
  AsyncUnit& async_;
  std::unique_ptr<Cluster> cluster_;
};

}  // namespace racer::exec
