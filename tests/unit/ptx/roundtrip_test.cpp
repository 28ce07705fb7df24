// Every corpus PTX file parses, prints, and parses back to the identical IR; printing is a
// fixed point.
#include <gtest/gtest.h>

#include "ptx/parser.hpp"
#include "ptx/printer.hpp"
#include "support/error.hpp"
#include "corpus_files.hpp"

namespace racer::ptx {
namespace {

TEST(CorpusRoundTrip, CorpusHasBothFrontEnds) {
  auto files = test::corpus_ptx_files();
  size_t cuda = 0, triton = 0;
  for (const auto& f : files) (f.find("/cuda/") != std::string::npos ? cuda : triton)++;
  EXPECT_GE(cuda, 6u);
  EXPECT_GE(triton, 30u);
}

TEST(CorpusRoundTrip, ParsePrintParseIsIdentity) {
  for (const auto& path : test::corpus_ptx_files()) {
    SCOPED_TRACE(path);
    ParsedModule first = parse_ptx_file(path);
    ASSERT_FALSE(first.module.functions.empty());
    for (const auto& f : first.module.functions)
      if (f.has_body) {
        EXPECT_FALSE(f.instrs.empty()) << f.name;
      }
    std::string printed = print_module(first.module);
    ParsedModule second = parse_ptx(SourceText(path + " (printed)", printed));
    EXPECT_TRUE(first.module == second.module) << "re-parsed IR differs";
    EXPECT_EQ(printed, print_module(second.module)) << "printing is not a fixed point";
  }
}

TEST(CorpusRoundTrip, EveryInstructionHasASourcePosition) {
  for (const auto& path : test::corpus_ptx_files()) {
    ParsedModule p = parse_ptx_file(path);
    ASSERT_EQ(p.map.instr_pos.size(), p.module.functions.size()) << path;
    for (size_t i = 0; i < p.module.functions.size(); ++i) {
      EXPECT_EQ(p.map.instr_pos[i].size(), p.module.functions[i].instrs.size()) << path;
      for (auto [line, col] : p.map.instr_pos[i]) EXPECT_GT(line, 0u);
    }
  }
}

}  // namespace
}  // namespace racer::ptx
