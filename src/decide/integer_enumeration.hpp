#pragma once
// Cells whose sides depend on integer symbols of small declared ranges: an index read from
// memory selects among cells (select(t = 0, X0, select(t = 1, X1, ...)), in address order)
// while the other side computes the same thing another way (a masked sum over the row, a loop
// comparing the index with every row, in another order). Case splitting on each comparison
// costs a piece per condition and Z3 times out on long chains; substituting each combination of
// the integer symbols' values instead folds every comparison, and the residual pairs are
// usually identical. The proof is exact: the symbols' domains are finite and every point of
// them is substituted; a residual pair is accepted only when identical or proved by `prove`.
#include <functional>
#include <string>
#include <vector>

#include "decide/domain.hpp"
#include "expr/store.hpp"

namespace racer::decide {

struct EnumerationOptions {
  size_t max_points = 4096;       // combinations of the integer symbols' values
  uint64_t max_work = 20000000;   // DAG nodes times points
};

// True when proved; otherwise `why` says what stopped it (empty: the step does not apply).
bool prove_by_enumeration(expr::Store& s, expr::ExprId a, expr::ExprId b, const std::vector<expr::ExprId>& symbols,
                          const std::vector<SymbolDomain>& domains,
                          const std::function<bool(expr::ExprId, expr::ExprId)>& prove, const EnumerationOptions& options,
                          std::string& why);

}  // namespace racer::decide
