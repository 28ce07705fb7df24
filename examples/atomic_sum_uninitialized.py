"""Atomic adds into an output nobody zeroed.

A row-sum kernel accumulates with atomicAdd, one thread per element. The reference launches a
zeroing kernel first; the "optimized" version drops that launch, because in the benchmark the
output happened to come from torch.zeros. Racer reports the read of uninitialized memory (the
first atomic reads whatever was there) and a witness where the sums differ.
"""
import racer

KERNELS = r"""
extern "C" __global__ void zero(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 0.f;
}

extern "C" __global__ void row_sum_atomic(const float* x, float* out, int rows, int cols) {
  int r = blockIdx.x, j = threadIdx.x;
  if (r < rows && j < cols) atomicAdd(&out[r], x[r * cols + j]);
}
"""

ROWS, COLS = 3, 32


class AtomicSumUninitialized(racer.Instance):
    """atomicAdd row sums into a zeroed output against the same without the zeroing launch"""

    def setup(self):
        self.x = racer.input((ROWS, COLS), "f32")
        self.out = racer.empty((ROWS,), "f32")

    def program_a(self):
        racer.launch(racer.cuda(KERNELS, "zero"), grid=1, block=32, args=[racer.write(self.out), ROWS])
        racer.launch(racer.cuda(KERNELS, "row_sum_atomic"), grid=ROWS, block=COLS,
                     args=[racer.read(self.x), racer.readwrite(self.out), ROWS, COLS])
        return {"out": self.out}

    def program_b(self):
        racer.launch(racer.cuda(KERNELS, "row_sum_atomic"), grid=ROWS, block=COLS,
                     args=[racer.read(self.x), racer.readwrite(self.out), ROWS, COLS])
        return {"out": self.out}


if __name__ == "__main__":
    print(racer.check(AtomicSumUninitialized).report())
