"""flag-gems: pointwise activations (through the launcher of tests/realworld/pointwise.py),
softmax and log-softmax, norms, whole-tensor reductions and scans (two- and three-launch
pipelines), and matmuls in f32/f16/bf16, against naive references."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
import pointwise  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

N = 96  # elements of a pointwise or whole-tensor row


class _Unary:
    """y = op(x) elementwise: flag-gems' scalar function in the generated launcher, blocks of 64."""
    op, reference, lo, hi, mutate = None, None, -4, 4, None
    scalars = ()

    def setup(self):
        self.x = racer.input((N,), "f32", range=(self.lo, self.hi))
        self.y = racer.empty((N,), "f32")

    def program_a(self):
        module, name = self.op
        fn = kernel(module, name, **({"mutate": self.mutate} if self.mutate else {}))
        if self.scalars:
            s = list(self.scalars) + [0.0] * (3 - len(self.scalars))
            k = racer.triton(pointwise.unary_scalars, OP=fn, A=s[0], B=s[1], C=s[2], N_SCALARS=len(self.scalars),
                             BLOCK=64, num_warps=2)
        else:
            k = racer.triton(pointwise.unary, OP=fn, BLOCK=64, num_warps=2)
        racer.launch(k, grid=2, args=[racer.read(self.x), racer.write(self.y), N])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("activations.cu", self.reference), grid=1, block=128,
                     args=[racer.read(self.x), racer.write(self.y), N])
        return {"y": self.y}


class FlagGemsGeluErf(_Unary, Row):
    """flag-gems gelu_none: 0.5 x (1 + erf(x / sqrt 2))"""
    op, reference = ("flag_gems.ops.gelu", "gelu_none"), "gelu_erf"


class FlagGemsGeluTanh(_Unary, Row):
    """flag-gems gelu_tanh"""
    op, reference = ("flag_gems.ops.gelu", "gelu_tanh"), "gelu_tanh_fwd"


class FlagGemsGeluTanhWrongConstantMutant(_Unary, Mutation):
    """mutation: sqrt(2/pi) written as 0.7978 (four digits)"""
    op, reference = ("flag_gems.ops.gelu", "gelu_tanh"), "gelu_tanh_fwd"
    mutate = [("x_fp32 * 0.79788456 *", "x_fp32 * 0.7978 *")]


class FlagGemsSilu(_Unary, Row):
    """flag-gems silu_forward: x / (1 + exp(-x)) with tl.fdiv"""
    op, reference = ("flag_gems.ops.silu", "silu_forward"), "silu"


class FlagGemsRelu(_Unary, Row):
    """flag-gems relu_forward"""
    op, reference = ("flag_gems.ops.relu", "relu_forward"), "relu"


class FlagGemsSigmoid(_Unary, Row):
    """flag-gems sigmoid_forward: 1 / (1 + exp2(-x log2 e))"""
    op, reference = ("flag_gems.ops.sigmoid", "sigmoid_forward"), "sigmoid_fwd"


class FlagGemsTanh(_Unary, Row):
    """flag-gems tanh_kernel (libdevice tanh)"""
    op, reference = ("flag_gems.ops.tanh", "tanh_kernel"), "tanh_fwd"


class FlagGemsElu(_Unary, Row):
    """flag-gems elu_forward_kernel with alpha = scale = input_scale = 1"""
    op, reference, scalars = ("flag_gems.ops.elu", "elu_forward_kernel"), "elu", (1.0, 1.0, 1.0)


class FlagGemsSoftplus(_Unary, Row):
    """flag-gems softplus_forward with beta 1, threshold 20, inputs on both sides of the threshold"""
    op, reference, scalars, lo, hi = ("flag_gems.ops.softplus", "softplus_forward"), "softplus", (1.0, 20.0), -30, 30


class FlagGemsHardsigmoid(Row):
    """flag-gems hardsigmoid_kernel: x * fl(1/6) + 0.5 differs from x / 6 + 0.5 beyond rounding (inspected)

    A genuine difference, not a mistake of the reference: the kernel multiplies by the f32 rounding
    of 1/6 (11184811 / 2^26), and next to x = -3, where x/6 + 1/2 cancels to a small result, that
    constant's relative error of 2^-25 becomes more than 4 ulp of the output (PyTorch computes
    (x + 3) / 6, which does not). Racer's refutation replays on the emulator as manifest."""
    expect = "inequivalent"

    def setup(self):
        self.x = racer.input((N,), "f32", range=(-5, 5))
        self.y = racer.empty((N,), "f32")

    def program_a(self):
        k = racer.triton(kernel("flag_gems.ops.hardsigmoid", "hardsigmoid_kernel"), BLOCK_SIZE=64, num_warps=2)
        racer.launch(k, grid=2, args=[racer.read(self.x), racer.write(self.y), N])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("activations.cu", "hardsigmoid"), grid=1, block=128,
                     args=[racer.read(self.x), racer.write(self.y), N])
        return {"y": self.y}


class _Binary:
    op, reference = None, None

    def setup(self):
        self.x = racer.input((N,), "f32", range=(-4, 4))
        self.dy = racer.input((N,), "f32", range=(-2, 2))
        self.dx = racer.empty((N,), "f32")

    def program_a(self):
        k = racer.triton(pointwise.binary, OP=kernel(*self.op), BLOCK=64, num_warps=2)
        racer.launch(k, grid=2, args=[racer.read(self.x), racer.read(self.dy), racer.write(self.dx), N])
        return {"dx": self.dx}

    def program_b(self):
        racer.launch(ref("activations.cu", self.reference), grid=1, block=128,
                     args=[racer.read(self.x), racer.read(self.dy), racer.write(self.dx), N])
        return {"dx": self.dx}


class FlagGemsGeluBackwardErf(_Binary, Row):
    """flag-gems gelu_backward_none: Phi(x) + x phi(x), times dy"""
    op, reference = ("flag_gems.ops.gelu", "gelu_backward_none"), "gelu_erf_bwd"


class FlagGemsSiluBackward(_Binary, Row):
    """flag-gems silu_backward_kernel"""
    op, reference = ("flag_gems.ops.silu", "silu_backward_kernel"), "silu_bwd"


class FlagGemsSiluAndMul(_Binary, Row):
    """flag-gems fused silu_and_mul_kernel: silu(x) * y"""
    op, reference = ("flag_gems.fused.silu_and_mul", "silu_and_mul_kernel"), "swiglu_fwd"


class FlagGemsSiluAndMulSignMutant(_Binary, Mutation):
    """mutation: silu's exponent has the wrong sign"""
    op, reference = ("flag_gems.fused.silu_and_mul", "silu_and_mul_kernel"), "swiglu_fwd"

    def program_a(self):
        k = racer.triton(pointwise.binary, OP=kernel(*self.op, mutate=[("tl.exp(-x_fp32)", "tl.exp(x_fp32)")]),
                         BLOCK=64, num_warps=2)
        racer.launch(k, grid=2, args=[racer.read(self.x), racer.read(self.dy), racer.write(self.dx), N])
        return {"dx": self.dx}


class FlagGemsGeluTanhAndMul(_Binary, Row):
    """flag-gems fused gelu_tanh_and_mul_kernel: gelu_tanh(x) * y"""
    op, reference = ("flag_gems.fused.gelu_and_mul", "gelu_tanh_and_mul_kernel"), "geglu_fwd"


class FlagGemsGeluAndMul(_Binary, Row):
    """flag-gems fused gelu_none_and_mul_kernel: gelu(x) * y with erf (1/sqrt 2 truncated to 0.7071067811)"""
    op, reference = ("flag_gems.fused.gelu_and_mul", "gelu_none_and_mul_kernel"), "gelu_erf_mul"


R, C = 3, 40


class _RowSoftmax:
    reference = "softmax_fwd"

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-8, 8))
        self.y = racer.empty((R, C), "f32")

    def program_b(self):
        racer.launch(ref("softmax_losses.cu", self.reference), grid=1, block=R,
                     args=[racer.read(self.x), racer.write(self.y), R, C])
        return {"y": self.y}


class FlagGemsSoftmaxInnerOneTile(_RowSoftmax, Row):
    """flag-gems softmax_kernel_inner, a whole row in one tile of 64"""

    def program_a(self):
        k = racer.triton(kernel("flag_gems.ops.softmax", "softmax_kernel_inner"), TILE_N=64, ONE_TILE_PER_CTA=True,
                         num_warps=1)
        racer.launch(k, grid=R, args=[racer.write(self.y), racer.read(self.x), R, C])
        return {"y": self.y}


class FlagGemsSoftmaxInnerTiled(_RowSoftmax, Row):
    """flag-gems softmax_kernel_inner, online softmax over tiles of 16 (a ragged last tile)"""

    def program_a(self):
        k = racer.triton(kernel("flag_gems.ops.softmax", "softmax_kernel_inner"), TILE_N=16, ONE_TILE_PER_CTA=False,
                         num_warps=1)
        racer.launch(k, grid=R, args=[racer.write(self.y), racer.read(self.x), R, C])
        return {"y": self.y}


class FlagGemsLogSoftmax(_RowSoftmax, Row):
    """flag-gems log_softmax_kernel (rows of a 3x40 tensor, K = 1), blocks of 4 rows x 16 columns"""
    reference = "log_softmax_fwd"

    def program_a(self):
        k = racer.triton(kernel("flag_gems.ops.log_softmax", "log_softmax_kernel"), BLOCK_M=4, BLOCK_N=16,
                         num_warps=1)
        racer.launch(k, grid=(1, 1), args=[racer.write(self.y), racer.read(self.x), R, C, 1])
        return {"y": self.y}


class FlagGemsLogSoftmaxMissingLogMutant(_RowSoftmax, Mutation):
    """mutation: the normalizer is subtracted without its logarithm"""
    reference = "log_softmax_fwd"

    def program_a(self):
        k = racer.triton(kernel("flag_gems.ops.log_softmax", "log_softmax_kernel",
                                mutate=[("o = inp - m[:, None] - tl.log(z[:, None])", "o = inp - m[:, None] - z[:, None]")]),
                         BLOCK_M=4, BLOCK_N=16, num_warps=1)
        racer.launch(k, grid=(1, 1), args=[racer.write(self.y), racer.read(self.x), R, C, 1])
        return {"y": self.y}


class _Norm:
    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))
        self.b = racer.input((C,), "f32", range=(-2, 2))
        self.y = racer.empty((R, C), "f32")
        self.mean = racer.empty((R,), "f32")
        self.rstd = racer.empty((R,), "f32")


class FlagGemsRmsNorm(_Norm, Row):
    """flag-gems rms_norm_kernel: y and the inverse rms"""

    def program_a(self):
        k = racer.triton(kernel("flag_gems.ops.rms_norm", "rms_norm_kernel"), BLOCK_SIZE=64, num_warps=1)
        racer.launch(k, grid=R, args=[racer.write(self.y), racer.write(self.rstd), racer.read(self.x), racer.read(self.w),
                                      C, 1, C, 1, C, 1e-5])
        return {"y": self.y, "rstd": self.rstd}

    def program_b(self):
        racer.launch(ref("norms.cu", "rmsnorm_fwd"), grid=1, block=R,
                     args=[racer.read(self.x), racer.read(self.w), racer.write(self.y), racer.write(self.rstd),
                           R, C, 1e-5, 0.0])
        return {"y": self.y, "rstd": self.rstd}


class FlagGemsLayerNormPersistent(_Norm, Row):
    """flag-gems layer_norm_persistent_kernel: y, mean and rstd"""

    def program_a(self):
        k = racer.triton(kernel("flag_gems.ops.layernorm", "layer_norm_persistent_kernel"), TILE_N=64, num_warps=1)
        racer.launch(k, grid=R, args=[racer.read(self.x), racer.write(self.y), racer.read(self.w), racer.read(self.b),
                                      racer.write(self.mean), racer.write(self.rstd), R, C, 1e-5])
        return {"y": self.y, "mean": self.mean, "rstd": self.rstd}

    def program_b(self):
        racer.launch(ref("norms.cu", "layernorm_fwd"), grid=1, block=R,
                     args=[racer.read(self.x), racer.read(self.w), racer.read(self.b), racer.write(self.y),
                           racer.write(self.mean), racer.write(self.rstd), R, C, 1e-5])
        return {"y": self.y, "mean": self.mean, "rstd": self.rstd}


class FlagGemsLayerNormVarianceMutant(_Norm, Mutation):
    """mutation: the variance divides by N - 1 (unbiased) where layer norm uses N"""

    def program_a(self):
        k = racer.triton(kernel("flag_gems.ops.layernorm", "layer_norm_persistent_kernel",
                                mutate=[("var = sum_square / N", "var = sum_square / (N - 1)")]), TILE_N=64, num_warps=1)
        racer.launch(k, grid=R, args=[racer.read(self.x), racer.write(self.y), racer.read(self.w), racer.read(self.b),
                                      racer.write(self.mean), racer.write(self.rstd), R, C, 1e-5])
        return {"y": self.y, "mean": self.mean, "rstd": self.rstd}

    program_b = FlagGemsLayerNormPersistent.program_b


class _FusedAddRmsNorm:
    mutate = None

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.res = racer.input((R, C), "f32", range=(-4, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))

    def program_a(self):
        k = racer.triton(kernel("flag_gems.fused.fused_add_rms_norm", "fused_add_rms_norm_kernel",
                                **({"mutate": self.mutate} if self.mutate else {})), BLOCK_SIZE=64, num_warps=1)
        racer.launch(k, grid=R, args=[racer.readwrite(self.x), racer.readwrite(self.res), racer.read(self.w),
                                      C, 1, C, 1, C, 1e-5])
        return {"x": self.x, "res": self.res}

    def program_b(self):
        racer.launch(ref("norms.cu", "add_rmsnorm_inplace"), grid=1, block=R,
                     args=[racer.readwrite(self.x), racer.readwrite(self.res), racer.read(self.w), R, C, 1e-5])
        return {"x": self.x, "res": self.res}


class FlagGemsFusedAddRmsNorm(_FusedAddRmsNorm, Row):
    """flag-gems fused_add_rms_norm_kernel: the residual sum written back, RMS-normalized into the input"""


class FlagGemsFusedAddRmsNormResidualMutant(_FusedAddRmsNorm, Mutation):
    """mutation: the output normalizes the old residual, not the sum"""
    mutate = [("y = (x * rrms * w).to(cdtype)", "y = (r * rrms * w).to(cdtype)")]


class _SkipLayerNorm:
    mutate = None

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.res = racer.input((R, C), "f32", range=(-4, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))
        self.b = racer.input((C,), "f32", range=(-2, 2))
        self.y = racer.empty((R, C), "f32")

    def program_a(self):
        k = racer.triton(kernel("flag_gems.fused.skip_layernorm", "skip_layer_norm_kernel",
                                **({"mutate": self.mutate} if self.mutate else {})), BLOCK_SIZE=64, num_warps=1)
        racer.launch(k, grid=R, args=[racer.write(self.y), racer.read(self.x), racer.read(self.res), racer.read(self.w),
                                      racer.read(self.b), C, 1, C, 1, C, 1, C, 1e-5])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("norms.cu", "skip_layernorm_fwd"), grid=1, block=R,
                     args=[racer.read(self.x), racer.read(self.res), racer.read(self.w), racer.read(self.b),
                           racer.write(self.y), R, C, 1e-5])
        return {"y": self.y}


class FlagGemsSkipLayerNorm(_SkipLayerNorm, Row):
    """flag-gems skip_layer_norm_kernel: layer norm of x + residual"""


class FlagGemsSkipLayerNormUncenteredMutant(_SkipLayerNorm, Mutation):
    """mutation: the normalized value is not centered"""
    mutate = [("x_hat = (x - mean) * rstd", "x_hat = x * rstd")]


class _Whole:
    """A whole-tensor reduction: flag-gems' two launches (blocks of 32 into `mid`, then mid into out)."""
    module, first, second, reference, mutate = None, None, None, None, None

    def setup(self):
        self.x = racer.input((N,), "f32", range=(-4, 4))
        self.mid = racer.empty((4,), "f32")
        self.out = racer.empty((1,), "f32")

    def program_a(self):
        k1 = racer.triton(kernel(self.module, self.first, **({"mutate": self.mutate} if self.mutate else {})),
                          BLOCK_SIZE=32, num_warps=1)
        racer.launch(k1, grid=3, args=[racer.read(self.x), racer.write(self.mid), N])
        k2 = racer.triton(kernel(self.module, self.second), BLOCK_MID=4, num_warps=1)
        args = [racer.read(self.mid), racer.write(self.out)] + ([N, 3] if self.second == "mean_kernel_2" else [3])
        racer.launch(k2, grid=1, args=args)
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref("linalg.cu", self.reference), grid=1, block=32,
                     args=[racer.read(self.x), racer.write(self.out), N])
        return {"out": self.out}


class FlagGemsSum(_Whole, Row):
    """flag-gems sum_kernel_1 + sum_kernel_2"""
    module, first, second, reference = "flag_gems.ops.sum", "sum_kernel_1", "sum_kernel_2", "sum_all"


class FlagGemsMean(_Whole, Row):
    """flag-gems mean_kernel_1 + mean_kernel_2"""
    module, first, second, reference = "flag_gems.ops.mean", "mean_kernel_1", "mean_kernel_2", "mean_all"


class FlagGemsMax(_Whole, Row):
    """flag-gems max_kernel_1 + max_kernel_2"""
    module, first, second, reference = "flag_gems.ops.max", "max_kernel_1", "max_kernel_2", "max_all"


class FlagGemsSumMaskMutant(_Whole, Mutation):
    """mutation: the first pass masks one element too few at the end of each block"""
    module, first, second, reference = "flag_gems.ops.sum", "sum_kernel_1", "sum_kernel_2", "sum_all"
    mutate = [("mask = offset < M", "mask = offset < M - 1")]


class _Cumsum:
    mutate = None

    def setup(self):
        self.x = racer.input((N,), "f32", range=(-4, 4))
        self.out = racer.empty((N,), "f32")
        self.part = racer.empty((3,), "f32")
        self.part_scan = racer.empty((3,), "f32")
        self.part_part = racer.empty((1,), "f32")

    def program_a(self):
        scan = racer.triton(kernel("flag_gems.ops.cumsum", "scan_part_sum_kernel"), BLOCK_SIZE=32, num_warps=1)
        racer.launch(scan, grid=3, args=[racer.read(self.x), racer.write(self.out), racer.write(self.part), N, 3])
        scan4 = racer.triton(kernel("flag_gems.ops.cumsum", "scan_part_sum_kernel"), BLOCK_SIZE=4, num_warps=1)
        racer.launch(scan4, grid=1, args=[racer.read(self.part), racer.write(self.part_scan),
                                          racer.write(self.part_part), 3, 1])
        add = racer.triton(kernel("flag_gems.ops.cumsum", "add_base_sum_kernel",
                                  **({"mutate": self.mutate} if self.mutate else {})), BLOCK_SIZE=32, num_warps=1)
        racer.launch(add, grid=3, args=[racer.readwrite(self.out), racer.read(self.part_scan), N, 3])
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref("linalg.cu", "cumsum_all"), grid=1, block=32, args=[racer.read(self.x), racer.write(self.out), N])
        return {"out": self.out}


class FlagGemsCumsum(_Cumsum, Row):
    """flag-gems cumsum: scan_part_sum_kernel per block, the scan of the block sums, add_base_sum_kernel"""


class FlagGemsCumsumWrongBaseMutant(_Cumsum, Mutation):
    """mutation: each block adds the running sum up to and including itself (partial_sum + pid)"""
    mutate = [("partial_sum_ptrs = partial_sum + pid - 1", "partial_sum_ptrs = partial_sum + pid")]


M, K, NN = 32, 32, 32


class _Mm:
    dtype = "f32"
    entry = "mm_f32"

    def setup(self):
        self.a = racer.input((M, K), self.dtype, range=(-2, 2))
        self.b = racer.input((K, NN), self.dtype, range=(-2, 2))
        self.c = racer.empty((M, NN), self.dtype)

    def program_a(self):
        k = racer.triton(kernel("flag_gems.ops.mm", "mm_kernel_general"), BLOCK_M=16, BLOCK_N=16, BLOCK_K=16, GROUP_M=1,
                         num_warps=4)
        racer.launch(k, grid=4, args=[racer.read(self.a), racer.read(self.b), racer.write(self.c), M, NN, K,
                                      K, 1, NN, 1, NN, 1])
        return {"c": self.c}

    def program_b(self):
        racer.launch(ref("linalg.cu", self.entry), grid=(M * NN) // 128, block=128,
                     args=[racer.read(self.a), racer.read(self.b), racer.write(self.c), M, NN, K])
        return {"c": self.c}


class FlagGemsMmF32(_Mm, Row):
    """flag-gems mm_kernel_general, f32 (tl.dot with allow_tf32=False), 32x32x32 in 16x16x16 tiles"""


class FlagGemsMmF16(_Mm, Row):
    """flag-gems mm_kernel_general, f16 in and out, f32 accumulation"""
    dtype, entry = "f16", "mm_f16"


class FlagGemsMmBf16(_Mm, Row):
    """flag-gems mm_kernel_general, bf16 in and out, f32 accumulation"""
    dtype, entry = "bf16", "mm_bf16"


class _Addmm:
    dtype, entry, alpha, beta, mutate = "f32", "addmm_f32", 0.5, 2.0, None

    def setup(self):
        self.a = racer.input((M, K), self.dtype, range=(-2, 2))
        self.b = racer.input((K, NN), self.dtype, range=(-2, 2))
        self.i = racer.input((M, NN), self.dtype, range=(-2, 2))
        self.c = racer.empty((M, NN), self.dtype)

    def program_a(self):
        k = racer.triton(kernel("flag_gems.ops.addmm", "addmm_kernel",
                                **({"mutate": self.mutate} if self.mutate else {})),
                         BLOCK_SIZE_M=16, BLOCK_SIZE_N=16, BLOCK_SIZE_K=16, num_warps=4)
        racer.launch(k, grid=(2, 2), args=[racer.read(self.a), racer.read(self.b), racer.read(self.i),
                                           racer.write(self.c), self.alpha, self.beta, M, NN, K, K, 1, NN, 1, NN, 1,
                                           NN, 1])
        return {"c": self.c}

    def program_b(self):
        racer.launch(ref("linalg.cu", self.entry), grid=(M * NN) // 128, block=128,
                     args=[racer.read(self.a), racer.read(self.b), racer.read(self.i), racer.write(self.c), M, NN, K,
                           self.alpha, self.beta])
        return {"c": self.c}


class FlagGemsAddmmF32(_Addmm, Row):
    """flag-gems addmm_kernel f32: alpha A B + beta I, alpha 0.5, beta 2"""


class FlagGemsAddmmF16(_Addmm, Row):
    """flag-gems addmm_kernel f16"""
    dtype, entry = "f16", "addmm_f16"


class FlagGemsAddmmBf16(_Addmm, Row):
    """flag-gems addmm_kernel bf16"""
    dtype, entry = "bf16", "addmm_bf16"


class FlagGemsAddmmSwappedScalarsMutant(_Addmm, Mutation):
    """mutation: alpha and beta swapped"""
    mutate = [("accumulator = accumulator * alpha + bias * beta", "accumulator = accumulator * beta + bias * alpha")]


BATCH = 2


class _Bmm:
    dtype, entry, size, mutate = "f16", "mm_f16", 32, None

    def setup(self):
        n = self.size
        self.a = racer.input((BATCH, n, n), self.dtype, range=(-2, 2))
        self.b = racer.input((BATCH, n, n), self.dtype, range=(-2, 2))
        self.c = racer.empty((BATCH, n, n), self.dtype)

    def program_a(self):
        n, divisible = self.size, self.size % 16 == 0
        k = racer.triton(kernel("flag_gems.ops.bmm", "bmm_kernel", **({"mutate": self.mutate} if self.mutate else {})),
                         TILE_M=16, TILE_N=16, TILE_K=16, GROUP_M=1, DIVISIBLE_M=divisible, DIVISIBLE_N=divisible,
                         DIVISIBLE_K=divisible, num_warps=4)
        tiles = -(-n // 16)
        racer.launch(k, grid=(tiles, tiles, BATCH), args=[racer.read(self.a), racer.read(self.b), racer.write(self.c),
                                                          n, n, n, n * n, n, 1, n * n, n, 1, n * n, n, 1])
        return {"c": self.c}

    def program_b(self):
        n = self.size
        racer.launch(ref("linalg.cu", self.entry), grid=(-(-n * n // 128), BATCH), block=128,
                     args=[racer.read(self.a), racer.read(self.b), racer.write(self.c), n, n, n])
        return {"c": self.c}


class FlagGemsBmmF16(_Bmm, Row):
    """flag-gems bmm_kernel f16, batch 2 of 32x32x32, 16x16x16 tiles, divisible shapes"""


class FlagGemsBmmBf16(_Bmm, Row):
    """flag-gems bmm_kernel bf16, batch 2 of 32x32x32, divisible shapes"""
    dtype, entry = "bf16", "mm_bf16"


class FlagGemsBmmF16Masked(_Bmm, Row):
    """flag-gems bmm_kernel f16, batch 2 of 24x24x24: masked edge tiles (DIVISIBLE_* false)"""
    size = 24


class FlagGemsBmmSharedOperandMutant(_Bmm, Mutation):
    """mutation: every batch multiplies by batch 0's B"""
    mutate = [("B += pid_b * stride_bb", "B += 0 * stride_bb")]


class FlagGemsMv(Row):
    """flag-gems mv_kernel: y = A x, 40x48 in blocks of 16 rows x 16 columns"""

    def setup(self):
        self.a = racer.input((40, 48), "f32", range=(-2, 2))
        self.x = racer.input((48,), "f32", range=(-2, 2))
        self.y = racer.empty((40,), "f32")

    def program_a(self):
        k = racer.triton(kernel("flag_gems.ops.mv", "mv_kernel"), BLOCK_N=16, BLOCK_M=16, num_warps=1)
        racer.launch(k, grid=3, args=[racer.read(self.a), racer.read(self.x), racer.write(self.y), 40, 48, 48, 1, 1, 1])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("linalg.cu", "mv_f32"), grid=1, block=64,
                     args=[racer.read(self.a), racer.read(self.x), racer.write(self.y), 40, 48])
        return {"y": self.y}


class FlagGemsTanhBackward(_Binary, Row):
    """flag-gems tanh_backward_kernel(y, dy): dy (1 - y^2)"""
    op, reference = ("flag_gems.ops.tanh", "tanh_backward_kernel"), "tanh_bwd"


class FlagGemsSigmoidBackward(_Binary, Row):
    """flag-gems sigmoid_backward_kernel(dy, y): dy y (1 - y)"""
    op, reference = ("flag_gems.ops.sigmoid", "sigmoid_backward_kernel"), "sigmoid_bwd"
