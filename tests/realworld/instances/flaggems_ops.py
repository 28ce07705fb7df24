"""flag-gems: more pointwise ops (unary, binary, ternary, with scalars; through the launchers of
tests/realworld/pointwise.py or the library's own @triton.jit kernels), reductions, norms and
index ops, against the naive references of reference/ops.cu."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import triton.language as tl  # noqa: E402

import racer  # noqa: E402
import pointwise  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

N = 96  # elements of a pointwise or whole-tensor row


def _lib(op, mutate):
    return kernel(*op, **({"mutate": mutate} if mutate else {}))


class _Unary:
    """y = op(x) elementwise: flag-gems' scalar function in the generated launcher, blocks of 64.
    `scalars` are the op's scalar arguments (constexprs of the launcher), passed to the reference after n."""
    op, reference, lo, hi, mutate = None, None, -4, 4, None
    scalars = ()

    def setup(self):
        self.x = racer.input((N,), "f32", range=(self.lo, self.hi))
        self.y = racer.empty((N,), "f32")

    def program_a(self):
        fn = _lib(self.op, self.mutate)
        if len(self.scalars) == 1:
            k = racer.triton(pointwise.unary_scalar, OP=fn, A=self.scalars[0], BLOCK=64, num_warps=2)
        elif self.scalars:
            s = list(self.scalars) + [0.0] * (3 - len(self.scalars))
            k = racer.triton(pointwise.unary_scalars, OP=fn, A=s[0], B=s[1], C=s[2], N_SCALARS=len(self.scalars),
                             BLOCK=64, num_warps=2)
        else:
            k = racer.triton(pointwise.unary, OP=fn, BLOCK=64, num_warps=2)
        racer.launch(k, grid=2, args=[racer.read(self.x), racer.write(self.y), N])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("ops.cu", self.reference), grid=1, block=128,
                     args=[racer.read(self.x), racer.write(self.y), N] + list(self.scalars))
        return {"y": self.y}


class FlagGemsExp(_Unary, Row):
    """flag-gems exp_func: tl.exp"""
    op, reference = ("flag_gems.ops.exp", "exp_func"), "exp_fwd"


class FlagGemsExp2(_Unary, Row):
    """flag-gems exp2_func: tl.exp2"""
    op, reference = ("flag_gems.ops.exp2", "exp2_func"), "exp2_fwd"


class FlagGemsLog(_Unary, Row):
    """flag-gems log_func: tl.log on [0.1, 4]; the last 32 lanes of the second block are masked and
    run libdevice's logf on the 0 their load leaves"""
    op, reference, lo, hi = ("flag_gems.ops.log", "log_func"), "log_fwd", 0.1, 4


class FlagGemsExpm1(_Unary, Row):
    """flag-gems expm1_func: exp(x) - 1 (the reference calls CUDA's expm1f)"""
    op, reference = ("flag_gems.ops.expm1", "expm1_func"), "expm1_fwd"


class FlagGemsSqrt(_Unary, Row):
    """flag-gems sqrt_func: tl.sqrt on [0, 4]"""
    op, reference, lo, hi = ("flag_gems.ops.sqrt", "sqrt_func"), "sqrt_fwd", 0, 4


class FlagGemsRsqrt(_Unary, Row):
    """flag-gems rsqrt_func: 1 / tl.sqrt(x) on [0.1, 4]"""
    op, reference, lo, hi = ("flag_gems.ops.rsqrt", "rsqrt_func"), "rsqrt_fwd", 0.1, 4


class FlagGemsErf(_Unary, Row):
    """flag-gems erf_func: tl.math.erf"""
    op, reference = ("flag_gems.ops.erf", "erf_func"), "erf_fwd"


class FlagGemsSin(_Unary, Row):
    """flag-gems sin_func: tl.sin on [-4, 4] (the reference calls CUDA's sinf)"""
    op, reference = ("flag_gems.ops.sin", "sin_func"), "sin_fwd"


class FlagGemsAtan(_Unary, Row):
    """flag-gems atan_kernel: libdevice atan against CUDA's atanf (two different approximations)"""
    op, reference = ("flag_gems.ops.atan", "atan_kernel"), "atan_fwd"


class FlagGemsLogSigmoid(_Unary, Row):
    """flag-gems log_sigmoid_forward: min(x, 0) - log(1 + exp(-|x|)), against -log(1 + exp(-x))"""
    op, reference = ("flag_gems.ops.log_sigmoid", "log_sigmoid_forward"), "log_sigmoid_fwd"


class FlagGemsLogSigmoidMissingMinMutant(_Unary, Mutation):
    """mutation: the min(x, 0) term is dropped (right for x >= 0 only)"""
    op, reference = ("flag_gems.ops.log_sigmoid", "log_sigmoid_forward"), "log_sigmoid_fwd"
    mutate = [("return tl.minimum(x, 0.0) - tl.log(", "return 0.0 - tl.log(")]


class FlagGemsCelu(_Unary, Row):
    """flag-gems celu_forward_kernel with alpha 2: x > 0 ? x : alpha (exp(x / alpha) - 1)"""
    op, reference, scalars = ("flag_gems.ops.celu", "celu_forward_kernel"), "celu_fwd", (2.0,)


class FlagGemsThreshold(_Unary, Row):
    """flag-gems threshold_kernel(x, 0.5, -1): x above the threshold, the value elsewhere"""
    op, reference, scalars = ("flag_gems.ops.threshold", "threshold_kernel"), "threshold_fwd", (0.5, -1.0)


class FlagGemsClamp(_Unary, Row):
    """flag-gems clamp_func(x, -1, 2) with scalar bounds"""
    op, reference, scalars = ("flag_gems.ops.clamp", "clamp_func"), "clamp_fwd", (-1.0, 2.0)


class FlagGemsClampSwappedBoundsMutant(_Unary, Mutation):
    """mutation: the bounds are applied in the wrong order (max of the upper, min of the lower)"""
    op, reference, scalars = ("flag_gems.ops.clamp", "clamp_func"), "clamp_fwd", (-1.0, 2.0)
    mutate = [("return tl.minimum(maxi, tl.maximum(mini, x.to(tl.float32)))",
               "return tl.maximum(maxi, tl.minimum(mini, x.to(tl.float32)))")]


class _Plain:
    """A flag-gems elementwise kernel of its own (x, y, n, ..., BLOCK_SIZE): the host launches it with
    BLOCK_SIZE 1024 (one program for 96 elements) and 4 warps; here too."""
    module, name, reference, lo, hi, mutate = None, None, None, -8, 8, None
    args, constexprs, ref_args = (), {}, ()

    def setup(self):
        self.x = racer.input((N,), "f32", range=(self.lo, self.hi))
        self.y = racer.empty((N,), "f32")

    def program_a(self):
        k = racer.triton(_lib((self.module, self.name), self.mutate), BLOCK_SIZE=1024, num_warps=4,
                         **self.constexprs)
        racer.launch(k, grid=1, args=[racer.read(self.x), racer.write(self.y), N] + list(self.args))
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("ops.cu", self.reference), grid=1, block=128,
                     args=[racer.read(self.x), racer.write(self.y), N] + list(self.ref_args))
        return {"y": self.y}


class FlagGemsSelu(_Plain, Row):
    """flag-gems selu_kernel: scale (x > 0 ? x : alpha (exp(min(x, 0)) - 1)), PyTorch's constants"""
    module, name, reference = "flag_gems.ops.selu", "selu_kernel", "selu_fwd"


class FlagGemsRelu6(_Plain, Row):
    """flag-gems relu6_kernel: min(max(x, 0), 6)"""
    module, name, reference = "flag_gems.ops.relu6", "relu6_kernel", "relu6_fwd"


class FlagGemsSoftshrink(_Plain, Row):
    """flag-gems softshrink_kernel with lambda 0.5 (a run-time argument), NaN passed through"""
    module, name, reference, args, ref_args = "flag_gems.ops.softshrink", "softshrink_kernel", "softshrink_fwd", \
        (0.5,), (0.5,)


class FlagGemsSoftshrinkSignMutant(_Plain, Mutation):
    """mutation: below -lambda the kernel subtracts lambda instead of adding it"""
    module, name, reference, args, ref_args = "flag_gems.ops.softshrink", "softshrink_kernel", "softshrink_fwd", \
        (0.5,), (0.5,)
    mutate = [("tl.where(lt, x32 + threshold, 0.0)", "tl.where(lt, x32 - threshold, 0.0)")]


class FlagGemsLogit(_Plain, Row):
    """flag-gems logit_kernel with eps 0.05 (HAS_EPS): inputs on [0.01, 0.99] reach both clamps; at the
    host's BLOCK_SIZE 1024 over 4 warps each thread runs eight inlined logf, interleaved by the compiler"""
    module, name, reference, lo, hi = "flag_gems.ops.logit", "logit_kernel", "logit_fwd", 0.01, 0.99
    args, constexprs, ref_args = (0.05,), {"HAS_EPS": True, "OUT_DTYPE": tl.float32}, (0.05,)


class _InPlace:
    """A flag-gems in-place elementwise kernel (x, n, BLOCK_SIZE), launched as the host does."""
    module, name, reference, lo, hi = None, None, None, -8, 8

    def setup(self):
        self.x = racer.input((N,), "f32", range=(self.lo, self.hi))

    def program_a(self):
        k = racer.triton(kernel(self.module, self.name), BLOCK_SIZE=1024, num_warps=4)
        racer.launch(k, grid=1, args=[racer.readwrite(self.x), N])
        return {"x": self.x}

    def program_b(self):
        racer.launch(ref("ops.cu", self.reference), grid=1, block=128, args=[racer.readwrite(self.x), N])
        return {"x": self.x}


class FlagGemsHardswishInplace(_InPlace, Row):
    """flag-gems hardswish_kernel_ (in place): x * (clamp(x + 3, 0, 6) / 6)"""
    module, name, reference = "flag_gems.ops.hardswish_", "hardswish_kernel_", "hardswish_inplace"


class FlagGemsLog1pInplace(_InPlace, Row):
    """flag-gems log1p_kernel_ (in place): log(x + 1) on [-0.9, 4], against CUDA's log1pf"""
    module, name, reference, lo, hi = "flag_gems.ops.log1p_", "log1p_kernel_", "log1p_inplace", -0.9, 4


class _Binary:
    """y = op(a, b) elementwise through the generated launcher; b's range is kept away from 0 where it divides."""
    op, reference, mutate = None, None, None
    a_range, b_range = (-4, 4), (-4, 4)

    def setup(self):
        self.a = racer.input((N,), "f32", range=self.a_range)
        self.b = racer.input((N,), "f32", range=self.b_range)
        self.y = racer.empty((N,), "f32")

    def program_a(self):
        k = racer.triton(pointwise.binary, OP=_lib(self.op, self.mutate), BLOCK=64, num_warps=2)
        racer.launch(k, grid=2, args=[racer.read(self.a), racer.read(self.b), racer.write(self.y), N])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("ops.cu", self.reference), grid=1, block=128,
                     args=[racer.read(self.a), racer.read(self.b), racer.write(self.y), N])
        return {"y": self.y}


class FlagGemsTrueDiv(_Binary, Row):
    """flag-gems true_div_func: a / b, b on [0.25, 4]"""
    op, reference, b_range = ("flag_gems.ops.div", "true_div_func"), "div_fwd", (0.25, 4)


class FlagGemsRemainder(_Binary, Row):
    """flag-gems rem_tt: a % b with the divisor's sign (Python modulo), b on [0.25, 4]; Triton's float %
    truncates the quotient (cvt.rzi.f32.f32)"""
    op, reference, b_range = ("flag_gems.ops.div", "rem_tt"), "remainder_fwd", (0.25, 4)


class FlagGemsLogAddExp(_Binary, Row):
    """flag-gems logaddexp_func: max(a, b) + log(1 + exp(-|a - b|)), against log(exp a + exp b)"""
    op, reference = ("flag_gems.ops.logaddexp", "logaddexp_func"), "logaddexp_fwd"


class FlagGemsMaximum(_Binary, Row):
    """flag-gems maximum_kernel: tl.maximum"""
    op, reference = ("flag_gems.ops.maximum", "maximum_kernel"), "maximum_fwd"


class FlagGemsHypot(Row):
    """flag-gems _hypot_kernel: t sqrt(1 + (m / t)^2) with t, m the larger and smaller of |a|, |b|,
    against sqrt(a^2 + b^2); BLOCK_SIZE 1024 as the host launches it"""

    setup = _Binary.setup
    a_range, b_range = (-4, 4), (-4, 4)

    def program_a(self):
        k = racer.triton(kernel("flag_gems.ops.hypot", "_hypot_kernel"), BLOCK_SIZE=1024, OUT_DTYPE=tl.float32,
                         COMPUTE_DTYPE=tl.float32, num_warps=4)
        racer.launch(k, grid=1, args=[racer.read(self.a), racer.read(self.b), racer.write(self.y), N])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("ops.cu", "hypot_fwd"), grid=1, block=128,
                     args=[racer.read(self.a), racer.read(self.b), racer.write(self.y), N])
        return {"y": self.y}


class _Ternary:
    """y = op(x, u, v[, scalar]) elementwise through the generated launcher."""
    op, reference, mutate, scalar = None, None, None, None
    ranges = ((-4, 4), (-4, 4), (-4, 4))

    def setup(self):
        self.x = racer.input((N,), "f32", range=self.ranges[0])
        self.u = racer.input((N,), "f32", range=self.ranges[1])
        self.v = racer.input((N,), "f32", range=self.ranges[2])
        self.y = racer.empty((N,), "f32")

    def program_a(self):
        fn = _lib(self.op, self.mutate)
        if self.scalar is None:
            k = racer.triton(pointwise.ternary, OP=fn, BLOCK=64, num_warps=2)
        else:
            k = racer.triton(pointwise.ternary_scalar, OP=fn, A=self.scalar, BLOCK=64, num_warps=2)
        racer.launch(k, grid=2, args=[racer.read(self.x), racer.read(self.u), racer.read(self.v), racer.write(self.y), N])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("ops.cu", self.reference), grid=1, block=128,
                     args=[racer.read(self.x), racer.read(self.u), racer.read(self.v), racer.write(self.y), N]
                     + ([] if self.scalar is None else [self.scalar]))
        return {"y": self.y}


class FlagGemsLerpTensor(_Ternary, Row):
    """flag-gems lerp_tensor_kernel: a + w (b - a) for |w| < 0.5, b - (b - a)(1 - w) otherwise; w on [-1, 2]"""
    op, reference, ranges = ("flag_gems.ops.lerp", "lerp_tensor_kernel"), "lerp_fwd", ((-4, 4), (-4, 4), (-1, 2))


class FlagGemsLerpTensorWrongBranchMutant(_Ternary, Mutation):
    """mutation: the tail form multiplies by w instead of 1 - w"""
    op, reference, ranges = ("flag_gems.ops.lerp", "lerp_tensor_kernel"), "lerp_fwd", ((-4, 4), (-4, 4), (-1, 2))
    mutate = [("end - (end - input) * (1 - weight)", "end - (end - input) * weight")]


class FlagGemsAddcdiv(_Ternary, Row):
    """flag-gems addcdiv_kernel with value 0.5: x + value (t1 / t2), t2 on [0.25, 4]"""
    op, reference, scalar = ("flag_gems.ops.addcdiv", "addcdiv_kernel"), "addcdiv_fwd", 0.5
    ranges = ((-4, 4), (-4, 4), (0.25, 4))


class FlagGemsAddcmul(_Ternary, Row):
    """flag-gems addcmul_forward with value -1.5: x + value t1 t2"""
    op, reference, scalar = ("flag_gems.ops.addcmul", "addcmul_forward"), "addcmul_fwd", -1.5


# Whole-tensor reductions as the host launches them for 96 elements: blocks of
# next_power_of_2(ceil(sqrt(96))) = 16 into 6 partials, then one program over BLOCK_MID = 8.
BLOCK, MID, BLOCK_MID = 16, 6, 8


class _TwoPass:
    """A whole-tensor reduction: the library's first kernel over blocks into `mid`, its second into out.
    `binary`: the first kernel reads two tensors; `extra`: constexprs of the first kernel."""
    module, first, second, reference, mutate, mutate_second = None, None, None, None, None, None
    binary, extra, lo, hi, out_dtype = False, {}, -4, 4, "f32"

    def setup(self):
        self.x = racer.input((N,), "f32", range=(self.lo, self.hi))
        self.z = racer.input((N,), "f32", range=(self.lo, self.hi)) if self.binary else None
        self.mid = racer.empty((MID,), "f32")
        self.out = racer.empty((1,), self.out_dtype)

    def inputs(self):
        return [racer.read(self.x)] + ([racer.read(self.z)] if self.binary else [])

    def program_a(self):
        k1 = racer.triton(_lib((self.module, self.first), self.mutate), BLOCK_SIZE=BLOCK, **self.extra)
        racer.launch(k1, grid=MID, args=self.inputs() + [racer.write(self.mid), N])
        k2 = racer.triton(_lib((self.module, self.second), self.mutate_second), BLOCK_MID=BLOCK_MID)
        racer.launch(k2, grid=1, args=[racer.read(self.mid), racer.write(self.out), MID])
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref("ops.cu", self.reference), grid=1, block=32, args=self.inputs() + [racer.write(self.out), N])
        return {"out": self.out}


class FlagGemsProd(_TwoPass, Row):
    """flag-gems prod_kernel_mid + prod_kernel_result: tl.reduce with a multiplying combine, inputs on [0.5, 1.5]"""
    module, first, second, reference, lo, hi = "flag_gems.ops.prod", "prod_kernel_mid", "prod_kernel_result", \
        "prod_all", 0.5, 1.5


class FlagGemsProdMaskOtherMutant(_TwoPass, Mutation):
    """mutation: the second pass fills its masked partials (6 of a block of 8) with 0 instead of 1"""
    module, first, second, reference, lo, hi = "flag_gems.ops.prod", "prod_kernel_mid", "prod_kernel_result", \
        "prod_all", 0.5, 1.5
    mutate_second = [("mask=mask, other=1.0)", "mask=mask, other=0.0)")]


class FlagGemsMseLoss(_TwoPass, Row):
    """flag-gems mse_loss kernel_1 (reduction mean: each block's sum divided by M) + kernel_2"""
    module, first, second, reference, binary = "flag_gems.ops.mse_loss", "kernel_1", "kernel_2", "mse_mean_all", True
    extra = {"reduction": 1}


class FlagGemsMseLossNoMeanMutant(_TwoPass, Mutation):
    """mutation: the mean reduction forgets to divide by the element count"""
    module, first, second, reference, binary = "flag_gems.ops.mse_loss", "kernel_1", "kernel_2", "mse_mean_all", True
    extra = {"reduction": 1}
    mutate = [("sum_val = tl.sum(pow_val) / M", "sum_val = tl.sum(pow_val)")]


class FlagGemsVectorNormL2(_TwoPass, Row):
    """flag-gems vector_norm (ord 2, whole tensor): l2_norm_kernel_1 sums squares per block, l2_norm_kernel_2 the sqrt"""
    module, first, second, reference = "flag_gems.ops.vector_norm", "l2_norm_kernel_1", "l2_norm_kernel_2", \
        "l2norm_all"


class _Argmax:
    """flag-gems argmax (whole tensor): argmax_kernel_1 keeps each block's max and index, argmax_kernel_2 the
    index of the largest partial (first on ties, as the reference): it loads mid_index + argmax(mid_value),
    an address chosen by comparisons of the data"""
    mutate1 = mutate2 = None

    def setup(self):
        self.x = racer.input((N,), "f32", range=(-4, 4))
        self.mid_value = racer.empty((MID,), "f32")
        self.mid_index = racer.empty((MID,), "i64")
        self.out = racer.empty((1,), "i64")

    def program_a(self):
        k1 = racer.triton(kernel("flag_gems.ops.argmax", "argmax_kernel_1", self.mutate1), BLOCK_SIZE=BLOCK)
        racer.launch(k1, grid=MID, args=[racer.read(self.x), racer.write(self.mid_value), racer.write(self.mid_index), N])
        k2 = racer.triton(kernel("flag_gems.ops.argmax", "argmax_kernel_2", self.mutate2), BLOCK_MID=BLOCK_MID)
        racer.launch(k2, grid=1, args=[racer.read(self.mid_value), racer.read(self.mid_index), racer.write(self.out),
                                       MID])
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref("ops.cu", "argmax_all"), grid=1, block=32, args=[racer.read(self.x), racer.write(self.out), N])
        return {"out": self.out}


class FlagGemsArgmax(_Argmax, Row):
    """flag-gems argmax over the whole tensor (two stages)"""


class FlagGemsArgmaxPartialOffsetMutant(_Argmax, Mutation):
    """mutation: the first stage stores each block's index without the block's offset"""
    mutate1 = [("max_index = max_index + pid * BLOCK_SIZE", "max_index = max_index")]


class FlagGemsArgmaxSecondStageArgminMutant(_Argmax, Mutation):
    """mutation: the second stage picks the smallest partial"""
    mutate2 = [("index_val = tl.argmax(mid_val, axis=0)", "index_val = tl.argmin(mid_val, axis=0)")]


class FlagGemsDot(Row):
    """flag-gems dot_kernel: one program (N < 4096) over next_power_of_2(96) = 128"""

    def setup(self):
        self.a = racer.input((N,), "f32", range=(-4, 4))
        self.b = racer.input((N,), "f32", range=(-4, 4))
        self.out = racer.empty((1,), "f32")

    def program_a(self):
        k = racer.triton(kernel("flag_gems.ops.dot", "dot_kernel"), BLOCK_SIZE=128)
        racer.launch(k, grid=1, args=[racer.read(self.a), racer.read(self.b), racer.write(self.out), N])
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref("ops.cu", "dot_all"), grid=1, block=32,
                     args=[racer.read(self.a), racer.read(self.b), racer.write(self.out), N])
        return {"out": self.out}


class FlagGemsStd(Row):
    """flag-gems std (whole tensor, correction 1): _std_map_kernel's sum and sum of squares over one block
    of 1024, then _std_reduce_kernel: sqrt(max((E[x^2] - mean^2) N / (N - 1), 0)) against the two-pass formula
    (equal over the reals because E[x^2] - mean^2 is a sum of squares over N, never below 0)"""

    def setup(self):
        self.x = racer.input((N,), "f32", range=(-4, 4))
        self.s = racer.empty((1,), "f32")
        self.sq = racer.empty((1,), "f32")
        self.out = racer.empty((1,), "f32")

    def program_a(self):
        k1 = racer.triton(kernel("flag_gems.ops.std", "_std_map_kernel"), BLOCK_N=1024)
        racer.launch(k1, grid=1, args=[racer.read(self.x), racer.write(self.s), racer.write(self.sq), N])
        k2 = racer.triton(kernel("flag_gems.ops.std", "_std_reduce_kernel"), BLOCK_SIZE=1024)
        racer.launch(k2, grid=1, args=[racer.read(self.s), racer.read(self.sq), racer.write(self.out), N, 1.0, 1])
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref("ops.cu", "std_all"), grid=1, block=32, args=[racer.read(self.x), racer.write(self.out), N])
        return {"out": self.out}


R, C = 3, 40


class FlagGemsArgmaxRows(Row):
    """flag-gems argmax_kernel_inner (dim=-1): TILE_N = next_power_of_2(40) = 64, ONE_TILE_PER_CTA, 4 warps"""

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.out = racer.empty((R,), "i64")

    def program_a(self):
        k = racer.triton(kernel("flag_gems.ops.argmax", "argmax_kernel_inner"), TILE_N=64, ONE_TILE_PER_CTA=True,
                         num_warps=4)
        racer.launch(k, grid=R, args=[racer.read(self.x), racer.write(self.out), R, C])
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref("ops.cu", "argmax_rows"), grid=1, block=32, args=[racer.read(self.x), racer.write(self.out), R, C])
        return {"out": self.out}


class _VarMeanRows:
    mutate = None

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.var = racer.empty((R,), "f32")
        self.mean = racer.empty((R,), "f32")

    def program_a(self):
        # An autotune config of the library (var_mean: BLOCK_M 1, BLOCK_N 1024, 4 warps) would hold a row in
        # one step; BLOCK_N 16 (a smaller tile than the configs) makes the Welford loop merge three steps.
        k = racer.triton(_lib(("flag_gems.ops.var_mean", "var_mean_welford_kernel"), self.mutate), BLOCK_M=1,
                         BLOCK_N=16, num_warps=1)
        racer.launch(k, grid=R, args=[racer.read(self.x), racer.write(self.var), racer.write(self.mean), R, C, 1.0])
        return {"var": self.var, "mean": self.mean}

    def program_b(self):
        racer.launch(ref("ops.cu", "var_mean_rows"), grid=1, block=32,
                     args=[racer.read(self.x), racer.write(self.var), racer.write(self.mean), R, C])
        return {"var": self.var, "mean": self.mean}


class FlagGemsVarMeanRows(_VarMeanRows, Row):
    """flag-gems var_mean_welford_kernel (dim=-1, correction 1): per-lane Welford over tiles of 16, merged
    by tl.reduce with welford_func, against the two-pass formula"""


class FlagGemsVarMeanRowsCorrectionMutant(_VarMeanRows, Mutation):
    """mutation: the correction is ignored (the biased variance)"""
    mutate = [("var = acc / (N - correction)", "var = acc / N")]


class _GroupNorm:
    """flag-gems group_norm_kernel over x[batch][C][HW], one program per (batch, group), as the host launches it:
    BLOCK_GROUP_SIZE = next_power_of_2(C / groups), BLOCK_HW_SIZE = next_power_of_2(HW)."""
    batch, channels, groups, hw = 2, 8, 2, 5

    def setup(self):
        self.x = racer.input((self.batch, self.channels, self.hw), "f32", range=(-4, 4))
        self.w = racer.input((self.channels,), "f32", range=(-2, 2))
        self.b = racer.input((self.channels,), "f32", range=(-2, 2))
        self.y = racer.empty((self.batch, self.channels, self.hw), "f32")
        self.mean = racer.empty((self.batch * self.groups,), "f32")
        self.rstd = racer.empty((self.batch * self.groups,), "f32")

    def program_a(self):
        gs = self.channels // self.groups
        k = racer.triton(kernel("flag_gems.ops.groupnorm", "group_norm_kernel"),
                         BLOCK_GROUP_SIZE=1 << (gs - 1).bit_length(), BLOCK_HW_SIZE=1 << (self.hw - 1).bit_length())
        racer.launch(k, grid=self.batch * self.groups,
                     args=[racer.read(self.x), racer.write(self.y), racer.read(self.w), racer.read(self.b),
                           racer.write(self.mean), racer.write(self.rstd), gs, self.channels, self.hw, self.groups,
                           1e-5])
        return {"y": self.y, "mean": self.mean, "rstd": self.rstd}

    def program_b(self):
        racer.launch(ref("norms.cu", "groupnorm_fwd"), grid=1, block=32,
                     args=[racer.read(self.x), racer.read(self.w), racer.read(self.b), racer.write(self.y),
                           racer.write(self.mean), racer.write(self.rstd), self.batch, self.groups,
                           self.channels // self.groups, self.hw, 1e-5])
        return {"y": self.y, "mean": self.mean, "rstd": self.rstd}


class FlagGemsGroupNorm(_GroupNorm, Row):
    """flag-gems group_norm_kernel: batch 2, 8 channels in 2 groups of 4, 5 spatial positions"""


class FlagGemsGroupNormOddGroup(_GroupNorm, Row):
    """flag-gems group_norm_kernel with groups of 3 channels (6 channels, 2 groups): differs (inspected)

    A genuine defect of the library, not of the reference: the kernel masks its tile of
    BLOCK_GROUP_SIZE = 4 channels with `wb_offset < C` only, never with `group_offset < group_size`,
    so the program of group 0 reads the first channel of group 1 into its mean and variance and
    writes that channel's output too (racing with group 1's program)."""
    expect = "inequivalent"
    channels, groups = 6, 2


class _BatchNorm:
    """flag-gems batch_norm_forward_kernel over x[batch][feat][spatial], one program per feature;
    BLOCK_M = next_power_of_2(batch), BLOCK_N = next_power_of_2(spatial) (the host's heuristics), 4 warps."""
    batch, feat, spatial, train, mutate = 3, 4, 10, True, None

    def setup(self):
        shape = (self.batch, self.feat, self.spatial)
        self.x = racer.input(shape, "f32", range=(-4, 4))
        self.w = racer.input((self.feat,), "f32", range=(-2, 2))
        self.b = racer.input((self.feat,), "f32", range=(-2, 2))
        self.y = racer.empty(shape, "f32")
        self.mean = racer.empty((self.feat,), "f32")
        self.inv_std = racer.empty((self.feat,), "f32")
        self.run_mean = racer.input((self.feat,), "f32", range=(-2, 2))
        self.run_var = racer.input((self.feat,), "f32", range=(0.25, 4))

    def program_a(self):
        k = racer.triton(_lib(("flag_gems.ops.batch_norm", "batch_norm_forward_kernel"), self.mutate),
                         is_train=self.train, BLOCK_M=4, BLOCK_N=16, num_warps=4)
        f, s = self.feat, self.spatial
        stats = [racer.readwrite(self.run_mean), racer.readwrite(self.run_var)] if self.train else \
            [racer.read(self.run_mean), racer.read(self.run_var)]
        racer.launch(k, grid=f, args=[racer.read(self.x), racer.read(self.w), racer.read(self.b),
                                      racer.write(self.mean) if self.train else racer.read(self.mean),
                                      racer.write(self.inv_std) if self.train else racer.read(self.inv_std),
                                      racer.write(self.y)] + stats +
                     [self.batch, s, f * s, s, 1, f * s, s, 1, 0.1, 1e-5])
        if self.train:
            return {"y": self.y, "mean": self.mean, "inv_std": self.inv_std, "run_mean": self.run_mean,
                    "run_var": self.run_var}
        return {"y": self.y}

    def program_b(self):
        if self.train:
            racer.launch(ref("ops.cu", "batchnorm_train"), grid=1, block=32,
                         args=[racer.read(self.x), racer.read(self.w), racer.read(self.b), racer.write(self.y),
                               racer.write(self.mean), racer.write(self.inv_std), racer.readwrite(self.run_mean),
                               racer.readwrite(self.run_var), self.batch, self.feat, self.spatial, 0.1, 1e-5])
            return {"y": self.y, "mean": self.mean, "inv_std": self.inv_std, "run_mean": self.run_mean,
                    "run_var": self.run_var}
        racer.launch(ref("ops.cu", "batchnorm_eval"), grid=1, block=32,
                     args=[racer.read(self.x), racer.read(self.w), racer.read(self.b), racer.write(self.y),
                           racer.read(self.run_mean), racer.read(self.run_var), self.batch, self.feat, self.spatial,
                           1e-5])
        return {"y": self.y}


class FlagGemsBatchNormTrain(_BatchNorm, Row):
    """flag-gems batch_norm_forward_kernel, training: per-lane Welford merged into the batch statistics,
    y, mean, inv_std and the running statistics (momentum 0.1, unbiased running variance)"""


class FlagGemsBatchNormTrainBiasedRunningVarMutant(_BatchNorm, Mutation):
    """mutation: the running variance takes the biased batch variance (no n / (n - 1))"""
    mutate = [("momentum * var * n / (n - 1),", "momentum * var,")]


class FlagGemsBatchNormEval(_BatchNorm, Row):
    """flag-gems batch_norm_forward_kernel, inference: the running statistics normalize"""
    train = False


class _Tril:
    """flag-gems _tril_kernel on a batch of 2 matrices of 40 x 40 in the host's 32 x 32 tiles, diagonal 1."""
    mutate = None
    B, M, DIAG = 2, 40, 1

    def setup(self):
        self.x = racer.input((self.B, self.M, self.M), "f32", range=(-4, 4))
        self.y = racer.empty((self.B, self.M, self.M), "f32")

    def program_a(self):
        k = racer.triton(_lib(("flag_gems.ops.tril", "_tril_kernel"), self.mutate), BLOCK_M=32, BLOCK_N=32, num_warps=4)
        racer.launch(k, grid=(2, 2, self.B), args=[racer.read(self.x), racer.write(self.y), self.M, self.M, self.B,
                                                   self.DIAG])
        return {"y": self.y}

    def program_b(self):
        n = self.B * self.M * self.M
        racer.launch(ref("ops.cu", "tril_fwd"), grid=(n + 127) // 128, block=128,
                     args=[racer.read(self.x), racer.write(self.y), self.B, self.M, self.M, self.DIAG])
        return {"y": self.y}


class FlagGemsTril(_Tril, Row):
    """flag-gems _tril_kernel: keep x[i, j] where j <= i + diagonal"""


class FlagGemsTrilStrictMutant(_Tril, Mutation):
    """mutation: the diagonal itself is cleared (j < i + diagonal)"""
    mutate = [("keep = offs_n <= (offs_m + diag)", "keep = offs_n < (offs_m + diag)")]


class FlagGemsIndexSelect(Row):
    """flag-gems index_select_kernel along the last dim: 4 rows of 40, 24 indices read from an input
    (any in [0, 39], repeats allowed); BLOCK_M = min(4, next_power_of_2(cdiv(256, 40))) = 4,
    BLOCK_N = max(16, next_power_of_2(cdiv(40, 16))) = 16 (the host's heuristics)"""

    def setup(self):
        self.x = racer.input((4, 40), "f32", range=(-4, 4))
        self.idx = racer.input((24,), "i64", range=(0, 39))
        self.y = racer.empty((4, 24), "f32")

    def program_a(self):
        k = racer.triton(kernel("flag_gems.ops.index_select", "index_select_kernel"), BLOCK_M=4, BLOCK_N=16)
        racer.launch(k, grid=(1, 2), args=[racer.read(self.x), racer.write(self.y), 4, 40, racer.read(self.idx), 24])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("ops.cu", "index_select_last"), grid=1, block=128,
                     args=[racer.read(self.x), racer.read(self.idx), racer.write(self.y), 4, 40, 24])
        return {"y": self.y}


# A sorted table with a repeat, and queries that may hit its values exactly (their edges) or not.
ISIN_TABLE = [-1.5, -1.0, -0.5, -0.5, 0.0, 0.25, 1.0, 1.75]


class _IsinSearch:
    """flag-gems isin_by_search_kernel (the path for a large table): a lower-bound binary search per
    query over the sorted table, log_n = log2(8) + 1 = 4 steps of mid = start + (end - start) // 2
    and gathers at mid, both chosen by comparisons of the query with the table; 8 queries in
    [-2, 2], BLOCK_M = 8, against a scan of the table"""

    def setup(self):
        self.x = racer.input((8,), "f32", range=(-2, 2))
        self.s = racer.values(ISIN_TABLE, dtype="f32")
        self.y = racer.empty((8,), "bool")

    def program_a(self):
        k = racer.triton(kernel("flag_gems.ops.isin", "isin_by_search_kernel", mutate=self.mutate,
                                inside="isin_by_search_impl"), log_n=4, BLOCK_M=8, invert=False)
        racer.launch(k, grid=1, args=[racer.read(self.x), racer.read(self.s), racer.write(self.y), 8, 8, 1])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("ops.cu", "isin_scan"), grid=1, block=32,
                     args=[racer.read(self.x), racer.read(self.s), racer.write(self.y), 8, 8])
        return {"y": self.y}


class FlagGemsIsinBySearch(_IsinSearch, Row):
    """flag-gems isin by binary search over a sorted table of 8 (one repeat)"""
    mutate = []


class FlagGemsIsinBySearchEndBeforeMidMutant(_IsinSearch, Mutation):
    """mutation: a mid above the query moves the end to mid - 1 (excluding an entry the search still
    needs: -1.5 and 0.25 of the table are never found)"""
    mutate = [("end = tl.where(while_mask and (mid_val > in0_ravel), mid, end)",
               "end = tl.where(while_mask and (mid_val > in0_ravel), mid - 1, end)")]
