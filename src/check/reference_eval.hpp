#pragma once
// A reference evaluated at a concrete point: what "running" program B means when it is a
// reference. Every node is computed in long double straight from the graph (not from the
// expressions check/reference_build makes, so the self-check compares two readings), and each
// output cell is its value rounded once to the output tensor's format: the exact function,
// correctly rounded, which is what a reference promises.
#include <cstdint>
#include <vector>

#include "exec/launch.hpp"
#include "instance/reference.hpp"

namespace racer::check {

// `tensors` hold concrete bytes (run_concrete has put the point's values into the input
// tensors); `outputs` are the output tensors' indices. Per output, per flat cell: its bits.
std::vector<std::vector<uint64_t>> evaluate_reference(const instance::Reference& ref,
                                                      const std::vector<exec::TensorSpec>& tensors,
                                                      const std::vector<size_t>& outputs);

}  // namespace racer::check
