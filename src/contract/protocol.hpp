#pragma once
// A measurement protocol read from a contract's steps: the configurations its sweeps span, the
// samples, injections, transforms, repeated runs, and the visible tests' bound.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "contract/lang_ast.hpp"
#include "contract/lang_quantity.hpp"

namespace racer::contract {

struct Protocol {
  std::vector<std::pair<std::string, std::vector<double>>> sweeps;
  struct Sample {
    int64_t count = 1;
    uint64_t seed = 1;
    double scale = 1;
  };
  std::vector<Sample> samples;
  struct Injection {
    std::string kind;
    int64_t count = 1;
    uint64_t seed = 1;
  };
  std::vector<Injection> injections;
  int64_t orders = 1, repeats = 1;
  const Tolerance* within = nullptr;
  struct Transform {
    std::string kind, tensor;
    double shift = 0;
  };
  std::vector<Transform> transforms;
};

// Throws racer::Error(BadInput) for a quantity that does not evaluate.
Protocol read_protocol(const Contract& c, const std::vector<Step>& steps);
// The cartesian product of the sweeps (one empty configuration without sweeps).
std::vector<Env> configurations(const Protocol& p);
// "N=4096 BLOCK=256": the parameters' values, for findings and trace records.
std::string show_config(const Contract& c, const Env& env);

}  // namespace racer::contract
