#include "check/explain.hpp"

#include <algorithm>

#include "check/cell_decisions.hpp"
#include "check/execution.hpp"
#include "decide/decider.hpp"
#include "expr/print.hpp"
#include "support/error.hpp"

namespace racer::check {
namespace {

// "out[1,3]" -> tensor index and flat cell index.
std::pair<size_t, int64_t> parse_cell(const Prepared& prep, const std::string& spec) {
  auto bad = [&](const std::string& why) { return Error(ExitCode::BadInput, "cell '" + spec + "': " + why); };
  size_t open = spec.find('[');
  if (open == std::string::npos || spec.back() != ']') throw bad("expected name[i,j,...]");
  std::string name = spec.substr(0, open);
  auto outs = prep.output_tensors();
  auto it = std::find_if(outs.begin(), outs.end(), [&](size_t t) { return prep.tensors()[t].name == name; });
  if (it == outs.end()) throw bad("'" + name + "' is not an output tensor of this instance");
  const exec::TensorSpec& t = prep.tensors()[*it];
  std::vector<int64_t> idx;
  std::string body = spec.substr(open + 1, spec.size() - open - 2);
  size_t pos = 0;
  while (pos <= body.size()) {
    size_t comma = body.find(',', pos);
    std::string part = body.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    try {
      size_t used = 0;
      idx.push_back(std::stoll(part, &used));
      if (used != part.size()) throw bad("'" + part + "' is not an index");
    } catch (const std::logic_error&) {
      throw bad("'" + part + "' is not an index");
    }
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  if (idx.size() != t.shape.size())
    throw bad(name + " has " + std::to_string(t.shape.size()) + " dimensions, " + std::to_string(idx.size()) + " indices given");
  int64_t flat = 0;
  for (size_t d = 0; d < idx.size(); ++d) {
    if (idx[d] < 0 || idx[d] >= t.shape[d]) throw bad("index " + std::to_string(idx[d]) + " is outside dimension " + std::to_string(d) + " of size " + std::to_string(t.shape[d]));
    flat = flat * t.shape[d] + idx[d];
  }
  return {*it, flat};
}

}  // namespace

Explanation explain_cell(const instance::Instance& inst, const std::string& cell, const CheckOptions& options) {
  Execution ex(inst, options.limits);
  auto [tensor, flat] = parse_cell(ex.prep(), cell);
  Explanation out;
  out.cell = ex.prep().tensors()[tensor].cell_name(flat);
  bool refused = false;
  out.stopped = ex.run(refused);
  if (out.stopped.empty()) out.stopped = ex.read_outputs(refused);
  CheckResult filled;
  ex.fill(filled);
  out.recognized = filled.recognized;
  if (!out.stopped.empty()) return out;
  expr::Store& st = ex.store();
  expr::ExprId a = ex.cell('a', tensor, flat), b = ex.cell('b', tensor, flat);
  out.expr_a = expr::to_string(st, a, 20000);
  out.expr_b = expr::to_string(st, b, 20000);
  if (!st.is_condition(a) && !st.is_condition(b)) out.difference = expr::to_string(st, st.sub(a, b), 20000);
  decide::Decider decider(st, [&](expr::ExprId s) { return ex.domain_of(s); }, options.seed, decider_options(ex.session()));
  decide::CellDecision d = decider.decide(a, b);
  out.status = std::string(decide::status_name(d.status));
  out.step = d.step;
  out.reason = d.reason;
  return out;
}

}  // namespace racer::check
