#include "check/prepare.hpp"

#include "exec/exact_float.hpp"
#include "exec/params.hpp"
#include "ptx/inline_calls.hpp"
#include "support/error.hpp"

namespace racer::check {
namespace {

using instance::DType;

void error_at(Diagnostics& d, const instance::Instance& inst, const instance::SourceLoc& at, const std::string& msg) {
  instance::report(d, inst, at, msg);
}

bool is_pointer_sized(ptx::Type t) { return ptx::type_bits(t) == 64 && t != ptx::Type::F64; }

// The bytes of one scalar value of type t from its decimal text, or an error message.
std::string encode_scalar(ptx::Type t, const instance::Number& n, std::vector<uint8_t>& out) {
  unsigned bytes = ptx::type_bits(t) / 8;
  uint64_t bits = 0;
  if (ptx::is_float(t)) {
    if (n.text == "inf" || n.text == "-inf") {
      // All exponent bits set and a zero mantissa, where the format has infinities.
      uint64_t inf = t == ptx::Type::F32 ? 0x7F800000 : t == ptx::Type::F64 ? 0x7FF0000000000000ull
                     : t == ptx::Type::F16 ? 0x7C00 : t == ptx::Type::BF16 ? 0x7F80 : 0;
      if (!inf) return "infinity is not representable in ." + std::string(ptx::type_name(t));
      bits = inf | (n.text[0] == '-' ? uint64_t{1} << (ptx::type_bits(t) - 1) : 0);
    } else {
      auto q = exec::rational_from_decimal(n.text);
      if (!q) return "'" + n.text + "' is not a number";
      auto b = exec::encode_rounded(t, *q);
      if (!b) return n.text + " overflows ." + std::string(ptx::type_name(t));
      bits = *b;
    }
  } else {
    if (!n.is_integer) return "'" + n.text + "' is not an integer, but the type is ." + std::string(ptx::type_name(t));
    bits = static_cast<uint64_t>(n.integer);
    unsigned w = ptx::type_bits(t);
    if (w < 64) {
      // Unsigned parameters take negative numbers as two's complement (FORMAT.md).
      int64_t lo = -(int64_t{1} << (w - 1));
      int64_t hi = ptx::type_class(t) == ptx::TypeClass::Signed ? (int64_t{1} << (w - 1)) - 1 : (int64_t{1} << w) - 1;
      if (n.integer < lo || n.integer > hi) return n.text + " does not fit ." + std::string(ptx::type_name(t));
    }
  }
  for (unsigned k = 0; k < bytes; ++k) out.push_back(static_cast<uint8_t>(bits >> (8 * k)));
  return {};
}

ptx::Type scalar_ptx_type(instance::ScalarType s) {
  using S = instance::ScalarType;
  switch (s) {
    case S::F64: return ptx::Type::F64;
    case S::F32: return ptx::Type::F32;
    case S::F16: return ptx::Type::F16;
    case S::BF16: return ptx::Type::BF16;
    case S::I64: return ptx::Type::S64;
    case S::I32: return ptx::Type::S32;
    case S::I16: return ptx::Type::S16;
    case S::I8: return ptx::Type::S8;
    case S::U64: return ptx::Type::U64;
    case S::U32: return ptx::Type::U32;
    case S::U16: return ptx::Type::U16;
    case S::U8: return ptx::Type::U8;
  }
  return ptx::Type::None;
}

}  // namespace

ptx::Type element_type(DType d) {
  switch (d) {
    case DType::F64: return ptx::Type::F64;
    case DType::F32: return ptx::Type::F32;
    case DType::F16: return ptx::Type::F16;
    case DType::BF16: return ptx::Type::BF16;
    case DType::FP8E4M3: return ptx::Type::E4M3;
    case DType::FP8E5M2: return ptx::Type::E5M2;
    case DType::I64: return ptx::Type::S64;
    case DType::I32: return ptx::Type::S32;
    case DType::I16: return ptx::Type::S16;
    case DType::I8: return ptx::Type::S8;
    case DType::U8: return ptx::Type::U8;
    case DType::Bool: return ptx::Type::U8;
  }
  return ptx::Type::None;
}

Prepared::Prepared(const instance::Instance& inst) : inst_(inst) {
  for (const instance::Tensor& t : inst.tensors) {
    exec::TensorSpec s;
    s.name = t.name;
    s.shape = t.shape;
    s.strides = t.strides;
    s.elem = element_type(t.dtype);
    s.storage_elements = static_cast<uint64_t>(t.storage_elements());
    if (std::holds_alternative<instance::InitInput>(t.init)) {
      s.init = exec::TensorInit::Input;
      if (t.range) {
        auto lo = exec::rational_from_decimal(t.range->lo.text), hi = exec::rational_from_decimal(t.range->hi.text);
        if (!lo || !hi) error_at(diags_, inst, t.loc, "range of " + t.name + " must be two finite numbers");
        else s.range = expr::Range{*lo, *hi};
      }
    } else if (std::holds_alternative<instance::InitEmpty>(t.init)) {
      s.init = exec::TensorInit::Empty;
    } else {
      s.init = exec::TensorInit::Bytes;
      s.bytes.assign(s.storage_elements * s.elem_bytes(), 0);
      std::vector<instance::Number> cells;
      if (auto* f = std::get_if<instance::InitFull>(&t.init)) cells.assign(static_cast<size_t>(t.cell_count()), f->value);
      if (auto* v = std::get_if<instance::InitValues>(&t.init)) cells = v->values;
      auto map = s.storage_to_cell();
      for (size_t e = 0; e < map.size(); ++e) {
        if (map[e] < 0 || static_cast<size_t>(map[e]) >= cells.size()) continue;
        std::vector<uint8_t> bytes;
        std::string err = encode_scalar(s.elem, cells[static_cast<size_t>(map[e])], bytes);
        if (!err.empty()) {
          error_at(diags_, inst, t.loc, "tensor " + t.name + ": " + err);
          break;
        }
        std::copy(bytes.begin(), bytes.end(), s.bytes.begin() + static_cast<long>(e * s.elem_bytes()));
      }
    }
    tensors_.push_back(std::move(s));
  }
  a_ = prepare(inst.a, 'a');
  b_ = prepare(inst.b, 'b');
  // A TOML reference is traced by the front end (frontend/reference_trace) before checking.
  if (!inst.b.reference_spec.empty() && !inst.b.reference)
    error_at(diags_, inst, inst.b.reference_loc, "program b's reference " + inst.b.reference_spec + " was not traced");
  diags_.throw_if_any();
}

const ptx::ParsedModule& Prepared::module(const std::string& path, const instance::SourceLoc& at) {
  auto it = modules_.find(path);
  if (it != modules_.end()) return *it->second;
  try {
    auto parsed = std::make_unique<ptx::ParsedModule>(ptx::parse_ptx_file(path));
    ptx::inline_calls(parsed->module, parsed->map);  // .func calls run inlined (ptx/inline_calls.hpp)
    return *modules_.emplace(path, std::move(parsed)).first->second;
  } catch (const Error& e) {
    error_at(diags_, inst_, at, "cannot use PTX file " + path + ":\n" + e.what());
    throw;
  }
}

PreparedProgram Prepared::prepare(const instance::Program& p, char which) {
  PreparedProgram out;
  for (size_t li = 0; li < p.launches.size(); ++li) {
    const instance::Launch& l = p.launches[li];
    const ptx::ParsedModule* pm = nullptr;
    try {
      pm = &module(l.ptx, l.ptx_loc);
    } catch (const Error&) {
      continue;
    }
    const ptx::Function* fn = pm->module.find_entry(l.entry);
    if (!fn) {
      std::string known;
      for (const auto& f : pm->module.functions)
        if (f.is_entry) known += (known.empty() ? "" : ", ") + f.name;
      error_at(diags_, inst_, l.entry_loc, "no entry '" + l.entry + "' in " + l.ptx + " (entries: " + known + ")");
      continue;
    }
    if (fn->params.size() != l.args.size()) {
      error_at(diags_, inst_, l.args_loc,
               "entry '" + l.entry + "' has " + std::to_string(fn->params.size()) + " parameters but " +
                   std::to_string(l.args.size()) + " arguments are given");
      continue;
    }
    exec::LaunchSpec spec;
    spec.module = &pm->module;
    spec.source_map = &pm->map;
    spec.function = static_cast<uint32_t>(fn - pm->module.functions.data());
    spec.grid = {l.grid[0], l.grid[1], l.grid[2]};
    spec.block = {l.block[0], l.block[1], l.block[2]};
    spec.dynamic_shared_bytes = l.shared_bytes;
    spec.label = std::string("launch ") + std::to_string(li) + " (" + l.entry + ")";
    // Clusters: the launch's shape, else the entry's .reqnctapercluster (a compile-time shape);
    // .explicitcluster entries need one.
    std::array<uint32_t, 3> req_cluster = fn->reqnctapercluster;
    if (req_cluster[0]) {
      for (uint32_t& d : req_cluster) d = d ? d : 1;
      auto dims = [](const std::array<uint32_t, 3>& d) {
        return "(" + std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]) + ")";
      };
      if (l.cluster && *l.cluster != req_cluster)
        error_at(diags_, inst_, l.cluster_loc.line ? l.cluster_loc : l.loc,
                 "entry '" + l.entry + "' requires clusters of " + dims(req_cluster) + " CTAs (.reqnctapercluster), the launch declares " +
                     dims(*l.cluster));
      else if (std::string p = instance::cluster_problem(req_cluster, l.grid); !l.cluster && !p.empty())
        error_at(diags_, inst_, l.loc, "entry '" + l.entry + "' has .reqnctapercluster " + dims(req_cluster) + ": " + p);
    }
    if (fn->explicitcluster && !l.cluster && !req_cluster[0])
      error_at(diags_, inst_, l.loc, "entry '" + l.entry + "' is .explicitcluster: the launch must declare a cluster shape");
    if (l.cluster || req_cluster[0]) {
      const std::array<uint32_t, 3>& c = l.cluster ? *l.cluster : req_cluster;
      spec.clustered = true;
      spec.cluster = {c[0], c[1], c[2]};
    }
    if (uint32_t req = fn->thread_count_required(); req && req != spec.block.count())
      error_at(diags_, inst_, l.loc,
               "entry '" + l.entry + "' requires " + std::to_string(req) + " threads per block (.reqntid), the launch has " +
                   std::to_string(spec.block.count()));
    spec.access.assign(inst_.tensors.size(), exec::TensorAccess::None);
    for (size_t k = 0; k < l.args.size(); ++k) {
      const instance::Arg& arg = l.args[k];
      const ptx::Variable& param = fn->params[k];
      std::string pname = "parameter " + std::to_string(k) + " (" + param.name + ": ." + std::string(ptx::type_name(param.type)) + ")";
      if (auto* ref = std::get_if<instance::TensorRef>(&arg.value)) {
        if (!is_pointer_sized(param.type)) error_at(diags_, inst_, arg.loc, "tensor " + ref->tensor + " passed to " + pname + ", which is not a 64-bit pointer");
        for (size_t ti = 0; ti < inst_.tensors.size(); ++ti) {
          if (inst_.tensors[ti].name != ref->tensor) continue;
          exec::TensorAccess want = ref->access == instance::Access::Read    ? exec::TensorAccess::Read
                                    : ref->access == instance::Access::Write ? exec::TensorAccess::Write
                                                                             : exec::TensorAccess::ReadWrite;
          exec::TensorAccess& have = spec.access[ti];
          if (have == exec::TensorAccess::None) have = want;
          else if (have != want) have = exec::TensorAccess::ReadWrite;
        }
      } else if (auto* sc = std::get_if<instance::Scalar>(&arg.value); sc && !sc->tensor.empty()) {
        symbolic_scalar(spec, *fn, k, *sc, arg.loc, pname);
      } else if (auto* sc = std::get_if<instance::Scalar>(&arg.value)) {
        ptx::Type t = sc->type ? scalar_ptx_type(*sc->type) : param.type;
        if (ptx::type_bits(t) != ptx::type_bits(param.type))
          error_at(diags_, inst_, arg.loc, "a ." + std::string(ptx::type_name(t)) + " scalar passed to " + pname + " of another width");
        std::vector<uint8_t> bytes;
        std::string err = encode_scalar(t, sc->number, bytes);
        if (!err.empty()) error_at(diags_, inst_, arg.loc, pname + ": " + err);
      } else if (auto* tm = std::get_if<instance::TensorMapRef>(&arg.value)) {
        if (param.size_bytes() != 128)
          error_at(diags_, inst_, arg.loc, "tensor map " + tm->map + " passed to " + pname + ", which is not a 128-byte .param (a CUtensorMap)");
        exec::TensorMapSpec ms;
        ms.param_offset = exec::param_layout(*fn)[k].offset;
        for (const instance::TensorMap& m : inst_.tensor_maps) {
          if (m.name != tm->map) continue;
          ms.box = m.box;
          ms.swizzle_bytes = m.swizzle_bytes;
          for (size_t ti = 0; ti < inst_.tensors.size(); ++ti)
            if (inst_.tensors[ti].name == m.tensor) {
              ms.tensor = ti;
              exec::TensorAccess& have = spec.access[ti];
              if (have == exec::TensorAccess::None) have = exec::TensorAccess::Read;
              else if (have == exec::TensorAccess::Write) have = exec::TensorAccess::ReadWrite;
            }
        }
        spec.tensor_maps.push_back(std::move(ms));
      } else if (!is_pointer_sized(param.type)) {
        error_at(diags_, inst_, arg.loc, "null passed to " + pname + ", which is not a 64-bit pointer");
      }
    }
    out.launches.push_back(std::move(spec));
    out.args.push_back(l.args);
  }
  (void)which;
  return out;
}

// A scalar argument whose value is a one-cell input tensor's: checked here; the machine reads
// that cell for the parameter (exec::SymbolicParam), so both programs and every replay see the
// same input.
void Prepared::symbolic_scalar(exec::LaunchSpec& spec, const ptx::Function& fn, size_t k, const instance::Scalar& sc,
                               const instance::SourceLoc& at, const std::string& pname) {
  const ptx::Variable& param = fn.params[k];
  for (size_t ti = 0; ti < inst_.tensors.size(); ++ti) {
    const instance::Tensor& t = inst_.tensors[ti];
    if (t.name != sc.tensor) continue;
    const ptx::Type elem = element_type(t.dtype);
    if (t.cell_count() != 1 || !std::holds_alternative<instance::InitInput>(t.init))
      error_at(diags_, inst_, at, "scalar " + sc.tensor + " passed to " + pname + " must name a tensor of one cell with init = \"input\"");
    else if (ptx::type_bits(elem) != ptx::type_bits(param.type))
      error_at(diags_, inst_, at, "scalar " + sc.tensor + " (." + std::string(ptx::type_name(elem)) + ") passed to " + pname + " of another width");
    else if (sc.type && scalar_ptx_type(*sc.type) != elem)
      error_at(diags_, inst_, at, "scalar " + sc.tensor + " is given as ." + std::string(ptx::type_name(scalar_ptx_type(*sc.type))) +
                                      ", its tensor holds ." + std::string(ptx::type_name(elem)));
    else
      spec.symbolic_params.push_back({exec::param_layout(fn)[k].offset, ptx::type_bits(elem) / 8, ti});
    if (spec.access[ti] == exec::TensorAccess::None) spec.access[ti] = exec::TensorAccess::Read;
    return;
  }
  error_at(diags_, inst_, at, "scalar argument names undeclared tensor '" + sc.tensor + "'");
}

std::vector<uint8_t> Prepared::params(char which, size_t launch, const std::vector<uint64_t>& tensor_base) const {
  const PreparedProgram& p = program(which);
  const exec::LaunchSpec& spec = p.launches[launch];
  const ptx::Function& fn = spec.module->functions[spec.function];
  auto layout = exec::param_layout(fn);
  std::vector<uint8_t> buf(exec::param_buffer_size(fn), 0);
  for (size_t k = 0; k < p.args[launch].size(); ++k) {
    const instance::Arg& arg = p.args[launch][k];
    std::vector<uint8_t> bytes;
    if (auto* ref = std::get_if<instance::TensorRef>(&arg.value)) {
      uint64_t addr = 0;
      for (size_t ti = 0; ti < inst_.tensors.size(); ++ti)
        if (inst_.tensors[ti].name == ref->tensor)
          addr = tensor_base[ti] + static_cast<uint64_t>(ref->offset) * instance::dtype_bytes(inst_.tensors[ti].dtype);
      for (int b = 0; b < 8; ++b) bytes.push_back(static_cast<uint8_t>(addr >> (8 * b)));
    } else if (auto* sc = std::get_if<instance::Scalar>(&arg.value); sc && !sc->tensor.empty()) {
      bytes.clear();  // (a symbolic scalar: the machine reads its tensor's cell, exec/launch.hpp)
    } else if (auto* sc = std::get_if<instance::Scalar>(&arg.value)) {
      ptx::Type t = sc->type ? scalar_ptx_type(*sc->type) : fn.params[k].type;
      encode_scalar(t, sc->number, bytes);
    } else {
      bytes.assign(8, 0);
    }
    for (size_t b = 0; b < bytes.size() && layout[k].offset + b < buf.size(); ++b) buf[layout[k].offset + b] = bytes[b];
  }
  return buf;
}

std::vector<size_t> Prepared::output_tensors() const {
  std::vector<size_t> out;
  for (const std::string& name : inst_.outputs)
    for (size_t i = 0; i < inst_.tensors.size(); ++i)
      if (inst_.tensors[i].name == name) out.push_back(i);
  return out;
}

}  // namespace racer::check
