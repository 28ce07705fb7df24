#include "contract/backend.hpp"

namespace racer::contract {
namespace {

class CpuRunner final : public ImplRunner {
 public:
  CpuRunner(const Contract& c, const Impl& impl, const Env& env, const std::string& base) : run_(c, impl, env, base) {}
  RunOutput run(const TensorBits& inputs, uint64_t run_index) override { return run_.run(inputs, run_index); }

 private:
  CpuRun run_;
};

class CpuBackend final : public Backend {
 public:
  std::string name() const override { return "cpu"; }
  std::string profile() const override { return "racer CPU emulation (bit-exact IEEE, sm_90 rules; src/exec/ieee.hpp)"; }
  bool repeats_vary() const override { return false; }
  std::unique_ptr<ImplRunner> prepare(const Contract& c, const Impl& impl, const Env& env, const std::string& base) override {
    return std::make_unique<CpuRunner>(c, impl, env, base);
  }
};

}  // namespace

std::unique_ptr<Backend> cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace racer::contract
