#include "check/intermediate_hazards.hpp"

#include <cmath>

#include "check/float_model.hpp"
#include "exec/defect.hpp"
#include "expr/walk.hpp"

namespace racer::check {
namespace {

bool has_kind(const ConcreteRun& run, int side, const std::string& kind) {
  // Events past the placed ones have no kind on record: they may be this one.
  if (run.events_unplaced[side]) return true;
  for (const FloatEvent& e : run.float_events[side])
    if (e.kind == kind) return true;
  return false;
}

}  // namespace

bool asks_beyond(const expr::Store& st, decide::RoundingBound& exact, const std::vector<expr::ExprId>& roots, const std::string& kind,
                 ieee::Format format) {
  const ieee::FormatInfo& fi = ieee::info(format);
  long double largest = ieee::to_double(format, ieee::max_finite(format, false));
  long double smallest_normal = std::ldexp(1.0L, fi.emin());
  size_t visited = 0;
  bool found = false;
  expr::any_node(st, roots, [&](expr::ExprId e) {
    if (visited++ == 200000) return true;
    expr::Kind k = st.kind(e);
    // Inputs and constants are not computed; conditions are not numbers.
    if (k == expr::Kind::Const || k == expr::Kind::Symbol || k == expr::Kind::Bool || k == expr::Kind::Cmp) return false;
    if (auto v = exact.at(e)) {
      long double m = std::fabs(v->value);
      found = kind == "overflow" ? m > largest : (m > 0 && m < smallest_normal);
    }
    return found;
  });
  return found;
}

std::vector<std::pair<InstructionKey, FloatHazard>> intermediate_hazards(const ConcreteRun& run, const std::set<InstructionKey>& origins,
                                                                         const AsksBeyond& asks) {
  std::vector<std::pair<InstructionKey, FloatHazard>> out;
  for (int side = 0; side < 2; ++side) {
    char program = side == 0 ? 'a' : 'b';
    for (const char* kind : {"overflow", "underflow"}) {
      if (has_kind(run, 1 - side, kind)) continue;
      for (const FloatEvent& e : run.float_events[side]) {
        InstructionKey where{program, e.site.launch, e.site.instr};
        // A zero from a narrowing conversion is its rounding to the narrower format (listed
        // as a precision change); an infinity from one is an overflow.
        if (e.kind != kind || origins.count(where) || (kind == std::string("underflow") && e.conversion)) continue;
        auto format = float_format(e.type);
        if (!format || !asks(program, kind, *format)) continue;
        FloatHazard h;
        h.kind = kind;
        h.program = program;
        h.intermediate = true;
        h.cells = e.count;
        h.value = cell_value(e.type, e.bits);
        h.bits = e.bits;
        h.origin = exec::site_text(e.site);
        out.emplace_back(where, std::move(h));
      }
    }
  }
  return out;
}

std::string intermediate_message(const FloatHazard& h) {
  std::string me(1, h.program), other(1, h.program == 'a' ? 'b' : 'a');
  std::string what = h.kind == "overflow" ? "overflows to " + std::string(h.value > 0 ? "+inf" : "-inf") + " from finite operands"
                                          : "underflows to zero from nonzero operands";
  std::string none = h.kind == "overflow" ? "no infinity from finite operands" : "no zero from nonzero operands";
  std::string s = "an intermediate of program " + me + " " + what + " (" + std::to_string(h.cells) + (h.cells == 1 ? " execution" : " executions") +
                  ") where its exact expressions ask for a value beyond the format; no output of program " + me +
                  " shows a hazard at this input (clamped, selected away or compensated later) and program " + other + " makes " + none +
                  " there; the instruction: " + h.origin;
  if (!s.empty() && s.back() == ';') s.pop_back();  // the PTX instruction's own
  return s;
}

}  // namespace racer::check
