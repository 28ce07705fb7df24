#pragma once
// A program's global memory and the layout of its variables: every tensor at its own base
// with a guard gap (so an access past one tensor lands in no other), module variables after
// them for the program's whole run, and per launch the offsets of .shared and .local
// variables. Input cells become symbols the first time something reads them.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "exec/launch.hpp"
#include "exec/region.hpp"
#include "exec/session.hpp"
#include "exec/value.hpp"

namespace racer::exec {

class Storage {
 public:
  static constexpr uint64_t kGlobalBase = 0x100000000ull;
  static constexpr uint64_t kGuardGap = 0x10000ull;

  Storage(Session& session, const std::vector<TensorSpec>& tensors);

  const std::vector<TensorSpec>& tensors() const { return tensors_; }
  uint64_t tensor_base(size_t tensor) const { return regions_.at(tensor)->base; }
  Region& tensor_region(size_t tensor) { return *regions_.at(tensor); }
  // The global region whose span starts at or below `addr` (it may end before it), or null.
  Region* region_at(uint64_t addr) const;

  // What a launch needs from memory: each tensor's access rights, a region for each module
  // variable of global or constant space not placed yet, offsets of the shared and local
  // variables. Returns the bytes of shared memory (static and dynamic) and of local memory
  // each CTA and thread needs.
  struct LaunchSizes {
    uint64_t shared_bytes = 0, local_bytes = 0;
  };
  LaunchSizes lay_out(const LaunchSpec& spec);
  uint64_t module_var_address(uint32_t var) const { return module_var_address_[var]; }
  uint64_t module_shared_offset(uint32_t var) const { return shared_var_offset_[var]; }
  uint64_t function_var_offset(uint32_t var) const { return fn_var_offset_[var]; }  // in shared or local memory

  // Storage element -> logical cell (-1 where no cell maps, or past the storage), by the
  // tensor's strides. A dense tensor needs no map (8 bytes per element).
  int64_t cell_of(size_t tensor, uint64_t element) {
    const TensorSpec& t = tensors_[tensor];
    if (dense_[tensor]) return element < t.storage_elements ? static_cast<int64_t>(element) : -1;
    const std::vector<int64_t>& map = cell_map(tensor);
    return element < map.size() ? map[element] : -1;
  }
  // The symbol of an input cell.
  Value input_cell(size_t tensor, int64_t cell);
  // Frees every tensor's access records (byte_tracks.hpp): races are found while a program
  // runs, so once it has run nothing reads them; a tensor's records cost 21 bytes per byte.
  void drop_access_records();
  // "out[3]", "x + 6 bytes", or where an address outside every region lies.
  std::string describe(const Region* r, uint64_t addr, unsigned size);

 private:
  Session& session_;
  std::vector<TensorSpec> tensors_;
  std::vector<std::unique_ptr<Region>> regions_;  // tensors first (same index), then module variables
  uint64_t next_global_ = kGlobalBase;
  std::map<const ptx::Module*, std::vector<uint64_t>> module_vars_;
  std::vector<uint64_t> module_var_address_;  // per module var of the current launch's module
  std::vector<uint64_t> shared_var_offset_;   // per module var: offset in shared memory, for .shared vars
  std::vector<uint64_t> fn_var_offset_;       // per function var: offset in shared or local memory
  std::vector<bool> dense_;  // per tensor: TensorSpec::dense()
  std::map<size_t, std::vector<int64_t>> cell_maps_;  // of the tensors that are not
  const std::vector<int64_t>& cell_map(size_t tensor);
};

}  // namespace racer::exec
