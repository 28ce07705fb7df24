#include "check/replay.hpp"

#include <cstdio>

#include "check/concrete_run.hpp"
#include "check/prepare.hpp"

namespace racer::check {

ReplayResult replay(const instance::Instance& inst, const std::string& witness_cell, const std::vector<WitnessValue>& values) {
  ReplayResult res;
  res.witness_cell = witness_cell;
  Prepared prep(inst);
  ConcreteRun run = run_concrete(prep, values);
  res.defects = std::move(run.defects);
  res.refusal = run.refusal;
  if (!res.refusal.empty()) return res;
  for (int side = 0; side < 2; ++side)
    for (const FloatEvent& e : run.float_events[side]) {
      char bits[32];
      std::snprintf(bits, sizeof bits, "0x%llx", static_cast<unsigned long long>(e.bits));
      res.float_events.push_back(std::string(1, side == 0 ? 'a' : 'b') + ": " + e.kind + " to " + bits + " at " + exec::site_text(e.site) +
                                 (e.count > 1 ? ", " + std::to_string(e.count) + " times" : ""));
    }
  std::vector<size_t> outs = prep.output_tensors();
  for (size_t oi = 0; oi < outs.size(); ++oi) {
    const exec::TensorSpec& s = prep.tensors()[outs[oi]];
    for (uint64_t c = 0; c < s.cell_count(); ++c) {
      uint64_t ba = run.outputs[0][oi][c], bb = run.outputs[1][oi][c];
      ReplayCell rc{s.cell_name(static_cast<int64_t>(c)), ba, bb, cell_value(s.elem, ba), cell_value(s.elem, bb)};
      ++res.compared;
      if (rc.cell == witness_cell) res.at_witness = rc;
      if (ba != bb) {
        ++res.differing_count;
        if (res.differing.size() < 10) res.differing.push_back(rc);
      }
    }
  }
  return res;
}

}  // namespace racer::check
