#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace racer::cli {

// Each add_* registers subcommands and the action to run when one is selected.
void add_ptx_commands(CLI::App& app);
void add_check_commands(CLI::App& app);
void add_corpus_commands(CLI::App& app);
void add_replay_commands(CLI::App& app);
void add_explain_commands(CLI::App& app);
void add_contract_commands(CLI::App& app);
void add_trace_commands(CLI::App& app);
void add_freivalds_commands(CLI::App& app);
void on_selected(CLI::App* sub, std::function<int()> action);
int run_selected(CLI::App& app);

}  // namespace racer::cli
