// racer ptx parse|print FILE
#include <iostream>

#include "ptx/parser.hpp"
#include "ptx/printer.hpp"
#include "ptx/summary.hpp"
#include "tools/racer/commands.hpp"
#include "tools/racer/options.hpp"

namespace racer::cli {

void add_ptx_commands(CLI::App& app) {
  auto* ptx = app.add_subcommand("ptx", "Read PTX: summarize or print it canonically");
  ptx->require_subcommand(1);
  static std::string path;
  auto* parse = ptx->add_subcommand("parse", "Parse a PTX file and summarize it, or report every error");
  parse->add_option("file", path, "PTX file")->required()->check(input_file());
  on_selected(parse, [] {
    auto parsed = ptx::parse_ptx_file(path);
    std::cout << ptx::summarize_module(parsed.module, path);
    return 0;
  });
  auto* print = ptx->add_subcommand("print", "Print canonical PTX (accepted by ptxas, parses back to the same IR)");
  print->add_option("file", path, "PTX file")->required()->check(input_file());
  on_selected(print, [] {
    auto parsed = ptx::parse_ptx_file(path);
    std::cout << ptx::print_module(parsed.module);
    return 0;
  });
}

}  // namespace racer::cli
