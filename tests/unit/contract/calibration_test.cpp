// The committed CPU calibration table is what `racer contract calibrate` produces now, and it
// shows all twelve classes separated (the command exits 0 only then).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ContractCalibration, CpuTableIsCurrentAndSeparatesAllClasses) {
  const char* bin = std::getenv("RACER_BIN");
  if (!bin || !std::filesystem::exists(bin)) GTEST_SKIP() << "RACER_BIN (the racer binary) is not built";
  std::string src = RACER_SOURCE_DIR;
  std::string out = std::string(RACER_BINARY_DIR) + "/calibration_cpu_test.md";
  // Relative paths, as the committed table was generated from the repository root.
  std::string cmd = "cd '" + src + "' && '" + bin + "' contract calibrate contracts/C-*.kc contracts/examples/attention.kc --markdown '" + out + "' > /dev/null";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << "calibration does not separate every contract: run " << cmd;
  std::string now = slurp(out), committed = slurp(src + "/contracts/CALIBRATION.md");
  EXPECT_NE(now.find("15 of 15 contracts separate"), std::string::npos) << now;  // 12 classes, 3 attention examples
  EXPECT_EQ(now, committed) << "contracts/CALIBRATION.md is stale: regenerate it with racer contract calibrate contracts/C-*.kc contracts/examples/attention.kc --markdown contracts/CALIBRATION.md";
}

}  // namespace
