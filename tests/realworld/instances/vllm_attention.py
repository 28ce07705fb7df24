"""vLLM 0.34.0: Triton attention and KV-cache kernels (vllm/v1/attention/ops/), against the naive attention of
reference/vllm_attention.cu (softmax(scale q k^T) v per query, no max subtraction): the merge of a prefix and a
suffix attention state by their log-sum-exps, split-K paged decode attention (stage 1 per KV split with its
log-sum-exp, stage 2 merging the splits; MHA in f32, GQA and MLA in bf16) over a paged KV cache whose block
table is concrete, the packed-sequence prefill kernel (ViT's bidirectional attention and causal attention) and
the KV-cache write by slot mapping (flash and head-major layouts). Each launched with the constexprs, grid and
warps vLLM's host wrapper picks for the shape on an sm_90 GPU."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

OPS = "vllm.v1.attention.ops"
REF = "vllm_attention.cu"
RCP_LN2 = 1.4426950216  # vllm.utils.math_utils.RCP_LN2, which context_attention_fwd multiplies the scale by


# ---- merge_attn_states ----
MT, MH, MD = 3, 2, 40  # tokens, heads, head size
MCTX = 2  # prefill_tokens_with_context: the last token has no prefix


class _MergeStates:
    """vLLM merge_attn_states_kernel (v1/attention/ops/triton_merge_attn_states.py, merge_attn_states): the outputs
    and lses of a prefix and a suffix attention pass merged by their log-sum-exps; 3 tokens x 2 heads of 40
    channels, lse tensors [heads][tokens], prefill_tokens_with_context 2 (token 2 has no prefix context: it takes
    the suffix as is); PADDED_HEAD_SIZE next_power_of_2(40) = 64, OUTPUT_LSE, USE_FP8 False (no output_scale),
    grid (tokens, heads), Triton's default 4 warps"""
    mutate = None

    def setup(self):
        self.va = racer.input((MT, MH, MD), "f32", range=(-2, 2))
        self.a = racer.input((MH, MT), "f32", range=(-4, 4))
        self.vb = racer.input((MT, MH, MD), "f32", range=(-2, 2))
        self.b = racer.input((MH, MT), "f32", range=(-4, 4))
        self.o = racer.empty((MT, MH, MD), "f32")
        self.lse = racer.empty((MH, MT), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.triton_merge_attn_states", "merge_attn_states_kernel", self.mutate),
                         HEAD_SIZE=MD, PADDED_HEAD_SIZE=64, OUTPUT_LSE=True, USE_FP8=False, FP8_MIN=-448.0,
                         FP8_MAX=448.0, output_scale=None)
        racer.launch(k, grid=(MT, MH),
                     args=[racer.write(self.o), racer.write(self.lse), racer.read(self.va), racer.read(self.a),
                           racer.read(self.vb), racer.read(self.b), MD, MD, MT, 1, MT, 1, MT, 1, MCTX])
        return {"o": self.o, "lse": self.lse}

    def program_b(self):
        racer.launch(ref(REF, "merge_states_ref"), grid=1, block=MT * MH,
                     args=[racer.read(self.va), racer.read(self.a), racer.read(self.vb), racer.read(self.b),
                           racer.write(self.o), racer.write(self.lse), MT, MH, MD, MCTX])
        return {"o": self.o, "lse": self.lse}


class VllmMergeAttnStates(_MergeStates, Row):
    """vLLM merge_attn_states_kernel: o = (e^a va + e^b vb) / (e^a + e^b), lse = log(e^a + e^b); o = vb, lse = b
    for the token without prefix context"""


class VllmMergeAttnStatesContextOffByOneMutant(_MergeStates, Mutation):
    """mutation: the token-has-context test is off by one (the last token with context copies the suffix)"""
    mutate = [("prefix_mask = token_idx < prefill_tokens_with_context",
               "prefix_mask = token_idx < prefill_tokens_with_context - 1")]


class VllmMergeAttnStatesSwappedScaleMutant(_MergeStates, Mutation):
    """mutation: a copy-paste slip weights the suffix output by the prefix's scale"""
    mutate = [("out = p_out * p_scale + s_out * s_scale", "out = p_out * p_scale + s_out * p_scale")]


# ---- paged decode attention (triton_decode_attention.py) ----
DEC = f"{OPS}.triton_decode_attention"
SEQ = (7, 13)  # two requests
PAGE = 4  # page size
PAGES = 8
MAXP = 16  # block-table width; entries past a request's pages are valid page ids it never reads
TABLE = [[5, 2] + [(3 * i + 1) % PAGES for i in range(MAXP - 2)],
         [1, 6, 3, 7] + [(5 * i + 2) % PAGES for i in range(MAXP - 4)]]
SPLITS = 2  # NUM_KV_SPLITS: 7 keys split 4 + 3, 13 keys 7 + 6


class _Decode:
    """shared by the decode rows: q [2][heads][Lk], the KV cache [8 pages][page 4][kv_heads][Lk] (4-D, page
    stride from _page_stride), block table [2][16] and seq_lens (7, 13) concrete, attn_logits [2][heads][2][Lv + 1]
    f32; k_scale = v_scale = 1 (decode_attention_fwd's default tensors, read though the cache is not fp8).
    NUM_KV_SPLITS 2 (TritonMLA picks next_power_of_2(max_seq_len // 512): 2 for 1024-2047 keys, scaled down here).
    Stage 2 (_decode_softmax_reducev_fwd): grid (2, heads), BLOCK_DV next_power_of_2(Lv), 4 warps, 2 stages."""
    dtype = "f32"
    heads, kv_heads, Lk, Lv = 2, 2, 24, 24
    mla = False
    mutate1 = mutate2 = None

    @property
    def scale(self):
        return 1.0 / self.Lk ** 0.5

    def setup(self):
        b = len(SEQ)
        self.q = racer.input((b, self.heads, self.Lk), self.dtype, range=(-1, 1))
        self.k = racer.input((PAGES, PAGE, self.kv_heads, self.Lk), self.dtype, range=(-1, 1))
        if not self.mla:  # MLA reads V from the K cache
            self.v = racer.input((PAGES, PAGE, self.kv_heads, self.Lv), self.dtype, range=(-2, 2))
        self.table = racer.values(TABLE, dtype="i32")
        self.seq = racer.values(list(SEQ), dtype="i32")
        self.kscale = racer.values([1.0], dtype="f32")
        self.mid = racer.empty((b, self.heads, SPLITS, self.Lv + 1), "f32")
        self.o = racer.empty((b, self.heads, self.Lv), self.dtype)
        self.lse = racer.empty((b, self.heads), self.dtype)

    def kv_strides(self):
        kw, vw = self.kv_heads * self.Lk, self.kv_heads * (self.Lk if self.mla else self.Lv)
        return [PAGE * kw, kw, self.Lk, PAGE * vw, vw, vw // self.kv_heads]

    def stage1_args(self):
        h, lv = self.heads, self.Lv
        reads = [racer.read(self.q), racer.read(self.k), racer.read(self.k if self.mla else self.v)]
        return reads + [self.scale, racer.read(self.table), racer.read(self.seq), racer.write(self.mid), MAXP,
                        h * self.Lk, self.Lk] + self.kv_strides() + \
            [h * SPLITS * (lv + 1), SPLITS * (lv + 1), lv + 1, racer.read(self.kscale), racer.read(self.kscale)]

    def stage2(self):
        h, lv = self.heads, self.Lv
        k2 = racer.triton(kernel(DEC, "_fwd_kernel_stage2", self.mutate2), NUM_KV_SPLITS=SPLITS, BLOCK_DV=32, Lv=lv,
                          OUTPUT_FP16=0, SLIDING_WINDOW=0, num_warps=4, num_stages=2)
        racer.launch(k2, grid=(len(SEQ), h),
                     args=[racer.read(self.mid), racer.write(self.o), racer.write(self.lse), racer.read(self.seq),
                           h * SPLITS * (lv + 1), SPLITS * (lv + 1), lv + 1, h * lv, lv, h])
        return {"o": self.o, "lse": self.lse}

    def program_b(self):
        n = len(SEQ) * self.heads * self.Lv
        vs = self.Lk if self.mla else self.Lv
        racer.launch(ref(REF, f"paged_decode_{self.dtype}"), grid=(n + 127) // 128, block=128,
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.k if self.mla else self.v),
                           racer.read(self.table), racer.read(self.seq), racer.write(self.o), racer.write(self.lse),
                           len(SEQ), self.heads,
                           self.kv_heads, self.Lk, self.Lv, self.Lk, vs, PAGE, MAXP, self.scale])
        return {"o": self.o, "lse": self.lse}


class _DecodeMha(_Decode):
    """vLLM decode attention, MHA (kv_group_num 1, decode_attention_fwd_normal): _fwd_kernel_stage1 (grid
    (2, 2, 2), BLOCK_N 64, BLOCK_DMODEL = BLOCK_DV = 32 for head size 24, 4 warps, 2 stages; q k as an
    elementwise product and a row sum, f32) then _fwd_kernel_stage2"""

    def program_a(self):
        k1 = racer.triton(kernel(DEC, "_fwd_kernel_stage1", self.mutate1), kv_group_num=1, BLOCK_DMODEL=32,
                          BLOCK_DV=32, BLOCK_N=64, NUM_KV_SPLITS=SPLITS, PAGE_SIZE=PAGE, logit_cap=0.0, Lk=self.Lk,
                          Lv=self.Lv, SLIDING_WINDOW=0, num_warps=4, num_stages=2)
        racer.launch(k1, grid=(len(SEQ), self.heads, SPLITS), args=self.stage1_args())
        return self.stage2()


class VllmDecodeAttention(_DecodeMha, Row):
    """vLLM paged split-K decode attention, MHA, f32, page size 4: softmax(q k^T / sqrt(24)) v and its lse"""


class VllmDecodeAttentionPageIndexMutant(_DecodeMha, Mutation):
    """mutation: stage 1 indexes the block table by token instead of by page (page size 1 code kept)"""
    mutate1 = [("+ offs_n // PAGE_SIZE,", "+ offs_n,")]


class VllmDecodeAttentionStage2LseMutant(_DecodeMha, Mutation):
    """mutation: stage 2's merged lse forgets the running max"""
    mutate2 = [("lse_val = e_max + tl.log(e_sum)", "lse_val = tl.log(e_sum)")]


class VllmDecodeAttentionStage2NoRescaleMutant(_DecodeMha, Mutation):
    """mutation: stage 2 forgets to rescale the accumulated output when a later split raises the max"""
    mutate2 = [("            acc *= old_scale\n", "            acc = acc\n")]


class _DecodeGrouped(_Decode):
    """vLLM decode attention, grouped (decode_attention_fwd_grouped): _fwd_grouped_kernel_stage1 (grid
    (2, cdiv(heads, min(16, kv_group_num)) = 1, 2), BLOCK_N 32, BLOCK_H 16, 4 warps, 2 stages; tl.dot of q and
    k, p cast to bf16 for the p v dot) then _fwd_kernel_stage2; bf16 q, cache, o and lse"""
    dtype = "bf16"

    def program_a(self):
        bd = 32
        dpe = 16 if self.Lk > self.Lv else 0
        k1 = racer.triton(kernel(DEC, "_fwd_grouped_kernel_stage1", self.mutate1),
                          kv_group_num=self.heads // self.kv_heads, q_head_num=self.heads, BLOCK_DMODEL=bd,
                          BLOCK_DPE=dpe, BLOCK_DV=32, BLOCK_N=32, BLOCK_H=16, NUM_KV_SPLITS=SPLITS, PAGE_SIZE=PAGE,
                          logit_cap=0.0, Lk=self.Lk, Lv=self.Lv, IS_MLA=self.mla, SLIDING_WINDOW=0, num_warps=4,
                          num_stages=2)
        racer.launch(k1, grid=(len(SEQ), 1, SPLITS), args=self.stage1_args())
        return self.stage2()


class VllmDecodeAttentionGqa(_DecodeGrouped, Row):
    """vLLM paged split-K decode attention, GQA: 2 query heads on 1 KV head, head size 32, bf16"""
    heads, kv_heads, Lk, Lv = 2, 1, 32, 32


class _DecodeMla(_DecodeGrouped):
    """TritonMLA's decode (backends/mla/triton_mla.py forward_mqa, is_mla): one latent KV head of kv_lora_rank 32
    plus a rope part of 16 (Lk 48: BLOCK_DMODEL 32, BLOCK_DPE 16), V read as the latent part of the K cache
    (v = tl.trans(k)); 2 query heads, scale 1/sqrt(48)"""
    heads, kv_heads, Lk, Lv = 2, 1, 48, 32
    mla = True


class VllmDecodeAttentionMla(_DecodeMla, Row):
    """vLLM paged split-K MLA decode: softmax(q [c; pe] . k [c; pe] / sqrt(48)) k_c, bf16"""


# ---- prefill attention over packed sequences (triton_prefill_attention.py) ----
PSEQ, PSTART = (9, 6), (0, 9)
PTOK, PD = 15, 32


class _Prefill:
    """vLLM context_attention_fwd's _fwd_kernel (v1/attention/ops/triton_prefill_attention.py): attention over
    packed sequences of 9 and 6 tokens (b_start_loc, b_seq_len concrete), bf16 q, k, v, o, head size 32; on
    sm_90 get_block_size gives BLOCK = 128 (fits shared memory), BLOCK_N 128, grid (2, heads, cdiv(9, 128) = 1),
    4 warps (Lk <= 64), 1 stage, BLOCK_DMODEL 32 with no tail, no sinks (q passed for Sinks);
    sm_scale = 1/sqrt(32) * RCP_LN2 for exp2; masked scores are -1e8"""
    heads, kv_heads = 2, 2
    causal, window = False, 0
    mutate = None

    def setup(self):
        self.q = racer.input((PTOK, self.heads, PD), "bf16", range=(-1, 1))
        self.k = racer.input((PTOK, self.kv_heads, PD), "bf16", range=(-1, 1))
        self.v = racer.input((PTOK, self.kv_heads, PD), "bf16", range=(-2, 2))
        self.start = racer.values(list(PSTART), dtype="i32")
        self.len = racer.values(list(PSEQ), dtype="i32")
        self.o = racer.empty((PTOK, self.heads, PD), "bf16")

    def program_a(self):
        h, kvh = self.heads, self.kv_heads
        k = racer.triton(kernel(f"{OPS}.triton_prefill_attention", "_fwd_kernel", self.mutate),
                         kv_group_num=h // kvh, BLOCK_M=128, BLOCK_DMODEL=PD, BLOCK_DMODEL_TAIL=0, BLOCK_N=128,
                         IS_CAUSAL=self.causal, SLIDING_WINDOW_Q=self.window, SLIDING_WINDOW_K=0,
                         SINKS_BIAS_KEY0=False, USE_SINKS=False, Lk=PD, HEAD_STRIDE_ALIGNED_8=False, num_warps=4,
                         num_stages=1)
        racer.launch(k, grid=(len(PSEQ), h, 1),
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.read(self.q),
                           (1.0 / PD ** 0.5) * RCP_LN2, racer.read(self.start), racer.read(self.len),
                           racer.write(self.o), h * PD, PD, kvh * PD, PD, kvh * PD, PD, h * PD, PD])
        return {"o": self.o}

    def program_b(self):
        n = PTOK * self.heads * PD
        racer.launch(ref(REF, "packed_attention_bf16"), grid=(n + 127) // 128, block=128,
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.read(self.start),
                           racer.read(self.len), racer.write(self.o), len(PSEQ), PTOK, self.heads, self.kv_heads, PD,
                           1.0 / PD ** 0.5, int(self.causal), self.window])
        return {"o": self.o}


class VllmPrefillAttentionVit(_Prefill, Row):
    """vLLM prefill _fwd_kernel as ViT attention runs it (vit_attn_wrappers.triton_attn_wrapper: is_causal False,
    no sliding window): softmax(q k^T / sqrt(32)) v per image, 2 heads, bf16"""


class _PrefillCausal(_Prefill):
    heads, kv_heads = 2, 1
    causal = True


class VllmPrefillAttentionCausal(_PrefillCausal, Row):
    """vLLM prefill _fwd_kernel, causal (context_attention_fwd's default), GQA 2:1, bf16"""


class VllmPrefillAttentionCausalDiagMutant(_PrefillCausal, Mutation):
    """mutation: the causal mask excludes the diagonal (a token does not attend to itself)"""
    mutate = [("mask &= pos_q >= pos_k", "mask &= pos_q > pos_k")]


# ---- KV-cache write by slot mapping (triton_reshape_and_cache_flash.py) ----
CN, CH, CD, CB, CBLOCKS = 4, 2, 16, 4, 3  # tokens, heads, head size, block size, blocks
SLOTS = [5, -1, 0, 10]  # token 1 is padding


class _CacheKv:
    """vLLM reshape_and_cache_kernel_flash (triton_reshape_and_cache_flash, kv_cache_dtype "auto", f32 cache):
    key and value [4 tokens][2 heads][16] written to cache slots [5, -1 (padding), 0, 10] of 3 blocks of 4;
    TILE_SIZE min(2048, next_power_of_2(2 x 16)) = 32, grid (4, 1), on CUDA sm_90 16 warps and 10 stages;
    k_scale/v_scale unread (FP8_KV_CACHE False)"""
    head_major = False
    mutate = None

    def setup(self):
        self.key = racer.input((CN, CH, CD), "f32", range=(-4, 4))
        self.value = racer.input((CN, CH, CD), "f32", range=(-4, 4))
        if self.head_major:
            self.kc = racer.input((CBLOCKS, CH, CD // 8, CB, 8), "f32", range=(-4, 4))
            self.vc = racer.input((CBLOCKS, CH, CD, CB), "f32", range=(-4, 4))
        else:
            self.kc = racer.input((CBLOCKS, CB, CH, CD), "f32", range=(-4, 4))
            self.vc = racer.input((CBLOCKS, CB, CH, CD), "f32", range=(-4, 4))
        self.slot = racer.values(SLOTS, dtype="i64")
        self.scale = racer.values([1.0], dtype="f32")

    def program_a(self):
        k = racer.triton(kernel(f"{OPS}.triton_reshape_and_cache_flash", "reshape_and_cache_kernel_flash",
                                self.mutate),
                         num_heads=CH, head_size=CD, block_size=CB, x=8 if self.head_major else 1,
                         USE_HEAD_MAJOR_LAYOUT=self.head_major, INTERLEAVED_V_PACK_FACTOR=0, FP8_KV_CACHE=False,
                         TILE_SIZE=32, num_warps=16, num_stages=10)
        if self.head_major:  # block, head, dim (K: dim // x), page strides of the 5-D key cache and 4-D value cache
            strides = [CH * CD * CB, CD * CB, CB * 8, CB, CD * CB]
        else:
            strides = [CB * CH * CD, CD, 0, 0, CH * CD]
        racer.launch(k, grid=(CN, 1),
                     args=[racer.read(self.key), racer.read(self.value), racer.readwrite(self.kc),
                           racer.readwrite(self.vc), racer.read(self.slot), racer.read(self.scale),
                           racer.read(self.scale), CH * CD, CH * CD] + strides)
        return {"kc": self.kc, "vc": self.vc}

    def program_b(self):
        n = CN * CH * CD
        racer.launch(ref(REF, "cache_kv_ref"), grid=1, block=n,
                     args=[racer.read(self.key), racer.read(self.value), racer.readwrite(self.kc),
                           racer.readwrite(self.vc), racer.read(self.slot), CN, CH, CD, CB, 8,
                           int(self.head_major)])
        return {"kc": self.kc, "vc": self.vc}


class VllmReshapeAndCacheFlash(_CacheKv, Row):
    """vLLM reshape_and_cache_kernel_flash, flash layout: both caches [blocks][block size][heads][head size]"""


class VllmReshapeAndCacheFlashHeadMajor(_CacheKv, Row):
    """vLLM reshape_and_cache_kernel_flash, head-major layout (5-D key cache [blocks][heads][16 / 8][4][8], value
    cache [blocks][heads][16][4]; x = key_cache.shape[4] = 8)"""
    head_major = True


class VllmReshapeAndCacheFlashSlotZeroMutant(_CacheKv, Mutation):
    """mutation: the padding test also drops slot 0 (`<= 0` for `< 0`)"""
    mutate = [("if slot_idx < 0:", "if slot_idx <= 0:")]
