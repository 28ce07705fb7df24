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
    : session_(session),
      program_(program),
      storage_(session, tensors),
      log_(program),
      dom_(dom),
      sem_(sem),
      async_(*this, clusters_),  // clusters_ is only bound here, used once a launch runs
      clusters_(*this, async_),
      scheduler_(*this, async_, clusters_, *this, sem) {}

Machine::~Machine() = default;

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

Value Machine::unknown_value(const std::string& name, const std::string& /*where: in the name*/, uint64_t off, unsigned size, bool integer) {
  if (concrete_unknown_) return Value::of_bits(concrete_unknown_(name, size, integer));
  SymbolOrigin o{SymbolOrigin::Kind::UninitShared, -1, static_cast<int64_t>(off), program_};
  Value v = Value::of_expr(session_.symbol(o, name));
  v.integer = integer;
  return v;
}


Value Machine::final_uninitialized(size_t tensor, int64_t flat) {
  // Never written by this program: the unknown initial contents both programs share.
  const TensorSpec& t = storage_.tensors()[tensor];
  if (concrete_unknown_) return Value::of_bits(concrete_unknown_(t.cell_name(flat) + " (uninitialized)", t.elem_bytes(), !ptx::is_float(t.elem)));
  SymbolOrigin o{SymbolOrigin::Kind::UninitTensor, static_cast<int>(tensor), flat, 0};
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
    // Integer data reads as the dtype's value of the stored bits (a u32 result stored into an
    // i32 tensor, a 64-bit sum stored with st.u32): wrapped where it may not fit.
    if (v.integer && ptx::is_integer(t.elem)) return dom_.as_stored_integer(v, t.elem).expr();
    return v.expr();
  }
  return exact_constant(st, t.elem == ptx::Type::Pred ? ptx::Type::U8 : t.elem, v.bits);
}

void Machine::launch(const LaunchSpec& spec) {
  launch_ = &spec;
  launches_run_.push_back(spec);
  const ptx::Module& mod = *spec.module;
  const ptx::Function& fn = mod.functions.at(spec.function);
  param_slots_ = param_layout(fn);
  reg_masks_ = register_masks(fn);
  grid_dependent_ = std::any_of(fn.instrs.begin(), fn.instrs.end(), [](const ptx::Instr& i) { return i.op == ptx::Op::GriddepcontrolWait; });
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

  dom_.forget_deferred();
  scheduler_.run(shared_size, local_off);
  dom_.forget_deferred();  // (the launch's registers are gone)
  flush_atomics_global();
  swapped_cells_.clear();
  log_.commit_uninit_reads();
  ++launch_index_;
  launch_ = nullptr;
}

}  // namespace racer::exec
