// Limits that hold from the first byte: tensors whose storage cannot fit the memory limit end
// the check Unknown before anything is allocated (not a crash, not the host's OOM killer), and
// a launch that declares more shared or local memory than the hardware has is refused.
#include <sys/resource.h>
#include <unistd.h>

#include "exec/session.hpp"
#include "fixture.hpp"

namespace racer::check::testing {
namespace {

const std::string kArgs = R"({ read = "x" }, { write = "out" })";

TEST_F(MachineTest, TensorsBeyondTheMemoryLimitEndUnknownBeforeAllocating) {
  // 2^24 cells of 4 bytes in each of two tensors: about 900 MiB of values, states and symbols
  // per program before any access record, against 256 MiB.
  Spec s{.tensors = tensor("x", "[16777216]", "f32", "input") + tensor("out", "[16777216]", "f32", "empty"),
         .a = {{"copy", kArgs, "[1]", "[32]"}},
         .b = {{"copy", kArgs, "[1]", "[32]"}}};
  CheckOptions options;
  options.limits.max_memory_mb = 256;
  auto r = run(copy_kernel("copy"), s, options);
  EXPECT_EQ(r.verdict, Verdict::Unknown) << show(r);
  EXPECT_NE(r.reason.find("setting up memory stopped"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("memory limit of 256 MiB"), std::string::npos) << r.reason;
}

TEST_F(MachineTest, CellsNoProgramWroteCountAgainstTheMemoryLimitAfterExecution) {
  // The storage fits, and 32 threads write 32 cells; but every one of the 2^22 cells neither
  // program wrote becomes a symbol of its own when the self-check and the decider read the
  // outputs, and the self-check's point and emulation then hold a value for each. That must
  // stop at the limit, not run the process past it: the emulation ran under a session of its
  // own with the default limits and took this process to 2.6 GB against 1.2 GB above what
  // was resident. (Since symbols became cheaper the decider fits: Equivalent, where the
  // check used to stop while making the symbols.)
  Spec s{.tensors = tensor("x", "[4194304]", "f32", "input") + tensor("out", "[4194304]", "f32", "empty"),
         .a = {{"copy", kArgs, "[1]", "[32]"}},
         .b = {{"copy", kArgs, "[1]", "[32]"}}};
  CheckOptions options;
  options.limits.max_memory_mb = exec::Session::resident_mb() + 1200;
  options.limits.max_seconds = 600;  // (deciding 2^22 cells takes 20-60 s on a loaded machine: not the limit tested)
  auto r = run(copy_kernel("copy"), s, options);
  if (r.verdict == Verdict::Unknown) {
    EXPECT_NE(r.reason.find("memory limit"), std::string::npos) << r.reason;
  } else {
    EXPECT_EQ(r.verdict, Verdict::Equivalent) << show(r);
  }
  EXPECT_NE(r.self_check.find("stopped: memory limit"), std::string::npos) << r.self_check;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);  // ctest runs each test in a process of its own
  EXPECT_LT(double(usage.ru_maxrss) / 1024, 1.1 * double(options.limits.max_memory_mb));
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
