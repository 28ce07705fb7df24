#include "instance/load.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>

#include "instance/loaders.hpp"
#include "instance/spelling.hpp"
#include "support/diagnostics.hpp"

namespace racer::instance {
namespace {

bool is_instance_name(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

void load_outputs(TomlReader& r, const toml::node& n, Instance& inst) {
  const toml::array* a = r.array(n, "'outputs'");
  if (!a) return;
  if (a->empty()) r.error(n, "'outputs' must name at least one tensor");
  std::vector<std::string_view> names;
  for (const Tensor& t : inst.tensors) names.push_back(t.name);
  for (const toml::node& e : *a) {
    auto s = r.string(e, "an output");
    if (!s) continue;
    if (!inst.find_tensor(*s))
      r.error(e, "output '" + *s + "' is not a declared tensor" + suggestion(*s, names, false));
    else if (std::find(inst.outputs.begin(), inst.outputs.end(), *s) != inst.outputs.end())
      r.error(e, "output '" + *s + "' is listed twice");
    inst.outputs.push_back(*s);
    inst.output_locs.push_back(r.loc(e));
  }
}

}  // namespace

Instance load_instance(const std::string& path) {
  auto src = std::make_shared<const SourceText>(SourceText::load(path));
  Diagnostics diags;
  toml::table root;
  try {
    root = toml::parse(src->text(), path);
  } catch (const toml::parse_error& e) {
    // Nothing after a syntax error can be trusted, so it is the only error reported.
    TomlReader r(*src, diags);
    r.error(r.loc(toml::source_region{e.source().begin, e.source().begin, nullptr}),
            "invalid TOML: " + std::string(e.description()));
    diags.throw_if_any();
  }
  TomlReader r(*src, diags);
  Instance inst;
  inst.source_path = path;
  inst.source = src;
  const std::string where = "the instance";
  r.check_keys(root, {"name", "about", "outputs", "tensors", "tensor_maps", "a", "b", "expect"}, where);

  if (const toml::node* n = r.require(root, "name", where)) {
    if (auto s = r.string(*n, "'name'")) {
      inst.name = *s;
      if (!is_instance_name(*s)) r.error(*n, "name '" + *s + "' must be made of a-z, 0-9 and _");
    }
  }
  if (const toml::node* n = root.get("about")) {
    if (auto s = r.string(*n, "'about'")) inst.about = *s;
  }
  if (const toml::node* n = r.require(root, "tensors", where)) {
    if (const toml::table* t = r.table(*n, "'tensors'")) inst.tensors = load_tensors(r, *t);
  }
  if (const toml::node* n = r.require(root, "outputs", where)) load_outputs(r, *n, inst);
  if (const toml::node* n = root.get("tensor_maps")) {
    if (const toml::table* t = r.table(*n, "'tensor_maps'")) inst.tensor_maps = load_tensor_maps(r, *t, inst.tensors);
  }

  std::filesystem::path base_dir = std::filesystem::path(path).parent_path();
  if (const toml::node* n = r.require(root, "a", where)) inst.a = load_program(r, *n, "a", inst.tensors, base_dir);
  if (const toml::node* n = r.require(root, "b", where)) inst.b = load_program(r, *n, "b", inst.tensors, base_dir);
  if (const toml::node* n = root.get("expect")) inst.expect = load_expect(r, *n);
  check_tensor_map_args(r, inst, inst.a);
  check_tensor_map_args(r, inst, inst.b);

  diags.throw_if_any();
  return inst;
}

}  // namespace racer::instance
