// The PTX committed beside each implementation source is what contracts/impl/build.sh makes
// from it now (so a contract never measures a kernel other than the source it shows).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/nvcc.hpp"

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ContractImplementations, CommittedPtxMatchesItsSource) {
  std::string nvcc = racer::frontend::find_nvcc();
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc: the committed PTX is used as is";
  fs::path impl = fs::path(RACER_SOURCE_DIR) / "contracts" / "impl";
  fs::path out = fs::path(RACER_BINARY_DIR) / "contract_impl_ptx";
  fs::create_directories(out);
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(impl)) {
    if (e.path().extension() != ".cu") continue;
    SCOPED_TRACE(e.path().string());
    fs::path ptx = out / e.path().stem();
    ptx += ".ptx";
    std::string cmd = "'" + nvcc + "' -arch=sm_90 -ptx -O3 -o '" + ptx.string() + "' '" + e.path().string() + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    fs::path committed = e.path();
    committed.replace_extension(".ptx");
    EXPECT_EQ(slurp(ptx), slurp(committed)) << committed << " is stale: run contracts/impl/build.sh";
    ++n;
  }
  EXPECT_GE(n, 13u);
}

}  // namespace
