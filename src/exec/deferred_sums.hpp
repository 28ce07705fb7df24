#pragma once
// Running sums held back from the store. A dot product accumulated with fma builds, step by
// step, sums of 1, 2, ..., K terms; only the last is ever read as a whole (stored, compared,
// passed to a function), yet interning each one costs a probe of the store's unique table, a
// cache miss once the store outgrows the caches. Here a step costs a record appended to an
// arena; the sum enters the store when it is settled: where an instruction reads the register
// other than to add to it.
//
// The value is the same real number either way, and the store's sums are canonical (terms
// sorted by id, like terms merged), so the settled sum is the node the step-by-step sum would
// have been. Only finite operands are deferred: with an infinity or a NaN among them the
// order of the steps could matter, and such a step is taken at once.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "exec/value.hpp"
#include "expr/store.hpp"

namespace racer::exec {

class DeferredSums {
 public:
  explicit DeferredSums(expr::Store& store) : store_(store) {}

  // base + a * b: a deferred sum's first step (base, a and b finite expressions).
  Value start(expr::ExprId base, expr::ExprId a, expr::ExprId b);
  // sum + a * b, sum a deferred sum of this arena.
  Value extend(Value sum, expr::ExprId a, expr::ExprId b);
  // The expression of a deferred sum, interned now.
  expr::ExprId settle(Value sum);
  // Called every 2^16 steps of a settling sum (the session's limits: a long sum settles in one
  // instruction, which the step loop's own checks do not see the inside of).
  void set_limits_check(std::function<void()> check) { check_limits_ = std::move(check); }
  void check_limits() const {
    if (check_limits_) check_limits_();
  }
  // Forgets every step: no register may hold a deferred sum of this arena any more.
  void clear();
  size_t steps() const { return size_; }

 private:
  // A step: sum so far (the step before, by index) + a * b; a chain's first record holds its
  // base in `a` and kBase in `prev`.
  struct Step {
    uint32_t prev;
    uint32_t a;
    uint32_t b;
  };
  static constexpr uint32_t kBase = UINT32_MAX;
  // Up to this many steps, a sum is settled as the steps would have built it one by one
  // (the nodes the engine always made); beyond, all at once.
  static constexpr size_t kFoldedSteps = 4;
  Value push(Step s);
  // The steps live in pages of 2^16 (768 KiB): the arena grows by a page between two checks of
  // the memory limit, never by a doubling's copy of everything so far.
  static constexpr uint32_t kPageShift = 16;
  Step& step(uint32_t i) { return pages_[i >> kPageShift][i & ((1u << kPageShift) - 1)]; }

  expr::Store& store_;
  std::function<void()> check_limits_;
  std::vector<std::unique_ptr<Step[]>> pages_;
  uint32_t size_ = 0;
  std::vector<uint32_t> chain_;        // scratch: a sum's steps, last first
  std::vector<expr::ExprId> terms_;    // scratch: its terms
};

}  // namespace racer::exec
