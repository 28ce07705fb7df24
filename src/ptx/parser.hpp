#pragma once
// Reads PTX text into the IR. All errors of a file are collected and reported together,
// each as file:line:col with the line and a caret.
#include <string>

#include "ptx/ir.hpp"
#include "support/source_text.hpp"

namespace racer::ptx {

struct ParsedModule {
  Module module;
  SourceMap map;
};

// Throws racer::Error(ExitCode::BadInput) with every diagnostic when the text is not valid PTX.
ParsedModule parse_ptx(const SourceText& src);
ParsedModule parse_ptx_file(const std::string& path);

}  // namespace racer::ptx
