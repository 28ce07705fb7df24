#pragma once
// Turns a checking instance into what the machine runs: tensors with their initial bytes,
// PTX modules (parsed once each), and per launch the entry, the configuration and the
// parameter buffer. Every mismatch between the instance and the PTX is a located error.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "exec/launch.hpp"
#include "instance/instance.hpp"
#include "ptx/parser.hpp"

namespace racer::check {

struct PreparedProgram {
  std::vector<exec::LaunchSpec> launches;  // params are filled per machine (tensor addresses)
  std::vector<std::vector<instance::Arg>> args;  // per launch, to build the parameter buffer
};

class Prepared {
 public:
  // Throws racer::Error(BadInput) naming the instance file and line for every problem.
  explicit Prepared(const instance::Instance& inst);

  const instance::Instance& inst() const { return inst_; }
  const std::vector<exec::TensorSpec>& tensors() const { return tensors_; }
  const PreparedProgram& program(char which) const { return which == 'a' ? a_ : b_; }
  // The parameter buffer of one launch, given where the machine placed the tensors.
  std::vector<uint8_t> params(char which, size_t launch, const std::vector<uint64_t>& tensor_base) const;
  std::vector<size_t> output_tensors() const;

 private:
  const ptx::ParsedModule& module(const std::string& path, const instance::SourceLoc& at);
  PreparedProgram prepare(const instance::Program& p, char which);
  void symbolic_scalar(exec::LaunchSpec& spec, const ptx::Function& fn, size_t k, const instance::Scalar& sc,
                       const instance::SourceLoc& at, const std::string& pname);

  const instance::Instance& inst_;
  std::vector<exec::TensorSpec> tensors_;
  std::map<std::string, std::unique_ptr<ptx::ParsedModule>> modules_;
  PreparedProgram a_, b_;
  Diagnostics diags_;
};

ptx::Type element_type(instance::DType d);

}  // namespace racer::check
