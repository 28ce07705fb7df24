"""lmdeploy 0.18.0: its elementwise, norm, rotary, KV-cache and quantization Triton kernels
(lmdeploy/pytorch/kernels/cuda/: rms_norm, activation, apply_rotary_pos_emb, fill_kv_cache, flatten_kv_cache,
copy_cache, w8a8_triton_kernels, gated_delta_preprocess, blocked_gemm_fp8's quantizer), against
reference/lmdeploy_ops.cu. Each launched with the
constexprs, grid and warps lmdeploy's host wrapper picks for the shape (on an sm_90 GPU: 132 SMs, get_device_props'
64 warps and 32 blocks per SM)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

CUDA = "lmdeploy.pytorch.kernels.cuda"
REF = "lmdeploy_ops.cu"


# ---- RMSNorm (rms_norm.py) ----
class _RmsNorm:
    """lmdeploy add_rms_norm_kernel (pytorch/kernels/cuda/rms_norm.py, rms_norm without residual): x[2][3][64] f32
    (3-D: per-head norm, head_dim 64), w[64], eps 1e-6; num_feats 6, num_groups 3; BLOCK_N next_power_of_2(64) = 64,
    num_warps min(cdiv(64, 2048), 4) = 1, NUM_STAGES 1, grid (min(6, 132 x min(32, 64 // 1)),) = (6,); residual and
    out_residual are hidden_states and out (unused: has_residual False). The mean multiplies by float(1 / N_COLS):
    exact for 64 (at 48 the f32 rounding of 1/48 makes the row `rounding`)"""
    mutate = None
    inside = None

    def setup(self):
        self.x = racer.input((2, 3, 64), "f32", range=(-4, 4))
        self.w = racer.input((64,), "f32", range=(-2, 2))
        self.y = racer.empty((2, 3, 64), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{CUDA}.rms_norm", "add_rms_norm_kernel", self.mutate, inside=self.inside),
                         stride_id=1, stride_rd=1, stride_od=1, stride_rod=1, has_residual=False, eps=1e-6,
                         N_COLS=64, BLOCK_N=64, NUM_STAGES=1, num_warps=1, num_stages=1)
        racer.launch(k, grid=6, args=[racer.read(self.x), racer.read(self.w), racer.read(self.x), racer.write(self.y),
                                      racer.write(self.y), 6, 3, 192, 64, 192, 64, 192, 64, 192, 64])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref(REF, "rms_norm_f32"), grid=1, block=32,
                     args=[racer.read(self.x), racer.read(self.w), racer.write(self.y), 6, 64, 1e-6])
        return {"y": self.y}


class LmdeployRmsNorm(_RmsNorm, Row):
    """lmdeploy rms_norm: y = w x / sqrt(mean(x^2) + eps) per head vector"""


class LmdeployRmsNormMeanDenominatorMutant(_RmsNorm, Mutation):
    """mutation: the mean of squares divides by N_COLS - 1"""
    inside = "_compute_rms_norm"
    mutate = [("float(1.0 / N_COLS)", "float(1.0 / (N_COLS - 1))")]


class LmdeployAddRmsNormBf16(Row):
    """lmdeploy add_rms_norm_kernel (rms_norm.py, rms_norm with residual): x, residual [4][64] bf16 (unsqueezed to
    [1][4][64]: num_feats 4, num_groups 4), w[64] bf16, eps 1e-6; h = bf16(x + r) stored to out_residual,
    y = bf16(w (h / rms)); BLOCK_N 64, 1 warp, NUM_STAGES 1, grid (4,)"""

    def setup(self):
        self.x = racer.input((4, 64), "bf16", range=(-4, 4))
        self.r = racer.input((4, 64), "bf16", range=(-4, 4))
        self.w = racer.input((64,), "bf16", range=(-2, 2))
        self.y = racer.empty((4, 64), "bf16")
        self.h = racer.empty((4, 64), "bf16")

    def program_a(self):
        k = racer.triton(kernel(f"{CUDA}.rms_norm", "add_rms_norm_kernel"), stride_id=1, stride_rd=1, stride_od=1,
                         stride_rod=1, has_residual=True, eps=1e-6, N_COLS=64, BLOCK_N=64, NUM_STAGES=1, num_warps=1,
                         num_stages=1)
        racer.launch(k, grid=4, args=[racer.read(self.x), racer.read(self.w), racer.read(self.r), racer.write(self.y),
                                      racer.write(self.h), 4, 4, 256, 64, 256, 64, 256, 64, 256, 64])
        return {"y": self.y, "h": self.h}

    def program_b(self):
        racer.launch(ref(REF, "add_rms_norm_bf16"), grid=1, block=32,
                     args=[racer.read(self.x), racer.read(self.w), racer.read(self.r), racer.write(self.h),
                           racer.write(self.y), 4, 64, 1e-6])
        return {"y": self.y, "h": self.h}


# ---- SiLU and mul (activation.py) ----
class _SiluMul:
    """lmdeploy _silu_and_mul_kernel (pytorch/kernels/cuda/activation.py, silu_and_mul): gate_up[4][96] bf16
    (N = 48), out[4][48]; out = bf16(bf16(g / (1 + e^-g)) u); BLOCK_SIZE_N min(next_power_of_2(48), 512) = 64 (a
    masked block: 48 % 64 != 0), num_warps 4, num_stages 1, grid (cdiv(48, 64), min(4, 132 x 64 // 4)) = (1, 4)"""
    mutate = None

    def setup(self):
        self.x = racer.input((4, 96), "bf16", range=(-6, 6))
        self.y = racer.empty((4, 48), "bf16")

    def program_a(self):
        k = racer.triton(kernel(f"{CUDA}.activation", "_silu_and_mul_kernel", self.mutate), N=48, stride_gum=96,
                         stride_gun=1, stride_om=48, stride_on=1, BLOCK_SIZE_N=64, num_warps=4, num_stages=1)
        racer.launch(k, grid=(1, 4), args=[racer.read(self.x), racer.write(self.y), 4])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref(REF, "silu_and_mul_bf16"), grid=2, block=96,
                     args=[racer.read(self.x), racer.write(self.y), None, 4, 4, 48, 96])
        return {"y": self.y}


class LmdeploySiluAndMul(_SiluMul, Row):
    """lmdeploy silu_and_mul: out = silu(gate) up"""


class LmdeploySiluAndMulSignMutant(_SiluMul, Mutation):
    """mutation: the sigmoid's exponent loses its sign (g / (1 + e^g))"""
    mutate = [("gate = gate / (1 + fast_expf(-gate))", "gate = gate / (1 + fast_expf(gate))")]


MOE_COUNTS = [3, 1]  # tokens routed to each of the 2 experts (masked_m)


class _SiluMulMoe:
    """lmdeploy _silu_and_mul_moe_ep_kernel (activation.py, silu_and_mul_moe_ep): gate_up[2 experts][4][64] bf16
    (N = 32), mask_m [3, 1] i32; rows m >= mask_m[e] are not written (out starts as given); BLOCK_SIZE_N 32,
    num_warps 4, grid (cdiv(32, 32), 2, min(4, cdiv(132 x 64 // 4, 1 x 2))) = (1, 2, 4)"""
    mutate = None

    def setup(self):
        self.x = racer.input((2, 4, 64), "bf16", range=(-6, 6))
        self.m = racer.values(MOE_COUNTS, dtype="i32")
        self.y = racer.input((2, 4, 32), "bf16", range=(-1, 1))

    def program_a(self):
        k = racer.triton(kernel(f"{CUDA}.activation", "_silu_and_mul_moe_ep_kernel", self.mutate), N=32, M=4,
                         stride_gue=256, stride_gum=64, stride_gun=1, stride_oe=128, stride_om=32, stride_on=1,
                         stride_m=1, BLOCK_SIZE_N=32, num_warps=4, num_stages=1)
        racer.launch(k, grid=(1, 2, 4), args=[racer.read(self.x), racer.readwrite(self.y), racer.read(self.m)])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref(REF, "silu_and_mul_bf16"), grid=1, block=256,
                     args=[racer.read(self.x), racer.readwrite(self.y), racer.read(self.m), 8, 4, 32, 64])
        return {"y": self.y}


class LmdeploySiluAndMulMoeEp(_SiluMulMoe, Row):
    """lmdeploy silu_and_mul_moe_ep: silu(gate) up for the first mask_m[e] tokens of each expert"""


class LmdeploySiluAndMulMoeEpUnmaskedMutant(_SiluMulMoe, Mutation):
    """mutation: the token loop runs to M, ignoring the expert's token count"""
    mutate = [("for _ in tl.range(m_id_start, mask_m, m_id_stride):", "for _ in tl.range(m_id_start, M, m_id_stride):")]


# ---- rotary embedding (apply_rotary_pos_emb.py) ----
class _Rotary:
    """lmdeploy apply_rotary_pos_emb_qk_kernel (pytorch/kernels/cuda/apply_rotary_pos_emb.py,
    apply_rotary_pos_emb, rotate-half mode): q[8][2][32], k[8][1][32] f32, cos / sin [8][32] f32; half_size 16,
    BLOCK_N 16, num_warps 2, BLOCK = 64 threads x (16 // 4) // 16 = 16 (positions wrap by % seq_len, stores
    masked), BLOCK_QH 2, grid (2 + 1, cdiv(8, 16)) = (3, 1), num_stages 1"""
    mutate = None
    inside = None
    dtype, cplx, S, D, BLOCK = "f32", False, 8, 32, 16

    def setup(self):
        cw = self.D // 2 if self.cplx else self.D
        self.q = racer.input((self.S, 2, self.D), self.dtype, range=(-4, 4))
        self.k = racer.input((self.S, 1, self.D), self.dtype, range=(-4, 4))
        self.cos = racer.input((self.S, cw), "f32", range=(-1, 1))
        self.sin = racer.input((self.S, cw), "f32", range=(-1, 1))
        self.qe = racer.empty((self.S, 2, self.D), self.dtype)
        self.ke = racer.empty((self.S, 1, self.D), self.dtype)

    def program_a(self):
        D, S = self.D, self.S
        k = racer.triton(kernel(f"{CUDA}.apply_rotary_pos_emb", "apply_rotary_pos_emb_qk_kernel", self.mutate,
                                inside=self.inside),
                         stride_qs=2 * D, stride_qh=D, stride_qd=1, stride_ks=D, stride_kh=D, stride_kd=1,
                         stride_qes=2 * D, stride_qeh=D, stride_qed=1, stride_kes=D, stride_keh=D, stride_ked=1,
                         half_size=D // 2, BLOCK=self.BLOCK, BLOCK_QH=2, BLOCK_N=D // 2, COMPLEX=self.cplx,
                         num_warps=2, num_stages=1)
        racer.launch(k, grid=(3, (S + self.BLOCK - 1) // self.BLOCK),
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.cos), racer.read(self.sin),
                           racer.write(self.qe), racer.write(self.ke), S])
        return {"qe": self.qe, "ke": self.ke}

    def program_b(self):
        entry = "rotary_bf16" if self.dtype == "bf16" else "rotary_f32"
        for x, y, h in ((self.q, self.qe, 2), (self.k, self.ke, 1)):
            racer.launch(ref(REF, entry), grid=1, block=256,
                         args=[racer.read(x), racer.read(self.cos), racer.read(self.sin), racer.write(y), self.S, h,
                               self.D, int(self.cplx)])
        return {"qe": self.qe, "ke": self.ke}


class LmdeployRotary(_Rotary, Row):
    """lmdeploy apply_rotary_pos_emb, rotate-half: (x_l, x_h) -> (x_l c - x_h s, x_h c + x_l s)"""


class LmdeployRotaryComplexBf16(_Rotary, Row):
    """lmdeploy apply_rotary_pos_emb_qk_kernel (apply_rotary_pos_emb.py, complex_mode=True): q[8][2][32],
    k[8][1][32] bf16, cos / sin [8][16] f32 (rounded to bf16 in the kernel); pairs (2i, 2i+1), half_size 16,
    BLOCK_N 16, 2 warps, BLOCK = 64 x (16 // 2) // 16 = 32, grid (3, cdiv(8, 32)) = (3, 1); products and sums
    in bf16"""
    dtype, cplx, BLOCK = "bf16", True, 32


class LmdeployRotarySignMutant(_Rotary, Mutation):
    """mutation: the rotation's signs swapped (x_l c + x_h s, x_h c - x_l s: the inverse rotation)"""
    inside = "_apply_rotary_impl"
    mutate = [("return x_l_new0 - x_l_new1, x_h_new0 + x_h_new1", "return x_l_new0 + x_l_new1, x_h_new0 - x_h_new1")]


# ---- paged KV-cache fill (fill_kv_cache.py) ----
# 2 sequences in a packed prefill batch: 3 new tokens after 2 cached ones, and 5 new tokens; pages of 4 rows.
T, H, D, BS, PAGES = 8, 2, 16, 4, 6
STARTS, QLENS, KVLENS = [0, 3], [3, 5], [5, 5]
BOFFS = [[1, 4, 5], [2, 3, 0]]  # cdiv(max_q_seq_length 5, 4) + 1 = 3 block slots per sequence


class _FillKv:
    """lmdeploy _fill_kv_cache_kernel (pytorch/kernels/cuda/fill_kv_cache.py, fill_kv_cache, QuantPolicy.NONE,
    'bshd'): k, v states [8 tokens][2 heads][16] f32 of two sequences (q_start_loc [0, 3], q_seq_length [3, 5],
    kv_seq_length [5, 5]) into caches [6 pages][4][2][16], block_offsets [[1, 4, 5], [2, 3, 0]]; max_num_blocks
    cdiv(5, 4) + 1 = 3, is_decoding False, BLOCK 4, BLOCK_D = BLOCK_DV = 16, grid (2, 3, 2), 4 warps, 3 stages"""
    mutate = None
    # tokens, q_start_loc, q_seq_length, kv_seq_length, block_offsets, max_num_blocks, is_decoding, and the
    # reference's grid and block
    batch = (T, STARTS, QLENS, KVLENS, BOFFS, 3, False, (2, 256))

    def setup(self):
        tokens, starts, qlens, kvlens, boffs = self.batch[:5]
        self.k = racer.input((tokens, H, D), "f32", range=(-4, 4))
        self.v = racer.input((tokens, H, D), "f32", range=(-4, 4))
        self.kc = racer.input((PAGES, BS, H, D), "f32", range=(-4, 4))
        self.vc = racer.input((PAGES, BS, H, D), "f32", range=(-4, 4))
        self.start = racer.values(starts, dtype="i32")
        self.qlen = racer.values(qlens, dtype="i32")
        self.kvlen = racer.values(kvlens, dtype="i32")
        self.boff = racer.values(boffs, dtype="i32")

    def _tensors(self):
        return [racer.read(self.k), racer.read(self.v), racer.readwrite(self.kc), racer.readwrite(self.vc),
                racer.read(self.start), racer.read(self.qlen), racer.read(self.kvlen), racer.read(self.boff)]

    def program_a(self):
        _, starts, _, _, boffs, blocks, decoding, _ = self.batch
        k = racer.triton(kernel(f"{CUDA}.fill_kv_cache", "_fill_kv_cache_kernel", self.mutate), is_decoding=decoding,
                         head_dim=D, head_dim_v=D, stride_kcn=BS * H * D, stride_kcb=H * D, stride_kch=D,
                         stride_kcd=1, stride_vcn=BS * H * D, stride_vcb=H * D, stride_vch=D, stride_vcd=1, BLOCK=BS,
                         BLOCK_D=D, BLOCK_DV=D, num_warps=4, num_stages=3)
        racer.launch(k, grid=(H, blocks, len(starts)), args=self._tensors() + [H * D, D, 1, H * D, D, 1, len(boffs[0])])
        return {"kc": self.kc, "vc": self.vc}

    def program_b(self):
        tokens, starts, _, _, boffs, _, _, (grid, block) = self.batch
        racer.launch(ref(REF, "fill_kv"), grid=grid, block=block,
                     args=self._tensors() + [len(starts), len(boffs[0]), tokens, H, D, BS])
        return {"kc": self.kc, "vc": self.vc}


class LmdeployFillKvCache(_FillKv, Row):
    """lmdeploy fill_kv_cache (prefill): each new token's k / v copied to its page row"""


class LmdeployFillKvCacheFirstTokenMutant(_FillKv, Mutation):
    """mutation: the page mask starts one past the cached history (`>` for `>=`): a sequence's first new token
    is not written"""
    mutate = [("kv_mask = (kv_offs >= history_seqlen) & (kv_offs < kv_seqlen)",
               "kv_mask = (kv_offs > history_seqlen) & (kv_offs < kv_seqlen)")]


DEC_KVLENS = [5, 1, 8]
DEC_BOFFS = [[0, 2], [1, 5], [3, 4]]


class LmdeployFillKvCacheDecode(_FillKv, Row):
    """lmdeploy _fill_kv_cache_kernel (fill_kv_cache.py, fill_kv_cache with max_q_seq_length 1): 3 decoding
    sequences of one new token each (q_start_loc [0, 1, 2], kv_seq_length [5, 1, 8]), k, v [3][2][16] f32 into
    caches [6][4][2][16], block_offsets [3][2]; max_num_blocks 1, is_decoding True, BLOCK 4, BLOCK_D 16, grid
    (2, 1, 3), 4 warps, 3 stages"""
    batch = (3, [0, 1, 2], [1, 1, 1], DEC_KVLENS, DEC_BOFFS, 1, True, (1, 96))


class _FillKvQuant:
    """lmdeploy _fill_kv_cache_quant_kernel (fill_kv_cache.py, fill_kv_cache with QuantPolicy.INT8): the prefill
    batch of LmdeployFillKvCache, k, v [8][2][16] f32 quantized per token and head into u8 caches [6][4][2][16]
    with (scale, zero) f32 [6][4][2][2]: scale = (max - min) / 255, zero = -min / scale, q = u8(x / scale + zero +
    0.5); quant_policy 8, BLOCK 4, BLOCK_D = BLOCK_DV = 16, grid (2, 3, 2), 4 warps, 3 stages (centroid and
    boundary pointers: the wrapper's unused 1-element buffers)"""
    mutate = None
    inside = None
    bits = 8

    def setup(self):
        cd = D if self.bits == 8 else D // 2  # the cache's (packed) head dim
        self.cd = cd
        self.k = racer.input((T, H, D), "f32", range=(-4, 4))
        self.v = racer.input((T, H, D), "f32", range=(-4, 4))
        self.kc = racer.zeros((PAGES, BS, H, cd), "u8")
        self.vc = racer.zeros((PAGES, BS, H, cd), "u8")
        self.ksz = racer.zeros((PAGES, BS, H, 2), "f32")
        self.vsz = racer.zeros((PAGES, BS, H, 2), "f32")
        self.dummy = racer.zeros((1,), "f32")
        self.start = racer.values(STARTS, dtype="i32")
        self.qlen = racer.values(QLENS, dtype="i32")
        self.kvlen = racer.values(KVLENS, dtype="i32")
        self.boff = racer.values(BOFFS, dtype="i32")

    def program_a(self):
        cd = self.cd
        cs = dict(stride_kcn=BS * H * cd, stride_kcb=H * cd, stride_kch=cd, stride_kcd=1, stride_vcn=BS * H * cd,
                  stride_vcb=H * cd, stride_vch=cd, stride_vcd=1, stride_kszn=BS * H * 2, stride_kszb=H * 2,
                  stride_kszh=2, stride_kszd=1, stride_vszn=BS * H * 2, stride_vszb=H * 2, stride_vszh=2,
                  stride_vszd=1)
        k = racer.triton(kernel(f"{CUDA}.fill_kv_cache", "_fill_kv_cache_quant_kernel", self.mutate,
                                inside=self.inside),
                         is_decoding=False, head_dim=cd, head_dim_v=cd, quant_policy=self.bits, BLOCK=BS, BLOCK_D=cd,
                         BLOCK_DV=cd, num_warps=4, num_stages=3, **cs)
        racer.launch(k, grid=(H, 3, 2),
                     args=[racer.read(self.k), racer.read(self.v), racer.write(self.kc), racer.write(self.vc),
                           racer.write(self.ksz), racer.write(self.vsz), racer.read(self.dummy),
                           racer.read(self.dummy), racer.read(self.dummy), racer.read(self.dummy),
                           racer.read(self.start), racer.read(self.qlen), racer.read(self.kvlen),
                           racer.read(self.boff), H * D, D, 1, H * D, D, 1, 3])
        return {"kc": self.kc, "vc": self.vc, "ksz": self.ksz, "vsz": self.vsz}

    def program_b(self):
        racer.launch(ref(REF, "fill_kv_quant"), grid=1, block=T * H,
                     args=[racer.read(self.k), racer.read(self.v), racer.write(self.kc), racer.write(self.vc),
                           racer.write(self.ksz), racer.write(self.vsz), racer.read(self.start),
                           racer.read(self.qlen), racer.read(self.kvlen), racer.read(self.boff), 2, 3, T, H, self.cd,
                           BS, self.bits])
        return {"kc": self.kc, "vc": self.vc, "ksz": self.ksz, "vsz": self.vsz}


class LmdeployFillKvCacheInt8(_FillKvQuant, Row):
    """lmdeploy fill_kv_cache, int8: asymmetric 8-bit quantization per token and head"""


class LmdeployFillKvCacheInt8ZeroSignMutant(_FillKvQuant, Mutation):
    """mutation: the zero point loses its sign (zero = min / scale)"""
    inside = "_quant_int8"
    mutate = [("zeros = -val_min / scales", "zeros = val_min / scales")]


class LmdeployFillKvCacheInt4(_FillKvQuant, Row):
    """lmdeploy _fill_kv_cache_quant_kernel (fill_kv_cache.py, QuantPolicy.INT4): as the int8 row, scale = (max -
    min) / 15 over the 16 channels, channel j and j + 8 packed as low | high nibble into u8 caches [6][4][2][8];
    head_dim 8 (the cache's packed dim), BLOCK_D = BLOCK_DV = 8, grid (2, 3, 2), 4 warps, 3 stages"""
    bits = 4


class LmdeployFillKvCacheFp8(Row):
    """lmdeploy _fill_kv_cache_fp8_scalar_kernel (fill_kv_cache.py, fill_kv_cache with QuantPolicy.FP8): the
    prefill batch of LmdeployFillKvCache, k, v [8][2][16] bf16 into e4m3 caches [6][4][2][16] as
    e4m3(clamp(x / scale, -448, 448)) with per-tensor scales; fp8_min / fp8_max torch.finfo(float8_e4m3fn)'s,
    BLOCK 4, BLOCK_D = BLOCK_DV = 16, grid (2, 3, 2), 4 warps, 3 stages"""

    def setup(self):
        self.k = racer.input((T, H, D), "bf16", range=(-8, 8))
        self.v = racer.input((T, H, D), "bf16", range=(-8, 8))
        self.kc = racer.zeros((PAGES, BS, H, D), "fp8e4m3")
        self.vc = racer.zeros((PAGES, BS, H, D), "fp8e4m3")
        self.ks = racer.input((1,), "f32", range=(0.01, 1))
        self.vs = racer.input((1,), "f32", range=(0.01, 1))
        self.start = racer.values(STARTS, dtype="i32")
        self.qlen = racer.values(QLENS, dtype="i32")
        self.kvlen = racer.values(KVLENS, dtype="i32")
        self.boff = racer.values(BOFFS, dtype="i32")

    def program_a(self):
        k = racer.triton(kernel(f"{CUDA}.fill_kv_cache", "_fill_kv_cache_fp8_scalar_kernel"), fp8_min=-448.0,
                         fp8_max=448.0, is_decoding=False, head_dim=D, head_dim_v=D, stride_kcn=BS * H * D,
                         stride_kcb=H * D, stride_kch=D, stride_kcd=1, stride_vcn=BS * H * D, stride_vcb=H * D,
                         stride_vch=D, stride_vcd=1, BLOCK=BS, BLOCK_D=D, BLOCK_DV=D, num_warps=4, num_stages=3)
        racer.launch(k, grid=(H, 3, 2),
                     args=[racer.read(self.k), racer.read(self.v), racer.write(self.kc), racer.write(self.vc),
                           racer.read(self.ks), racer.read(self.vs), racer.read(self.start), racer.read(self.qlen),
                           racer.read(self.kvlen), racer.read(self.boff), H * D, D, 1, H * D, D, 1, 3])
        return {"kc": self.kc, "vc": self.vc}

    def program_b(self):
        racer.launch(ref(REF, "fill_kv_fp8"), grid=1, block=T * H * D,
                     args=[racer.read(self.k), racer.read(self.v), racer.write(self.kc), racer.write(self.vc),
                           racer.read(self.ks), racer.read(self.vs), racer.read(self.start), racer.read(self.qlen),
                           racer.read(self.kvlen), racer.read(self.boff), 2, 3, T, H, D, BS])
        return {"kc": self.kc, "vc": self.vc}


# ---- flattening a paged cache (flatten_kv_cache.py) ----
FL_LENS, FL_STARTS, FL_BOFFS, FL_OUT = [5, 3], [0, 5], [[1, 4], [2, 0]], 10


class _Flatten:
    """lmdeploy _flatten_kv_cache (pytorch/kernels/cuda/flatten_kv_cache.py, flatten_kv_cache, QuantPolicy.NONE,
    'bshd' -> 'hsd'): caches [6 pages][4][2 heads][16] f32, seqlens [5, 3], start_loc [0, 5], block_offsets
    [[1, 4], [2, 0]], out_size 10 (the extra tail batch zero-fills rows 8, 9) into k, v [2][10][16];
    BLOCK_BS 4, BLOCK_DK = BLOCK_DV = 16, grid (max(2, 2), 2 + 1, 2), default 4 warps"""
    mutate = None

    def setup(self):
        self.kc = racer.input((PAGES, BS, H, D), "f32", range=(-4, 4))
        self.vc = racer.input((PAGES, BS, H, D), "f32", range=(-4, 4))
        self.ko = racer.empty((H, FL_OUT, D), "f32")
        self.vo = racer.empty((H, FL_OUT, D), "f32")
        self.start = racer.values(FL_STARTS, dtype="i32")
        self.lens = racer.values(FL_LENS, dtype="i32")
        self.boff = racer.values(FL_BOFFS, dtype="i32")

    def program_a(self):
        k = racer.triton(kernel(f"{CUDA}.flatten_kv_cache", "_flatten_kv_cache", self.mutate),
                         stride_kcb=BS * H * D, stride_kcs=H * D, stride_kch=D, stride_kcd=1, stride_vcb=BS * H * D,
                         stride_vcs=H * D, stride_vch=D, stride_vcd=1, stride_kos=D, stride_kod=1, stride_vos=D,
                         stride_vod=1, HEAD_DIM_K=D, HEAD_DIM_V=D, BLOCK_BS=BS, BLOCK_DK=D, BLOCK_DV=D)
        racer.launch(k, grid=(2, 3, H),
                     args=[racer.read(self.kc), racer.read(self.vc), racer.write(self.ko), racer.write(self.vo),
                           racer.read(self.start), racer.read(self.lens), racer.read(self.boff), FL_OUT * D,
                           FL_OUT * D, 2, FL_OUT])
        return {"ko": self.ko, "vo": self.vo}

    def program_b(self):
        racer.launch(ref(REF, "flatten_kv"), grid=2, block=160,
                     args=[racer.read(self.kc), racer.read(self.vc), racer.write(self.ko), racer.write(self.vo),
                           racer.read(self.start), racer.read(self.lens), racer.read(self.boff), 2, 2, FL_OUT, H, D,
                           BS])
        return {"ko": self.ko, "vo": self.vo}


class LmdeployFlattenKvCache(_Flatten, Row):
    """lmdeploy flatten_kv_cache: each sequence's pages gathered into contiguous rows, the tail zeroed"""


class _FlattenInt8:
    """lmdeploy _flatten_kv_cache_quant (flatten_kv_cache.py, flatten_kv_cache with QuantPolicy.INT8, out_dtype
    f32): the layout of LmdeployFlattenKvCache, u8 caches [6][4][2][16] with (scale, zero) f32 [6][4][2][2],
    out = q scale - scale zero; quant_policy 8, BLOCK_BS 4, BLOCK_DK = BLOCK_DV = 16, grid (2, 3, 2), 4 warps
    (codebook pointers: the wrapper's unused 1-element buffers)"""
    mutate = None
    bits = 8

    def setup(self):
        cd = D if self.bits == 8 else D // 2  # the cache's (packed) head dim
        self.kc = racer.input((PAGES, BS, H, cd), "u8")
        self.vc = racer.input((PAGES, BS, H, cd), "u8")
        self.ksz = racer.input((PAGES, BS, H, 2), "f32", range=(-4, 4))
        self.vsz = racer.input((PAGES, BS, H, 2), "f32", range=(-4, 4))
        self.dummy = racer.zeros((1,), "f32")
        self.ko = racer.empty((H, FL_OUT, D), "f32")
        self.vo = racer.empty((H, FL_OUT, D), "f32")
        self.start = racer.values(FL_STARTS, dtype="i32")
        self.lens = racer.values(FL_LENS, dtype="i32")
        self.boff = racer.values(FL_BOFFS, dtype="i32")

    def program_a(self):
        cd = D if self.bits == 8 else D // 2
        k = racer.triton(kernel(f"{CUDA}.flatten_kv_cache", "_flatten_kv_cache_quant", self.mutate),
                         stride_kcb=BS * H * cd, stride_kcs=H * cd, stride_kch=cd, stride_kcd=1,
                         stride_vcb=BS * H * cd, stride_vcs=H * cd, stride_vch=cd, stride_vcd=1,
                         stride_kszb=BS * H * 2, stride_kszs=H * 2, stride_kszh=2, stride_kszd=1,
                         stride_vszb=BS * H * 2, stride_vszs=H * 2, stride_vszh=2, stride_vszd=1, stride_kos=D,
                         stride_kod=1, stride_vos=D, stride_vod=1, quant_policy=self.bits,
                         HEAD_DIM_K=D, HEAD_DIM_V=D, BLOCK_BS=BS, BLOCK_DK=D, BLOCK_DV=D)
        racer.launch(k, grid=(2, 3, H),
                     args=[racer.read(self.kc), racer.read(self.vc), racer.write(self.ko), racer.write(self.vo),
                           racer.read(self.ksz), racer.read(self.vsz), racer.read(self.dummy), racer.read(self.dummy),
                           racer.read(self.start), racer.read(self.lens), racer.read(self.boff), FL_OUT * D,
                           FL_OUT * D, 2, FL_OUT])
        return {"ko": self.ko, "vo": self.vo}

    def program_b(self):
        racer.launch(ref(REF, "flatten_kv_quant"), grid=2, block=160,
                     args=[racer.read(self.kc), racer.read(self.vc), racer.read(self.ksz), racer.read(self.vsz),
                           racer.write(self.ko), racer.write(self.vo), racer.read(self.start), racer.read(self.lens),
                           racer.read(self.boff), 2, 2, FL_OUT, H, D, BS, self.bits])
        return {"ko": self.ko, "vo": self.vo}


class LmdeployFlattenKvCacheInt8(_FlattenInt8, Row):
    """lmdeploy flatten_kv_cache, int8: pages gathered and dequantized (q - zero) scale"""


class LmdeployFlattenKvCacheInt8ZeroAsScaleMutant(_FlattenInt8, Mutation):
    """mutation: the key's zero point read from the scale's slot (the stride_kszd offset dropped)"""
    mutate = [("kz = tl.load(ksz_ptrs + stride_kszd)", "kz = tl.load(ksz_ptrs)")]


class LmdeployFlattenKvCacheInt4(_FlattenInt8, Row):
    """lmdeploy _flatten_kv_cache_quant (flatten_kv_cache.py, QuantPolicy.INT4, out_dtype f32): u8 caches
    [6][4][2][8] (channel d and d + 8 the low and high nibble of byte d, _dequant_int4), the wrapper doubling the
    head dims to 16; out = (q - zero) scale as q scale - scale zero; quant_policy 4, BLOCK_DK = BLOCK_DV = 16,
    grid (2, 3, 2), 4 warps"""
    bits = 4


class LmdeployFlattenKvCacheFp8(Row):
    """lmdeploy _flatten_kv_cache_fp8_scalar (flatten_kv_cache.py, flatten_kv_cache with QuantPolicy.FP8, out_dtype
    float16 as the wrapper defaults): the layout of LmdeployFlattenKvCache, e4m3 caches [6][4][2][16], per-tensor
    k / v scales f32; out = f16(f32(q) scale), the tail rows zero; BLOCK_BS 4, BLOCK_DK = BLOCK_DV = 16, grid
    (2, 3, 2), 4 warps"""

    def setup(self):
        self.kc = racer.input((PAGES, BS, H, D), "fp8e4m3", range=(-448, 448))
        self.vc = racer.input((PAGES, BS, H, D), "fp8e4m3", range=(-448, 448))
        self.ks = racer.input((1,), "f32", range=(0.001, 0.1))
        self.vs = racer.input((1,), "f32", range=(0.001, 0.1))
        self.ko = racer.empty((H, FL_OUT, D), "f16")
        self.vo = racer.empty((H, FL_OUT, D), "f16")
        self.start = racer.values(FL_STARTS, dtype="i32")
        self.lens = racer.values(FL_LENS, dtype="i32")
        self.boff = racer.values(FL_BOFFS, dtype="i32")

    def program_a(self):
        k = racer.triton(kernel(f"{CUDA}.flatten_kv_cache", "_flatten_kv_cache_fp8_scalar"),
                         stride_kcb=BS * H * D, stride_kcs=H * D, stride_kch=D, stride_kcd=1, stride_vcb=BS * H * D,
                         stride_vcs=H * D, stride_vch=D, stride_vcd=1, stride_kos=D, stride_kod=1, stride_vos=D,
                         stride_vod=1, HEAD_DIM_K=D, HEAD_DIM_V=D, BLOCK_BS=BS, BLOCK_DK=D, BLOCK_DV=D)
        racer.launch(k, grid=(2, 3, H),
                     args=[racer.read(self.kc), racer.read(self.vc), racer.write(self.ko), racer.write(self.vo),
                           racer.read(self.ks), racer.read(self.vs), racer.read(self.start), racer.read(self.lens),
                           racer.read(self.boff), FL_OUT * D, FL_OUT * D, 2, FL_OUT])
        return {"ko": self.ko, "vo": self.vo}

    def program_b(self):
        racer.launch(ref(REF, "flatten_kv_fp8"), grid=2, block=160,
                     args=[racer.read(self.kc), racer.read(self.vc), racer.read(self.ks), racer.read(self.vs),
                           racer.write(self.ko), racer.write(self.vo), racer.read(self.start), racer.read(self.lens),
                           racer.read(self.boff), 2, 2, FL_OUT, H, D, BS])
        return {"ko": self.ko, "vo": self.vo}


# ---- cache block copies (copy_cache.py) ----
class LmdeployCopyCacheBlocks(Row):
    """lmdeploy _copy_cache_blocks_kernel (pytorch/kernels/cuda/copy_cache.py, copy_cache_blocks): a u8 cache pool
    viewed as [2 outer][8 pages][16 bytes], pages_per_block 2 (bytes_per_block 32), blocks [0, 3] copied onto
    [2, 1]; BLOCK_BYTES min(4096, next_power_of_2(32)) = 32, num_warps 4, grid (cdiv(32, 32), 2, 2) = (1, 2, 2)"""

    def setup(self):
        self.cache = racer.input((2, 8, 16), "u8")
        self.src = racer.values([0, 3], dtype="i32")
        self.dst = racer.values([2, 1], dtype="i32")

    def program_a(self):
        k = racer.triton(kernel(f"{CUDA}.copy_cache", "_copy_cache_blocks_kernel"), bytes_per_block=32,
                         BLOCK_BYTES=32, num_warps=4)
        racer.launch(k, grid=(1, 2, 2), args=[racer.readwrite(self.cache), racer.read(self.src), racer.read(self.dst),
                                              128, 32])
        return {"cache": self.cache}

    def program_b(self):
        racer.launch(ref(REF, "copy_blocks"), grid=1, block=128,
                     args=[racer.readwrite(self.cache), racer.read(self.src), racer.read(self.dst), 2, 2, 8, 16, 2])
        return {"cache": self.cache}


# ---- int8 quantization (w8a8_triton_kernels.py) ----
W8A8 = f"{CUDA}.w8a8_triton_kernels"


class _TokenQuant:
    """lmdeploy _per_token_quant_int8 (pytorch/kernels/cuda/w8a8_triton_kernels.py, per_token_quant_int8(x, 1e-7)
    as q_modules calls it): x[3][40] f32, s = max(amax, 1e-7) / 127, q = round(x / s) (libdevice round) into int8;
    BLOCK next_power_of_2(40) = 64, Q_MAX 127, num_warps min(max(64 // 256, 1), 8) = 1, grid (3,)"""
    mutate = None

    def setup(self):
        self.x = racer.input((3, 40), "f32", range=(-8, 8))
        self.q = racer.empty((3, 40), "i8")
        self.s = racer.empty((3, 1), "f32")

    def program_a(self):
        k = racer.triton(kernel(W8A8, "_per_token_quant_int8", self.mutate), y_stride=40, yq_stride=40, eps=1e-7,
                         BLOCK=64, Q_MAX=127, IS_FLOATING_POINT=False, num_warps=1)
        racer.launch(k, grid=3, args=[racer.read(self.x), racer.write(self.q), racer.write(self.s), 40])
        return {"q": self.q, "s": self.s}

    def program_b(self):
        racer.launch(ref(REF, "token_quant_int8"), grid=1, block=32,
                     args=[racer.read(self.x), racer.write(self.q), racer.write(self.s), 3, 40, 1e-7])
        return {"q": self.q, "s": self.s}


class LmdeployPerTokenQuantInt8(_TokenQuant, Row):
    """lmdeploy per_token_quant_int8: symmetric int8 per row"""


class LmdeployPerTokenQuantInt8NoAbsMutant(_TokenQuant, Mutation):
    """mutation: the row maximum taken without abs (negative rows get the eps scale and saturate)"""
    mutate = [("_absmax = tl.maximum(tl.max(tl.abs(y)), eps)", "_absmax = tl.maximum(tl.max(y), eps)")]


class LmdeployPerTokenQuantInt8InverseScaleMutant(_TokenQuant, Mutation):
    """mutation: the stored scale is the quantization multiplier 127 / amax instead of its inverse"""
    mutate = [("tl.store(y_s_ptr, y_s)", "tl.store(y_s_ptr, 1 / y_s)")]


class _RmsQuant:
    """lmdeploy rms_norm_quant_kernel (w8a8_triton_kernels.py, rms_norm_dynamic_quant without residual, int8):
    x[3][64] f32, w[64], eps 1e-6; o = w x / rms (rounded to x's dtype), s = max |o| / 127, q = clamp(round(o / s),
    -128, 127); BLOCK_N 64, Q_MIN -128, Q_MAX 127, 4 warps, 2 stages, grid (3,)"""
    mutate = None
    inside = None
    residual = False

    def setup(self):
        self.x = racer.input((3, 64), "f32", range=(-4, 4))
        self.w = racer.input((64,), "f32", range=(-2, 2))
        self.r = racer.input((3, 64), "f32", range=(-4, 4))
        self.h = racer.empty((3, 64), "f32")
        self.q = racer.empty((3, 64), "i8")
        self.s = racer.empty((3, 1), "f32")

    def outputs(self):
        out = {"q": self.q, "s": self.s}
        if self.residual:
            out["h"] = self.h
        return out

    def program_a(self):
        common = dict(input_row_stride=64, eps=1e-6, N_COLS=64, BLOCK_N=64, Q_MIN=-128, Q_MAX=127,
                      IS_FLOATING_POINT=False, num_warps=4, num_stages=2)
        if self.residual:
            k = racer.triton(kernel(W8A8, "add_rms_norm_quant_kernel", self.mutate, inside=self.inside),
                             residual_row_stride=64, **common)
            racer.launch(k, grid=3, args=[racer.read(self.x), racer.read(self.w), racer.read(self.r),
                                          racer.write(self.q), racer.write(self.s), racer.write(self.h)])
        else:
            k = racer.triton(kernel(W8A8, "rms_norm_quant_kernel", self.mutate, inside=self.inside), **common)
            racer.launch(k, grid=3, args=[racer.read(self.x), racer.read(self.w), racer.write(self.q),
                                          racer.write(self.s)])
        return self.outputs()

    def program_b(self):
        racer.launch(ref(REF, "rms_norm_quant_int8"), grid=1, block=32,
                     args=[racer.read(self.x), racer.read(self.w), racer.read(self.r) if self.residual else None,
                           racer.write(self.h) if self.residual else None, racer.write(self.q), racer.write(self.s),
                           3, 64, 1e-6])
        return self.outputs()


class LmdeployRmsNormDynamicQuantInt8(_RmsQuant, Row):
    """lmdeploy rms_norm_dynamic_quant: RMSNorm then per-row symmetric int8"""


class LmdeployAddRmsNormDynamicQuantInt8(_RmsQuant, Row):
    """lmdeploy add_rms_norm_quant_kernel (w8a8_triton_kernels.py, rms_norm_dynamic_quant with residual, int8):
    x, residual [3][64] f32, h = x + r stored to out_residual, then as the row without residual; BLOCK_N 64,
    4 warps, 2 stages, grid (3,)"""
    residual = True


class LmdeployAddRmsNormDynamicQuantEpsMutant(_RmsQuant, Mutation):
    """mutation: eps added after the reciprocal square root (rsqrt(var) + eps)"""
    residual = True
    inside = "_compute_rms_norm"
    mutate = [("out = xf * tl.math.rsqrt(var + eps)", "out = xf * (tl.math.rsqrt(var) + eps)")]


# ---- gated delta rule preprocessing (gated_delta_preprocess.py) ----
GT, GHK, GR, GD = 8, 2, 2, 16  # tokens, key heads, value heads per key head, head dim
INIT = [True, False, False, False, True, False, False, False]


class _GatedDelta:
    """lmdeploy _gated_delta_preprocess_kernel (pytorch/kernels/cuda/gated_delta_preprocess.py,
    gated_delta_preprocess, kv_ratio 2, apply_qk_l2norm True, f32 b): q, k [1][8][2][16] f32, b, a [1][8][4]
    (3-D: b_stride_src_h = 2, b_stride_rep = 1), dt_bias, a_log_exp [4]; q, k L2-normalized (eps 1e-6) and
    repeated over the 2 value heads of each key head, beta = sigmoid(b), g = A softplus(a + dt); BLOCK_D 16,
    BLOCK_KV_RATIO 2, BLOCK_T 8, grid (1, 2, cdiv(8, 8)) = (1, 2, 1), default 4 warps"""
    mutate = None
    init = False

    def setup(self):
        self.q = racer.input((1, GT, GHK, GD), "f32", range=(-4, 4))
        self.k = racer.input((1, GT, GHK, GD), "f32", range=(-4, 4))
        self.b = racer.input((1, GT, GHK * GR), "f32", range=(-6, 6))
        self.a = racer.input((1, GT, GHK * GR), "f32", range=(-24, 24))
        self.dt = racer.input((GHK * GR,), "f32", range=(-2, 2))
        self.A = racer.input((GHK * GR,), "f32", range=(-4, 0))
        self.mask = racer.values(INIT, dtype="bool")
        self.qo = racer.empty((1, GT, GHK * GR, GD), "f32")
        self.ko = racer.empty((1, GT, GHK * GR, GD), "f32")
        self.beta = racer.empty((1, GT, GHK * GR), "f32")
        self.g = racer.empty((1, GT, GHK * GR), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{CUDA}.gated_delta_preprocess", "_gated_delta_preprocess_kernel", self.mutate),
                         BATCH_SIZE=1, HEAD_DIM=GD, KV_RATIO=GR, BLOCK_KV_RATIO=GR, BLOCK_T=8, BLOCK_D=GD, EPS=1e-6,
                         USE_INIT_TOKEN_MASK=self.init, APPLY_QK_L2NORM=True)
        hv = GHK * GR
        qs = [GT * GHK * GD, GHK * GD, GD, 1]
        os_ = [GT * hv * GD, hv * GD, GD, 1]
        bs = [GT * hv, hv, GR, 1]
        racer.launch(k, grid=(1, GHK, 1),
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.b), racer.read(self.a),
                           racer.read(self.dt), racer.read(self.A),
                           racer.read(self.mask) if self.init else racer.read(self.g),
                           racer.write(self.qo), racer.write(self.ko), racer.write(self.beta), racer.write(self.g),
                           *qs, *qs, *bs, *bs, *os_, *os_, GT * hv, hv, 1, GT * hv, hv, 1, GT])
        return {"qo": self.qo, "ko": self.ko, "beta": self.beta, "g": self.g}

    def program_b(self):
        racer.launch(ref(REF, "gated_delta_pre"), grid=1, block=32,
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.b), racer.read(self.a),
                           racer.read(self.dt), racer.read(self.A), racer.read(self.mask) if self.init else None,
                           racer.write(self.qo), racer.write(self.ko), racer.write(self.beta), racer.write(self.g),
                           GT, GHK, GR, GD, 1e-6])
        return {"qo": self.qo, "ko": self.ko, "beta": self.beta, "g": self.g}


class LmdeployGatedDeltaPreprocess(_GatedDelta, Row):
    """lmdeploy gated_delta_preprocess: l2norm(q), l2norm(k) per value head, sigmoid(b), A softplus(a + dt)"""


class LmdeployGatedDeltaPreprocessInitMask(_GatedDelta, Row):
    """lmdeploy _gated_delta_preprocess_kernel (gated_delta_preprocess.py, with init_token_mask): as the row
    without it, g = -1e6 at the flagged tokens 0 and 4 (a bool [8]); USE_INIT_TOKEN_MASK True"""
    init = True


class LmdeployGatedDeltaPreprocessNoBiasMutant(_GatedDelta, Mutation):
    """mutation: the softplus drops the dt bias (softplus(a))"""
    mutate = [("x = a_val + dt[None, :]", "x = a_val")]


# ---- fp8 quantization per token group (blocked_gemm_fp8.py) ----
class _QuantFp8:
    """lmdeploy _quant_fp8_kernel (pytorch/kernels/cuda/blocked_gemm_fp8.py, quant_fp8 / _quant_fp8_launcher, the
    quantizer of silu_and_mul_masked_post_quant_fwd and the blocked fp8 GEMMs): A[4][64] bf16, group_size 32, e4m3
    out, scales [4][2] f32; per group amax = max(max |a|, 1e-6), scale = amax * f32(1 / 448), out = e4m3(clamp(a
    448 / amax)); num_warps 2, num_groups_per_cta 2 x 512 // (32 x 2) = 16 (a masked 512-wide tile: K % 512 != 0),
    grid (cdiv(64, 512), min(4, 132 x min(32, 64 // 2))) = (1, 4), num_stages min(4, max(1, cdiv(4, 4))) = 1,
    USE_PDL False (launch_pdl off)"""
    mutate = None
    round_scale = 0

    def setup(self):
        self.a = racer.input((4, 64), "bf16", range=(-8, 8))
        self.y = racer.empty((4, 64), "fp8e4m3")
        self.s = racer.empty((4, 2), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{CUDA}.blocked_gemm_fp8", "_quant_fp8_kernel", self.mutate), K=64,
                         num_groups_per_cta=16, fp8_min=-448.0, fp8_max=448.0, stride_ak=1, stride_ok=1,
                         ROUND_SCALE=self.round_scale, GROUP_SIZE=32, NUM_STAGES=1, USE_PDL=False, launch_pdl=False,
                         num_warps=2, num_stages=1)
        racer.launch(k, grid=(1, 4), args=[racer.read(self.a), racer.write(self.y), racer.write(self.s), 4, 4, 64,
                                           64, 2, 1])
        return {"y": self.y, "s": self.s}

    def program_b(self):
        racer.launch(ref(REF, "group_quant_fp8"), grid=1, block=32,
                     args=[racer.read(self.a), racer.write(self.y), racer.write(self.s), 4, 64, 32, self.round_scale])
        return {"y": self.y, "s": self.s}


class LmdeployQuantFp8(_QuantFp8, Row):
    """lmdeploy quant_fp8: e4m3 per 1 x 32 group of a row"""


class LmdeployQuantFp8Ue8m0(_QuantFp8, Row):
    """lmdeploy _quant_fp8_kernel (blocked_gemm_fp8.py, quant_fp8 with scale_fmt='ue8m0', ROUND_SCALE 1): as
    LmdeployQuantFp8, the scale rounded up to a power of two, 2^ceil(log2(amax / 448)), by fast_round_scale's
    exponent-bit arithmetic, out = e4m3(clamp(a / scale)); same launch"""
    round_scale = 1


class LmdeployQuantFp8ClampMutant(_QuantFp8, Mutation):
    """mutation: the group maximum floors at 1 instead of 1e-6 (small groups get too large a scale)"""
    mutate = [("a_max = tl.maximum(a_max, 1e-6).to(tl.float32)", "a_max = tl.maximum(a_max, 1.0).to(tl.float32)")]
