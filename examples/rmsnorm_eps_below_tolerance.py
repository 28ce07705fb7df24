"""A normalization bug too small for tolerance-based tests.

The Triton RMSNorm computes x * rsqrt(mean(x^2) + eps) * w. The CUDA rewrite computes
x / (sqrt(mean(x^2)) + eps) * w: eps moved outside the square root. For typical activations the
two differ by far less than atol=1e-5, so torch.allclose passes; for rows with a small mean square
they diverge. Racer proves the functions differ and gives the input where they do.
"""
import racer
import triton
import triton.language as tl


@triton.jit
def rmsnorm(x, w, out, ncols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < ncols
    v = tl.load(x + row * ncols + offs, mask=m, other=0.0)
    r = tl.rsqrt(tl.sum(v * v, 0) / ncols + eps)
    tl.store(out + row * ncols + offs, v * r * tl.load(w + offs, mask=m), mask=m)


CUDA_RMSNORM = r"""
// One thread per row; eps is added after the square root (the bug).
extern "C" __global__ void rmsnorm_eps_outside(const float* x, const float* w, float* y, int rows, int cols,
                                               float eps) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int j = 0; j < cols; ++j) s += x[r * cols + j] * x[r * cols + j];
  float scale = 1.f / (sqrtf(s / cols) + eps);
  for (int j = 0; j < cols; ++j) y[r * cols + j] = x[r * cols + j] * scale * w[j];
}
"""

ROWS, COLS, EPS = 2, 16, 1e-5


class RmsnormEpsOutsideSqrt(racer.Instance):
    """Triton RMSNorm against a CUDA port with eps outside the square root"""

    def setup(self):
        self.x = racer.input((ROWS, COLS), "f32")
        self.w = racer.input((COLS,), "f32")
        self.y = racer.empty((ROWS, COLS), "f32")

    def program_a(self):
        kernel = racer.triton(rmsnorm, BLOCK=16, num_warps=1)
        racer.launch(kernel, grid=ROWS, args=[racer.read(self.x), racer.read(self.w), racer.write(self.y), COLS, EPS])
        return {"y": self.y}

    def program_b(self):
        kernel = racer.cuda(CUDA_RMSNORM, "rmsnorm_eps_outside")
        racer.launch(kernel, grid=1, block=ROWS,
                     args=[racer.read(self.x), racer.read(self.w), racer.write(self.y), ROWS, COLS, EPS])
        return {"y": self.y}


if __name__ == "__main__":
    print(racer.check(RmsnormEpsOutsideSqrt).report())
