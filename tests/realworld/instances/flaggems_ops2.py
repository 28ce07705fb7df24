"""flag-gems: backward kernels (rms_norm, layer_norm, softmax, log_softmax), pointwise ops with masks and
scalars (minimum, where, masked_fill, pow, isclose; through the launchers of tests/realworld/pointwise.py),
embedding, trace and addmv, against reference/ops2.cu, reference/norms.cu and reference/softmax_losses.cu.
Each launched with the constexprs the library's host code (or one of its autotune configs) picks."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
import pointwise  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

R, C = 3, 48
N = 96  # elements of a pointwise row


def _lib(module, name, mutate):
    return kernel(module, name, **({"mutate": mutate} if mutate else {}))


class _RmsBwd:
    """flag-gems rms_norm_backward: rms_norm_grad_dx_kernel (grid M, BLOCK_SIZE next_power_of_2(48) = 64) and
    rms_norm_grad_dw_kernel (ROW_BLOCK_SIZE 16, COL_BLOCK_SIZE 256: one partial row, the host's sum a no-op)"""
    mutate_dw = None

    def setup(self):
        self.dy = racer.input((R, C), "f32", range=(-2, 2))
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))
        self.rstd = racer.input((R,), "f32", range=(0.25, 4))
        self.dx = racer.empty((R, C), "f32")
        self.dw = racer.empty((1, C), "f32")

    def program_a(self):
        k1 = racer.triton(kernel("flag_gems.ops.rms_norm", "rms_norm_grad_dx_kernel"), BLOCK_SIZE=64)
        racer.launch(k1, grid=R, args=[racer.read(self.x), racer.read(self.dy), racer.read(self.rstd),
                                       racer.write(self.dx), racer.read(self.w), C, 1, C, 1, C, 1e-5])
        k2 = racer.triton(_lib("flag_gems.ops.rms_norm", "rms_norm_grad_dw_kernel", self.mutate_dw), ROW_BLOCK_SIZE=16,
                          COL_BLOCK_SIZE=256)
        racer.launch(k2, grid=(1, 1), args=[racer.read(self.x), racer.read(self.dy), racer.read(self.rstd),
                                            racer.write(self.dw), C, 1, C, 1, R, C])
        return {"dx": self.dx, "dw": self.dw}

    def program_b(self):
        racer.launch(ref("norms.cu", "rmsnorm_bwd"), grid=1, block=C,
                     args=[racer.read(self.dy), racer.read(self.x), racer.read(self.w), racer.read(self.rstd),
                           racer.write(self.dx), racer.write(self.dw), R, C, 0.0])
        return {"dx": self.dx, "dw": self.dw}


class FlagGemsRmsNormBwd(_RmsBwd, Row):
    """flag-gems rms_norm_grad_dx_kernel + rms_norm_grad_dw_kernel: dx and dw of RMSNorm"""


class FlagGemsRmsNormBwdDwNoRstdMutant(_RmsBwd, Mutation):
    """mutation: dw sums dy x without the inverse rms"""
    mutate_dw = [("d_weight = x * dy * inv_rms[:, None]", "d_weight = x * dy")]


class FlagGemsLayerNormBwd(Row):
    """flag-gems layer_norm_backward: layer_norm_backward_kernel (an autotune config: BLOCK_ROW_SIZE 2,
    BLOCK_COL_SIZE 2048, 4 warps; two programs, the second half masked) and weight_bias_backward_kernel
    (BLOCK_ROW_SIZE 128, BLOCK_COL_SIZE 4, 4 warps: 12 programs)"""

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
        k1 = racer.triton(kernel("flag_gems.ops.layernorm", "layer_norm_backward_kernel"), BLOCK_ROW_SIZE=2,
                          BLOCK_COL_SIZE=2048, num_warps=4)
        racer.launch(k1, grid=2, args=[racer.read(self.dy), racer.read(self.x), racer.read(self.w),
                                       racer.read(self.mean), racer.read(self.rstd), racer.write(self.dx), R, C])
        k2 = racer.triton(kernel("flag_gems.ops.layernorm", "weight_bias_backward_kernel"), BLOCK_ROW_SIZE=128,
                          BLOCK_COL_SIZE=4, num_warps=4)
        racer.launch(k2, grid=C // 4, args=[racer.read(self.dy), racer.read(self.x), racer.read(self.mean),
                                            racer.read(self.rstd), racer.write(self.dw), racer.write(self.db), R, C])
        return {"dx": self.dx, "dw": self.dw, "db": self.db}

    def program_b(self):
        racer.launch(ref("norms.cu", "layernorm_bwd"), grid=1, block=C,
                     args=[racer.read(self.x), racer.read(self.w), racer.read(self.mean), racer.read(self.rstd),
                           racer.read(self.dy), racer.write(self.dx), racer.write(self.dw), racer.write(self.db), R, C])
        return {"dx": self.dx, "dw": self.dw, "db": self.db}


class _SoftmaxBwd:
    """flag-gems softmax_backward_kernel_inner (dim = -1): TILE_M = max(1, 1024 // TILE_N) and ONE_TILE_PER_CTA =
    TILE_N >= N (the host's heuristics), 4 warps"""
    tile_n, mutate = 64, None

    def setup(self):
        self.y = racer.input((R, C), "f32", range=(0, 1))
        self.dy = racer.input((R, C), "f32", range=(-2, 2))
        self.dx = racer.empty((R, C), "f32")

    def program_a(self):
        k = racer.triton(_lib("flag_gems.ops.softmax", "softmax_backward_kernel_inner", self.mutate),
                         TILE_N=self.tile_n, TILE_M=max(1, 1024 // self.tile_n), ONE_TILE_PER_CTA=self.tile_n >= C,
                         num_warps=4)
        racer.launch(k, grid=1, args=[racer.read(self.y), racer.read(self.dy), racer.write(self.dx), R, C])
        return {"dx": self.dx}

    def program_b(self):
        racer.launch(ref("softmax_losses.cu", "softmax_bwd"), grid=1, block=R,
                     args=[racer.read(self.dy), racer.read(self.y), racer.write(self.dx), R, C])
        return {"dx": self.dx}


class FlagGemsSoftmaxBwdOneTile(_SoftmaxBwd, Row):
    """flag-gems softmax_backward_kernel_inner, TILE_N 64 (one tile a row, 16 rows a program): y (dy - <y, dy>)"""


class FlagGemsSoftmaxBwdTiled(_SoftmaxBwd, Row):
    """flag-gems softmax_backward_kernel_inner, TILE_N 32 (two tiles a row, the second ragged)"""
    tile_n = 32


class FlagGemsSoftmaxBwdTiledScaleMutant(_SoftmaxBwd, Mutation):
    """mutation: the tiled loop's scale sums dy alone, not y dy"""
    tile_n = 32
    mutate = [("            scale += out_tile * out_grad_tile\n", "            scale += out_grad_tile\n")]


class _LogSoftmaxBwd:
    """flag-gems log_softmax_backward_kernel (rows of 3 x 48, K = 1): an autotune config (BLOCK_M 8, BLOCK_N 256,
    8 warps), one program"""
    mutate = None

    def setup(self):
        self.y = racer.input((R, C), "f32", range=(-6, 0))
        self.dy = racer.input((R, C), "f32", range=(-2, 2))
        self.dx = racer.empty((R, C), "f32")

    def program_a(self):
        k = racer.triton(_lib("flag_gems.ops.log_softmax", "log_softmax_backward_kernel", self.mutate), BLOCK_M=8,
                         BLOCK_N=256, num_warps=8)
        racer.launch(k, grid=(1, 1), args=[racer.read(self.y), racer.read(self.dy), racer.write(self.dx), R, C, 1])
        return {"dx": self.dx}

    def program_b(self):
        racer.launch(ref("ops2.cu", "log_softmax_bwd"), grid=1, block=R,
                     args=[racer.read(self.dy), racer.read(self.y), racer.write(self.dx), R, C])
        return {"dx": self.dx}


class FlagGemsLogSoftmaxBwd(_LogSoftmaxBwd, Row):
    """flag-gems log_softmax_backward_kernel: dx = dy - exp(y) sum(dy)"""


class FlagGemsLogSoftmaxBwdMissingExpMutant(_LogSoftmaxBwd, Mutation):
    """mutation: the output is used without its exp"""
    mutate = [("in_grad = out_grad - tl.exp(out) * scale[:, None]", "in_grad = out_grad - out * scale[:, None]")]


class _Pointwise:
    """An elementwise flag-gems op through a launcher of pointwise.py, blocks of 64 over 96 elements, 2 warps.
    `inputs`: (dtype, range) of each tensor operand; `scalars`: run-time scalars (after n); `flags`: constexprs."""
    op, launcher, reference, mutate = None, None, None, None
    inputs = (("f32", (-4, 4)),)
    scalars, flags, out_dtype = (), {}, "f32"

    def setup(self):
        for i, (dt, rg) in enumerate(self.inputs):  # attributes, so that Racer finds the tensors
            setattr(self, f"in{i}", racer.input((N,), dt, range=rg))
        self.y = racer.empty((N,), self.out_dtype)

    @property
    def ins(self):
        return [getattr(self, f"in{i}") for i in range(len(self.inputs))]

    def program_a(self):
        k = racer.triton(getattr(pointwise, self.launcher), OP=_lib(*self.op, self.mutate), BLOCK=64, num_warps=2,
                         **self.flags)
        racer.launch(k, grid=2, args=[racer.read(t) for t in self.ins] + [racer.write(self.y), N] + list(self.scalars))
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("ops2.cu", self.reference), grid=1, block=128,
                     args=[racer.read(t) for t in self.ins] + [racer.write(self.y), N] + list(self.scalars))
        return {"y": self.y}


class FlagGemsMinimum(_Pointwise, Row):
    """flag-gems minimum_kernel: tl.minimum of two tensors"""
    op, launcher, reference = ("flag_gems.ops.minimum", "minimum_kernel"), "binary", "minimum_fwd"
    inputs = (("f32", (-4, 4)), ("f32", (-4, 4)))


class FlagGemsWhere(_Pointwise, Row):
    """flag-gems where_inner(condition, self, other) with a bool condition tensor"""
    op, launcher, reference = ("flag_gems.ops.where", "where_inner"), "ternary", "where_fwd"
    inputs = (("bool", (0, 1)), ("f32", (-4, 4)), ("f32", (-4, 4)))


class FlagGemsMaskedFill(_Pointwise, Row):
    """flag-gems masked_fill_kernel(inp, mask, value) with a bool mask and value -2.5 (a run-time scalar)"""
    op, launcher, reference = ("flag_gems.ops.masked_fill", "masked_fill_kernel"), "binary_scalar_rt", \
        "masked_fill_fwd"
    inputs = (("f32", (-4, 4)), ("bool", (0, 1)))
    scalars = (-2.5,)


class FlagGemsMaskedFillInvertedMutant(_Pointwise, Mutation):
    """mutation: the fill goes where the mask is false"""
    op, launcher, reference = ("flag_gems.ops.masked_fill", "masked_fill_kernel"), "binary_scalar_rt", \
        "masked_fill_fwd"
    inputs = (("f32", (-4, 4)), ("bool", (0, 1)))
    scalars = (-2.5,)
    mutate = [("inp = tl.where(expand_mask == 1, value, inp)", "inp = tl.where(expand_mask == 0, value, inp)")]


class FlagGemsPowTensorScalar(_Pointwise, Row):
    """flag-gems pow_func_tensor_scalar(x, 3.0): libdevice pow on [0.25, 4] against x * x * x"""
    op, launcher, reference = ("flag_gems.ops.pow", "pow_func_tensor_scalar"), "unary_scalar_rt", "cube_fwd"
    inputs = (("f32", (0.25, 4)),)
    scalars = (3.0,)

    def program_b(self):
        racer.launch(ref("ops2.cu", "cube_fwd"), grid=1, block=128, args=[racer.read(self.ins[0]), racer.write(self.y), N])
        return {"y": self.y}


class FlagGemsPowScalar(_Pointwise, Row):
    """flag-gems pow_func_scalar_tensor(2.0, x): libdevice pow with base 2 against exp2f, x on [-4, 4]"""
    op, launcher, reference = ("flag_gems.ops.pow", "pow_func_scalar_tensor"), "scalar_unary_rt", "pow2_fwd"
    scalars = (2.0,)

    def program_b(self):
        racer.launch(ref("ops2.cu", "pow2_fwd"), grid=1, block=128, args=[racer.read(self.ins[0]), racer.write(self.y), N])
        return {"y": self.y}


class FlagGemsIsclose(_Pointwise, Row):
    """flag-gems isclose_func(a, b, rtol 0.1, atol 0.05, equal_nan False, zero_tol False): a bool per element,
    |a - b| <= atol + rtol |b| with libdevice's finitef test on |a - b|"""
    op, launcher, reference = ("flag_gems.ops.isclose", "isclose_func"), "binary_scalars_rt", "isclose_fwd"
    inputs = (("f32", (-1, 1)), ("f32", (-1, 1)))
    scalars, flags, out_dtype = (0.1, 0.05), {"C": False, "D": False}, "bool"


class FlagGemsEmbedding(Row):
    """flag-gems embedding_kernel: 5 rows gathered from a 12 x 40 table by indices read from an input (any in
    [0, 11]); grid M = 5, BLOCK_SIZE = next_power_of_2(40) = 64, 4 warps (the default)"""

    def setup(self):
        self.w = racer.input((12, 40), "f32", range=(-4, 4))
        self.idx = racer.input((5,), "i64", range=(0, 11))
        self.y = racer.empty((5, 40), "f32")

    def program_a(self):
        k = racer.triton(kernel("flag_gems.ops.embedding", "embedding_kernel"), N=40, BLOCK_SIZE=64)
        racer.launch(k, grid=5, args=[racer.write(self.y), racer.read(self.idx), racer.read(self.w)])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("ops2.cu", "embedding_fwd"), grid=2, block=128,
                     args=[racer.read(self.idx), racer.read(self.w), racer.write(self.y), 5, 40])
        return {"y": self.y}


class _Trace:
    """flag-gems trace_kernel of a 40 x 48 matrix: one program, BLOCK_SIZE = next_power_of_2(40) = 64"""
    mutate = None

    def setup(self):
        self.x = racer.input((40, 48), "f32", range=(-4, 4))
        self.out = racer.empty((1,), "f32")

    def program_a(self):
        k = racer.triton(_lib("flag_gems.ops.trace", "trace_kernel", self.mutate), BLOCK_SIZE=64)
        racer.launch(k, grid=1, args=[racer.read(self.x), racer.write(self.out), 40, 48, 1])
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref("ops2.cu", "trace_fwd"), grid=1, block=32, args=[racer.read(self.x), racer.write(self.out), 40, 48])
        return {"out": self.out}


class FlagGemsTrace(_Trace, Row):
    """flag-gems trace_kernel: the sum of the diagonal, strides (48, 1)"""


class FlagGemsTraceRowStrideMutant(_Trace, Mutation):
    """mutation: the diagonal stride forgets the column stride (walks down the first column)"""
    mutate = [("diag_stride = stride0 + stride1", "diag_stride = stride0")]


class FlagGemsAddmv(Row):
    """flag-gems addmv_kernel: alpha A v + beta inp, A 40 x 48, alpha 1.5, beta -0.5; an autotune config of mv
    (BLOCK_N 8, BLOCK_M 32, 4 warps): 5 programs, two column steps, the second ragged"""

    def setup(self):
        self.A = racer.input((40, 48), "f32", range=(-2, 2))
        self.v = racer.input((48,), "f32", range=(-2, 2))
        self.inp = racer.input((40,), "f32", range=(-2, 2))
        self.out = racer.empty((40,), "f32")

    def program_a(self):
        k = racer.triton(kernel("flag_gems.ops.addmv", "addmv_kernel"), BLOCK_N=8, BLOCK_M=32, num_warps=4)
        racer.launch(k, grid=5, args=[racer.read(self.A), racer.read(self.v), racer.read(self.inp), racer.write(self.out),
                                      40, 48, 1.5, -0.5, 48, 1, 1, 1, 1])
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref("ops2.cu", "addmv_fwd"), grid=1, block=64,
                     args=[racer.read(self.A), racer.read(self.v), racer.read(self.inp), racer.write(self.out), 40, 48,
                           1.5, -0.5])
        return {"out": self.out}
