#include "check/concrete_run.hpp"

#include <algorithm>
#include <cmath>
#include <malloc.h>
#include <map>
#include <memory>
#include <thread>

#include "check/float_model.hpp"
#include "check/reference_eval.hpp"
#include "exec/concrete_domain.hpp"
#include "exec/exact_float.hpp"
#include "exec/ieee.hpp"
#include "exec/machine.hpp"
#include "exec/refusal.hpp"
#include "sem/semantics.hpp"
#include "support/error.hpp"

namespace racer::check {
namespace {

}  // namespace

uint64_t cell_bits(ptx::Type t, const mpq_class& v) {
  if (ptx::is_float(t)) {
    if (auto b = exec::encode_exact(t, v)) return *b;
    if (auto b = exec::encode_rounded(t, v)) return *b;
    throw Error(ExitCode::BadInput, "witness value " + v.get_str() + " does not fit ." + std::string(ptx::type_name(t)));
  }
  if (v.get_den() != 1) throw Error(ExitCode::BadInput, "witness value " + v.get_str() + " for an integer tensor is not an integer");
  mpz_class z = v.get_num();
  if (z < 0) z += mpz_class(1) << 64;
  return std::stoull(z.get_str());
}

uint64_t cell_bits(ptx::Type t, double v) {
  if (v == 0) v = 0;  // (a rational has no -0: zero is +0, as encode_exact gives it)
  if (ptx::is_float(t) && t != ptx::Type::TF32) {
    if (auto f = float_format(t)) {
      uint64_t bits = ieee::from_double(*f, v);
      if (ieee::to_double(*f, bits) == v) return bits;  // (exact, as encode_exact would give)
    }
  } else if (!ptx::is_float(t) && std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 0x1p63) {
    return static_cast<uint64_t>(static_cast<int64_t>(v));  // (two's complement, as the rational one)
  }
  return cell_bits(t, mpq_class(v));
}

ConcreteInputs concrete_inputs(const Prepared& prep, const std::vector<WitnessValue>& values) {
  ConcreteInputs in;
  const std::vector<exec::TensorSpec>& tensors = prep.tensors();
  in.cells.resize(tensors.size());
  // Each cell's last value, encoded once all are known (a value later replaced is not encoded).
  std::vector<std::vector<const mpq_class*>> given(tensors.size());
  for (const WitnessValue& w : values) {
    if (w.kind == "input" && w.tensor >= 0 && static_cast<size_t>(w.tensor) < tensors.size() && w.cell >= 0) {
      const exec::TensorSpec& s = tensors[static_cast<size_t>(w.tensor)];
      auto& of_tensor = given[static_cast<size_t>(w.tensor)];
      if (s.init != exec::TensorInit::Input) continue;
      if (of_tensor.empty()) of_tensor.assign(s.cell_count(), nullptr);
      if (static_cast<uint64_t>(w.cell) < of_tensor.size()) of_tensor[static_cast<size_t>(w.cell)] = &w.value;
    } else {
      in.unknowns[w.name] = w.value;
    }
  }
  for (size_t t = 0; t < tensors.size(); ++t) {
    if (given[t].empty()) continue;
    in.cells[t].assign(given[t].size(), 0);
    for (size_t c = 0; c < given[t].size(); ++c)
      if (given[t][c]) in.cells[t][c] = cell_bits(tensors[t].elem, *given[t][c]);
  }
  return in;
}

ConcreteRun run_concrete(const Prepared& prep, const std::vector<WitnessValue>& values, Defects defects) {
  return run_concrete(prep, concrete_inputs(prep, values), defects);
}

double cell_value(ptx::Type t, uint64_t bits) {
  switch (t) {
    case ptx::Type::F16: return ieee::to_double(ieee::Format::F16, bits);
    case ptx::Type::BF16: return ieee::to_double(ieee::Format::BF16, bits);
    case ptx::Type::F32: return ieee::to_double(ieee::Format::F32, bits);
    case ptx::Type::F64: return ieee::to_double(ieee::Format::F64, bits);
    case ptx::Type::E4M3: return ieee::to_double(ieee::Format::E4M3, bits);
    case ptx::Type::E5M2: return ieee::to_double(ieee::Format::E5M2, bits);
    default: {
      unsigned w = ptx::type_bits(t);
      if (ptx::type_class(t) == ptx::TypeClass::Signed) return static_cast<double>(static_cast<int64_t>(bits << (64 - w)) >> (64 - w));
      return static_cast<double>(bits);
    }
  }
}

namespace {

exec::Limits limits_within(const exec::Session* within) {
  if (!within) return {};
  exec::Limits l = within->limits();
  l.max_seconds = std::max(0.0, l.max_seconds - within->elapsed_seconds());
  return l;
}

ConcreteRun run_both(const Prepared& prep, const ConcreteInputs& inputs, Defects defects, const exec::Session* within, RunThreads threads) {
  ConcreteRun run;
  std::vector<exec::TensorSpec> tensors = prep.tensors();
  // Inputs become concrete bytes: the given values, 0 elsewhere.
  for (size_t t = 0; t < tensors.size(); ++t) {
    exec::TensorSpec& s = tensors[t];
    if (s.init != exec::TensorInit::Input) continue;
    s.init = exec::TensorInit::Bytes;
    s.bytes.assign(s.storage_elements * s.elem_bytes(), 0);
    auto map = s.storage_to_cell();
    const std::vector<uint64_t>* given = t < inputs.cells.size() ? &inputs.cells[t] : nullptr;
    for (size_t e = 0; e < map.size(); ++e) {
      // Storage no cell maps to holds the unknowns' value for it, if they have one.
      uint64_t bits = 0;
      if (map[e] < 0) {
        if (!inputs.names_unknowns()) continue;  // (no name to build for each gap element)
        if (auto u = inputs.unknown(s.unmapped_name(static_cast<int64_t>(e)))) bits = cell_bits(s.elem, *u);
      } else if (given && static_cast<uint64_t>(map[e]) < given->size()) {
        bits = (*given)[static_cast<size_t>(map[e])];
      }
      if (!bits) continue;
      for (unsigned k = 0; k < s.elem_bytes(); ++k) s.bytes[e * s.elem_bytes() + k] = static_cast<uint8_t>(bits >> (8 * k));
    }
  }
  // The programs share nothing in a concrete run (each machine has its session, its domain and
  // its memory), so program b runs on a thread of its own beside a: the emulations of the
  // self-check, the hazard search and replays take half the wall time on two cores.
  struct Side {
    exec::Session session;
    exec::ConcreteDomain dom;
    std::unique_ptr<exec::Machine> machine;
    std::string refusal;
    std::exception_ptr failure;  // anything but a refusal (a limit, an error), rethrown after both ran
    explicit Side(const exec::Limits& l) : session(l) {}
  };
  const exec::Limits limits = limits_within(within);
  Side sides[2] = {Side(limits), Side(limits)};
  if (threads.cancelled)
    for (Side& me : sides)
      me.session.set_poll([flag = threads.cancelled] {
        if (flag->load(std::memory_order_relaxed)) throw exec::LimitReached("cancelled: the check it served ended");
      });
  std::array<uint64_t, 2> placed{};
  auto unknown = [&](const std::string& name, unsigned size, bool integer) -> uint64_t {
    std::optional<mpq_class> v = inputs.unknown(name);
    if (!v) return 0;
    // Integer data: the value's two's complement at the read's width (an unknown value is a
    // small integer of either sign; a witness's may not be, and is then given as floats
    // are); float data: the format of that width.
    ptx::Type t = integer && v->get_den() == 1 ? (size == 1 ? ptx::Type::S8 : size == 2 ? ptx::Type::S16 : size == 8 ? ptx::Type::S64 : ptx::Type::S32)
                          : (size == 2 ? ptx::Type::F16 : size == 8 ? ptx::Type::F64 : ptx::Type::F32);
    for (const auto& spec : tensors)  // an uninitialized tensor cell takes its tensor's type
      if (name.rfind(spec.name + "[", 0) == 0) t = spec.elem;
    return cell_bits(t, *v);
  };
  for (int side = 0; side < 2; ++side) {
    Side& me = sides[side];
    me.machine = std::make_unique<exec::Machine>(me.session, side == 0 ? 'a' : 'b', tensors, me.dom, sem::semantics());
    exec::Machine& m = *me.machine;
    m.set_concrete_unknowns(unknown);
    m.set_race_tracking(defects == Defects::Record);
    auto first_at = [&run, &m, side](std::array<std::optional<exec::Site>, 2>& slots) {
      if (!slots[side]) slots[side] = m.site_now();
    };
    auto event = [&run, &m, &placed, side](const char* kind, ptx::Type t, uint64_t bits) {
      if (placed[side] == ConcreteRun::kEventSites) {
        ++run.events_unplaced[side];
        return;
      }
      ++placed[side];
      auto site = m.site_now();
      if (!site) return;
      auto& events = run.float_events[side];
      for (FloatEvent& e : events)
        if (e.kind == kind && e.site.launch == site->launch && e.site.instr == site->instr) {
          ++e.count;
          return;
        }
      // The opcode after any guard ("@%p1 cvt.rn.f16.f32 ...").
      size_t op = site->text.rfind('@', 0) == 0 ? site->text.find(' ') + 1 : 0;
      bool conversion = site->text.compare(op, 4, "cvt.") == 0;
      events.push_back(FloatEvent{kind, std::move(*site), t, bits, 1, conversion});
    };
    me.dom.on_nonfinite = [first_at, event, &run](ptx::Type t, uint64_t bits) {
      first_at(run.first_nonfinite);
      event(std::isnan(cell_value(t, bits)) ? "nan" : "overflow", t, bits);
    };
    me.dom.on_underflow = [first_at, event, &run](ptx::Type t, uint64_t bits) {
      first_at(run.first_underflow);
      event("underflow", t, bits);
    };
  }
  auto emulate = [&](int side) {
    Side& me = sides[side];
    const char which = side == 0 ? 'a' : 'b';
    try {
      std::vector<uint64_t> bases;
      for (size_t t = 0; t < tensors.size(); ++t) bases.push_back(me.machine->tensor_base(t));
      const PreparedProgram& p = prep.program(which);
      for (size_t li = 0; li < p.launches.size(); ++li) {
        exec::LaunchSpec spec = p.launches[li];
        spec.params = prep.params(which, li, bases);
        me.machine->launch(spec);
      }
    } catch (const exec::Refusal& r) {
      me.refusal = r.what();
    } catch (...) {
      me.failure = std::current_exception();
    }
  };
  if (!threads.one_thread && std::thread::hardware_concurrency() > 1) {
    std::thread b(emulate, 1);
    emulate(0);
    b.join();
  } else {
    emulate(0);
    emulate(1);
  }
  // As if b ran after a: a's refusal or failure is the one told, and b's only when a ran through.
  for (const Side& me : sides) {
    if (me.failure) std::rethrow_exception(me.failure);
    if (!me.refusal.empty()) {
      run.refusal = me.refusal;
      break;
    }
  }
  exec::Machine& ma = *sides[0].machine;
  exec::Machine& mb = *sides[1].machine;
  run.defects = ma.defects();
  for (const auto& d : mb.defects()) run.defects.push_back(d);
  if (!run.refusal.empty()) return run;
  for (char which : {'a', 'b'}) {
    exec::Machine& m = which == 'a' ? ma : mb;
    auto& outs = run.outputs[which == 'a' ? 0 : 1];
    if (which == 'b' && prep.inst().b.reference) {
      // A reference side "runs" as its exact value at the point, rounded once (reference_eval).
      outs = evaluate_reference(*prep.inst().b.reference, tensors, prep.output_tensors());
      continue;
    }
    for (size_t t : prep.output_tensors()) {
      std::vector<uint64_t> bits;
      for (uint64_t c = 0; c < tensors[t].cell_count(); ++c) bits.push_back(m.cell(t, static_cast<int64_t>(c)).bits);
      outs.push_back(std::move(bits));
    }
  }
  return run;
}

}  // namespace

ConcreteRun run_concrete(const Prepared& prep, const ConcreteInputs& inputs, Defects defects, const exec::Session* within, RunThreads threads) {
  ConcreteRun run = run_both(prep, inputs, defects, within, threads);
  // Program b's machine was filled on a thread of its own, in that thread's malloc arena, which
  // the rest of the check does not reuse: give back what it freed.
  if (!threads.one_thread) malloc_trim(0);
  return run;
}

}  // namespace racer::check
