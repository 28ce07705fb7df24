#pragma once
// An address computed from integer data read from memory (an index tensor: embedding rows,
// gathers, scatters, histogram bins). Rather than reasoning about the address expression,
// the index symbols it depends on are enumerated over their declared ranges and the address
// is computed at each point exactly, with the register's wrap-around: every address the
// access can name, each with the points (index values) that name it. A load is then the
// select over those cells, a store updates each under its condition, and two accesses can
// meet at a cell only where points of both agree on the symbols they share.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "exec/int_bounds.hpp"
#include "expr/eval.hpp"
#include "expr/store.hpp"

namespace racer::exec {

struct IndexedAddress {
  std::vector<expr::ExprId> symbols;         // sorted by id
  std::vector<std::vector<int64_t>> points;  // values of `symbols` where the access can run
  struct Candidate {
    uint64_t addr = 0;
    std::vector<uint32_t> points;  // indices into `points`, ascending
  };
  std::vector<Candidate> candidates;  // by address
  // An address chosen by comparisons (enumerate_choices): each candidate's condition, and one
  // point per candidate (no symbols: `points[c]` is empty and candidate c's points are {c}).
  std::vector<expr::ExprId> conditions;
  bool by_comparisons() const { return !conditions.empty(); }

  // At most this many points (index values, or combinations of several indices) per access.
  static constexpr size_t kMaxPoints = 4096;
  // At most this many paths of choices per access chosen by comparisons: each path's condition
  // is a conjunction of comparisons of data, and the value loaded a select over all of them (a
  // linear search over a 256-entry code table would select on 256 ever longer conditions).
  static constexpr size_t kMaxChoicePaths = 64;
};

// Where a symbol may lie (nullopt: not integer data with a finite range).
using IndexRange = std::function<std::optional<Interval>(expr::ExprId)>;
// Whether the access runs at a point (the thread's path condition there is not false).
using Admissible = std::function<bool(const expr::Assignment&)>;

// The addresses `value mod 2^width + offset` (mod 2^64) takes, `value` an integer expression.
// A Refusal saying why where its symbols are not all ranged integers or give too many points.
IndexedAddress enumerate_address(const expr::Store& s, expr::ExprId value, unsigned width, uint64_t offset,
                                 const IndexRange& range, const Admissible& admissible);

// The addresses `value mod 2^width + offset` takes where `value` is a choice among integers made
// by comparisons of data (an argmax's index, a binary search's pivot in a code table): the
// conditions the value selects on are decided one at a time (a comparison of choices between constants
// through the conditions inside it first, exec/choice_paths.hpp innermost_choice; where that takes more
// than kMaxChoicePaths paths, outermost first), each substituted,
// until the value is a constant; each path of decisions is a condition of that candidate. A
// Refusal where a path leaves the value depending on data other than through a choice, or there
// are more than kMaxChoicePaths paths. A path is dropped where a condition of `holds` (the thread's
// path and guards where the access runs: a search's start < end) is false with its decisions
// substituted. Paths whose decisions contradict each other otherwise may be among them: their
// candidates only add arms that no input takes.
IndexedAddress enumerate_choices(expr::Store& s, expr::ExprId value, unsigned width, uint64_t offset,
                                 const std::vector<expr::ExprId>& holds = {});

// The condition under which the access names candidate c, as a condition expression and as text
// ("tok[3] = 7", "2 <= p[0] <= 5", "a[0] = 1 and b[0] = 2, or ...").
expr::ExprId candidate_condition(expr::Store& s, const IndexedAddress& a, size_t c);
std::string candidate_condition_text(const expr::Store& s, const IndexedAddress& a, const std::vector<uint32_t>& points);

// Whether a point of `pa` (of access a) and a point of `pb` (of access b) agree on every
// symbol the two accesses share: the accesses can name their candidates together.
bool can_coincide(const IndexedAddress& a, const std::vector<uint32_t>& pa, const IndexedAddress& b,
                  const std::vector<uint32_t>& pb);

}  // namespace racer::exec
