// racer replay WITNESS: run both programs concretely at a witness.
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "check/replay.hpp"
#include "frontend/python_env.hpp"
#include "instance/load.hpp"
#include "report/report.hpp"
#include "tools/racer/commands.hpp"
#include "tools/racer/options.hpp"
#include "tools/racer/python_bridge.hpp"

namespace racer::cli {
namespace {

std::string show(const check::ReplayCell& c) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s: a = %.9g (0x%llx), b = %.9g (0x%llx)", c.cell.c_str(), c.a,
                static_cast<unsigned long long>(c.bits_a), c.b, static_cast<unsigned long long>(c.bits_b));
  return buf;
}

int run_replay(const std::string& path) {
  report::WitnessFile w = report::read_witness(path);
  instance::Instance inst = report::witness_instance(w, path);
  check::ReplayResult r = check::replay(inst, w.cell, w.values);
  std::cout << inst.name << ": replay at the witness (bit-exact IEEE emulation on the CPU)\n";
  for (const auto& v : w.values) std::cout << "  " << v.name << " = " << v.value.get_str() << "\n";
  if (!r.refusal.empty()) {
    std::cout << "refused: " << r.refusal << "\n";
    return 3;
  }
  if (r.at_witness) std::cout << "witness cell " << show(*r.at_witness) << (r.at_witness->bits_a != r.at_witness->bits_b ? "  DIFFER" : "  same bits") << "\n";
  std::cout << r.differing_count << " of " << r.compared << " output cells differ in their bits\n";
  for (const auto& c : r.differing) std::cout << "  " << show(c) << "\n";
  for (const auto& e : r.float_events) std::cout << "float event " << e << "\n";
  for (const auto& d : r.defects) std::cout << "defect " << d.program << ": " << exec::defect_kind_name(d.kind) << " at " << d.memory << "\n";
  return r.differing_count ? 1 : 0;
}

}  // namespace

void add_replay_commands(CLI::App& app) {
  static std::string path;
  static bool gpu = false;
  auto* r = app.add_subcommand("replay", "Run both programs concretely (bit-exact IEEE emulation) at a saved witness");
  r->add_option("witness", path, "witness file written by racer check --witness")->required()->check(input_file());
  r->add_flag("--gpu", gpu, "run both programs on this machine's NVIDIA GPU (CuPy) instead of the CPU emulation");
  on_selected(r, [] { return gpu ? exec_python({frontend::python_package_dir() + "/racer/gpu_replay.py", path}) : run_replay(path); });
}

}  // namespace racer::cli
