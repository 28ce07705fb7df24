// racer explain CASE --cell T[i,j]
#include <filesystem>
#include <iostream>

#include "check/explain.hpp"
#include "frontend/reference_trace.hpp"
#include "instance/load.hpp"
#include "tools/racer/check_python.hpp"
#include "tools/racer/commands.hpp"
#include "tools/racer/options.hpp"

namespace racer::cli {

void add_explain_commands(CLI::App& app) {
  static std::string path, cell, which;
  static double seconds = 60;
  auto* e = app.add_subcommand("explain", "Show both programs' expressions for one output cell and how it was decided");
  e->add_option("case", path, "checking instance (.toml, or .py written with the Python API)")
      ->required()
      ->check(input_file());
  e->add_option("--instance", which, "the instance of a .py file that defines several");
  e->add_option("--cell", cell, "output cell, e.g. out[1,3]")->required();
  e->add_option("--time-limit", seconds, "seconds (default 60)")->check(non_negative());
  on_selected(e, [] {
    bool python = std::filesystem::path(path).extension() == ".py";
    instance::Instance inst = python ? python_instance(path, which) : instance::load_instance(path);
    if (!python) frontend::trace_reference(inst);
    check::CheckOptions o;
    o.limits.max_seconds = seconds;
    check::Explanation x = check::explain_cell(inst, cell, o);
    std::cout << inst.name << ": " << x.cell << "\n";
    for (const auto& r : x.recognized) std::cout << "  recognized " << r << "\n";
    if (!x.stopped.empty()) {
      std::cout << "the programs did not run to the end:\n  " << x.stopped << "\n";
      return 3;
    }
    std::cout << "program a: " << x.expr_a << "\nprogram b: " << x.expr_b << "\na - b:     " << x.difference << "\n";
    std::cout << "decided:   " << x.status << (x.step.empty() ? "" : " (" + x.step + ")") << "\n";
    if (!x.reason.empty()) std::cout << "why:       " << x.reason << "\n";
    return x.status == "proved" ? 0 : x.status == "refuted" ? 1 : 2;
  });
}

}  // namespace racer::cli
