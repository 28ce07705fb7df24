"""lightllm 0.0.1: its Triton kernels (common/basemodel/triton_kernel/ and models/{llama,bloom,chatglm2,gemma_2b,
mistral}/triton_kernel/), against reference/lightllm_ops.cu: RMSNorm and LayerNorm, rotary (rotate-half and
ChatGLM2's interleaved half-head), SiLU-and-mul (in place), sampling penalties, KV-cache copies (plain,
int8 per head, int8 per group of 8), per-row int8 quantization, int8 / int4 weight dequantization, token attention
in its pieces (q k, softmax, p v, the fused softmax + p v), flash decoding (stage 1 + 2), causal prefill attention
(plain, Mistral's sliding window, Bloom's ALiBi with a prompt cache). Each launched with the constexprs, grid and
warps lightllm's host wrapper (the Python function beside the kernel) picks for the shape, scaled down where noted.
Not rows: the int4 KV copy (ppl_int4kv_copy_kv.py: its host wrapper calls an external CUDA extension, the Triton
kernel is never launched); gemma_2b's _gelu_and_mul_kernel (gelu_and_mul.py: its gelu helper reads the module float
_kAlpha, a non-constexpr global that Triton 3.6 refuses to compile)."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

LL = "lightllm.models"
BASE = "lightllm.common.basemodel.triton_kernel"
REF = "lightllm_ops.cu"


# ---- norms ----
class _RmsNorm:
    """lightllm _rms_norm_fwd_fused (models/llama/triton_kernel/rmsnorm.py, rmsnorm_forward): x[3][64] bf16, w[64]
    bf16, eps 1e-6; the wrapper overrides its own pick with BLOCK_SIZE 128 x 2^7 = 16384 and num_warps 8 (one masked
    block per row), grid (3,)"""
    mutate = None

    def setup(self):
        self.x = racer.input((3, 64), "bf16", range=(-4, 4))
        self.w = racer.input((64,), "bf16", range=(-2, 2))
        self.y = racer.empty((3, 64), "bf16")

    def program_a(self):
        k = racer.triton(kernel(f"{LL}.llama.triton_kernel.rmsnorm", "_rms_norm_fwd_fused", self.mutate),
                         BLOCK_SIZE=16384, num_warps=8)
        racer.launch(k, grid=3, args=[racer.read(self.x), racer.write(self.y), racer.read(self.w), 64, 64, 1e-6])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref(REF, "rms_norm_bf16"), grid=1, block=32,
                     args=[racer.read(self.x), racer.read(self.w), racer.write(self.y), 3, 64, 1e-6])
        return {"y": self.y}


class LightllmRmsNorm(_RmsNorm, Row):
    """lightllm rmsnorm_forward: y = x / sqrt(mean(x^2) + eps) w"""


class LightllmRmsNormEpsMutant(_RmsNorm, Mutation):
    """mutation: eps added outside the square root"""
    mutate = [("rstd = 1 / tl.sqrt(var + eps)", "rstd = 1 / (tl.sqrt(var) + eps)")]


class _LayerNorm:
    """lightllm _layer_norm_fwd_fused (models/bloom/triton_kernel/layernorm.py): x[3][48] bf16, w, b [48] bf16, eps
    1e-5; bloom's layernorm_forward calls torch, so the launch is the sibling rmsnorm wrapper's rule
    (BLOCK_SIZE next_power_of_2(48) = 64, num_warps min(max(64 // 256, 1), 8) = 1), grid (3,)"""
    mutate = None

    def setup(self):
        self.x = racer.input((3, 48), "bf16", range=(-4, 4))
        self.w = racer.input((48,), "bf16", range=(-2, 2))
        self.b = racer.input((48,), "bf16", range=(-1, 1))
        self.y = racer.empty((3, 48), "bf16")

    def program_a(self):
        k = racer.triton(kernel(f"{LL}.bloom.triton_kernel.layernorm", "_layer_norm_fwd_fused", self.mutate),
                         BLOCK_SIZE=64, num_warps=1)
        racer.launch(k, grid=3, args=[racer.read(self.x), racer.write(self.y), racer.read(self.w),
                                      racer.read(self.b), 48, 48, 1e-5])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref(REF, "layer_norm_bf16"), grid=1, block=32,
                     args=[racer.read(self.x), racer.read(self.w), racer.read(self.b), racer.write(self.y), 3, 48,
                           1e-5])
        return {"y": self.y}


class LightllmLayerNorm(_LayerNorm, Row):
    """lightllm bloom layer norm: y = (x - mean) / sqrt(var + eps) w + b"""


class LightllmLayerNormNoCenterMutant(_LayerNorm, Mutation):
    """mutation: the variance pass forgets to subtract the mean"""
    mutate = [("x = tl.where(cols < N, x - mean, 0.)", "x = tl.where(cols < N, x, 0.)")]


# ---- rotary ----
class _Rotary:
    """lightllm _rotary_kernel (models/llama/triton_kernel/rotary_emb.py, rotary_emb_fwd), in place: q[8][2][32],
    k[8][1][32] f32, cos / sin [8][16] f32; pairs (j, j + 16); BLOCK_HEAD 4, BLOCK_SEQ 16, BLOCK_DMODEL 32,
    num_warps 4 (head_dim < 128), num_stages 1, grid (cdiv(2, 4), cdiv(8, 16)) = (1, 1)"""
    module, D, CW, interleaved, BLOCK_DMODEL = f"{LL}.llama.triton_kernel.rotary_emb", 32, 16, 0, 32
    mutate = None

    def setup(self):
        self.q = racer.input((8, 2, self.D), "f32", range=(-4, 4))
        self.k = racer.input((8, 1, self.D), "f32", range=(-4, 4))
        self.cos = racer.input((8, self.CW), "f32", range=(-1, 1))
        self.sin = racer.input((8, self.CW), "f32", range=(-1, 1))

    def program_a(self):
        D = self.D
        k = racer.triton(kernel(self.module, "_rotary_kernel", self.mutate), BLOCK_HEAD=4, BLOCK_SEQ=16,
                         BLOCK_DMODEL=self.BLOCK_DMODEL, num_warps=4, num_stages=1)
        racer.launch(k, grid=(1, 1), args=[racer.readwrite(self.q), racer.readwrite(self.k), racer.read(self.cos),
                                           racer.read(self.sin), 2 * D, D, 1, D, D, 1, self.CW, 1, self.CW, 1, 8, 2,
                                           1])
        return {"q": self.q, "k": self.k}

    def program_b(self):
        for x, h in ((self.q, 2), (self.k, 1)):
            racer.launch(ref(REF, "rotary_f32"), grid=1, block=256,
                         args=[racer.readwrite(x), racer.read(self.cos), racer.read(self.sin), 8, h, self.D, self.CW,
                               self.interleaved])
        return {"q": self.q, "k": self.k}


class LightllmRotary(_Rotary, Row):
    """lightllm llama rotary: (a, b) -> (a cos - b sin, a sin + b cos) on pairs (j, j + D/2), q and k in place"""


class LightllmRotarySignMutant(_Rotary, Mutation):
    """mutation: q's first half gets the inverse rotation's sign (a cos + b sin)"""
    mutate = [("out0 = q0 * cos - q1 * sin", "out0 = q0 * cos + q1 * sin")]


class LightllmChatglm2Rotary(_Rotary, Row):
    """lightllm _rotary_kernel (models/chatglm2/triton_kernel/rotary_emb.py, rotary_emb_fwd): q[8][2][32],
    k[8][1][32] f32 in place, cos / sin [8][8]; the wrapper's head_dim = 32 // 2 = 16 = BLOCK_DMODEL: only the
    first half of each head rotates, in adjacent pairs (2i, 2i + 1); BLOCK_HEAD 4, BLOCK_SEQ 16, num_warps 4,
    grid (1, 1)"""
    module, CW, interleaved, BLOCK_DMODEL = f"{LL}.chatglm2.triton_kernel.rotary_emb", 8, 1, 16


# ---- gated activations (in place) ----
class _GatedAct:
    """lightllm _silu_and_mul_kernel (models/llama/triton_kernel/silu_and_mul.py, silu_and_mul_fwd), in place:
    x[4][96] bf16 (gate | up, size_n 48), the product written over the gate half; BLOCK_M = BLOCK_N = 128
    (positional), default num_warps 4, grid (cdiv(4, 128), cdiv(48, 128)) = (1, 1)"""
    module, name, act, N = f"{LL}.llama.triton_kernel.silu_and_mul", "_silu_and_mul_kernel", 0, 48
    mutate = None
    inside = None

    def setup(self):
        self.x = racer.input((4, 2 * self.N), "bf16", range=(-6, 6))

    def program_a(self):
        k = racer.triton(kernel(self.module, self.name, self.mutate, inside=self.inside), BLOCK_M=128, BLOCK_N=128,
                         num_warps=4)
        racer.launch(k, grid=(1, 1), args=[racer.readwrite(self.x), 2 * self.N, 1, 2 * self.N, 1, 4, self.N])
        return {"x": self.x}

    def program_b(self):
        racer.launch(ref(REF, "gated_act_bf16"), grid=2, block=128,
                     args=[racer.readwrite(self.x), 4, self.N, self.act])
        return {"x": self.x}


class LightllmSiluAndMul(_GatedAct, Row):
    """lightllm silu_and_mul_fwd: gate <- bf16(up bf16(silu(gate)))"""


class LightllmSiluAndMulSignMutant(_GatedAct, Mutation):
    """mutation: the sigmoid's exponent loses its sign"""
    mutate = [("gate = gate / (1 + tl.exp(-gate))", "gate = gate / (1 + tl.exp(gate))")]


# ---- sampling penalties ----
PEN_IDS, PEN_COUNTS, PEN_CU = [3, 17, 40, 0, 63, 8, 9], [1, 2, 5, 3, 1, 1, 2], [0, 3, 7]


class _Penalty:
    """lightllm _fwd_kernel_apply_penalty (common/basemodel/triton_kernel/apply_penalty.py, apply_penalty), in
    place: logits[2][64] f32, per-batch presence / frequency / repetition penalties f32, the sequences' token ids,
    counts and cumulative lengths concrete ([3, 17, 40] x [1, 2, 5]; [0, 63, 8, 9] x [3, 1, 1, 2]); BLOCK_P
    next_power_of_2(4) raised to 512, num_warps 8, grid (2,)"""
    mutate = None

    def setup(self):
        self.l = racer.input((2, 64), "f32", range=(-8, 8))
        self.pres = racer.input((2,), "f32", range=(0, 1))
        self.freq = racer.input((2,), "f32", range=(0, 1))
        self.rep = racer.input((2,), "f32", range=(1, 2))
        self.ids = racer.values(PEN_IDS, dtype="i32")
        self.cnt = racer.values(PEN_COUNTS, dtype="i32")
        self.cu = racer.values(PEN_CU, dtype="i32")

    def _args(self):
        return [racer.readwrite(self.l), racer.read(self.pres), racer.read(self.freq), racer.read(self.rep),
                racer.read(self.ids), racer.read(self.cnt), racer.read(self.cu)]

    def program_a(self):
        k = racer.triton(kernel(f"{BASE}.apply_penalty", "_fwd_kernel_apply_penalty", self.mutate), BLOCK_P=512,
                         num_warps=8)
        racer.launch(k, grid=2, args=self._args() + [64, 1])
        return {"l": self.l}

    def program_b(self):
        racer.launch(ref(REF, "apply_penalty_f32"), grid=1, block=32, args=self._args() + [2, 64])
        return {"l": self.l}


class LightllmApplyPenalty(_Penalty, Row):
    """lightllm apply_penalty: l -> (l > 0 ? l / rep : l rep) - count freq - presence on the seen tokens"""


class LightllmApplyPenaltyRepetitionSwapMutant(_Penalty, Mutation):
    """mutation: the repetition penalty's two branches swapped (positive logits multiplied)"""
    mutate = [("cur_logits / cur_repetition, cur_logits * cur_repetition",
               "cur_logits * cur_repetition, cur_logits / cur_repetition")]


# ---- KV-cache copies and int8 quantization ----
DEST = [6, 1, 9, 3]  # cache slots of the 4 new tokens (a 10-slot cache)


class LightllmDestindexCopyKv(Row):
    """lightllm _fwd_kernel_destindex_copy_kv (common/basemodel/triton_kernel/destindex_copy_kv.py,
    destindex_copy_kv): k[4][2][16] f32 into out[10][2][16] at slots [6, 1, 9, 3]; BLOCK_HEAD
    next_power_of_2(2) = 2, BLOCK_DMODEL 16, num_warps 1, num_stages 1, grid (4,)"""

    def setup(self):
        self.k = racer.input((4, 2, 16), "f32", range=(-4, 4))
        self.dest = racer.values(DEST, dtype="i32")
        self.o = racer.input((10, 2, 16), "f32", range=(-4, 4))

    def program_a(self):
        k = racer.triton(kernel(f"{BASE}.destindex_copy_kv", "_fwd_kernel_destindex_copy_kv"), BLOCK_DMODEL=16,
                         BLOCK_HEAD=2, num_warps=1, num_stages=1)
        racer.launch(k, grid=4, args=[racer.read(self.k), racer.read(self.dest), racer.readwrite(self.o), 32, 16, 1,
                                      32, 16, 1, 2])
        return {"o": self.o}

    def program_b(self):
        racer.launch(ref(REF, "copy_kv_f32"), grid=1, block=128,
                     args=[racer.read(self.k), racer.read(self.dest), racer.readwrite(self.o), 4, 2, 16])
        return {"o": self.o}


class _QuantCopy:
    """lightllm _fwd_kernel_destindex_copy_quantize_kv (common/basemodel/triton_kernel/destindex_copy_kv.py,
    destindex_copy_quantize_kv): k[4][2][16] f16 into int8 out[10][2][16] and f16 scales [10][2][1] at slots
    [6, 1, 9, 3], one scale per head (max|x| / 127); BLOCK_HEAD 2, BLOCK_DMODEL 16, num_warps 1, grid (4,)"""
    mutate = None

    def setup(self):
        self.k = racer.input((4, 2, 16), "f16", range=(-4, 4))
        self.dest = racer.values(DEST, dtype="i32")
        self.o = racer.input((10, 2, 16), "i8", range=(-127, 127))
        self.s = racer.input((10, 2, 1), "f16", range=(0, 1))

    def program_a(self):
        k = racer.triton(kernel(f"{BASE}.destindex_copy_kv", "_fwd_kernel_destindex_copy_quantize_kv", self.mutate),
                         BLOCK_DMODEL=16, BLOCK_HEAD=2, num_warps=1, num_stages=1)
        racer.launch(k, grid=4, args=[racer.read(self.k), racer.read(self.dest), racer.readwrite(self.o),
                                      racer.readwrite(self.s), 32, 16, 1, 32, 16, 1, 2, 1, 1, 2])
        return {"o": self.o, "s": self.s}

    def program_b(self):
        racer.launch(ref(REF, "quant_copy_kv_f16"), grid=1, block=32,
                     args=[racer.read(self.k), racer.read(self.dest), racer.readwrite(self.o), racer.readwrite(self.s),
                           4, 2, 16, 16])
        return {"o": self.o, "s": self.s}


class LightllmDestindexCopyQuantizeKv(_QuantCopy, Row):
    """lightllm destindex_copy_quantize_kv: int8 KV cache with a per-head symmetric scale"""


class LightllmPplQuantCopyKv(Row):
    """lightllm _fwd_kernel_destindex_copy_quantize_kv (models/llama/triton_kernel/ppl_quant_copy_kv.py,
    destindex_copy_quantize_kv): k[4][2][32] f16 viewed as [4][2][4 groups][8], into int8 out[10][2][32] and f16
    scales [10][2][4] at slots [6, 1, 9, 3], one scale per group of 8; group_size 4, BLOCK_GROUP_NUM 4,
    BLOCK_GROUP_DIM 8, num_warps 1, num_stages 1, grid (4, 2)"""

    def setup(self):
        self.k = racer.input((4, 2, 32), "f16", range=(-4, 4))
        self.dest = racer.values(DEST, dtype="i32")
        self.o = racer.input((10, 2, 32), "i8", range=(-127, 127))
        self.s = racer.input((10, 2, 4), "f16", range=(0, 1))

    def program_a(self):
        k = racer.triton(kernel(f"{LL}.llama.triton_kernel.ppl_quant_copy_kv", "_fwd_kernel_destindex_copy_quantize_kv"),
                         BLOCK_GROUP_NUM=4, BLOCK_GROUP_DIM=8, num_warps=1, num_stages=1)
        racer.launch(k, grid=(4, 2), args=[racer.read(self.k), racer.read(self.dest), racer.readwrite(self.o),
                                           racer.readwrite(self.s), 64, 32, 8, 1, 64, 32, 8, 1, 8, 4, 1, 4])
        return {"o": self.o, "s": self.s}

    def program_b(self):
        racer.launch(ref(REF, "quant_copy_kv_f16"), grid=1, block=32,
                     args=[racer.read(self.k), racer.read(self.dest), racer.readwrite(self.o), racer.readwrite(self.s),
                           4, 2, 32, 8])
        return {"o": self.o, "s": self.s}


class LightllmQuantizeInt8PerRow(Row):
    """lightllm quantize_int8_perrow_kernel (common/basemodel/triton_kernel/quantize_gemm_int8.py,
    quantize_int8_perrow): a[4][48] f16 into int8 codes trunc(a / s) with s = max|a| / 127 in f32, the scale
    stored f16; BLOCK_SIZE_M 1, BLOCK_SIZE_K next_power_of_2(48) = 64, default 4 warps, grid (4,)"""

    def setup(self):
        self.a = racer.input((4, 48), "f16", range=(-4, 4))
        self.q = racer.empty((4, 48), "i8")
        self.s = racer.empty((4,), "f16")

    def program_a(self):
        k = racer.triton(kernel(f"{BASE}.quantize_gemm_int8", "quantize_int8_perrow_kernel"), BLOCK_SIZE_M=1,
                         BLOCK_SIZE_K=64, num_warps=4)
        racer.launch(k, grid=4, args=[racer.read(self.a), racer.write(self.q), racer.write(self.s), 4, 48, 48, 1,
                                      48, 1, 1])
        return {"q": self.q, "s": self.s}

    def program_b(self):
        racer.launch(ref(REF, "quant_perrow_f16"), grid=1, block=32,
                     args=[racer.read(self.a), racer.write(self.q), racer.write(self.s), 4, 48])
        return {"q": self.q, "s": self.s}


# ---- weight dequantization ----
class LightllmDequantizeInt8(Row):
    """lightllm dequantize_kernel (common/basemodel/triton_kernel/dequantize_gemm_int8.py, matmul_dequantize_int8):
    b[32][48] int8, per-column scales [48] f16, fp_b = b s in f16 (the GEMM itself is torch.mm); one config of
    its autotune list, BLOCK_SIZE_N 32, BLOCK_SIZE_K 32, num_warps 4, num_stages 4; grid (cdiv(32, 32),
    cdiv(48, 32)) = (1, 2)"""

    def setup(self):
        self.b = racer.input((32, 48), "i8", range=(-127, 127))
        self.s = racer.input((48,), "f16", range=(0, 1))
        self.o = racer.empty((32, 48), "f16")

    def program_a(self):
        k = racer.triton(kernel(f"{BASE}.dequantize_gemm_int8", "dequantize_kernel"), BLOCK_SIZE_N=32,
                         BLOCK_SIZE_K=32, num_warps=4, num_stages=4)
        racer.launch(k, grid=(1, 2), args=[racer.read(self.b), racer.read(self.s), racer.write(self.o), 32, 48, 48,
                                           1, 48, 1])
        return {"o": self.o}

    def program_b(self):
        racer.launch(ref(REF, "dequant_int8_f16"), grid=12, block=128,
                     args=[racer.read(self.b), racer.read(self.s), racer.write(self.o), 32, 48])
        return {"o": self.o}


def _int4_words(rows, cols, salt):
    """int32 words of eight 4-bit codes covering 0..15 (as signed int32)"""
    out = []
    for r in range(rows):
        row = []
        for c in range(cols):
            w = 0
            for j in range(8):
                w |= ((c + 3 * r + 5 * j + salt) % 16) << (4 * j)
            row.append(w - (1 << 32) if w >= 1 << 31 else w)
        out.append(row)
    return out


class _Int4:
    """lightllm matmul4_kernel (common/basemodel/triton_kernel/dequantize_gemm_int4.py, matmul_dequantize_int4_gptq,
    groupsize = K so NO_GROUPS): a[8][32] f16, qweight[4][64] int32 (K // 8 words of 8 codes per column, concrete),
    scales[1][64] f16, qzeros[1][8] int32 (concrete); w = q s - z s in f16, tl.dot in f32, c[8][64] f16; one
    config of its autotune list, BLOCK_SIZE_M 64, BLOCK_SIZE_N 64, BLOCK_SIZE_K 32, GROUP_SIZE_M 8, num_warps 4,
    num_stages 4 (the kernel requires N % BLOCK_SIZE_N == 0 and K % BLOCK_SIZE_K == 0), grid (1,)"""
    mutate = None

    def setup(self):
        self.a = racer.input((8, 32), "f16", range=(-2, 2))
        self.qw = racer.values(_int4_words(4, 64, 0), dtype="i32")
        self.s = racer.input((1, 64), "f16", range=(0, 0.25))
        self.qz = racer.values(_int4_words(1, 8, 7), dtype="i32")
        self.c = racer.empty((8, 64), "f16")

    def program_a(self):
        k = racer.triton(kernel(f"{BASE}.dequantize_gemm_int4", "matmul4_kernel", self.mutate), NO_GROUPS=True,
                         BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, BLOCK_SIZE_K=32, GROUP_SIZE_M=8, num_warps=4, num_stages=4)
        racer.launch(k, grid=1, args=[racer.read(self.a), racer.read(self.qw), racer.write(self.c), racer.read(self.s),
                                      racer.read(self.qz), 8, 64, 32, 32, 1, 64, 1, 64, 1, 64, 1, 8, 1, 32])
        return {"c": self.c}

    def program_b(self):
        racer.launch(ref(REF, "matmul_int4_f16"), grid=4, block=128,
                     args=[racer.read(self.a), racer.read(self.qw), racer.read(self.s), racer.read(self.qz),
                           racer.write(self.c), 8, 64, 32])
        return {"c": self.c}


class LightllmMatmulDequantInt4(_Int4, Row):
    """lightllm matmul_dequantize_int4_gptq: c = a (q - z) s with 4-bit codes unpacked from int32 words"""


class LightllmMatmulDequantInt4NoZeroMutant(_Int4, Mutation):
    """mutation: the zero point is not subtracted"""
    mutate = [("b = b * scales[None, :] - zeros[None, :]", "b = b * scales[None, :]")]


# ---- token attention (decode over a request-to-token slot table) ----
SLOTS = 40
R2T = [[(7 * i + 3) % SLOTS for i in range(32)], [(7 * i + 22) % SLOTS for i in range(32)]]
REQ = [1, 0]  # b_req_idx: sequence b uses row REQ[b] of the table
TLEN = [7, 12]  # b_seq_len
TSTART = [0, 7]  # b_start_loc into the packed score rows (19 in all)
TD = 16
SCALE16 = 1.0 / math.sqrt(TD)


class _TokenAtt:
    H, KVH = 2, 2

    def setup(self):
        self.q = racer.input((2, self.H, TD), "f32", range=(-1, 1))
        self.k = racer.input((SLOTS, self.KVH, TD), "f32", range=(-1, 1))
        self.v = racer.input((SLOTS, self.KVH, TD), "f32", range=(-2, 2))
        self.logits = racer.input((self.H, 19), "f32", range=(-3, 3))
        self.r2t = racer.values(R2T, dtype="i32")
        self.req = racer.values(REQ, dtype="i32")
        self.start = racer.values(TSTART, dtype="i32")
        self.len = racer.values(TLEN, dtype="i32")
        self.att = racer.empty((self.H, 19), "f32")
        self.o = racer.empty((2, self.H, TD), "f32")


class _Att1(_TokenAtt):
    """lightllm _fwd_kernel_token_att1 (models/llama/triton_kernel/token_attention_nopad_att1.py, token_att_fwd):
    q[2][2][16] f32, k cache [40 slots][2][16], req_to_tokens [2][32] and b_req_idx [1, 0], b_start_loc [0, 7],
    b_seq_len [7, 12] concrete; att_out[2 heads][19]; BLOCK 32, kv_group_num 1 so num_warps 4, num_stages 1,
    grid (2, 2, cdiv(12, 32)) = (2, 2, 1), sm_scale 1/4"""
    mutate = None

    def program_a(self):
        k = racer.triton(kernel(f"{LL}.llama.triton_kernel.token_attention_nopad_att1", "_fwd_kernel_token_att1",
                                self.mutate), BLOCK_DMODEL=TD, BLOCK_N=32, num_warps=4, num_stages=1)
        racer.launch(k, grid=(2, 2, 1), args=[racer.read(self.q), racer.read(self.k), SCALE16, racer.read(self.r2t),
                                              racer.read(self.req), racer.read(self.start), racer.read(self.len),
                                              racer.write(self.att), 32, 1, 2 * TD, TD, 1, 2 * TD, TD, 1, 19, 1, 1])
        return {"att": self.att}

    def program_b(self):
        racer.launch(ref(REF, "token_att1_f32"), grid=1, block=32,
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.r2t), racer.read(self.req),
                           racer.read(self.start), racer.read(self.len), racer.write(self.att), 2, 2, 2, TD, 32, 19,
                           SCALE16])
        return {"att": self.att}


class LightllmTokenAtt1(_Att1, Row):
    """lightllm token_att_fwd: att = q k^T / sqrt(d) per cached token"""


class LightllmTokenAtt1NoScaleMutant(_Att1, Mutation):
    """mutation: the scores miss sm_scale"""
    mutate = [("att_value *= sm_scale", "att_value *= 1.0")]


class _Softmax(_TokenAtt):
    """lightllm _fwd_kernel_token_softmax (models/llama/triton_kernel/token_attention_nopad_softmax.py,
    token_softmax_fwd): logics[2 heads][19] f32 (b_start_loc [0, 7], b_seq_len [7, 12]); BLOCK_SIZE
    next_power_of_2(12) = 16, num_warps 4, grid (2, 2)"""
    mutate = None

    def program_a(self):
        k = racer.triton(kernel(f"{LL}.llama.triton_kernel.token_attention_nopad_softmax", "_fwd_kernel_token_softmax",
                                self.mutate), BLOCK_SIZE=16, num_warps=4)
        racer.launch(k, grid=(2, 2), args=[racer.read(self.logits), racer.read(self.start), racer.read(self.len),
                                           racer.write(self.att), 19, 1, 19, 1])
        return {"att": self.att}

    def program_b(self):
        racer.launch(ref(REF, "token_softmax_f32"), grid=1, block=32,
                     args=[racer.read(self.logits), racer.read(self.start), racer.read(self.len),
                           racer.write(self.att), 2, 2, 19])
        return {"att": self.att}


class LightllmTokenSoftmax(_Softmax, Row):
    """lightllm token_softmax_fwd: softmax of each sequence's scores (with max subtraction)"""


class LightllmTokenSoftmaxPadMutant(_Softmax, Mutation):
    """mutation: the padding lanes load 0 instead of -inf (they join the denominator)"""
    mutate = [("other=-float('inf')", "other=0.0")]


class LightllmTokenReduceV(_TokenAtt, Row):
    """lightllm _fwd_kernel_token_att2 (models/llama/triton_kernel/token_attention_nopad_reduceV.py,
    token_att_fwd2): prob[2 heads][19] f32 (taken as given: any values), v cache [40][1][16] (GQA: kv_group_num
    2), out[2][2][16] = sum_n p_n v_n; BLOCK 128, num_warps 4, num_stages 1, grid (2, 2)"""
    KVH = 1

    def program_a(self):
        k = racer.triton(kernel(f"{LL}.llama.triton_kernel.token_attention_nopad_reduceV", "_fwd_kernel_token_att2"),
                         BLOCK_DMODEL=TD, BLOCK_N=128, num_warps=4, num_stages=1)
        racer.launch(k, grid=(2, 2), args=[racer.read(self.logits), racer.read(self.v), racer.write(self.o),
                                           racer.read(self.r2t), racer.read(self.req), racer.read(self.start),
                                           racer.read(self.len), 32, 1, 19, 1, TD, TD, 1, 2 * TD, TD, 1, 2])
        return {"o": self.o}

    def program_b(self):
        racer.launch(ref(REF, "token_reducev_f32"), grid=1, block=64,
                     args=[racer.read(self.logits), racer.read(self.v), racer.read(self.r2t), racer.read(self.req),
                           racer.read(self.start), racer.read(self.len), racer.write(self.o), 2, 2, 1, TD, 32, 19, 0])
        return {"o": self.o}


class _SoftmaxReduceV(_TokenAtt):
    """lightllm _fwd_kernel (models/llama/triton_kernel/token_attention_softmax_and_reducev.py,
    token_softmax_reducev_fwd): logics[2 heads][19] f32, v cache [40][1][16] (kv_group_num 2), online softmax
    fused with p v; other_kv_index 0; BLOCK 64, num_warps 1, num_stages 3, grid (2, 2)"""
    KVH = 1
    mutate = None

    def program_a(self):
        k = racer.triton(kernel(f"{LL}.llama.triton_kernel.token_attention_softmax_and_reducev", "_fwd_kernel",
                                self.mutate), BLOCK_DMODEL=TD, BLOCK_N=64, num_warps=1, num_stages=3)
        racer.launch(k, grid=(2, 2), args=[racer.read(self.logits), racer.read(self.v), racer.write(self.o),
                                           racer.read(self.r2t), racer.read(self.req), racer.read(self.start),
                                           racer.read(self.len), 19, 1, TD, TD, 1, 2 * TD, TD, 1, 32, 1, 0, 2])
        return {"o": self.o}

    def program_b(self):
        racer.launch(ref(REF, "token_reducev_f32"), grid=1, block=64,
                     args=[racer.read(self.logits), racer.read(self.v), racer.read(self.r2t), racer.read(self.req),
                           racer.read(self.start), racer.read(self.len), racer.write(self.o), 2, 2, 1, TD, 32, 19, 1])
        return {"o": self.o}


class LightllmTokenSoftmaxReduceV(_SoftmaxReduceV, Row):
    """lightllm token_softmax_reducev_fwd: softmax(scores) v per sequence and head, GQA 2:1"""


class LightllmTokenSoftmaxReduceVPadMutant(_SoftmaxReduceV, Mutation):
    """mutation: padding scores load 0 instead of -inf (the other_kv_index slot's v joins the sum)"""
    mutate = [('mask=start_n + offs_n < cur_batch_seq_len, other=float("-inf"))',
               'mask=start_n + offs_n < cur_batch_seq_len, other=0.0)')]


# ---- flash decoding (stage 1 per block of BLOCK_SEQ tokens, stage 2 merge) ----
FLEN = [7, 24]


class _FlashDecoding(_TokenAtt):
    """lightllm flash decoding (models/llama/triton_kernel/flash_decoding.py token_decode_attention_flash_decoding:
    flash_decoding_stage1.py _fwd_kernel_flash_decode_stage1, then flash_decoding_stage2.py
    _fwd_kernel_flash_decode_stage2): q[2][2][16] f32, k / v caches [40][1][16] (gqa_group_size 2), req_to_tokens
    [2][32] concrete, b_seq_len [7, 24]; BLOCK_SEQ scaled down from 256 to 16 so the 24-token sequence splits in
    two; mid_o [2][2][24 // 16 + 1][16], mid_o_logexpsum [2][2][2] f32; stage 1 BLOCK_N 16, num_warps 1,
    num_stages 2, grid (2, 2, cdiv(24, 16)) = (2, 2, 2); stage 2 num_warps 4, num_stages 2, grid (2, 2)"""
    KVH = 1
    mutate1 = mutate2 = None

    def setup(self):
        super().setup()
        self.len = racer.values(FLEN, dtype="i32")
        self.mo = racer.empty((2, 2, 2, TD), "f32")
        self.ml = racer.empty((2, 2, 2), "f32")

    def program_a(self):
        mo, ml = self.mo, self.ml
        k1 = racer.triton(kernel(f"{LL}.llama.triton_kernel.flash_decoding_stage1", "_fwd_kernel_flash_decode_stage1",
                                 self.mutate1), BLOCK_SEQ=16, BLOCK_DMODEL=TD, BLOCK_N=16, num_warps=1, num_stages=2)
        racer.launch(k1, grid=(2, 2, 2), args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), SCALE16,
                                               racer.read(self.r2t), racer.read(self.req), racer.read(self.len),
                                               racer.write(mo), racer.write(ml), 32, 1, 2 * TD, TD, 1, TD, TD, 1, TD,
                                               TD, 1, 4 * TD, 2 * TD, TD, 1, 4, 2, 1, 2])
        k2 = racer.triton(kernel(f"{LL}.llama.triton_kernel.flash_decoding_stage2", "_fwd_kernel_flash_decode_stage2",
                                 self.mutate2), BLOCK_SEQ=16, BLOCK_DMODEL=TD, num_warps=4, num_stages=2)
        racer.launch(k2, grid=(2, 2), args=[racer.read(self.len), racer.read(mo), racer.read(ml), racer.write(self.o),
                                            4 * TD, 2 * TD, TD, 1, 4, 2, 1, 2 * TD, TD, 1])
        return {"o": self.o}

    def program_b(self):
        racer.launch(ref(REF, "decode_attention_f32"), grid=1, block=64,
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.read(self.r2t),
                           racer.read(self.req), racer.read(self.len), racer.write(self.o), 2, 2, 1, TD, 32, SCALE16])
        return {"o": self.o}


class LightllmFlashDecoding(_FlashDecoding, Row):
    """lightllm flash decoding: softmax(q k^T / sqrt(d)) v, split over blocks of tokens and merged by log-sum-exp"""


class LightllmFlashDecodingLseMutant(_FlashDecoding, Mutation):
    """mutation: stage 1's block log-sum-exp drops the running max"""
    mutate1 = [("max_logic + tl.log(sum_exp)", "tl.log(sum_exp)")]


class LightllmFlashDecodingStage2NoRescaleMutant(_FlashDecoding, Mutation):
    """mutation: stage 2 forgets to rescale the accumulated output when a later block raises the max"""
    mutate2 = [("        acc *= old_scale\n", "        acc = acc\n")]


# ---- prefill attention ----
PLEN, PSTART, PT, PH, PKVH, PD = [12, 9], [0, 12], 21, 2, 1, 32
PSCALE = 1.0 / math.sqrt(PD)


class _Prefill:
    """lightllm _fwd_kernel_no_prompt_cache (models/llama/triton_kernel/context_flashattention_nopad.py,
    context_attention_fwd_no_prompt_cache): causal attention over 2 packed sequences of 12 and 9 tokens
    (b_start_loc, b_seq_len concrete), q [21][2][32], k, v [21][1][32] bf16 (kv_group_num 2), o bf16; BLOCK 128
    (not a Tesla GPU), num_warps 4 (Lk <= 64), num_stages 1, grid (2, 2, cdiv(12, 128)) = (2, 2, 1), sm_scale
    1/sqrt(32); p is normalized per block and cast to bf16 before its tl.dot with v"""
    mutate = None
    window = 0

    def setup(self):
        self.q = racer.input((PT, PH, PD), "bf16", range=(-1, 1))
        self.k = racer.input((PT, PKVH, PD), "bf16", range=(-1, 1))
        self.v = racer.input((PT, PKVH, PD), "bf16", range=(-2, 2))
        self.start = racer.values(PSTART, dtype="i32")
        self.len = racer.values(PLEN, dtype="i32")
        self.o = racer.empty((PT, PH, PD), "bf16")

    def _args(self):
        return [racer.read(self.q), racer.read(self.k), racer.read(self.v), PSCALE, racer.read(self.start),
                racer.read(self.len), racer.write(self.o), PH * PD, PD, 1, PKVH * PD, PD, 1, PKVH * PD, PD, 1,
                PH * PD, PD, 1, PH // PKVH]

    def program_a(self):
        k = racer.triton(kernel(f"{LL}.llama.triton_kernel.context_flashattention_nopad", "_fwd_kernel_no_prompt_cache",
                                self.mutate), BLOCK_M=128, BLOCK_DMODEL=PD, BLOCK_N=128, num_warps=4, num_stages=1)
        racer.launch(k, grid=(2, PH, 1), args=self._args())
        return {"o": self.o}

    def program_b(self):
        n = PT * PH * PD
        racer.launch(ref(REF, "prefill_attention_bf16"), grid=(n + 127) // 128, block=128,
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.read(self.start),
                           racer.read(self.len), racer.write(self.o), 2, PT, PH, PKVH, PD, PSCALE, self.window])
        return {"o": self.o}


class LightllmContextAttention(_Prefill, Row):
    """lightllm context_attention_fwd_no_prompt_cache: causal softmax(q k^T / sqrt(32)) v, GQA 2:1, bf16"""


class LightllmContextAttentionDiagMutant(_Prefill, Mutation):
    """mutation: the causal mask excludes the diagonal"""
    mutate = [('qk = tl.where(offs_m[:, None] >= (start_n + offs_n[None, :]), qk, float("-inf"))',
               'qk = tl.where(offs_m[:, None] > (start_n + offs_n[None, :]), qk, float("-inf"))')]


class _Sliding(_Prefill):
    """lightllm _fwd_kernel (models/mistral/triton_kernel/context_flashattention_nopad.py, context_attention_fwd):
    causal attention with a sliding window of 4 (key j seen by query i when i - 4 < j <= i), the same packed
    sequences and launch as the llama row (BLOCK 128, num_warps 4, grid (2, 2, 1)), bf16"""
    window = 4

    def program_a(self):
        k = racer.triton(kernel(f"{LL}.mistral.triton_kernel.context_flashattention_nopad", "_fwd_kernel", self.mutate),
                         BLOCK_M=128, BLOCK_DMODEL=PD, BLOCK_N=128, num_warps=4, num_stages=1)
        racer.launch(k, grid=(2, PH, 1), args=self._args() + [self.window])
        return {"o": self.o}


class LightllmMistralSlidingWindow(_Sliding, Row):
    """lightllm mistral context_attention_fwd: sliding-window causal attention"""


class LightllmMistralSlidingWindowOffByOneMutant(_Sliding, Mutation):
    """mutation: the window keeps one key too many (>= for >)"""
    mutate = [("(start_n + offs_n[None, :]) > (offs_m[:, None] - sliding_window)",
               "(start_n + offs_n[None, :]) >= (offs_m[:, None] - sliding_window)")]


# ALiBi: 2 requests of 10 tokens (3 already cached) and 7 tokens (none cached): 7 + 7 new queries.
AL_LEN, AL_READY, AL_START, AL_T, AL_H, AL_D = [10, 7], [3, 0], [0, 7], 14, 2, 16


class _Alibi:
    """lightllm _fwd_kernel (models/bloom/triton_kernel/context_flashattention_nopad.py, context_attention_fwd):
    ALiBi causal prefill with a prompt cache: b_seq_len [10, 7], b_ready_cache_len [3, 0], the 14 new queries
    q[14][2][16] bf16 packed by b_start_loc [0, 7]; k, v caches [40][2][16] bf16 read through req_to_tokens [2][32]
    (b_req_idx [1, 0]); slopes [2] f32; score = q k / 4 - slope (i - j); BLOCK 128, num_warps 4, num_stages 1,
    grid (2, 2, cdiv(7, 128)) = (2, 2, 1). The kernel masks future keys with -1e7 (not -inf)"""
    mutate = None

    def setup(self):
        self.q = racer.input((AL_T, AL_H, AL_D), "bf16", range=(-1, 1))
        self.k = racer.input((SLOTS, AL_H, AL_D), "bf16", range=(-1, 1))
        self.v = racer.input((SLOTS, AL_H, AL_D), "bf16", range=(-2, 2))
        self.slope = racer.input((AL_H,), "f32", range=(0.0625, 0.5))
        self.start = racer.values(AL_START, dtype="i32")
        self.len = racer.values(AL_LEN, dtype="i32")
        self.ready = racer.values(AL_READY, dtype="i32")
        self.r2t = racer.values(R2T, dtype="i32")
        self.req = racer.values(REQ, dtype="i32")
        self.o = racer.empty((AL_T, AL_H, AL_D), "bf16")

    def program_a(self):
        H, D = AL_H, AL_D
        k = racer.triton(kernel(f"{LL}.bloom.triton_kernel.context_flashattention_nopad", "_fwd_kernel", self.mutate),
                         BLOCK_M=128, BLOCK_DMODEL=D, BLOCK_N=128, num_warps=4, num_stages=1)
        racer.launch(k, grid=(2, H, 1), args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), 0.25,
                                              racer.read(self.slope), racer.read(self.start), racer.read(self.len),
                                              racer.write(self.o), racer.read(self.r2t), racer.read(self.req),
                                              H * D, D, 1, H * D, D, 1, H * D, D, 1, H * D, D, 1, 32, 1,
                                              racer.read(self.ready)])
        return {"o": self.o}

    def program_b(self):
        n = AL_T * AL_H * AL_D
        racer.launch(ref(REF, "alibi_prefill_bf16"), grid=(n + 127) // 128, block=128,
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.read(self.slope),
                           racer.read(self.start), racer.read(self.len), racer.read(self.ready), racer.read(self.r2t),
                           racer.read(self.req), racer.write(self.o), 2, AL_T, AL_H, AL_D, 32, 0.25])
        return {"o": self.o}


class LightllmBloomAlibiAttention(_Alibi, Row):
    """lightllm bloom context_attention_fwd: causal ALiBi attention, softmax(q k^T / 4 - slope (i - j)) v"""


class LightllmBloomAlibiSignMutant(_Alibi, Mutation):
    """mutation: the ALiBi bias is added instead of subtracted (far keys favoured)"""
    mutate = [("qk -= alibi_loc * alibi_m", "qk += alibi_loc * alibi_m")]
