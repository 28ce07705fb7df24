#include "check/check.hpp"

#include "check/prepare.hpp"
#include "decide/decider.hpp"
#include "exec/machine.hpp"
#include "exec/refusal.hpp"
#include "exec/symbolic_domain.hpp"
#include "expr/print.hpp"
#include "idiom/recognizer.hpp"
#include "sem/semantics.hpp"

namespace racer::check {
namespace {

decide::Grid grid_of(ptx::Type t) {
  using G = decide::Grid;
  switch (t) {
    case ptx::Type::F64: return G::F64;
    case ptx::Type::F32: return G::F32;
    case ptx::Type::F16: return G::F16;
    case ptx::Type::BF16: return G::BF16;
    case ptx::Type::E4M3: return G::E4M3;
    case ptx::Type::E5M2: return G::E5M2;
    default: return ptx::is_integer(t) ? G::Integer : G::Real;
  }
}

std::string clip(std::string s) {
  constexpr size_t kMax = 600;
  if (s.size() > kMax) s = s.substr(0, kMax) + " ... (" + std::to_string(s.size()) + " characters)";
  return s;
}

// Runs one program's launches; returns an empty string or the reason it stopped.
std::string run_program(exec::Machine& m, const Prepared& prep, char which) {
  const PreparedProgram& p = prep.program(which);
  std::vector<uint64_t> bases;
  for (size_t t = 0; t < prep.tensors().size(); ++t) bases.push_back(m.tensor_base(t));
  for (size_t li = 0; li < p.launches.size(); ++li) {
    exec::LaunchSpec spec = p.launches[li];
    spec.params = prep.params(which, li, bases);
    m.launch(spec);
  }
  return {};
}

}  // namespace

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Equivalent: return "equivalent";
    case Verdict::Inequivalent: return "inequivalent";
    case Verdict::Unknown: return "unknown";
    case Verdict::Refused: return "refused";
  }
  return "?";
}

CheckResult check_instance(const instance::Instance& inst, const CheckOptions& options) {
  CheckResult res;
  res.name = inst.name;
  Prepared prep(inst);
  exec::Session session(options.limits);
  exec::SymbolicDomain dom(session.store());
  // Symbolic integers from integer tensors lie in their dtype's range (or the instance's).
  dom.set_symbol_range([&](expr::ExprId e) -> std::optional<exec::Interval> {
    const exec::SymbolOrigin* o = session.origin(e);
    if (!o || o->tensor < 0) return std::nullopt;
    const exec::TensorSpec& t = prep.tensors()[static_cast<size_t>(o->tensor)];
    if (ptx::is_float(t.elem)) return std::nullopt;
    if (t.range && o->kind == exec::SymbolOrigin::Kind::InputCell) return exec::Interval{t.range->lo, t.range->hi};
    unsigned bits = ptx::type_bits(t.elem);
    bool sgn = ptx::type_class(t.elem) == ptx::TypeClass::Signed;
    mpz_class lo = sgn ? -(mpz_class(1) << (bits - 1)) : mpz_class(0);
    mpz_class hi = sgn ? (mpz_class(1) << (bits - 1)) - 1 : (mpz_class(1) << bits) - 1;
    return exec::Interval{mpq_class(lo), mpq_class(hi)};
  });
  const exec::Semantics& sem = sem::semantics();
  exec::Machine ma(session, 'a', prep.tensors(), dom, sem);
  exec::Machine mb(session, 'b', prep.tensors(), dom, sem);
  idiom::MathRoutineRecognizer recognizer_a, recognizer_b;
  ma.set_recognizer(&recognizer_a);
  mb.set_recognizer(&recognizer_b);
  auto collect = [&] {
    res.defects = ma.defects();
    std::vector<exec::Defect> from_b = mb.defects();
    res.defects.insert(res.defects.end(), from_b.begin(), from_b.end());
    res.notes = ma.notes();
    res.notes.insert(res.notes.end(), mb.notes().begin(), mb.notes().end());
    res.seconds = session.elapsed_seconds();
    res.expression_nodes = session.store().size();
    res.thread_instructions = ma.steps() + mb.steps();
    res.recognized.clear();
    for (const auto& r : recognizer_a.recognized()) res.recognized.push_back("a: " + r);
    for (const auto& r : recognizer_b.recognized()) res.recognized.push_back("b: " + r);
    for (const auto& [form, n] : dom.recognized()) res.recognized.push_back(form + " (" + std::to_string(n) + " times)");
  };
  try {
    run_program(ma, prep, 'a');
    run_program(mb, prep, 'b');
  } catch (const exec::Refusal& r) {
    res.verdict = Verdict::Refused;
    res.reason = r.what();
    collect();
    return res;
  } catch (const exec::LimitReached& l) {
    res.verdict = Verdict::Unknown;
    res.reason = l.what();
    collect();
    return res;
  }

  res.exec_seconds = session.elapsed_seconds();
  expr::Store& st = session.store();
  auto domain_of = [&](expr::ExprId sym) {
    decide::SymbolDomain d;
    const exec::SymbolOrigin* o = session.origin(sym);
    if (!o) return d;
    if (o->tensor >= 0) {
      const exec::TensorSpec& t = prep.tensors()[static_cast<size_t>(o->tensor)];
      d.grid = grid_of(t.elem);
      if (o->kind == exec::SymbolOrigin::Kind::InputCell && t.range) d.lo = t.range->lo, d.hi = t.range->hi;
    } else {
      d.grid = decide::Grid::F32;
    }
    return d;
  };
  decide::Decider decider(st, domain_of, options.seed);
  bool any_unknown = false, any_refuted = false;
  std::vector<size_t> outs = prep.output_tensors();
  try {
    for (size_t oi = 0; oi < outs.size(); ++oi) {
      size_t t = outs[oi];
      OutputStats stats;
      stats.tensor = prep.tensors()[t].name;
      uint64_t cells = prep.tensors()[t].cell_count();
      stats.cells = cells;
      for (uint64_t c = 0; c < cells; ++c) {
        if ((c & 255) == 0) session.check_limits();
        expr::ExprId ea = ma.cell_expr(t, static_cast<int64_t>(c)), eb = mb.cell_expr(t, static_cast<int64_t>(c));
        decide::CellDecision d = decider.decide(ea, eb);
        std::string cell_name = prep.tensors()[t].cell_name(static_cast<int64_t>(c));
        switch (d.status) {
          case decide::CellStatus::Proved: ++stats.proved; break;
          case decide::CellStatus::Unknown:
            ++stats.unknown;
            any_unknown = true;
            if (res.unknown_cells.size() < 5) res.unknown_cells.push_back(cell_name + ": " + d.reason);
            break;
          case decide::CellStatus::Refuted: {
            ++stats.refuted;
            any_refuted = true;
            if (res.counterexample) break;
            Counterexample cx;
            cx.cell = cell_name;
            cx.output = oi;
            cx.flat_cell = static_cast<int64_t>(c);
            cx.value_a = d.value_a;
            cx.value_b = d.value_b;
            cx.step = d.step;
            cx.expr_a = clip(expr::to_string(st, ea));
            cx.expr_b = clip(expr::to_string(st, eb));
            for (const auto& [index, value] : d.witness) {
              expr::ExprId sym{index};
              WitnessValue w;
              w.name = st.symbol_info(sym).origin;
              w.value = value;
              if (const exec::SymbolOrigin* o = session.origin(sym)) {
                w.tensor = o->tensor;
                w.cell = o->cell;
                w.kind = o->kind == exec::SymbolOrigin::Kind::InputCell    ? "input"
                         : o->kind == exec::SymbolOrigin::Kind::OutOfBounds ? "out_of_bounds"
                                                                            : "uninitialized";
              }
              cx.values.push_back(std::move(w));
            }
            res.counterexample = std::move(cx);
            break;
          }
        }
      }
      res.outputs.push_back(stats);
    }
  } catch (const exec::LimitReached& l) {
    res.verdict = Verdict::Unknown;
    res.reason = std::string("deciding stopped: ") + l.what();
    collect();
    return res;
  } catch (const exec::Refusal& r) {
    res.verdict = Verdict::Refused;
    res.reason = r.what();
    collect();
    return res;
  }
  collect();
  bool race = false;
  for (const exec::Defect& d : res.defects) race |= d.kind == exec::DefectKind::Race;
  if (race) {
    // The outputs depend on the schedule: no verdict may rest on the order the engine chose.
    res.verdict = Verdict::Unknown;
    res.reason = "a data race makes the outputs depend on the schedule";
  } else if (any_refuted) {
    res.verdict = Verdict::Inequivalent;
  } else if (any_unknown) {
    res.verdict = Verdict::Unknown;
    res.reason = "some cells could be neither proved nor refuted";
  } else {
    res.verdict = Verdict::Equivalent;
  }
  return res;
}

}  // namespace racer::check
