// A computation run in a child process answers through the pipe, and one that never stops (or
// fails, or allocates without end) costs its caller no more than the limit: the caller gets no
// answer and the reason, and goes on.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <vector>

#include "support/isolated_call.hpp"

namespace racer::support {
namespace {

using std::chrono::milliseconds;
using clock_type = std::chrono::steady_clock;

TEST(IsolatedCall, TheAnswerComesBackWhole) {
  std::string big(100000, 'x');  // larger than a pipe's buffer: read while the child writes
  big += "end";
  auto r = call_isolated([&] { return big; }, milliseconds(5000), 256);
  ASSERT_TRUE(r.answer.has_value()) << r.why;
  EXPECT_EQ(*r.answer, big);
}

TEST(IsolatedCall, AComputationThatNeverStopsIsKilledAtTheLimit) {
  auto t0 = clock_type::now();
  auto r = call_isolated(
      [] {
        std::atomic<unsigned long> spin{0};
        for (;;) spin.fetch_add(1, std::memory_order_relaxed);
        return std::string("unreachable");
      },
      milliseconds(300), 256);
  double seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
  EXPECT_FALSE(r.answer.has_value());
  EXPECT_EQ(r.why, "time limit");
  EXPECT_GE(seconds, 0.29);
  EXPECT_LT(seconds, 2.0);
}

TEST(IsolatedCall, AFailingComputationGivesNoAnswer) {
  auto r = call_isolated([]() -> std::string { throw std::runtime_error("no"); }, milliseconds(5000), 256);
  EXPECT_FALSE(r.answer.has_value());
  EXPECT_EQ(r.why, "exited with status 3");
}

TEST(IsolatedCall, AnAllocationBeyondTheCapEndsTheChildNotTheCaller) {
  auto r = call_isolated(
      [] {
        std::vector<std::vector<char>> hog;
        for (int i = 0; i < 64; ++i) hog.emplace_back(size_t{64} << 20, 'x');  // 4 GiB against a 256 MiB cap
        return std::string("allocated");
      },
      milliseconds(20000), 256);
  EXPECT_FALSE(r.answer.has_value());
  // The caller's state is its own: it still allocates and computes.
  std::vector<char> mine(size_t{16} << 20, 'y');
  EXPECT_EQ(mine.back(), 'y');
}

}  // namespace
}  // namespace racer::support
