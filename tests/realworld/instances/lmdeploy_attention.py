"""lmdeploy 0.18.0: Triton attention, GEMM and sampling kernels (lmdeploy/pytorch/kernels/cuda/), against the naive
references of reference/lmdeploy_attention.cu: the w8a8 int8 GEMM with per-token and per-channel scales (plain and
with a residual), the blocked fp8 GEMM (non-TMA kernel), speculative decoding's rejection sampling (greedy and random verification, recovered tokens by
the Gumbel-max trick), paged split-K decode attention (the grouped split kernel and its reduce kernel), varlen
flash prefill attention (causal, with a prefix history) and multinomial sampling. Each launched with the
constexprs, grid and warps lmdeploy's host wrapper picks for the shape on an sm_90 GPU, scaled down where the
wrapper's tiles or grids are far larger than the tiny shapes here (said per row)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
import triton.language as tl  # noqa: E402  (ACCUMULATOR_DTYPE, as the wrapper passes it)
from common import Mutation, Row, kernel, ref  # noqa: E402

CUDA = "lmdeploy.pytorch.kernels.cuda"
REF = "lmdeploy_attention.cu"


# ---- w8a8 int8 GEMM (w8a8_triton_kernels.py) ----
GM, GN, GK = 24, 32, 32


class _Int8Gemm:
    """lmdeploy _linear (pytorch/kernels/cuda/w8a8_triton_kernels.py, matmul_kernel_dynamic_quant): int8 a[24][32]
    (per-token quantized, rms_scale[24][1] f32) times int8 b[32][32] stored [N][K] (per-channel linear_scale[32]),
    int32 accumulation (ACCUMULATOR_DTYPE tl.int32: a is not floating point), output f16 (the default
    output_dtype); GROUP_SIZE_M 8. The autotuner's configs are 128 x 256 x 128 and 256 x 128 x 128 with 8 warps and
    3 stages; scaled down here to one 32 x 32 x 32 tile (rows 24..31 wrap by % M and are masked at the store),
    4 warps, grid cdiv(24, 32) * cdiv(32, 32) = 1"""
    mutate = None
    residual = False

    def setup(self):
        self.a = racer.input((GM, GK), "i8")
        self.b = racer.input((GN, GK), "i8")
        self.rs = racer.input((GM, 1), "f32", range=(1e-3, 1))
        self.ls = racer.input((GN,), "f32", range=(1e-3, 1))
        self.c = racer.empty((GM, GN), "f16")
        if self.residual:
            self.res = racer.input((GM, GN), "f16", range=(-4, 4))

    def program_a(self):
        name = "_linear_add" if self.residual else "_linear"
        k = racer.triton(kernel(f"{CUDA}.w8a8_triton_kernels", name, self.mutate), BLOCK_M=32, BLOCK_N=32,
                         BLOCK_K=32, GROUP_SIZE_M=8, ACCUMULATOR_DTYPE=tl.int32, num_warps=4, num_stages=3)
        mid = [racer.read(self.res)] if self.residual else []
        racer.launch(k, grid=1, args=[racer.read(self.a), racer.read(self.b), racer.write(self.c), *mid, GM, GN, GK,
                                      GK, 1, 1, GK, GN, 1, racer.read(self.rs), racer.read(self.ls)])
        return {"c": self.c}

    def program_b(self):
        racer.launch(ref(REF, "int8_gemm_scaled"), grid=(GM * GN + 127) // 128, block=128,
                     args=[racer.read(self.a), racer.read(self.b), racer.read(self.rs), racer.read(self.ls),
                           racer.read(self.res) if self.residual else None, racer.write(self.c), GM, GN, GK])
        return {"c": self.c}


class LmdeployInt8Gemm(_Int8Gemm, Row):
    """lmdeploy _linear: c = f16(float(a_i8 b_i8^T) * rms_scale[m] * linear_scale[n])"""


class LmdeployInt8GemmScaleIndexMutant(_Int8Gemm, Mutation):
    """mutation: the per-channel scale is indexed by the row offsets (offs_am) instead of the column offsets"""
    mutate = [("linear_scale = tl.load(linear_scale_ptr + offs_bn)[None, :]",
               "linear_scale = tl.load(linear_scale_ptr + offs_am)[None, :]")]


class LmdeployInt8GemmResidual(_Int8Gemm, Row):
    """lmdeploy _linear_add (matmul_kernel_dynamic_quant with a residual): c = f16(f16(a b^T rs ls) + residual)"""
    residual = True


# ---- rejection sampling (rejection_sampling.py) ----
RB, RS, RV = 3, 3, 16  # requests, draft tokens each, vocabulary
RTOK = (0, 5)  # token id range of the greedy rows: small, so drafts and targets often agree


class _Greedy:
    """lmdeploy _rejection_greedy_sample_kernel (pytorch/kernels/cuda/rejection_sampling.py,
    greedy_rejection_sample): 3 requests of 3 i64 draft tokens; grid (3,), Triton's default 4 warps"""
    mutate = None
    greedy = None

    def setup(self):
        self.d = racer.input((RB, RS), "i64", range=RTOK)
        if self.greedy is None:  # forward_greedy: target[:, :-1] and target[:, -1] of one [3][4] tensor
            self.t = racer.input((RB, RS + 1), "i64", range=RTOK)
            self.out = racer.empty((RB, RS + 1), "i64")
            self.rej = racer.empty((RB,), "i64")
            self.last = racer.empty((RB,), "i64")
        else:  # forward with is_greedy: argmax targets [3][3], bonus [3]; rows not greedy keep what was there
            self.t = racer.input((RB, RS), "i64", range=RTOK)
            self.bonus = racer.input((RB,), "i64", range=RTOK)
            self.g = racer.values(self.greedy, dtype="bool")
            self.out = racer.input((RB, RS + 1), "i64", range=RTOK)
            self.rej = racer.input((RB,), "i64", range=RTOK)
            self.last = racer.input((RB,), "i64", range=RTOK)

    def views(self):
        """(target, its row stride, bonus, its stride, is_greedy, its stride)"""
        if self.greedy is None:
            return racer.read(self.t), RS + 1, racer.read(self.t, RS), RS + 1, None, 0
        return racer.read(self.t), RS, racer.read(self.bonus), 1, racer.read(self.g), 1

    def program_a(self):
        t, ts, bonus, bs, g, gs = self.views()
        none = {} if g is not None else {"is_greedy_ptr": None}
        k = racer.triton(kernel(f"{CUDA}.rejection_sampling", "_rejection_greedy_sample_kernel", self.mutate), **none)
        racer.launch(k, grid=RB, args=[racer.readwrite(self.out), racer.readwrite(self.rej),
                                       racer.readwrite(self.last), racer.read(self.d), t, bonus,
                                       *([g] if g is not None else []), RS + 1, 1, 1, 1, RS, 1, ts, 1, bs, gs, RS])
        return {"out": self.out, "rej": self.rej, "last": self.last}

    def program_b(self):
        t, ts, bonus, bs, g, gs = self.views()
        racer.launch(ref(REF, "greedy_rejection_ref"), grid=1, block=32,
                     args=[racer.readwrite(self.out), racer.readwrite(self.rej), racer.readwrite(self.last),
                           racer.read(self.d), t, ts, bonus, bs, g, RB, RS])
        return {"out": self.out, "rej": self.rej, "last": self.last}


class LmdeployRejectionGreedy(_Greedy, Row):
    """lmdeploy greedy_rejection_sample as forward_greedy calls it (is_greedy None, target and bonus tokens strided
    views of one [3][4] tensor): the accepted prefix of the drafts, the bonus token, rejected counts, last tokens"""


class LmdeployRejectionGreedyMasked(_Greedy, Row):
    """lmdeploy greedy_rejection_sample as CudaRejectionSamplingImpl.forward calls it: is_greedy [1, 0, 1] (the
    second request is left to the random kernel), targets [3][3] and bonus [3] contiguous"""
    greedy = [1, 0, 1]


class LmdeployRejectionGreedyCountMutant(_Greedy, Mutation):
    """mutation: the rejected count forgets the bonus slot (num_spec_tokens - num_accepted)"""
    mutate = [("num_spec_tokens + 1 - num_accepted,", "num_spec_tokens - num_accepted,")]


DRAFTS = [[3, 7, 1], [0, 15, 9], [12, 12, 4]]  # concrete draft tokens: the probabilities are read at them


class _Random:
    """lmdeploy _rejection_random_sample_kernel (rejection_sampling.py, random_rejection_sample) as
    CudaRejectionSamplingImpl.forward calls it with is_greedy None: 3 requests of 3 draft tokens (concrete ids),
    target probs [3][3][16] f32, uniform_probs [3][3] f64 (torch.rand in f64), recovered and bonus tokens i64;
    NO_DRAFT_PROBS when draft_probs is None; grid (3,), Triton's default 4 warps"""
    mutate = None
    draft_probs = False

    def setup(self):
        self.d = racer.values(DRAFTS, dtype="i64")
        self.p = racer.input((RB, RS, RV), "f32", range=(0, 1))
        if self.draft_probs:
            self.q = racer.input((RB, RS, RV), "f32", range=(0, 1))
        self.u = racer.input((RB, RS), "f64", range=(0, 1))
        self.bonus = racer.input((RB,), "i64", range=(0, RV - 1))
        self.rec = racer.input((RB, RS), "i64", range=(0, RV - 1))
        self.out = racer.empty((RB, RS + 1), "i64")
        self.rej = racer.empty((RB,), "i64")
        self.last = racer.empty((RB,), "i64")

    def program_a(self):
        none = {"is_greedy_ptr": None} if self.draft_probs else {"is_greedy_ptr": None, "draft_probs_ptr": None}
        k = racer.triton(kernel(f"{CUDA}.rejection_sampling", "_rejection_random_sample_kernel", self.mutate),
                         NO_DRAFT_PROBS=not self.draft_probs, **none)
        q = [racer.read(self.q)] if self.draft_probs else []
        racer.launch(k, grid=RB, args=[racer.write(self.out), racer.write(self.rej), racer.write(self.last),
                                       racer.read(self.d), *q, racer.read(self.p), racer.read(self.bonus),
                                       racer.read(self.rec), racer.read(self.u), RS, RV])
        return {"out": self.out, "rej": self.rej, "last": self.last}

    def program_b(self):
        racer.launch(ref(REF, "random_rejection_ref"), grid=1, block=32,
                     args=[racer.write(self.out), racer.write(self.rej), racer.write(self.last), racer.read(self.d),
                           racer.read(self.q) if self.draft_probs else None, racer.read(self.p),
                           racer.read(self.bonus), racer.read(self.rec), racer.read(self.u), None, RB, RS, RV])
        return {"out": self.out, "rej": self.rej, "last": self.last}


class LmdeployRejectionRandom(_Random, Row):
    """lmdeploy random_rejection_sample without draft probs: draft x accepted while p(x) >= u"""


class LmdeployRejectionRandomLastTokenMutant(_Random, Mutation):
    """mutation: the last token records the draft token even where the recovered token replaced it"""
    mutate = [("            last_token_id = token_id\n", "            last_token_id = draft_token_id\n")]


class LmdeployRejectionRandomDraftProbs(_Random, Row):
    """lmdeploy random_rejection_sample with draft probs: x accepted while q(x) > 0 and p(x) / q(x) >= u"""
    draft_probs = True


class LmdeployRejectionRandomRatioMutant(_Random, Mutation):
    """mutation: the acceptance ratio inverted (q(x) / p(x))"""
    draft_probs = True
    mutate = [("target_prob / draft_prob >= uniform_prob", "draft_prob / target_prob >= uniform_prob")]


RVREC = 4  # the recovered-token rows' vocabulary: an argmax over 4 products


class _Recovered:
    """lmdeploy _sample_recovered_tokens_kernel (rejection_sampling.py, sample_recovered_tokens): 3 requests x 3
    draft positions over a vocabulary of 4 (draft ids mod 4), inv_q [3][4] f32 (1 / exponential noise, positive); BLOCK_SIZE 8192
    (the wrapper's constant: one block covers the vocabulary), grid (3, 3), Triton's default 4 warps"""
    mutate = None
    draft_probs = False

    def setup(self):
        self.d = racer.values([[x % RVREC for x in r] for r in DRAFTS], dtype="i64")
        self.p = racer.input((RB, RS, RVREC), "f32", range=(0.01, 1))
        if self.draft_probs:
            self.q = racer.input((RB, RS, RVREC), "f32", range=(0.01, 1))
        self.iq = racer.input((RB, RVREC), "f32", range=(0.1, 10))
        self.out = racer.empty((RB, RS), "i64")

    def program_a(self):
        k = racer.triton(kernel(f"{CUDA}.rejection_sampling", "_sample_recovered_tokens_kernel", self.mutate),
                         BLOCK_SIZE=8192, NO_DRAFT_PROBS=not self.draft_probs,
                         **({} if self.draft_probs else {"draft_probs_ptr": None}))
        q = [racer.read(self.q)] if self.draft_probs else []
        racer.launch(k, grid=(RB, RS), args=[racer.write(self.out), racer.read(self.d), *q, racer.read(self.p),
                                             racer.read(self.iq), RS, RVREC])
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref(REF, "recovered_tokens_ref"), grid=1, block=32,
                     args=[racer.write(self.out), racer.read(self.d), racer.read(self.q) if self.draft_probs else None,
                           racer.read(self.p), racer.read(self.iq), RB, RS, RVREC])
        return {"out": self.out}


class LmdeployRecoveredTokens(_Recovered, Row):
    """lmdeploy sample_recovered_tokens without draft probs: argmax_j p_j / e_j with the draft token excluded"""


class LmdeployRecoveredTokensDraftProbs(_Recovered, Row):
    """lmdeploy sample_recovered_tokens with draft probs: argmax_j max(p_j - q_j, 0) / e_j"""
    draft_probs = True


class LmdeployRecoveredTokensDraftMaskMutant(_Recovered, Mutation):
    """mutation: the draft token is not excluded (the mask keeps only the vocabulary bound)"""
    mutate = [("mask=(vocab_mask & (vocab_offset != draft_token_id)),", "mask=(vocab_mask),")]


# ---- paged decode attention (pagedattention.py) ----
PA = f"{CUDA}.pagedattention"
DB, DH, DKV, DD, DP = 2, 4, 2, 32, 16  # requests, query heads, kv heads, head dim, block (page) size
DSEQ = (20, 32)  # cached tokens of each request (the last one is the decoding token's own key)
DTABLE = [[3, 0], [1, 2]]  # page table [2][2]
DPAGES = 4
DSPLIT = 4
L2E = 1.4426950408889634  # log2(e): the kernel multiplies the scores by tl.log2(math.e)


class _PagedDecode:
    """lmdeploy flash_attn_with_kvcache (pytorch/kernels/cuda/pagedattention.py), quant_policy NONE: decode attention
    of 2 requests (one query token each, seq_len 1) with 4 query heads on 2 KV heads (kv_group_num 2), head dim 32,
    f16 q and cache ('bshd' [4 pages][16][2][32]), cache_seqlens (20, 32) and page table concrete, softmax_scale
    1/sqrt(32), no window, softcap, alibi or sinks. _fwd_grouped_split_kernel: BLOCK_N = block size 16, BLOCK_H
    max(16, min(16, next_power_of_2(2))) = 16, BLOCK_DMODEL = BLOCK_DV = 32, BLOCK_DMODEL1 0, grid (1 tile x 2 kv
    heads, SPLIT_K, 2); _kernel_meta_sm9x: 4 warps, 3 stages (32 x 16 <= 4096); USE_PDL (sm_90). _get_split_k on
    an H100 (132 SMs, 64 warps/SM) picks 64; scaled down to 4, its floor (two splits of one page each do the work,
    the other two only record m = -inf, l = 0). _reduce_split_kernel: grid (4 heads, 2 tokens), 2 warps, 1 stage,
    BLOCK_DV 32: o = sum_k acc_k 2^(m_k - M) / (sum_k l_k 2^(m_k - M) + 1e-10). USE_PDL is off in these rows
    (the wrapper turns it on for sm_90, launching the reducer as a programmatic dependent launch: griddepcontrol
    instructions Racer does not model; the row that keeps it on is refused for that)"""
    mutate1 = mutate2 = None
    pdl = False

    def setup(self):
        self.q = racer.input((DB, DH, DD), "f16", range=(-1, 1))
        self.k = racer.input((DPAGES, DP, DKV, DD), "f16", range=(-1, 1))
        self.v = racer.input((DPAGES, DP, DKV, DD), "f16", range=(-2, 2))
        self.seq = racer.values(list(DSEQ), dtype="i32")
        self.table = racer.values(DTABLE, dtype="i32")
        self.acc = racer.empty((DB, DH, DSPLIT, DD + 2), "f32")
        self.o = racer.empty((DB, DH, DD), "f16")

    def program_a(self):
        kw = DP * DKV * DD
        sa = (DSPLIT * (DD + 2), DD + 2)  # acc strides of token, head, split
        k1 = racer.triton(kernel(PA, "_fwd_grouped_split_kernel", self.mutate1), sm_scale=1.0 / DD ** 0.5,
                          alibi_slopes_ptr=None, stride_qbs=DH * DD, stride_qh=DD, stride_qd=1, stride_kp=kw,
                          stride_kbs=DKV * DD, stride_kh=DD, stride_kd=1, stride_vp=kw, stride_vbs=DKV * DD,
                          stride_vh=DD, stride_vd=1, stride_ok=sa[1], stride_obs=DH * sa[0], stride_oh=sa[0],
                          stride_od=1, kv_group_num=DH // DKV, seq_len=1, window_size=-1, head_size=DD,
                          head_size_v=DD, num_heads_q=DH, logit_softcapping=-1.0, shared_kv=False, SPLIT_K=DSPLIT,
                          BLOCK_DMODEL=DD, BLOCK_DV=DD, BLOCK_N=DP, BLOCK_H=16, BLOCK_DMODEL1=0, USE_PDL=self.pdl,
                          num_warps=4, num_stages=3)
        racer.launch(k1, grid=(DKV, DSPLIT, DB), args=[racer.read(self.q), racer.read(self.k), racer.read(self.v),
                                                       racer.read(self.seq), racer.read(self.table),
                                                       racer.write(self.acc), len(DTABLE[0])])
        k2 = racer.triton(kernel(PA, "_reduce_split_kernel", self.mutate2), sinks_ptr=None, head_size_v=DD,
                          SPLIT_K=DSPLIT, BLOCK_DV=DD, USE_PDL=self.pdl, num_warps=2, num_stages=1)
        racer.launch(k2, grid=(DH, DB), args=[racer.read(self.acc), racer.write(self.o), sa[1], DH * sa[0], sa[0], 1,
                                              DH * DD, DD, 1])
        return {"o": self.o}

    def program_b(self):
        n = DB * DH * DD
        racer.launch(ref(REF, "paged_decode_ref"), grid=(n + 127) // 128, block=128,
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.read(self.table),
                           racer.read(self.seq), racer.write(self.o), DB, DH, DKV, DD, DP, len(DTABLE[0]),
                           1.0 / DD ** 0.5, L2E, 1e-10])
        return {"o": self.o}


class LmdeployPagedDecode(_PagedDecode, Row):
    """lmdeploy paged decode attention (split + reduce), GQA 2:1, f16: softmax(q k^T / sqrt(32)) v over the cache"""


class LmdeployPagedDecodePdl(_PagedDecode, Row):
    """lmdeploy paged decode attention as launched on sm_90: USE_PDL on (gdc_launch_dependents in the split kernel,
    gdc_wait in the reducer)"""
    pdl = True


class LmdeployPagedDecodeMaskOffByOneMutant(_PagedDecode, Mutation):
    """mutation: the key mask drops the decoding token's own key (history_len > pos instead of >=)"""
    mutate1 = [("qk_mask = history_len >= (start_n + offs_n)", "qk_mask = history_len > (start_n + offs_n)")]


class LmdeployPagedDecodeNoLog2eMutant(_PagedDecode, Mutation):
    """mutation: the scores are not converted to base 2 before exp2 (the log2(e) factor dropped)"""
    mutate1 = [("        qk = qk * tl_log2(math.e)\n", "        qk = qk\n")]


class LmdeployPagedDecodeReduceNoLRescaleMutant(_PagedDecode, Mutation):
    """mutation: the reduce rescales the splits' outputs to the common max but not their sums l_k"""
    mutate2 = [("l_k = l_k * alpha", "l_k = l_k")]


# ---- varlen prefill attention (flashattention.py) ----
FCQ, FCK = (0, 8, 20), (0, 12, 24)  # cu_seqlens_q, cu_seqlens_k: request 0 has 4 cached tokens of history
FH, FKV, FD = 2, 1, 32


class _FlashPrefill:
    """lmdeploy flash_attn_varlen_func's _flash_prefill_fwd_kernel (pytorch/kernels/cuda/flashattention.py): 2
    requests of 8 and 12 query tokens over 12 and 12 keys (request 0 continues after 4 cached tokens), cu_seqlens_q
    and cu_seqlens_k concrete (the q/kv start and length pointers None), 2 query heads on 1 KV head, head dim 32,
    f16, kv_layout 'hsd' (k, v [1][24][32]), softmax_scale 1/sqrt(32), no window, softcap, alibi, sinks or block
    sparsity. _get_block_d: BLOCK_DK = BLOCK_DV = 32, BLOCK_DK1 0; _kernel_meta_sm9x: BLOCK_M = BLOCK_N = 128,
    8 warps, 3 stages; grid (cdiv(max_seqlen_q 12, 128) = 1, 2 heads, 2 requests)"""
    mutate = None
    causal = True

    def setup(self):
        self.q = racer.input((FCQ[-1], FH, FD), "f16", range=(-1, 1))
        self.k = racer.input((FKV, FCK[-1], FD), "f16", range=(-1, 1))
        self.v = racer.input((FKV, FCK[-1], FD), "f16", range=(-2, 2))
        self.cq = racer.values(list(FCQ), dtype="i32")
        self.ck = racer.values(list(FCK), dtype="i32")
        self.o = racer.empty((FCQ[-1], FH, FD), "f16")

    def program_a(self):
        k = racer.triton(kernel(f"{CUDA}.flashattention", "_flash_prefill_fwd_kernel", self.mutate),
                         q_start_loc_ptr=None, q_seqlens_ptr=None, kv_start_loc_ptr=None, kv_seqlens_ptr=None,
                         sinks=None, alibi_slopes_ptr=None, stride_qs=FH * FD, stride_qh=FD, stride_qd=1,
                         stride_ks=FD, stride_kd=1, stride_vs=FD, stride_vd=1, stride_os=FH * FD, stride_oh=FD,
                         stride_od=1, head_dim_k=FD, head_dim_v=FD, causal=self.causal, window_size=-1,
                         logit_softcapping=0.0, shared_kv=False, block_sparse_size=1, BLOCK_M=128, BLOCK_N=128,
                         BLOCK_DK=FD, BLOCK_DK1=0, BLOCK_DV=FD, num_warps=8, num_stages=3)
        racer.launch(k, grid=(1, FH, len(FCQ) - 1),
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.write(self.o),
                           racer.read(self.cq), racer.read(self.ck), 1.0 / FD ** 0.5, FCK[-1] * FD, FCK[-1] * FD,
                           FH // FKV])
        return {"o": self.o}

    def program_b(self):
        n = FCQ[-1] * FH * FD
        racer.launch(ref(REF, "varlen_attention_ref"), grid=(n + 127) // 128, block=128,
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.read(self.cq),
                           racer.read(self.ck), racer.write(self.o), len(FCQ) - 1, FCQ[-1], FCK[-1], FH, FKV, FD,
                           1.0 / FD ** 0.5, int(self.causal)])
        return {"o": self.o}


class LmdeployFlashPrefillCausal(_FlashPrefill, Row):
    """lmdeploy varlen flash prefill, causal over a cached history, GQA 2:1, f16: query p sees keys <= history + p"""


class LmdeployFlashPrefillHistoryMutant(_FlashPrefill, Mutation):
    """mutation: the causal mask forgets the cached history (query p sees keys <= p)"""
    mutate = [("history_mask = history_len + start_m * BLOCK_M + tl.arange(0, BLOCK_M)",
               "history_mask = 0 + start_m * BLOCK_M + tl.arange(0, BLOCK_M)")]


class LmdeployFlashPrefillBidirectional(_FlashPrefill, Row):
    """lmdeploy varlen flash prefill, causal False (every query sees all of its request's keys, history included)"""
    causal = False


# ---- multinomial sampling (multinomial_sampling.py) ----
MB, MN = 3, 16
SEEDS, OFFSETS = [1234, 987654321, 2 ** 40 + 17], [0, 7, 123]


class _Multinomial:
    """lmdeploy _multinomial_sampling_kernel (pytorch/kernels/cuda/multinomial_sampling.py, multinomial_sampling): 3
    rows of 16 sorted softmax scores f32 (range (0, 0.2): some rows' mass stays below the sample), seeds and
    offsets i64 concrete (the sample is tl.rand(seed, offset), Philox), indices [3][16] i64 (the sort's
    permutation); BLOCK_N 128, grid (3,), 1 warp"""
    mutate = None

    def setup(self):
        self.s = racer.input((MB, MN), "f32", range=(0, 0.2))
        self.seed = racer.values(SEEDS, dtype="i64")
        self.off = racer.values(OFFSETS, dtype="i64")
        self.ids = racer.input((MB, MN), "i64", range=(0, 1000))
        self.out = racer.empty((MB,), "i64")

    def program_a(self):
        k = racer.triton(kernel(f"{CUDA}.multinomial_sampling", "_multinomial_sampling_kernel", self.mutate),
                         BLOCK_N=128, num_warps=1)
        racer.launch(k, grid=MB, args=[racer.read(self.s), racer.read(self.seed), racer.read(self.off),
                                       racer.read(self.ids), racer.write(self.out), MN, 1, MN, 1, MN])
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref(REF, "multinomial_ref"), grid=1, block=32,
                     args=[racer.read(self.s), racer.read(self.seed), racer.read(self.off), racer.read(self.ids),
                           racer.write(self.out), MB, MN])
        return {"out": self.out}


class LmdeployMultinomialSampling(_Multinomial, Row):
    """lmdeploy multinomial_sampling: the index of the first token whose running score sum reaches the sample"""


class LmdeployMultinomialSamplingOffsetMutant(_Multinomial, Mutation):
    """mutation: every request draws with request 0's Philox offset"""
    mutate = [("offset = tl.load(Offsets + batch_id).to(tl.int32)", "offset = tl.load(Offsets).to(tl.int32)")]


# ---- blocked fp8 GEMM (blocked_gemm_fp8.py) ----
QM, QN, QK, QG = 32, 32, 64, 32  # M, N, K, the scales' group size along K (and N)


class _Fp8Gemm:
    """lmdeploy _gemm_fp8_kernel (pytorch/kernels/cuda/blocked_gemm_fp8.py, blocked_gemm_fp8): e4m3 a[32][64] with
    per-token-group scales A_scale[32][2] (groups of 32 along K), e4m3 b[64][32] row-major (b.T not contiguous,
    so the sm_90 TMA kernel is not taken) with block scales B_scale[2][1] (32 x 32 blocks), output f16 (default
    out_dtype); group_ak = group_bk = group_bn = 32, BLOCK_K = max(group_ak, group_bk) = 32, GROUP_M 8. The
    autotuner's configs are 64 x 128 and 128 x 64 with 4 warps and 3 stages; scaled down to one 32 x 32 tile, 4
    warps, 3 stages, grid 1"""
    mutate = None

    def setup(self):
        self.a = racer.input((QM, QK), "fp8e4m3")
        self.asc = racer.input((QM, QK // QG), "f32", range=(1e-3, 1))
        self.b = racer.input((QK, QN), "fp8e4m3")
        self.bsc = racer.input((QK // QG, QN // QG), "f32", range=(1e-3, 1))
        self.c = racer.empty((QM, QN), "f16")

    def program_a(self):
        k = racer.triton(kernel(f"{CUDA}.blocked_gemm_fp8", "_gemm_fp8_kernel", self.mutate), N=QN, K=QK,
                         group_ak=QG, group_bk=QG, group_bn=QG, stride_ak=1, stride_asm=QK // QG, stride_bk=QN,
                         stride_bn=1, stride_bsk=QN // QG, stride_bsn=1, stride_cn=1, BLOCK_M=32, BLOCK_N=32,
                         BLOCK_K=QG, GROUP_M=8, num_warps=4, num_stages=3)
        racer.launch(k, grid=1, args=[racer.read(self.a), racer.read(self.asc), racer.read(self.b), racer.read(self.bsc),
                                      racer.write(self.c), QM, QK, 1, QN])
        return {"c": self.c}

    def program_b(self):
        racer.launch(ref(REF, "fp8_blocked_gemm_ref"), grid=(QM * QN + 127) // 128, block=128,
                     args=[racer.read(self.a), racer.read(self.asc), racer.read(self.b), racer.read(self.bsc),
                           racer.write(self.c), QM, QN, QK, QG, QG])
        return {"c": self.c}


class LmdeployFp8BlockedGemm(_Fp8Gemm, Row):
    """lmdeploy blocked_gemm_fp8 (non-TMA kernel): c = sum over K groups of a_scale b_scale (a_g b_g)"""


class LmdeployFp8BlockedGemmScaleGroupMutant(_Fp8Gemm, Mutation):
    """mutation: the next group's scales are read at the current group (k_start = k * BLOCK_K, not (k + 1))"""
    mutate = [("k_start = (k + 1) * BLOCK_K", "k_start = k * BLOCK_K")]
