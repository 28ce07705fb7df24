// Setting up memory for a program and running its launches CTA by CTA.
#include "exec/machine.hpp"

#include <algorithm>

#include "exec/cluster.hpp"
#include "exec/exact_float.hpp"
#include "exec/refusal.hpp"
#include "ptx/printer.hpp"

namespace racer::exec {
Machine::Machine(Session& session, char program, const std::vector<TensorSpec>& tensors, Domain& dom,
                 const Semantics& sem)
    : session_(session), program_(program), storage_(session, tensors), log_(program), dom_(dom), sem_(sem) {}

Machine::~Machine() = default;  // here, where Cluster is complete

Value Machine::cell(size_t tensor, int64_t flat) {
  const TensorSpec& t = storage_.tensors()[tensor];
  const int64_t off = t.storage_element(flat);
  Region& r = storage_.tensor_region(tensor);
  uint64_t pos = static_cast<uint64_t>(off) * t.elem_bytes();
  unsigned n = t.elem_bytes();
  switch (r.state[pos]) {
    case ByteState::Input: return storage_.input_cell(tensor, flat);
    case ByteState::Uninit: return final_uninitialized(tensor, flat);
    case ByteState::Symbolic:
      if ((r.sym_size[pos] & ~Region::kIntegerData) == n) return Value{0, r.sym[pos], (r.sym_size[pos] & Region::kIntegerData) != 0};
      throw Refusal("output cell " + t.cell_name(flat) + " holds part of a wider symbolic value");
    case ByteState::Concrete: {
      uint64_t bits = 0;
      for (unsigned k = 0; k < n; ++k) {
        if (r.state[pos + k] != ByteState::Concrete)
          throw Refusal("output cell " + t.cell_name(flat) + " is partly symbolic, partly concrete");
        bits |= uint64_t{r.bytes[pos + k]} << (8 * k);
      }
      return Value::of_bits(bits);
    }
  }
  return {};
}

Value Machine::final_uninitialized(size_t tensor, int64_t flat) {
  // Never written by this program: the unknown initial contents both programs share.
  const TensorSpec& t = storage_.tensors()[tensor];
  if (concrete_unknown_) return Value::of_bits(concrete_unknown_(t.cell_name(flat) + " (uninitialized)", t.elem_bytes()));
  SymbolOrigin o{SymbolOrigin::Kind::UninitTensor, static_cast<int>(tensor), flat, 0, t.cell_name(flat)};
  Value v = Value::of_expr(session_.symbol(o, t.cell_name(flat) + " (uninitialized)"));
  v.integer = !ptx::is_float(t.elem);
  return v;
}

expr::ExprId Machine::cell_expr(size_t tensor, int64_t flat) {
  Value v = cell(tensor, flat);
  const TensorSpec& t = storage_.tensors()[tensor];
  expr::Store& st = session_.store();
  if (v.is_symbolic()) {
    if (v.integer == ptx::is_float(t.elem))
      throw Refusal("output cell " + t.cell_name(flat) + " holds " + (v.integer ? "integer" : "float") +
                    " data stored without conversion into a tensor of " + std::string(ptx::type_name(t.elem)));
    return v.expr();
  }
  return exact_constant(st, t.elem == ptx::Type::Pred ? ptx::Type::U8 : t.elem, v.bits);
}

// A fresh CTA at ctaid (x, y, z): uninitialized shared memory, every thread at the start.
void Machine::init_cta(Cta& cta, uint32_t x, uint32_t y, uint32_t z, uint64_t shared_size, uint64_t local_bytes) {
  const LaunchSpec& spec = *launch_;
  const ptx::Function& fn = spec.module->functions[spec.function];
  uint64_t threads = spec.block.count();
  cta.ctaid = {x, y, z};
  cta.linear = static_cast<uint32_t>((uint64_t{z} * spec.grid.y + y) * spec.grid.x + x);
  cta.shared = std::make_unique<Region>("shared memory", kSharedBase, shared_size, ByteState::Uninit);
  cta.epoch = next_epoch_++;
  cta.warp_epoch.assign((threads + 31) / 32, 0);
  cta.warp_collectives.assign((threads + 31) / 32, 0);
  cta.threads.resize(threads);
  for (uint64_t t = 0; t < threads; ++t) {
    Thread& th = cta.threads[t];
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

void Machine::launch(const LaunchSpec& spec) {
  launch_ = &spec;
  launches_run_.push_back(spec);
  const ptx::Module& mod = *spec.module;
  const ptx::Function& fn = mod.functions.at(spec.function);
  param_slots_ = param_layout(fn);
  const auto [shared_size, local_off] = storage_.lay_out(spec);
  // What the hardware allows (sm_90: 227 KB of shared memory per CTA at most, opted in; 512 KB
  // of local memory per thread), and what the engine can hold for one CTA at a time.
  constexpr uint64_t kMaxSharedPerCta = 232448, kMaxLocalPerThread = 512 * 1024;
  if (shared_size > kMaxSharedPerCta)
    throw Refusal("launch " + std::to_string(launch_index_) + " (" + fn.name + ") needs " + std::to_string(shared_size) +
                  " bytes of shared memory per CTA; an sm_90 CTA has at most " + std::to_string(kMaxSharedPerCta));
  if (local_off > kMaxLocalPerThread)
    throw Refusal("launch " + std::to_string(launch_index_) + " (" + fn.name + ") declares " + std::to_string(local_off) +
                  " bytes of local memory per thread; a thread has at most " + std::to_string(kMaxLocalPerThread));
  session_.reserve_mb((shared_size + local_off * spec.block.count()) * Region::kBytesPerByte / (1024 * 1024),
                      "one CTA's shared and local memory");

  publishes_clocks_ = publishes_clocks(fn);
  if (spec.clustered || uses_cluster_instructions(fn)) {
    run_clusters(shared_size, local_off);
  } else {
    for (uint32_t z = 0; z < spec.grid.z; ++z)
      for (uint32_t y = 0; y < spec.grid.y; ++y)
        for (uint32_t x = 0; x < spec.grid.x; ++x) {
          Cta cta;
          init_cta(cta, x, y, z, shared_size, local_off);
          run_cta(cta);
        }
  }
  flush_atomics_global();
  log_.commit_uninit_reads();
  ++launch_index_;
  launch_ = nullptr;
}

}  // namespace racer::exec
