#include <algorithm>
#include <array>

#include "instance/loaders.hpp"
#include "instance/spelling.hpp"

namespace racer::instance {
namespace {

// CUDA's launch limits (the same on every architecture Racer targets).
constexpr std::array<int64_t, 3> kMaxGrid = {2147483647, 65535, 65535};
constexpr std::array<int64_t, 3> kMaxBlock = {1024, 1024, 64};
constexpr int64_t kMaxThreadsPerBlock = 1024;
constexpr std::array<int64_t, 3> kMaxCluster = {8, 8, 8};
constexpr int64_t kMaxDynamicShared = 232448;  // 227 KiB, the sm_90 opt-in maximum
constexpr std::string_view kAxis[] = {"x", "y", "z"};

bool is_ptx_identifier(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$'))
      return false;
  return !(s[0] >= '0' && s[0] <= '9');
}

// grid or block: 1 to 3 positive integers, missing ones 1.
std::array<uint32_t, 3> load_dims(TomlReader& r, const toml::node& n, std::string_view key,
                                  const std::array<int64_t, 3>& max) {
  std::array<uint32_t, 3> dims = {1, 1, 1};
  const toml::array* a = r.array(n, "'" + std::string(key) + "'");
  if (!a) return dims;
  if (a->empty() || a->size() > 3) {
    r.error(n, "'" + std::string(key) + "' must have 1 to 3 dimensions, not " + std::to_string(a->size()));
    return dims;
  }
  for (size_t i = 0; i < a->size(); ++i) {
    const toml::node& e = *a->get(i);
    auto v = r.integer(e, std::string(key) + " dimension");
    if (!v) continue;
    if (*v < 1) {
      r.error(e, std::string(key) + " dimension must be positive, not " + std::to_string(*v));
    } else if (*v > max[i]) {
      r.error(e, std::string(key) + " " + std::string(kAxis[i]) + " dimension " + std::to_string(*v) +
                     " exceeds the CUDA limit of " + std::to_string(max[i]));
    } else {
      dims[i] = static_cast<uint32_t>(*v);
    }
  }
  return dims;
}

// Every key an argument table may have: the access kinds, offset, null and the scalar types.
std::vector<std::string_view> arg_keys() {
  std::vector<std::string_view> keys = {"read", "write", "readwrite", "offset", "null", "tensor_map"};
  for (std::string_view t : scalar_type_names()) keys.push_back(t);
  return keys;
}

void load_tensor_ref(TomlReader& r, const toml::table& tbl, const toml::key& key, const toml::node& value,
                     Access access, const std::vector<Tensor>& tensors, Arg& arg) {
  TensorRef ref;
  ref.access = access;
  auto name = r.string(value, "'" + std::string(key.str()) + "'");
  if (!name) return;
  ref.tensor = *name;
  auto it = std::find_if(tensors.begin(), tensors.end(), [&](const Tensor& t) { return t.name == *name; });
  if (it == tensors.end()) {
    std::vector<std::string_view> names;
    for (const Tensor& t : tensors) names.push_back(t.name);
    r.error(value, "argument names undeclared tensor '" + *name + "'" + suggestion(*name, names, false));
  }
  if (const toml::node* off = tbl.get("offset")) {
    if (auto v = r.integer(*off, "'offset'")) {
      ref.offset = *v;
      // An unusable tensor has already been reported; its size says nothing.
      if (it != tensors.end() && !it->shape.empty() && (*v < 0 || *v >= it->storage_elements()))
        r.error(*off, "offset " + std::to_string(*v) + " is outside tensor '" + *name + "' (" +
                          std::to_string(it->storage_elements()) + " elements)");
    }
  }
  arg.value = std::move(ref);
}

Arg load_arg_table(TomlReader& r, const toml::node& n, const toml::table& tbl, const std::vector<Tensor>& tensors) {
  Arg arg;
  arg.loc = r.loc(n);
  static const std::vector<std::string_view> kKeys = arg_keys();
  std::vector<std::pair<const toml::key*, const toml::node*>> kinds;
  for (const auto& [k, v] : r.entries(tbl)) {
    if (k->str() == "offset") continue;
    if (std::find(kKeys.begin(), kKeys.end(), k->str()) == kKeys.end())
      r.error(*k, "unknown key '" + std::string(k->str()) + "' in an argument" + suggestion(k->str(), kKeys, false));
    else
      kinds.emplace_back(k, v);
  }
  if (kinds.size() > 1) {
    r.error(n, "argument has both '" + std::string(kinds[0].first->str()) + "' and '" +
                   std::string(kinds[1].first->str()) + "'; give exactly one");
    return arg;
  }
  if (kinds.empty()) {
    if (tbl.empty() || tbl.contains("offset"))
      r.error(n, "argument must hold one of read, write, readwrite, null or a scalar type such as f32");
    return arg;
  }
  const auto& [key, value] = kinds[0];
  std::string_view k = key->str();
  bool is_tensor = k == "read" || k == "write" || k == "readwrite";
  if (!is_tensor && tbl.contains("offset"))
    r.error(*tbl.get("offset"), "'offset' applies only to a tensor argument");
  if (is_tensor) {
    Access access = k == "read" ? Access::Read : k == "write" ? Access::Write : Access::ReadWrite;
    load_tensor_ref(r, tbl, *key, *value, access, tensors, arg);
  } else if (k == "tensor_map") {
    // The name is checked against [tensor_maps] once the whole instance is read.
    if (auto name = r.string(*value, "'tensor_map'")) arg.value = TensorMapRef{*name};
  } else if (k == "null") {
    if (auto b = r.boolean(*value, "'null'"); b && !*b) r.error(*value, "'null' must be true");
    arg.value = Null{};
  } else {
    ScalarType type = *parse_scalar_type(k);
    if (const auto* name = value->as_string()) {  // { f32 = "alpha" }: a one-cell input tensor's value
      std::string t = name->get();
      bool declared = false;
      for (const Tensor& x : tensors) declared |= x.name == t;
      if (!declared) r.error(*value, "scalar argument names undeclared tensor '" + t + "'");
      else arg.value = Scalar{Number{}, type, t};
      return arg;
    }
    auto num = r.number(*value, "'" + std::string(k) + "'");
    if (num && !scalar_type_is_float(type) && !check_fits(r, *value, *num, scalar_type_int_bounds(type), k))
      num.reset();
    if (num) arg.value = Scalar{*num, type};
  }
  return arg;
}

Arg load_arg(TomlReader& r, const toml::node& n, const std::vector<Tensor>& tensors) {
  if (const toml::table* tbl = n.as_table()) return load_arg_table(r, n, *tbl, tensors);
  Arg arg;
  arg.loc = r.loc(n);
  if (n.is_integer() || n.is_floating_point()) {
    if (auto num = r.number(n, "an argument")) arg.value = Scalar{*num, std::nullopt};
    return arg;
  }
  std::string msg = "an argument must be a number or a table such as { read = \"x\" }, not " +
                    std::string(TomlReader::type_name(n));
  if (const auto* s = n.as_string())  // the likely intent: a tensor written by bare name
    msg = "an argument must be a number or a table; for tensor '" + s->get() + "' write { read = \"" + s->get() +
          "\" }, { write = \"" + s->get() + "\" } or { readwrite = \"" + s->get() + "\" }";
  r.error(n, std::move(msg));
  return arg;
}

Launch load_launch(TomlReader& r, const toml::table& tbl, std::string_view where, const std::vector<Tensor>& tensors,
                   const std::filesystem::path& base_dir) {
  Launch l;
  l.loc = r.loc(tbl);
  r.check_keys(tbl, {"ptx", "entry", "grid", "block", "cluster", "shared_bytes", "args"}, where);
  if (const toml::node* n = r.require(tbl, "ptx", where)) {
    l.ptx_loc = r.loc(*n);
    if (auto s = r.string(*n, "'ptx'")) {
      std::filesystem::path resolved = (base_dir / *s).lexically_normal();
      l.ptx = resolved.string();
      std::error_code ec;
      if (!std::filesystem::is_regular_file(resolved, ec)) r.error(*n, "ptx file not found: " + l.ptx);
    }
  }
  if (const toml::node* n = r.require(tbl, "entry", where)) {
    l.entry_loc = r.loc(*n);
    if (auto s = r.string(*n, "'entry'")) {
      l.entry = *s;
      if (!is_ptx_identifier(*s)) r.error(*n, "entry '" + *s + "' is not a PTX identifier");
    }
  }
  if (const toml::node* n = r.require(tbl, "grid", where)) l.grid = load_dims(r, *n, "grid", kMaxGrid);
  if (const toml::node* n = r.require(tbl, "block", where)) {
    l.block = load_dims(r, *n, "block", kMaxBlock);
    if (static_cast<int64_t>(l.threads_per_block()) > kMaxThreadsPerBlock)
      r.error(*n, "block has " + std::to_string(l.threads_per_block()) + " threads; a CTA has at most " +
                      std::to_string(kMaxThreadsPerBlock));
  }
  if (const toml::node* n = tbl.get("cluster")) {
    l.cluster_loc = r.loc(*n);
    l.cluster = load_dims(r, *n, "cluster", kMaxCluster);
    if (std::string p = cluster_problem(*l.cluster, l.grid); !p.empty()) r.error(*n, p);
  }
  if (const toml::node* n = tbl.get("shared_bytes")) {
    if (auto v = r.integer(*n, "'shared_bytes'")) {
      if (*v < 0) r.error(*n, "'shared_bytes' must not be negative");
      else if (*v > kMaxDynamicShared)
        r.error(*n, "'shared_bytes' " + std::to_string(*v) + " exceeds the " + std::to_string(kMaxDynamicShared) +
                        " bytes of dynamic shared memory a CTA may have");
      else l.shared_bytes = static_cast<uint32_t>(*v);
    }
  }
  if (const toml::node* n = r.require(tbl, "args", where)) {
    l.args_loc = r.loc(*n);
    if (const toml::array* a = r.array(*n, "'args'"))
      for (const toml::node& e : *a) l.args.push_back(load_arg(r, e, tensors));
  }
  return l;
}

}  // namespace

std::string cluster_problem(const std::array<uint32_t, 3>& cluster, const std::array<uint32_t, 3>& grid) {
  uint64_t n = uint64_t{cluster[0]} * cluster[1] * cluster[2];
  if (n > 8) return "a cluster of " + std::to_string(n) + " CTAs exceeds the portable maximum of 8";
  for (size_t i = 0; i < 3; ++i)
    if (cluster[i] == 0 || grid[i] % cluster[i] != 0)
      return "grid " + std::string(kAxis[i]) + " dimension " + std::to_string(grid[i]) + " is not a multiple of the cluster's " +
             std::to_string(cluster[i]);
  return "";
}

Program load_program(TomlReader& r, const toml::node& node, std::string_view name,
                     const std::vector<Tensor>& tensors, const std::filesystem::path& base_dir) {
  Program p;
  p.loc = r.loc(node);
  const std::string where = "program '" + std::string(name) + "'";
  const toml::table* tbl = r.table(node, "'" + std::string(name) + "'");
  if (!tbl) return p;
  // Program B may be a reference function instead of launches: "refs.py:softmax" (a file
  // beside the instance) or "package.module:softmax"; frontend/reference_trace traces it.
  if (name == "b" && tbl->contains("reference")) {
    r.check_keys(*tbl, {"reference"}, where + " given by a reference (which takes no launches)");
    const toml::node& ref = *tbl->get("reference");
    p.reference_loc = r.loc(ref);
    if (auto s = r.string(ref, "'b.reference'")) {
      size_t colon = s->rfind(':');
      if (colon == std::string::npos || colon == 0 || colon + 1 == s->size())
        r.error(ref, "'b.reference' must be \"file.py:function\" or \"module:function\", not \"" + *s + "\"");
      else if (s->substr(0, colon).ends_with(".py"))
        p.reference_spec = (base_dir / s->substr(0, colon)).lexically_normal().string() + s->substr(colon);
      else
        p.reference_spec = *s;
    }
    return p;
  }
  r.check_keys(*tbl, {"launch"}, where);
  const toml::node* launches = r.require(*tbl, "launch", where);
  if (!launches) return p;
  const std::string header = "[[" + std::string(name) + ".launch]]";
  const toml::array* a = launches->as_array();
  if (!a) {
    r.error(*launches, "'" + std::string(name) + ".launch' must be an array of tables, written " + header);
    return p;
  }
  if (a->empty()) r.error(*launches, where + " has no launches");
  const std::string launch_where = "a launch of " + where;
  for (const toml::node& e : *a) {
    if (const toml::table* lt = e.as_table()) p.launches.push_back(load_launch(r, *lt, launch_where, tensors, base_dir));
    else r.error(e, "each launch must be a table, written " + header + ", not " + std::string(TomlReader::type_name(e)));
  }
  return p;
}

}  // namespace racer::instance
