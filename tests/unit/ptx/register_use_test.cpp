// RegisterUse holds, per instruction, what reads_of and writes_of say: the routine probes read
// it at every step instead of asking them, so the two must agree on every instruction of every
// corpus function (guards, vectors, addresses, sinks, calls included).
#include <gtest/gtest.h>

#include "corpus_files.hpp"
#include "ptx/liveness.hpp"
#include "ptx/parser.hpp"

namespace racer::ptx {
namespace {

TEST(RegisterUse, IsReadsOfAndWritesOfOfEveryInstruction) {
  size_t checked = 0;
  std::vector<uint32_t> reads, writes;
  for (const auto& path : test::corpus_ptx_files()) {
    ParsedModule p = parse_ptx_file(path);
    for (const Function& f : p.module.functions) {
      RegisterUse use(f);
      for (uint32_t pc = 0; pc < f.instrs.size(); ++pc) {
        reads_of(f.instrs[pc], reads);
        writes_of(f.instrs[pc], writes);
        auto r = use.reads(pc), w = use.writes(pc);
        ASSERT_EQ(std::vector<uint32_t>(r.begin(), r.end()), reads) << path << " " << f.name << " pc " << pc;
        ASSERT_EQ(std::vector<uint32_t>(w.begin(), w.end()), writes) << path << " " << f.name << " pc " << pc;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 5000u);
}

}  // namespace
}  // namespace racer::ptx
