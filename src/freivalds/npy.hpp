#pragma once
// Matrices from NumPy .npy files for `racer freivalds --a/--b/--c`: 2-D, C order, with the
// element type the format stores: f32/tf32 '<f4', f16 '<f2', bf16 raw bits as '<u2' or 'V2'
// (ml_dtypes' bfloat16 saves as 'V2'). Anything else is a located racer::Error (BadInput).
#include <cstdint>
#include <string>
#include <vector>

#include "freivalds/format.hpp"

namespace racer::freivalds {

struct NpyMatrix {
  int64_t rows = 0, cols = 0;
  std::vector<float> values;  // widened exactly
  std::string data_hash;      // BLAKE2b-256 hex of the raw element bytes
};

NpyMatrix load_npy(const std::string& path, Format format);

}  // namespace racer::freivalds
