#pragma once
// Both programs of an instance run symbolically over one shared expression store: the
// machines, the routine recognizers, and what the decider needs to know about symbols.
#include <array>
#include <functional>
#include <memory>
#include <set>
#include <string>

#include "check/prepare.hpp"
#include "check/result.hpp"
#include "decide/domain.hpp"
#include "exec/machine.hpp"
#include "exec/symbolic_domain.hpp"
#include "idiom/recognizer.hpp"

namespace racer::check {

// Loops over every cell of the outputs check the time and memory limits this often: a cell
// can cost a new symbol (one no program wrote), and outputs can have millions.
inline constexpr uint64_t kCellsBetweenLimitChecks = 4096;
// Loops that evaluate every output cell at a point check them more often: the evaluation keeps
// a value for every node it visits, and one cell can reach thousands (a dot product's terms).
inline constexpr uint64_t kCellsBetweenEvaluationChecks = 64;

// Per program (a, b), per output (in Prepared::output_tensors order), every cell's expression.
using OutputCells = std::array<std::vector<std::vector<expr::ExprId>>, 2>;

class Execution {
 public:
  Execution(const instance::Instance& inst, const exec::Limits& limits);

  // Runs program a, then program b (telling `starting` which one begins). Returns "" or why
  // they stopped; `refused` tells a refusal from a limit.
  std::string run(bool& refused, const std::function<void(char program)>& starting = {});
  // Then every output cell, once (output_cells()): "" or why not (`refused` for a cell whose
  // data cannot be read as its dtype, else a limit).
  std::string read_outputs(bool& refused);
  uint64_t thread_instructions() const;

  const Prepared& prep() const { return prep_; }
  exec::Session& session() { return session_; }
  expr::Store& store() { return session_.store(); }
  expr::ExprId cell(char program, size_t tensor, int64_t flat);
  // Every output cell of both programs, read once, when the programs have run (read_outputs()
  // reads them, checking the limits as it goes): a cell no program wrote becomes a symbol of
  // its own then, and a cell whose data cannot be read as its dtype refuses the check there.
  const OutputCells& output_cells();
  // The instruction that last wrote a final cell in a program run by the machine, if any.
  std::optional<exec::Site> writer_of(char program, size_t tensor, int64_t flat) const;
  decide::SymbolDomain domain_of(expr::ExprId symbol) const;
  // Whether no race of either program reaches this output cell: its final value is the one it
  // has in every order of the threads (check/execution.cpp says how that is found).
  bool beyond_every_race(size_t tensor, int64_t flat);
  // Defects, notes, recognized routines and counters into a result.
  void fill(CheckResult& res) const;

 private:
  // Where every race of program `which` was a load against a store, runs it again with those
  // loads returning fresh unknowns; when no output depends on one, that run replaces the
  // first and its races become notes (exec/racing_reads.hpp).
  void excuse_harmless_races(char which);
  // Program `which` run again with those racing loads (and, with `stores`, every store racing
  // with a store) leaving fresh unknowns; null where that run refused.
  std::unique_ptr<exec::Machine> rerun_replacing(char which, const std::set<uint32_t>& loads, bool stores);
  // Program `which` run again with every value a race makes schedule-dependent replaced by a
  // fresh unknown; null where some race could not be so replaced.
  std::unique_ptr<exec::Machine> schedule_free_run(char which);
  // Program `which`'s machine over the shared session, domain and its recognizer.
  std::unique_ptr<exec::Machine> make_machine(char which);

  Prepared prep_;
  exec::Session session_;
  exec::SymbolicDomain dom_;
  idiom::MathRoutineRecognizer recognizer_a_, recognizer_b_;
  std::unique_ptr<exec::Machine> ma_, mb_;  // null when their memory could not be set up
  std::string not_started_;                 // why, then
  std::vector<exec::Note> notes_;           // the checker's own (why races stand)
  std::vector<int> output_of_;  // per tensor, its index in Prepared::output_tensors() (-1: not an output)
  // Program b given as a reference (check/reference_build): per output, per cell.
  std::vector<std::vector<expr::ExprId>> reference_cells_;
  std::optional<OutputCells> cells_;  // output_cells(), once read
  // schedule_free_run's machines, per program that raced, once asked for.
  std::array<std::optional<std::unique_ptr<exec::Machine>>, 2> schedule_free_;
  expr::ExprId read_cell(char program, size_t tensor, int64_t flat);
};

}  // namespace racer::check
