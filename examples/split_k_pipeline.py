"""A split-K matmul pipeline: partial products over K-slices into a workspace, then a second launch
that sums the partials. Checked against a naive matmul, once as written and once with the slice
length computed by truncating division (K = 40 over 3 splits gives slices of 13, and k = 39 is
never added).

    racer check examples/split_k_pipeline.py     # two instances: equivalent, then inequivalent
"""
import racer

KERNELS = r"""
extern "C" __global__ void matmul_naive(const float* A, const float* B, float* C, int M, int N, int K) {
  int n = blockIdx.x * blockDim.x + threadIdx.x, m = blockIdx.y * blockDim.y + threadIdx.y;
  if (m >= M || n >= N) return;
  float s = 0.f;
  for (int k = 0; k < K; ++k) s += A[m * K + k] * B[k * N + n];
  C[m * N + n] = s;
}

// Launch 1: CTA z computes the partial product over K-slice z.
extern "C" __global__ void splitk_partial(const float* A, const float* B, float* work, int M, int N, int K,
                                          int kchunk) {
  int n = blockIdx.x * blockDim.x + threadIdx.x, m = blockIdx.y * blockDim.y + threadIdx.y, z = blockIdx.z;
  if (m >= M || n >= N) return;
  int k0 = z * kchunk, k1 = min(K, k0 + kchunk);
  float s = 0.f;
  for (int k = k0; k < k1; ++k) s += A[m * K + k] * B[k * N + n];
  work[(z * M + m) * N + n] = s;
}

// Launch 2: sum the partials.
extern "C" __global__ void splitk_reduce(const float* work, float* C, int M, int N, int splits) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  float s = 0.f;
  for (int z = 0; z < splits; ++z) s += work[z * M * N + i];
  C[i] = s;
}
"""

M, N, K, SPLITS = 8, 12, 40, 3


class SplitK(racer.Instance):
    """split-K (3 slices, then a reduction launch) against a naive matmul"""

    abstract = True  # the shared part; the subclasses below say how long a slice is
    kchunk = None

    def setup(self):
        self.A = racer.input((M, K), "f32")
        self.B = racer.input((K, N), "f32")
        self.C = racer.empty((M, N), "f32")
        self.work = racer.empty((SPLITS, M, N), "f32")

    def program_a(self):
        racer.launch(racer.cuda(KERNELS, "splitk_partial"), grid=(1, 1, SPLITS), block=(N, M),
                     args=[racer.read(self.A), racer.read(self.B), racer.write(self.work), M, N, K, self.kchunk])
        racer.launch(racer.cuda(KERNELS, "splitk_reduce"), grid=1, block=M * N,
                     args=[racer.read(self.work), racer.write(self.C), M, N, SPLITS])
        return {"C": self.C}

    def program_b(self):
        racer.launch(racer.cuda(KERNELS, "matmul_naive"), grid=(1, 1), block=(N, M),
                     args=[racer.read(self.A), racer.read(self.B), racer.write(self.C), M, N, K])
        return {"C": self.C}


class SplitKCeilChunk(SplitK):
    """split-K with ceil(K / splits) slices against a naive matmul"""
    abstract = False
    kchunk = (K + SPLITS - 1) // SPLITS


class SplitKTruncatedChunk(SplitK):
    """split-K with K / splits (truncated) slices: the last k is dropped"""
    abstract = False
    kchunk = K // SPLITS


if __name__ == "__main__":
    for case in (SplitKCeilChunk, SplitKTruncatedChunk):
        print(racer.check(case).report())
