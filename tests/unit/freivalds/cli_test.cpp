// racer freivalds and racer trace from the command line: exit codes and messages.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

std::string racer_bin() {
  const char* env = std::getenv("RACER_BIN");
  return env ? env : std::string(RACER_BINARY_DIR) + "/racer";
}

struct CliRun {
  int code;
  std::string out;
};

CliRun run(const std::string& args) {
  static int counter = 0;
  std::string log = (std::filesystem::temp_directory_path() / ("racer_fv_cli_" + std::to_string(::getpid()) + "_" + std::to_string(counter++))).string();
  int status = std::system((racer_bin() + " " + args + " > " + log + " 2>&1").c_str());
  std::ifstream in(log);
  std::stringstream s;
  s << in.rdbuf();
  std::filesystem::remove(log);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, s.str()};
}

class FreivaldsCli : public ::testing::Test {
 protected:
  std::filesystem::path dir;
  void SetUp() override {
    if (!std::filesystem::exists(racer_bin())) GTEST_SKIP() << "the racer binary is not built: " << racer_bin();
    dir = std::filesystem::temp_directory_path() / ("racer_fv_cli_dir_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  std::string at(const std::string& name) const { return (dir / name).string(); }
};

TEST_F(FreivaldsCli, SelfTestPassesInEveryFormat) {
  for (std::string f : {"f32", "tf32", "f16", "bf16", "s8", "u8"}) {
    CliRun r = run("freivalds --cpu --n 48 --k 8 --format " + f + " --self-test");
    EXPECT_EQ(r.code, 0) << f << "\n" << r.out;
    EXPECT_NE(r.out.find("corrupted FAIL"), std::string::npos) << r.out;
  }
}

TEST_F(FreivaldsCli, SelfTestFailsWhenTheCorruptionIsBelowTheTolerance) {
  CliRun r = run("freivalds --cpu --n 48 --k 8 --format f32 --self-test --corrupt-factor 0.5");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("corrupted PASS"), std::string::npos) << r.out;
}

TEST_F(FreivaldsCli, GpuWithoutADeviceSaysSo) {
  CliRun r = run("freivalds --gpu --n 64 --k 4 --self-test");
  if (r.code == 0) GTEST_SKIP() << "a GPU is present: the GPU self-test passed";
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("--gpu: "), std::string::npos) << r.out;
}

TEST_F(FreivaldsCli, ExactGpuCheckWithoutADeviceSaysWhatIsMissing) {
  for (std::string f : {"s8", "u8"}) {
    CliRun r = run("freivalds --gpu --n 64 --k 4 --format " + f + " --self-test");
    if (r.code == 0) GTEST_SKIP() << "a GPU is present: the exact GPU self-test passed";
    EXPECT_EQ(r.code, 3) << r.out;
    EXPECT_NE(r.out.find("--gpu: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("CUDA"), std::string::npos) << r.out;  // the backend or the device, not the format
    EXPECT_EQ(r.out.find("CPU only"), std::string::npos) << r.out;
  }
}

TEST_F(FreivaldsCli, ExactSelfTestNamesTheCorruptedRow) {
  CliRun r = run("freivalds --cpu --n 48 --k 3 --format u8 --vector-seed 9 --self-test");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("corrupted FAIL  exact mod 2^61-1, row 16 differs (vector 0, residual "), std::string::npos) << r.out;
}

TEST_F(FreivaldsCli, MeasurementsAreSignedTraceRecords) {
  ASSERT_EQ(run("trace keygen " + at("k")).code, 0);
  EXPECT_EQ(run("freivalds --n 32 --self-test --trace " + at("t.jsonl")).code, 3);  // --trace needs --key
  CliRun m = run("freivalds --n 32 --k 4 --format bf16 --self-test --trace " + at("t.jsonl") + " --key " + at("k"));
  ASSERT_EQ(m.code, 0) << m.out;
  CliRun v = run("trace verify " + at("t.jsonl") + " --key " + at("k.pub") + " --expect-records 2");
  EXPECT_EQ(v.code, 0) << v.out;
  EXPECT_NE(v.out.find("ok, 2 records"), std::string::npos) << v.out;
  EXPECT_EQ(run("trace verify " + at("t.jsonl") + " --key " + at("k.pub") + " --expect-records 3").code, 1);
  // An edited verdict is named.
  std::ifstream in(at("t.jsonl"));
  std::string first, second;
  std::getline(in, first);
  std::getline(in, second);
  in.close();
  size_t p = second.find("\"verdict\":\"fail\"");
  ASSERT_NE(p, std::string::npos) << second;
  second.replace(p, 16, "\"verdict\":\"pass\"");
  std::ofstream(at("t.jsonl"), std::ios::trunc) << first << "\n" << second << "\n";
  CliRun t = run("trace verify " + at("t.jsonl") + " --key " + at("k.pub"));
  EXPECT_EQ(t.code, 1) << t.out;
  EXPECT_NE(t.out.find("record 1 (line 2)"), std::string::npos) << t.out;
  EXPECT_EQ(run("trace verify " + at("t.jsonl") + " --key " + at("missing.pub")).code, 3);
}

}  // namespace

namespace {

TEST_F(FreivaldsCli, MeasurementsMadeElsewhereAreSignedOnReceipt) {
  ASSERT_EQ(run("trace keygen " + at("k")).code, 0);
  std::ofstream(at("m.jsonl")) << "{\"kind\":\"freivalds_overhead\",\"n\":1024,\"check_ms\":\"0x1.8p-5\"}\n\n{\"kind\":\"x\",\"n\":2}\n";
  CliRun a = run("trace append " + at("t.jsonl") + " --key " + at("k") + " --from " + at("m.jsonl"));
  ASSERT_EQ(a.code, 0) << a.out;
  EXPECT_NE(a.out.find("appended 2 records"), std::string::npos) << a.out;
  EXPECT_EQ(run("trace verify " + at("t.jsonl") + " --key " + at("k.pub") + " --expect-records 2").code, 0);
  std::ofstream(at("f.jsonl")) << "{\"residual\":0.5}\n";
  CliRun f = run("trace append " + at("t.jsonl") + " --key " + at("k") + " --from " + at("f.jsonl"));
  EXPECT_EQ(f.code, 3) << f.out;
  EXPECT_NE(f.out.find("f.jsonl:1"), std::string::npos) << f.out;
}

}  // namespace
