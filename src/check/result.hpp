#pragma once
// The outcome of checking one instance: the verdict, per-output counts, the witness of an
// inequivalence, and every defect of both programs.
#include <gmpxx.h>

#include <optional>
#include <string>
#include <vector>

#include "exec/defect.hpp"

namespace racer::check {

// EqualUpToRounding: refuted over the reals, but no replay on the emulator shows a difference
// beyond rounding and the exact outputs never differ by more than a few units of the output
// format's rounding (check/classify.hpp).
enum class Verdict : uint8_t { Equivalent, Inequivalent, Unknown, Refused, EqualUpToRounding };
// "equivalent", "inequivalent", "unknown", "refused", "equal_up_to_rounding"
std::string_view verdict_name(Verdict v);

// What the decided cells and the defects add up to.
struct CellTally {
  bool race = false;         // a defect of kind race in either program
  bool any_refuted = false;  // a cell refuted (its witness re-checked from scratch)
  bool any_unknown = false;  // a cell neither proved nor refuted
  std::string stopped;       // why deciding ended before the last cell ("" if it did not)
  bool any_negligible = false;  // a cell equal once terms below e^-1000 are dropped (decide/negligible_terms.hpp)
};
struct VerdictAndReason {
  Verdict verdict;
  std::string reason;
};
// A race leaves the outputs to the schedule: Unknown whatever the cells say. Else a refuted
// cell settles Inequivalent, also when a limit stopped the cells after it. Else a stop or an
// undecided cell leaves Unknown; only a complete run with every cell proved is Equivalent.
VerdictAndReason combine_cells(const CellTally& t);

// How each output cell was decided, for the per-cell map of the HTML report. Skipped: not
// decided because the output already has a refuted cell (one witness per output is enough;
// CheckOptions::all_cells decides them).
// Negligible: equal once terms no float format holds are dropped (decide/negligible_terms.hpp).
enum class CellOutcome : uint8_t { Undecided, Proved, Refuted, Unknown, Skipped, Negligible };

struct OutputStats {
  std::string tensor;
  uint64_t cells = 0, proved = 0, refuted = 0, unknown = 0, skipped = 0, negligible = 0;
  std::vector<CellOutcome> outcomes;  // per cell, row-major; Undecided where deciding stopped
  // Cells a limit stopped deciding before (skipped cells were passed over on purpose).
  uint64_t not_reached() const { return cells - proved - refuted - unknown - skipped - negligible; }
};

// Shape reduction (decide/shape.hpp): a class of cells whose pairs are equal up to a renaming
// of their inputs, decided once at its representative.
struct ShapeClassStats {
  std::string representative;  // "out[0,0]"
  uint64_t cells = 0;
  std::string outcome;         // "proved", "refuted", "unknown"
};
struct ReuseStats {
  uint64_t identical = 0;  // cells whose sides are one node: proved without a class
  uint64_t cells = 0;      // cells decided through a class, representatives included
  size_t classes = 0;      // hence decisions made
  std::vector<ShapeClassStats> largest;  // the largest few classes, largest first
};

// One input value of a witness: a cell of an input tensor, or unknown initial memory.
struct WitnessValue {
  std::string name;     // "x[3,1]", "out[0] (uninitialized)"
  int tensor = -1;      // instance tensor index, -1 for memory private to one program
  int64_t cell = -1;
  std::string kind;     // "input", "uninitialized", "out_of_bounds", "unmapped"
  mpq_class value;
};

struct Counterexample {
  std::string cell;                 // "out[1,3]"
  size_t output = 0;                // index into outputs
  int64_t flat_cell = 0;
  std::vector<WitnessValue> values; // every free symbol either side depends on
  std::optional<mpq_class> value_a, value_b;
  std::string expr_a, expr_b;       // both sides, printed (truncated if huge)
  std::string step;                 // how it was refuted
  // The witness replayed on the emulator: "manifest", "rounding" or "hidden" (check/classify.hpp),
  // and what the replays showed.
  std::string replay_kind, replay;
  // Program b given as a reference: the function and the user's line that computes this cell.
  std::string reference_line;
  // The store that last wrote the cell in each program: "PTX line 42 (kernel.cu:12:5): st.global.f32 ..."
  // (empty where no store of that program wrote it, or for a reference).
  std::string stored_by_a, stored_by_b;
};

// Where the two programs' float behaviour differs in a way the exact verdict cannot see
// (check/hazards.hpp): found by running both on the emulator at an input chosen to provoke
// the formats. `values` is that input in full, so the emulator reproduces the hazard.
struct FloatHazard {
  std::string kind;     // "nan", "overflow", "infinity", "underflow", "precision"
  char program = 'a';   // the program that shows it
  std::string cell;     // "y[2,5]"
  size_t output = 0;    // index into outputs
  int64_t flat_cell = 0;
  uint64_t cells = 1;   // output cells showing the same hazard at this input
  double value = 0, other = 0;  // the float outputs of this program and of the other one
  uint64_t bits = 0, other_bits = 0;
  std::optional<double> exact;  // the exact value of this program's expression there
  double error_ulps = 0, other_error_ulps = 0;  // against the exact values, in ulps of the output format
  std::string input;    // how the input was chosen
  std::vector<WitnessValue> values;
  std::string message;  // one line for the report
  // NaN and infinities: the instruction of this program that first made a non-finite value from
  // finite operands at this input ("PTX line 42 (k.cu:12:5), CTA (0,0,0), thread (3,0,0): div.rn.f32 ..."),
  // or empty where none did (a non-finite value read from memory).
  std::string origin;
  // An intermediate value that left its format (kind "overflow" or "underflow") in this program
  // only, at the instruction `origin` names: no output shows it (clamped or compensated later),
  // the other program has no such value at this input. value and bits are that result's; cell
  // is empty and other, other_bits and exact say nothing.
  bool intermediate = false;
  // Hazards of this kind and program at this output (or intermediates) beyond the listed ones:
  // further cells (instructions) where the search found it, not listed (on the last listed one).
  uint64_t more = 0;
};

// An instruction that lowers precision on one side only: a conversion to a narrower float
// format, an approximate instruction, a flush of subnormals to zero (check/precision_changes.hpp).
struct PrecisionChange {
  char program = 'a';
  std::string kind;         // "narrowing", "approximation", "flush_to_zero"
  std::string what;         // "cvt f32 -> f16", "ex2.approx.f32", "mul.ftz.f32"
  uint32_t launch = 0;
  uint32_t ptx_line = 0;
  std::string source;       // "kernel.cu:12:5" from .loc, or empty
  std::string instruction;  // the PTX instruction
  uint64_t more = 0;        // further instructions of the same kind on this side, not listed
};

// The float hazard search after a check: what ran, what it found.
struct HazardReport {
  bool searched = false;
  bool fails_check = false;  // --fail-on-hazard: a hazard makes an otherwise passing check exit 1
  std::string summary;      // one line: points run, or why the search did not run
  unsigned runs = 0;        // emulator runs (both programs each)
  unsigned runs_beside = 0;  // of which made beside the symbolic run (check/early_emulation.hpp)
  double seconds = 0;
  std::vector<FloatHazard> hazards;
  std::vector<PrecisionChange> precision_changes;
};

struct CheckResult {
  std::string name;
  Verdict verdict = Verdict::Unknown;
  std::string reason;  // for Unknown and Refused
  std::vector<OutputStats> outputs;
  ReuseStats reuse;
  std::optional<Counterexample> counterexample;
  std::vector<std::string> unknown_cells;  // a few cells left unknown, with why
  std::vector<std::string> negligible_cells;  // a few cells equal up to negligible terms, with which
  std::vector<exec::Defect> defects;       // program a's, then b's
  std::vector<exec::Note> notes;
  std::vector<std::string> recognized;     // compiled math routines read as the function they compute
  std::string self_check;      // what the self-check against the emulator found (one line)
  double self_check_seconds = 0;
  double self_check_emulation_seconds = 0;  // of which the concrete runs
  HazardReport float_hazards;  // never changes the verdict
  double seconds = 0;          // the whole check
  double exec_seconds = 0;     // running both programs
  uint64_t thread_instructions = 0;
  size_t expression_nodes = 0;
};

}  // namespace racer::check
