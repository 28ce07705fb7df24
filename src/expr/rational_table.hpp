#pragma once
// Interned exact rationals. Nodes refer to rationals by a 32-bit index so that a node's
// hash and equality are integer operations; interning makes equal rationals share one
// index, so "is this coefficient 1" is an integer comparison too.
#include <gmpxx.h>

#include <cstdint>
#include <deque>
#include <vector>

namespace racer::expr::detail {

class RationalTable {
 public:
  static constexpr uint32_t kZero = 0;
  static constexpr uint32_t kOne = 1;
  static constexpr uint32_t kMinusOne = 2;

  RationalTable();
  // The value must be canonical (mpq_class arithmetic keeps it so).
  uint32_t intern(const mpq_class& q);
  const mpq_class& operator[](uint32_t index) const { return values_[index]; }
  size_t size() const { return values_.size(); }

 private:
  static uint64_t hash(const mpq_class& q);
  uint32_t find_or_add(const mpq_class& q);
  void grow();

  // A deque, not a vector: callers hold references to rationals (a node's coefficient, a
  // weight) across interning, which must not move them (exp(-2x) read a freed exponent).
  std::deque<mpq_class> values_;
  std::vector<uint32_t> hashes_;
  std::vector<uint32_t> slots_;  // index + 1, 0 = empty
};

}  // namespace racer::expr::detail
