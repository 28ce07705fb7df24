"""sglang 0.5.23: Triton kernels of its serving stack (attention state merging, row log-sum-exp, GELU-and-mul,
logit soft-capping, RMSNorm variants, multimodal RoPE, top-k/top-p renormalization, split temperature
softmax, KV page copies), against reference/sglang_ops.cu. Each launched with the constexprs, grid and
warps sglang's host wrapper picks for the shape (sglang/kernels/ops/..., sglang/srt/layers/...).
The attention kernels (decode, prefill) are in sglang_attention.py."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

R, C = 3, 40
OPS = "sglang.kernels.ops"


T, H, HD = 3, 2, 40  # merge_state: tokens, heads, head size


class _MergeState:
    """sglang merge_state_kernel (kernels/ops/attention/merge_state.py, merge_state_triton): v and lse of a
    prefix and a suffix attention pass merged by their log-sum-exps; 3 tokens x 2 heads of 40 channels,
    PADDED_HEAD_SIZE 64, grid (tokens, heads), OUTPUT_LSE, 4 warps"""
    mutate = None

    def setup(self):
        self.va = racer.input((T, H, HD), "f32", range=(-2, 2))
        self.a = racer.input((T, H), "f32", range=(-4, 4))
        self.vb = racer.input((T, H, HD), "f32", range=(-2, 2))
        self.b = racer.input((T, H), "f32", range=(-4, 4))
        self.o = racer.empty((T, H, HD), "f32")
        self.lse = racer.empty((T, H), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.attention.merge_state", "merge_state_kernel", self.mutate), HEAD_SIZE=HD,
                         PADDED_HEAD_SIZE=64, OUTPUT_LSE=True)
        racer.launch(k, grid=(T, H), args=[racer.write(self.o), racer.write(self.lse), racer.read(self.va),
                                           racer.read(self.a), racer.read(self.vb), racer.read(self.b)])
        return {"o": self.o, "lse": self.lse}

    def program_b(self):
        racer.launch(ref("sglang_ops.cu", "merge_attn_states"), grid=1, block=T * H,
                     args=[racer.read(self.va), racer.read(self.a), racer.read(self.vb), racer.read(self.b),
                           racer.write(self.o), racer.write(self.lse), T * H, HD])
        return {"o": self.o, "lse": self.lse}


class SglangMergeState(_MergeState, Row):
    """sglang merge_state_kernel: o = (e^a va + e^b vb) / (e^a + e^b), lse = log(e^a + e^b)"""


class SglangMergeStateLseNoMaxMutant(_MergeState, Mutation):
    """mutation: the merged lse forgets to add back the max it subtracted"""
    mutate = [("out_lse = tl.log(out_se) + max_lse", "out_lse = tl.log(out_se)")]


class SglangMergeStateSwappedScaleMutant(_MergeState, Mutation):
    """mutation: a copy-paste slip weights the suffix by the prefix's lse"""
    mutate = [("s_scale = tl.exp(s_lse) / out_se", "s_scale = tl.exp(p_lse) / out_se")]


class _RowLogsumexp:
    """sglang _row_logsumexp_kernel (srt/layers/logsumexp.py, row_logsumexp): per row the max and
    log(sum exp(x - max)), by blocks folded online; 3 rows of 40, BLOCK_N next_power_of_2(40) = 64, 8 warps"""
    mutate = None

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-8, 8))
        self.mx = racer.empty((R,), "f32")
        self.ls = racer.empty((R,), "f32")

    def program_a(self):
        k = racer.triton(kernel("sglang.srt.layers.logsumexp", "_row_logsumexp_kernel", self.mutate), BLOCK_N=64,
                         num_warps=8)
        racer.launch(k, grid=R, args=[racer.read(self.x), racer.write(self.mx), racer.write(self.ls), C, 1, C])
        return {"mx": self.mx, "ls": self.ls}

    def program_b(self):
        racer.launch(ref("sglang_ops.cu", "row_max_logsumexp"), grid=1, block=R,
                     args=[racer.read(self.x), racer.write(self.mx), racer.write(self.ls), R, C])
        return {"mx": self.mx, "ls": self.ls}


class SglangRowLogsumexp(_RowLogsumexp, Row):
    """sglang _row_logsumexp_kernel: (max, logsumexp - max) of each row"""


class SglangRowLogsumexpPadZeroMutant(_RowLogsumexp, Mutation):
    """mutation: the masked tail of the block is padded with 0 instead of -inf"""
    mutate = [('mask=offs < num_cols, other=float("-inf")', "mask=offs < num_cols, other=0.0")]


class SglangGeluAndMul(Row):
    """sglang gelu_and_mul_kernel (kernels/ops/activation/gelu_and_mul_triton.py): y = gelu(x1) x3 on the
    halves of x[3][80], no quantization; BLOCK_SIZE 64, num_warps max(min(npow2(cdiv(40, 256)), 32), 4) = 4"""

    def setup(self):
        self.x = racer.input((R, 2 * C), "f32", range=(-4, 4))
        self.y = racer.empty((R, C), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.activation.gelu_and_mul_triton", "gelu_and_mul_kernel"), quant_max=None,
                         static_scale=False, hidden_dim=C, BLOCK_SIZE=64, out_scales_ptr=None, num_warps=4)
        racer.launch(k, grid=R, args=[racer.write(self.y), racer.read(self.x)])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("sglang_ops.cu", "gelu_and_mul_rows"), grid=1, block=128,
                     args=[racer.read(self.x), racer.write(self.y), R, C])
        return {"y": self.y}


CAP = 30.0  # Gemma 2's final logit soft-cap


class _Softcap:
    """sglang softcap_inplace_logits_kernel (kernels/ops/activation/softcap.py, softcap_inplace_logits): a
    contiguous 3 x 40 logits tensor as one row of 120, BLOCK_SIZE 1024, grid (1, 1), in place, 4 warps"""
    mutate = None

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-60, 60))

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.activation.softcap", "softcap_inplace_logits_kernel", self.mutate),
                         BLOCK_SIZE=1024, output_ptr=None, output_row_stride=0, CAST_TO_FP32=False,
                         APPLY_SOFTCAP=True)
        racer.launch(k, grid=(1, 1), args=[racer.readwrite(self.x), CAP, R * C, R * C])
        return {"x": self.x}

    def program_b(self):
        racer.launch(ref("sglang_ops.cu", "softcap_inplace"), grid=1, block=128,
                     args=[racer.readwrite(self.x), R * C, CAP])
        return {"x": self.x}


class SglangSoftcap(_Softcap, Row):
    """sglang softcap_inplace_logits_kernel: x = cap tanh(x / cap)"""


class SglangSoftcapNoRescaleMutant(_Softcap, Mutation):
    """mutation: the tanh is not scaled back by the cap"""
    mutate = [("        x = x * softcapping_value\n", "        x = x * 1.0\n")]


WORLD, SHARD, VOCAB = 2, 24, 40  # gathered soft-cap: ranks, shard width, vocabulary (the last shard padded)


class SglangGatheredSoftcap(Row):
    """sglang _gathered_softcap_logits_kernel (gathered_softcap_logits): soft-caps rank-major all-gathered
    logits [2][3][24] into vocab-major [3][40]; BLOCK_SIZE 1024, grid (1, 3), 4 warps"""

    def setup(self):
        self.g = racer.input((WORLD, R, SHARD), "f32", range=(-60, 60))
        self.y = racer.empty((R, VOCAB), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.activation.softcap", "_gathered_softcap_logits_kernel"), BLOCK_SIZE=1024)
        racer.launch(k, grid=(1, R), args=[racer.read(self.g), racer.write(self.y), R, SHARD, VOCAB, VOCAB, CAP])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("sglang_ops.cu", "gathered_softcap"), grid=1, block=128,
                     args=[racer.read(self.g), racer.write(self.y), R, SHARD, VOCAB, CAP])
        return {"y": self.y}


EPS = 1e-6


class _RmsRow:
    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))
        self.y = racer.empty((R, C), "f32")

    def program_b(self):
        racer.launch(ref("sglang_ops.cu", self.entry), grid=1, block=R,
                     args=[racer.read(self.x), racer.read(self.w), racer.write(self.y), R, C, EPS])
        return {"y": self.y}


class SglangRmsNormFp32(_RmsRow, Row):
    """sglang _rmsnorm_fp32_kernel (kernels/ops/layernorm/rmsnorm_fp32.py): y = x rsqrt(mean x^2 + eps) w;
    B 64, 4 warps (the host's enable_fp_fusion=False is not an option racer.triton takes)"""
    entry = "rmsnorm_rows"

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.layernorm.rmsnorm_fp32", "_rmsnorm_fp32_kernel"), D=C, EPS=EPS, B=64,
                         num_warps=4)
        racer.launch(k, grid=R, args=[racer.read(self.x), racer.read(self.w), racer.write(self.y)])
        return {"y": self.y}


class SglangFusedRmsNorm(_RmsRow, Row):
    """sglang fused_rmsnorm_kernel (kernels/ops/layernorm/fused_rmsnorm.py): y = x / sqrt(mean x^2 + eps) w;
    BLOCK_SIZE 64, num_warps max(min(npow2(cdiv(40, 256)), 32), 4) = 4"""
    entry = "rmsnorm_rows"

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.layernorm.fused_rmsnorm", "fused_rmsnorm_kernel"), eps=EPS, hidden_dim=C,
                         BLOCK_SIZE=64, num_warps=4)
        racer.launch(k, grid=R, args=[racer.write(self.y), racer.read(self.x), racer.read(self.w)])
        return {"y": self.y}


class SglangGemmaRmsNorm(_RmsRow, Row):
    """sglang _gemma_rmsnorm_kernel (kernels/ops/layernorm/minimax_m3_rmsnorm.py, gemma_rmsnorm): y = x /
    sqrt(mean x^2 + eps) (1 + w) over strided rows (contiguous here); BLOCK_N 64, 4 warps"""
    entry = "gemma_rmsnorm_rows"

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.layernorm.minimax_m3_rmsnorm", "_gemma_rmsnorm_kernel"), BLOCK_N=64,
                         num_warps=4)
        racer.launch(k, grid=R, args=[racer.read(self.x), racer.read(self.w), racer.write(self.y), C, C, 1, EPS])
        return {"y": self.y}


class _GemmaAddRms:
    """sglang _gemma_fused_add_rmsnorm_kernel (gemma_fused_add_rmsnorm): s = x + residual stored, then Gemma
    RMSNorm of s; BLOCK_N 64, 4 warps"""
    mutate = None

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.r = racer.input((R, C), "f32", range=(-4, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))
        self.y = racer.empty((R, C), "f32")
        self.s = racer.empty((R, C), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.layernorm.minimax_m3_rmsnorm", "_gemma_fused_add_rmsnorm_kernel", self.mutate),
                         BLOCK_N=64, num_warps=4)
        racer.launch(k, grid=R, args=[racer.read(self.x), racer.read(self.r), racer.read(self.w), racer.write(self.y),
                                      racer.write(self.s), C, C, 1, C, 1, EPS])
        return {"y": self.y, "s": self.s}

    def program_b(self):
        racer.launch(ref("sglang_ops.cu", "gemma_add_rmsnorm_rows"), grid=1, block=R,
                     args=[racer.read(self.x), racer.read(self.r), racer.read(self.w), racer.write(self.y),
                           racer.write(self.s), R, C, EPS])
        return {"y": self.y, "s": self.s}


class SglangGemmaFusedAddRmsNorm(_GemmaAddRms, Row):
    """sglang _gemma_fused_add_rmsnorm_kernel: the residual sum and its Gemma RMSNorm"""


class SglangGemmaFusedAddRmsNormNoOffsetMutant(_GemmaAddRms, Mutation):
    """mutation: the Gemma weight offset (1 + w) is dropped, as in a plain RMSNorm"""
    mutate = [("out = s * rstd * (1.0 + w)", "out = s * rstd * w")]


class _DualRms:
    """sglang fused_dual_residual_rmsnorm_kernel (kernels/ops/layernorm/fused_rmsnorm.py): mid = r +
    rmsnorm(x) w1, out = rmsnorm(mid) w2; BLOCK_SIZE 64, 4 warps"""
    mutate = None

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.r = racer.input((R, C), "f32", range=(-4, 4))
        self.w1 = racer.input((C,), "f32", range=(-2, 2))
        self.w2 = racer.input((C,), "f32", range=(-2, 2))
        self.out = racer.empty((R, C), "f32")
        self.mid = racer.empty((R, C), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.layernorm.fused_rmsnorm", "fused_dual_residual_rmsnorm_kernel", self.mutate),
                         eps=EPS, hidden_dim=C, BLOCK_SIZE=64, num_warps=4)
        racer.launch(k, grid=R, args=[racer.write(self.out), racer.write(self.mid), racer.read(self.x),
                                      racer.read(self.r), racer.read(self.w1), racer.read(self.w2)])
        return {"out": self.out, "mid": self.mid}

    def program_b(self):
        racer.launch(ref("sglang_ops.cu", "dual_residual_rmsnorm_rows"), grid=1, block=R,
                     args=[racer.read(self.x), racer.read(self.r), racer.read(self.w1), racer.read(self.w2),
                           racer.write(self.out), racer.write(self.mid), R, C, EPS])
        return {"out": self.out, "mid": self.mid}


class SglangDualResidualRmsNorm(_DualRms, Row):
    """sglang fused_dual_residual_rmsnorm_kernel: the two norms around the residual add"""


class SglangDualResidualRmsNormStaleRmsMutant(_DualRms, Mutation):
    """mutation: the second norm divides by the first norm's rms"""
    mutate = [("a2r / rms2 * w2", "a2r / rms * w2")]


S_ROPE, D_ROPE, SECTION = 6, 20, (8, 6, 6)  # interleaved M-RoPE select: tokens, channels, mrope_section


class SglangInterleavedRopeSelect(Row):
    """sglang apply_interleaved_rope_kernel (kernels/ops/attention/mrope.py, apply_interleaved_rope_triton):
    picks each channel of x[3][6][20] from the t, h or w copy, mrope_section (8, 6, 6); BLOCK_S 64,
    BLOCK_SIZE 128, grid (1, 1), 4 warps"""

    def setup(self):
        self.x = racer.input((3, S_ROPE, D_ROPE), "f32", range=(-2, 2))
        self.y = racer.empty((S_ROPE, D_ROPE), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.attention.mrope", "apply_interleaved_rope_kernel"), D=D_ROPE, BLOCK_S=64,
                         BLOCK_SIZE=128)
        racer.launch(k, grid=(1, 1), args=[racer.read(self.x), racer.write(self.y), S_ROPE, S_ROPE * D_ROPE, D_ROPE,
                                           D_ROPE, SECTION[1], SECTION[2]])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("sglang_ops.cu", "mrope_interleave_select"), grid=1, block=128,
                     args=[racer.read(self.x), racer.write(self.y), S_ROPE, D_ROPE, SECTION[1], SECTION[2]])
        return {"y": self.y}


MT, MQH, MKH, MHD, MRD, MAXPOS = 3, 2, 1, 24, 24, 8  # fused M-RoPE: tokens, q heads, k heads, head/rotary dim
MSEC = (4, 4, 4)


class _Mrope:
    """sglang _triton_mrope_forward_fused (kernels/ops/attention/rotary_triton.py, triton_mrope_fused): q[3][2 x
    24] and k[3][1 x 24] rotated in place, cos/sin from cos_sin_cache[8][24] at the token's t, h, w positions
    (positions[3][3], concrete), mrope_section (4, 4, 4); pad_hd 32, grid (tokens,), 4 warps"""
    interleaved, mutate = False, None
    positions = [[0, 5, 6], [1, 1, 6], [2, 3, 4]]  # t, h, w position of each token (the cache has 8)

    def setup(self):
        self.q = racer.input((MT, MQH * MHD), "f32", range=(-2, 2))
        self.k = racer.input((MT, MKH * MHD), "f32", range=(-2, 2))
        self.cache = racer.input((MAXPOS, MRD), "f32", range=(-1, 1))
        self.pos = racer.values(self.positions, dtype="i64")
        self.axis_map = racer.values([0] * (MRD // 2), dtype="i32")  # read only by the GLM layout

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.attention.rotary_triton", "_triton_mrope_forward_fused", self.mutate),
                         n_qh=MQH, n_kh=MKH, hd=MHD, rd=MRD, pad_n_qh=2, pad_n_kh=1, pad_hd=32,
                         mrope_section_t=MSEC[0], mrope_section_h=MSEC[1], mrope_section_w=MSEC[2],
                         is_interleaved=self.interleaved, is_interleaved_glm=False, is_neox_style=True)
        racer.launch(k, grid=MT, args=[racer.readwrite(self.q), racer.readwrite(self.k), racer.read(self.cache),
                                       racer.read(self.pos), MQH * MHD, MKH * MHD, MT, racer.read(self.axis_map)])
        return {"q": self.q, "k": self.k}

    def program_b(self):
        racer.launch(ref("sglang_ops.cu", "mrope_qk"), grid=1, block=128,
                     args=[racer.readwrite(self.q), racer.readwrite(self.k), racer.read(self.cache),
                           racer.read(self.pos), MT, MQH, MKH, MHD, MRD, MSEC[0], MSEC[1], MSEC[2],
                           int(self.interleaved), 1])
        return {"q": self.q, "k": self.k}


class SglangMropeFused(_Mrope, Row):
    """sglang _triton_mrope_forward_fused, Qwen2-VL layout (t, h, w sections), NeoX rotation"""


class SglangMropeFusedInterleaved(_Mrope, Row):
    """sglang _triton_mrope_forward_fused, Qwen3-VL interleaved layout, NeoX rotation"""
    interleaved = True


class SglangMropeFusedInterleavedLastPosition(_Mrope, Row):
    """sglang _triton_mrope_forward_fused, interleaved layout, a token at the cache's last position (t = 7).
    With head size 24 (pad_hd 32) the interleaved t_mask = ~(h_mask | w_mask) also holds on the 4 padding
    frequencies 12..15, so the kernel loads t_sin + 12..15 = cos_sin_cache[7][24..27], 4 floats past the end
    of the cache (unused: the stores are masked to rd/2). The sectioned layout masks them (t_mask = offs < 4)."""
    interleaved = True
    positions = [[0, 5, 7], [1, 1, 6], [2, 3, 4]]


class SglangMropeFusedSinSignMutant(_Mrope, Mutation):
    """mutation: the second half of q is rotated with the wrong sign of sin"""
    mutate = [("tl.store(q_ptr + shq, q2 * cos_row + q1 * sin_row, mask=fqm)",
               "tl.store(q_ptr + shq, q2 * cos_row - q1 * sin_row, mask=fqm)")]


class _Renorm:
    """sglang top-k / top-p renormalization (kernels/ops/sampling/renorm_triton.py, _renorm_from_pivots):
    _mask_and_partial_sum_kernel keeps probs >= the row's pivot (grid (3, 1), BLOCK_SIZE 1024, 8 warps), the
    host sums the partial sums (one chunk: the sum is that value), _normalize_kernel divides (grid (1,))"""
    mutate = None

    def setup(self):
        self.p = racer.input((R, C), "f32", range=(0, 1))
        self.pivot = racer.input((R,), "f32", range=(0, 1))
        self.out = racer.empty((R, C), "f32")
        self.partial = racer.empty((R, 1), "f32")

    def program_a(self):
        k1 = racer.triton(kernel(f"{OPS}.sampling.renorm_triton", "_mask_and_partial_sum_kernel", self.mutate),
                          vocab_size=C, num_chunks=1, BLOCK_SIZE=1024, num_warps=8)
        racer.launch(k1, grid=(R, 1), args=[racer.read(self.p), racer.read(self.pivot), racer.write(self.out),
                                            racer.write(self.partial)])
        k2 = racer.triton(kernel(f"{OPS}.sampling.renorm_triton", "_normalize_kernel"), vocab_size=C, BLOCK_SIZE=1024,
                          num_warps=8)
        racer.launch(k2, grid=1, args=[racer.readwrite(self.out), racer.read(self.partial), R * C])
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref("sglang_ops.cu", "renorm_from_pivots"), grid=1, block=R,
                     args=[racer.read(self.p), racer.read(self.pivot), racer.write(self.out), R, C])
        return {"out": self.out}


class SglangRenormProbs(_Renorm, Row):
    """sglang renorm: out = p [p >= pivot] / sum(p [p >= pivot])"""


class SglangRenormProbsDropTiesMutant(_Renorm, Mutation):
    """mutation: probabilities equal to the pivot are dropped (FlashInfer keeps ties)"""
    mutate = [("probs >= pivot", "probs > pivot")]


TB, TSPLIT = 16, 3  # temperature softmax: block, splits (cdiv(40, 16))


class _TempSoftmax:
    """sglang split-row temperature softmax (kernels/ops/sampling/temperature_softmax.py):
    _partial_max_sumexp_kernel (grid (3, 3), 8 warps), _combine_kernel (BLOCK next_power_of_2(3) = 4, 1 warp),
    _normalize_kernel (grid (3, 3), 8 warps). The host takes BLOCK >= 2048 and this path only from 2049
    columns; here the same kernels at BLOCK 16 over 40 columns (3 splits, the last one partial)."""
    mutate = None

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-8, 8))
        self.t = racer.input((R,), "f32", range=(0.5, 2))
        self.pm = racer.empty((R, TSPLIT), "f32")
        self.ps = racer.empty((R, TSPLIT), "f32")
        self.m = racer.empty((R,), "f32")
        self.s = racer.empty((R,), "f32")
        self.p = racer.empty((R, C), "f32")

    def program_a(self):
        mod = f"{OPS}.sampling.temperature_softmax"
        k1 = racer.triton(kernel(mod, "_partial_max_sumexp_kernel"), BLOCK=TB, num_warps=8)
        racer.launch(k1, grid=(R, TSPLIT), args=[racer.read(self.x), racer.read(self.t), racer.write(self.pm),
                                                 racer.write(self.ps), C, C, TSPLIT])
        k2 = racer.triton(kernel(mod, "_combine_kernel", self.mutate), BLOCK=4, num_warps=1)
        racer.launch(k2, grid=R, args=[racer.read(self.pm), racer.read(self.ps), racer.write(self.m),
                                       racer.write(self.s), TSPLIT])
        k3 = racer.triton(kernel(mod, "_normalize_kernel"), BLOCK=TB, num_warps=8)
        racer.launch(k3, grid=(R, TSPLIT), args=[racer.read(self.x), racer.read(self.t), racer.read(self.m),
                                                 racer.read(self.s), racer.write(self.p), C, C, C])
        return {"p": self.p}

    def program_b(self):
        racer.launch(ref("sglang_ops.cu", "temperature_softmax_rows"), grid=1, block=R,
                     args=[racer.read(self.x), racer.read(self.t), racer.write(self.p), R, C])
        return {"p": self.p}


class SglangTemperatureSoftmax(_TempSoftmax, Row):
    """sglang split temperature softmax: softmax(x / t) per row"""


class SglangTemperatureSoftmaxNoRescaleMutant(_TempSoftmax, Mutation):
    """mutation: the combine step adds the split sums without rescaling them to the row max"""
    mutate = [("s * tl.exp(m - m_all)", "s")]


PAGES, PW = 6, 5  # copy_pages: pages of the buffer, 8-byte words a page


class _CopyPages:
    """sglang _copy_pages_kernel (kernels/ops/kvcache/copy_pages.py, copy_pages): pages 0 and 3 of an int64 view
    of the KV pool copied to the free pages 4 and 1, in place; grid (2, cdiv(5, 2048)), BLOCK 2048, 4 warps"""
    mutate = None

    def setup(self):
        self.buf = racer.input((PAGES, PW), "i64", range=(-1000, 1000))
        self.src = racer.values([0, 3], dtype="i64")
        self.dst = racer.values([4, 1], dtype="i64")

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.kvcache.copy_pages", "_copy_pages_kernel", self.mutate), SRC_STRIDE=1,
                         DST_STRIDE=1, BLOCK=2048)
        racer.launch(k, grid=(2, 1), args=[racer.readwrite(self.buf), racer.read(self.src), racer.read(self.dst), PW])
        return {"buf": self.buf}

    def program_b(self):
        racer.launch(ref("sglang_ops.cu", "copy_pages_ref"), grid=1, block=32,
                     args=[racer.readwrite(self.buf), racer.read(self.src), racer.read(self.dst), 2, PW])
        return {"buf": self.buf}


class SglangCopyPages(_CopyPages, Row):
    """sglang _copy_pages_kernel: buf[dst[i]] = buf[src[i]]"""


class SglangCopyPagesShortMutant(_CopyPages, Mutation):
    """mutation: the last word of each page is left behind"""
    mutate = [("mask = offsets < page_words", "mask = offsets < page_words - 1")]


GT, GH, GD = 3, 2, 24  # sigmoid gate: tokens, heads, head dim


class _SigmoidGate:
    """sglang _fused_sigmoid_mul_kernel (kernels/ops/elementwise/elementwise.py, fused_sigmoid_mul), Qwen3.5's
    attention output gate: attn [3][48] times sigmoid of a strided 3-D gate view [3][2][24] (the second half
    of each head's 48 packed q/gate channels: offset 24, strides 96 and 48); BLOCK_H 1024, grid (3, 1), 4 warps"""
    mutate = None

    def setup(self):
        self.attn = racer.input((GT, GH * GD), "f32", range=(-4, 4))
        self.qg = racer.input((GT, GH, 2 * GD), "f32", range=(-8, 8))
        self.y = racer.empty((GT, GH * GD), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.elementwise.elementwise", "_fused_sigmoid_mul_kernel", self.mutate),
                         hidden_dim=GH * GD, HEAD_DIM=GD, BLOCK_H=1024, q_ptr=None, s_ptr=None, QUANT=False,
                         num_warps=4)
        racer.launch(k, grid=(GT, 1), args=[racer.write(self.y), racer.read(self.attn), racer.read(self.qg, offset=GD),
                                            GH * 2 * GD, 2 * GD])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("sglang_ops.cu", "sigmoid_gate_mul"), grid=2, block=128,
                     args=[racer.read(self.attn), racer.read(self.qg, offset=GD), racer.write(self.y), GT, GH, GD,
                           GH * 2 * GD, 2 * GD])
        return {"y": self.y}


class SglangSigmoidGateMul(_SigmoidGate, Row):
    """sglang _fused_sigmoid_mul_kernel: y = attn sigmoid(gate) with a strided gate"""


class SglangSigmoidGateMulFlatGateMutant(_SigmoidGate, Mutation):
    """mutation: the gate is indexed as if contiguous within the row (the head stride ignored)"""
    mutate = [("gate_off = pid_row * gate_stride_row + head * gate_stride_head + d",
               "gate_off = pid_row * gate_stride_row + offsets")]


KN, KH, KD, KSLOTS = 4, 2, 24, 10  # masked KV store: tokens, heads, head dim, cache slots


class _MaskedSetKv:
    """sglang masked_set_kv_buffer_kernel (srt/mem_cache/memory_pool.py, set_kv_buffer with a DCP mask): token n's
    K and V [2][24] go to cache slot loc[n] where mask[n] (loc, mask concrete; token 1 masked off), the other
    slots keep their contents; CHUNK 128 (one chunk of 48), grid (4,), 4 warps"""
    mutate = None

    def setup(self):
        self.k = racer.input((KN, KH, KD), "f32", range=(-4, 4))
        self.v = racer.input((KN, KH, KD), "f32", range=(-4, 4))
        self.kbuf = racer.input((KSLOTS, KH * KD), "f32", range=(-4, 4))
        self.vbuf = racer.input((KSLOTS, KH * KD), "f32", range=(-4, 4))
        self.loc = racer.values([5, 0, 9, 3], dtype="i64")
        self.mask = racer.values([True, False, True, True], dtype="bool")

    def program_a(self):
        k = racer.triton(kernel("sglang.srt.mem_cache.memory_pool", "masked_set_kv_buffer_kernel", self.mutate), N=KN,
                         H=KH, D=KD, CHUNK=128, k_stride_B=KH * KD, k_stride_H=KD, v_stride_B=KH * KD, v_stride_H=KD,
                         k_buffer_stride=KH * KD, v_buffer_stride=KH * KD)
        racer.launch(k, grid=KN, args=[racer.read(self.k), racer.read(self.v), racer.readwrite(self.kbuf),
                                       racer.readwrite(self.vbuf), racer.read(self.loc), racer.read(self.mask)])
        return {"kbuf": self.kbuf, "vbuf": self.vbuf}

    def program_b(self):
        racer.launch(ref("sglang_ops.cu", "masked_set_kv"), grid=2, block=128,
                     args=[racer.read(self.k), racer.read(self.v), racer.readwrite(self.kbuf),
                           racer.readwrite(self.vbuf), racer.read(self.loc), racer.read(self.mask), KN, KH * KD])
        return {"kbuf": self.kbuf, "vbuf": self.vbuf}


class SglangMaskedSetKvBuffer(_MaskedSetKv, Row):
    """sglang masked_set_kv_buffer_kernel: the masked scatter of K and V rows into the cache"""


class SglangMaskedSetKvBufferIgnoreMaskMutant(_MaskedSetKv, Mutation):
    """mutation: the DCP mask is ignored, every token is written"""
    mutate = [("do_write = tl.load(mask_ptr + pid) != 0", "do_write = tl.load(mask_ptr + pid) >= 0")]


VTOK = [3, 12, 23, 27, 26, 25]  # token ids: another rank's, this rank's first and last, added, another rank's added
VSTART, VEND, VPAD, VASTART, VAEND = 12, 24, 4, 26, 28
VROWS = VEND - VSTART + VPAD + VAEND - VASTART


class _VocabEmbedding:
    """sglang _vocab_parallel_embedding_kernel (kernels/ops/embeddings/vocab_parallel_embedding.py): rank 1 of a
    24-token vocabulary in 2 shards (org tokens [12, 24), 4 padding rows, added tokens [26, 28)), weight [18][40];
    6 token ids (concrete), BLOCK_H min(1024, next_power_of_2(40)) = 64, grid (6, 1), 8 warps"""
    mutate = None

    def setup(self):
        self.tok = racer.values(VTOK, dtype="i64")
        self.w = racer.input((VROWS, C), "f32", range=(-2, 2))
        self.y = racer.empty((len(VTOK), C), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.embeddings.vocab_parallel_embedding", "_vocab_parallel_embedding_kernel",
                              self.mutate), hidden_dim=C, weight_stride0=C, org_vocab_start_index=VSTART,
                         org_vocab_end_index=VEND, num_org_vocab_padding=VPAD, added_vocab_start_index=VASTART,
                         added_vocab_end_index=VAEND, BLOCK_H=64, num_warps=8)
        racer.launch(k, grid=(len(VTOK), 1), args=[racer.read(self.tok), racer.read(self.w), racer.write(self.y)])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("sglang_ops.cu", "vocab_parallel_embedding_ref"), grid=2, block=128,
                     args=[racer.read(self.tok), racer.read(self.w), racer.write(self.y), len(VTOK), C, VSTART, VEND,
                           VPAD, VASTART, VAEND])
        return {"y": self.y}


class SglangVocabParallelEmbedding(_VocabEmbedding, Row):
    """sglang _vocab_parallel_embedding_kernel: the shard's rows, the added tokens after the padding, 0 elsewhere"""


class SglangVocabParallelEmbeddingNoPaddingMutant(_VocabEmbedding, Mutation):
    """mutation: the added tokens' offset forgets the shard's padding rows"""
    mutate = [("        - num_org_vocab_padding\n", "        - 0\n")]
