// racer: the command-line front door. Each subcommand lives in its own file.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "report/version.hpp"
#include "support/error.hpp"
#include "tools/racer/commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"Racer: symbolic equivalence checking of GPU kernels at the PTX level"};
  app.set_version_flag("--version", "racer " + std::string(racer::report::racer_version()));
  app.require_subcommand(1);
  racer::cli::add_ptx_commands(app);
  racer::cli::add_check_commands(app);
  racer::cli::add_corpus_commands(app);
  racer::cli::add_replay_commands(app);
  racer::cli::add_explain_commands(app);
  racer::cli::add_contract_commands(app);
  racer::cli::add_trace_commands(app);
  racer::cli::add_freivalds_commands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : static_cast<int>(racer::ExitCode::BadInput);
  }
  try {
    return racer::cli::run_selected(app);
  } catch (const racer::Error& e) {
    std::cerr << e.what() << "\n";
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    std::cerr << "racer: internal error: " << e.what() << "\n";
    return static_cast<int>(racer::ExitCode::Internal);
  }
}
