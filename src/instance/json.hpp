#pragma once
// A checking instance as JSON: how the Python API hands an instance to the core (the same
// Instance the TOML loader builds, so verdicts, reports and exit codes are the very same), and
// how a witness file carries the whole instance for a replay elsewhere (PTX text included).
//
// {"name", "about", "source": "file.py", "outputs": [...], "output_lines": [...],
//  "tensors": [{"name", "shape", "dtype", "strides"?, "init": "input"|"empty"|"zeros"|
//               {"full": NUM}|{"values": [NUM...]}, "range"?: [NUM, NUM], "line"?}],
//  "a"|"b": [{"ptx", "entry", "grid", "block", "cluster"?, "shared_bytes"?, "line"?, "ptx_text"?,
//             "args": [{"tensor", "access", "offset"?} | {"scalar": NUM | "scalar_tensor": NAME, "type"?} | {"null": true}]}]}
// A NUM is a decimal string ("0.1", "-3", "inf") or a JSON integer.
#include <string>

#include <nlohmann/json.hpp>

#include "instance/instance.hpp"

namespace racer::instance {

// Builds and validates an instance; every problem is reported (with the source file and line
// the description names) and thrown together as racer::Error(BadInput).
Instance instance_from_json(const nlohmann::json& j);

// The instance as JSON, every launch with its PTX text and its entry's parameter types
// ("param_types"), every tensor with its strides: enough to run it without the files.
nlohmann::json instance_to_json(const Instance& inst);

}  // namespace racer::instance
