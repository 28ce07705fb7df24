#pragma once
// Where a site of a report lies on disk: the PTX file of its launch and the CUDA/Triton source
// line its .loc names, for reports that link to files (SARIF, HTML).
#include <cstdint>
#include <string>

#include "exec/defect.hpp"
#include "instance/instance.hpp"

namespace racer::report {

struct SourcePos {
  std::string file;  // as the PTX's .file directive names it
  uint32_t line = 0, column = 0;
};
// "kernels.cu:12:5" -> {kernels.cu, 12, 5}; empty file when the site has no .loc.
SourcePos parse_source_pos(const std::string& source);

// The PTX file of program `program`'s launch `launch` ("" when the instance has no such launch).
std::string launch_ptx_path(const instance::Instance& inst, char program, uint32_t launch);

// The file a .file name refers to: itself when absolute, else looked up beside the PTX file,
// the instance file, the folders up to four levels above the PTX file (where the compiler may
// have run), their subfolders for the first two (corpora keep sources beside their ptx/
// folder), and the working directory. "" when none exists.
std::string find_source_file(const std::string& name, const std::string& ptx_path, const std::string& instance_path);

// "(x,y,z)", as the text report writes CTA and thread indices.
using exec::dims_text;

// Line `line` (1-based) of a text file, without its newline; "" when unreadable.
std::string file_line(const std::string& path, uint32_t line);

// The 1-based line of `.entry NAME` in a PTX file, 0 when not found.
uint32_t entry_line(const std::string& ptx_path, const std::string& entry);

}  // namespace racer::report
