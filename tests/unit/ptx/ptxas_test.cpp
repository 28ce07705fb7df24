// ptxas accepts the canonical printing of every corpus file. Skips (with the reason) only
// where ptxas is not installed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "ptx/parser.hpp"
#include "ptx/printer.hpp"
#include "corpus_files.hpp"

namespace racer::ptx {
namespace {

std::string find_ptxas() {
  for (const char* p : {"/usr/local/cuda/bin/ptxas", "/usr/bin/ptxas"})
    if (std::filesystem::exists(p)) return p;
  return std::system("command -v ptxas >/dev/null 2>&1") == 0 ? "ptxas" : "";
}

TEST(Ptxas, AcceptsPrintedCorpus) {
  std::string ptxas = find_ptxas();
  if (ptxas.empty()) GTEST_SKIP() << "ptxas not installed (CUDA toolkit absent): printed PTX not assembled";
  auto dir = std::filesystem::temp_directory_path() / ("racer_ptxas_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const auto& path : test::corpus_ptx_files()) {
    SCOPED_TRACE(path);
    std::string arch = path.find(".sm80.") != std::string::npos ? "sm_80" : "sm_90a";
    auto out = dir / (std::filesystem::path(path).stem().string() + ".ptx");
    std::ofstream(out) << print_module(parse_ptx_file(path).module);
    std::string cmd = ptxas + " -arch=" + arch + " " + out.string() + " -o " + (dir / "out.cubin").string() + " 2>" +
                      (dir / "err.txt").string();
    int rc = std::system(cmd.c_str());
    std::ifstream err(dir / "err.txt");
    std::string msg((std::istreambuf_iterator<char>(err)), {});
    EXPECT_EQ(rc, 0) << msg;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace racer::ptx
