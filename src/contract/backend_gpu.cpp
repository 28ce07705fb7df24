// The GPU backend: the CUDA driver API, loaded with dlopen so the racer binary runs (and this
// backend reports itself unavailable) on machines without a driver. PTX is JIT-compiled by
// the driver; parameter buffers are laid out by the same instance machinery the CPU uses.
#include <dlfcn.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "contract/backend.hpp"
#include "support/error.hpp"

namespace racer::contract {
namespace {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
using CUcontext = CUctx_st*;
using CUmodule = CUmod_st*;
using CUfunction = CUfunc_st*;

struct Driver {
  void* lib = nullptr;
  CUresult (*cuInit)(unsigned) = nullptr;
  CUresult (*cuDriverGetVersion)(int*) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice*, int) = nullptr;
  CUresult (*cuDeviceGetName)(char*, int, CUdevice) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
  CUresult (*cuModuleLoadData)(CUmodule*, const void*) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr*, size_t) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, size_t) = nullptr;
  CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, size_t) = nullptr;
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, void**, void**) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;
  CUresult (*cuGetErrorString)(CUresult, const char**) = nullptr;
  CUcontext ctx = nullptr;
  std::string profile;

  template <class F>
  bool sym(F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(lib, name));
    return f != nullptr;
  }
  std::string error(CUresult r) const {
    const char* s = nullptr;
    if (cuGetErrorString) cuGetErrorString(r, &s);
    return s ? s : "CUDA error " + std::to_string(r);
  }
  void ok(CUresult r, const std::string& what) const {
    if (r != 0) throw Error(ExitCode::Internal, what + ": " + error(r));
  }
};

// Loads the driver and makes the primary context of device 0 current; "" or why not.
std::string open_driver(Driver& d) {
  d.lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!d.lib) return std::string("cannot load libcuda.so.1 (no NVIDIA driver): ") + dlerror();
  bool all = d.sym(d.cuInit, "cuInit") && d.sym(d.cuDriverGetVersion, "cuDriverGetVersion") && d.sym(d.cuDeviceGet, "cuDeviceGet") &&
             d.sym(d.cuDeviceGetName, "cuDeviceGetName") && d.sym(d.cuDeviceGetAttribute, "cuDeviceGetAttribute") &&
             d.sym(d.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain") && d.sym(d.cuCtxSetCurrent, "cuCtxSetCurrent") &&
             d.sym(d.cuModuleLoadData, "cuModuleLoadData") && d.sym(d.cuModuleUnload, "cuModuleUnload") &&
             d.sym(d.cuModuleGetFunction, "cuModuleGetFunction") && d.sym(d.cuMemAlloc, "cuMemAlloc_v2") &&
             d.sym(d.cuMemFree, "cuMemFree_v2") && d.sym(d.cuMemcpyHtoD, "cuMemcpyHtoD_v2") && d.sym(d.cuMemcpyDtoH, "cuMemcpyDtoH_v2") &&
             d.sym(d.cuMemsetD8, "cuMemsetD8_v2") && d.sym(d.cuLaunchKernel, "cuLaunchKernel") &&
             d.sym(d.cuCtxSynchronize, "cuCtxSynchronize") && d.sym(d.cuGetErrorString, "cuGetErrorString");
  if (!all) return "libcuda.so.1 lacks a driver API entry point this backend needs";
  if (CUresult r = d.cuInit(0)) return "cuInit failed: " + d.error(r);
  CUdevice dev = 0;
  if (CUresult r = d.cuDeviceGet(&dev, 0)) return "no CUDA device: " + d.error(r);
  if (CUresult r = d.cuDevicePrimaryCtxRetain(&d.ctx, dev)) return "cannot create a context: " + d.error(r);
  d.cuCtxSetCurrent(d.ctx);
  char name[256] = {0};
  d.cuDeviceGetName(name, sizeof name - 1, dev);
  int major = 0, minor = 0, version = 0;
  d.cuDeviceGetAttribute(&major, 75, dev);  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
  d.cuDeviceGetAttribute(&minor, 76, dev);  // ..._MINOR
  d.cuDriverGetVersion(&version);
  std::ostringstream p;
  p << name << ", sm_" << major << minor << ", CUDA driver " << version / 1000 << "." << (version % 1000) / 10;
  d.profile = p.str();
  return "";
}

class GpuRunner final : public ImplRunner {
 public:
  GpuRunner(Driver& d, const Contract& c, const Impl& impl, const Env& env, const std::string& base)
      : d_(d), plan_(c, impl, env, base) {
    const instance::Instance& inst = plan_.inst();
    std::string ptx_path = inst.a.launches.front().ptx;
    std::ifstream in(ptx_path);
    if (!in) throw Error(ExitCode::BadInput, "cannot read " + ptx_path);
    std::stringstream s;
    s << in.rdbuf();
    std::string text = s.str();
    d_.ok(d_.cuModuleLoadData(&module_, text.c_str()), "loading " + ptx_path);
    for (const auto& l : inst.a.launches) {
      CUfunction f = nullptr;
      d_.ok(d_.cuModuleGetFunction(&f, module_, l.entry.c_str()), "entry " + l.entry);
      functions_.push_back(f);
    }
  }
  ~GpuRunner() override {
    if (module_) d_.cuModuleUnload(module_);
  }

  RunOutput run(const TensorBits& inputs, uint64_t) override {
    RunOutput out;
    const auto& specs = plan_.prepared().tensors();
    std::vector<CUdeviceptr> ptrs(specs.size(), 0);
    std::vector<uint64_t> bases;
    struct Freer {
      Driver& d;
      std::vector<CUdeviceptr>& p;
      ~Freer() {
        for (auto x : p)
          if (x) d.cuMemFree(x);
      }
    } freer{d_, ptrs};
    for (size_t t = 0; t < specs.size(); ++t) {
      const exec::TensorSpec& s = specs[t];
      size_t bytes = std::max<size_t>(s.storage_elements * s.elem_bytes(), 1);
      d_.ok(d_.cuMemAlloc(&ptrs[t], bytes), "cuMemAlloc");
      bases.push_back(ptrs[t]);
      auto it = inputs.find(s.name);
      if (s.init == exec::TensorInit::Input && it != inputs.end()) {
        std::vector<uint8_t> host(bytes, 0);
        auto map = s.storage_to_cell();
        for (size_t e = 0; e < map.size(); ++e)
          if (map[e] >= 0 && static_cast<size_t>(map[e]) < it->second.size())
            std::memcpy(&host[e * s.elem_bytes()], &it->second[static_cast<size_t>(map[e])], s.elem_bytes());
        d_.ok(d_.cuMemcpyHtoD(ptrs[t], host.data(), bytes), "copy to device");
      } else {
        // Outputs start zeroed, as a harness memsets them; scratch holds a NaN-like pattern.
        d_.ok(d_.cuMemsetD8(ptrs[t], s.init == exec::TensorInit::Empty ? 0xFF : 0, bytes), "cuMemsetD8");
      }
    }
    const auto& prog = plan_.prepared().program('a');
    for (size_t li = 0; li < prog.launches.size(); ++li) {
      const exec::LaunchSpec& L = prog.launches[li];
      std::vector<uint8_t> params = plan_.prepared().params('a', li, bases);
      size_t size = params.size();
      void* extra[] = {reinterpret_cast<void*>(1), params.data(), reinterpret_cast<void*>(2), &size, nullptr};
      CUresult r = d_.cuLaunchKernel(functions_[li], L.grid.x, L.grid.y, L.grid.z, L.block.x, L.block.y, L.block.z,
                                     L.dynamic_shared_bytes, nullptr, nullptr, extra);
      if (r == 0) r = d_.cuCtxSynchronize();
      if (r != 0) {
        out.refusal = "launch " + std::to_string(li + 1) + " failed on the GPU: " + d_.error(r);
        return out;
      }
    }
    for (size_t t : plan_.prepared().output_tensors()) {
      const exec::TensorSpec& s = specs[t];
      std::vector<uint8_t> host(std::max<size_t>(s.storage_elements * s.elem_bytes(), 1));
      d_.ok(d_.cuMemcpyDtoH(host.data(), ptrs[t], host.size()), "copy from device");
      auto map = s.storage_to_cell();
      auto& cells = out.outputs[s.name];
      cells.assign(s.cell_count(), 0);
      for (size_t e = 0; e < map.size(); ++e)
        if (map[e] >= 0) std::memcpy(&cells[static_cast<size_t>(map[e])], &host[e * s.elem_bytes()], s.elem_bytes());
    }
    return out;
  }

 private:
  Driver& d_;
  CpuRun plan_;  // the instance, parsed PTX and parameter layout (not run here)
  CUmodule module_ = nullptr;
  std::vector<CUfunction> functions_;
};

class GpuBackend final : public Backend {
 public:
  explicit GpuBackend(std::unique_ptr<Driver> d) : d_(std::move(d)) {}
  std::string name() const override { return "gpu"; }
  std::string profile() const override { return d_->profile; }
  bool repeats_vary() const override { return true; }
  std::unique_ptr<ImplRunner> prepare(const Contract& c, const Impl& impl, const Env& env, const std::string& base) override {
    return std::make_unique<GpuRunner>(*d_, c, impl, env, base);
  }

 private:
  std::unique_ptr<Driver> d_;
};

}  // namespace

std::unique_ptr<Backend> gpu_backend(std::string& why) {
  auto d = std::make_unique<Driver>();
  why = open_driver(*d);
  if (!why.empty()) return nullptr;
  return std::make_unique<GpuBackend>(std::move(d));
}

}  // namespace racer::contract
