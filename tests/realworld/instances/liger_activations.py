"""liger-kernel activations (geglu, swiglu, relu_squared, dyt, sparsemax) against reference/activations.cu."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

R, C = 2, 48
N = R * C


def elementwise(entry, *args):
    racer.launch(ref("activations.cu", entry), grid=(N + 127) // 128, block=128, args=list(args) + [N])


class _Gated:
    def setup(self):
        self.a = racer.input((R, C), "f32", range=(-4, 4))
        self.b = racer.input((R, C), "f32", range=(-4, 4))
        self.c = racer.empty((R, C), "f32")


class LigerGegluFwd(_Gated, Row):
    """liger _geglu_tanh_forward_kernel: gelu_tanh(a) * b"""

    def program_a(self):
        k = racer.triton(kernel("liger_kernel.ops.geglu", "_geglu_tanh_forward_kernel"), n_cols=C, BLOCK_SIZE=64,
                         num_warps=1)
        racer.launch(k, grid=R, args=[racer.read(self.a), racer.read(self.b), racer.write(self.c), C])
        return {"c": self.c}

    def program_b(self):
        elementwise("geglu_fwd", racer.read(self.a), racer.read(self.b), racer.write(self.c))
        return {"c": self.c}


class LigerGegluFwdWrongConstantMutant(_Gated, Mutation):
    """mutation: the cubic coefficient 0.044715 becomes 0.04715"""

    def program_a(self):
        k = racer.triton(kernel("liger_kernel.ops.geglu", "_geglu_tanh_forward_kernel",
                                mutate=[("0.044715 * a_cubed", "0.04715 * a_cubed")]),
                         n_cols=C, BLOCK_SIZE=64, num_warps=1)
        racer.launch(k, grid=R, args=[racer.read(self.a), racer.read(self.b), racer.write(self.c), C])
        return {"c": self.c}

    def program_b(self):
        elementwise("geglu_fwd", racer.read(self.a), racer.read(self.b), racer.write(self.c))
        return {"c": self.c}


class _GatedBwd:
    def setup(self):
        self.dc = racer.input((R, C), "f32", range=(-2, 2))
        self.a = racer.input((R, C), "f32", range=(-4, 4))
        self.b = racer.input((R, C), "f32", range=(-4, 4))


class LigerGegluBwd(_GatedBwd, Row):
    """liger _geglu_tanh_backward_kernel: da and db written in place over a and b"""

    def program_a(self):
        k = racer.triton(kernel("liger_kernel.ops.geglu", "_geglu_tanh_backward_kernel"), n_cols=C, BLOCK_SIZE=64,
                         num_warps=1)
        racer.launch(k, grid=R, args=[racer.read(self.dc), racer.readwrite(self.a), racer.readwrite(self.b), C])
        return {"a": self.a, "b": self.b}

    def program_b(self):
        elementwise("geglu_bwd", racer.read(self.dc), racer.readwrite(self.a), racer.readwrite(self.b))
        return {"a": self.a, "b": self.b}


class LigerSwigluFwd(_Gated, Row):
    """liger _swiglu_forward_kernel: silu(a) * b, gate multiplier 1"""

    def program_a(self):
        k = racer.triton(kernel("liger_kernel.ops.swiglu", "_swiglu_forward_kernel"), n_cols=C, BLOCK_SIZE=64,
                         num_warps=1)
        racer.launch(k, grid=R, args=[racer.read(self.a), racer.read(self.b), racer.write(self.c), C, 1.0])
        return {"c": self.c}

    def program_b(self):
        elementwise("swiglu_fwd", racer.read(self.a), racer.read(self.b), racer.write(self.c))
        return {"c": self.c}


class LigerSwigluBwd(_GatedBwd, Row):
    """liger _swiglu_backward_kernel: da and db written in place over a and b"""

    def program_a(self):
        k = racer.triton(kernel("liger_kernel.ops.swiglu", "_swiglu_backward_kernel"), n_cols=C, BLOCK_SIZE=64,
                         num_warps=1)
        racer.launch(k, grid=R, args=[racer.read(self.dc), racer.readwrite(self.a), racer.readwrite(self.b), C, 1.0])
        return {"a": self.a, "b": self.b}

    def program_b(self):
        elementwise("swiglu_bwd", racer.read(self.dc), racer.readwrite(self.a), racer.readwrite(self.b))
        return {"a": self.a, "b": self.b}


class LigerSwigluBwdMissingTermMutant(_GatedBwd, Mutation):
    """mutation: the sigmoid term of silu's derivative is dropped"""

    def program_a(self):
        k = racer.triton(kernel("liger_kernel.ops.swiglu", "_swiglu_backward_kernel",
                                mutate=[("(silu_a * (1 - sig_a) + sig_a)", "(silu_a * (1 - sig_a))")]),
                         n_cols=C, BLOCK_SIZE=64, num_warps=1)
        racer.launch(k, grid=R, args=[racer.read(self.dc), racer.readwrite(self.a), racer.readwrite(self.b), C, 1.0])
        return {"a": self.a, "b": self.b}

    def program_b(self):
        elementwise("swiglu_bwd", racer.read(self.dc), racer.readwrite(self.a), racer.readwrite(self.b))
        return {"a": self.a, "b": self.b}


class LigerReluSquaredFwd(Row):
    """liger _relu_squared_forward_kernel"""

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.y = racer.empty((R, C), "f32")

    def program_a(self):
        k = racer.triton(kernel("liger_kernel.ops.relu_squared", "_relu_squared_forward_kernel"), n_cols=C,
                         BLOCK_SIZE=64, num_warps=1)
        racer.launch(k, grid=R, args=[racer.write(self.y), C, racer.read(self.x), C])
        return {"y": self.y}

    def program_b(self):
        elementwise("relu_sq_fwd", racer.read(self.x), racer.write(self.y))
        return {"y": self.y}


class LigerReluSquaredBwd(Row):
    """liger _relu_squared_backward_kernel"""

    def setup(self):
        self.dy = racer.input((R, C), "f32", range=(-2, 2))
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.dx = racer.empty((R, C), "f32")

    def program_a(self):
        k = racer.triton(kernel("liger_kernel.ops.relu_squared", "_relu_squared_backward_kernel"), n_cols=C,
                         BLOCK_SIZE=64, num_warps=1)
        racer.launch(k, grid=R, args=[racer.write(self.dx), C, racer.read(self.dy), C, racer.read(self.x), C])
        return {"dx": self.dx}

    def program_b(self):
        elementwise("relu_sq_bwd", racer.read(self.dy), racer.read(self.x), racer.write(self.dx))
        return {"dx": self.dx}


class LigerDytFwd(Row):
    """liger _dyt_fwd_kernel: tanh(alpha x) * gamma + beta, a 2-D grid of column blocks and rows"""

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.alpha = racer.input((1,), "f32", range=(0.25, 2))
        self.gamma = racer.input((C,), "f32", range=(-2, 2))
        self.beta = racer.input((C,), "f32", range=(-2, 2))
        self.y = racer.empty((R, C), "f32")

    def program_a(self):
        k = racer.triton(kernel("liger_kernel.ops.dyt", "_dyt_fwd_kernel"), HAVE_BETA=True, N=C, BLOCK_N=32,
                         num_warps=1)
        racer.launch(k, grid=(2, R), args=[racer.read(self.x), racer.write(self.y), racer.read(self.alpha),
                                           racer.read(self.gamma), racer.read(self.beta)])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("activations.cu", "dyt_fwd"), grid=1, block=N,
                     args=[racer.read(self.x), racer.read(self.alpha), racer.read(self.gamma), racer.read(self.beta),
                           racer.write(self.y), R, C])
        return {"y": self.y}


SR, SC = 2, 24


class _SparsemaxBwd:
    mutate = None

    def setup(self):
        self.o = racer.input((SR, SC), "f32", range=(-1, 1))  # sparsemax outputs: the support is where o > 0
        self.go = racer.input((SR, SC), "f32", range=(-2, 2))
        self.gi = racer.empty((SR, SC), "f32")

    def program_a(self):
        # The kernel takes num_warps as a constexpr too (racer.triton binds it to the option).
        k = racer.triton(kernel("liger_kernel.ops.sparsemax", "_sparsemax_backward_kernel",
                                **({"mutate": self.mutate} if self.mutate else {})), BLOCK_SIZE=16, num_warps=1)
        racer.launch(k, grid=SR, args=[racer.read(self.o), racer.read(self.go), racer.write(self.gi), SC, SC])
        return {"gi": self.gi}

    def program_b(self):
        racer.launch(ref("activations.cu", "sparsemax_bwd"), grid=1, block=SR,
                     args=[racer.read(self.o), racer.read(self.go), racer.write(self.gi), SR, SC])
        return {"gi": self.gi}


class LigerSparsemaxBwd(_SparsemaxBwd, Row):
    """liger _sparsemax_backward_kernel (num_warps a constexpr), 24 columns in blocks of 16"""


class LigerSparsemaxBwdSupportMutant(_SparsemaxBwd, Mutation):
    """mutation: the support's gradient mean divides by the row length instead of the support size"""
    mutate = [("supp_cnt += tl.sum(supp.to(tl.float32))", "supp_cnt += tl.sum(mask_iter.to(tl.float32))")]
