"""A Triton kernel that forgot the mask on its store.

The backward of squared ReLU, dx = 2 * max(x, 0) * dy, written in Triton with BLOCK = 128 over
200 elements. The loads are masked, the store is not: the last program writes 56 elements past the
end of dx. On a GPU this usually corrupts a neighbouring allocation silently. Racer reports the
out-of-bounds write with the Triton source line.
"""
import racer
import triton
import triton.language as tl


@triton.jit
def relu_sq_bwd(x, dy, dx, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m, other=0.0)
    g = tl.load(dy + offs, mask=m, other=0.0)
    tl.store(dx + offs, 2.0 * tl.maximum(v, 0.0) * g, mask=m)


@triton.jit
def relu_sq_bwd_unmasked_store(x, dy, dx, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m, other=0.0)
    g = tl.load(dy + offs, mask=m, other=0.0)
    tl.store(dx + offs, 2.0 * tl.maximum(v, 0.0) * g)


N = 200


class UnmaskedStore(racer.Instance):
    """masked Triton relu^2 backward against the same with an unmasked store"""

    def setup(self):
        self.x = racer.input((N,), "f32")
        self.dy = racer.input((N,), "f32")
        self.dx = racer.empty((N,), "f32")

    def _run(self, fn):
        racer.launch(racer.triton(fn, BLOCK=128, num_warps=4), grid=(N + 127) // 128,
                     args=[racer.read(self.x), racer.read(self.dy), racer.write(self.dx), N])
        return {"dx": self.dx}

    def program_a(self):
        return self._run(relu_sq_bwd)

    def program_b(self):
        return self._run(relu_sq_bwd_unmasked_store)


if __name__ == "__main__":
    print(racer.check(UnmaskedStore).report())
