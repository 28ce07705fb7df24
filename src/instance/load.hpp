#pragma once
// Reading checking instances from TOML files (format: corpus/FORMAT.md).
#include <string>

#include "instance/instance.hpp"

namespace racer::instance {

// Loads and validates an instance file. Every problem found (TOML syntax, unknown or missing
// keys, wrong types, bad shapes, undeclared tensors, missing PTX files, ...) is reported as
// file:line:col with the offending line; throws racer::Error(BadInput) carrying all of them.
Instance load_instance(const std::string& path);

}  // namespace racer::instance
