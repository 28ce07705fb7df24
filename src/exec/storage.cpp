#include "exec/storage.hpp"

#include <algorithm>
#include <cstdio>

#include "exec/refusal.hpp"

namespace racer::exec {
namespace {

uint64_t align_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

uint64_t alignment(const ptx::Variable& v) { return std::max<uint64_t>(v.align ? v.align : 1, ptx::type_bits(v.type) / 8); }

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// A module variable's region, its initializer in place.
std::unique_ptr<Region> variable_region(const ptx::Variable& v, uint64_t base, uint64_t size) {
  auto r = std::make_unique<Region>(v.name, base, size, v.init ? ByteState::Concrete : ByteState::Uninit);
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
  return r;
}

}  // namespace

Storage::Storage(Session& session, const std::vector<TensorSpec>& tensors) : session_(session), tensors_(tensors) {
  // The whole span of every tensor is kept byte by byte: refuse to start what cannot fit
  // (rather than let the allocation, or the host, end the process).
  uint64_t bytes = 0;
  for (const TensorSpec& t : tensors_) bytes += t.storage_elements * t.elem_bytes();
  session_.reserve_mb(bytes * Region::kBytesPerByte / (1024 * 1024),
                      "the tensors' storage (" + std::to_string(bytes) + " bytes, " +
                          std::to_string(Region::kBytesPerByte) + " bytes of bookkeeping each)");
  for (size_t i = 0; i < tensors_.size(); ++i) {
    const TensorSpec& t = tensors_[i];
    dense_.push_back(t.dense());
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

Region* Storage::region_at(uint64_t addr) const {
  auto it = std::upper_bound(regions_.begin(), regions_.end(), addr,
                             [](uint64_t a, const std::unique_ptr<Region>& r) { return a < r->base; });
  return it == regions_.begin() ? nullptr : (--it)->get();
}

Storage::LaunchSizes Storage::lay_out(const LaunchSpec& spec) {
  for (size_t i = 0; i < tensors_.size(); ++i) {
    TensorAccess a = i < spec.access.size() ? spec.access[i] : TensorAccess::None;
    regions_[i]->readable = a == TensorAccess::Read || a == TensorAccess::ReadWrite;
    regions_[i]->writable = a == TensorAccess::Write || a == TensorAccess::ReadWrite;
  }
  const ptx::Module& mod = *spec.module;
  const ptx::Function& fn = mod.functions.at(spec.function);
  // Module variables: .global/.const ones live in global memory for the program's run;
  // .shared ones are laid out in each CTA's shared memory, with extern arrays at the end.
  auto& addrs = module_vars_[&mod];
  shared_var_offset_.assign(mod.vars.size(), 0);
  uint64_t shared_off = 0;
  std::vector<size_t> externs;
  for (size_t i = 0; i < mod.vars.size(); ++i) {
    const ptx::Variable& v = mod.vars[i];
    if (v.space == ptx::Space::Shared) {
      if (v.has_dims && v.size_bytes() == 0) {
        externs.push_back(i);
        continue;
      }
      shared_off = align_up(shared_off, alignment(v));
      shared_var_offset_[i] = shared_off;
      shared_off += v.size_bytes();
    } else if (addrs.size() <= i || addrs[i] == 0) {
      addrs.resize(mod.vars.size(), 0);
      uint64_t size = std::max<uint64_t>(v.size_bytes(), 1);
      regions_.push_back(variable_region(v, next_global_, size));
      addrs[i] = next_global_;
      next_global_ = align_up(next_global_ + size, 256) + kGuardGap;
    }
  }
  module_var_address_ = addrs;
  module_var_address_.resize(mod.vars.size(), 0);
  // Function-scope .shared variables follow the module's.
  fn_var_offset_.assign(fn.vars.size(), 0);
  uint64_t local_off = 0;
  for (size_t i = 0; i < fn.vars.size(); ++i) {
    const ptx::Variable& v = fn.vars[i];
    uint64_t& off = v.space == ptx::Space::Shared ? shared_off : local_off;
    if (v.space != ptx::Space::Shared && v.space != ptx::Space::Local) continue;
    off = align_up(off, alignment(v));
    fn_var_offset_[i] = off;
    off += v.size_bytes();
  }
  shared_off = align_up(shared_off, 16);
  for (size_t i : externs) shared_var_offset_[i] = shared_off;
  return {shared_off + spec.dynamic_shared_bytes, local_off};
}

const std::vector<int64_t>& Storage::cell_map(size_t tensor) {
  auto it = cell_maps_.find(tensor);
  if (it == cell_maps_.end()) it = cell_maps_.emplace(tensor, tensors_[tensor].storage_to_cell()).first;
  return it->second;
}

Value Storage::input_cell(size_t tensor, int64_t cell) {
  const TensorSpec& t = tensors_[tensor];
  expr::ExprId e = session_.input_cell(tensor, cell, t);
  return ptx::is_float(t.elem) ? Value::of_expr(e) : Value::of_int_expr(e);
}

void Storage::drop_access_records() {
  for (size_t i = 0; i < tensors_.size(); ++i) {
    regions_[i]->track = ByteTracks(0);
    regions_[i]->readers_since_write.clear();
  }
}

std::string Storage::describe(const Region* r, uint64_t addr, unsigned size) {
  if (r && r->contains(addr, size)) {
    if (r->tensor >= 0) {
      const TensorSpec& t = tensors_[r->tensor];
      uint64_t elem = (addr - r->base) / t.elem_bytes();
      int64_t cell = cell_of(static_cast<size_t>(r->tensor), elem);
      if (cell >= 0 && (addr - r->base) % t.elem_bytes() == 0) return t.cell_name(cell);
      return t.name + " + " + std::to_string(addr - r->base) + " bytes";
    }
    return r->name + " + " + std::to_string(addr - r->base);
  }
  // Out of bounds: name the nearest tensor.
  const Region* best = nullptr;
  uint64_t best_dist = UINT64_MAX;
  bool after = false;
  for (const auto& reg : regions_) {
    if (reg->tensor < 0) continue;
    uint64_t end = reg->base + reg->size;
    if (addr >= end && addr - end < best_dist) best = reg.get(), best_dist = addr - end, after = true;
    if (addr < reg->base && reg->base - addr < best_dist) best = reg.get(), best_dist = reg->base - addr, after = false;
  }
  std::string s = hex(addr) + " (" + std::to_string(size) + " bytes";
  if (r && r->tensor < 0) return s + ", outside " + r->name + " of " + std::to_string(r->size) + " bytes)";
  if (best) {
    if (after) s += ", " + std::to_string(best_dist) + " bytes past the end of " + best->name;
    else s += ", " + std::to_string(best_dist) + " bytes before " + best->name;
  }
  return s + ")";
}

}  // namespace racer::exec
