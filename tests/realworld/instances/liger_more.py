"""liger-kernel: PolyNorm forward and the total variation distance, against reference/liger_ops.cu."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

R, C = 3, 40


class LigerPolyNormFwd(Row):
    """liger _poly_norm_forward_kernel: w0 norm(x^3) + w1 norm(x^2) + w2 norm(x) + b and the three rstds;
    BLOCK_SIZE 64, 4 warps (calculate_settings(40))"""

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-2, 2))
        self.w = racer.input((3,), "f32", range=(-2, 2))
        self.b = racer.input((1,), "f32", range=(-2, 2))
        self.y = racer.empty((R, C), "f32")
        self.rstd = racer.empty((R, 3), "f32")

    def program_a(self):
        k = racer.triton(kernel("liger_kernel.ops.poly_norm", "_poly_norm_forward_kernel"), BLOCK_SIZE=64, num_warps=4)
        racer.launch(k, grid=R, args=[racer.write(self.y), C, racer.read(self.x), C, racer.read(self.w),
                                      racer.read(self.b), racer.write(self.rstd), 3, C, 1e-6])
        return {"y": self.y, "rstd": self.rstd}

    def program_b(self):
        racer.launch(ref("liger_ops.cu", "poly_norm_fwd"), grid=1, block=32,
                     args=[racer.read(self.x), racer.read(self.w), racer.read(self.b), racer.write(self.y),
                           racer.write(self.rstd), R, C, 1e-6])
        return {"y": self.y, "rstd": self.rstd}


IGNORE = -100


class _Tvd:
    """liger _tv_distance_kernel, reduction batchmean with labels (row 1 ignored): scale = 1 / 2 rows counted;
    BLOCK_SIZE 64 = next_power_of_2(40), 4 warps (the host's get_num_warps)."""
    mutate = None

    def setup(self):
        self.p = racer.input((R, C), "f32", range=(0, 1))
        self.q = racer.input((R, C), "f32", range=(0, 1))
        self.label = racer.values([3, IGNORE, 7], dtype="i64")
        self.loss = racer.zeros((R,), "f32")  # the host's torch.zeros: an ignored row's loss stays 0
        self.grads = racer.empty((R, C), "f32")

    def program_a(self):
        k = racer.triton(kernel("liger_kernel.ops.tvd", "_tv_distance_kernel",
                                **({"mutate": self.mutate} if self.mutate else {})),
                         ignore_index=IGNORE, BLOCK_SIZE=64, HAS_LABEL=True, reduction=3, num_warps=4)
        racer.launch(k, grid=R, args=[racer.read(self.p), C, racer.read(self.q), C, racer.readwrite(self.loss), 1,
                                      racer.write(self.grads), C, racer.read(self.label), C, 0.5])
        return {"loss": self.loss, "grads": self.grads}

    def program_b(self):
        racer.launch(ref("liger_ops.cu", "tvd_fwd"), grid=1, block=32,
                     args=[racer.read(self.p), racer.read(self.q), racer.read(self.label), racer.readwrite(self.loss),
                           racer.write(self.grads), R, C, 0.5, IGNORE])
        return {"loss": self.loss, "grads": self.grads}


class LigerTvd(_Tvd, Row):
    """liger _tv_distance_kernel: per-row loss and the sign gradient, an ignored row"""


class LigerTvdGradSignMutant(_Tvd, Mutation):
    """mutation: the gradient's sign test is reversed (p < q)"""
    mutate = [("tl.where(p > q, 0.5 * scale, -0.5 * scale)", "tl.where(p < q, 0.5 * scale, -0.5 * scale)")]
