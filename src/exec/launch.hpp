#pragma once
// What the machine is asked to run: tensors (the instance's memory, in exec's terms) and
// launches of PTX entries over them.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "expr/store.hpp"
#include "ptx/ir.hpp"

namespace racer::exec {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t{x} * y * z; }
};

enum class TensorInit : uint8_t { Input, Empty, Bytes };

struct TensorSpec {
  std::string name;
  std::vector<int64_t> shape, strides;  // strides in elements
  ptx::Type elem = ptx::Type::F32;      // the cell type (f32, f16, s32, u8, ...; pred for bool)
  TensorInit init = TensorInit::Input;
  std::vector<uint8_t> bytes;           // TensorInit::Bytes: the storage, little-endian
  std::optional<expr::Range> range;     // Input only
  uint64_t storage_elements = 0;

  uint32_t elem_bytes() const { return elem == ptx::Type::Pred ? 1 : ptx::type_bits(elem) / 8; }
  uint64_t cell_count() const;
  // The logical index (row-major flat) of a storage element, or -1 for storage no cell maps to.
  std::vector<int64_t> storage_to_cell() const;
  // Storage element i holds cell i, and every element holds one (row-major strides, no gaps).
  bool dense() const;
  int64_t storage_element(int64_t flat) const;  // the element a logical cell is stored at, by the strides
  std::string cell_name(int64_t flat) const;  // "x[3,1]"
  // "x[storage 7, no cell]": the unknown a read of storage element 7 yields where no cell maps
  // to it (the same for both programs: they are given the same storage).
  std::string unmapped_name(int64_t element) const;
};

enum class TensorAccess : uint8_t { None, Read, Write, ReadWrite };

// A tensor map passed by value (a 128-byte .param): which tensor, the box, the swizzle.
struct TensorMapSpec {
  uint32_t param_offset = 0;
  size_t tensor = 0;
  std::vector<int64_t> box;  // outermost first, as the tensor's shape
  uint32_t swizzle_bytes = 0;
};

// A scalar parameter whose value is a one-cell input tensor's (instance::Scalar::tensor).
struct SymbolicParam {
  uint32_t offset = 0;  // in the .param buffer
  uint32_t size = 0;
  size_t tensor = 0;
};

struct LaunchSpec {
  const ptx::Module* module = nullptr;
  const ptx::SourceMap* source_map = nullptr;
  uint32_t function = 0;  // index in module->functions
  Dim3 grid, block;
  uint32_t dynamic_shared_bytes = 0;
  std::vector<uint8_t> params;               // the .param buffer, laid out per the entry's params
  std::vector<TensorAccess> access;          // per tensor: what this launch may do
  std::vector<TensorMapSpec> tensor_maps;
  std::vector<SymbolicParam> symbolic_params;    // the tensor-map params, by offset
  // Thread-block clusters (exec/cluster.cpp): the CTAs of one cluster run together and share
  // their shared memory. `clustered` when the launch or the entry (.reqnctapercluster,
  // .explicitcluster) declares a cluster shape; otherwise every CTA is a cluster of one.
  bool clustered = false;
  Dim3 cluster;
  std::string label;                         // "launch 1 (kernel_name)" for messages
};

struct Limits {
  uint64_t max_steps = 2'000'000'000;   // thread-instructions per program
  double max_seconds = 60.0;
  size_t max_nodes = 50'000'000;        // expression nodes in the store
  size_t max_memory_mb = 4096;          // resident memory of the process
};

}  // namespace racer::exec
