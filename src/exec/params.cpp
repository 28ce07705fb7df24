#include "exec/params.hpp"

#include <algorithm>

namespace racer::exec {

std::vector<ParamSlot> param_layout(const ptx::Function& f) {
  std::vector<ParamSlot> out;
  uint32_t off = 0;
  for (const ptx::Variable& p : f.params) {
    uint32_t elem = std::max(1u, ptx::type_bits(p.type) / 8);
    uint32_t size = static_cast<uint32_t>(std::max<uint64_t>(elem, p.size_bytes()));
    uint32_t align = p.align ? p.align : elem;
    off = (off + align - 1) / align * align;
    out.push_back({off, size});
    off += size;
  }
  return out;
}

uint32_t param_buffer_size(const ptx::Function& f) {
  auto slots = param_layout(f);
  return slots.empty() ? 0 : slots.back().offset + slots.back().size;
}

}  // namespace racer::exec
