// racer corpus DIR: every instance against its [expect], as a scoreboard (and JUnit XML).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "frontend/reference_trace.hpp"
#include "report/scoreboard.hpp"
#include "support/error.hpp"
#include "tools/racer/commands.hpp"
#include "tools/racer/forked.hpp"
#include "tools/racer/options.hpp"
#include "tools/racer/progress_line.hpp"

namespace racer::cli {
namespace {

struct CorpusArgs {
  std::string dir;
  double seconds = 60;
  bool json = false, quiet = false;
  std::string junit, hazards;
  unsigned jobs = 1;
  std::optional<unsigned> hazard_points;
};

std::vector<std::filesystem::path> instance_files(const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) throw Error(ExitCode::BadInput, dir + ": not a directory of instances");
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".toml") files.push_back(e.path());
  if (ec) throw Error(ExitCode::BadInput, dir + ": cannot read directory: " + ec.message());
  std::sort(files.begin(), files.end());
  return files;
}

int run_corpus(const CorpusArgs& a) {
  std::vector<std::filesystem::path> files = instance_files(a.dir);
  std::vector<report::ScoreRow> rows;
  // On a terminal, "corpus: N of M instances checked" under the rows as they come.
  ProgressLine line(!a.quiet);
  check::Progress progress;
  progress.phase = check::Phase::Corpus;
  progress.instances_total = files.size();
  line.update(progress);
  auto print = [&](report::ScoreRow row) {
    line.finished();
    std::cout << report::scoreboard_line(row) << "\n" << std::flush;
    rows.push_back(std::move(row));
    progress.instances_done = rows.size();
    if (rows.size() < files.size()) line.update(progress);
  };
  if (a.jobs <= 1) {
    for (const auto& f : files) print(report::score_instance(f.string(), a.seconds, frontend::trace_reference, a.hazard_points));
  } else {
    run_forked(
        files.size(), a.jobs, [&](size_t i) { return report::row_json(report::score_instance(files[i].string(), a.seconds, frontend::trace_reference, a.hazard_points)).dump(); },
        [&](size_t i, const ChildOutcome& c) {
          if (c.died.empty()) return print(report::row_from_json(nlohmann::json::parse(c.output)));
          report::ScoreRow row;
          row.name = files[i].stem().string();
          row.file = files[i].string();
          row.expected = "?";
          row.got = "error";
          row.why = "the check's process " + c.died;
          print(row);
        });
  }
  line.finished();
  size_t passed = static_cast<size_t>(std::count_if(rows.begin(), rows.end(), [](const auto& r) { return r.pass; }));
  if (a.json) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& r : rows) j.push_back(report::row_json(r));
    std::cerr << j.dump(2) << "\n";
  }
  if (!a.junit.empty()) {
    std::ofstream out(a.junit);
    if (!out) throw Error(ExitCode::BadInput, a.junit + ": cannot write the JUnit report");
    out << report::junit(rows, "racer corpus " + std::filesystem::path(a.dir).lexically_normal().filename().string());
  }
  if (!a.hazards.empty()) {
    std::ofstream out(a.hazards);
    if (!out || !(out << report::hazards_markdown(rows))) throw Error(ExitCode::BadInput, a.hazards + ": cannot write the hazards table");
  }
  std::cout << passed << " passed, " << rows.size() - passed << " failed\n";
  return passed == rows.size() ? 0 : 1;
}

}  // namespace

void add_corpus_commands(CLI::App& app) {
  static CorpusArgs args;
  auto* k = app.add_subcommand("corpus", "Run every instance in a directory against its [expect]; print a scoreboard");
  k->add_option("dir", args.dir, "directory of .toml instances")->required();
  k->add_option("--time-limit", args.seconds, "seconds per case (default 60)")->check(non_negative());
  k->add_flag("--json", args.json, "also write the rows as JSON to stderr");
  k->add_flag("--quiet,-q", args.quiet, "no progress line on a terminal");
  k->add_option("--junit", args.junit, "also write the rows as a JUnit XML report to this file");
  k->add_option("--hazards", args.hazards, "also write each instance's float hazards and precision changes as a Markdown table to this file");
  k->add_option("--hazard-points", args.hazard_points,
                "inputs of the float hazard search per instance, every one run (default: racer check's search; 24 is --float-hazards; 0 skips it)")
      ->check(non_negative());
  k->add_option("--jobs,-j", args.jobs, "instances checked at once, each in its own process (default 1)")->check(positive_count());
  on_selected(k, [] { return run_corpus(args); });
}

}  // namespace racer::cli
