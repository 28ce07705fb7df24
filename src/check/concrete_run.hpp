#pragma once
// Both programs of an instance run concretely (bit-exact IEEE emulation on the CPU) at one
// point: input cells and unknown initial memory take the given values. The primitive under
// witness replay, witness classification and the self-check.
#include <array>
#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "check/prepare.hpp"
#include "check/result.hpp"
#include "exec/defect.hpp"
#include "exec/session.hpp"

namespace racer::check {

// Where a float operation of one program left its format at a point: an infinity or NaN from
// finite operands, or zero from nonzero ones (exec::ConcreteDomain's watch), per instruction.
struct FloatEvent {
  std::string kind;      // "overflow" (an infinity), "nan", "underflow" (a zero)
  exec::Site site;       // its first execution at this instruction
  ptx::Type type{};      // of the result
  uint64_t bits = 0;     // the result there
  uint64_t count = 1;    // executions of this instruction with this kind of event
  bool conversion = false;  // made by a cvt (a narrowing: the listed precision change's rounding)
};

struct ConcreteRun {
  // Per program (a, b), per output tensor (prep.output_tensors() order), each cell's bits.
  std::array<std::vector<std::vector<uint64_t>>, 2> outputs;
  std::vector<exec::Defect> defects;  // a's, then b's
  std::string refusal;                // non-empty if a program could not run
  // Per program: where a float operation first made NaN or an infinity from finite operands.
  std::array<std::optional<exec::Site>, 2> first_nonfinite;
  // Per program: where a product, quotient, ex2 or narrowing of nonzero values first gave zero.
  std::array<std::optional<exec::Site>, 2> first_underflow;
  // Per program: every such event by kind and instruction, in the order first seen. Only the
  // first kEventSites events of a program are placed at their instruction (naming one costs
  // printing it); later ones count in events_unplaced.
  static constexpr uint64_t kEventSites = 256;
  std::array<std::vector<FloatEvent>, 2> float_events;
  std::array<uint64_t, 2> events_unplaced{};
};

// What a concrete run gives the programs: each input tensor cell's bits, and unknown initial
// memory's values by the name of its symbol.
struct ConcreteInputs {
  std::vector<std::vector<uint64_t>> cells;       // per tensor, per cell (empty, or a cell past the end: 0)
  std::map<std::string, mpq_class> unknowns;
  // Unknown memory the map does not name, by its name (keyed points give every name a value
  // before any symbolic run made it); empty: 0.
  std::function<mpq_class(const std::string& name)> unknown_value;

  bool names_unknowns() const { return !unknowns.empty() || unknown_value; }
  // The value of the unknown memory named `name`: the map's, else unknown_value's, else none.
  std::optional<mpq_class> unknown(const std::string& name) const {
    if (auto it = unknowns.find(name); it != unknowns.end()) return it->second;
    if (unknown_value) return unknown_value(name);
    return std::nullopt;
  }
};

// A value's bits in a cell of type t: exact where t holds it, else rounded to nearest (floats);
// a value no cell of t can hold throws Error(BadInput). The double overload is exact for every
// value the rational one takes exactly, without a rational.
uint64_t cell_bits(ptx::Type t, const mpq_class& v);
uint64_t cell_bits(ptx::Type t, double v);

// The inputs a witness gives: cells of input tensors it mentions take its values (values for
// cells of other tensors are ignored), anything else named goes to the unknowns.
ConcreteInputs concrete_inputs(const Prepared& prep, const std::vector<WitnessValue>& values);

// Cells of input tensors the inputs do not mention are 0; unknown initial memory they do not
// mention is 0 too. A value that does not fit its cell's type throws Error(BadInput).
// Defects::Skip leaves races unsought (faster, less memory) where only the outputs are read.
// `within`: the check this run serves, whose memory limit and remaining time bound it too
// (exec::LimitReached, as the check's own loops throw it); null: the default limits.
// Program b runs on a thread of its own beside a unless `one_thread` (a run that is itself
// beside other work); `cancelled`, where given and set, stops the run (exec::LimitReached).
enum class Defects { Record, Skip };
struct RunThreads {
  bool one_thread = false;
  const std::atomic<bool>* cancelled = nullptr;
};
ConcreteRun run_concrete(const Prepared& prep, const ConcreteInputs& inputs, Defects defects = Defects::Record,
                         const exec::Session* within = nullptr, RunThreads threads = {});
ConcreteRun run_concrete(const Prepared& prep, const std::vector<WitnessValue>& values, Defects defects = Defects::Record);

// A cell's bits as a number (floats of every format, integers sign-extended by type).
double cell_value(ptx::Type t, uint64_t bits);

}  // namespace racer::check
