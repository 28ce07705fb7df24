#include "check/result.hpp"

namespace racer::check {

VerdictAndReason combine_cells(const CellTally& t) {
  // No verdict may rest on the order in which the engine happened to run the threads.
  if (t.race) return {Verdict::Unknown, "a data race makes the outputs depend on the schedule"};
  if (t.any_refuted) {
    return {Verdict::Inequivalent, t.stopped.empty() ? "" : t.stopped + "; a refuted cell settles the verdict"};
  }
  if (!t.stopped.empty()) return {Verdict::Unknown, t.stopped};
  if (t.any_unknown) return {Verdict::Unknown, "some cells could be neither proved nor refuted"};
  if (t.any_negligible) {
    return {Verdict::EqualUpToRounding, "some cells are equal only once terms below e^-1000 are dropped (the exps of "
                                        "a finite mask where the other side masks with -inf or skips the cell): no "
                                        "float format holds them, so the sides differ by less than any rounding"};
  }
  return {Verdict::Equivalent, ""};
}

}  // namespace racer::check
