#pragma once
// A reference's traced graph as JSON (what racer.reference hands the core):
//   {"function": "refs.py:12 softmax",
//    "nodes": [["in", "x", 3], ["c", "1/2"], ["inf"], ["add", 0, 1], ["pow", 0, 2], ...],
//    "outputs": {"y": [node per flat cell]}, "lines": ["refs.py:14", ...],
//    "output_lines": {"y": [index into lines per flat cell]}}
// A node's operands are earlier nodes; "in" names an instance tensor and a flat logical cell.
#include <nlohmann/json.hpp>

#include "instance/instance.hpp"

namespace racer::instance {

// Validates against the instance's tensors and outputs (which must already be loaded);
// every problem is a racer::Error(BadInput) naming the reference and the node.
std::shared_ptr<const instance::Reference> reference_from_json(const nlohmann::json& j, const instance::Instance& inst);
nlohmann::json reference_to_json(const instance::Reference& ref, const instance::Instance& inst);

}  // namespace racer::instance
