// Programmatic dependent launch (griddepcontrol.wait / .launch_dependents): launches run one
// after another here, which is what a kernel sees after its wait. Before it, the previous grid
// may still be running: a read of what an earlier launch wrote is a race, and a store or an
// access the machine does not check byte by byte is refused (the earlier launch's reads are
// not recorded, so a store could not be cleared of racing with them).
#include "exec/machine.hpp"
#include "exec/ports.hpp"

namespace racer::exec {

namespace {
constexpr const char* kBeforeWait =
    " before griddepcontrol.wait: the previous launch may still be running (programmatic dependent launch)";
}

void Machine::refuse_before_grid_wait(ExecContext& ctx, const ptx::Instr& ins, const std::string& what) {
  refuse(ctx, ins, what + kBeforeWait);
}

void Machine::read_before_grid_wait(ExecContext& ctx, const ptx::Instr& ins, const Region& r, uint64_t off, unsigned size) {
  if (r.tensor < 0) return;  // shared and local memory are this launch's own
  const size_t t = static_cast<size_t>(r.tensor);
  if (t >= cell_writers_.size() || cell_writers_[t].empty()) return;
  const uint64_t elem_bytes = storage_.tensors()[t].elem_bytes();
  for (uint64_t e = off / elem_bytes; e <= (off + size - 1) / elem_bytes && e < cell_writers_[t].size(); ++e) {
    const uint64_t w = cell_writers_[t][e];
    if (w == 0 || (w >> 32) - 1 >= launch_index_) continue;
    defect(DefectKind::Race, SiteRef{&ctx, &ins}, [&] { return storage_.describe(&r, r.base + off, size); },
           [] { return std::string("reads what an earlier launch wrote") + kBeforeWait + ": the value depends on the schedule"; });
    return;
  }
}

void Machine::write_before_grid_wait(ExecContext& ctx, const ptx::Instr& ins, const Region& r) {
  if (r.tensor >= 0) refuse_before_grid_wait(ctx, ins, "writes " + storage_.tensors()[static_cast<size_t>(r.tensor)].name);
}

void Machine::step_before_grid_wait(ExecContext& ctx, const ptx::Instr& ins) {
  switch (ins.op) {
    case ptx::Op::CpAsync:
    case ptx::Op::CpAsyncBulk:
    case ptx::Op::CpAsyncBulkTensor:
    case ptx::Op::StAsync:
    case ptx::Op::RedAsync:
    case ptx::Op::WmmaLoad:
    case ptx::Op::WmmaStore:
      if ((ins.op == ptx::Op::WmmaLoad || ins.op == ptx::Op::WmmaStore) && space_of(ins) == Space::Shared) return;
      refuse_before_grid_wait(ctx, ins, "accesses global memory by an instruction whose accesses are not checked");
    default:
      return;
  }
}

}  // namespace racer::exec
