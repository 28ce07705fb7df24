"""A rotary-embedding port that pairs the wrong elements.

The model was trained with GPT-J style rotary embeddings, which rotate interleaved pairs
(x[2i], x[2i+1]). The new kernel was ported from a NeoX-style implementation, which rotates the
two halves (x[i], x[i + D/2]). Both are "rotary embeddings", both pass a shape test, and at
position 0 (cos = 1, sin = 0) they even agree. Racer finds an input where they differ and names
the cell.
"""
import racer

ROPE = r"""
// GPT-J: rotate interleaved pairs. One thread per (token, pair).
extern "C" __global__ void rope_interleaved(const float* x, const float* cos_t, const float* sin_t, float* out,
                                            int tokens, int dim) {
  int t = blockIdx.x, i = threadIdx.x;
  if (t >= tokens || i >= dim / 2) return;
  float c = cos_t[t * (dim / 2) + i], s = sin_t[t * (dim / 2) + i];
  float a = x[t * dim + 2 * i], b = x[t * dim + 2 * i + 1];
  out[t * dim + 2 * i] = a * c - b * s;
  out[t * dim + 2 * i + 1] = a * s + b * c;
}

// NeoX: rotate the first half against the second half.
extern "C" __global__ void rope_half_split(const float* x, const float* cos_t, const float* sin_t, float* out,
                                           int tokens, int dim) {
  int t = blockIdx.x, i = threadIdx.x, h = dim / 2;
  if (t >= tokens || i >= h) return;
  float c = cos_t[t * h + i], s = sin_t[t * h + i];
  float a = x[t * dim + i], b = x[t * dim + i + h];
  out[t * dim + i] = a * c - b * s;
  out[t * dim + i + h] = a * s + b * c;
}
"""

TOKENS, DIM = 4, 8


class RopePairing(racer.Instance):
    """GPT-J (interleaved) rotary embedding against a NeoX (half-split) port"""

    def setup(self):
        self.x = racer.input((TOKENS, DIM), "f32")
        self.cos = racer.input((TOKENS, DIM // 2), "f32", range=(-1, 1))
        self.sin = racer.input((TOKENS, DIM // 2), "f32", range=(-1, 1))
        self.out = racer.empty((TOKENS, DIM), "f32")

    def _rope(self, entry):
        kernel = racer.cuda(ROPE, entry)
        racer.launch(kernel, grid=TOKENS, block=DIM // 2,
                     args=[racer.read(self.x), racer.read(self.cos), racer.read(self.sin), racer.write(self.out),
                           TOKENS, DIM])
        return {"out": self.out}

    def program_a(self):
        return self._rope("rope_interleaved")

    def program_b(self):
        return self._rope("rope_half_split")


if __name__ == "__main__":
    result = racer.check(RopePairing)
    print(result.report())
    print(result.explain())
