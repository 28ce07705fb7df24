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

  // At most this many points (index values, or combinations of several indices) per access.
  static constexpr size_t kMaxPoints = 4096;
};

// Where a symbol may lie (nullopt: not integer data with a finite range).
using IndexRange = std::function<std::optional<Interval>(expr::ExprId)>;
// Whether the access runs at a point (the thread's path condition there is not false).
using Admissible = std::function<bool(const expr::Assignment&)>;

// The addresses `value mod 2^width + offset` (mod 2^64) takes, `value` an integer expression.
// A Refusal saying why where its symbols are not all ranged integers or give too many points.
IndexedAddress enumerate_address(const expr::Store& s, expr::ExprId value, unsigned width, uint64_t offset,
                                 const IndexRange& range, const Admissible& admissible);

// The condition under which the access names candidate c, as a condition expression and as text
// ("tok[3] = 7", "2 <= p[0] <= 5", "a[0] = 1 and b[0] = 2, or ...").
expr::ExprId candidate_condition(expr::Store& s, const IndexedAddress& a, size_t c);
std::string candidate_condition_text(const expr::Store& s, const IndexedAddress& a, const std::vector<uint32_t>& points);

// Whether a point of `pa` (of access a) and a point of `pb` (of access b) agree on every
// symbol the two accesses share: the accesses can name their candidates together.
bool can_coincide(const IndexedAddress& a, const std::vector<uint32_t>& pa, const IndexedAddress& b,
                  const std::vector<uint32_t>& pb);

}  // namespace racer::exec
