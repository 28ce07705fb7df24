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
    if (const toml::node* n = r.require(*tbl, "box", "tensor map '" + m.name + "'")) {
      if (const toml::array* a = r.array(*n, "'box'")) {
        for (const toml::node& e : *a)
          if (auto v = r.integer(e, "a box dimension")) {
            if (*v < 1 || *v > 256) r.error(e, "box dimension " + std::to_string(*v) + " must be in 1..256 (a TMA limit)");
            m.box.push_back(*v);
          }
        if (tensor && !tensor->shape.empty() && m.box.size() != tensor->shape.size())
          r.error(*n, "box has " + std::to_string(m.box.size()) + " dimensions, tensor '" + m.tensor + "' has " +
                          std::to_string(tensor->shape.size()));
        if (m.box.empty() || m.box.size() > 5) r.error(*n, "box must have 1 to 5 dimensions");
      }
    }
    if (const toml::node* n = tbl->get("swizzle")) {
      if (auto s = r.string(*n, "'swizzle'")) {
        static const std::vector<std::string_view> kSwizzles = {"none", "32B", "64B", "128B"};
        if (*s == "none") m.swizzle_bytes = 0;
        else if (*s == "32B") m.swizzle_bytes = 32;
        else if (*s == "64B") m.swizzle_bytes = 64;
        else if (*s == "128B") m.swizzle_bytes = 128;
        else r.error(*n, "swizzle must be one of none, 32B, 64B, 128B" + suggestion(*s, kSwizzles, false));
      }
    }
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
