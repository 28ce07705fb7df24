#pragma once
// Recognition of compiled math routines (inlined expf, logf, erff, tanhf, ... and Triton's
// forms), keyed on dataflow and accepted only after validation.
//
// Where the semantics refuse (a bit-level operation or a branch on symbolic data), the
// recognizer looks back along the registers' defining instructions for the routine's input
// t, then runs the instructions from there concretely (bit-exact IEEE) at many values of t,
// following each value's own branches, and watches every register the routine writes. The
// first register whose values agree with a * f(b t) + d for a function f of the family
// (exp, log, erf, tanh, sigmoid, ...) within that function's error bound, at every probe
// point (special values and the ends of the range reduction included), is the routine's
// result, provided nothing else the routine computed is read afterwards. The thread then
// steps over the routine's instructions and the result register gets a * f(b t) + d exactly.
// A routine that does not validate is not recognized: the refusal stands.
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "exec/machine.hpp"
#include "idiom/functions.hpp"
#include "idiom/plan.hpp"
#include "ptx/liveness.hpp"

namespace racer::idiom {

using ptx::Liveness;
using ptx::reads_of;
using ptx::writes_of;

class MathRoutineRecognizer final : public exec::RoutineRecognizer {
 public:
  using Plan = RoutinePlan;
  bool recognize(exec::ExecContext& ctx, const ptx::Instr& ins, const std::string& why, Trigger trigger) override;
  // What was recognized, once per routine site: "silu: 1 + exp(-t) (PTX line 403, elementwise.cu:44:3)".
  const std::vector<std::string>& recognized() const { return recognized_; }

 private:

  struct Key {
    const ptx::Function* fn;
    uint32_t at, root_reg, root_def;
    Trigger trigger;
    bool operator<(const Key& o) const {
      return std::tie(fn, at, root_reg, root_def, trigger) < std::tie(o.fn, o.at, o.root_reg, o.root_def, o.trigger);
    }
  };
  const Liveness& liveness(const ptx::Function& f);
  const std::vector<uint32_t>& post_dominators(const ptx::Function& f);
  const ptx::RegisterUse& register_use(const ptx::Function& f);
  std::optional<Plan> probe(exec::ExecContext& ctx, uint32_t at, uint32_t root_reg, Trigger trigger);
  // The plan of probes that go past loads of other data (ProbeSite::other_data_loads), and
  // with `input_addends` read the thread's own values added to the routine's as addends.
  std::optional<Plan> probe_further(exec::ExecContext& ctx, uint32_t at, uint32_t root_reg, bool input_addends);
  void install(exec::ExecContext& ctx, const Plan& p, uint32_t root_reg, uint32_t at);

  std::map<const ptx::Function*, std::unique_ptr<Liveness>> liveness_;
  std::map<const ptx::Function*, std::vector<uint32_t>> ipdom_;
  std::map<const ptx::Function*, std::unique_ptr<ptx::RegisterUse>> register_use_;
  std::map<Key, Plan> cache_;
  std::map<Key, Plan> range_cache_;  // plans fitted over their input's range (PlanSearch::input_range)
  std::map<Key, Plan> range_seen_[3];  // by pass: every such plan a probe found, installed or not
  std::set<Key> failed_[3];  // by pass of recognize (probe, past loads, input addends)
  std::map<std::pair<const ptx::Function*, uint32_t>, uint32_t> preferred_;
  std::vector<std::string> recognized_;
  bool debug_ = std::getenv("RACER_DEBUG_IDIOM") != nullptr;
};

}  // namespace racer::idiom
