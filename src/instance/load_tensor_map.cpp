// [tensor_maps]: the tensor maps TMA copies read, each over a declared tensor.
#include <algorithm>

#include "instance/loaders.hpp"
#include "instance/spelling.hpp"

namespace racer::instance {

std::vector<TensorMap> load_tensor_maps(TomlReader& r, const toml::table& maps, const std::vector<Tensor>& tensors) {
  std::vector<TensorMap> out;
  std::vector<std::string_view> names;
  for (const Tensor& t : tensors) names.push_back(t.name);
  for (const auto& [key, node] : r.entries(maps)) {
    TensorMap m;
    m.name = std::string(key->str());
    m.loc = r.loc(*key);
    const toml::table* tbl = r.table(*node, "tensor map '" + m.name + "'");
    if (!tbl) continue;
    r.check_keys(*tbl, {"tensor", "box", "swizzle"}, "tensor map '" + m.name + "'");
    const Tensor* tensor = nullptr;
    if (const toml::node* n = r.require(*tbl, "tensor", "tensor map '" + m.name + "'")) {
      if (auto s = r.string(*n, "'tensor'")) {
        m.tensor = *s;
        auto it = std::find_if(tensors.begin(), tensors.end(), [&](const Tensor& t) { return t.name == *s; });
        if (it == tensors.end()) r.error(*n, "tensor map names undeclared tensor '" + *s + "'" + suggestion(*s, names, false));
        else tensor = &*it;
      }
    }
    const toml::node* box_node = r.require(*tbl, "box", "tensor map '" + m.name + "'");
    const toml::array* box = box_node ? r.array(*box_node, "'box'") : nullptr;
    if (box) {
      for (const toml::node& e : *box)
        if (auto v = r.integer(e, "a box dimension")) m.box.push_back(*v);
    }
    const toml::node* swizzle_node = tbl->get("swizzle");
    if (swizzle_node) {
      if (auto s = r.string(*swizzle_node, "'swizzle'")) {
        if (auto bytes = swizzle_bytes_of(*s)) m.swizzle_bytes = *bytes;
        else r.error(*swizzle_node, "swizzle must be one of none, 32B, 64B, 128B" + suggestion(*s, swizzle_names(), false));
      }
    }
    const Tensor unknown;  // an undeclared tensor (reported above): only the box's own limits apply
    if (box)
      for (const TensorMapProblem& p : tensor_map_problems(m, tensor ? *tensor : unknown))
        r.error(p.field == "tensor" ? *tbl->get("tensor") : *box_node, p.message);
    out.push_back(std::move(m));
  }
  return out;
}

void check_tensor_map_args(TomlReader& r, const Instance& inst, const Program& p) {
  for (const Launch& l : p.launches)
    for (const Arg& a : l.args)
      if (auto* ref = std::get_if<TensorMapRef>(&a.value)) {
        bool found = std::any_of(inst.tensor_maps.begin(), inst.tensor_maps.end(), [&](const TensorMap& m) { return m.name == ref->map; });
        if (!found) {
          std::vector<std::string_view> names;
          for (const TensorMap& m : inst.tensor_maps) names.push_back(m.name);
          r.error(a.loc, "argument names undeclared tensor map '" + ref->map + "'" + suggestion(ref->map, names, false));
        }
      }
}

}  // namespace racer::instance
