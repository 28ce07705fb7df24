#pragma once
// The layout of an entry's .param buffer: each parameter at its natural (or declared)
// alignment, in order, as the CUDA driver lays them out.
#include <cstdint>
#include <vector>

#include "ptx/ir.hpp"

namespace racer::exec {

struct ParamSlot {
  uint32_t offset = 0;
  uint32_t size = 0;
};

std::vector<ParamSlot> param_layout(const ptx::Function& f);
uint32_t param_buffer_size(const ptx::Function& f);

}  // namespace racer::exec
