#include "frontend/triton.hpp"

#include <unistd.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "frontend/process.hpp"
#include "frontend/python_env.hpp"
#include "support/error.hpp"

namespace racer::frontend {

std::string triton_type(const std::string& dtype) {
  if (dtype == "f32") return "fp32";
  if (dtype == "f16") return "fp16";
  if (dtype == "bf16") return "bf16";
  if (dtype == "f64") return "fp64";
  if (dtype == "fp8e4m3") return "fp8e4nv";
  if (dtype == "fp8e5m2") return "fp8e5";
  if (dtype == "bool") return "i1";
  return dtype;  // i8 ... i64, u8 ...: Triton's spelling already
}

CompiledTriton compile_triton(const TritonSource& src) {
  export_python_environment();
  std::string python = python_interpreter();
  nlohmann::json sig = src.signature;
  std::vector<std::string> argv = {python, "-m", "racer.triton_ptx", "--file", src.file, "--kernel", src.kernel,
                                   "--signature", sig.dump(), "--num-warps", std::to_string(src.num_warps),
                                   "--num-stages", std::to_string(src.num_stages), "--arch", std::to_string(src.arch)};
  for (const auto& [name, value] : src.constexprs) argv.insert(argv.end(), {"--constexpr", name + "=" + value});
  namespace fs = std::filesystem;
  fs::path base = fs::temp_directory_path() / ("racer-triton-" + std::to_string(::getpid()));
  std::string out = base.string() + ".out", err = base.string() + ".err";
  int status = run_process(argv, out, err);
  std::string text = read_file(out), message = read_file(err);
  fs::remove(out);
  fs::remove(err);
  if (status == 127) throw Error(ExitCode::BadInput, "cannot run " + python + " for the Triton front end (set RACER_PYTHON)");
  if (status != 0) {
    while (!message.empty() && message.back() == '\n') message.pop_back();
    throw Error(ExitCode::BadInput, "Triton kernel '" + src.kernel + "' of " + src.file + ": " +
                                        (message.empty() ? "the Triton front end failed" : message));
  }
  try {
    nlohmann::json j = nlohmann::json::parse(text);
    return {j.at("ptx").get<std::string>(), j.at("entry").get<std::string>(), j.at("extra_null_params").get<uint32_t>(),
            j.at("block").get<uint32_t>(), j.at("shared").get<uint32_t>()};
  } catch (const nlohmann::json::exception& e) {
    throw Error(ExitCode::Internal, std::string("the Triton front end answered something unreadable: ") + e.what());
  }
}

}  // namespace racer::frontend
