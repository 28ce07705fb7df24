#include "frontend/reference_trace.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "instance/json.hpp"
#include "frontend/process.hpp"
#include "instance/reference_json.hpp"
#include "support/error.hpp"

namespace racer::frontend {

void trace_reference(instance::Instance& inst) {
  if (inst.b.reference_spec.empty() || inst.b.reference) return;
  // The racer package of this source tree first on the child's path (as for Triton).
  std::string pypath = RACER_FRONTEND_PYTHON_DIR;
  if (const char* old = std::getenv("PYTHONPATH"); old && *old) pypath += std::string(":") + old;
  ::setenv("PYTHONPATH", pypath.c_str(), 1);
  ::setenv("RACER_CORE_DIR", RACER_FRONTEND_CORE_DIR, 0);
  std::string python = "python3";
  if (const char* p = std::getenv("RACER_PYTHON"); p && *p) python = p;

  namespace fs = std::filesystem;
  fs::path base = fs::temp_directory_path() / ("racer-reference-" + std::to_string(::getpid()));
  std::string desc = base.string() + ".json", out = base.string() + ".out", err = base.string() + ".err";
  nlohmann::json j = instance::instance_to_json(inst);
  {
    std::ofstream f(desc);
    f << nlohmann::json{{"tensors", j["tensors"]}, {"outputs", j["outputs"]}}.dump();
  }
  std::string dir = fs::path(inst.source_path).parent_path().string();
  int status = run_process({python, "-m", "racer.reference", inst.b.reference_spec, desc, dir.empty() ? "." : dir}, out, err);
  std::string text = read_file(out), message = read_file(err);
  for (const std::string& f : {desc, out, err}) fs::remove(f);
  std::string at = inst.b.reference_loc.line ? inst.b.reference_loc.str() + ": " : inst.source_path + ": ";
  if (status == 127) throw Error(ExitCode::BadInput, at + "cannot run " + python + " to trace the reference (set RACER_PYTHON)");
  if (status != 0) {
    while (!message.empty() && message.back() == '\n') message.pop_back();
    throw Error(ExitCode::BadInput, at + "reference " + inst.b.reference_spec + ": " +
                                        (message.empty() ? "tracing it failed" : message));
  }
  try {
    inst.b.reference = instance::reference_from_json(nlohmann::json::parse(text), inst);
  } catch (const nlohmann::json::exception& e) {
    throw Error(ExitCode::Internal, std::string("the reference tracer answered something unreadable: ") + e.what());
  }
}

}  // namespace racer::frontend
