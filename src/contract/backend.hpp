#pragma once
// Where implementations run: the CPU (bit-exact IEEE emulation through the checking-instance
// machinery) or a real GPU (CUDA driver API). A runner is one implementation at one set of
// parameter values.
#include <memory>
#include <string>

#include "contract/lang_ast.hpp"
#include "contract/run_impl.hpp"

namespace racer::contract {

class ImplRunner {
 public:
  virtual ~ImplRunner() = default;
  // run_index 0 is the plain run; for `enumerate atomic_orders` the CPU shuffles each cell's
  // atomics by run_index, a GPU simply launches again.
  virtual RunOutput run(const TensorBits& inputs, uint64_t run_index) = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;     // "cpu" | "gpu"
  virtual std::string profile() const = 0;  // the device, for reports and trace records
  // Whether repeated plain runs can differ (a GPU's scheduling); the CPU emulation is
  // deterministic, so only enumerated atomic orders vary there.
  virtual bool repeats_vary() const = 0;
  virtual std::unique_ptr<ImplRunner> prepare(const Contract& c, const Impl& impl, const Env& env, const std::string& base_dir) = 0;
};

std::unique_ptr<Backend> cpu_backend();
// nullptr with `why` set when no GPU (or no driver) is usable.
std::unique_ptr<Backend> gpu_backend(std::string& why);

}  // namespace racer::contract
