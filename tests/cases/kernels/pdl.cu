// Programmatic dependent launch: a second kernel that waits for the first with
// griddepcontrol.wait (cudaGridDependencySynchronize) (tests/cases/README.md, "Programmatic
// dependent launch").

// t = 2 x, then signals that the dependent grid may start.
extern "C" __global__ void double_then_signal(const float* x, float* t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) t[i] = 2.f * x[i];
  cudaTriggerProgrammaticLaunchCompletion();
}

// y = t + 1, reading t after the wait.
extern "C" __global__ void add_one_after_wait(const float* t, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  cudaGridDependencySynchronize();
  if (i < n) y[i] = t[i] + 1.f;
}

// A slip: t read before the wait (the previous grid may not have written it yet).
extern "C" __global__ void add_one_before_wait(const float* t, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? t[i] : 0.f;
  cudaGridDependencySynchronize();
  if (i < n) y[i] = v + 1.f;
}

// y = 2 x + 1 in one kernel.
extern "C" __global__ void double_add_one(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.f * x[i] + 1.f;
}
