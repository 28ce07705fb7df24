#include "check/hazards.hpp"
#include "check/number_text.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "check/concrete_run.hpp"
#include "check/float_model.hpp"
#include "check/hazard_list.hpp"
#include "check/hazard_points.hpp"
#include "check/hazard_rules.hpp"
#include "check/precision_changes.hpp"
#include "exec/refusal.hpp"

namespace racer::check {
namespace {

std::string number(long double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+inf" : "-inf";
  return number_text(v);
}

std::string more_text(const FloatHazard& h) {
  if (!h.more) return "";
  return "; " + std::to_string(h.more) + (h.intermediate ? " more instructions" : " more cells") + " with this hazard at other inputs, not listed";
}

std::string message(const FloatHazard& h) {
  if (h.intermediate) return intermediate_message(h) + "; at " + h.input + more_text(h);
  std::string me = "program " + std::string(1, h.program) + "'s " + h.cell, other = "program " + std::string(1, h.program == 'a' ? 'b' : 'a') + "'s";
  std::string exact = h.exact ? "the exact value is " + number(*h.exact) : "the expression has no finite value there";
  std::string s;
  if (h.kind == "nan") s = me + " is NaN where " + other + " is " + number(h.other) + " (" + exact + ")";
  else if (h.kind == "overflow") s = me + " overflows to " + number(h.value) + " where " + exact + " (" + other + " is " + number(h.other) + ")";
  else if (h.kind == "infinity") s = me + " is " + number(h.value) + " where " + other + " is " + number(h.other);
  else if (h.kind == "underflow") s = me + " underflows to 0 where " + exact + " (" + other + " is " + number(h.other) + ")";
  else
    s = me + " is " + number(h.value) + ", " + number(h.error_ulps) + " ulp from the exact value " + (h.exact ? number(*h.exact) : "?") + "; " + other +
        " is " + number(h.other) + ", " + number(h.other_error_ulps) + " ulp from it";
  if (h.cells > 1) s += "; " + std::to_string(h.cells) + " cells alike";
  s += ", at " + h.input;
  if (!h.origin.empty())
    s += "; the first " + std::string(h.kind == "underflow" ? "underflow to zero" : "non-finite value") + " in program " +
         std::string(1, h.program) + " is made at " + h.origin;
  return s + more_text(h);
}

std::vector<FloatHazard> with_messages(std::vector<FloatHazard> hazards) {
  for (FloatHazard& h : hazards) h.message = message(h);
  return hazards;
}


// A precision hazard is confirmed with exact rational values where the expressions have them
// (long double loses digits in the very cancellations this looks for).
bool confirm_exactly(Execution& ex, expr::ExprId ea, expr::ExprId eb, const Point& p, CellFloats& c, CellHazard& h) {
  auto va = expr::eval_exact(ex.store(), ea, p.at), vb = expr::eval_exact(ex.store(), eb, p.at);
  if (!va || !vb) return true;
  c.exact_a = static_cast<long double>(va->get_d());
  c.exact_b = static_cast<long double>(vb->get_d());
  auto again = cell_hazard(c);
  if (!again || again->kind != h.kind || again->program != h.program) return false;
  h = *again;
  return true;
}

}  // namespace

HazardReport search_float_hazards(Execution& ex, const CheckResult& res, const CheckOptions& options, EarlyEmulation* early) {
  auto start = std::chrono::steady_clock::now();
  unsigned points = options.hazard_points;
  std::string fewer;  // why fewer inputs than asked for
  if (options.hazard_instruction_budget > 0 && res.thread_instructions > 0) {
    uint64_t fit = std::max<uint64_t>(1, options.hazard_instruction_budget / res.thread_instructions);
    if (fit < points) {
      fewer = " of " + std::to_string(points) + " (the default search runs as many as fit " + std::to_string(options.hazard_instruction_budget) +
              " emulated thread-instructions; --float-hazards runs every one)";
      points = static_cast<unsigned>(fit);
    }
  }
  HazardReport rep;
  rep.fails_check = options.fail_on_hazard;
  const Prepared& prep = ex.prep();
  rep.precision_changes = precision_changes(prep);
  HazardList list;  // what the inputs run so far found, also where the search stops early
  auto done = [&](std::string summary) {
    rep.hazards = with_messages(list.take());
    rep.summary = std::move(summary);
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return rep;
  };
  if (points == 0) return done("float hazard search off");
  for (const exec::Defect& d : res.defects)
    if (d.kind == exec::DefectKind::Race) return done("float hazard search skipped: a race leaves the outputs to the schedule");
  std::vector<size_t> outs = prep.output_tensors();
  // Every cell's expressions first: a cell no program wrote becomes a symbol of its own,
  // which the points must give a value too.
  OutputCells cells;
  std::vector<expr::ExprId> roots, roots_of[2];
  const decide::FloatModel model_a = float_model(prep, 'a'), model_b = float_model(prep, 'b');
  try {
    cells = ex.output_cells();
    for (int side = 0; side < 2; ++side)
      for (const auto& output : cells[side]) roots_of[side].insert(roots_of[side].end(), output.begin(), output.end());
    roots = roots_of[0];
    roots.insert(roots.end(), roots_of[1].begin(), roots_of[1].end());
    std::vector<ProvokingPoint> inputs = provoking_points(ex, roots, coarser(model_a, model_b), points, options.seed);
    for (ProvokingPoint& pp : inputs) {
      ex.session().check_limits();
      // The first point's run may have been made beside the symbolic run.
      std::optional<ConcreteRun> made_early = rep.runs == 0 && early ? early->take_hazard() : std::nullopt;
      rep.runs_beside += made_early.has_value();
      ConcreteRun run = made_early ? std::move(*made_early) : run_concrete(prep, pp.point.concrete(), Defects::Skip, &ex.session());
      if (!run.refusal.empty())
        return done("float hazard search stopped: the emulation refused (" + run.refusal.substr(0, run.refusal.find('\n')) + ")");
      ++rep.runs;
      const expr::Assignment& at = pp.point.at;
      decide::RoundingBound exact = exact_values(ex.store(), at);
      decide::RoundingBound bound_a(ex.store(), model_a, at), bound_b(ex.store(), model_b, at);
      std::map<HazardKey, std::vector<FloatHazard>> here;  // this input's output hazards, cell by cell
      std::vector<HazardKey> order;
      std::map<HazardKey, std::optional<InstructionKey>> origin;
      std::set<InstructionKey> origins;
      bool shows[2] = {false, false};  // whether a program's outputs show a hazard here
      for (size_t oi = 0; oi < outs.size(); ++oi) {
        const exec::TensorSpec& t = prep.tensors()[outs[oi]];
        auto fmt = float_format(t.elem);
        if (!fmt) continue;
        for (uint64_t c = 0; c < t.cell_count(); ++c) {
          if (c % kCellsBetweenEvaluationChecks == 0) ex.session().check_limits();
          expr::ExprId ea = cells[0][oi][c], eb = cells[1][oi][c];
          CellFloats cf;
          cf.format = *fmt;
          cf.near_pole = pp.near_pole;
          cf.a = cell_value(t.elem, run.outputs[0][oi][c]);
          cf.b = cell_value(t.elem, run.outputs[1][oi][c]);
          if (floats_alike(*fmt, cf.a, cf.b)) continue;
          if (auto v = exact.at(ea)) cf.exact_a = v->value;
          if (auto v = exact.at(eb)) cf.exact_b = v->value;
          auto h = cell_hazard(cf);
          if (!h && needs_bounds(cf)) {
            if (auto v = bound_a.at(ea)) cf.bound_a = v->error;
            if (auto v = bound_b.at(eb)) cf.bound_b = v->error;
            cf.bounds_known = true;
            h = cell_hazard(cf);
            if (h && !confirm_exactly(ex, ea, eb, pp.point, cf, *h)) h.reset();
          }
          if (!h) continue;
          FloatHazard fh;
          fh.kind = h->kind;
          fh.program = h->program;
          fh.cell = t.cell_name(static_cast<int64_t>(c));
          fh.output = oi;
          fh.flat_cell = static_cast<int64_t>(c);
          bool is_a = h->program == 'a';
          fh.value = is_a ? cf.a : cf.b;
          fh.other = is_a ? cf.b : cf.a;
          fh.bits = run.outputs[is_a ? 0 : 1][oi][c];
          fh.other_bits = run.outputs[is_a ? 1 : 0][oi][c];
          if (auto e = is_a ? cf.exact_a : cf.exact_b) fh.exact = static_cast<double>(*e);
          fh.error_ulps = static_cast<double>(h->error_ulps);
          fh.other_error_ulps = static_cast<double>(h->other_error_ulps);
          const auto& first = fh.kind == "underflow" ? run.first_underflow : run.first_nonfinite;
          HazardKey key{fh.kind, fh.program, oi};
          if (fh.kind != "precision")
            if (const auto& s = first[is_a ? 0 : 1]) {
              fh.origin = exec::site_text(*s);
              origin[key] = InstructionKey{fh.program, s->launch, s->instr};
              origins.insert(*origin[key]);
            }
          shows[is_a ? 0 : 1] = true;
          if (!here.count(key)) order.push_back(key);
          here[key].push_back(std::move(fh));
        }
      }
      for (const HazardKey& key : order) list.add_output(here[key], origin[key], pp);
      std::map<std::tuple<char, std::string, ieee::Format>, bool> asked;
      auto asks = [&](char program, const std::string& kind, ieee::Format f) {
        // Where a program's outputs show a hazard, its intermediates are part of that story.
        if (shows[program == 'a' ? 0 : 1]) return false;
        auto it = asked.find({program, kind, f});
        if (it == asked.end()) it = asked.emplace(std::tuple{program, kind, f}, asks_beyond(ex.store(), exact, roots_of[program == 'a' ? 0 : 1], kind, f)).first;
        return it->second;
      };
      for (auto& [where, h] : intermediate_hazards(run, origins, asks)) list.add_intermediate(std::move(h), where, pp);
    }
  } catch (const exec::LimitReached& l) {
    return done("float hazard search stopped after " + std::to_string(rep.runs) + " inputs: " + l.what());
  }
  rep.searched = true;
  size_t found = list.size();
  return done("float hazards: " + std::to_string(found) + " found at " + std::to_string(rep.runs) +
              (rep.runs == 1 ? " input" : " inputs") + fewer + " chosen to provoke the formats (both programs on the bit-exact emulator)");
}

void add_float_hazards(Execution& ex, CheckResult& res, const CheckOptions& options, EarlyEmulation* early) {
  res.float_hazards = search_float_hazards(ex, res, options, early);
  res.seconds = ex.session().elapsed_seconds();
}

}  // namespace racer::check
