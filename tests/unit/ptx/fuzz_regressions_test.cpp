// Inputs the PTX fuzzer (tests/fuzz/ptx_parse_fuzz) once crashed, hung or broke the round trip
// on. Each file under tests/fuzz/regressions must either parse or be rejected with
// racer::Error, quickly; when it parses, its printed text must parse again and print the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ptx/lexer.hpp"
#include "ptx/parser.hpp"
#include "ptx/printer.hpp"
#include "support/error.hpp"

namespace racer::ptx {
namespace {

constexpr auto kTimeBound = std::chrono::seconds(2);  // per file; all take milliseconds when fixed

std::vector<std::filesystem::path> regression_files() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(RACER_SOURCE_DIR "/tests/fuzz/regressions"))
    if (e.is_regular_file() && e.path().filename().string()[0] != '.' && e.path().extension() != ".md")
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(FuzzRegressions, DirectoryHasInputs) { EXPECT_FALSE(regression_files().empty()); }

TEST(FuzzRegressions, EachInputParsesOrIsRejected) {
  for (const auto& path : regression_files()) {
    SCOPED_TRACE(path.string());
    std::string text = read_bytes(path);
    auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(lex(text).back().kind, Tok::End);
    try {
      std::string printed = print_module(parse_ptx(SourceText(path.string(), text)).module);
      try {
        std::string reprinted = print_module(parse_ptx(SourceText(path.string() + " (printed)", printed)).module);
        EXPECT_EQ(printed, reprinted) << "printing is not a fixed point";
      } catch (const Error& e) {
        ADD_FAILURE() << "printed module does not parse:\n" << e.what() << "\n--- printed ---\n" << printed;
      }
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::BadInput);
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start, kTimeBound);
  }
}

}  // namespace
}  // namespace racer::ptx
