#pragma once
// A human-readable overview of a parsed module (racer ptx parse).
#include <string>

#include "ptx/ir.hpp"

namespace racer::ptx {

std::string summarize_module(const Module& m, const std::string& path);

}  // namespace racer::ptx
