// Setting up memory for a program and running its launches CTA by CTA.
#include "exec/machine.hpp"

#include <algorithm>

#include "exec/cluster.hpp"
#include "exec/exact_float.hpp"
#include "exec/refusal.hpp"
#include "ptx/printer.hpp"

namespace racer::exec {
namespace {

uint64_t align_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

}  // namespace

Machine::Machine(Session& session, char program, const std::vector<TensorSpec>& tensors, Domain& dom,
                 const Semantics& sem)
    : session_(session), program_(program), tensors_(tensors), dom_(dom), sem_(sem) {
  for (size_t i = 0; i < tensors_.size(); ++i) {
    const TensorSpec& t = tensors_[i];
    uint64_t size = t.storage_elements * t.elem_bytes();
    ByteState initial = t.init == TensorInit::Input ? ByteState::Input
                        : t.init == TensorInit::Empty ? ByteState::Uninit
                                                       : ByteState::Concrete;
    auto r = std::make_unique<Region>(t.name, next_global_, size, initial);
    r->tensor = static_cast<int>(i);
    if (t.init == TensorInit::Bytes) std::copy(t.bytes.begin(), t.bytes.begin() + std::min<size_t>(size, t.bytes.size()), r->bytes.begin());
    next_global_ = align_up(next_global_ + std::max<uint64_t>(size, 1), 256) + kGuardGap;
    regions_.push_back(std::move(r));
  }
}

Machine::~Machine() = default;  // here, where Cluster is complete

Value Machine::input_cell(size_t tensor, int64_t cell) {
  if (input_symbols_.size() <= tensor) input_symbols_.resize(tensors_.size());
  auto& cache = input_symbols_[tensor];
  const TensorSpec& t = tensors_[tensor];
  if (cache.empty()) cache.assign(t.cell_count(), 0);
  uint32_t& slot = cache[static_cast<size_t>(cell)];
  if (!slot) {
    std::string name = t.cell_name(cell);
    SymbolOrigin o{SymbolOrigin::Kind::InputCell, static_cast<int>(tensor), cell, 0, name};
    slot = session_.symbol(o, name, t.range).index + 1;
  }
  expr::ExprId e{slot - 1};
  return ptx::is_float(t.elem) ? Value::of_expr(e) : Value::of_int_expr(e);
}

uint64_t Machine::tensor_base(size_t tensor) const { return regions_.at(tensor)->base; }

Value Machine::cell(size_t tensor, int64_t flat) {
  const TensorSpec& t = tensors_[tensor];
  // Map the logical cell to its storage element through the strides.
  int64_t off = 0, rest = flat;
  for (size_t d = t.shape.size(); d-- > 0;) {
    off += (rest % t.shape[d]) * t.strides[d];
    rest /= t.shape[d];
  }
  Region& r = *regions_[tensor];
  uint64_t pos = static_cast<uint64_t>(off) * t.elem_bytes();
  unsigned n = t.elem_bytes();
  switch (r.state[pos]) {
    case ByteState::Input: return input_cell(tensor, flat);
    case ByteState::Uninit: {
      // Never written by this program: the unknown initial contents both programs share.
      if (concrete_unknown_) return Value::of_bits(concrete_unknown_(t.cell_name(flat) + " (uninitialized)", n));
      SymbolOrigin o{SymbolOrigin::Kind::UninitTensor, static_cast<int>(tensor), flat, 0, t.cell_name(flat)};
      Value v = Value::of_expr(session_.symbol(o, t.cell_name(flat) + " (uninitialized)"));
      v.integer = !ptx::is_float(t.elem);
      return v;
    }
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

expr::ExprId Machine::cell_expr(size_t tensor, int64_t flat) {
  Value v = cell(tensor, flat);
  const TensorSpec& t = tensors_[tensor];
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
  const ptx::Module& mod = *spec.module;
  const ptx::Function& fn = mod.functions.at(spec.function);
  param_slots_ = param_layout(fn);
  for (size_t i = 0; i < tensors_.size(); ++i) {
    TensorAccess a = i < spec.access.size() ? spec.access[i] : TensorAccess::None;
    regions_[i]->readable = a == TensorAccess::Read || a == TensorAccess::ReadWrite;
    regions_[i]->writable = a == TensorAccess::Write || a == TensorAccess::ReadWrite;
  }

  // Module variables: .global/.const ones live in global memory for the program's run;
  // .shared ones are laid out in each CTA's shared memory, with extern arrays at the end.
  auto& addrs = module_vars_[&mod];
  shared_var_offset_.assign(mod.vars.size(), 0);
  uint64_t shared_off = 0;
  std::vector<size_t> externs;
  for (size_t i = 0; i < mod.vars.size(); ++i) {
    const ptx::Variable& v = mod.vars[i];
    uint64_t align = std::max<uint64_t>(v.align ? v.align : 1, ptx::type_bits(v.type) / 8);
    if (v.space == ptx::Space::Shared) {
      if (v.has_dims && v.size_bytes() == 0) {
        externs.push_back(i);
        continue;
      }
      shared_off = align_up(shared_off, align);
      shared_var_offset_[i] = static_cast<uint32_t>(shared_off);
      shared_off += v.size_bytes();
    } else if (addrs.size() <= i || addrs[i] == 0) {
      addrs.resize(mod.vars.size(), 0);
      uint64_t size = std::max<uint64_t>(v.size_bytes(), 1);
      auto r = std::make_unique<Region>(v.name, next_global_, size, v.init ? ByteState::Concrete : ByteState::Uninit);
      if (v.init) {
        unsigned elem = std::max(1u, ptx::type_bits(v.type) / 8);
        for (size_t k = 0; k < v.init->values.size() && (k + 1) * elem <= size; ++k) {
          const ptx::Operand& o = v.init->values[k];
          if (o.kind == ptx::Operand::Kind::Symbol) throw Refusal("variable " + v.name + " is initialized with an address");
          uint64_t bits = static_cast<uint64_t>(o.value);
          for (unsigned b = 0; b < elem; ++b) r->bytes[k * elem + b] = static_cast<uint8_t>(bits >> (8 * b));
        }
      }
      r->writable = v.space == ptx::Space::Global;
      addrs[i] = next_global_;
      next_global_ = align_up(next_global_ + size, 256) + kGuardGap;
      regions_.push_back(std::move(r));
    }
  }
  module_var_address_ = addrs;
  module_var_address_.resize(mod.vars.size(), 0);
  // Function-scope .shared variables follow the module's.
  std::vector<uint64_t> fn_shared_offset(fn.vars.size(), 0);
  uint64_t local_off = 0;
  for (size_t i = 0; i < fn.vars.size(); ++i) {
    const ptx::Variable& v = fn.vars[i];
    uint64_t align = std::max<uint64_t>(v.align ? v.align : 1, ptx::type_bits(v.type) / 8);
    if (v.space == ptx::Space::Shared) {
      shared_off = align_up(shared_off, align);
      fn_shared_offset[i] = shared_off;
      shared_off += v.size_bytes();
    } else if (v.space == ptx::Space::Local) {
      local_off = align_up(local_off, align);
      fn_shared_offset[i] = local_off;
      local_off += v.size_bytes();
    }
  }
  shared_off = align_up(shared_off, 16);
  for (size_t i : externs) shared_var_offset_[i] = static_cast<uint32_t>(shared_off);
  shared_static_bytes_ = shared_off;
  fn_var_offset_ = std::move(fn_shared_offset);
  uint64_t shared_size = shared_off + spec.dynamic_shared_bytes;

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
  commit_uninit_reads();
  ++launch_index_;
  launch_ = nullptr;
}

}  // namespace racer::exec
