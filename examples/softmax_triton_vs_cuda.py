"""A Triton softmax checked against the CUDA kernel it replaces.

The Triton kernel handles one row per program with a block of 64 lanes (masked, as Triton softmax
kernels are written) and subtracts the row maximum before exponentiating; the
CUDA reference walks each row with one thread and exponentiates directly. Racer reads Triton's exp
(ex2.approx of x*log2 e) and nvcc's inlined expf as the exponential, and proves the two equal for
every input: exp(x - m) / sum exp(x - m) is exp(x) / sum exp(x) whatever m is.
"""
import racer
import triton
import triton.language as tl


@triton.jit
def softmax_rows(x, y, ncols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < ncols
    v = tl.load(x + row * ncols + offs, mask=mask, other=-float("inf"))
    v = v - tl.max(v, 0)
    e = tl.exp(v)
    tl.store(y + row * ncols + offs, e / tl.sum(e, 0), mask=mask)


CUDA_SOFTMAX = r"""
extern "C" __global__ void softmax_rows(const float* x, float* y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* xr = x + r * cols;
  float s = 0.f;
  for (int j = 0; j < cols; ++j) s += expf(xr[j]);
  for (int j = 0; j < cols; ++j) y[r * cols + j] = expf(xr[j]) / s;
}
"""

# Rows narrower than the block: the 16 masked lanes load -inf, and exp(-inf) = 0 keeps them
# out of the row's maximum and sum, as on the GPU.
ROWS, COLS = 4, 48


class SoftmaxTritonVsCuda(racer.Instance):
    """Triton softmax (block of 64) against a one-thread-per-row CUDA softmax"""

    def setup(self):
        self.x = racer.input((ROWS, COLS), "f32")
        self.y = racer.empty((ROWS, COLS), "f32")

    def program_a(self):
        kernel = racer.triton(softmax_rows, BLOCK=64, num_warps=2)
        racer.launch(kernel, grid=ROWS, args=[racer.read(self.x), racer.write(self.y), COLS])
        return {"y": self.y}

    def program_b(self):
        kernel = racer.cuda(CUDA_SOFTMAX, "softmax_rows")
        racer.launch(kernel, grid=1, block=ROWS, args=[racer.read(self.x), racer.write(self.y), ROWS, COLS])
        return {"y": self.y}


if __name__ == "__main__":
    print(racer.check(SoftmaxTritonVsCuda).report())
