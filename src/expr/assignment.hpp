#pragma once
// Values of symbols at a point, for exact evaluation. A value that is exactly a double (every
// input a program's formats hold, every small integer) is kept as that double, any other as a
// rational; the table is a short list for a few symbols and pages by node index for many, so a
// point over millions of input cells costs about 8 bytes per symbol and no allocation per value
// (a hash map of rationals cost over 100 bytes and three allocations each).
#include <gmpxx.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <utility>
#include <vector>

#include "expr/expr_id.hpp"

namespace racer::expr {

class Assignment {
 public:
  Assignment() = default;
  Assignment(std::initializer_list<std::pair<ExprId, mpq_class>> values);

  // Gives x the value v (replacing any it had).
  void set(ExprId x, const mpq_class& v);
  void set(ExprId x, double v);  // v finite
  bool contains(ExprId x) const { return slot(x) != 0; }
  size_t size() const { return size_; }
  // x's value; nullopt where it has none.
  std::optional<mpq_class> value(ExprId x) const;
  // x's value where it is kept as a double (it is exactly that double); nullopt where x has
  // no value or one that is not a double.
  std::optional<double> exact_double(ExprId x) const;
  // x's value where it is not a double; null where x has none or a double.
  const mpq_class* rational(ExprId x) const;

 private:
  // A slot holds a double's bits, or a tag and an index into rationals_, exclusive-or'ed with
  // kEmpty so that 0 (what fresh pages hold) means no value. Both kEmpty and the tags are NaN
  // patterns, which no finite double has.
  static constexpr uint64_t kEmpty = 0x7FF4000000000000ull;
  static constexpr uint64_t kRationalTag = 0x7FF8000000000000ull;
  static constexpr uint64_t kExponent = 0x7FF0000000000000ull;
  static constexpr uint64_t kIndexMask = (uint64_t{1} << 48) - 1;
  static constexpr unsigned kPageBits = 10;
  static constexpr size_t kListed = 16;  // values kept in small_ before the pages take over

  uint64_t slot(ExprId x) const;
  void put(ExprId x, uint64_t slot);
  static bool is_rational_slot(uint64_t slot) { return ((slot ^ kEmpty) & kExponent) == kExponent; }

  std::vector<std::pair<uint32_t, uint64_t>> small_;
  std::vector<std::vector<uint64_t>> pages_;  // by node index >> kPageBits; empty: no value there
  std::vector<mpq_class> rationals_;
  size_t size_ = 0;
};

}  // namespace racer::expr
