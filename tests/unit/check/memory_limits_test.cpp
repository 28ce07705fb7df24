// Limits that hold from the first byte: tensors whose storage cannot fit the memory limit end
// the check Unknown before anything is allocated (not a crash, not the host's OOM killer), and
// a launch that declares more shared or local memory than the hardware has is refused.
#include <unistd.h>

#include "fixture.hpp"

namespace racer::check::testing {
namespace {

const std::string kArgs = R"({ read = "x" }, { write = "out" })";

TEST_F(MachineTest, TensorsBeyondTheMemoryLimitEndUnknownBeforeAllocating) {
  // 2^20 cells of 4 bytes in each of two tensors: about 600 MiB of bookkeeping per program,
  // against 256 MiB.
  Spec s{.tensors = tensor("x", "[1048576]", "f32", "input") + tensor("out", "[1048576]", "f32", "empty"),
         .a = {{"copy", kArgs, "[1]", "[32]"}},
         .b = {{"copy", kArgs, "[1]", "[32]"}}};
  CheckOptions options;
  options.limits.max_memory_mb = 256;
  auto r = run(copy_kernel("copy"), s, options);
  EXPECT_EQ(r.verdict, Verdict::Unknown) << show(r);
  EXPECT_NE(r.reason.find("setting up memory stopped"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("memory limit of 256 MiB"), std::string::npos) << r.reason;
}

TEST(LaunchMemory, StaticSharedOrLocalBeyondWhatTheHardwareHasIsRefused) {
  // Hand-written PTX (ptxas itself would reject these arrays; Racer reads PTX without it):
  // 4e9 bytes of .shared or .local must be refused before anything is allocated for them.
  auto dir = std::filesystem::temp_directory_path() / ("racer_launch_memory_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const std::string decl : {".shared .align 4 .b8 buf[4000000000];", ".local .align 4 .b8 buf[4000000000];"}) {
    std::ofstream(dir / "k.ptx") << kPtxHeader << ".visible .entry big(.param .u64 p0)\n{\n  " << decl
                                 << "\n  .reg .b32 %r<4>;\n  mov.u32 %r1, 0;\n  ret;\n}\n";
    std::ofstream(dir / "case.toml") << R"(name = "big"
outputs = ["out"]
[tensors]
out = { shape = [32], dtype = "f32", init = "zeros" }
[[a.launch]]
ptx = "k.ptx"
entry = "big"
grid = [1]
block = [32]
args = [{ write = "out" }]
[[b.launch]]
ptx = "k.ptx"
entry = "big"
grid = [1]
block = [32]
args = [{ write = "out" }]
)";
    CheckResult r = check_instance(instance::load_instance((dir / "case.toml").string()));
    EXPECT_EQ(r.verdict, Verdict::Refused) << r.reason;
    EXPECT_NE(r.reason.find(decl.starts_with(".shared") ? "of shared memory per CTA" : "of local memory per thread"),
              std::string::npos)
        << r.reason;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace racer::check::testing
