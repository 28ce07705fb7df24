#pragma once
// How far a float program's output may lie from the exact real value of its expression: a
// first-order forward error bound, evaluated at one point alongside the value itself. Each
// operation contributes its own rounding (relative to the magnitudes it combines, so a sum
// of n terms costs n units of roundoff times the sum of their magnitudes, whatever order the
// program added them in) and carries its operands' errors through its derivative. Used to
// tell a rounding difference from a mis-modelled instruction (the self-check) and from a
// real difference between two programs (witness classification).
#include <array>
#include <limits>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "expr/eval.hpp"
#include "expr/store.hpp"

namespace racer::decide {

// The rounding a program's arithmetic can introduce, from the narrowest format it computes
// or stores in.
struct FloatModel {
  long double unit_roundoff = 0x1p-24L;  // half an ulp of 1 in the narrowest format
  long double function_error = 0x1p-20L;  // relative error of a math routine or .approx instruction
  long double absolute_floor = 0x1p-126L;  // per operation: underflow, subnormals, flush to zero
  long double max_finite = 0x1.fffffep127L;  // beyond it the program overflows: no bound
};

// A value and a bound on the distance of the program's float result from it.
struct BoundedValue {
  long double value = 0;
  long double error = 0;
};

class RoundingBound {
 public:
  // `at` gives every symbol's value (a float the program can hold exactly).
  RoundingBound(const expr::Store& st, const FloatModel& model, const expr::Assignment& at);
  // nullopt where no bound holds: an infinite or undefined value, a pole or a logarithm's
  // argument within its own error of 0, a comparison within its error of its boundary
  // whose two outcomes are not close.
  std::optional<BoundedValue> at(expr::ExprId x);
  // Whether any node evaluated so far is piecewise (a select, min, max or abs): elsewhere the
  // expressions are analytic, and two different ones differ at a random point almost surely.
  bool saw_piecewise() const { return piecewise_; }

 private:
  enum class Truth : uint8_t { False, True, Unsettled, Failed };
  Truth truth(expr::ExprId cond);
  std::optional<BoundedValue> combine(expr::ExprId x);
  void with_unfolded(expr::ExprId x, BoundedValue own);

  // Per node, by index: whether it has been evaluated and whether a bound holds, and its
  // value. Kept in pages allocated when a node of the page is first visited, so that bounding
  // one cell of a large store costs memory for the nodes that cell reaches, not for the store.
  enum class State : uint8_t { Unvisited, Expanded, Bounded, Unbounded };
  static constexpr uint32_t kPageNodes = 256;
  // A long double's significant bytes: x87's 80 bits where long double is that format (16 bytes
  // with padding), so that a value and its error take 20 bytes, not 32.
  static constexpr size_t kLongDoubleBytes = std::numeric_limits<long double>::digits == 64 ? 10 : sizeof(long double);
  struct Page {
    std::array<State, kPageNodes> state{};
    std::array<std::array<unsigned char, 2 * kLongDoubleBytes>, kPageNodes> packed;  // value, error
    void set(uint32_t i, const BoundedValue& v);
    BoundedValue get(uint32_t i) const;
  };
  State state_of(expr::ExprId x) const;
  Page& page(expr::ExprId x);
  const std::optional<BoundedValue> result(expr::ExprId x) const;

  const expr::Store& st_;
  FloatModel model_;
  const expr::Assignment& at_;
  std::vector<std::unique_ptr<Page>> pages_;
  bool piecewise_ = false;
  // Nested bounds of unfolded operands (with_unfolded), each one at() deeper: a chain longer
  // than this leaves its node without a bound rather than the stack without room.
  static constexpr int kMaxUnfoldingDepth = 64;
  int unfolding_depth_ = 0;
  std::unordered_map<uint32_t, Truth> truth_memo_;
  std::unordered_map<uint32_t, bool> exact_truth_;  // the condition's value at the point, exactly
};

}  // namespace racer::decide
