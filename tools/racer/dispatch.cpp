#include <map>

#include "tools/racer/commands.hpp"

namespace racer::cli {
namespace {
std::map<CLI::App*, std::function<int()>>& actions() {
  static std::map<CLI::App*, std::function<int()>> a;
  return a;
}
}  // namespace

void on_selected(CLI::App* sub, std::function<int()> action) { actions()[sub] = std::move(action); }

int run_selected(CLI::App& app) {
  // The deepest parsed subcommand with an action wins (racer ptx parse -> "parse").
  for (CLI::App* level = &app;;) {
    auto subs = level->get_subcommands();
    if (subs.empty()) break;
    level = subs.front();
    if (auto it = actions().find(level); it != actions().end() && level->get_subcommands().empty()) return it->second();
  }
  return 0;
}

}  // namespace racer::cli
