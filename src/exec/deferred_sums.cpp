#include "exec/deferred_sums.hpp"

#include <algorithm>

#include "exec/refusal.hpp"

namespace racer::exec {

using expr::ExprId;

void Value::throw_deferred_as_number() {
  // An engine fault, not the kernel's: every reader of a register settles a deferred sum first.
  throw Refusal("internal: a deferred running sum was read before it was settled");
}

Value DeferredSums::push(Step s) {
  if (size_ == UINT32_MAX - 1) throw Refusal("more than 2^32 deferred accumulation steps in one launch");
  if ((size_ >> kPageShift) == pages_.size()) pages_.push_back(std::make_unique<Step[]>(size_t{1} << kPageShift));
  step(size_) = s;
  return Value{size_++, Value::kDeferred, false};
}

void DeferredSums::clear() {
  size_ = 0;
  if (pages_.size() > 1) pages_.resize(1);  // (one page kept for the next launch)
}

Value DeferredSums::start(ExprId base, ExprId a, ExprId b) {
  Value first = push({kBase, base.index, 0});
  return push({static_cast<uint32_t>(first.bits), a.index, b.index});
}

Value DeferredSums::extend(Value sum, ExprId a, ExprId b) {
  return push({static_cast<uint32_t>(sum.bits), a.index, b.index});
}

ExprId DeferredSums::settle(Value sum) {
  chain_.clear();
  uint32_t at = static_cast<uint32_t>(sum.bits);
  for (; step(at).prev != kBase; at = step(at).prev) chain_.push_back(at);
  const ExprId base{step(at).a};
  auto product = [&](uint32_t i) { return store_.mul(ExprId{step(i).a}, ExprId{step(i).b}); };
  if (chain_.size() <= kFoldedSteps) {
    ExprId acc = base;
    for (size_t i = chain_.size(); i-- > 0;) acc = store_.add(product(chain_[i]), acc);
    return acc;
  }
  // The products' lookups miss the cache one after another: ask for each a few steps ahead.
  constexpr size_t kAhead = 16;
  auto prefetch = [&](size_t i) { store_.prefetch_product(ExprId{step(chain_[i]).a}, ExprId{step(chain_[i]).b}); };
  terms_.clear();
  terms_.push_back(base);
  const size_t n = chain_.size();
  for (size_t k = 0; k < std::min(kAhead, n); ++k) prefetch(n - 1 - k);
  for (size_t i = n; i-- > 0;) {
    if ((i & 0xFFFF) == 0 && check_limits_) check_limits_();
    if (i >= kAhead) prefetch(i - kAhead);
    terms_.push_back(product(chain_[i]));
  }
  return store_.add(terms_);
}

}  // namespace racer::exec
