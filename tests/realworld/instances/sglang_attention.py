"""sglang 0.5.23: Triton attention kernels, against the naive attention of reference/sglang_ops.cu
(softmax(scale q k^T) v per query, no max subtraction): split-K flash decoding (stage 1 per KV split with
its log-sum-exp, stage 2 merging the splits) for MHA in f32 and for GQA in bf16, over a paged KV cache
whose slot table is concrete; the causal prefill kernel over packed sequences. Launched as sglang's host
code does (kernels/ops/attention/decode_attention.py decode_attention_fwd, prefill_attention.py
context_attention_fwd) on an sm_90 GPU."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

DEC = "sglang.kernels.ops.attention.decode_attention"

# Decode: 2 sequences of 13 and 35 tokens whose KV sit in slots of a 50-slot cache, in scattered order.
SEQ = (13, 35)
SLOTS = 50
INDPTR = [0, 13, 48]
INDICES = [(7 * i + 3) % SLOTS for i in range(48)]  # 48 distinct slots (7 is prime to 50)
SPLITS = [1, 2]  # num_kv_splits per sequence (the scheduler's); max_kv_splits 2
MAXS = 2
D = 24  # head dim (Lk = Lv), BLOCK_DMODEL = BLOCK_DV = 32
NO_SCORE_MOD = dict(SCORE_MOD=None, Aux0=None, aux0_stride_t=0, aux0_stride_h=0, aux0_len=0, uneven_batch=None,
                    ROTATE_BATCH=False, logit_cap=0.0, xai_temperature_len=-1, PAGE_SIZE=1)


class _Decode:
    """shared by the decode rows: q [2][heads][24], k and v [50][kv_heads][24], kv_indptr/kv_indices/num_kv_splits
    concrete; stage 1 grid (2, head tiles, 2), stage 2 grid (2, heads), 4 warps, 2 stages (MIN_BLOCK_KV 32:
    the 35-token sequence splits 32 + 3, the 13-token one has a single split)"""
    dtype, heads, kv_heads, scale = "f32", 2, 2, 0.2041241452319315  # 1/sqrt(24)
    mutate1 = mutate2 = None

    def setup(self):
        b = len(SEQ)
        self.q = racer.input((b, self.heads, D), self.dtype, range=(-1, 1))
        self.k = racer.input((SLOTS, self.kv_heads, D), self.dtype, range=(-1, 1))
        self.v = racer.input((SLOTS, self.kv_heads, D), self.dtype, range=(-2, 2))
        self.indptr = racer.values(INDPTR, dtype="i32")
        self.indices = racer.values(INDICES, dtype="i32")
        self.splits = racer.values(SPLITS, dtype="i32")
        self.mid_o = racer.empty((b, self.heads, MAXS, D), "f32")
        self.mid_lse = racer.empty((b, self.heads, MAXS), "f32")
        self.o = racer.empty((b, self.heads, D), self.dtype)

    def strides(self):
        h, kvh = self.heads, self.kv_heads
        return [h * D, D, kvh * D, D, kvh * D, D, kvh * D, kvh * D, kvh * D, kvh * D, h * MAXS * D, MAXS * D, D]

    def stage2(self):
        k2 = racer.triton(kernel(DEC, "_fwd_kernel_stage2", self.mutate2), sink_ptr=None, MAX_KV_SPLITS=MAXS,
                          MIN_BLOCK_KV=32, BLOCK_DV=32, Lv=D, HAS_SINK=False, USE_PDL=False, FORCED_KV_SPLITS=0,
                          num_warps=4, num_stages=2)
        racer.launch(k2, grid=(len(SEQ), self.heads),
                     args=[racer.read(self.mid_o), racer.read(self.mid_lse), racer.write(self.o), 1.0,
                           racer.read(self.indptr), racer.read(self.splits), self.heads * MAXS * D, MAXS * D, D,
                           self.heads * D, D])
        return {"o": self.o}

    def program_b(self):
        n = len(SEQ) * self.heads * D
        racer.launch(ref("sglang_ops.cu", f"decode_attention_{self.dtype}"), grid=(n + 127) // 128, block=128,
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.read(self.indptr),
                           racer.read(self.indices), racer.write(self.o), len(SEQ), self.heads, self.kv_heads, D,
                           self.scale])
        return {"o": self.o}


class _DecodeMha(_Decode):
    """sglang decode attention, MHA (kv_group_num 1): _fwd_kernel_stage1 (BLOCK_N 64, 4 warps: q k as an
    elementwise product and a row sum, f32) then _fwd_kernel_stage2"""

    def program_a(self):
        k1 = racer.triton(kernel(DEC, "_fwd_kernel_stage1", self.mutate1), kv_group_num=1, BLOCK_DMODEL=32,
                          BLOCK_DV=32, BLOCK_N=64, MIN_BLOCK_KV=32, Lk=D, Lv=D, num_warps=4, num_stages=2,
                          **NO_SCORE_MOD)
        racer.launch(k1, grid=(len(SEQ), self.heads, MAXS),
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), self.scale,
                           racer.read(self.indptr), racer.read(self.indices), racer.write(self.mid_o),
                           racer.write(self.mid_lse), racer.read(self.splits)] + self.strides())
        return self.stage2()


class SglangDecodeAttention(_DecodeMha, Row):
    """sglang split-K decode attention, MHA, f32: softmax(q k^T / sqrt(24)) v per sequence and head"""


class SglangDecodeAttentionMaskOffByOneMutant(_DecodeMha, Mutation):
    """mutation: stage 1 keeps the score one past the split's end (its k loaded as 0: an extra exp(-max))"""
    mutate1 = [('qk = tl.where(offs_n < split_kv_end, qk, float("-inf"))',
                'qk = tl.where(offs_n <= split_kv_end, qk, float("-inf"))')]


class SglangDecodeAttentionLseMutant(_DecodeMha, Mutation):
    """mutation: stage 1's split log-sum-exp drops the running max"""
    mutate1 = [("            e_max + tl.log(e_sum),\n", "            tl.log(e_sum),\n")]


class SglangDecodeAttentionStage2NoRescaleMutant(_DecodeMha, Mutation):
    """mutation: stage 2 forgets to rescale the accumulated output when a later split raises the max"""
    mutate2 = [("            acc *= old_scale\n", "            acc = acc\n")]


class _DecodeGqa(_Decode):
    """sglang decode attention, GQA: 4 query heads on 1 KV head (kv_group_num 4), bf16 q, k, v and output,
    f32 split partials; _fwd_grouped_kernel_stage1 (BLOCK_N 32, BLOCK_H 16, one head tile, tl.dot of q
    (cast to the KV dtype) and k, p cast to bf16 for the p v dot, 4 warps) then _fwd_kernel_stage2"""
    dtype, heads, kv_heads = "bf16", 4, 1

    def program_a(self):
        k1 = racer.triton(kernel(DEC, "_fwd_grouped_kernel_stage1", self.mutate1), kv_group_num=4, q_head_num=4,
                          BLOCK_DMODEL=32, BLOCK_DPE=0, BLOCK_DV=32, BLOCK_N=32, BLOCK_H=16, MIN_BLOCK_KV=32, Lk=D,
                          Lv=D, HAS_MLA=False, USE_PDL=False, IS_GFX1250=False, forced_kv_splits=0, USE_FORCED=False,
                          num_warps=4, num_stages=2, **NO_SCORE_MOD)
        racer.launch(k1, grid=(len(SEQ), 1, MAXS),
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), self.scale,
                           racer.read(self.indptr), racer.read(self.indices), racer.write(self.mid_o),
                           racer.write(self.mid_lse), racer.read(self.splits)] + self.strides())
        return self.stage2()


class SglangDecodeAttentionGqa(_DecodeGqa, Row):
    """sglang split-K decode attention, GQA, bf16"""


class SglangDecodeAttentionGqaNoScaleMutant(_DecodeGqa, Mutation):
    """mutation: the grouped stage 1 forgets the softmax scale of the scores"""
    mutate1 = [("qk *= sm_scale_withk", "qk *= 1.0")]


# Prefill: 2 packed sequences of 20 and 13 tokens, 2 query heads on 1 KV head, head dim 32, causal.
PSEQ, PSTART = (20, 13), (0, 20)
PTOK, PH, PKVH, PD = 33, 2, 1, 32


class _Prefill:
    """sglang context_attention_fwd's _fwd_kernel (kernels/ops/attention/prefill_attention.py): causal attention
    over packed sequences (b_start_loc, b_seq_len concrete), bf16 q, k, v, o; on sm_90 BLOCK_M = BLOCK_N = 128,
    grid (2, 2, cdiv(20, 128) = 1), num_warps 4 (Lk <= 64), 1 stage, sm_scale 1/sqrt(32); each block's p is
    scaled by 1/l and cast to bf16 before its tl.dot with v"""
    mutate = None
    scale = 0.17677669529663687

    def setup(self):
        self.q = racer.input((PTOK, PH, PD), "bf16", range=(-1, 1))
        self.k = racer.input((PTOK, PKVH, PD), "bf16", range=(-1, 1))
        self.v = racer.input((PTOK, PKVH, PD), "bf16", range=(-2, 2))
        self.start = racer.values(list(PSTART), dtype="i32")
        self.len = racer.values(list(PSEQ), dtype="i32")
        self.o = racer.empty((PTOK, PH, PD), "bf16")

    def program_a(self):
        k = racer.triton(kernel("sglang.kernels.ops.attention.prefill_attention", "_fwd_kernel", self.mutate),
                         kv_group_num=PH // PKVH, BLOCK_M=128, BLOCK_DMODEL=PD, BLOCK_N=128, IS_CAUSAL=True, Lk=PD,
                         num_warps=4, num_stages=1)
        racer.launch(k, grid=(len(PSEQ), PH, 1),
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), self.scale,
                           racer.read(self.start), racer.read(self.len), racer.write(self.o),
                           PH * PD, PD, PKVH * PD, PD, PKVH * PD, PD, PH * PD, PD])
        return {"o": self.o}

    def program_b(self):
        n = PTOK * PH * PD
        racer.launch(ref("sglang_ops.cu", "prefill_attention_bf16"), grid=(n + 127) // 128, block=128,
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.read(self.start),
                           racer.read(self.len), racer.write(self.o), len(PSEQ), PTOK, PH, PKVH, PD, self.scale])
        return {"o": self.o}


class SglangPrefillAttention(_Prefill, Row):
    """sglang prefill _fwd_kernel: causal softmax(q k^T / sqrt(32)) v per packed sequence, GQA 2:1, bf16"""


class SglangPrefillAttentionNotCausalDiagMutant(_Prefill, Mutation):
    """mutation: the causal mask excludes the diagonal (a token does not attend to itself)"""
    mutate = [("& (offs_m[:, None] >= (start_n + offs_n[None, :])),", "& (offs_m[:, None] > (start_n + offs_n[None, :])),")]
