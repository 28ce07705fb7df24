#pragma once
// Measurement inputs: seeded random cells in each input tensor's declared range (rounded to
// its format), and the anomalies a protocol injects (NaN, Inf, subnormals, out-of-bounds
// indices) at seeded positions.
#include <cstdint>
#include <string>
#include <vector>

#include "contract/lang_ast.hpp"
#include "contract/run_impl.hpp"

namespace racer::contract {

struct Injected {
  std::string tensor;
  int64_t cell = 0;
  std::string kind;  // nan, inf, denormal, out_of_bounds
};

// Shapes of the contract's tensors at `env`.
std::vector<int64_t> tensor_shape(const TensorDecl& t, const Env& env);
int64_t cell_count(const TensorDecl& t, const Env& env);

// Uniform values in [lo, hi] * scale (default range [-1, 1] for floats, [0, 16] for integers).
TensorBits make_inputs(const Contract& c, const Env& env, uint64_t seed, double scale);
// Injects `count` anomalies of `kind` into the input tensors that can take them (floats for
// nan/inf/denormal, integers with a declared range for out_of_bounds). Returns where.
std::vector<Injected> inject(const Contract& c, const Env& env, TensorBits& inputs, const std::string& kind, int64_t count, uint64_t seed);
// Data-dependent names a tolerance may use: max_abs(x), sum_abs(x) for every input tensor.
void add_data_env(const Contract& c, const TensorBits& inputs, Env& env);
// The input change an algebraic invariance is measured under: every cell of `tensor` shifted
// by `shift` (rounded to its format), or its cells permuted at random (seeded).
void transform_input(const Contract& c, TensorBits& inputs, const std::string& kind, const std::string& tensor, double shift, uint64_t seed);
// A short hex digest of the inputs (for trace records), FNV-1a 64 over the cells' bits.
std::string inputs_digest(const TensorBits& inputs);

}  // namespace racer::contract
