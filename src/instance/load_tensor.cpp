#include <cmath>

#include "instance/loaders.hpp"
#include "instance/spelling.hpp"

namespace racer::instance {
namespace {

// Past this a tensor is certainly a mistake, and the size arithmetic stays far from overflow.
constexpr double kMaxTensorBytes = 1099511627776.0;  // 2^40

bool is_identifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// A list of integers, each at least `min`; nullopt (after reporting) if anything is wrong.
std::optional<std::vector<int64_t>> read_dims(TomlReader& r, const toml::node& n, std::string_view key, int64_t min) {
  const toml::array* a = r.array(n, "'" + std::string(key) + "'");
  if (!a) return std::nullopt;
  std::vector<int64_t> dims;
  bool ok = true;
  for (const toml::node& e : *a) {
    auto v = r.integer(e, std::string(key) + " entry");
    if (v && *v < min) {
      r.error(e, std::string(key) + " entry must be " + (min > 0 ? "positive" : "non-negative") + ", not " +
                     std::to_string(*v));
      v.reset();
    }
    if (v) dims.push_back(*v);
    ok = ok && v.has_value();
  }
  if (!ok) return std::nullopt;
  return dims;
}

void load_init(TomlReader& r, const toml::node& n, Tensor& t, bool shape_ok) {
  const std::string where = "tensor '" + t.name + "'";
  IntBounds bounds = dtype_int_bounds(t.dtype);
  bool as_bool = t.dtype == DType::Bool;
  auto value = [&](const toml::node& v, std::string_view what) -> std::optional<Number> {
    auto num = r.number(v, what, as_bool);
    if (num && !dtype_is_float(t.dtype) && !check_fits(r, v, *num, bounds, dtype_name(t.dtype))) return std::nullopt;
    return num;
  };

  if (auto s = n.as_string()) {
    static constexpr std::string_view kWords[] = {"input", "empty", "zeros"};
    const std::string& w = s->get();
    if (w == "input") t.init = InitInput{};
    else if (w == "empty") t.init = InitEmpty{};
    else if (w == "zeros") t.init = InitZeros{};
    else {
      std::string hint = suggestion(w, kWords, false);
      if (hint.empty()) hint = "; expected \"input\", \"empty\", \"zeros\", { full = v } or { values = [...] }";
      r.error(n, "unknown init '" + w + "'" + hint);
    }
    return;
  }
  const toml::table* tbl = n.as_table();
  if (!tbl) {
    r.error(n, "'init' must be a string or a table, not " + std::string(TomlReader::type_name(n)));
    return;
  }
  r.check_keys(*tbl, {"full", "values"}, "the init of " + where);
  const toml::node* full = tbl->get("full");
  const toml::node* values = tbl->get("values");
  if (full && values) {
    r.error(n, "init must have one of 'full' and 'values', not both");
  } else if (full) {
    if (auto v = value(*full, "'full'")) t.init = InitFull{*v};
  } else if (values) {
    const toml::array* a = r.array(*values, "'values'");
    if (!a) return;
    InitValues iv;
    for (const toml::node& e : *a)
      if (auto v = value(e, "a value")) iv.values.push_back(*v);
    if (shape_ok && static_cast<int64_t>(a->size()) != t.cell_count())
      r.error(*values, "'values' has " + std::to_string(a->size()) + " numbers but " + where + " has " +
                           std::to_string(t.cell_count()) + " cells");
    t.init = std::move(iv);
  } else if (tbl->empty()) {
    r.error(n, "init table must be { full = v } or { values = [...] }");
  }
}

void load_range(TomlReader& r, const toml::node& n, Tensor& t) {
  const toml::array* a = r.array(n, "'range'");
  if (!a) return;
  if (a->size() != 2) {
    r.error(n, "'range' must be [lo, hi], not " + std::to_string(a->size()) + " numbers");
    return;
  }
  auto lo = r.number(*a->get(0), "range lower bound");
  auto hi = r.number(*a->get(1), "range upper bound");
  if (!lo || !hi) return;
  if (lo->value > hi->value) {
    r.error(n, "range lower bound " + lo->text + " is greater than upper bound " + hi->text);
    return;
  }
  if (!std::holds_alternative<InitInput>(t.init))
    r.error(n, "'range' constrains \"input\" cells, but tensor '" + t.name + "' is " +
                   std::string(init_name(t.init)));
  t.range = Range{*lo, *hi};
}

Tensor load_tensor(TomlReader& r, const toml::key& key, const toml::table& tbl) {
  Tensor t;
  t.name = std::string(key.str());
  t.loc = r.loc(key);
  const std::string where = "tensor '" + t.name + "'";
  r.check_keys(tbl, {"shape", "dtype", "init", "strides", "range"}, where);

  bool shape_ok = false;
  if (const toml::node* n = r.require(tbl, "shape", where)) {
    if (auto dims = read_dims(r, *n, "shape", 1)) {
      t.shape = std::move(*dims);
      shape_ok = !t.shape.empty();
      if (!shape_ok) r.error(*n, "'shape' must have at least one dimension");
    }
  }
  if (const toml::node* n = r.require(tbl, "dtype", where)) {
    if (auto s = r.string(*n, "'dtype'")) {
      if (auto d = parse_dtype(*s)) t.dtype = *d;
      else r.error(*n, "unknown dtype '" + *s + "'" + suggestion(*s, dtype_names()));
    }
  }
  if (shape_ok) t.strides = Tensor::row_major_strides(t.shape);
  if (const toml::node* n = tbl.get("strides")) {
    auto strides = read_dims(r, *n, "strides", 0);
    if (strides && shape_ok && strides->size() != t.shape.size()) {
      r.error(*n, "'strides' has " + std::to_string(strides->size()) + " entries but 'shape' has " +
                      std::to_string(t.shape.size()));
    } else if (strides && shape_ok) {
      t.strides = std::move(*strides);
    }
  }
  if (shape_ok) {
    double cells = 1, reach = 1;
    for (size_t i = 0; i < t.shape.size(); ++i) {
      cells *= static_cast<double>(t.shape[i]);
      reach += static_cast<double>(t.shape[i] - 1) * static_cast<double>(t.strides[i]);
    }
    double bytes = std::max(cells, reach) * static_cast<double>(dtype_bytes(t.dtype));
    if (bytes > kMaxTensorBytes) {
      r.error(key, where + " is too large: more than 2^40 bytes");
      shape_ok = false;
      t.shape.clear();  // keeps cell_count()/storage_elements() of a rejected tensor from overflowing
      t.strides.clear();
    }
  }
  if (const toml::node* n = r.require(tbl, "init", where)) load_init(r, *n, t, shape_ok);
  if (const toml::node* n = tbl.get("range")) load_range(r, *n, t);
  return t;
}

}  // namespace

bool check_fits(TomlReader& r, const toml::node& at, const Number& v, IntBounds bounds, std::string_view type) {
  if (!v.is_integer) {
    r.error(at, "value " + v.text + " does not fit " + std::string(type) + ": not an integer");
    return false;
  }
  if (v.integer < bounds.lo || v.integer > bounds.hi) {
    r.error(at, "value " + v.text + " does not fit " + std::string(type) + " (" + std::to_string(bounds.lo) +
                    " to " + std::to_string(bounds.hi) + ")");
    return false;
  }
  return true;
}

std::vector<Tensor> load_tensors(TomlReader& r, const toml::table& tensors) {
  std::vector<Tensor> out;
  for (const auto& [key, node] : r.entries(tensors)) {
    if (!is_identifier(key->str()))
      r.error(*key, "tensor name '" + std::string(key->str()) +
                        "' must be letters, digits and _, not starting with a digit");
    const toml::table* tbl = node->as_table();
    if (!tbl) {
      r.error(*node, "tensor '" + std::string(key->str()) +
                         "' must be a table such as { shape = [4], dtype = \"f32\", init = \"input\" }, not " +
                         std::string(TomlReader::type_name(*node)));
      // Still declared: uses of it must not be reported as undeclared too. (The empty shape
      // marks it unusable; the instance is rejected anyway.)
      Tensor placeholder;
      placeholder.name = std::string(key->str());
      placeholder.loc = r.loc(*key);
      out.push_back(std::move(placeholder));
      continue;
    }
    out.push_back(load_tensor(r, *key, *tbl));
  }
  return out;
}

}  // namespace racer::instance
