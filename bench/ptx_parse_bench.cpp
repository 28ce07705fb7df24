// PTX front-end throughput: every .ptx file of the shared corpus is read into memory once,
// then parsed (lexer + parser + checks, to the IR) over and over; also the lexer alone.
//
//   ptx_parse_bench [RUNS [WARMUP [CORPUS_DIR]]]      defaults: 30 runs, 3 warm-up runs
//
// One run is one pass over all files. Throughput is input bytes / wall time, in MB/s (10^6 B/s).
// The same over the thread's CPU time is printed beside it: on a loaded machine it leaves out
// the time the thread waited for a core (not cache and memory contention).
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "ptx/lexer.hpp"
#include "ptx/parser.hpp"
#include "support/error.hpp"
#include "support/source_text.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Stats {
  double median, min, max;
};

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct Runs {
  std::vector<double> wall, cpu;  // MB/s of each timed run
};

Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  return {median, v.front(), v.back()};
}

// Runs body() warmup + runs times; returns the MB/s of each timed run.
template <class F>
Runs measure(size_t bytes, int runs, int warmup, F body) {
  for (int i = 0; i < warmup; ++i) body();
  Runs r;
  for (int i = 0; i < runs; ++i) {
    double c0 = thread_cpu_seconds();
    auto t0 = Clock::now();
    body();
    double s = std::chrono::duration<double>(Clock::now() - t0).count();
    double c = thread_cpu_seconds() - c0;
    r.wall.push_back(static_cast<double>(bytes) / 1e6 / s);
    r.cpu.push_back(static_cast<double>(bytes) / 1e6 / c);
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = argc > 1 ? std::atoi(argv[1]) : 30;
  int warmup = argc > 2 ? std::atoi(argv[2]) : 3;
  std::filesystem::path dir = argc > 3 ? argv[3] : std::string(RACER_CORPUS_DIR) + "/ptx";
  if (runs < 1 || warmup < 0) {
    std::fprintf(stderr, "usage: ptx_parse_bench [RUNS [WARMUP [CORPUS_DIR]]]\n");
    return 2;
  }

  std::vector<std::string> paths;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec); !ec && it != std::filesystem::end(it);
       it.increment(ec))
    if (it->is_regular_file() && it->path().extension() == ".ptx") paths.push_back(it->path().string());
  if (ec || paths.empty()) {
    std::fprintf(stderr, "ptx_parse_bench: no .ptx files under %s\n", dir.c_str());
    return 2;
  }
  std::sort(paths.begin(), paths.end());

  std::vector<racer::SourceText> files;
  size_t bytes = 0;
  try {
    for (const auto& p : paths) {
      files.push_back(racer::SourceText::load(p));
      bytes += files.back().text().size();
      racer::ptx::parse_ptx(files.back());  // every file must parse, or the numbers mean nothing
    }
  } catch (const racer::Error& e) {
    std::fprintf(stderr, "ptx_parse_bench: %s\n", e.what());
    return 1;
  }

  size_t sink = 0;  // keeps the work observable
  auto parse_all = [&] {
    for (const auto& f : files) sink += racer::ptx::parse_ptx(f).module.functions.size();
  };
  auto lex_all = [&] {
    for (const auto& f : files) sink += racer::ptx::lex(f.text()).size();
  };

  std::printf("corpus: %s: %zu files, %zu bytes; %d runs after %d warm-up runs\n", dir.c_str(), files.size(), bytes,
              runs, warmup);
  Runs parse = measure(bytes, runs, warmup, parse_all);
  std::printf("parse MB/s per run (wall):");
  for (size_t i = 0; i < parse.wall.size(); ++i) std::printf("%s%.1f", i % 10 ? " " : "\n  ", parse.wall[i]);
  std::printf("\n");
  Stats p = stats(parse.wall), pc = stats(parse.cpu);
  std::printf("parse_ptx: median %.1f MB/s, min %.1f, max %.1f   (cpu time: median %.1f, max %.1f)\n", p.median, p.min,
              p.max, pc.median, pc.max);

  Runs lex = measure(bytes, runs, warmup, lex_all);
  Stats l = stats(lex.wall), lc = stats(lex.cpu);
  std::printf("lex only : median %.1f MB/s, min %.1f, max %.1f   (cpu time: median %.1f, max %.1f)\n", l.median, l.min,
              l.max, lc.median, lc.max);
  std::printf("(checksum %zu)\n", sink);
  return 0;
}
