#include "instance/json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "instance/reference_json.hpp"
#include "instance/spelling.hpp"
#include "ptx/parser.hpp"
#include "ptx/types.hpp"
#include "support/content_hash.hpp"
#include "support/error.hpp"

namespace racer::instance {
namespace {

using nlohmann::json;

// The description's source file (the user's .py), to turn "line" into a located diagnostic with
// the user's own line under it.
class Locator {
 public:
  explicit Locator(const std::string& path) : path_(path) {
    std::error_code ec;
    if (path.empty() || !std::filesystem::is_regular_file(path, ec)) return;
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    source_ = std::make_shared<const SourceText>(path, ss.str());
  }

  SourceLoc at(const json& obj) const {
    SourceLoc loc;
    loc.file = path_;
    if (!source_ || !obj.is_object() || !obj.contains("line") || !obj["line"].is_number_integer()) return loc;
    int64_t line = obj["line"].get<int64_t>();
    if (line < 1 || line > static_cast<int64_t>(UINT32_MAX)) return loc;
    std::string_view text = source_->line(static_cast<uint32_t>(line));
    if (text.data() == nullptr) return loc;  // past the file's end
    size_t indent = std::min(text.find_first_not_of(" \t"), text.size());
    loc.line = static_cast<uint32_t>(line);
    loc.col = static_cast<uint32_t>(indent + 1);
    loc.offset = static_cast<size_t>(text.data() - source_->text().data()) + indent;
    loc.width = std::max<size_t>(1, text.size() - indent);
    return loc;
  }

  std::shared_ptr<const SourceText> source() const { return source_; }

 private:
  std::string path_;
  std::shared_ptr<const SourceText> source_;
};

class Builder {
 public:
  Builder(const json& j, Instance& inst, Diagnostics& diags, const Locator& where)
      : j_(j), inst_(inst), diags_(diags), where_(where) {}

  void error(const json& at, const std::string& msg) { report(diags_, inst_, where_.at(at), msg); }

  std::optional<Number> number(const json& at, const json& v, const std::string& what) {
    if (v.is_number_integer()) return Number::from_int(v.get<int64_t>());
    if (v.is_string()) {
      Number n;
      n.text = v.get<std::string>();
      try {
        n.value = n.text == "inf" ? HUGE_VAL : n.text == "-inf" ? -HUGE_VAL : std::stod(n.text);
      } catch (const std::exception&) {
        error(at, what + ": '" + n.text + "' is not a number");
        return std::nullopt;
      }
      // An integral text is an integer only when written as one (no point, no exponent).
      if (n.text.find_first_of(".eEn") == std::string::npos) {
        try {
          n.integer = std::stoll(n.text);
          n.is_integer = true;
        } catch (const std::exception&) {
        }
      }
      return n;
    }
    error(at, what + " must be a number");
    return std::nullopt;
  }

  std::vector<int64_t> dims(const json& t, const char* key) {
    std::vector<int64_t> out;
    if (!t.contains(key)) return out;
    for (const auto& d : t[key]) out.push_back(d.get<int64_t>());
    return out;
  }

  Tensor tensor(const json& t) {
    Tensor x;
    x.name = t.at("name").get<std::string>();
    x.loc = where_.at(t);
    x.shape = dims(t, "shape");
    if (x.shape.empty()) error(t, "tensor '" + x.name + "' must have at least one dimension");
    for (int64_t d : x.shape)
      if (d < 1) error(t, "tensor '" + x.name + "': every dimension must be positive, not " + std::to_string(d));
    std::string dt = t.at("dtype").get<std::string>();
    if (auto d = parse_dtype(dt)) x.dtype = *d;
    else error(t, "tensor '" + x.name + "': unknown dtype '" + dt + "'" + suggestion(dt, dtype_names()));
    x.strides = t.contains("strides") ? dims(t, "strides") : Tensor::row_major_strides(x.shape);
    if (x.strides.size() != x.shape.size()) error(t, "tensor '" + x.name + "': strides and shape differ in length");
    const json& init = t.at("init");
    if (init == "input") x.init = InitInput{};
    else if (init == "empty") x.init = InitEmpty{};
    else if (init == "zeros") x.init = InitZeros{};
    else if (init.is_object() && init.contains("full")) {
      if (auto n = number(t, init["full"], "the fill value of '" + x.name + "'")) x.init = InitFull{*n};
    } else if (init.is_object() && init.contains("values")) {
      InitValues v;
      for (const auto& e : init["values"])
        if (auto n = number(t, e, "a value of '" + x.name + "'")) v.values.push_back(*n);
      if (static_cast<int64_t>(v.values.size()) != x.cell_count())
        error(t, "tensor '" + x.name + "' has " + std::to_string(x.cell_count()) + " cells but " +
                     std::to_string(v.values.size()) + " values");
      x.init = std::move(v);
    } else {
      error(t, "tensor '" + x.name + "': unknown init " + init.dump());
    }
    if (t.contains("range") && !t["range"].is_null()) {
      auto lo = number(t, t["range"].at(0), "range"), hi = number(t, t["range"].at(1), "range");
      if (lo && hi) x.range = Range{*lo, *hi};
    }
    return x;
  }

  // {"name", "tensor", "box", "swizzle"?, "line"?}: the same rules as [tensor_maps] in TOML.
  TensorMap tensor_map(const json& m) {
    TensorMap x;
    x.name = m.at("name").get<std::string>();
    x.loc = where_.at(m);
    x.tensor = m.at("tensor").get<std::string>();
    x.box = dims(m, "box");
    const std::string what = "tensor map '" + x.name + "'";
    std::string swizzle = m.value("swizzle", "none");
    if (auto bytes = swizzle_bytes_of(swizzle)) x.swizzle_bytes = *bytes;
    else error(m, what + ": swizzle must be one of none, 32B, 64B, 128B" + suggestion(swizzle, swizzle_names(), false));
    const Tensor* t = inst_.find_tensor(x.tensor);
    if (!t) error(m, what + " names undeclared tensor '" + x.tensor + "'");
    const Tensor unknown;
    for (const TensorMapProblem& p : tensor_map_problems(x, t ? *t : unknown)) error(m, what + ": " + p.message);
    return x;
  }

  Arg arg(const json& launch, const json& a) {
    Arg out;
    out.loc = where_.at(launch);
    if (a.contains("tensor")) {
      TensorRef ref;
      ref.tensor = a["tensor"].get<std::string>();
      std::string acc = a.value("access", "read");
      ref.access = acc == "read" ? Access::Read : acc == "write" ? Access::Write : Access::ReadWrite;
      if (acc != "read" && acc != "write" && acc != "readwrite") error(launch, "unknown access '" + acc + "'");
      ref.offset = a.value("offset", int64_t{0});
      if (!inst_.find_tensor(ref.tensor)) error(launch, "argument names undeclared tensor '" + ref.tensor + "'");
      out.value = std::move(ref);
    } else if (a.contains("tensor_map")) {
      TensorMapRef ref{a["tensor_map"].get<std::string>()};
      bool declared = false;
      for (const TensorMap& m : inst_.tensor_maps) declared |= m.name == ref.map;
      if (!declared) error(launch, "argument names undeclared tensor map '" + ref.map + "'");
      out.value = std::move(ref);
    } else if (a.contains("null")) {
      out.value = Null{};
    } else if (a.contains("scalar") || a.contains("scalar_tensor")) {
      Scalar s;
      if (a.contains("scalar_tensor")) {  // a one-cell input tensor's value
        s.tensor = a["scalar_tensor"].get<std::string>();
        if (!inst_.find_tensor(s.tensor)) error(launch, "scalar argument names undeclared tensor '" + s.tensor + "'");
      } else if (auto n = number(launch, a["scalar"], "a scalar argument")) {
        s.number = *n;
      }
      if (a.contains("type") && !a["type"].is_null()) {
        std::string ty = a["type"].get<std::string>();
        if (auto st = parse_scalar_type(ty)) s.type = *st;
        else error(launch, "unknown scalar type '" + ty + "'" + suggestion(ty, scalar_type_names()));
      }
      out.value = std::move(s);
    } else {
      error(launch, "an argument must be a tensor, a scalar or null, not " + a.dump());
    }
    return out;
  }

  Program program(const char* key) {
    Program p;
    if (!j_.contains(key) || j_[key].empty()) {
      error(j_, std::string("program ") + key + " has no launches");
      return p;
    }
    for (const json& l : j_[key]) {
      Launch x;
      x.loc = x.ptx_loc = x.entry_loc = x.args_loc = where_.at(l);
      x.ptx = l.at("ptx").get<std::string>();
      std::error_code ec;
      // A witness carries the PTX text: replayed elsewhere, the text stands in for the file.
      if (!std::filesystem::is_regular_file(x.ptx, ec) && l.contains("ptx_text"))
        x.ptx = store_ptx(l["ptx_text"].get<std::string>(), default_cache_dir());
      if (!std::filesystem::is_regular_file(x.ptx, ec)) error(l, "ptx file not found: " + x.ptx);
      x.entry = l.at("entry").get<std::string>();
      auto fill = [&](const char* k, std::array<uint32_t, 3>& d) {
        std::vector<int64_t> v = dims(l, k);
        if (v.empty() || v.size() > 3) error(l, std::string(k) + " must have 1 to 3 dimensions");
        for (size_t i = 0; i < v.size() && i < 3; ++i) {
          if (v[i] < 1 || v[i] > 2147483647) error(l, std::string(k) + " dimension " + std::to_string(v[i]) + " is out of range");
          else d[i] = static_cast<uint32_t>(v[i]);
        }
      };
      fill("grid", x.grid);
      fill("block", x.block);
      if (l.contains("cluster") && !l["cluster"].is_null()) {
        std::array<uint32_t, 3> c = {1, 1, 1};
        fill("cluster", c);
        x.cluster = c;
        if (std::string problem = cluster_problem(c, x.grid); !problem.empty()) error(l, problem);
      }
      if (x.threads_per_block() > 1024) error(l, "block has " + std::to_string(x.threads_per_block()) + " threads; a CTA has at most 1024");
      x.shared_bytes = l.value("shared_bytes", uint32_t{0});
      for (const json& a : l.at("args")) x.args.push_back(arg(l, a));
      p.launches.push_back(std::move(x));
    }
    return p;
  }

 private:
  const json& j_;
  Instance& inst_;
  Diagnostics& diags_;
  const Locator& where_;
};

json number_json(const Number& n) { return n.is_integer ? json(n.integer) : json(n.text); }

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

Instance instance_from_json(const json& j) {
  Instance inst;
  Diagnostics diags;
  try {
    inst.name = j.at("name").get<std::string>();
    inst.about = j.value("about", "");
    inst.source_path = j.value("source", "");
    Locator where(inst.source_path);
    inst.source = where.source();
    Builder b(j, inst, diags, where);
    for (const json& t : j.at("tensors")) inst.tensors.push_back(b.tensor(t));
    if (j.contains("tensor_maps"))
      for (const json& m : j["tensor_maps"]) inst.tensor_maps.push_back(b.tensor_map(m));
    for (const json& o : j.at("outputs")) {
      std::string name = o.get<std::string>();
      if (!inst.find_tensor(name)) b.error(j, "output '" + name + "' is not a declared tensor");
      inst.outputs.push_back(name);
      inst.output_locs.push_back(where.at(j));
    }
    if (inst.outputs.empty()) b.error(j, "an instance must compare at least one output");
    inst.a = b.program("a");
    // Program b is launches, or a reference function traced into a graph (no launches).
    if (!j.contains("reference")) inst.b = b.program("b");
  } catch (const json::exception& e) {
    throw Error(ExitCode::BadInput, "malformed instance description: " + std::string(e.what()));
  }
  diags.throw_if_any();
  if (j.contains("reference")) inst.b.reference = reference_from_json(j["reference"], inst);
  return inst;
}

json instance_to_json(const Instance& inst) {
  json j;
  j["name"] = inst.name;
  j["about"] = inst.about;
  j["source"] = inst.source_path;
  j["outputs"] = inst.outputs;
  j["tensors"] = json::array();
  for (const Tensor& t : inst.tensors) {
    json x{{"name", t.name}, {"shape", t.shape}, {"dtype", dtype_name(t.dtype)}, {"strides", t.strides}};
    if (std::holds_alternative<InitInput>(t.init)) x["init"] = "input";
    else if (std::holds_alternative<InitEmpty>(t.init)) x["init"] = "empty";
    else if (std::holds_alternative<InitZeros>(t.init)) x["init"] = "zeros";
    else if (auto* f = std::get_if<InitFull>(&t.init)) x["init"] = {{"full", number_json(f->value)}};
    else if (auto* v = std::get_if<InitValues>(&t.init)) {
      json vals = json::array();
      for (const Number& n : v->values) vals.push_back(number_json(n));
      x["init"] = {{"values", vals}};
    }
    if (t.range) x["range"] = {number_json(t.range->lo), number_json(t.range->hi)};
    j["tensors"].push_back(std::move(x));
  }
  j["tensor_maps"] = json::array();
  for (const TensorMap& m : inst.tensor_maps) {
    std::string swizzle = m.swizzle_bytes ? std::to_string(m.swizzle_bytes) + "B" : "none";
    j["tensor_maps"].push_back({{"name", m.name}, {"tensor", m.tensor}, {"box", m.box}, {"swizzle", swizzle}});
  }
  for (const char* key : {"a", "b"}) {
    const Program& p = *key == 'a' ? inst.a : inst.b;
    json launches = json::array();
    for (const Launch& l : p.launches) {
      json x{{"ptx", std::filesystem::absolute(l.ptx).lexically_normal().string()}, {"entry", l.entry}, {"grid", l.grid}, {"block", l.block}, {"shared_bytes", l.shared_bytes}};
      if (l.cluster) x["cluster"] = *l.cluster;
      x["ptx_text"] = read_text(l.ptx);
      json types = json::array();
      try {
        ptx::ParsedModule m = ptx::parse_ptx(SourceText(l.ptx, x["ptx_text"].get<std::string>()));
        if (const ptx::Function* fn = m.module.find_entry(l.entry))
          for (const auto& p : fn->params) types.push_back(ptx::type_name(p.type));
      } catch (const Error&) {
        // A module that does not parse never produced a witness; leave the types out.
      }
      x["param_types"] = types;
      json args = json::array();
      for (const Arg& a : l.args) {
        if (auto* r = std::get_if<TensorRef>(&a.value))
          args.push_back({{"tensor", r->tensor}, {"access", access_name(r->access)}, {"offset", r->offset}});
        else if (auto* s = std::get_if<Scalar>(&a.value)) {
          json sc = s->tensor.empty() ? json{{"scalar", number_json(s->number)}} : json{{"scalar_tensor", s->tensor}};
          if (s->type) sc["type"] = scalar_type_name(*s->type);
          args.push_back(std::move(sc));
        } else if (auto* m = std::get_if<TensorMapRef>(&a.value))
          args.push_back({{"tensor_map", m->map}});
        else
          args.push_back({{"null", true}});
      }
      x["args"] = std::move(args);
      launches.push_back(std::move(x));
    }
    j[key] = std::move(launches);
  }
  if (inst.b.reference) j["reference"] = reference_to_json(*inst.b.reference, inst);
  return j;
}

}  // namespace racer::instance
