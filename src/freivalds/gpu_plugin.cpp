#include "freivalds/gpu_plugin.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <string>

#include "support/error.hpp"

namespace racer::freivalds {

GpuPlugin load_gpu_plugin() {
  const char* name = "libracer_freivalds_cuda.so";
  std::error_code ec;
  auto beside = std::filesystem::read_symlink("/proc/self/exe", ec).parent_path() / name;
  void* h = !ec && std::filesystem::exists(beside) ? dlopen(beside.c_str(), RTLD_NOW | RTLD_LOCAL) : nullptr;
  if (!h) h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = dlerror();
    throw Error(ExitCode::BadInput, std::string("--gpu: the CUDA backend is not available (") + (e ? e : name) +
                                        "); it is built when CMake finds the CUDA toolkit");
  }
  auto version = reinterpret_cast<int (*)()>(dlsym(h, "racer_fv_abi_version"));
  auto count = reinterpret_cast<int (*)(char*)>(dlsym(h, "racer_fv_device_count"));
  GpuPlugin p{reinterpret_cast<decltype(GpuPlugin::run)>(dlsym(h, "racer_fv_run")),
              reinterpret_cast<decltype(GpuPlugin::run_modular)>(dlsym(h, "racer_fv_run_modular"))};
  if (!version || !count || !p.run || !p.run_modular || version() != RACER_FV_ABI_VERSION)
    throw Error(ExitCode::BadInput, std::string("--gpu: ") + name + " is from another version of racer");
  char why[256] = {0};
  if (count(why) < 1) throw Error(ExitCode::BadInput, std::string("--gpu: no CUDA device: ") + why);
  return p;
}

}  // namespace racer::freivalds
