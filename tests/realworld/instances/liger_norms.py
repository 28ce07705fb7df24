"""liger-kernel normalizations (rms_norm, layer_norm, group_norm, fused_add_rms_norm) against reference/norms.cu."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
import triton.language as tl  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

R, C, EPS = 3, 48, 1e-6
RMS = "liger_kernel.ops.rms_norm"


def rms_fwd(inst, casting_mode, offset, block=64, **mutation):
    k = racer.triton(kernel(RMS, "_rms_norm_forward_kernel", **mutation), casting_mode=casting_mode,
                     elementwise_affine=True, BLOCK_SIZE=block, num_warps=1)
    racer.launch(k, grid=R, args=[racer.write(inst.y), C, racer.read(inst.x), C, racer.read(inst.w), 0,
                                  racer.write(inst.rstd), 1, C, EPS, offset])
    return {"y": inst.y, "rstd": inst.rstd}


class _RmsFwd:
    offset = 0.0

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))
        self.y = racer.empty((R, C), "f32")
        self.rstd = racer.empty((R,), "f32")

    def program_b(self):
        racer.launch(ref("norms.cu", "rmsnorm_fwd"), grid=1, block=R,
                     args=[racer.read(self.x), racer.read(self.w), racer.write(self.y), racer.write(self.rstd),
                           R, C, EPS, self.offset])
        return {"y": self.y, "rstd": self.rstd}


class LigerRmsNormFwdLlama(_RmsFwd, Row):
    """liger _rms_norm_forward_kernel, Llama casting, 3x48 in a block of 64"""

    def program_a(self):
        return rms_fwd(self, 0, 0.0)


class LigerRmsNormFwdGemma(_RmsFwd, Row):
    """liger _rms_norm_forward_kernel, Gemma casting and weight offset 1"""
    offset = 1.0

    def program_a(self):
        return rms_fwd(self, 1, 1.0)


class LigerRmsNormFwdEpsOutsideMutant(_RmsFwd, Mutation):
    """mutation: eps subtracted instead of added under the square root"""

    def program_a(self):
        return rms_fwd(self, 0, 0.0, mutate=[("rsqrt(mean_square + eps)", "rsqrt(mean_square - eps)")])


class LigerRmsNormFwdMaskOffByOneMutant(_RmsFwd, Mutation):
    """mutation: the column mask drops the last column (n_cols - 1)"""

    def program_a(self):
        return rms_fwd(self, 0, 0.0, mutate=[("mask = col_offsets < n_cols", "mask = col_offsets < n_cols - 1")])


class LigerRmsNormBwd(Row):
    """liger _rms_norm_backward_kernel: dX and the dW partial of one program over all rows"""

    def setup(self):
        self.dy = racer.input((R, C), "f32", range=(-2, 2))
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))
        self.rstd = racer.input((R,), "f32", range=(0.25, 4))
        self.dx = racer.empty((R, C), "f32")
        self.dw = racer.empty((1, C), "f32")

    def program_a(self):
        k = racer.triton(kernel(RMS, "_rms_norm_backward_kernel"), X_dtype=tl.float32, casting_mode=0,
                         elementwise_affine=True, BLOCK_SIZE=64, COMPUTE_DW=True, num_warps=1)
        racer.launch(k, grid=1, args=[racer.read(self.dy), C, racer.write(self.dx), C, racer.read(self.x), C,
                                      racer.read(self.w), 0, racer.read(self.rstd), 1, racer.write(self.dw), C,
                                      R, C, 0.0, R])
        return {"dx": self.dx, "dw": self.dw}

    def program_b(self):
        racer.launch(ref("norms.cu", "rmsnorm_bwd"), grid=1, block=C,
                     args=[racer.read(self.dy), racer.read(self.x), racer.read(self.w), racer.read(self.rstd),
                           racer.write(self.dx), racer.write(self.dw), R, C, 0.0])
        return {"dx": self.dx, "dw": self.dw}


LN = "liger_kernel.ops.layer_norm"


class _LnFwd:
    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))
        self.b = racer.input((C,), "f32", range=(-2, 2))
        self.y = racer.empty((R, C), "f32")
        self.mean = racer.empty((R,), "f32")
        self.rstd = racer.empty((R,), "f32")

    def launch_a(self, **mutation):
        k = racer.triton(kernel(LN, "_layer_norm_forward_kernel", **mutation), BLOCK_SIZE=64, num_warps=1)
        racer.launch(k, grid=R, args=[racer.write(self.y), C, racer.read(self.x), C, racer.read(self.w), 1,
                                      racer.read(self.b), 1, racer.write(self.mean), 1, racer.write(self.rstd), 1,
                                      C, EPS])
        return {"y": self.y, "mean": self.mean, "rstd": self.rstd}

    def program_b(self):
        racer.launch(ref("norms.cu", "layernorm_fwd"), grid=1, block=R,
                     args=[racer.read(self.x), racer.read(self.w), racer.read(self.b), racer.write(self.y),
                           racer.write(self.mean), racer.write(self.rstd), R, C, EPS])
        return {"y": self.y, "mean": self.mean, "rstd": self.rstd}


class LigerLayerNormFwd(_LnFwd, Row):
    """liger _layer_norm_forward_kernel, 3x48 in a block of 64"""

    def program_a(self):
        return self.launch_a()


class LigerLayerNormFwdNoBiasMutant(_LnFwd, Mutation):
    """mutation: the bias term is dropped"""

    def program_a(self):
        return self.launch_a(mutate=[("* W_f32 + B_f32", "* W_f32")])


class LigerLayerNormBwd(Row):
    """liger _layer_norm_backward_kernel: dX, dW and dB of one program over all rows"""

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))
        self.mean = racer.input((R,), "f32", range=(-1, 1))
        self.rstd = racer.input((R,), "f32", range=(0.25, 4))
        self.dy = racer.input((R, C), "f32", range=(-2, 2))
        self.dx = racer.empty((R, C), "f32")
        self.dw = racer.empty((1, C), "f32")
        self.db = racer.empty((1, C), "f32")

    def program_a(self):
        k = racer.triton(kernel(LN, "_layer_norm_backward_kernel"), rows_per_program=R, BLOCK_SIZE=64,
                         COMPUTE_DW=True, COMPUTE_DB=True, num_warps=1)
        racer.launch(k, grid=1, args=[racer.read(self.x), C, racer.read(self.w), racer.read(self.mean), 1,
                                      racer.read(self.rstd), 1, racer.write(self.dx), C, racer.write(self.dw), C,
                                      racer.write(self.db), C, racer.read(self.dy), C, R, C])
        return {"dx": self.dx, "dw": self.dw, "db": self.db}

    def program_b(self):
        racer.launch(ref("norms.cu", "layernorm_bwd"), grid=1, block=C,
                     args=[racer.read(self.x), racer.read(self.w), racer.read(self.mean), racer.read(self.rstd),
                           racer.read(self.dy), racer.write(self.dx), racer.write(self.dw), racer.write(self.db), R, C])
        return {"dx": self.dx, "dw": self.dw, "db": self.db}


B, G, CPG, S = 2, 2, 2, 8  # batch, groups, channels per group, spatial


class LigerGroupNormFwd(Row):
    """liger _group_norm_forward_kernel (variance as E[x^2] - m^2) against a two-pass reference"""

    def setup(self):
        self.x = racer.input((B, G, CPG * S), "f32", range=(-4, 4))
        self.w = racer.input((G * CPG,), "f32", range=(-2, 2))
        self.b = racer.input((G * CPG,), "f32", range=(-2, 2))
        self.y = racer.empty((B, G, CPG * S), "f32")
        self.mean = racer.empty((B, G), "f32")
        self.rstd = racer.empty((B, G), "f32")

    def program_a(self):
        k = racer.triton(kernel("liger_kernel.ops.group_norm", "_group_norm_forward_kernel"), BLOCK_SIZE=16,
                         num_warps=1)
        racer.launch(k, grid=(B, G), args=[racer.write(self.y), G * CPG * S, CPG * S, racer.read(self.x),
                                           G * CPG * S, CPG * S, racer.write(self.mean), G, 1,
                                           racer.write(self.rstd), G, 1, racer.read(self.w), racer.read(self.b),
                                           CPG * S, CPG, EPS])
        return {"y": self.y, "mean": self.mean, "rstd": self.rstd}

    def program_b(self):
        racer.launch(ref("norms.cu", "groupnorm_fwd"), grid=1, block=B * G,
                     args=[racer.read(self.x), racer.read(self.w), racer.read(self.b), racer.write(self.y),
                           racer.write(self.mean), racer.write(self.rstd), B, G, CPG, S, EPS])
        return {"y": self.y, "mean": self.mean, "rstd": self.rstd}


class LigerFusedAddRmsNormFwd(Row):
    """liger _fused_add_rms_norm_forward_kernel: residual add, then RMSNorm (Llama casting)"""

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.r = racer.input((R, C), "f32", range=(-4, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))
        self.y = racer.empty((R, C), "f32")
        self.s = racer.empty((R, C), "f32")
        self.rstd = racer.empty((R,), "f32")

    def program_a(self):
        k = racer.triton(kernel("liger_kernel.ops.fused_add_rms_norm", "_fused_add_rms_norm_forward_kernel"),
                         casting_mode=0, BLOCK_SIZE=64, num_warps=1)
        racer.launch(k, grid=R, args=[racer.write(self.y), C, racer.write(self.s), C, racer.read(self.x), C,
                                      racer.read(self.r), C, racer.read(self.w), 0, racer.write(self.rstd), 1,
                                      C, EPS, 0.0])
        return {"y": self.y, "s": self.s, "rstd": self.rstd}

    def program_b(self):
        racer.launch(ref("norms.cu", "add_rmsnorm_fwd"), grid=1, block=R,
                     args=[racer.read(self.x), racer.read(self.r), racer.read(self.w), racer.write(self.y),
                           racer.write(self.s), racer.write(self.rstd), R, C, EPS, 0.0])
        return {"y": self.y, "s": self.s, "rstd": self.rstd}
