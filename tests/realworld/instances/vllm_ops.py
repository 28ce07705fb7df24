"""vLLM 0.34.0: its non-attention Triton kernels (fp8 quantization per token group and per tensor, int8 per token,
fused activation + fp8 quantization, Mamba2's gated RMS norm, MiniMax's QK norm, Qwen3-Next's fused QK norm + RoPE +
gate, the MTP embedding norm, multimodal and flash-attn rotary embeddings, the batch-invariant log-softmax), against
reference/vllm_ops.cu. Each launched with the constexprs, grid and warps vLLM's host wrapper picks for the shape
(block sizes scaled down where the wrapper hard-codes sizes far beyond the small shapes here, as said in the row)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
import triton.language as tl  # noqa: E402  (INPUT_DTYPE constexpr, as vLLM's wrapper gives it)
from common import Mutation, Row, kernel, ref  # noqa: E402

FP8 = "vllm.model_executor.layers.quantization.utils.fp8_utils"
INT8 = "vllm.model_executor.layers.quantization.utils.int8_utils"
FP8_MIN, FP8_MAX = -448.0, 448.0  # torch.finfo(float8_e4m3fn) on CUDA (get_fp8_min_max)


class _GroupQuantFp8:
    """vLLM _per_token_group_quant_fp8 (model_executor/layers/quantization/utils/fp8_utils.py,
    per_token_group_quant_fp8, its Triton fallback taken when x is not contiguous): x[2][64] f32, a view with
    rows 96 apart, in groups of 32 (group_size=32), eps 1e-10; y e4m3 [2][64] contiguous, scales row-major [2][2];
    BLOCK next_power_of_2(32) = 32, num_warps min(max(32 // 256, 1), 8) = 1, grid (numel / 32 = 4,)"""
    mutate = None
    M, K, XS, G = 2, 64, 96, 32

    def setup(self):
        self.x = racer.input((self.M, self.K), "f32", range=(-8, 8), strides=(self.XS, 1))
        self.y = racer.empty((self.M, self.K), "fp8e4m3")
        self.s = racer.empty((self.M, self.K // self.G), "f32")

    def program_a(self):
        k = racer.triton(kernel(FP8, "_per_token_group_quant_fp8", self.mutate), fp8_min=FP8_MIN, fp8_max=FP8_MAX,
                         use_ue8m0=False, BLOCK=self.G, num_warps=1)
        racer.launch(k, grid=self.M * self.K // self.G,
                     args=[racer.read(self.x), racer.write(self.y), racer.write(self.s), self.G, self.K, self.XS,
                           1e-10])
        return {"y": self.y, "s": self.s}

    def program_b(self):
        racer.launch(ref("vllm_ops.cu", "group_quant_fp8"), grid=1, block=32,
                     args=[racer.read(self.x), racer.write(self.y), racer.write(self.s), self.M, self.K, self.XS,
                           self.G, self.K // self.G, 1, 1e-10, 0])
        return {"y": self.y, "s": self.s}


class VllmPerTokenGroupQuantFp8(_GroupQuantFp8, Row):
    """vLLM _per_token_group_quant_fp8: per 1 x 32 group s = max(amax, eps) / 448, y = e4m3(clamp(x / s))"""


class VllmPerTokenGroupQuantFp8ScaleNotInvertedMutant(_GroupQuantFp8, Mutation):
    """mutation: the group is multiplied by its scale instead of divided"""
    mutate = [("y_q = tl.clamp(y / y_s, fp8_min, fp8_max)", "y_q = tl.clamp(y * y_s, fp8_min, fp8_max)")]


class VllmPerTokenGroupQuantFp8ColmajorUe8m0(Row):
    """vLLM _per_token_group_quant_fp8_colmajor (fp8_utils.py, per_token_group_quant_fp8 with
    column_major_scales=True, use_ue8m0=True: DeepGEMM's power-of-two scales): x[2][64] f32 (rows 96 apart) in
    groups of 32, scales [2][2] column-major (x_s.stride(1) = 2), s = 2^ceil(log2(max(amax, 1e-10) / 448));
    BLOCK 32, 1 warp, grid (4,)"""
    M, K, XS, G = 2, 64, 96, 32

    def setup(self):
        self.x = racer.input((self.M, self.K), "f32", range=(-8, 8), strides=(self.XS, 1))
        self.y = racer.empty((self.M, self.K), "fp8e4m3")
        self.s = racer.empty((self.M, self.K // self.G), "f32", strides=(1, self.M))

    def program_a(self):
        k = racer.triton(kernel(FP8, "_per_token_group_quant_fp8_colmajor"), fp8_min=FP8_MIN, fp8_max=FP8_MAX,
                         use_ue8m0=True, BLOCK=self.G, num_warps=1)
        racer.launch(k, grid=self.M * self.K // self.G,
                     args=[racer.read(self.x), racer.write(self.y), racer.write(self.s), self.G, self.K, self.XS,
                           self.M, 1e-10])
        return {"y": self.y, "s": self.s}

    def program_b(self):
        racer.launch(ref("vllm_ops.cu", "group_quant_fp8"), grid=1, block=32,
                     args=[racer.read(self.x), racer.write(self.y), racer.write(self.s), self.M, self.K, self.XS,
                           self.G, 1, self.M, 1e-10, 1])
        return {"y": self.y, "s": self.s}


class VllmPerTokenQuantInt8(Row):
    """vLLM _per_token_quant_int8 (quantization/utils/int8_utils.py, per_token_quant_int8): x[3][40] f32, per row
    scale = max(amax, 1e-10) / 127, q = round(x 127 / amax) by libdevice round (half away from zero) into int8;
    BLOCK next_power_of_2(40) = 64, num_warps 1, grid (3,)"""

    def setup(self):
        self.x = racer.input((3, 40), "f32", range=(-8, 8))
        self.q = racer.empty((3, 40), "i8")
        self.s = racer.empty((3, 1), "f32")

    def program_a(self):
        k = racer.triton(kernel(INT8, "_per_token_quant_int8"), BLOCK=64, num_warps=1)
        racer.launch(k, grid=3, args=[racer.read(self.x), racer.write(self.q), racer.write(self.s), 40, 40, 40])
        return {"q": self.q, "s": self.s}

    def program_b(self):
        racer.launch(ref("vllm_ops.cu", "token_quant_int8"), grid=1, block=32,
                     args=[racer.read(self.x), racer.write(self.q), racer.write(self.s), 3, 40])
        return {"q": self.q, "s": self.s}


class VllmSiluMulGroupQuantFp8Colmajor(Row):
    """vLLM _silu_mul_per_token_group_quant_fp8_colmajor (fp8_utils.py, silu_mul_per_token_group_quant_fp8_colmajor):
    x[8][128] bf16 (gate | up), group_size 32, eps 1e-10, no clamp, alpha 1, beta 0, use_ue8m0 False, no expert
    ends; y e4m3 [8][64], scales [8][2] column-major (stride 8); BLOCK_M 8, BLOCK_N = GROUP_SIZE = 32, grid
    (8 / 8, 64 / 32) = (1, 2), default 4 warps"""

    def setup(self):
        self.x = racer.input((8, 128), "bf16", range=(-4, 4))
        self.y = racer.empty((8, 64), "fp8e4m3")
        self.s = racer.empty((8, 2), "f32", strides=(1, 8))

    def program_a(self):
        k = racer.triton(kernel(FP8, "_silu_mul_per_token_group_quant_fp8_colmajor"), expert_ends_ptr=None,
                         fp8_min=FP8_MIN, fp8_max=FP8_MAX, use_ue8m0=False, HAS_CLAMP=False, GROUP_SIZE=32,
                         BLOCK_M=8, BLOCK_N=32, EXPERT_ALIGNMENT=0)
        racer.launch(k, grid=(1, 2), args=[racer.read(self.x), racer.write(self.y), racer.write(self.s), 8, 128, 8,
                                           1e-10, 0.0, 1.0, 0.0])
        return {"y": self.y, "s": self.s}

    def program_b(self):
        racer.launch(ref("vllm_ops.cu", "silu_mul_group_quant_fp8"), grid=1, block=32,
                     args=[racer.read(self.x), racer.write(self.y), racer.write(self.s), 8, 128, 32, 1e-10])
        return {"y": self.y, "s": self.s}


PT = "vllm.v1.attention.ops.triton_per_tensor_fp8_quant"
PARTS, PBLOCK = 4, 64  # the module's _PARTS 256 and _BLOCK 4096 scaled down to 128-element tensors


class _PerTensorFp8:
    """vLLM _fused_amax_kernel then _fused_quant_kernel (v1/attention/ops/triton_per_tensor_fp8_quant.py,
    fused_per_tensor_fp8_quant(q, v)): two bf16 [4][2][16] tensors, q contiguous, v a strided view of a [4][2][32]
    buffer (strides (64, 32, 1)), each its own amax and descale = amax / 448 (1e-6 if 0); the third slot padded
    with q and 0 elements. PARTS 4 and BLOCK 64 (the module's 256 and 4096 scaled down): amax grid (4, 2), quant
    grid (cdiv(128, 64), 2) = (2, 2), 4 warps"""
    mutate = None
    strides = ((32, 16, 1), (64, 32, 1), (32, 16, 1))
    # Triton binds a tuple constexpr's members as constexprs: given here already wrapped
    SHAPES = tuple(tuple(tl.constexpr(v) for v in s) for s in ((2, 16), (2, 16), (2, 16)))
    STRIDES = tuple(tuple(tl.constexpr(v) for v in s) for s in strides)

    def setup(self):
        self.q = racer.input((4, 2, 16), "bf16", range=(-8, 8))
        self.v = racer.input((4, 2, 16), "bf16", range=(-8, 8), strides=(64, 32, 1))
        self.yq = racer.empty((4, 2, 16), "fp8e4m3")
        self.yv = racer.empty((4, 2, 16), "fp8e4m3")
        self.partial = racer.empty((2, PARTS), "f32")
        self.scales = racer.empty((2,), "f32")

    def program_a(self):
        amax = racer.triton(kernel(PT, "_fused_amax_kernel"), SHAPES=self.SHAPES, STRIDES=self.STRIDES, PARTS=PARTS,
                            BLOCK=PBLOCK, num_warps=4)
        racer.launch(amax, grid=(PARTS, 2), args=[racer.read(self.q), racer.read(self.v), racer.read(self.q),
                                                  racer.write(self.partial), 128, 128, 0])
        quant = racer.triton(kernel(PT, "_fused_quant_kernel", self.mutate), SHAPES=self.SHAPES,
                             STRIDES=self.STRIDES, PARTS=PARTS, BLOCK=PBLOCK, FP8_MAX=FP8_MAX, MIN_DESCALE=1e-6,
                             num_warps=4)
        racer.launch(quant, grid=(2, 2), args=[racer.read(self.q), racer.read(self.v), racer.read(self.q),
                                               racer.write(self.yq), racer.write(self.yv), racer.write(self.yq),
                                               racer.read(self.partial), racer.write(self.scales), 128, 128, 0])
        return {"yq": self.yq, "yv": self.yv, "scales": self.scales}

    def program_b(self):
        for x, y, i, st in ((self.q, self.yq, 0, self.strides[0]), (self.v, self.yv, 1, self.strides[1])):
            racer.launch(ref("vllm_ops.cu", "tensor_quant_fp8"), grid=1, block=32,
                         args=[racer.read(x), racer.write(y), racer.write(self.scales, i), 4, 2, 16, *st])
        return {"yq": self.yq, "yv": self.yv, "scales": self.scales}


class VllmPerTensorFp8Quant(_PerTensorFp8, Row):
    """vLLM fused_per_tensor_fp8_quant: per tensor descale = amax / 448, y = e4m3(clamp(x / descale))"""


class VllmPerTensorFp8QuantSharedAmaxMutant(_PerTensorFp8, Mutation):
    """mutation: a copy-paste slip quantizes the second tensor with the first one's partial maxima"""
    mutate = [("            Partial + PARTS,\n", "            Partial,\n")]


class _PadQuantFp8:
    """vLLM _quantize_pad_fp8_kernel (kernels/triton/qkv_padded_fp8_quant.py, quantize_fp8_pad_head_dim_triton):
    the K slice of a ViT's interleaved bf16 qkv[2][3 x 2 x 40], a [2][2][40] view (strides (240, 40, 1), offset 80),
    a static scale; y e4m3 [2][2][48] (head_dim padded to a multiple of 16, zeros); _get_fp8_pad_quant_config(48):
    BLOCK_M 16, BLOCK_N max(16, min(next_power_of_2(48), 128)) = 64, 4 warps; grid (cdiv(4, 16), cdiv(48, 64)) =
    (1, 1)"""
    mutate = None

    def setup(self):
        self.qkv = racer.input((2, 240), "bf16", range=(-8, 8))
        self.scale = racer.input((1,), "f32", range=(0.01, 1))
        self.y = racer.empty((2, 2, 48), "fp8e4m3")

    def program_a(self):
        k = racer.triton(kernel("vllm.kernels.triton.qkv_padded_fp8_quant", "_quantize_pad_fp8_kernel", self.mutate),
                         fp8_min=FP8_MIN, fp8_max=FP8_MAX, SKIP_SCALE=False, BLOCK_M=16, BLOCK_N=64, num_warps=4)
        racer.launch(k, grid=(1, 1), args=[racer.read(self.qkv, 80), racer.write(self.y), racer.read(self.scale),
                                           240, 40, 1, 96, 48, 1, 2, 4, 40, 48])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("vllm_ops.cu", "pad_quant_fp8"), grid=2, block=128,
                     args=[racer.read(self.qkv, 80), racer.read(self.scale), racer.write(self.y), 2, 2, 40, 48, 240,
                           40, 1])
        return {"y": self.y}


class VllmQuantizePadFp8(_PadQuantFp8, Row):
    """vLLM _quantize_pad_fp8_kernel: y = e4m3(clamp(x / scale)) on the head dim, zeros in the padding"""


class VllmQuantizePadFp8PaddingReadMutant(_PadQuantFp8, Mutation):
    """mutation: the input mask uses the padded width, so the padding reads the next head's channels"""
    mutate = [("mask_in = mask_m[:, None] & (offs_n[None, :] < n_cols)",
               "mask_in = mask_m[:, None] & (offs_n[None, :] < n_cols_padded)")]


class VllmReluSquaredFp8(Row):
    """vLLM _relu_squared_static_fp8_quant_kernel (model_executor/layers/fusion/relu2_fp8_quant.py,
    relu_squared_static_fp8_quant): x[3][40] bf16, y = e4m3(clamp(bf16(relu(x)^2) / scale)) with a static f32
    scale; BLOCK_SIZE min(next_power_of_2(40), 2048) = 64, num_warps min(max(64 // 256, 1), 4) = 1, grid
    (cdiv(120, 64),) = (2,)"""

    def setup(self):
        self.x = racer.input((3, 40), "bf16", range=(-8, 8))
        self.scale = racer.input((1,), "f32", range=(0.01, 1))
        self.y = racer.empty((3, 40), "fp8e4m3")

    def program_a(self):
        k = racer.triton(kernel("vllm.model_executor.layers.fusion.relu2_fp8_quant",
                                "_relu_squared_static_fp8_quant_kernel"), FP8_MIN=FP8_MIN, FP8_MAX=FP8_MAX,
                         BLOCK_SIZE=64, num_warps=1)
        racer.launch(k, grid=2, args=[racer.read(self.x), racer.read(self.scale), racer.write(self.y), 120])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("vllm_ops.cu", "relu2_quant_fp8"), grid=1, block=128,
                     args=[racer.read(self.x), racer.read(self.scale), racer.write(self.y), 120])
        return {"y": self.y}


class _GeluAndMulSparse:
    """vLLM _gelu_and_mul_sparse_kernel (kernels/triton/activation.py, gelu_and_mul_sparse_triton, Gemma 3n's
    activation sparsity): x[3][80] f32 (gate | up), d 40, std_multiplier 1.6448536 (the normal 0.95 quantile);
    BLOCK_SIZE next_power_of_2(40) = 64, num_warps min(max(64 // 256, 1), 8) = 1, grid (3,)"""
    mutate = None

    def setup(self):
        self.x = racer.input((3, 80), "f32", range=(-4, 4))
        self.y = racer.empty((3, 40), "f32")

    def program_a(self):
        k = racer.triton(kernel("vllm.kernels.triton.activation", "_gelu_and_mul_sparse_kernel", self.mutate), d=40,
                         BLOCK_SIZE=64, num_warps=1)
        racer.launch(k, grid=3, args=[racer.read(self.x), racer.write(self.y), 1.6448536])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("vllm_ops.cu", "gelu_and_mul_sparse"), grid=1, block=32,
                     args=[racer.read(self.x), racer.write(self.y), 3, 40, 1.6448536])
        return {"y": self.y}


class VllmGeluAndMulSparse(_GeluAndMulSparse, Row):
    """vLLM _gelu_and_mul_sparse_kernel: gelu_tanh(max(g - mean(g) - k std(g), 0)) u"""


class VllmGeluAndMulSparseUnmaskedVarianceMutant(_GeluAndMulSparse, Mutation):
    """mutation: the centred gate is not masked, so the 24 padding lanes add mean^2 each to the variance"""
    mutate = [("centered = tl.where(mask, gate - mean, 0.0)", "centered = gate - mean")]


class _SigmoidGateMulFp8:
    """vLLM _fused_sigmoid_gate_mul_kernel (kernels/triton/fused_sigmoid_gate_mul.py, fused_sigmoid_gate_mul with a
    static scale): x, gate [3][40] bf16, y = e4m3(clamp(bf16(x sigmoid(gate)) / scale)); hidden <= 1024: BLOCK
    next_power_of_2(40) = 64, 4 warps, grid (3, 1), QUANT_FP8"""
    mutate = None

    def setup(self):
        self.x = racer.input((3, 40), "bf16", range=(-8, 8))
        self.g = racer.input((3, 40), "bf16", range=(-8, 8))
        self.scale = racer.input((1,), "f32", range=(0.01, 1))
        self.y = racer.empty((3, 40), "fp8e4m3")

    def program_a(self):
        k = racer.triton(kernel("vllm.kernels.triton.fused_sigmoid_gate_mul", "_fused_sigmoid_gate_mul_kernel",
                                self.mutate), BLOCK=64, QUANT_FP8=True, num_warps=4)
        racer.launch(k, grid=(3, 1), args=[racer.read(self.x), racer.read(self.g), racer.write(self.y),
                                           racer.read(self.scale), 40, 40, 40, 40])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("vllm_ops.cu", "sigmoid_gate_mul_fp8"), grid=1, block=128,
                     args=[racer.read(self.x), racer.read(self.g), racer.read(self.scale), racer.write(self.y), 120])
        return {"y": self.y}


class VllmSigmoidGateMulFp8(_SigmoidGateMulFp8, Row):
    """vLLM _fused_sigmoid_gate_mul_kernel: x sigmoid(gate), rounded to bf16, quantized to e4m3"""


LNG = "vllm.model_executor.layers.mamba.ops.layernorm_gated"


class _RmsNormGated:
    """vLLM _layer_norm_fwd_1pass_kernel (model_executor/layers/mamba/ops/layernorm_gated.py, rms_norm_gated as
    Mamba2's MixerRMSNormGated calls it: norm_before_gate=False, no bias): x, z [3][64] f32, weight [64], groups
    of 32 (group_size=32), eps 1e-5; y = rmsnorm(x silu(z)) w per group, rstd [2 x 3]; BLOCK_N
    min(65536 / 4, next_power_of_2(32)) = 32, num_warps min(max(32 // 256, 1), 8) = 1, grid (3, 2)"""
    mutate = None

    def setup(self):
        self.x = racer.input((3, 64), "f32", range=(-4, 4))
        self.z = racer.input((3, 64), "f32", range=(-4, 4))
        self.w = racer.input((64,), "f32", range=(-2, 2))
        self.y = racer.empty((3, 64), "f32")
        self.rstd = racer.empty((6,), "f32")

    def program_a(self):
        k = racer.triton(kernel(LNG, "_layer_norm_fwd_1pass_kernel", self.mutate), B=None, Mean=None, BLOCK_N=32,
                         HAS_BIAS=False, HAS_Z=True, NORM_BEFORE_GATE=False, IS_RMS_NORM=True, num_warps=1)
        racer.launch(k, grid=(3, 2), args=[racer.read(self.x), racer.write(self.y), racer.read(self.w),
                                           racer.read(self.z), racer.write(self.rstd), 64, 64, 64, 3, 32, 1e-5])
        return {"y": self.y, "rstd": self.rstd}

    def program_b(self):
        racer.launch(ref("vllm_ops.cu", "gated_norm"), grid=1, block=32,
                     args=[racer.read(self.x), racer.read(self.z), racer.read(self.w), None, racer.write(self.y), None,
                           racer.write(self.rstd), 3, 64, 32, 1e-5, 1, 1, 0])
        return {"y": self.y, "rstd": self.rstd}


class VllmRmsNormGated(_RmsNormGated, Row):
    """vLLM _layer_norm_fwd_1pass_kernel (RMS, gate before the norm): rmsnorm(x silu(z)) w"""


class VllmRmsNormGatedSigmoidGateMutant(_RmsNormGated, Mutation):
    """mutation: the gate multiplies by sigmoid(z) instead of silu(z) = z sigmoid(z)"""
    mutate = [("        x *= z * tl.sigmoid(z)\n", "        x *= tl.sigmoid(z)\n")]


QKR = "vllm.model_executor.layers.fused_qk_norm_rope"
NQ, NK, HD, RD = 2, 1, 32, 16  # q heads, kv heads, head_dim, rotary_dim (partial rotary)
QKV_W = NQ * 2 * HD + 2 * NK * HD  # per token: [q | gate] per q head, then k, then v


class _QkNormRopeGate:
    """vLLM _fused_qk_rmsnorm_rope_gate_kernel (model_executor/layers/fused_qk_norm_rope.py,
    fused_qk_rmsnorm_rope_gate as Qwen3-Next calls it: norm_beta=1.0, GemmaRMSNorm weights): q_gate and k slices
    of a bf16 qkv[2][192] (row stride 192), 2 q heads and 1 kv head of 32 channels, rotary_dim 16 (partial:
    HAS_PASS), cos_sin_cache[8][16] f32, positions [3, 6] (i64, concrete), eps 1e-6; HEAD_BLOCK 32,
    ROT_HALF_BLOCK 8, num_warps max(1, 32 // 64) = 1, grid (2, 3), INPUT_DTYPE bf16, no M-RoPE"""
    mutate = None
    positions = [3, 6]

    def setup(self):
        self.qkv = racer.input((2, QKV_W), "bf16", range=(-4, 4))
        self.qw = racer.input((HD,), "f32", range=(-1, 1))
        self.kw = racer.input((HD,), "f32", range=(-1, 1))
        self.cache = racer.input((8, RD), "f32", range=(-1, 1))
        self.pos = racer.values(self.positions, dtype="i64")
        self.q = racer.empty((2, NQ * HD), "bf16")
        self.k = racer.empty((2, NK * HD), "bf16")
        self.gate = racer.empty((2, NQ * HD), "bf16")

    def program_a(self):
        k = racer.triton(kernel(QKR, "_fused_qk_rmsnorm_rope_gate_kernel", self.mutate), num_q_heads=NQ,
                         num_kv_heads=NK, head_dim=HD, rotary_dim=RD, half_rotary=RD // 2, eps=1e-6, norm_beta=1.0,
                         INPUT_DTYPE=tl.bfloat16, HEAD_BLOCK=32, ROT_HALF_BLOCK=8, HAS_PASS=True, HAS_MROPE=False,
                         MROPE_SECTION_H=0, MROPE_SECTION_W=0, num_warps=1)
        racer.launch(k, grid=(2, NQ + NK),
                     args=[racer.read(self.qkv), racer.read(self.qkv, NQ * 2 * HD), racer.write(self.q),
                           racer.write(self.k), racer.write(self.gate), racer.read(self.qw), racer.read(self.kw),
                           racer.read(self.cache), racer.read(self.pos), QKV_W, QKV_W, NQ * HD, NK * HD, NQ * HD, RD,
                           0, 1])
        return {"q": self.q, "k": self.k, "gate": self.gate}

    def program_b(self):
        racer.launch(ref("vllm_ops.cu", "qk_norm_rope_gate"), grid=1, block=32,
                     args=[racer.read(self.qkv), racer.read(self.qw), racer.read(self.kw), racer.read(self.cache),
                           racer.read(self.pos), racer.write(self.q), racer.write(self.k), racer.write(self.gate), 2,
                           QKV_W, NQ * 2 * HD, NQ, NK, HD, RD, 1e-6, 1.0])
        return {"q": self.q, "k": self.k, "gate": self.gate}


class VllmFusedQkRmsnormRopeGate(_QkNormRopeGate, Row):
    """vLLM _fused_qk_rmsnorm_rope_gate_kernel: Gemma RMS norm of each q/k head, NeoX RoPE on 16 of 32 channels,
    gate copied"""


class VllmFusedQkRmsnormRopeGateSinSignMutant(_QkNormRopeGate, Mutation):
    """mutation: the second half of the rotation subtracts the sine term (a rotation by the negated angle there)"""
    mutate = [("o2 = x_rot2 * cos + x_rot1 * sin", "o2 = x_rot2 * cos - x_rot1 * sin")]


MM = "vllm.model_executor.layers.minimax_rms_norm.rms_norm_tp"


class _MinimaxQkNorm:
    """vLLM _minimax_qk_var_kernel then _minimax_rms_apply_kernel (model_executor/layers/minimax_rms_norm/
    rms_norm_tp.py, _minimax_qk_norm_tp_fallback at tp_world 1, where the all-reduce between them is the
    identity): bf16 qkv[2][128] (q 64, k 32, v 32 columns), f32 weights, eps 1e-6; var [2][2] f32, q_out [2][64],
    k_out [2][32] bf16; BLOCK 1024, grid (2,), Triton's default 4 warps"""
    mutate = None

    def setup(self):
        self.qkv = racer.input((2, 128), "bf16", range=(-4, 4))
        self.qw = racer.input((64,), "f32", range=(-1, 1))
        self.kw = racer.input((32,), "f32", range=(-1, 1))
        self.var = racer.empty((2, 2), "f32")
        self.q = racer.empty((2, 64), "bf16")
        self.k = racer.empty((2, 32), "bf16")

    def program_a(self):
        v = racer.triton(kernel(MM, "_minimax_qk_var_kernel", self.mutate), q_size=64, kv_size=32, BLOCK=1024)
        racer.launch(v, grid=2, args=[racer.read(self.qkv), racer.write(self.var), 128])
        a = racer.triton(kernel(MM, "_minimax_rms_apply_kernel"), q_size=64, kv_size=32, tp_world=1, eps=1e-6,
                         BLOCK=1024)
        racer.launch(a, grid=2, args=[racer.read(self.qkv), racer.read(self.var), racer.read(self.qw),
                                      racer.read(self.kw), racer.write(self.q), racer.write(self.k), 128])
        return {"var": self.var, "q": self.q, "k": self.k}

    def program_b(self):
        racer.launch(ref("vllm_ops.cu", "minimax_qk_norm"), grid=1, block=32,
                     args=[racer.read(self.qkv), racer.read(self.qw), racer.read(self.kw), racer.write(self.var),
                           racer.write(self.q), racer.write(self.k), 2, 128, 64, 32, 1, 1e-6])
        return {"var": self.var, "q": self.q, "k": self.k}


class VllmMinimaxQkNorm(_MinimaxQkNorm, Row):
    """vLLM MiniMax QK norm (TP fallback): mean squares of q and k, then x / sqrt(var + eps) w into bf16"""


class _EmbedEhNorm:
    """vLLM _fused_embed_eh_norm_kernel (model_executor/layers/fused_embed_norm.py, fused_embed_eh_norm: the MTP
    depth layer's input): positions [5, 0, 2] (i64) and token ids [3, 1, 6] (i32), concrete; table [8][40],
    previous hidden [3][40] f32, eps 1e-6; out [3][80] = [rmsnorm(table[id] zeroed at position 0, ew) |
    rmsnorm(prev, hw)]; H 40, BLOCK 64, grid (3,), Triton's default 4 warps"""
    mutate = None

    def setup(self):
        self.pos = racer.values([5, 0, 2], dtype="i64")
        self.ids = racer.values([3, 1, 6], dtype="i32")
        self.table = racer.input((8, 40), "f32", range=(-2, 2))
        self.prev = racer.input((3, 40), "f32", range=(-4, 4))
        self.ew = racer.input((40,), "f32", range=(-1, 1))
        self.hw = racer.input((40,), "f32", range=(-1, 1))
        self.out = racer.empty((3, 80), "f32")

    def program_a(self):
        k = racer.triton(kernel("vllm.model_executor.layers.fused_embed_norm", "_fused_embed_eh_norm_kernel",
                                self.mutate), H=40, BLOCK=64)
        racer.launch(k, grid=3, args=[racer.read(self.pos), racer.read(self.ids), racer.read(self.table), 40,
                                      racer.read(self.prev), 40, racer.read(self.ew), racer.read(self.hw), 1e-6,
                                      racer.write(self.out), 80])
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref("vllm_ops.cu", "embed_eh_norm"), grid=1, block=32,
                     args=[racer.read(self.pos), racer.read(self.ids), racer.read(self.table), racer.read(self.prev),
                           racer.read(self.ew), racer.read(self.hw), racer.write(self.out), 3, 40, 1e-6])
        return {"out": self.out}


class VllmFusedEmbedEhNorm(_EmbedEhNorm, Row):
    """vLLM _fused_embed_eh_norm_kernel: gathered embedding (zero at position 0) and previous hidden, each RMS
    normed"""


class VllmFusedEmbedEhNormTokenIndexMutant(_EmbedEhNorm, Mutation):
    """mutation: the embedding is zeroed for the first token of the batch instead of for position 0"""
    mutate = [("e = tl.where(pos == 0, 0.0, e.to(tl.float32))", "e = tl.where(tok == 0, 0.0, e.to(tl.float32))")]


MR = "vllm.model_executor.layers.rotary_embedding.mrope"


class _Mrope:
    """vLLM _triton_mrope_forward (model_executor/layers/rotary_embedding/mrope.py, triton_mrope): q[3][2 x 32],
    k[3][1 x 32] f32 rotated in place by cos, sin [3][3][16] (T/H/W, already gathered), rotary_dim 32; pad_rd 32,
    pad_n_qh 2, pad_n_kh 1, num_warps 4 (CUDA), grid (3,)"""
    mutate = None
    section, interleaved, neox = (4, 6, 6), False, True

    def setup(self):
        self.q = racer.input((3, 64), "f32", range=(-4, 4))
        self.k = racer.input((3, 32), "f32", range=(-4, 4))
        self.cos = racer.input((3, 3, 16), "f32", range=(-1, 1))
        self.sin = racer.input((3, 3, 16), "f32", range=(-1, 1))

    def program_a(self):
        st, sh, sw = self.section
        k = racer.triton(kernel(MR, "_triton_mrope_forward", self.mutate), n_qh=2, n_kh=1, hd=32, rd=32, pad_n_qh=2,
                         pad_n_kh=1, pad_rd=32, mrope_section_t=st, mrope_section_h=sh, mrope_section_w=sw,
                         is_interleaved=self.interleaved, is_neox_style=self.neox, num_warps=4)
        racer.launch(k, grid=3, args=[racer.readwrite(self.q), racer.readwrite(self.k), racer.read(self.cos),
                                      racer.read(self.sin), 3, 64, 32])
        return {"q": self.q, "k": self.k}

    def program_b(self):
        st, sh, sw = self.section
        racer.launch(ref("vllm_ops.cu", "mrope_gathered"), grid=1, block=160,
                     args=[racer.readwrite(self.q), racer.readwrite(self.k), racer.read(self.cos),
                           racer.read(self.sin), 3, 2, 1, 32, 32, st, sh, sw, int(self.interleaved), int(self.neox)])
        return {"q": self.q, "k": self.k}


class VllmMropeSections(_Mrope, Row):
    """vLLM _triton_mrope_forward, Qwen2-VL: NeoX rotation, sections (4, 6, 6) of the 16 frequencies"""


class VllmMropeSectionsHStartMutant(_Mrope, Mutation):
    """mutation: an off-by-one start of the h section leaves its first frequency with cos = sin = 0"""
    mutate = [("h_mask = (t_end <= cos_offsets) & (cos_offsets < h_end)",
               "h_mask = (t_end < cos_offsets) & (cos_offsets < h_end)")]


class VllmMropeInterleaved(_Mrope, Row):
    """vLLM _triton_mrope_forward, Qwen3-VL: interleaved T/H/W frequencies (6, 5, 5), NeoX rotation"""
    section, interleaved, neox = (6, 5, 5), True, True


ROT = "vllm.vllm_flash_attn.ops.triton.rotary"


class _FlashRotary:
    """vLLM's flash-attn rotary_kernel (vllm_flash_attn/ops/triton/rotary.py, apply_rotary): x[1][8][2][32] f32
    (batch, seqlen, heads, headdim), cos, sin [8][16], rotary_dim 32, seqlen_offsets 0, not in place; BLOCK_K 32,
    grid (cdiv(8, BLOCK_M), 2, 1), Triton's default 4 warps"""
    mutate = None
    interleaved, block_m = True, 4

    def setup(self):
        self.x = racer.input((1, 8, 2, 32), "f32", range=(-4, 4))
        self.cos = racer.input((8, 16), "f32", range=(-1, 1))
        self.sin = racer.input((8, 16), "f32", range=(-1, 1))
        self.out = racer.empty((1, 8, 2, 32), "f32")

    def program_a(self):
        k = racer.triton(kernel(ROT, "rotary_kernel", self.mutate), CU_SEQLENS=None, BLOCK_K=32,
                         IS_SEQLEN_OFFSETS_TENSOR=False, IS_VARLEN=False, INTERLEAVED=self.interleaved,
                         CONJUGATE=False, BLOCK_M=self.block_m)
        racer.launch(k, grid=(8 // self.block_m, 2, 1),
                     args=[racer.write(self.out), racer.read(self.x), racer.read(self.cos), racer.read(self.sin), 0, 8,
                           32, 8, 512, 64, 32, 1, 512, 64, 32, 1])
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref("vllm_ops.cu", "rotary_bshd"), grid=2, block=128,
                     args=[racer.read(self.x), racer.read(self.cos), racer.read(self.sin), racer.write(self.out), 1, 8,
                           2, 32, int(self.interleaved)])
        return {"out": self.out}


class VllmFlashRotaryInterleaved(_FlashRotary, Row):
    """vLLM rotary_kernel, GPT-J (interleaved) pairs: BLOCK_M 4"""


BI = "vllm.model_executor.determinism.batch_invariant"


class _LogSoftmax:
    """vLLM _softmax_kernel with LOG (model_executor/determinism/batch_invariant.py, log_softmax): x[3][40] f32,
    three passes (max, sum of exp(x - max), x - max - log sum); BLOCK_SIZE 1024, grid (3,), Triton's default 4
    warps"""
    mutate = None

    def setup(self):
        self.x = racer.input((3, 40), "f32", range=(-8, 8))
        self.y = racer.empty((3, 40), "f32")

    def program_a(self):
        k = racer.triton(kernel(BI, "_softmax_kernel", self.mutate), BLOCK_SIZE=1024, LOG=True)
        racer.launch(k, grid=3, args=[racer.read(self.x), racer.write(self.y), 40, 1, 40, 40])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("vllm_ops.cu", "softmax_rows"), grid=1, block=32,
                     args=[racer.read(self.x), racer.write(self.y), 3, 40, 1])
        return {"y": self.y}


class VllmBatchInvariantLogSoftmax(_LogSoftmax, Row):
    """vLLM batch-invariant log_softmax: x - log(sum exp x) per row"""


class VllmBatchInvariantLogSoftmaxNoMaxMutant(_LogSoftmax, Mutation):
    """mutation: the output forgets the max subtracted inside the sum"""
    mutate = [("output = vals - max_val - log_sum_exp", "output = vals - log_sum_exp")]


