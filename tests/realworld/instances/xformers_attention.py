"""xformers 0.0.35: split-K decoding attention (xformers/ops/fmha/_triton/splitk_kernels.py, launched by
ops/fmha/triton_splitk.py FwOp), against reference/xformers_attention.cu: the attention kernel with one split
(what FwOp picks for a short sequence), and the reduce that merges the splits' partial attentions by their
log-sum-exps. `_fwd_kernel_splitK` holds lists of tensors ("VAR_ARGS_ARRAY") that xformers' host code expands
before compiling (xformers/triton/vararg_kernel.py unroll_varargs, N = the quantization groups); that module
(ast rewriting, no torch) is executed from the installed package for it."""
import importlib.util
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

MOD = "xformers.ops.fmha._triton.splitk_kernels"
REF = "xformers_attention.cu"
_VARARG = None


def unrolled(fn, n=1):
    """xformers' unroll_varargs(fn, N=n), read from the installed xformers/triton/vararg_kernel.py alone
    (importing the xformers package would import torch)."""
    global _VARARG
    if _VARARG is None:
        spec = importlib.util.find_spec("xformers")
        path = os.path.join(list(spec.submodule_search_locations)[0], "triton", "vararg_kernel.py")
        s = importlib.util.spec_from_file_location("_xformers_vararg_kernel", path)
        _VARARG = importlib.util.module_from_spec(s)
        s.loader.exec_module(_VARARG)
    return _VARARG.unroll_varargs(fn, N=n)


N, H, D = 32, 2, 16  # keys, heads, head dim (one query per head: decoding)
NONE_ARGS = ("LSE_splitk", "block_tables", "Seq_len", "Seq_starts_k", "Seq_starts_q", "Seq_starts_q_multiplier",
             "additive_bias", "K_fp8_scale_shift", "V_fp8_scale_shift", "stride_lsek_z", "stride_lsek_g",
             "stride_lsek_h", "stride_lsek_s", "stride_lsek_m", "stride_blocktablesz", "stride_blocktablesl",
             "stride_bias_b", "stride_bias_g", "stride_bias_h", "stride_bias_qm", "stride_bias_km",
             "stride_k_fp8_scale_shift_z", "stride_k_fp8_scale_shift_n", "stride_k_fp8_scale_shift_g",
             "stride_k_fp8_scale_shift_h", "stride_v_fp8_scale_shift_z", "stride_v_fp8_scale_shift_n",
             "stride_v_fp8_scale_shift_g", "stride_v_fp8_scale_shift_h")


class _SplitKDecode:
    """xformers _fwd_kernel_splitK (ops/fmha/_triton/splitk_kernels.py, FwOp.apply in ops/fmha/triton_splitk.py,
    no attn_bias): q [1][1][1][2][16] bf16 (B, Mq, G, H, K), k, v [1][32][1][2][16] bf16, sm_scale 1/sqrt(16);
    get_split_k(1, 1, 2, 32, 1) = 1, so IS_SPLITK False and the kernel writes the bf16 output itself (o_splitk
    [B][1][Mq][G][H][K] permuted to (B, G, H, split, M, K): strides 32, 32, 16, 32, 32, 1), WRITE_LSE False (no
    gradient); unroll_varargs N_GROUPS 1, PACKED_PER_VAL 1, BLOCK_N_PER_SPLIT 32, BOUNDS_CHECKS_N (32 % 64 != 0),
    BLOCK_M 16, BLOCK_N 64, NUM_WARPS 2, NUM_STAGES 1 (FwOp's defaults; head dim 16 is not 128), grid
    (cdiv(1, 16), 1 x 1 x 2, 1) = (1, 2, 1); the None tensors and their strides constexpr None, IS_HIP False"""
    mutate = None

    def setup(self):
        self.q = racer.input((1, 1, 1, H, D), "bf16", range=(-2, 2))
        self.k = racer.input((1, N, 1, H, D), "bf16", range=(-2, 2))
        self.v = racer.input((1, N, 1, H, D), "bf16", range=(-2, 2))
        self.o = racer.empty((1, 1, 1, H, D), "bf16")

    def program_a(self):
        fn = unrolled(kernel(MOD, "_fwd_kernel_splitK", self.mutate), 1)
        consts = {a: None for a in NONE_ARGS}
        k = racer.triton(fn, kv_cache_blocks_per_row=0, Z=1, N_CTX_Q=1, N_CTX_K=N, BLOCK_N_PER_SPLIT=N, H=H, G=1,
                         BLOCK_DMODEL=D, USE_SEQ_LEN=False, PACKED_PER_VAL=1, N_GROUPS=1, BOUNDS_CHECKS_N=True,
                         BLOCK_M=16, BLOCK_N=64, IS_SPLITK=False, SPLIT_K_EARLY_EXIT=False, IS_CAUSAL=False,
                         IS_LOCAL=False, NUM_QUERIES_CAUSAL=1, USE_PAGED_ATTENTION=False, PAGE_SIZE=0, WINDOW_LEFT=-1,
                         WINDOW_RIGHT=-1, WRITE_LSE=False, HAS_ADDITIVE_BIAS=False, NUM_PROGRAMS_DIM2_CONST=1,
                         IS_HIP=False, num_warps=2, num_stages=1, **consts)
        racer.launch(k, grid=(1, H, 1),
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), 0.25, racer.write(self.o),
                           H * D, H * D, H * D, D, 1,  # q: z, m, g, h, k
                           N * H * D, H * D, H * D, D, 1,  # k: z, n, g, h, k
                           N * H * D, H * D, H * D, D, 1,  # v
                           H * D, H * D, D, H * D, H * D, 1])  # o_splitk: z, g, h, s, m, k
        return {"o": self.o}

    def program_b(self):
        racer.launch(ref(REF, "decode_attention_bf16"), grid=1, block=H * D,
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.write(self.o), N, H, D,
                           0.25])
        return {"o": self.o}


class XformersSplitKDecode(_SplitKDecode, Row):
    """xformers triton_splitK FwOp, decoding: out = softmax(q k^T / sqrt(d)) v per head"""


class XformersSplitKDecodeBoundsMutant(_SplitKDecode, Mutation):
    """mutation: an off-by-one in the key bound lets the padding key (score 0) into the softmax"""
    mutate = [("qk = tl.where(tl.arange(0, BLOCK_N) < hi - start_n, qk, float(\"-inf\"))",
               "qk = tl.where(tl.arange(0, BLOCK_N) <= hi - start_n, qk, float(\"-inf\"))")]


S, MCEIL = 3, 32  # splits; the splits' output rows are padded to MAX_BLOCK_M


class _SplitKReduce:
    """xformers _splitK_reduce (ops/fmha/_triton/splitk_kernels.py, merge_attentions in ops/fmha/triton_splitk.py,
    as FwOp.get_operator(3) calls it for a decoding query): attn_split [1][1][2][3][32][16] f32 (B, G, H, split,
    M_ceil, K; only row 0 of each split is used: Mq 1), lse_split [1][1][2][3][1] f64, out [1][1][1][2][16] bf16
    (B, M, G, H, K); split_k 3, splitK_pow2 4 (the masked path: the 4th split reads lse -inf and output 0), num_warps
    4 (B G H < 32), head_dim 16, head_dim_pow_2 16, WRITE_LSE False (lse_out None: no gradient), grid (1, 2, 1)"""
    mutate = None

    def setup(self):
        self.o = racer.input((1, 1, H, S, MCEIL, D), "f32", range=(-2, 2))
        self.lse = racer.input((1, 1, H, S, 1), "f64", range=(-4, 4))
        self.out = racer.empty((1, 1, 1, H, D), "bf16")

    def program_a(self):
        k = racer.triton(kernel(MOD, "_splitK_reduce", self.mutate), split_k=S, splitK_pow2=4,
                         stride_osk_z=H * S * MCEIL * D, stride_osk_g=H * S * MCEIL * D, stride_osk_h=S * MCEIL * D,
                         stride_osk_s=MCEIL * D, stride_osk_m=D, stride_osk_k=1, stride_lsek_z=H * S,
                         stride_lsek_g=H * S, stride_lsek_h=S, stride_lsek_s=1, stride_lsek_m=1, stride_oz=H * D,
                         stride_og=H * D, stride_oh=D, stride_om=H * D, stride_ok=1, stride_lse_z=None,
                         stride_lse_g=None, stride_lse_h=None, stride_lse_m=None, head_dim=D, head_dim_pow_2=D, H=H,
                         G=1, WRITE_LSE=False, LSE=None, num_warps=4)
        racer.launch(k, grid=(1, H, 1), args=[racer.read(self.o), racer.read(self.lse), racer.write(self.out)])
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref(REF, "merge_partials_bf16"), grid=1, block=H * D,
                     args=[racer.read(self.o), racer.read(self.lse), racer.write(self.out), H, S, D, MCEIL * D])
        return {"out": self.out}


class XformersSplitKReduce(_SplitKReduce, Row):
    """xformers merge_attentions: out = sum_s e^lse_s o_s / sum_s e^lse_s"""


class _MergeAttentions:
    """xformers _splitK_reduce (ops/fmha/_triton/splitk_kernels.py, the public xformers.ops.fmha.merge_attentions
    with stacked tensors, write_lse True, output_dtype None): attn_split [3][1][1][1][2][16] f32 (chunks, B, M, G,
    H, K) and lse_split [3][1][1][2][1] f32 of 3 attention chunks, permuted to (B, G, H, chunk, M, K): strides osk
    32, 32, 16, 32, 32, 1 and lsek 2, 2, 1, 2, 1; attn_out [1][1][1][2][16] f32, lse_out [1][1][2][1] f32; split_k
    3, splitK_pow2 4 (masked path), num_warps 4, head_dim 16, grid (1, 2, 1)"""
    mutate = None

    def setup(self):
        self.o = racer.input((S, 1, 1, 1, H, D), "f32", range=(-2, 2))
        self.lse = racer.input((S, 1, 1, H, 1), "f32", range=(-4, 4))
        self.out = racer.empty((1, 1, 1, H, D), "f32")
        self.lout = racer.empty((1, 1, H, 1), "f32")

    def program_a(self):
        k = racer.triton(kernel(MOD, "_splitK_reduce", self.mutate), split_k=S, splitK_pow2=4, stride_osk_z=H * D,
                         stride_osk_g=H * D, stride_osk_h=D, stride_osk_s=H * D, stride_osk_m=H * D, stride_osk_k=1,
                         stride_lsek_z=H, stride_lsek_g=H, stride_lsek_h=1, stride_lsek_s=H, stride_lsek_m=1,
                         stride_oz=H * D, stride_og=H * D, stride_oh=D, stride_om=H * D, stride_ok=1, stride_lse_z=H,
                         stride_lse_g=H, stride_lse_h=1, stride_lse_m=1, head_dim=D, head_dim_pow_2=D, H=H, G=1,
                         WRITE_LSE=True, num_warps=4)
        racer.launch(k, grid=(1, H, 1), args=[racer.read(self.o), racer.read(self.lse), racer.write(self.out),
                                              racer.write(self.lout)])
        return {"out": self.out, "lout": self.lout}

    def program_b(self):
        racer.launch(ref(REF, "merge_partials_lse_f32"), grid=1, block=H * D,
                     args=[racer.read(self.o), racer.read(self.lse), racer.write(self.out), racer.write(self.lout), H,
                           S, D, H * D, D, H, 1])
        return {"out": self.out, "lout": self.lout}


class XformersMergeAttentions(_MergeAttentions, Row):
    """xformers merge_attentions: out = sum_s e^lse_s o_s / sum_s e^lse_s, lse = log sum_s e^lse_s"""


class XformersMergeAttentionsPaddingMutant(_MergeAttentions, Mutation):
    """mutation: the padding chunk's lse reads 0 instead of -inf, adding a phantom weight to the denominator"""
    mutate = [("LSE_splitK_ptr0, mask=mask_1d, other=float(\"-inf\")\n        )",
               "LSE_splitK_ptr0, mask=mask_1d, other=0.0\n        )")]
