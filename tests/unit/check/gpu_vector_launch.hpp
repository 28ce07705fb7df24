#pragma once
// Shared by the GPU-vector tests (tensor cores, clusters): the byte tensors a one-feature
// kernel reads and writes, and the launch of one of a module's entries.
#include <gtest/gtest.h>

#include <fstream>
#include <istream>
#include <sstream>
#include <string>
#include <vector>

#include "exec/launch.hpp"
#include "exec/machine.hpp"
#include "ptx/parser.hpp"

namespace racer::check::test {

// Bytes from hex ("-": none).
inline std::vector<uint8_t> unhex(const std::string& s) {
  std::vector<uint8_t> v;
  if (s == "-") return v;
  for (size_t i = 0; i + 1 < s.size(); i += 2) v.push_back(static_cast<uint8_t>(std::stoi(s.substr(i, 2), nullptr, 16)));
  return v;
}

// The cases of a vectors file: `case` starts one (its fields read by start), `tma` gives its
// TMA input (Case::tma), any other key a hex byte string (read by set_bytes(case, key, hex));
// blank lines and # comments are skipped.
template <class Case, class Start, class SetBytes>
std::vector<Case> read_vector_cases(const std::string& path, Start start, SetBytes set_bytes) {
  std::ifstream in(path);
  std::vector<Case> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::string key, hex;
    ls >> key;
    if (key == "case") {
      start(cases.emplace_back(), ls);
      continue;
    }
    if (cases.empty()) {
      ADD_FAILURE() << path << ": a '" << key << "' line before the first case";
      continue;
    }
    if (key == "tma") {
      cases.back().tma.read(ls);
      continue;
    }
    ls >> hex;
    set_bytes(cases.back(), key, hex);
  }
  return cases;
}

// A TMA case's input: a rows x cols f16 tensor behind the tensor map of parameter 0, read from
// a vectors file's "tma ROWS COLS BOX_ROWS BOX_COLS SWIZZLE" line.
struct TmaInput {
  bool present = false;
  int64_t rows = 0, cols = 0, box_rows = 0, box_cols = 0;
  uint32_t swizzle_bytes = 0;

  void read(std::istream& in) {
    int sw = 0;
    in >> rows >> cols >> box_rows >> box_cols >> sw;
    present = true;
    swizzle_bytes = sw == 0 ? 0 : 16u << sw;  // CUtensorMapSwizzle: 1 32B, 2 64B, 3 128B
  }
};

// Bytes as a flat u8 tensor (16 zero bytes where there are none: a pointer must point somewhere).
inline exec::TensorSpec byte_tensor(const std::string& name, std::vector<uint8_t> bytes) {
  exec::TensorSpec s;
  s.name = name;
  s.elem = ptx::Type::U8;
  s.init = exec::TensorInit::Bytes;
  s.bytes = std::move(bytes);
  if (s.bytes.empty()) s.bytes.assign(16, 0);
  s.shape = {static_cast<int64_t>(s.bytes.size())};
  s.strides = {1};
  s.storage_elements = s.bytes.size();
  return s;
}

// The same bytes read as a rows x cols f16 matrix, the global tensor a TMA map describes.
inline void as_f16_matrix(exec::TensorSpec& s, int64_t rows, int64_t cols) {
  s.elem = ptx::Type::F16;
  s.shape = {rows, cols};
  s.strides = {cols, 1};
  s.storage_elements = static_cast<uint64_t>(rows * cols);
}

// A launch of the entry named `entry`; nullopt (and a test failure) when the module lacks it.
inline std::optional<exec::LaunchSpec> launch_of(const ptx::ParsedModule& pm, const std::string& entry) {
  const ptx::Function* fn = pm.module.find_entry(entry);
  EXPECT_NE(fn, nullptr) << entry;
  if (!fn) return std::nullopt;
  exec::LaunchSpec spec;
  spec.module = &pm.module;
  spec.source_map = &pm.map;
  spec.function = static_cast<uint32_t>(fn - pm.module.functions.data());
  return spec;
}

}  // namespace racer::check::test
