#pragma once
// Finds and loads the CUDA backend (libracer_freivalds_cuda.so) at run time. Without it, or
// without a device, --gpu is refused (racer::Error, BadInput) saying which of the two is missing.
#include "freivalds/cuda/plugin_abi.h"

namespace racer::freivalds {

struct GpuPlugin {
  int (*run)(const racer_fv_request*, racer_fv_response*, racer_fv_response*);
  int (*run_modular)(const racer_fv_modular_request*, racer_fv_modular_response*, racer_fv_modular_response*);
};

// Looks beside the running executable, then in the library search path (LD_LIBRARY_PATH).
GpuPlugin load_gpu_plugin();

}  // namespace racer::freivalds
