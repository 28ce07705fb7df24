#include "ptx/ir.hpp"

#include <array>

#include "ptx/name_map.hpp"

namespace racer::ptx {
namespace {

struct SregInfo {
  std::string_view name;
  bool components;
};

constexpr std::array<SregInfo, static_cast<size_t>(SpecialReg::Count)> kSregs = {{
    {"%tid", true}, {"%ntid", true}, {"%ctaid", true}, {"%nctaid", true}, {"%laneid", false},
    {"%warpid", false}, {"%nwarpid", false}, {"%smid", false}, {"%nsmid", false}, {"%gridid", false},
    {"%lanemask_eq", false}, {"%lanemask_le", false}, {"%lanemask_lt", false}, {"%lanemask_ge", false},
    {"%lanemask_gt", false}, {"%clock", false}, {"%clock64", false}, {"%globaltimer", false},
    {"%dynamic_smem_size", false}, {"%total_smem_size", false}, {"%cluster_ctaid", true},
    {"%cluster_nctaid", true}, {"%cluster_ctarank", false}, {"%cluster_nctarank", false},
    {"%clusterid", true}, {"%nclusterid", true}, {"%is_explicit_cluster", false},
}};

}  // namespace

std::string_view special_reg_name(SpecialReg r) { return kSregs[static_cast<size_t>(r)].name; }
bool special_reg_has_components(SpecialReg r) { return kSregs[static_cast<size_t>(r)].components; }

std::optional<SpecialReg> special_reg_from_name(std::string_view name) {
  static const detail::NameMap<SpecialReg> by_name = [] {
    detail::NameMap<SpecialReg> m(kSregs.size());
    for (size_t i = 0; i < kSregs.size(); ++i) m.emplace(kSregs[i].name, static_cast<SpecialReg>(i));
    return m;
  }();
  if (const SpecialReg* r = by_name.find(name)) return *r;
  return std::nullopt;
}

uint64_t Variable::element_count() const {
  uint64_t n = 1;
  for (uint64_t d : dims) n *= d;
  return n * (vec ? vec : 1);
}

uint64_t Variable::size_bytes() const { return element_count() * (type_bits(type) / 8); }

uint32_t Function::thread_count_required() const {
  if (reqntid[0] == 0) return 0;
  return reqntid[0] * (reqntid[1] ? reqntid[1] : 1) * (reqntid[2] ? reqntid[2] : 1);
}

const Function* Module::find_function(std::string_view name) const {
  for (const auto& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

const Function* Module::find_entry(std::string_view name) const {
  const Function* f = find_function(name);
  return f && f->is_entry && f->has_body ? f : nullptr;
}

const DebugFile* Module::find_file(uint32_t index) const {
  for (const auto& f : files)
    if (f.index == index) return &f;
  return nullptr;
}

}  // namespace racer::ptx
