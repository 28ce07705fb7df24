// --trace end to end: check and calibrate append signed records that `racer trace verify`
// accepts, and an edited record is caught.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;

struct Cli {
  std::string bin, dir;
  Cli() {
    const char* b = std::getenv("RACER_BIN");
    bin = b ? b : "";
    // One directory per test: ctest runs the tests of this file in parallel.
    dir = (fs::path(RACER_BINARY_DIR) / ("contract_trace_test_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()))).string();
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  int run(const std::string& args) const {
    std::string cmd = "cd '" + std::string(RACER_SOURCE_DIR) + "' && '" + bin + "' " + args + " > '" + dir + "/out.txt' 2>&1";
    int rc = std::system(cmd.c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  }
  std::vector<std::string> lines(const std::string& file) const {
    std::ifstream in(file);
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
  }
};

TEST(ContractTrace, CheckWritesVerifiableRecordsAndTamperingIsCaught) {
  Cli cli;
  if (cli.bin.empty() || !fs::exists(cli.bin)) GTEST_SKIP() << "RACER_BIN (the racer binary) is not built";
  std::string key = cli.dir + "/k", tr = cli.dir + "/t.jsonl";
  ASSERT_EQ(cli.run("trace keygen '" + key + "'"), 0);
  EXPECT_EQ(cli.run("contract check contracts/C-ORD-02.kc --impl bad --trace '" + tr + "' --key '" + key + "'"), 1);
  EXPECT_EQ(cli.run("contract check contracts/C-ORD-02.kc --impl good --trace '" + tr + "' --key '" + key + "'"), 0);
  auto recs = cli.lines(tr);
  ASSERT_EQ(recs.size(), 6u);  // 2 measurements + a verdict, per implementation
  auto first = nlohmann::json::parse(recs[0]);
  EXPECT_EQ(first["kind"], "contract_measurement");
  EXPECT_EQ(first["contract"], "C-ORD-02");
  EXPECT_EQ(first["impl"], "bad");
  EXPECT_EQ(first["backend"], "cpu");
  EXPECT_EQ(first["verdict"], "violation");
  EXPECT_EQ(first["contract_hash"].get<std::string>().size(), 64u);
  EXPECT_EQ(first["ptx_hash"].get<std::string>().size(), 64u);
  EXPECT_TRUE(first["residual"].is_string());  // exact hex, never a JSON float
  auto verdict = nlohmann::json::parse(recs[5]);
  EXPECT_EQ(verdict["kind"], "contract_verdict");
  EXPECT_EQ(verdict["verdict"], "conforming");
  EXPECT_EQ(cli.run("trace verify '" + tr + "' --key '" + key + ".pub'"), 0);

  // Flip the verdict of the first record: the signature no longer covers it.
  recs[0].replace(recs[0].find("\"violation\""), 11, "\"pass\"");
  {
    std::ofstream out(tr);
    for (const auto& l : recs) out << l << "\n";
  }
  EXPECT_EQ(cli.run("trace verify '" + tr + "' --key '" + key + ".pub'"), 1);
}

TEST(ContractTrace, TraceWithoutKeyIsBadInput) {
  Cli cli;
  if (cli.bin.empty() || !fs::exists(cli.bin)) GTEST_SKIP() << "RACER_BIN (the racer binary) is not built";
  EXPECT_EQ(cli.run("contract check contracts/C-ORD-02.kc --impl good --trace '" + cli.dir + "/t.jsonl'"), 3);
}

}  // namespace
