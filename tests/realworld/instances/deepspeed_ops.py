"""DeepSpeed 0.19.8: its Triton kernels, against reference/deepspeed_ops.cu. Inference
(deepspeed/ops/transformer/inference/triton/): layer norm (plain, with residual, with residual and input bias),
GELU, the residual add with its three block layouts, softmax (plain, masked per row and broadcast), the fp16
matmul with its bias and activation epilogues (matmul_ext.py Fp16Matmul, one config of its autotuner), the 4-D
score and context matmuls of its attention, and the packed flash attention. Training (deepspeed/ops/triton_ops/):
the fused Hugging Face RMSNorm (forward, input and weight gradients), split-half rotary embedding (forward and
backward), SwiGLU (separate and packed, forward and backward), the grouped GEMM (forward, weight gradient, group
bounds). The fp8-weight GEMM (deepspeed/ops/fp_quantizer/fp8_gemm_triton.py). Each launched with the
constexprs, grid and warps DeepSpeed's host wrapper picks for the shape."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
import triton.language as tl  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

INF = "deepspeed.ops.transformer.inference.triton"
OPS = "deepspeed.ops.triton_ops"
REF = "deepspeed_ops.cu"
R, C = 3, 48


# ---- layer norm (inference/triton/layer_norm.py) ----
class _LayerNorm:
    """DeepSpeed layer_norm_kernel (ops/transformer/inference/triton/layer_norm.py, layer_norm): x[3][48] f32,
    w, b [48], eps 1e-5; BLOCK_SIZE max(min(65536 // 4, next_power_of_2(48)), 128) = 128, num_warps
    min(max(128 // 256, 1), 8) = 1, grid (3,)"""
    mutate = None
    dtype, cols = "f32", C

    def setup(self):
        self.x = racer.input((R, self.cols), self.dtype, range=(-4, 4))
        self.w = racer.input((self.cols,), self.dtype, range=(-2, 2))
        self.b = racer.input((self.cols,), self.dtype, range=(-2, 2))
        self.y = racer.empty((R, self.cols), self.dtype)

    def program_a(self):
        k = racer.triton(kernel(f"{INF}.layer_norm", "layer_norm_kernel", self.mutate), BLOCK_SIZE=128, num_warps=1)
        racer.launch(k, grid=R, args=[racer.write(self.y), racer.read(self.x), racer.read(self.w), racer.read(self.b),
                                      self.cols, self.cols, 1e-5])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref(REF, f"layer_norm_{self.dtype}"), grid=1, block=32,
                     args=[racer.read(self.x), racer.read(self.w), racer.read(self.b), racer.write(self.y), R,
                           self.cols, 1e-5])
        return {"y": self.y}


class DsLayerNorm(_LayerNorm, Row):
    """DeepSpeed layer_norm: y = (x - mean) / sqrt(var + eps) w + b"""


class DsLayerNormF16(_LayerNorm, Row):
    """DeepSpeed layer_norm_kernel (inference/triton/layer_norm.py, layer_norm): x[3][64] f16, w, b [64] f16,
    eps 1e-5, statistics in f32, output rounded to f16; BLOCK_SIZE max(min(65536 // 2, 64), 128) = 128,
    num_warps 1, grid (3,)"""
    dtype, cols = "f16", 64


class DsLayerNormEpsOutsideMutant(_LayerNorm, Mutation):
    """mutation: eps added after the square root instead of under it"""
    mutate = [("rstd = 1 / tl.sqrt(var + eps)", "rstd = 1 / (tl.sqrt(var) + eps)")]


class DsLayerNormBiasedVarianceMutant(_LayerNorm, Mutation):
    """mutation: the variance pass forgets to subtract the mean"""
    mutate = [("a = tl.where(cols < N, a - mean, 0.0)\n        _var", "a = tl.where(cols < N, a, 0.0)\n        _var")]


class _LayerNormResidual:
    """DeepSpeed layer_norm_residual_kernel (inference/triton/layer_norm.py, layer_norm_residual with input_bias
    None): x, residual [3][48] f32, w, b [48], eps 1e-5; ln_input = x + residual (scratch), y = LayerNorm(ln_input)
    w + b; BLOCK_SIZE 128, num_warps 1, grid (3,)"""
    mutate = None
    bias, dtype, cols = False, "f32", C

    def setup(self):
        t, n = self.dtype, self.cols
        self.x = racer.input((R, n), t, range=(-4, 4))
        self.res = racer.input((R, n), t, range=(-4, 4))
        self.ib = racer.input((n,), t, range=(-2, 2))
        self.w = racer.input((n,), t, range=(-2, 2))
        self.b = racer.input((n,), t, range=(-2, 2))
        self.y = racer.empty((R, n), t)
        self.s = racer.empty((R, n), t)

    def program_a(self):
        name = "layer_norm_residual_bias_kernel" if self.bias else "layer_norm_residual_kernel"
        k = racer.triton(kernel(f"{INF}.layer_norm", name, self.mutate), BLOCK_SIZE=128, num_warps=1)
        args = [racer.write(self.y), racer.read(self.x), racer.read(self.res)] + \
            ([racer.read(self.ib)] if self.bias else []) + \
            [racer.readwrite(self.s), racer.read(self.w), racer.read(self.b), self.cols, self.cols, 1e-5]
        racer.launch(k, grid=R, args=args)
        return {"y": self.y, "s": self.s}

    def program_b(self):
        racer.launch(ref(REF, f"layer_norm_residual_{self.dtype}"), grid=1, block=32,
                     args=[racer.read(self.x), racer.read(self.res), racer.read(self.ib) if self.bias else None,
                           racer.read(self.w), racer.read(self.b), racer.write(self.y), racer.write(self.s), R,
                           self.cols, 1e-5])
        return {"y": self.y, "s": self.s}


class DsLayerNormResidual(_LayerNormResidual, Row):
    """DeepSpeed layer_norm_residual: s = x + residual, y = LayerNorm(s) w + b"""


class DsLayerNormResidualBias(_LayerNormResidual, Row):
    """DeepSpeed layer_norm_residual_bias_kernel (inference/triton/layer_norm.py, layer_norm_residual with an
    input_bias [48]): s = x + input_bias + residual, y = LayerNorm(s) w + b; BLOCK_SIZE 128, num_warps 1, grid (3,)"""
    bias = True


class DsLayerNormResidualBiasF16(_LayerNormResidual, Row):
    """DeepSpeed layer_norm_residual_bias_kernel (inference/triton/layer_norm.py, layer_norm_residual with an
    input_bias): x, residual [3][64] f16, input_bias, w, b [64] f16, eps 1e-5; the f32 sum x + input_bias + residual
    is stored to the f16 scratch ln_input and the statistics and output read it back (rounded); BLOCK_SIZE
    max(min(32768, 64), 128) = 128, num_warps 1, grid (3,)"""
    bias, dtype, cols = True, "f16", 64


class DsLayerNormResidualBiasDroppedMutant(_LayerNormResidual, Mutation):
    """mutation: the input bias is loaded but not added to the residual sum"""
    bias = True
    mutate = [("a = a + b + res", "a = a + res")]


# ---- GELU (gelu.py) ----
class _Gelu:
    """DeepSpeed gelu_kernel (inference/triton/gelu.py, gelu): x[3][40] f32 as 120 elements, BLOCK_SIZE 1024,
    grid (cdiv(120, 1024),) = (1,), default 4 warps"""
    mutate = None

    def setup(self):
        self.x = racer.input((3, 40), "f32", range=(-5, 5))
        self.y = racer.empty((3, 40), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{INF}.gelu", "gelu_kernel", self.mutate, inside=self.inside), BLOCK_SIZE=1024)
        racer.launch(k, grid=1, args=[racer.read(self.x), racer.write(self.y), 120])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref(REF, "gelu_f32"), grid=1, block=128, args=[racer.read(self.x), racer.write(self.y), 120])
        return {"y": self.y}

    inside = None


class DsGelu(_Gelu, Row):
    """DeepSpeed gelu: y = x/2 (1 + erf(x / 1.41421356237)) (that constant's f32 rounding is sqrt(2)'s)"""


class DsGeluScaleMutant(_Gelu, Mutation):
    """mutation: erf's argument multiplied by sqrt 2 instead of divided by it"""
    inside = "gelu_functor"
    mutate = [("x / 1.41421356237", "x * 1.41421356237")]


# ---- residual add (residual_add.py) ----
class _ResidualAdd:
    """DeepSpeed residual_add_bias_kernel (inference/triton/residual_add.py, residual_add_bias): hidden_state,
    residual, attn_output [1][3][40] f32, attn_bias, final_bias [40]; mp_size 2, mlp_after_attn True,
    pre_attn_norm True (y = h + (res + final_bias + attn + attn_bias) / mp_size); BLOCK_SIZE 1024, grid
    (cdiv(120, 1024),) = (1,), default 4 warps"""
    mutate = None
    mlp_after_attn, pre_attn_norm, add_attn_bias, mode = True, True, False, 0

    def setup(self):
        self.h = racer.input((1, 3, 40), "f32", range=(-4, 4))
        self.res = racer.input((1, 3, 40), "f32", range=(-4, 4))
        self.attn = racer.input((1, 3, 40), "f32", range=(-4, 4))
        self.ab = racer.input((40,), "f32", range=(-2, 2))
        self.fb = racer.input((40,), "f32", range=(-2, 2))
        self.y = racer.empty((1, 3, 40), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{INF}.residual_add", "residual_add_bias_kernel", self.mutate), mp_size=2,
                         mlp_after_attn=self.mlp_after_attn, pre_attn_norm=self.pre_attn_norm,
                         add_attn_bias=self.add_attn_bias, BLOCK_SIZE=1024)
        racer.launch(k, grid=1, args=[racer.read(self.h), racer.read(self.res), racer.read(self.attn), 120,
                                      racer.read(self.ab), racer.read(self.fb), 40, racer.write(self.y)])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref(REF, "residual_add_bias_f32"), grid=1, block=128,
                     args=[racer.read(self.h), racer.read(self.res), racer.read(self.attn), racer.read(self.ab),
                           racer.read(self.fb), racer.write(self.y), 120, 40, self.mode, int(self.add_attn_bias),
                           2.0])
        return {"y": self.y}


class DsResidualAddPreNorm(_ResidualAdd, Row):
    """DeepSpeed residual_add_bias, MLP after attention with pre-attention norm"""


class DsResidualAddPostNorm(_ResidualAdd, Row):
    """DeepSpeed residual_add_bias_kernel (inference/triton/residual_add.py): as DsResidualAddPreNorm with
    pre_attn_norm False: y = h + res + final_bias (mp_size 2, BLOCK_SIZE 1024, grid (1,))"""
    pre_attn_norm, mode = False, 1


class DsResidualAddParallel(_ResidualAdd, Row):
    """DeepSpeed residual_add_bias_kernel (inference/triton/residual_add.py): mlp_after_attn False (GPT-J's
    parallel attention and MLP), add_attn_bias True: y = h + attn + (res + final_bias) / 2 + attn_bias / 2
    (mp_size 2, BLOCK_SIZE 1024, grid (1,))"""
    mlp_after_attn, add_attn_bias, mode = False, True, 2


class DsResidualAddParallelBiasUnscaledMutant(_ResidualAdd, Mutation):
    """mutation: the attention bias is added without dividing by the tensor-parallel degree"""
    mlp_after_attn, add_attn_bias, mode = False, True, 2
    mutate = [("output += tl_attn_bias / mp_size", "output += tl_attn_bias")]


# ---- softmax (softmax.py) ----
class _Softmax:
    """DeepSpeed softmax_kernel (inference/triton/softmax.py, softmax without a mask): x[3][40] f32; BLOCK_SIZE
    max(next_power_of_2(40), 2) = 64, num_warps 4, grid (3,)"""
    mutate = None
    mask_rows = None  # None: no mask; 3: a mask row per row (mask_stride 40); 1: one row broadcast (stride 0)

    def setup(self):
        self.x = racer.input((R, 40), "f32", range=(-8, 8))
        self.m = None if self.mask_rows is None else racer.input((self.mask_rows, 40), "f32", range=(-8, 0))
        self.y = racer.empty((R, 40), "f32")

    def stride(self):
        return 40 if self.mask_rows and self.mask_rows > 1 else 0

    def program_a(self):
        if self.m is None:
            k = racer.triton(kernel(f"{INF}.softmax", "softmax_kernel", self.mutate), BLOCK_SIZE=64, num_warps=4)
            racer.launch(k, grid=R, args=[racer.write(self.y), racer.read(self.x), 40, 40])
        else:
            k = racer.triton(kernel(f"{INF}.softmax", "masked_softmax_kernel", self.mutate), BLOCK_SIZE=64,
                             num_warps=4)
            racer.launch(k, grid=R, args=[racer.write(self.y), racer.read(self.x), 40, racer.read(self.m),
                                          self.stride(), 40])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref(REF, "masked_softmax_f32"), grid=1, block=32,
                     args=[racer.read(self.x), None if self.m is None else racer.read(self.m), racer.write(self.y), R,
                           40, self.stride()])
        return {"y": self.y}


class DsSoftmax(_Softmax, Row):
    """DeepSpeed softmax: y = exp(x) / sum exp(x) per row"""


class DsMaskedSoftmax(_Softmax, Row):
    """DeepSpeed masked_softmax_kernel (inference/triton/softmax.py, softmax with a [3][40] mask): additive mask
    per row, mask_stride 40 (mask.shape[-2] > 1); BLOCK_SIZE 64, num_warps 4, grid (3,)"""
    mask_rows = 3


class DsMaskedSoftmaxBroadcast(_Softmax, Row):
    """DeepSpeed masked_softmax_kernel (inference/triton/softmax.py, softmax with a [1][40] mask): one additive
    mask row for every row, mask_stride 0; BLOCK_SIZE 64, num_warps 4, grid (3,)"""
    mask_rows = 1


class DsSoftmaxPadZeroMutant(_Softmax, Mutation):
    """mutation: the block's tail past the row is padded with 0 instead of -inf (24 phantom exp(0 - max) terms)"""
    mutate = [("row = tl.load(input_ptrs, mask=col_offsets < n_cols, other=-float('inf'))",
               "row = tl.load(input_ptrs, mask=col_offsets < n_cols, other=0.0)")]


class DsMaskedSoftmaxRowStrideMutant(_Softmax, Mutation):
    """mutation: the mask pointer forgets the row offset, so every row reads the first mask row"""
    mask_rows = 3
    mutate = [("mask_ptrs = mask_ptr + col_offsets + row_idx * mask_stride", "mask_ptrs = mask_ptr + col_offsets")]


# ---- fp16 matmul with epilogues (triton_matmul_kernel.py _fp_matmul, matmul_ext.py Fp16Matmul.forward) ----
MM = 32  # M = N = K


class _Matmul:
    """DeepSpeed _fp_matmul (ops/transformer/inference/triton/triton_matmul_kernel.py, matmul_ext.py
    Fp16Matmul.forward): A, B [32][32] f16, C f16, no bias, no activation; GROUP_M 8, ACC_TYPE f32, EVEN_K (32 %
    32 == 0), CACHE_M = CACHE_N = CACHE_K = 32 // 32 = 1; autotuner config {BLOCK_M 64, BLOCK_N 32, BLOCK_K 32,
    SPLIT_K 1}, num_warps 2, num_stages 5 (the list's last, smallest tile: the pick cannot be reproduced without a
    GPU), grid (cdiv(32, 64) cdiv(32, 32), 1) = (1, 1); rows 32..63 of the tile wrap to rows 0..31 (rm % M) and are
    not stored"""
    mutate = None
    bias, activation, act = False, "", 0

    def setup(self):
        self.a = racer.input((MM, MM), "f16", range=(-2, 2))
        self.b = racer.input((MM, MM), "f16", range=(-2, 2))
        self.bias_t = racer.input((MM,), "f16", range=(-2, 2))
        self.c = racer.empty((MM, MM), "f16")

    def program_a(self):
        extra = {} if self.bias else {"bias": None}
        k = racer.triton(kernel(f"{INF}.triton_matmul_kernel", "_fp_matmul", self.mutate), BLOCK_M=64, BLOCK_N=32,
                         BLOCK_K=32, SPLIT_K=1, GROUP_M=8, EVEN_K=True, ACC_TYPE=tl.float32, BIAS_ADD=int(self.bias),
                         ACTIVATION=self.activation, num_warps=2, num_stages=5, **extra)
        args = [racer.read(self.a), racer.read(self.b), racer.write(self.c), MM, MM, MM] + \
            ([racer.read(self.bias_t)] if self.bias else []) + [MM, 1, MM, 1, MM, 1, 1, 1, 1]
        racer.launch(k, grid=(1, 1), args=args)
        return {"c": self.c}

    def program_b(self):
        racer.launch(ref(REF, "matmul_act_f16"), grid=8, block=128,
                     args=[racer.read(self.a), racer.read(self.b), racer.read(self.bias_t) if self.bias else None,
                           racer.write(self.c), MM, MM, MM, self.act])
        return {"c": self.c}


class DsMatmul(_Matmul, Row):
    """DeepSpeed Fp16Matmul: C = A B in f16 (f32 accumulation)"""


class DsMatmulBiasGelu(_Matmul, Row):
    """DeepSpeed _fp_matmul (inference/triton/triton_matmul_kernel.py, matmul_ext.py Fp16Matmul.forward with
    bias [32] and activation "gelu", as mlp.py's first projection): C = gelu(A B + bias) in f16; BIAS_ADD 1, config
    {64, 32, 32, SPLIT_K 1}, num_warps 2, num_stages 5, grid (1, 1)"""
    bias, activation, act = True, "gelu", 3


class DsMatmulBiasRelu(_Matmul, Row):
    """DeepSpeed _fp_matmul (inference/triton/triton_matmul_kernel.py, Fp16Matmul.forward with bias and
    activation "relu"): C = relu(A B + bias); BIAS_ADD 1, config {64, 32, 32, SPLIT_K 1}, num_warps 2, num_stages 5"""
    bias, activation, act = True, "relu", 1


class DsMatmulLeakyRelu(_Matmul, Row):
    """DeepSpeed _fp_matmul (inference/triton/triton_matmul_kernel.py, Fp16Matmul.forward, no bias, activation
    "leaky_relu"): C = A B where >= 0, else 0.01 A B; BIAS_ADD 0, config {64, 32, 32, SPLIT_K 1}, num_warps 2,
    num_stages 5"""
    activation, act = "leaky_relu", 2


class DsMatmulBiasSigmoid(_Matmul, Row):
    """DeepSpeed _fp_matmul (inference/triton/triton_matmul_kernel.py, Fp16Matmul.forward with bias and
    activation "sigmoid"): C = sigmoid(A B + bias); BIAS_ADD 1, config {64, 32, 32, SPLIT_K 1}, num_warps 2,
    num_stages 5"""
    bias, activation, act = True, "sigmoid", 4


class DsMatmulBiasMaskMutant(_Matmul, Mutation):
    """mutation: an off-by-one in the bias load's mask drops the last column's bias"""
    bias, activation, act = True, "relu", 1
    mutate = [("b = tl.load(bias_ptr, mask=bias_offset < N)", "b = tl.load(bias_ptr, mask=bias_offset < N - 1)")]


class DsMatmulLeakyReluSignMutant(_Matmul, Mutation):
    """mutation: the leaky ReLU keeps the slope on the positive side"""
    activation, act = "leaky_relu", 2
    mutate = [('acc = tl.where(acc >= 0, acc, 0.01 * acc)', 'acc = tl.where(acc >= 0, 0.01 * acc, acc)')]


# ---- attention matmuls (triton_matmul_kernel.py matmul_4d_kernel, matmul_ext.py score/context_4d_matmul) ----
S, H, HD = 32, 2, 16  # sequence, heads, head size; qkv packed [1][32][3 * 32]
D3 = 3 * H * HD


class _Score:
    """DeepSpeed matmul_4d_kernel (inference/triton/triton_matmul_kernel.py, matmul_ext.py
    Fp16Matmul._score_4d_matmul as _triton_attention calls it without the flash kernel): qkv [1][32][96] f16, q =
    qkv[..., :32] and k = qkv[..., 32:64] viewed [1][32][2][16], out [1][2][32][32] f16 = f16(f16(q k^T) scale),
    scale 1/sqrt(16) = 0.25; M = N = 32, K = 16, CACHE_* = 1, 1, 0; q strides (z 3072, h 16, m 96, k 1), k strides
    (z 3072, h 16, k 1, n 96); MASK False; autotuner config {BLOCK_SIZE_M 32, BLOCK_SIZE_N 64, BLOCK_SIZE_K 32,
    GROUP_SIZE_M 8}, num_warps 2, num_stages 5 (the list's last), grid (cdiv(32, 32) cdiv(32, 64), 2, 1) = (1, 2, 1)"""
    mutate = None

    def setup(self):
        self.qkv = racer.input((1, S, D3), "f16", range=(-2, 2))
        self.o = racer.empty((1, H, S, S), "f16")

    def program_a(self):
        k = racer.triton(kernel(f"{INF}.triton_matmul_kernel", "matmul_4d_kernel", self.mutate), BLOCK_SIZE_M=32,
                         BLOCK_SIZE_N=64, BLOCK_SIZE_K=32, GROUP_SIZE_M=8, MASK=False, num_warps=2, num_stages=5)
        racer.launch(k, grid=(1, H, 1),
                     args=[racer.read(self.qkv), racer.read(self.qkv, offset=H * HD), racer.write(self.o), S, S, HD,
                           1, 1, 0, S * D3, HD, D3, 1, S * D3, HD, 1, D3, H * S * S, S * S, S, 1, 0.25])
        return {"o": self.o}

    def program_b(self):
        racer.launch(ref(REF, "attn_scores_f16"), grid=16, block=128,
                     args=[racer.read(self.qkv), racer.write(self.o), 1, S, H, HD, 0.25])
        return {"o": self.o}


class DsScoreMatmul(_Score, Row):
    """DeepSpeed score_4d_matmul: scores = q k^T scale per head, from the packed qkv"""


class DsScoreMatmulHeadStrideMutant(_Score, Mutation):
    """mutation: the key pointer ignores the head offset, so every head scores against head 0's keys"""
    mutate = [("b_ptrs = (b_ptr + batch * stride_bb + head * stride_bh +",
               "b_ptrs = (b_ptr + batch * stride_bb + 0 * stride_bh +")]


class DsContextMatmul(Row):
    """DeepSpeed matmul_4d_kernel (inference/triton/triton_matmul_kernel.py, matmul_ext.py
    Fp16Matmul._context_4d_matmul): prob [1][2][32][32] f16 times v = qkv[..., 64:96] viewed [1][32][2][16], out
    [1][32][2][16] f16 (written transposed: strides z 1024, h 16, m 32, n 1); M = 32, N = 16, K = 32, CACHE_* = 1,
    0, 1; scale -1 (no scaling), MASK False; config {32, 64, 32, GROUP_SIZE_M 8}, num_warps 2, num_stages 5, grid
    (cdiv(32, 32) cdiv(16, 64), 2, 1) = (1, 2, 1)"""

    def setup(self):
        self.p = racer.input((1, H, S, S), "f16", range=(0, 1))
        self.qkv = racer.input((1, S, D3), "f16", range=(-2, 2))
        self.o = racer.empty((1, S, H, HD), "f16")

    def program_a(self):
        k = racer.triton(kernel(f"{INF}.triton_matmul_kernel", "matmul_4d_kernel"), BLOCK_SIZE_M=32,
                         BLOCK_SIZE_N=64, BLOCK_SIZE_K=32, GROUP_SIZE_M=8, MASK=False, num_warps=2, num_stages=5)
        racer.launch(k, grid=(1, H, 1),
                     args=[racer.read(self.p), racer.read(self.qkv, offset=2 * H * HD), racer.write(self.o), S, HD, S,
                           1, 0, 1, H * S * S, S * S, S, 1, S * D3, HD, D3, 1, S * H * HD, HD, H * HD, 1, -1.0])
        return {"o": self.o}

    def program_b(self):
        racer.launch(ref(REF, "attn_context_f16"), grid=8, block=128,
                     args=[racer.read(self.p), racer.read(self.qkv), racer.write(self.o), 1, S, H, HD])
        return {"o": self.o}


# ---- packed flash attention (attention.py _flash_packed_kernel, _triton_packed_flash) ----
L2E = 1.44269504  # the kernel's log2(e)


class _Flash:
    """DeepSpeed _flash_packed_kernel (inference/triton/attention.py, _triton_packed_flash as
    TritonSelfAttention calls it with triangular masking, no input mask): qkv [1][32][96] f16 (2 heads of 16), out
    [1][32][32] f16, sm_scale 1/sqrt(16) = 0.25, IS_CAUSAL True, ADD_MASK False (mask = torch.empty(0)); BLOCK_M
    128, BLOCK_N 64 (head size <= 64), BLOCK_DMODEL 16, num_warps 4, num_stages 4, P_SEQ 0, grid (cdiv(32, 128),
    1 x 2, 1) = (1, 2, 1). The kernel rounds q sm_scale log2(e) to f16 and takes q k^T as an f16 dot; the
    reference rounds there too"""
    mutate = None
    causal = True

    def setup(self):
        self.qkv = racer.input((1, S, D3), "f16", range=(-2, 2))
        self.mask = racer.input((1,), "f16", range=(0, 0))
        self.o = racer.empty((1, S, H * HD), "f16")

    def program_a(self):
        k = racer.triton(kernel(f"{INF}.attention", "_flash_packed_kernel", self.mutate), ADD_MASK=False,
                         IS_CAUSAL=self.causal, BLOCK_M=128, BLOCK_DMODEL=HD, BLOCK_N=64, num_warps=4, num_stages=4)
        racer.launch(k, grid=(1, H, 1),
                     args=[racer.read(self.qkv), racer.read(self.mask), 0.25, racer.write(self.o), S * D3, D3, 1, 0,
                           S * H * HD, H * HD, 1, H, S, 0, H * HD])
        return {"o": self.o}

    def program_b(self):
        racer.launch(ref(REF, "flash_packed_f16"), grid=8, block=128,
                     args=[racer.read(self.qkv), racer.write(self.o), 1, S, H, HD, racer.scalar(0.25 * L2E, "f32"),
                           int(self.causal)])
        return {"o": self.o}


class DsFlashAttentionCausal(_Flash, Row):
    """DeepSpeed _triton_packed_flash, causal: out = softmax(q k^T / sqrt(d), j <= i) v per head"""



# ---- fused Hugging Face RMSNorm (triton_ops/fused_rms_norm.py) ----
class _RmsNorm:
    """DeepSpeed _rms_norm_forward_kernel (ops/triton_ops/fused_rms_norm.py, _FusedRMSNorm.forward): hidden
    [3][48] bf16, weight [48] bf16, eps 1e-6 (constexpr); rstd = rsqrt(mean x^2 + eps) stored in f32, out =
    bf16(bf16(x rstd) w) (Llama's cast-before-gamma order); n_cols 48, BLOCK_N max(16, next_power_of_2(48)) = 64,
    default 4 warps, grid (3,)"""
    mutate = None

    def setup(self):
        self.x = racer.input((R, C), "bf16", range=(-4, 4))
        self.w = racer.input((C,), "bf16", range=(-2, 2))
        self.y = racer.empty((R, C), "bf16")
        self.rstd = racer.empty((R,), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.fused_rms_norm", "_rms_norm_forward_kernel", self.mutate), n_cols=C,
                         eps=1e-6, BLOCK_N=64)
        racer.launch(k, grid=R, args=[racer.read(self.x), racer.read(self.w), racer.write(self.y),
                                      racer.write(self.rstd)])
        return {"y": self.y, "rstd": self.rstd}

    def program_b(self):
        racer.launch(ref(REF, "rms_norm_fwd_bf16"), grid=1, block=32,
                     args=[racer.read(self.x), racer.read(self.w), racer.write(self.y), racer.write(self.rstd), R, C,
                           1e-6])
        return {"y": self.y, "rstd": self.rstd}


class DsFusedRmsNorm(_RmsNorm, Row):
    """DeepSpeed fused_rms_norm forward: y = bf16(x / sqrt(mean x^2 + eps)) w, and the rstd it saves"""


class DsFusedRmsNormBlockMeanMutant(_RmsNorm, Mutation):
    """mutation: the mean of squares divides by the block size (64) instead of the row length (48)"""
    mutate = [("variance = tl.sum(hidden * hidden, axis=0) / n_cols",
               "variance = tl.sum(hidden * hidden, axis=0) / BLOCK_N")]


class _RmsNormDx:
    """DeepSpeed _rms_norm_dx_kernel (ops/triton_ops/fused_rms_norm.py, _FusedRMSNorm.backward): grad_out, hidden
    [3][48] bf16, weight [48] bf16, the saved rstd [3] f32; dx = rstd g' + (-rstd^3 sum(g' x) / 2 / n) 2 x with g' =
    bf16(g w), into bf16; n_cols 48, BLOCK_N 64, default 4 warps, grid (3,)"""
    mutate = None

    def setup(self):
        self.g = racer.input((R, C), "bf16", range=(-2, 2))
        self.x = racer.input((R, C), "bf16", range=(-4, 4))
        self.w = racer.input((C,), "bf16", range=(-2, 2))
        self.rstd = racer.input((R,), "f32", range=(0.25, 4))
        self.dx = racer.empty((R, C), "bf16")

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.fused_rms_norm", "_rms_norm_dx_kernel", self.mutate), n_cols=C, BLOCK_N=64)
        racer.launch(k, grid=R, args=[racer.read(self.g), racer.read(self.x), racer.read(self.w), racer.read(self.rstd),
                                      racer.write(self.dx)])
        return {"dx": self.dx}

    def program_b(self):
        racer.launch(ref(REF, "rms_norm_dx_bf16"), grid=1, block=32,
                     args=[racer.read(self.g), racer.read(self.x), racer.read(self.w), racer.read(self.rstd),
                           racer.write(self.dx), R, C])
        return {"dx": self.dx}


class DsFusedRmsNormDx(_RmsNormDx, Row):
    """DeepSpeed fused_rms_norm backward, input gradient: dx = rstd (g' - x rstd^2 mean(g' x))"""


class DsFusedRmsNormDxFactorMutant(_RmsNormDx, Mutation):
    """mutation: the derivative of x^2 loses its factor 2"""
    mutate = [("(grad_variance / n_cols) * (2.0 * hidden)", "(grad_variance / n_cols) * (1.0 * hidden)")]


class DsFusedRmsNormDw(Row):
    """DeepSpeed _rms_norm_dweight_partial_kernel (ops/triton_ops/fused_rms_norm.py, _FusedRMSNorm.backward):
    grad_out, hidden [3][48] bf16, rstd [3] f32; partial[0][c] = sum_r bf16(g bf16(x rstd)) over the one row block;
    n_rows 3, n_cols 48, BLOCK_M 16 (_DWEIGHT_BLOCK_M), BLOCK_N min(256, 64) = 64, default 4 warps, grid
    (cdiv(3, 16), cdiv(48, 64)) = (1, 1)"""

    def setup(self):
        self.g = racer.input((R, C), "bf16", range=(-2, 2))
        self.x = racer.input((R, C), "bf16", range=(-4, 4))
        self.rstd = racer.input((R,), "f32", range=(0.25, 4))
        self.dw = racer.empty((1, C), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.fused_rms_norm", "_rms_norm_dweight_partial_kernel"), n_cols=C, BLOCK_M=16,
                         BLOCK_N=64)
        racer.launch(k, grid=(1, 1), args=[racer.read(self.g), racer.read(self.x), racer.read(self.rstd),
                                           racer.write(self.dw), R])
        return {"dw": self.dw}

    def program_b(self):
        racer.launch(ref(REF, "rms_norm_dw_bf16"), grid=1, block=64,
                     args=[racer.read(self.g), racer.read(self.x), racer.read(self.rstd), racer.write(self.dw), R, C])
        return {"dw": self.dw}


# ---- rotary embedding (triton_ops/fused_rotary_pos_emb.py) ----
RB, RH, RS, RD = 1, 2, 8, 32


class _Rotary:
    """DeepSpeed _rotary_kernel (ops/triton_ops/fused_rotary_pos_emb.py, _launch from _FusedRotaryPosEmb.forward):
    x [1][2][8][32] bf16 (batch, heads, sequence, head dim), cos, sin [1][8][32] bf16 (batch 1: stride_cb 0);
    out = x cos + rotate_half(x) sin with every product and the sum rounded to bf16 as eager rounds them; HALF 16,
    BLOCK_HALF max(16, 16) = 16, BLOCK_S 16, HEADS_PER_PROGRAM 4, BACKWARD False, default 4 warps, grid (cdiv(8, 16),
    1, cdiv(2, 4)) = (1, 1, 1) (enable_fp_fusion=False is not an option racer.triton takes; every product is rounded
    to bf16 before it is summed, so no contraction applies)"""
    mutate = None
    backward = False

    def setup(self):
        self.x = racer.input((RB, RH, RS, RD), "bf16", range=(-4, 4))
        self.cos = racer.input((1, RS, RD), "bf16", range=(-1, 1))
        self.sin = racer.input((1, RS, RD), "bf16", range=(-1, 1))
        self.y = racer.empty((RB, RH, RS, RD), "bf16")

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.fused_rotary_pos_emb", "_rotary_kernel", self.mutate), HALF=RD // 2,
                         BLOCK_HALF=16, BLOCK_S=16, HEADS_PER_PROGRAM=4, BACKWARD=self.backward)
        racer.launch(k, grid=(1, 1, 1),
                     args=[racer.read(self.x), racer.read(self.cos), racer.read(self.sin), racer.write(self.y), RH, RS,
                           RH * RS * RD, RS * RD, RD, RH * RS * RD, RS * RD, RD, 0, RD])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref(REF, "rotary_bf16"), grid=4, block=128,
                     args=[racer.read(self.x), racer.read(self.cos), racer.read(self.sin), racer.write(self.y),
                           RB * RH, RS, RD, int(self.backward)])
        return {"y": self.y}


class DsRotary(_Rotary, Row):
    """DeepSpeed fused_apply_rotary_pos_emb forward: q cos + rotate_half(q) sin, eager's bf16 roundings"""


class DsRotaryBackward(_Rotary, Row):
    """DeepSpeed _rotary_kernel (ops/triton_ops/fused_rotary_pos_emb.py, _launch from _FusedRotaryPosEmb.backward):
    the gradient of x cos + rotate_half(x) sin, g cos + rotate_half^T(g sin), on g [1][2][8][32] bf16; BACKWARD
    True, HALF 16, BLOCK_HALF 16, BLOCK_S 16, HEADS_PER_PROGRAM 4, default 4 warps, grid (1, 1, 1)"""
    backward = True


class DsRotarySignMutant(_Rotary, Mutation):
    """mutation: rotate_half's minus sign lands on the other half (the sine term of the first half added)"""
    mutate = [("out_left = (left * cos_left).to(dtype).to(tl.float32) - (right * sin_left)",
               "out_left = (left * cos_left).to(dtype).to(tl.float32) + (right * sin_left)")]


class DsRotaryBackwardTableMutant(_Rotary, Mutation):
    """mutation: the backward's first half reads the first half's sine instead of the second's"""
    backward = True
    mutate = [("out_left = (left * cos_left).to(dtype).to(tl.float32) + (right * sin_right)",
               "out_left = (left * cos_left).to(dtype).to(tl.float32) + (right * sin_left)")]


# ---- SwiGLU (triton_ops/swiglu_triton.py) ----
SI = 40  # intermediate size; 3 rows


class _Swiglu:
    """DeepSpeed _swiglu_fwd_kernel (ops/triton_ops/swiglu_triton.py, _SwiGLUFn.forward): gate, up [3][40] bf16,
    y = bf16(gate sigmoid(gate) up) in f32; n_elements 120, BLOCK_SIZE 2048, num_warps 8, grid (cdiv(120, 2048),) =
    (1,)"""
    mutate = None
    packed = False

    def setup(self):
        if self.packed:
            self.gu = racer.input((R, 2 * SI), "bf16", range=(-6, 6))
        else:
            self.gate = racer.input((R, SI), "bf16", range=(-6, 6))
            self.up = racer.input((R, SI), "bf16", range=(-4, 4))
        self.y = racer.empty((R, SI), "bf16")

    def program_a(self):
        if self.packed:
            k = racer.triton(kernel(f"{OPS}.swiglu_triton", "_swiglu_packed_fwd_kernel", self.mutate), INTER=SI,
                             BLOCK_SIZE=2048, num_warps=8)
            racer.launch(k, grid=1, args=[racer.read(self.gu), racer.write(self.y), R * SI])
        else:
            k = racer.triton(kernel(f"{OPS}.swiglu_triton", "_swiglu_fwd_kernel", self.mutate), BLOCK_SIZE=2048,
                             num_warps=8)
            racer.launch(k, grid=1, args=[racer.read(self.gate), racer.read(self.up), racer.write(self.y), R * SI])
        return {"y": self.y}

    def program_b(self):
        g, u = (racer.read(self.gu), racer.read(self.gu, offset=SI)) if self.packed else \
            (racer.read(self.gate), racer.read(self.up))
        st = 2 * SI if self.packed else SI
        racer.launch(ref(REF, "swiglu_fwd_bf16"), grid=1, block=128, args=[g, u, racer.write(self.y), R, SI, st, st])
        return {"y": self.y}


class DsSwiglu(_Swiglu, Row):
    """DeepSpeed swiglu: silu(gate) up"""


class DsSwigluPacked(_Swiglu, Row):
    """DeepSpeed _swiglu_packed_fwd_kernel (ops/triton_ops/swiglu_triton.py, _SwiGLUPackedFn.forward): gate_up
    [3][80] bf16 (gate and up side by side), y [3][40]; INTER 40, BLOCK_SIZE 2048, num_warps 8, grid (1,)"""
    packed = True


class DsSwigluPackedRowStrideMutant(_Swiglu, Mutation):
    """mutation: the packed row stride is taken as INTER instead of 2 INTER"""
    packed = True
    mutate = [("gate_offsets = (offsets // INTER) * (2 * INTER) + offsets % INTER",
               "gate_offsets = (offsets // INTER) * INTER + offsets % INTER")]


class _SwigluBwd:
    """DeepSpeed _swiglu_bwd_kernel (ops/triton_ops/swiglu_triton.py, _SwiGLUFn.backward): grad_out, gate, up
    [3][40] bf16; grad_gate = dy up sigmoid(g) (1 + g (1 - sigmoid(g))), grad_up = dy silu(g), into bf16;
    n_elements 120, BLOCK_SIZE 2048, num_warps 8, grid (1,)"""
    mutate = None
    packed = False

    def setup(self):
        self.dy = racer.input((R, SI), "bf16", range=(-2, 2))
        if self.packed:
            self.gu = racer.input((R, 2 * SI), "bf16", range=(-6, 6))
            self.dgu = racer.empty((R, 2 * SI), "bf16")
        else:
            self.gate = racer.input((R, SI), "bf16", range=(-6, 6))
            self.up = racer.input((R, SI), "bf16", range=(-4, 4))
            self.dg = racer.empty((R, SI), "bf16")
            self.du = racer.empty((R, SI), "bf16")

    def outputs(self):
        return {"dgu": self.dgu} if self.packed else {"dg": self.dg, "du": self.du}

    def program_a(self):
        if self.packed:
            k = racer.triton(kernel(f"{OPS}.swiglu_triton", "_swiglu_packed_bwd_kernel", self.mutate), INTER=SI,
                             BLOCK_SIZE=2048, num_warps=8)
            racer.launch(k, grid=1, args=[racer.read(self.dy), racer.read(self.gu), racer.write(self.dgu), R * SI])
        else:
            k = racer.triton(kernel(f"{OPS}.swiglu_triton", "_swiglu_bwd_kernel", self.mutate), BLOCK_SIZE=2048,
                             num_warps=8)
            racer.launch(k, grid=1, args=[racer.read(self.dy), racer.read(self.gate), racer.read(self.up),
                                          racer.write(self.dg), racer.write(self.du), R * SI])
        return self.outputs()

    def program_b(self):
        if self.packed:
            args = [racer.read(self.dy), racer.read(self.gu), racer.read(self.gu, offset=SI), racer.write(self.dgu),
                    racer.write(self.dgu, offset=SI), R, SI, 2 * SI, 2 * SI]
        else:
            args = [racer.read(self.dy), racer.read(self.gate), racer.read(self.up), racer.write(self.dg),
                    racer.write(self.du), R, SI, SI, SI]
        racer.launch(ref(REF, "swiglu_bwd_bf16"), grid=1, block=128, args=args)
        return self.outputs()


class DsSwigluBackward(_SwigluBwd, Row):
    """DeepSpeed swiglu backward: d gate = dy up silu'(gate), d up = dy silu(gate)"""


class DsSwigluPackedBackward(_SwigluBwd, Row):
    """DeepSpeed _swiglu_packed_bwd_kernel (ops/triton_ops/swiglu_triton.py, _SwiGLUPackedFn.backward): grad_out
    [3][40], gate_up [3][80] bf16, grad_gate_up [3][80] (both gradients side by side); INTER 40, BLOCK_SIZE 2048,
    num_warps 8, grid (1,)"""
    packed = True


class DsSwigluBackwardDsiluMutant(_SwigluBwd, Mutation):
    """mutation: silu's derivative drops the gate factor: sigmoid(g) (2 - sigmoid(g))"""
    mutate = [("dsilu = sig * (1.0 + gate * (1.0 - sig))", "dsilu = sig * (1.0 + (1.0 - sig))")]


# ---- grouped GEMM (triton_ops/group_gemm_triton.py) ----
GM, GK, GN, GE = 24, 32, 32, 2
OFFS = [10, 24]  # cumulative row bounds: group 0 rows 0..9, group 1 rows 10..23


class _GroupGemm:
    """DeepSpeed _group_gemm_kernel (ops/triton_ops/group_gemm_triton.py, _group_gemm from group_gemm_triton with
    trans_b False): a [24][32] bf16, b [2][32][32] bf16, offs [10, 24] (m_start [0, 10], m_size [10, 14] as
    _group_meta computes them), out [24][32] bf16; NUM_GROUPS 2; autotuner config {BLOCK_M 32, BLOCK_N 128, BLOCK_K
    32}, num_warps 8, num_stages 4 (the list's first: the pick cannot be reproduced without a GPU), grid (cdiv(24,
    32) + 2, cdiv(32, 128)) = (3, 1)"""
    mutate = None

    def setup(self):
        self.a = racer.input((GM, GK), "bf16", range=(-2, 2))
        self.b = racer.input((GE, GK, GN), "bf16", range=(-2, 2))
        self.start = racer.values([0, 10], dtype="i32")
        self.size = racer.values([10, 14], dtype="i32")
        self.offs = racer.values(OFFS, dtype="i32")
        self.o = racer.empty((GM, GN), "bf16")

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.group_gemm_triton", "_group_gemm_kernel", self.mutate), NUM_GROUPS=GE,
                         BLOCK_M=32, BLOCK_N=128, BLOCK_K=32, num_warps=8, num_stages=4)
        racer.launch(k, grid=(3, 1), args=[racer.read(self.a), racer.read(self.b), racer.write(self.o),
                                           racer.read(self.start), racer.read(self.size), GM, GK, GN, GK, 1,
                                           GK * GN, GN, 1, GN, 1])
        return {"o": self.o}

    def program_b(self):
        racer.launch(ref(REF, "group_gemm_bf16"), grid=6, block=128,
                     args=[racer.read(self.a), racer.read(self.b), racer.read(self.offs), racer.write(self.o), GM,
                           GK, GN, GE])
        return {"o": self.o}


class DsGroupGemm(_GroupGemm, Row):
    """DeepSpeed group_gemm_triton: out[m] = a[m] b[group(m)]"""


class DsGroupGemmTransposedMutant(_GroupGemm, Mutation):
    """mutation: the expert weight is read transposed (b's k and n strides swapped)"""
    mutate = [("b_base + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn",
               "b_base + offs_k[:, None] * stride_bn + offs_n[None, :] * stride_bk")]


class DsGroupGemmDw(Row):
    """DeepSpeed _group_gemm_dw_kernel (ops/triton_ops/group_gemm_triton.py, _grouped_dw from _GroupGemmFn.backward
    with trans_b False): a [24][32], grad_out [24][32] bf16, m_start [0, 10], m_size [10, 14], out [2][32][32] bf16 =
    a_e^T g_e per group; NUM_GROUPS 2; autotuner config {BLOCK_K 32, BLOCK_N 128, BLOCK_M 32}, num_warps 8,
    num_stages 4 (the list's first), grid (2, cdiv(32, 32), cdiv(32, 128)) = (2, 1, 1)"""

    def setup(self):
        self.a = racer.input((GM, GK), "bf16", range=(-2, 2))
        self.g = racer.input((GM, GN), "bf16", range=(-2, 2))
        self.start = racer.values([0, 10], dtype="i32")
        self.size = racer.values([10, 14], dtype="i32")
        self.offs = racer.values(OFFS, dtype="i32")
        self.o = racer.empty((GE, GK, GN), "bf16")

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.group_gemm_triton", "_group_gemm_dw_kernel"), NUM_GROUPS=GE, BLOCK_M=32,
                         BLOCK_K=32, BLOCK_N=128, num_warps=8, num_stages=4)
        racer.launch(k, grid=(GE, 1, 1), args=[racer.read(self.a), racer.read(self.g), racer.write(self.o),
                                               racer.read(self.start), racer.read(self.size), GK, GN, GK, 1, GN, 1,
                                               GK * GN, GN, 1])
        return {"o": self.o}

    def program_b(self):
        racer.launch(ref(REF, "group_gemm_dw_bf16"), grid=16, block=128,
                     args=[racer.read(self.a), racer.read(self.g), racer.read(self.offs), racer.write(self.o), GK, GN,
                           GE])
        return {"o": self.o}


class DsGroupMeta(Row):
    """DeepSpeed _group_meta_kernel (ops/triton_ops/group_gemm_triton.py, _group_meta): offs [4] i32 (cumulative
    row bounds, any values here), m_start[e] = offs[e - 1] (0 for e = 0), m_size[e] = offs[e] - m_start[e]; BLOCK
    256 (_GROUP_META_BLOCK), default 4 warps, grid (cdiv(4, 256),) = (1,)"""

    def setup(self):
        self.offs = racer.input((4,), "i32", range=(0, 64))
        self.start = racer.empty((4,), "i32")
        self.size = racer.empty((4,), "i32")

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.group_gemm_triton", "_group_meta_kernel"), BLOCK=256)
        racer.launch(k, grid=1, args=[racer.read(self.offs), racer.write(self.start), racer.write(self.size), 4])
        return {"start": self.start, "size": self.size}

    def program_b(self):
        racer.launch(ref(REF, "group_meta"), grid=1, block=32,
                     args=[racer.read(self.offs), racer.write(self.start), racer.write(self.size), 4])
        return {"start": self.start, "size": self.size}


# ---- fp8-weight GEMM (fp_quantizer/fp8_gemm_triton.py) ----
FM, FK, FN, FQ = 16, 64, 64, 64


class _Fp8Gemm:
    """DeepSpeed matmul_kernel_fp8_bf16 (ops/fp_quantizer/fp8_gemm_triton.py, matmul_fp8_triton): inp [16][64]
    bf16, weight [64][64] fp8 bytes (u8), scale [64] f32 (one per group of 64 weights: quantization_group_size 64),
    out [16][64] bf16 = inp bf16(decode(weight) scale); BLOCK_SIZE_M 16 (M <= 16), BLOCK_SIZE_N 64, BLOCK_SIZE_K
    max(64, 64) = 64, GROUP_SIZE_M 8, num_stages 4, num_warps 4, grid (cdiv(16, 16) cdiv(64, 64),) = (1,). The
    kernel decodes a byte by moving its 7 exponent and mantissa bits into a bf16 and adding 120 to the exponent:
    every exponent field reads as a normal number (field 0 as 2^-7 (1 + m/8): no zero or subnormals); the
    reference decodes that way"""
    mutate = None
    dtype, name = "bf16", "matmul_kernel_fp8_bf16"

    def setup(self):
        self.a = racer.input((FM, FK), self.dtype, range=(-2, 2))
        self.w = racer.input((FK, FN), "u8", range=(0, 255))
        self.s = racer.input((FK * FN // FQ,), "f32", range=(0.001, 0.1))
        self.o = racer.empty((FM, FN), self.dtype)

    def program_a(self):
        k = racer.triton(kernel("deepspeed.ops.fp_quantizer.fp8_gemm_triton", self.name, self.mutate),
                         BLOCK_SIZE_M=16, BLOCK_SIZE_N=64, BLOCK_SIZE_K=64, GROUP_SIZE_M=8, quantization_group_size=FQ,
                         num_warps=4, num_stages=4)
        racer.launch(k, grid=1, args=[racer.read(self.a), racer.read(self.w), racer.write(self.o), racer.read(self.s),
                                      FM, FN, FK, FK, 1, FN, 1, FN, 1])
        return {"o": self.o}

    def program_b(self):
        racer.launch(ref(REF, f"fp8_gemm_{self.dtype}"), grid=8, block=128,
                     args=[racer.read(self.a), racer.read(self.w), racer.read(self.s), racer.write(self.o), FM, FN, FK,
                           FQ])
        return {"o": self.o}


class DsFp8GemmBf16(_Fp8Gemm, Row):
    """DeepSpeed matmul_fp8_triton, bf16 activations: out = inp (fp8 weight x group scale)"""


class DsFp8GemmF16(_Fp8Gemm, Row):
    """DeepSpeed matmul_kernel_fp8_fp16 (ops/fp_quantizer/fp8_gemm_triton.py, matmul_fp8_triton with f16
    activations): as DsFp8GemmBf16 with inp, out f16, the byte meant to be decoded into an f16 (sign to bit 15,
    exponent and mantissa to bits 7..13, exponent + 8); same constexprs, num_warps 4, num_stages 4, grid (1,)

    Expected inequivalent, inspected: unlike the bf16 kernel, this one shifts the uint8 weight before widening it,
    and Triton types `(weight & 0x80) << 8` and `(weight & 0x7f) << 7` as 8-bit (its TTIR: arith.shli on i8, then
    extui to i16; Triton warns "Value 8 exceeds the maximum bitwidth (8) for type 'uint8'"): the sign and all but
    the lowest exponent/mantissa bit are shifted out, so the decoded weight is 2^-7 or 2^-7 (1 + 1/8) times the
    scale whatever the byte. The reference decodes the byte as the bf16 kernel does."""
    expect = "inequivalent"
    dtype, name = "f16", "matmul_kernel_fp8_fp16"

