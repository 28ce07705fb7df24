#include "contract/run_impl.hpp"

#include <cmath>
#include <filesystem>
#include <random>

#include "check/execution.hpp"
#include "exec/concrete_domain.hpp"
#include "exec/exact_float.hpp"
#include "exec/ieee.hpp"
#include "exec/machine.hpp"
#include "exec/refusal.hpp"
#include "expr/eval.hpp"
#include "expr/substitute.hpp"
#include "frontend/nvcc.hpp"
#include "frontend/triton.hpp"
#include "sem/semantics.hpp"
#include "support/content_hash.hpp"
#include "support/error.hpp"
#include "support/source_text.hpp"

namespace racer::contract {
namespace {

int64_t as_int(const Quantity& q, const Env& env, const char* what) {
  EvalResult r = evaluate(q, env);
  if (r.error) throw Error(ExitCode::BadInput, std::string(what) + ": " + r.error->message);
  if (r.value != std::floor(r.value) || r.value < 0) throw Error(ExitCode::BadInput, std::string(what) + " is not a non-negative integer");
  return static_cast<int64_t>(r.value);
}

instance::Number number_of(double v) {
  if (v == std::floor(v) && std::fabs(v) < 9e15) return instance::Number::from_int(static_cast<int64_t>(v));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  instance::Number n;
  n.text = buf;
  n.value = v;
  return n;
}

// A Triton launch's kernel, compiled for the types of the launch's arguments: a tensor as a
// pointer to its element type, a number as i32 when integral, else fp32.
frontend::CompiledTriton compile_triton_launch(const Contract& c, const Impl& impl, const LaunchDecl& l, const Env& env,
                                               const std::string& file) {
  frontend::TritonSource src;
  src.file = file;
  src.kernel = l.entry.text;
  if (impl.warps) src.num_warps = static_cast<int>(as_int(*impl.warps, env, "the number of warps"));
  if (impl.stages) src.num_stages = static_cast<int>(as_int(*impl.stages, env, "the number of stages"));
  auto number_text = [](double v) {
    return v == std::floor(v) && std::fabs(v) < 9.0e15 ? std::to_string(static_cast<int64_t>(v)) : number_of(v).text;
  };
  for (const auto& [name, q] : impl.constexprs) {
    EvalResult r = evaluate(q, env);
    if (r.error) throw Error(ExitCode::BadInput, "constexpr " + name.text + ": " + r.error->message);
    src.constexprs.emplace_back(name.text, number_text(r.value));
  }
  for (const Arg& a : l.args) {
    if (a.is_tensor && c.find_tensor(a.tensor.text)) {
      src.signature.push_back("*" + frontend::triton_type(c.find_tensor(a.tensor.text)->dtype.text));
      continue;
    }
    double v = 0;
    if (a.is_tensor) {
      auto it = env.find(a.tensor.text);
      if (it == env.end()) throw Error(ExitCode::BadInput, "unknown argument '" + a.tensor.text + "'");
      v = it->second;
    } else {
      EvalResult r = evaluate(a.value, env);
      if (r.error) throw Error(ExitCode::BadInput, "an argument: " + r.error->message);
      v = r.value;
    }
    bool integral = v == std::floor(v) && std::fabs(v) < 2147483648.0;
    src.signature.push_back(integral ? "i32" : "fp32");
  }
  return frontend::compile_triton(src);
}

}  // namespace

ptx::Type tensor_elem(const TensorDecl& t) {
  auto d = instance::parse_dtype(t.dtype.text);
  if (!d) throw Error(ExitCode::BadInput, "unknown element type '" + t.dtype.text + "'");
  return check::element_type(*d);
}

double bits_to_double(ptx::Type t, uint64_t bits) {
  using F = ieee::Format;
  switch (t) {
    case ptx::Type::F16: return ieee::to_double(F::F16, bits);
    case ptx::Type::BF16: return ieee::to_double(F::BF16, bits);
    case ptx::Type::F32: return ieee::to_double(F::F32, bits);
    case ptx::Type::F64: return ieee::to_double(F::F64, bits);
    case ptx::Type::E4M3: return ieee::to_double(F::E4M3, bits);
    case ptx::Type::E5M2: return ieee::to_double(F::E5M2, bits);
    default: {
      unsigned w = ptx::type_bits(t);
      if (ptx::type_class(t) == ptx::TypeClass::Signed) return static_cast<double>(static_cast<int64_t>(bits << (64 - w)) >> (64 - w));
      return static_cast<double>(bits);
    }
  }
}

std::string implementation_ptx(const Impl& impl, const std::string& base_dir) {
  if (impl.ptx) return (std::filesystem::path(base_dir) / impl.ptx->text).string();
  // Triton: its launches compile kernels of one Python file for their own argument types;
  // that file is what determines the PTX.
  if (impl.triton) return (std::filesystem::path(base_dir) / impl.triton->text).string();
  if (!impl.cuda) throw Error(ExitCode::BadInput, "implementation '" + impl.name.text + "' has no ptx, cuda or triton file");
  // CUDA C++: the project's front end (nvcc, cached by content).
  std::filesystem::path file = std::filesystem::path(base_dir) / impl.cuda->text;
  frontend::CudaSource src;
  src.text = SourceText::load(file.string()).text();
  src.name = file.string();
  src.include_dirs.push_back(file.parent_path().string());
  return frontend::compile_cuda(src, default_cache_dir()).path;
}

instance::Instance make_instance(const Contract& c, const Impl& impl, const Env& env, const std::string& base_dir) {
  instance::Instance inst;
  inst.name = c.id.text + " / " + impl.name.text;
  for (const TensorDecl& t : c.tensors) {
    instance::Tensor x;
    x.name = t.name.text;
    for (const Quantity& q : t.shape) x.shape.push_back(as_int(q, env, "a shape dimension"));
    x.dtype = *instance::parse_dtype(t.dtype.text);
    x.strides = instance::Tensor::row_major_strides(x.shape);
    if (t.role.text == "input") x.init = instance::InitInput{};
    else if (t.role.text == "output") x.init = instance::InitZeros{};  // as a harness memsets it
    else x.init = instance::InitEmpty{};
    if (t.role.text == "output") inst.outputs.push_back(x.name);
    inst.tensors.push_back(std::move(x));
  }
  std::string ptx = implementation_ptx(impl, base_dir);
  for (const LaunchDecl& l : impl.launches) {
    instance::Launch L;
    L.ptx = ptx;
    L.entry = l.entry.text;
    uint32_t null_args = 0;
    if (impl.triton) {
      frontend::CompiledTriton k = compile_triton_launch(c, impl, l, env, ptx);
      L.ptx = k.ptx_path;
      L.entry = k.entry;
      null_args = k.extra_null_params;
    }
    for (size_t i = 0; i < l.grid.size() && i < 3; ++i) L.grid[i] = static_cast<uint32_t>(as_int(l.grid[i], env, "a grid dimension"));
    for (size_t i = 0; i < l.block.size() && i < 3; ++i) L.block[i] = static_cast<uint32_t>(as_int(l.block[i], env, "a block dimension"));
    if (l.shared) L.shared_bytes = static_cast<uint32_t>(as_int(*l.shared, env, "the shared memory"));
    for (const Arg& a : l.args) {
      instance::Arg A;
      if (a.is_tensor && c.find_tensor(a.tensor.text)) {
        const TensorDecl* t = c.find_tensor(a.tensor.text);
        A.value = instance::TensorRef{t->name.text, t->role.text == "input" ? instance::Access::Read : instance::Access::ReadWrite, 0};
      } else if (a.is_tensor) {
        auto it = env.find(a.tensor.text);
        if (it == env.end()) throw Error(ExitCode::BadInput, "unknown argument '" + a.tensor.text + "'");
        A.value = instance::Scalar{number_of(it->second), std::nullopt};
      } else {
        EvalResult r = evaluate(a.value, env);
        if (r.error) throw Error(ExitCode::BadInput, "an argument: " + r.error->message);
        A.value = instance::Scalar{number_of(r.value), std::nullopt};
      }
      L.args.push_back(std::move(A));
    }
    for (uint32_t k = 0; k < null_args; ++k) L.args.push_back(instance::Arg{instance::Null{}, {}});
    inst.a.launches.push_back(std::move(L));
  }
  inst.b = inst.a;
  inst.source_path = base_dir;
  return inst;
}

CpuRun::CpuRun(const Contract& c, const Impl& impl, const Env& env, const std::string& base_dir)
    : inst_(std::make_unique<instance::Instance>(make_instance(c, impl, env, base_dir))),
      prep_(std::make_unique<check::Prepared>(*inst_)) {}
CpuRun::~CpuRun() = default;

RunOutput CpuRun::run(const TensorBits& inputs, uint64_t order_seed) const {
  RunOutput out;
  std::vector<exec::TensorSpec> tensors = prep_->tensors();
  for (exec::TensorSpec& s : tensors) {
    if (s.init != exec::TensorInit::Input) continue;
    s.init = exec::TensorInit::Bytes;
    s.bytes.assign(s.storage_elements * s.elem_bytes(), 0);
    auto it = inputs.find(s.name);
    if (it == inputs.end()) continue;
    auto map = s.storage_to_cell();
    for (size_t e = 0; e < map.size(); ++e) {
      if (map[e] < 0 || static_cast<size_t>(map[e]) >= it->second.size()) continue;
      uint64_t bits = it->second[static_cast<size_t>(map[e])];
      for (unsigned k = 0; k < s.elem_bytes(); ++k) s.bytes[e * s.elem_bytes() + k] = static_cast<uint8_t>(bits >> (8 * k));
    }
  }
  exec::Session session;
  exec::ConcreteDomain dom;
  exec::Machine m(session, 'a', tensors, dom, sem::semantics());
  // Memory a kernel reads outside what it was given holds a recognizable pattern, not zeros:
  // a zero would pass for the ZERO out-of-bounds policy.
  m.set_concrete_unknowns([](const std::string&, unsigned size, bool) -> uint64_t { return size >= 8 ? 0x7FF4DEADBEEF0000ull : size == 4 ? 0x7FA0BAD0u : 0x7D0Bu; });
  if (order_seed) {
    auto rng = std::make_shared<std::mt19937_64>(order_seed);
    m.set_atomic_order([rng](std::vector<exec::Value>& ops) { std::shuffle(ops.begin(), ops.end(), *rng); });
  }
  try {
    std::vector<uint64_t> bases;
    for (size_t t = 0; t < tensors.size(); ++t) bases.push_back(m.tensor_base(t));
    const check::PreparedProgram& p = prep_->program('a');
    for (size_t li = 0; li < p.launches.size(); ++li) {
      exec::LaunchSpec spec = p.launches[li];
      spec.params = prep_->params('a', li, bases);
      m.launch(spec);
    }
  } catch (const exec::Refusal& r) {
    out.refusal = r.what();
  } catch (const exec::LimitReached& r) {
    out.refusal = r.what();
  }
  out.defects = m.defects();
  if (!out.refusal.empty()) return out;
  for (size_t t : prep_->output_tensors()) {
    const exec::TensorSpec& s = tensors[t];
    auto& cells = out.outputs[s.name];
    for (uint64_t c = 0; c < s.cell_count(); ++c) cells.push_back(m.cell(t, static_cast<int64_t>(c)).bits);
  }
  return out;
}

struct ExactOracle::State {
  std::unique_ptr<instance::Instance> inst;
  std::unique_ptr<check::Execution> ex;
};

ExactOracle::ExactOracle(const Contract& c, const Impl& impl, const Env& env, const std::string& base_dir) : s_(std::make_unique<State>()) {
  s_->inst = std::make_unique<instance::Instance>(make_instance(c, impl, env, base_dir));
  exec::Limits limits;
  limits.max_seconds = 120;
  s_->ex = std::make_unique<check::Execution>(*s_->inst, limits);
  bool refused = false;
  failure_ = s_->ex->run(refused);
}
ExactOracle::~ExactOracle() = default;

namespace {
std::optional<size_t> tensor_index(const check::Prepared& prep, const std::string& name) {
  for (size_t i = 0; i < prep.tensors().size(); ++i)
    if (prep.tensors()[i].name == name) return i;
  return std::nullopt;
}
}  // namespace

std::vector<std::optional<mpq_class>> ExactOracle::evaluate(const std::string& tensor, const TensorBits& inputs) const {
  std::vector<std::optional<mpq_class>> out;
  if (!failure_.empty()) return out;
  const check::Prepared& prep = s_->ex->prep();
  auto ti = tensor_index(prep, tensor);
  if (!ti) return out;
  expr::Assignment at;
  bool all_finite = true;
  for (expr::ExprId sym : s_->ex->session().symbols()) {
    const exec::SymbolOrigin origin = *s_->ex->session().origin(sym);
    mpq_class v = 0;
    if (origin.kind == exec::SymbolOrigin::Kind::InputCell && origin.tensor >= 0) {
      const exec::TensorSpec& spec = prep.tensors()[static_cast<size_t>(origin.tensor)];
      auto it = inputs.find(spec.name);
      uint64_t bits = it != inputs.end() && origin.cell >= 0 && static_cast<size_t>(origin.cell) < it->second.size() ? it->second[static_cast<size_t>(origin.cell)] : 0;
      if (ptx::is_float(spec.elem)) {
        exec::ExactFloat f = exec::decode_float(spec.elem, bits);
        if (f.kind != exec::ExactFloat::Kind::Finite) {
          all_finite = false;
          continue;  // cells depending on it stay unevaluated
        }
        v = f.value;
      } else {
        v = mpq_class(exec::exact_integer(bits, ptx::type_bits(spec.elem), ptx::type_class(spec.elem) == ptx::TypeClass::Signed));
      }
    }
    at.set(sym, v);
  }
  const exec::TensorSpec& spec = prep.tensors()[*ti];
  expr::Store& st = s_->ex->store();
  for (uint64_t c = 0; c < spec.cell_count(); ++c) {
    expr::ExprId e = s_->ex->cell('a', *ti, static_cast<int64_t>(c));
    if (!all_finite) {
      bool missing = false;
      for (expr::ExprId sym : expr::free_symbols(st, e)) missing |= !at.contains(sym);
      if (missing) {
        out.push_back(std::nullopt);
        continue;
      }
    }
    out.push_back(expr::eval_exact(st, e, at));
  }
  return out;
}

std::vector<std::vector<std::pair<std::string, int64_t>>> ExactOracle::dependencies(const std::string& tensor) const {
  std::vector<std::vector<std::pair<std::string, int64_t>>> out;
  if (!failure_.empty()) return out;
  const check::Prepared& prep = s_->ex->prep();
  auto ti = tensor_index(prep, tensor);
  if (!ti) return out;
  const exec::TensorSpec& spec = prep.tensors()[*ti];
  for (uint64_t c = 0; c < spec.cell_count(); ++c) {
    std::vector<std::pair<std::string, int64_t>> deps;
    for (expr::ExprId sym : expr::free_symbols(s_->ex->store(), s_->ex->cell('a', *ti, static_cast<int64_t>(c)))) {
      std::optional<exec::SymbolOrigin> o = s_->ex->session().origin(sym);
      if (o && o->kind == exec::SymbolOrigin::Kind::InputCell && o->tensor >= 0)
        deps.emplace_back(prep.tensors()[static_cast<size_t>(o->tensor)].name, o->cell);
    }
    out.push_back(std::move(deps));
  }
  return out;
}

}  // namespace racer::contract
