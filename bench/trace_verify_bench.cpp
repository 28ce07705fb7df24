// Times `trace::verify` on a trace of 100,000 realistic records (issue #7's claim: under a
// second). Prints the median of repeated runs for the default mode (chain + every key field
// + the head signature, which authenticates the rest through the chain) and for
// --every-signature. Usage: trace_verify_bench [records] [repeats]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>
#include <ctime>

#include "trace/trace.hpp"

using namespace racer::trace;

static double cpu_now() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double last_cpu_median = 0;

static double median_seconds(int repeats, const std::string& path, const PublicKey& key, bool every) {
  std::vector<double> t, cpu;
  for (int i = 0; i < repeats; ++i) {
    double c0 = cpu_now();
    auto t0 = std::chrono::steady_clock::now();
    VerifyResult r = verify(path, key, {every});
    auto t1 = std::chrono::steady_clock::now();
    if (!r.ok) {
      std::fprintf(stderr, "verify failed: %s\n", r.reason.c_str());
      std::exit(1);
    }
    t.push_back(std::chrono::duration<double>(t1 - t0).count());
    cpu.push_back(cpu_now() - c0);
  }
  std::sort(t.begin(), t.end());
  std::sort(cpu.begin(), cpu.end());
  last_cpu_median = cpu[cpu.size() / 2];
  return t[t.size() / 2];
}

int main(int argc, char** argv) {
  const int records = argc > 1 ? std::atoi(argv[1]) : 100000;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 5;
  auto dir = std::filesystem::temp_directory_path() / ("racer_trace_bench_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string key = (dir / "key").string(), path = (dir / "trace.jsonl").string();
  Signer::generate(key);
  auto w0 = std::chrono::steady_clock::now();
  {
    Writer w(path, Signer::load(key));
    for (int i = 0; i < records; ++i)
      w.append({{"kind", "freivalds"}, {"backend", "cuda"}, {"device", "NVIDIA H200, driver 570"}, {"format", "bf16"},
                {"n", 8192}, {"k", 10}, {"seed", i}, {"input_hash", std::string(64, 'a')},
                {"residual", exact_hex(1e-3 * i)}, {"tolerance", exact_hex(0.125)}, {"verdict", "pass"}});
  }
  double write_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  PublicKey pub = PublicKey::load(key + ".pub");
  double fast = median_seconds(repeats, path, pub, false);
  double fast_cpu = last_cpu_median;
  double every = median_seconds(std::max(1, repeats / 2), path, pub, true);
  double every_cpu = last_cpu_median;
  std::printf("records %d, file %.1f MB, write %.3f s (one pass)\n", records,
              std::filesystem::file_size(path) / 1e6, write_s);
  std::printf("verify (chain + keys + head signature): median %.3f s wall, %.3f s CPU (all threads), of %d\n", fast, fast_cpu, repeats);
  std::printf("verify --every-signature:               median %.3f s wall, %.3f s CPU (all threads), of %d\n", every, every_cpu,
              std::max(1, repeats / 2));
  std::filesystem::remove_all(dir);
}
