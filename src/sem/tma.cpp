// cp.async.bulk.tensor (TMA), tile mode, global -> shared, completing on an mbarrier: the box
// at the given coordinates of the tensor a tensor map (declared in the instance, passed by
// value) describes, elements outside the tensor zero-filled, laid out row-major in shared
// memory with the map's swizzle applied to the shared address (the same pattern wgmma's
// descriptors read). With .multicast::cluster the box lands at the same offset in every CTA
// of the mask, each completing on its own mbarrier at the same offset.
#include "exec/async_state.hpp"
#include "sem/common.hpp"
#include "sem/semantics.hpp"

namespace racer::sem {
namespace {

uint64_t shared_of(ExecContext& c, const Instr& i, const ptx::Operand& op) {
  uint64_t a = c.address(op);
  std::string_view n = i.has(Mod::Space) ? ptx::mod_values(Mod::Space)[i.mod(Mod::Space)] : "";
  if (n.empty()) {
    if (a < exec::Machine::kSharedWindow || a >= exec::Machine::kSharedWindow + (1ull << 32))
      throw exec::Refusal("TMA address outside shared memory");
    a -= exec::Machine::kSharedWindow;
  }
  return c.cluster().own_shared_address(c, a, "a TMA destination or mbarrier");
}

void tensor_copy(ExecContext& c, const Instr& i) {
  std::string_view dst = i.has(Mod::Space) ? ptx::mod_values(Mod::Space)[i.mod(Mod::Space)] : "";
  std::string_view src = i.has(Mod::Space2) ? ptx::mod_values(Mod::Space2)[i.mod(Mod::Space2)] : "";
  std::string_view mode = i.has(Mod::LoadMode) ? ptx::mod_values(Mod::LoadMode)[i.mod(Mod::LoadMode)] : "tile";
  const bool multicast = i.has(Mod::Multicast);
  if (src != "global" || (dst != "shared::cluster" && dst != "shared::cta") || mode != "tile" || i.operands.size() < (multicast ? 4u : 3u))
    throw exec::Refusal("cp.async.bulk.tensor other than a tile copy global -> shared completing on an mbarrier is not modelled");
  const ptx::Operand& tm = i.operands[1];
  if (tm.kind != ptx::Operand::Kind::Address || tm.elems.size() != 2 || tm.elems[1].kind != ptx::Operand::Kind::Vector)
    throw exec::Refusal("TMA tensor-map operand not of the form [map, {coordinates}]");
  // The map: a generic address of a tensor-map kernel parameter.
  uint64_t at = c.get_bits(tm.elems[0], Type::U64) + static_cast<uint64_t>(tm.value);
  const exec::LaunchSpec& l = c.memory().current_launch();
  const exec::TensorMapSpec* map = nullptr;
  for (const exec::TensorMapSpec& s : l.tensor_maps)
    if (at == exec::Machine::kParamWindow + s.param_offset) map = &s;
  if (!map) throw exec::Refusal("TMA tensor-map operand is not the address of a tensor map the instance passed (give it as { tensor_map = ... })");
  const exec::TensorSpec& t = c.memory().tensors()[map->tensor];
  size_t rank = t.shape.size();
  if (tm.elems[1].elems.size() != rank) throw exec::Refusal("TMA copy with a coordinate count other than the tensor's rank");
  std::vector<int64_t> coord(rank);
  for (size_t d = 0; d < rank; ++d)  // coordinates are innermost first
    coord[d] = static_cast<int32_t>(int_operand(c, tm.elems[1].elems[rank - 1 - d], Type::S32));
  unsigned eb = t.elem_bytes();
  if (map->swizzle_bytes && map->box.back() * eb > map->swizzle_bytes)
    throw exec::Refusal("TMA box rows wider than the map's swizzle span");
  uint64_t row_mask = map->swizzle_bytes == 128 ? 7 : map->swizzle_bytes == 64 ? 3 : map->swizzle_bytes == 32 ? 1 : 0;

  exec::AsyncCopy copy;
  copy.instr = static_cast<uint32_t>(&i - c.fn.instrs.data());
  copy.dst = shared_of(c, i, i.operands[0]);
  uint64_t elems = 1;
  for (int64_t b : map->box) elems *= static_cast<uint64_t>(b);
  copy.size = static_cast<unsigned>(elems * eb);
  std::vector<int64_t> idx(rank, 0);
  for (uint64_t e = 0; e < elems; ++e) {
    uint64_t rest = e;
    for (size_t d = rank; d-- > 0;) idx[d] = static_cast<int64_t>(rest % static_cast<uint64_t>(map->box[d])), rest /= static_cast<uint64_t>(map->box[d]);
    bool inside = true;
    int64_t storage = 0;
    for (size_t d = 0; d < rank; ++d) {
      int64_t g = coord[d] + idx[d];
      inside &= g >= 0 && g < t.shape[d];
      storage += g * t.strides[d];
    }
    Value v = inside ? c.memory().load(c, i, exec::Space::Global, c.memory().tensor_base(map->tensor) + static_cast<uint64_t>(storage) * eb, eb, t.elem)
                     : Value::of_bits(0);  // TMA fills what lies outside the tensor with zeros
    uint64_t a = copy.dst + e * eb;
    a ^= ((a >> 7) & row_mask) << 4;
    copy.parts.push_back({static_cast<uint32_t>(a - copy.dst), static_cast<uint8_t>(eb), v});
  }
  uint64_t mbar = shared_of(c, i, i.operands[2]);
  if (multicast) c.cluster().bulk_copy_multicast(c, i, copy, mbar, static_cast<uint32_t>(int_operand(c, i.operands[3], Type::U16)));
  else c.async().bulk_copy_parts(c, i, std::move(copy), mbar);
}

}  // namespace

void register_tma(exec::Semantics& s) { s.step[size_t(ptx::Op::CpAsyncBulkTensor)] = tensor_copy; }

}  // namespace racer::sem
