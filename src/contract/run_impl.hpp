#pragma once
// One implementation of a contract, bound to concrete parameter values, as a checking
// instance (the same machinery `racer check` uses: PTX parsed and matched against the launch,
// parameter buffers laid out per the entry): run concretely on the CPU (bit-exact IEEE
// emulation) or symbolically (for the exact oracle).
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gmpxx.h>

#include "check/prepare.hpp"
#include "contract/lang_ast.hpp"
#include "contract/lang_quantity.hpp"
#include "exec/defect.hpp"
#include "instance/instance.hpp"

namespace racer::contract {

// The cells of every tensor as storage bits (one entry per logical cell, row-major).
using TensorBits = std::map<std::string, std::vector<uint64_t>>;

struct RunOutput {
  TensorBits outputs;               // every output tensor
  std::vector<exec::Defect> defects;
  std::string refusal;              // non-empty: the run could not be modelled (why)
};

// The PTX file an implementation runs: its `ptx`, or its `cuda` source compiled by nvcc (the
// frontend's cache). Throws racer::Error(BadInput) when nvcc is missing or the source fails.
std::string implementation_ptx(const Impl& impl, const std::string& base_dir);

// The checking instance of `impl` at parameter values `env` (program a = program b = impl).
instance::Instance make_instance(const Contract& c, const Impl& impl, const Env& env, const std::string& base_dir);

class CpuRun {
 public:
  // Parses and prepares once; throws racer::Error(BadInput) naming what does not match.
  CpuRun(const Contract& c, const Impl& impl, const Env& env, const std::string& base_dir);
  ~CpuRun();

  // Runs on `inputs` (cells of the input tensors; missing ones are 0). order_seed 0 combines
  // atomics in arrival order; other seeds shuffle each cell's atomic operands.
  RunOutput run(const TensorBits& inputs, uint64_t order_seed = 0) const;
  const check::Prepared& prepared() const { return *prep_; }
  const instance::Instance& inst() const { return *inst_; }

 private:
  std::unique_ptr<instance::Instance> inst_;
  std::unique_ptr<check::Prepared> prep_;
};

// The implementation's real function (floats as exact reals, rounding the identity), built
// once by symbolic execution and evaluated exactly at concrete inputs.
class ExactOracle {
 public:
  ExactOracle(const Contract& c, const Impl& impl, const Env& env, const std::string& base_dir);
  ~ExactOracle();
  // "" when the symbolic run succeeded, else why not (a refusal or a limit).
  const std::string& failure() const { return failure_; }
  // The exact value of every cell of `tensor` at `inputs` (nullopt: not rational there, or an
  // input cell is NaN/Inf).
  std::vector<std::optional<mpq_class>> evaluate(const std::string& tensor, const TensorBits& inputs) const;
  // Per cell of `tensor`: the input cells (tensor, flat index) it depends on.
  std::vector<std::vector<std::pair<std::string, int64_t>>> dependencies(const std::string& tensor) const;

 private:
  struct State;
  std::unique_ptr<State> s_;
  std::string failure_;
};

// Element type helpers.
ptx::Type tensor_elem(const TensorDecl& t);
double bits_to_double(ptx::Type t, uint64_t bits);

}  // namespace racer::contract
