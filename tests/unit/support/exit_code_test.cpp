// The exit code of a run with several results (`racer check FILE.py` with several instances) is
// the most severe one, whatever order the results come in.
#include <gtest/gtest.h>

#include <vector>

#include "support/error.hpp"

namespace racer {
namespace {

ExitCode of(std::vector<ExitCode> codes) {
  ExitCode worst = ExitCode::Equivalent;
  for (ExitCode c : codes) worst = most_severe(worst, c);
  return worst;
}

TEST(ExitCode, MostSevereFollowsTheDocumentedOrder) {
  // README: 4, 3, 1, 2, 5, 0 from most to least severe.
  const std::vector<ExitCode> order = {ExitCode::Internal, ExitCode::BadInput, ExitCode::Inequivalent,
                                       ExitCode::Unknown, ExitCode::EqualUpToRounding, ExitCode::Equivalent};
  for (size_t i = 0; i < order.size(); ++i)
    for (size_t j = i; j < order.size(); ++j) {
      EXPECT_EQ(most_severe(order[i], order[j]), order[i]) << i << " " << j;
      EXPECT_EQ(most_severe(order[j], order[i]), order[i]) << j << " " << i;
    }
  EXPECT_EQ(of({}), ExitCode::Equivalent);
  EXPECT_EQ(of({ExitCode::Equivalent, ExitCode::Unknown, ExitCode::Inequivalent}), ExitCode::Inequivalent);
  EXPECT_EQ(of({ExitCode::Inequivalent, ExitCode::BadInput}), ExitCode::BadInput);
  EXPECT_EQ(of({ExitCode::Equivalent, ExitCode::EqualUpToRounding}), ExitCode::EqualUpToRounding);
  EXPECT_EQ(of({ExitCode::EqualUpToRounding, ExitCode::Unknown}), ExitCode::Unknown);
}

TEST(ExitCode, ValuesAreTheDocumentedProcessCodes) {
  EXPECT_EQ(static_cast<int>(ExitCode::Equivalent), 0);
  EXPECT_EQ(static_cast<int>(ExitCode::Inequivalent), 1);
  EXPECT_EQ(static_cast<int>(ExitCode::Unknown), 2);
  EXPECT_EQ(static_cast<int>(ExitCode::BadInput), 3);
  EXPECT_EQ(static_cast<int>(ExitCode::Internal), 4);
  EXPECT_EQ(static_cast<int>(ExitCode::EqualUpToRounding), 5);
}

}  // namespace
}  // namespace racer
