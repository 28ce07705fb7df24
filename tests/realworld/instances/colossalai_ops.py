"""colossalai 0.5.0 (ColossalAI, hpcaitech): its Triton kernels in colossalai/kernel/triton/ (the inference engine's
no-padding Llama path, plus a few older training kernels) against reference/colossalai_ops.cu. No other module of
the package holds an @triton.jit kernel.

Launches, as the library's host code picks them:
- rms_layernorm.py, _rmsnorm_kernel and _rmsnorm_with_residual_kernel (rms_layernorm, as nopadding_llama's and
  nopadding_baichuan's RMSNorm call it, f16): grid (M,), BLOCK_SIZE min(65536 // 2, next_power_of_2(N)), num_warps
  min(max(next_power_of_2(N) // 256, 8), 32) = 8 at these sizes; y is stored as f16 whatever the input is; with the
  residual, x + residual is written back into x (the hidden states the caller keeps) and normalized from there.
- softmax.py, softmax_kernel (softmax, no mask): grid (rows,), BLOCK_SIZE max(next_power_of_2(cols), 2), 4 warps
  below 2048 columns.
- llama_act_combine_kernel.py, _llama_act_combine_forward / _backward (LlamaActCombine, SwiGLU with the gate split in
  two halves): grid (M,), BLOCK_SIZE next_power_of_2(N), num_warps min(max(BLOCK_SIZE // 256, 1), 8) = 1.
- rotary_cache_copy.py (get_xine_cache, the cos/sin rows per token): prefill_cache_kernel over grid
  (cdiv(total, 16), 16), BLOCK_SIZE 16, N_ELEMENTS next_power_of_2(num_seqs), the cumsum of the lengths computed by
  the host; decoding_cache_kernel over grid (cdiv(num_seqs, 4),), BLOCK_SIZE 4, given lengths - 1 (the host's
  subtraction); 4 warps (hidden_dim < 128). The caches are [positions][head_dim / 2] (inference/utils.py).
- kvcache_copy.py: _copy_to_kcache_seqlen_n_kernel (copy_k_to_blocked_cache, n tokens per sequence, grid (bsz n,
  kv_heads, head_dim // x)) and _copy_to_kvcache_seqlen1_kernel (copy_kv_to_blocked_cache, grid (bsz, kv_heads)),
  4 warps, in both K cache layouts ([blocks][heads][block_size][head_dim], and [blocks][heads][head_dim / x]
  [block_size][x] with x = 8, 16 bytes of f16).
- no_pad_rotary_embedding.py: rotary_embedding_kernel (rotary_embedding without a cache: grid (q_heads,
  cdiv(tokens, 4)), BLOCK_TOKENS 4, GQA heads rotate their KV head once), fused_rotary_embedding_kernel_v2
  (rotary_embedding with a cache: grid (next_power_of_2(q_heads), tokens)) and decoding_fused_rotary_embedding_kernel
  (grid (q_heads, tokens), both K layouts, V copied to its cache); 4 warps (head_dim < 256).
- fused_rotary_embedding.py, fused_rotary_emb (fused_rotary_embedding): grid (cdiv(heads, 4), cdiv(tokens, 8), 8),
  BLOCK_HEAD 4, BLOCK_SIZE 8, N_ELEMENTS next_power_of_2(tokens), 4 warps.
- qkv_matmul_kernel.py, qkv_gemm_4d_kernel (no host function in the package calls it): its default tiles
  64x32x32 scaled down to 16x16x16 (GROUP_SIZE_M 8), 4 warps, grid (batch, heads, tiles); f16 in and out.
- context_attn_unpad.py (context_attention_unpadded): _fwd_context_paged_attention_kernel, its _v2 (the K cache in
  the x layout) and _alibi_fwd_context_paged_attention_kernel, grid (next_power_of_2(num_seqs), heads,
  cdiv(max_len, block_size)), BLOCK_M = BLOCK_N = block_size 16 (the smallest the host accepts), head_dim 32 (the
  smallest), Triton's default 4 warps, sm_scale 1 / sqrt(head_dim); f16. Each program also copies its block of K
  and V into the paged cache.
- flash_decoding.py (flash_decoding_attention): _flash_decoding_fwd_kernel or _alibi_flash_decoding_fwd_kernel over
  grid (next_power_of_2(bsz q_len), heads, cdiv(next_power_of_2(max_len), block_size)), one cache block per program
  (BLOCK_KV = block_size 16), then _flash_decoding_fwd_reduce_kernel over grid (next_power_of_2(bsz q_len),
  heads); q, caches and output f32 (one row f16, the engine's usual dtype: in f16 stage 1's tl.sum keeps float16,
  and Triton moves the f16 partial sums between lanes zero-extended to 32 bits, which Racer refused until session
  31), f32 split partials; q_len 2 is speculative decoding's verification.

Found by reading (see the rows named for each):
- fused_rotary_emb computes q's second half from k (out_q1 = k_0 sin + k_1 cos) and k's first half from q (out_k0 =
  q_0 cos - q_1 sin), addresses k's second half with q's token stride, and its host passes k_head_num = q's head
  count; it loads N_ELEMENTS = next_power_of_2(total tokens) entries of the num_seqs-long cumsum, so it reads past
  that tensor unless every sequence has one token and their count is a power of two (the only launch that stays in
  bounds, ColossalFusedRotaryEmb, which is refuted: expected inequivalent).
- fused_rotary_embedding_kernel_v2 (rotary_embedding with a k_cache) reads and caches k at the query head's index:
  with grouped KV heads it reads past each token's k heads and writes cache heads that do not exist
  (ColossalRotaryEmbeddingCacheGqa, refused on the out-of-bounds read); it leaves k itself unrotated, unlike the
  cache-less path.
- flash decoding's stage 1 sums q * k and p * v with tl.sum on f16 tensors in f16 (Triton keeps a float input's
  type), so in f16 the scores and outputs are accumulated in f16, not f32 (the same over the reals).
- prefill_cache_kernel loads next_power_of_2(num_seqs) entries of the num_seqs-long cumsum: with 3 sequences it
  reads one past the end, and that value enters the position (ColossalXineCachePrefillThreeSeqs, refused on it).
- softmax_kernel's masked branch reads `row_indx` (undefined; the kernel's variable is row_idx): softmax(x, mask)
  fails to compile (NameError), and its host asserts `input[-1] == mask[-1]` (tensors, not shapes); its path for
  more than 350000 rows passes n_rows and BLOCK_M, which the kernel does not take. Not rows.
Not rows: fused_rotary_embedding_kernel (v1), which no host function launches.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
from common import Mutation, Row, cdiv, kernel, next_power_of_2, ref  # noqa: E402

T = "colossalai.kernel.triton"
REF = "colossalai_ops.cu"


def f32(v):
    return racer.scalar(v, "f32")


# ---------------------------------------------------------------- rms_layernorm.py

class _RmsNorm:
    """rms_layernorm(x, w, eps, norm_output, residual): f16 x [3][40], w [40], y [3][40]; BLOCK_SIZE 64 (24 lanes
    masked), 8 warps, grid (3,)"""
    mutate = None
    M, N, eps, residual = 3, 40, 1e-5, False

    def setup(self):
        self.x = racer.input((self.M, self.N), "f16", range=(-2, 2))
        self.r = racer.input((self.M, self.N), "f16", range=(-2, 2)) if self.residual else None
        self.w = racer.input((self.N,), "f16", range=(-2, 2))
        self.y = racer.empty((self.M, self.N), "f16")

    def outputs(self):
        return {"y": self.y, "x": self.x} if self.residual else {"y": self.y}

    def program_a(self):
        name = "_rmsnorm_with_residual_kernel" if self.residual else "_rmsnorm_kernel"
        k = racer.triton(kernel(f"{T}.rms_layernorm", name, self.mutate), BLOCK_SIZE=next_power_of_2(self.N),
                         num_warps=min(max(next_power_of_2(self.N) // 256, 8), 32))
        args = [racer.readwrite(self.x) if self.residual else racer.read(self.x), racer.write(self.y)]
        args += [racer.read(self.r)] if self.residual else []
        args += [racer.read(self.w), self.N, self.N, self.eps]
        racer.launch(k, grid=(self.M,), args=args)
        return self.outputs()

    def program_b(self):
        racer.launch(ref(REF, "rmsnorm_f16"), grid=1, block=32,
                     args=[racer.readwrite(self.x) if self.residual else racer.read(self.x),
                           racer.read(self.r) if self.residual else None, racer.read(self.w), racer.write(self.y),
                           racer.readwrite(self.x) if self.residual else None, self.M, self.N, f32(self.eps)])
        return self.outputs()


class ColossalRmsNorm(_RmsNorm, Row):
    """colossalai _rmsnorm_kernel: y = x / sqrt(mean(x^2) + eps) w, f16 in and out"""


class ColossalRmsNormResidual(_RmsNorm, Row):
    """colossalai _rmsnorm_with_residual_kernel as nopadding_llama's RMSNorm calls it: x += residual (written back
    into x, f16), then y = rmsnorm(x) w; the variance is summed from the f32 sum, the output from the f16 one"""
    residual = True


class ColossalRmsNormBlockMeanMutant(_RmsNorm, Mutation):
    """mutation: the mean of squares divides by BLOCK_SIZE (64) instead of N (40)"""
    mutate = [("var = tl.sum(_var, axis=0) / N", "var = tl.sum(_var, axis=0) / BLOCK_SIZE")]


class ColossalRmsNormResidualEpsMutant(_RmsNorm, Mutation):
    """mutation: eps added outside the square root (1 / (sqrt(var) + eps))"""
    residual = True
    mutate = [("rstd = 1 / tl.sqrt(var + eps)", "rstd = 1 / (tl.sqrt(var) + eps)")]


# ---------------------------------------------------------------- softmax.py

class _Softmax:
    """softmax(x) over the last dim: grid (rows,), BLOCK_SIZE next_power_of_2(cols), 4 warps, mask_ptr None"""
    mutate = None
    M, N, dtype = 3, 40, "f32"

    def setup(self):
        self.x = racer.input((self.M, self.N), self.dtype, range=(-6, 6))
        self.y = racer.empty((self.M, self.N), self.dtype)

    def program_a(self):
        k = racer.triton(kernel(f"{T}.softmax", "softmax_kernel", self.mutate), mask_ptr=None,
                         BLOCK_SIZE=max(next_power_of_2(self.N), 2), num_warps=4)
        racer.launch(k, grid=(self.M,), args=[racer.write(self.y), racer.read(self.x), self.N, self.N])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref(REF, f"softmax_{self.dtype}"), grid=1, block=32,
                     args=[racer.read(self.x), racer.write(self.y), self.M, self.N])
        return {"y": self.y}


class ColossalSoftmax(_Softmax, Row):
    """colossalai softmax_kernel, f32, 3 rows of 40 (BLOCK_SIZE 64, masked lanes loaded as -inf)"""


class ColossalSoftmaxF16(_Softmax, Row):
    """colossalai softmax_kernel, f16 in and out (f32 inside), 2 rows of 100 (BLOCK_SIZE 128)"""
    M, N, dtype = 2, 100, "f16"


class ColossalSoftmaxMaskedLaneMutant(_Softmax, Mutation):
    """mutation: the masked lanes are loaded as 0 instead of -inf (each adds exp(-max) to the denominator)"""
    mutate = [('other=-float("inf")', "other=0.0")]


# ---------------------------------------------------------------- llama_act_combine_kernel.py

class _ActCombine:
    """LlamaActCombine: x_gate split into x_gate1, x_gate2 (contiguous), x_up, y [M][N]; grid (M,), BLOCK_SIZE
    next_power_of_2(N), num_warps 1, stride x_up.stride(-2) = N"""
    mutate = None
    M, N, dtype, backward = 3, 40, "f32", False

    def setup(self):
        shape = (self.M, self.N)
        self.g1 = racer.input(shape, self.dtype, range=(-3, 3))
        self.g2 = racer.input(shape, self.dtype, range=(-6, 6))
        self.up = racer.input(shape, self.dtype, range=(-3, 3))
        if self.backward:
            self.dy = racer.input(shape, self.dtype, range=(-2, 2))
            self.dg1, self.dg2, self.dup = (racer.empty(shape, self.dtype) for _ in range(3))
        else:
            self.y = racer.empty(shape, self.dtype)

    def outputs(self):
        if self.backward:
            return {"dg1": self.dg1, "dg2": self.dg2, "dup": self.dup}
        return {"y": self.y}

    def program_a(self):
        block = next_power_of_2(self.N)
        name = "_llama_act_combine_backward" if self.backward else "_llama_act_combine_forward"
        k = racer.triton(kernel(f"{T}.llama_act_combine_kernel", name, self.mutate), BLOCK_SIZE=block,
                         num_warps=min(max(block // 256, 1), 8))
        ins = [racer.read(self.g1), racer.read(self.g2), racer.read(self.up)]
        if self.backward:
            args = ins + [racer.write(self.dg1), racer.write(self.dg2), racer.write(self.dup), racer.read(self.dy)]
        else:
            args = ins + [racer.write(self.y)]
        racer.launch(k, grid=(self.M,), args=args + [self.N, self.N])
        return self.outputs()

    def program_b(self):
        n = self.M * self.N
        ins = [racer.read(self.g1), racer.read(self.g2), racer.read(self.up)]
        if self.backward:
            racer.launch(ref(REF, "act_combine_bwd_f32"), grid=cdiv(n, 128), block=128,
                         args=ins + [racer.read(self.dy), racer.write(self.dg1), racer.write(self.dg2),
                                     racer.write(self.dup), n])
        else:
            racer.launch(ref(REF, f"act_combine_fwd_{self.dtype}"), grid=cdiv(n, 128), block=128,
                         args=ins + [racer.write(self.y), n])
        return self.outputs()


class ColossalActCombineFwd(_ActCombine, Row):
    """colossalai _llama_act_combine_forward: y = x_gate1 silu(x_gate2) x_up, f32, 3 rows of 40 (BLOCK_SIZE 64)"""


class ColossalActCombineFwdBf16(_ActCombine, Row):
    """colossalai _llama_act_combine_forward in bf16 (sigmoid in f32 rounded to bf16, the products in bf16), 2 rows of
    72 (BLOCK_SIZE 128)"""
    M, N, dtype = 2, 72, "bf16"


class ColossalActCombineBwd(_ActCombine, Row):
    """colossalai _llama_act_combine_backward: the gradients of x_gate1, x_gate2 (silu'(v) = s (1 + v (1 - s))) and
    x_up, f32, 3 rows of 40"""
    backward = True


class ColossalActCombineFwdWrongGateMutant(_ActCombine, Mutation):
    """mutation: the sigmoid taken of x_gate1 instead of x_gate2"""
    mutate = [("x_gate2_sigmoid = tl.sigmoid(x_gate2.to(tl.float32)).to(x_gate2.dtype)",
               "x_gate2_sigmoid = tl.sigmoid(x_gate1.to(tl.float32)).to(x_gate2.dtype)")]


class ColossalActCombineBwdSiluGradMutant(_ActCombine, Mutation):
    """mutation: silu'(v) written s (1 + v s) instead of s (1 + v (1 - s))"""
    backward = True
    mutate = [("(1 + x_gate2 * (1 - x_gate2_sigmoid))", "(1 + x_gate2 * x_gate2_sigmoid)")]


# ---------------------------------------------------------------- rotary_cache_copy.py

class _XinePrefill:
    """get_xine_cache(lengths, cos, sin, is_prompts=True): prefill_cache_kernel, grid (cdiv(total, 16), 16), one token
    per program, BLOCK_SIZE 16, N_ELEMENTS next_power_of_2(num_seqs), cumsum(lengths) from the host; caches [16][16]
    f32 (head_dim 32), 4 warps"""
    mutate = None
    lens = (3, 5)
    P, D = 16, 16

    def setup(self):
        self.cos = racer.input((self.P, self.D), "f32", range=(-1, 1))
        self.sin = racer.input((self.P, self.D), "f32", range=(-1, 1))
        cums, acc = [], 0
        for n in self.lens:
            acc += n
            cums.append(acc)
        self.total = acc
        self.cumsum = racer.values(cums, dtype="i32")
        self.lengths = racer.values(list(self.lens), dtype="i32")
        self.cos_out = racer.empty((self.total, self.D), "f32")
        self.sin_out = racer.empty((self.total, self.D), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{T}.rotary_cache_copy", "prefill_cache_kernel", self.mutate), HIDDEN_DIM=self.D,
                         N_ELEMENTS=next_power_of_2(len(self.lens)), BLOCK_SIZE=16, num_warps=4)
        racer.launch(k, grid=(cdiv(self.total, 16), 16),
                     args=[racer.read(self.cos), racer.read(self.sin), racer.read(self.cumsum),
                           racer.write(self.cos_out), racer.write(self.sin_out), self.D, 1, self.total])
        return {"cos_out": self.cos_out, "sin_out": self.sin_out}

    def program_b(self):
        racer.launch(ref(REF, "rope_rows_prefill"), grid=cdiv(self.total * self.D, 128), block=128,
                     args=[racer.read(self.cos), racer.read(self.sin), racer.read(self.lengths),
                           racer.write(self.cos_out), racer.write(self.sin_out), len(self.lens), self.total, self.D])
        return {"cos_out": self.cos_out, "sin_out": self.sin_out}


class ColossalXineCachePrefill(_XinePrefill, Row):
    """colossalai prefill_cache_kernel: 2 sequences of 3 and 5 tokens, the cos/sin rows of their positions"""


class ColossalXineCachePrefillFourSeqs(_XinePrefill, Row):
    """colossalai prefill_cache_kernel: 4 sequences of 4, 7, 2 and 6 tokens (19 tokens: grid (2, 16), 13 programs
    past the end masked)"""
    lens = (4, 7, 2, 6)


class ColossalXineCachePrefillThreeSeqs(_XinePrefill, Row):
    """colossalai prefill_cache_kernel with 3 sequences (2, 5, 3 tokens): N_ELEMENTS = next_power_of_2(3) = 4
    entries of the 3-entry cumsum are loaded unmasked, so the kernel reads one int past the tensor, and whatever
    is there enters max(where(cumsum <= idx, cumsum, 0)), the start of the token's sequence. A library defect
    (out-of-bounds read); the row states what the kernel should compute"""
    lens = (2, 5, 3)


class ColossalXineCachePrefillBoundaryMutant(_XinePrefill, Mutation):
    """mutation: a token is placed after the sequence starts strictly before it (cumsum < idx): the first token of
    each later sequence gets the previous sequence's start"""
    lens = (4, 7, 2, 6)
    mutate = [("tl.where(cumsum_lens <= idx, cumsum_lens, 0)", "tl.where(cumsum_lens < idx, cumsum_lens, 0)")]


class ColossalXineCacheDecoding(Row):
    """colossalai decoding_cache_kernel (get_xine_cache, is_prompts=False): 3 sequences of 5, 2 and 9 tokens, the
    cos/sin rows of their last positions (the host passes lengths - 1); BLOCK_SIZE 4 (one lane masked), grid (1,),
    4 warps"""
    lens = (5, 2, 9)
    P, D = 12, 16

    def setup(self):
        self.cos = racer.input((self.P, self.D), "f32", range=(-1, 1))
        self.sin = racer.input((self.P, self.D), "f32", range=(-1, 1))
        self.nlengths = racer.values([n - 1 for n in self.lens], dtype="i32")
        self.lengths = racer.values(list(self.lens), dtype="i32")
        self.cos_out = racer.empty((len(self.lens), self.D), "f32")
        self.sin_out = racer.empty((len(self.lens), self.D), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{T}.rotary_cache_copy", "decoding_cache_kernel"), HIDDEN_DIM=self.D,
                         NUM_SEQS=len(self.lens), BLOCK_SIZE=4, num_warps=4)
        racer.launch(k, grid=(cdiv(len(self.lens), 4),),
                     args=[racer.read(self.cos), racer.read(self.sin), racer.read(self.nlengths),
                           racer.write(self.cos_out), racer.write(self.sin_out), self.D, 1])
        return {"cos_out": self.cos_out, "sin_out": self.sin_out}

    def program_b(self):
        racer.launch(ref(REF, "rope_rows_decode"), grid=1, block=64,
                     args=[racer.read(self.cos), racer.read(self.sin), racer.read(self.lengths),
                           racer.write(self.cos_out), racer.write(self.sin_out), len(self.lens), self.D])
        return {"cos_out": self.cos_out, "sin_out": self.sin_out}


# ---------------------------------------------------------------- kvcache_copy.py

BS = 16  # cache block size


def cache_shape(blocks, heads, D, x):
    return (blocks, heads, BS, D) if x == D else (blocks, heads, D // x, BS, x)


def cache_strides(heads, D, x):
    """(block, head, split_x, slot, element) strides of a contiguous cache in either layout"""
    if x == D:
        return [heads * BS * D, BS * D, 0, D, 1]
    return [heads * BS * D, BS * D, BS * x, x, 1]


class _CopyK:
    """copy_k_to_blocked_cache(k, k_cache, kv_lengths, block_tables, n, use_new_kcache_layout):
    _copy_to_kcache_seqlen_n_kernel over grid (bsz n, kv_heads, head_dim // x), 4 warps; k [bsz n][2][16] f16,
    the cache (9 blocks) updated in place, block tables [3][3] concrete"""
    mutate = None
    lens, n, D, H, x = (5, 17, 33), 1, 16, 2, 16
    blocks = 9
    tables = [[0, 5, 6], [1, 2, 7], [8, 3, 4]]

    def setup(self):
        b = len(self.lens)
        self.k = racer.input((b * self.n, self.H, self.D), "f16", range=(-2, 2))
        self.cache = racer.input(cache_shape(self.blocks, self.H, self.D, self.x), "f16", range=(-2, 2))
        self.bt = racer.values(self.tables, dtype="i32")
        self.kv_lens = racer.values(list(self.lens), dtype="i32")

    def program_a(self):
        b, H, D = len(self.lens), self.H, self.D
        k = racer.triton(kernel(f"{T}.kvcache_copy", "_copy_to_kcache_seqlen_n_kernel", self.mutate), HEAD_DIM=D,
                         KCACHE_X=self.x, num_warps=4)
        racer.launch(k, grid=(b * self.n, H, D // self.x),
                     args=[racer.read(self.k), racer.readwrite(self.cache), racer.read(self.bt),
                           racer.read(self.kv_lens), H * D, D, 1] + cache_strides(H, D, self.x) +
                          [3, 1, BS, self.n])
        return {"cache": self.cache}

    def program_b(self):
        b, H, D = len(self.lens), self.H, self.D
        racer.launch(ref(REF, "to_cache_f16"), grid=cdiv(b * self.n * H * D, 128), block=128,
                     args=[racer.read(self.k), racer.readwrite(self.cache), racer.read(self.bt),
                           racer.read(self.kv_lens), b, self.n, 0, b * self.n, H, D, BS, self.x, 3])
        return {"cache": self.cache}


class ColossalCopyKToCache(_CopyK, Row):
    """colossalai _copy_to_kcache_seqlen_n_kernel, decoding (n 1), cache [blocks][heads][16][16]: each sequence's
    new key goes to slot (len - 1) % 16 of its block (len - 1) // 16"""


class ColossalCopyKToCacheSpecNewLayout(_CopyK, Row):
    """colossalai _copy_to_kcache_seqlen_n_kernel with n 3 tokens per sequence (speculative decoding) into the x
    layout [blocks][heads][16 / 8][16][8]: positions len - 3 .. len - 1 (the second and third sequences cross a
    block boundary); grid (9, 2, 2)"""
    n, x = 3, 8


class ColossalCopyKToCacheSpecShiftMutant(_CopyK, Mutation):
    """mutation: the token shift forgets the +1 (positions len .. len + n - 1 instead of len - n .. len - 1)"""
    n, x = 3, 8
    mutate = [("cur_token_shift = cur_token_idx - (n_tokens * (cur_seq_idx + 1))",
               "cur_token_shift = cur_token_idx - (n_tokens * cur_seq_idx)")]


class _CopyKv:
    """copy_kv_to_blocked_cache(k, v, k_cache, v_cache, kv_lengths, block_tables, use_new_kcache_layout):
    _copy_to_kvcache_seqlen1_kernel over grid (bsz, kv_heads), 4 warps; k, v [3][2][16] f16, V cache
    [9][2][16][16], block tables [3][3]"""
    mutate = None
    lens, D, H, x = (5, 17, 33), 16, 2, 16
    blocks = 9
    tables = [[0, 5, 6], [1, 2, 7], [8, 3, 4]]

    def setup(self):
        b = len(self.lens)
        self.k = racer.input((b, self.H, self.D), "f16", range=(-2, 2))
        self.v = racer.input((b, self.H, self.D), "f16", range=(-2, 2))
        self.kc = racer.input(cache_shape(self.blocks, self.H, self.D, self.x), "f16", range=(-2, 2))
        self.vc = racer.input(cache_shape(self.blocks, self.H, self.D, self.D), "f16", range=(-2, 2))
        self.bt = racer.values(self.tables, dtype="i32")
        self.kv_lens = racer.values(list(self.lens), dtype="i32")

    def program_a(self):
        b, H, D = len(self.lens), self.H, self.D
        k = racer.triton(kernel(f"{T}.kvcache_copy", "_copy_to_kvcache_seqlen1_kernel", self.mutate), HEAD_DIM=D,
                         KCACHE_X=self.x, num_warps=4)
        kcs = cache_strides(H, D, self.x)
        racer.launch(k, grid=(b, H),
                     args=[racer.read(self.k), racer.read(self.v), racer.readwrite(self.kc), racer.readwrite(self.vc),
                           racer.read(self.bt), racer.read(self.kv_lens), H * D, D, 1, H * D, D, 1,
                           kcs[0], kcs[1], kcs[2], kcs[3], kcs[4], H * BS * D, BS * D, D, 1, 3, 1, BS])
        return {"kc": self.kc, "vc": self.vc}

    def program_b(self):
        b, H, D = len(self.lens), self.H, self.D
        for src, cache, x in ((self.k, self.kc, self.x), (self.v, self.vc, D)):
            racer.launch(ref(REF, "to_cache_f16"), grid=cdiv(b * H * D, 128), block=128,
                         args=[racer.read(src), racer.readwrite(cache), racer.read(self.bt), racer.read(self.kv_lens),
                               b, 1, 0, b, H, D, BS, x, 3])
        return {"kc": self.kc, "vc": self.vc}


class ColossalCopyKvToCache(_CopyKv, Row):
    """colossalai _copy_to_kvcache_seqlen1_kernel, both caches [blocks][heads][16][16]"""


class ColossalCopyKvToCacheNewLayout(_CopyKv, Row):
    """colossalai _copy_to_kvcache_seqlen1_kernel with the K cache in the x layout (x 8: two static splits)"""
    x = 8


class ColossalCopyKvToCacheSlotMutant(_CopyKv, Mutation):
    """mutation: the slot of the new token is len instead of len - 1"""
    mutate = [("past_kv_seq_len = tl.load(context_lengths + cur_seq_idx) - 1",
               "past_kv_seq_len = tl.load(context_lengths + cur_seq_idx)")]


# ---------------------------------------------------------------- no_pad_rotary_embedding.py

class _Rotary:
    """rotary_embedding(q, k, cos, sin) without a cache: rotary_embedding_kernel over grid (q_heads, cdiv(tokens,
    4)), BLOCK_TOKENS 4, KV_GROUP_NUM q_heads / kv_heads, 4 warps; q [6][4][32], k [6][2][32], cos and sin [6][16]
    (gathered per token by get_xine_cache), f32, rotated in place (rotate-half)"""
    mutate = None
    Tn, H, KVH, D = 6, 4, 2, 32

    def setup(self):
        self.q = racer.input((self.Tn, self.H, self.D), "f32", range=(-2, 2))
        self.k = racer.input((self.Tn, self.KVH, self.D), "f32", range=(-2, 2))
        self.cos = racer.input((self.Tn, self.D // 2), "f32", range=(-1, 1))
        self.sin = racer.input((self.Tn, self.D // 2), "f32", range=(-1, 1))

    def program_a(self):
        Tn, H, KVH, D = self.Tn, self.H, self.KVH, self.D
        k = racer.triton(kernel(f"{T}.no_pad_rotary_embedding", "rotary_embedding_kernel", self.mutate),
                         Q_HEAD_NUM=H, KV_GROUP_NUM=H // KVH, HEAD_DIM=D, BLOCK_TOKENS=4, num_warps=4)
        racer.launch(k, grid=(H, cdiv(Tn, 4)),
                     args=[racer.readwrite(self.q), racer.readwrite(self.k), racer.read(self.cos), racer.read(self.sin),
                           H * D, D, KVH * D, D, 1, D // 2, 1, Tn])
        return {"q": self.q, "k": self.k}

    def program_b(self):
        Tn, D = self.Tn, self.D
        for t, heads in ((self.q, self.H), (self.k, self.KVH)):
            racer.launch(ref(REF, "rope_inplace"), grid=cdiv(Tn * heads * D // 2, 128), block=128,
                         args=[racer.readwrite(t), racer.read(self.cos), racer.read(self.sin), None, 0, Tn, heads, D])
        return {"q": self.q, "k": self.k}


class ColossalRotaryEmbedding(_Rotary, Row):
    """colossalai rotary_embedding_kernel: 6 tokens (the second token block half masked), 4 query heads on 2 KV heads
    (heads 0 and 2 rotate KV heads 0 and 1)"""


class ColossalRotaryEmbeddingSignMutant(_Rotary, Mutation):
    """mutation: q's second half rotated with the wrong sign (q0 sin - q1 cos)"""
    mutate = [("out_q1 = loaded_q0 * loaded_sin[:, None, :] + loaded_q1 * loaded_cos[:, None, :]",
               "out_q1 = loaded_q0 * loaded_sin[:, None, :] - loaded_q1 * loaded_cos[:, None, :]")]


class _RotaryCache:
    """rotary_embedding(q, k, cos, sin, k_cache, block_tables, kv_lengths): fused_rotary_embedding_kernel_v2 over
    grid (next_power_of_2(q_heads), tokens), 4 warps; decoding, one token per sequence (lengths 5, 17, 30); q rotated
    in place, the rotated k written to slot len - 1 of the cache [6][kv_heads][16][32] (k itself is left as it
    is); cos, sin [3][16]; f32"""
    mutate = None
    lens, H, KVH, D = (5, 17, 30), 3, 3, 32
    blocks = 6
    tables = [[0, 3], [4, 1], [5, 2]]

    def setup(self):
        Tn = len(self.lens)
        self.q = racer.input((Tn, self.H, self.D), "f32", range=(-2, 2))
        self.k = racer.input((Tn, self.KVH, self.D), "f32", range=(-2, 2))
        self.cos = racer.input((Tn, self.D // 2), "f32", range=(-1, 1))
        self.sin = racer.input((Tn, self.D // 2), "f32", range=(-1, 1))
        self.kc = racer.input((self.blocks, self.KVH, BS, self.D), "f32", range=(-2, 2))
        self.bt = racer.values(self.tables, dtype="i32")
        self.kv_lens = racer.values(list(self.lens), dtype="i32")

    def program_a(self):
        Tn, H, KVH, D = len(self.lens), self.H, self.KVH, self.D
        k = racer.triton(kernel(f"{T}.no_pad_rotary_embedding", "fused_rotary_embedding_kernel_v2", self.mutate),
                         Q_HEAD_NUM=H, HEAD_DIM=D, num_warps=4)
        racer.launch(k, grid=(next_power_of_2(H), Tn),
                     args=[racer.readwrite(self.q), racer.read(self.k), racer.read(self.cos), racer.read(self.sin),
                           racer.readwrite(self.kc), racer.read(self.bt), racer.read(self.kv_lens),
                           H * D, D, KVH * D, D, 1, D // 2, 1, KVH * BS * D, BS * D, D, 1, 2, 1, BS, Tn])
        return {"q": self.q, "kc": self.kc}

    def program_b(self):
        Tn, H, KVH, D = len(self.lens), self.H, self.KVH, self.D
        racer.launch(ref(REF, "rope_inplace"), grid=cdiv(Tn * H * D // 2, 128), block=128,
                     args=[racer.readwrite(self.q), racer.read(self.cos), racer.read(self.sin), None, 0, Tn, H, D])
        racer.launch(ref(REF, "rope_to_cache"), grid=cdiv(Tn * KVH * D // 2, 128), block=128,
                     args=[racer.read(self.k), racer.read(self.cos), racer.read(self.sin), racer.readwrite(self.kc),
                           racer.read(self.bt), racer.read(self.kv_lens), Tn, KVH, D, BS, D, 2])
        return {"q": self.q, "kc": self.kc}


class ColossalRotaryEmbeddingCache(_RotaryCache, Row):
    """colossalai fused_rotary_embedding_kernel_v2, 3 heads (MHA; grid (4, 3), the fourth head's programs return)"""


class ColossalRotaryEmbeddingCacheGqa(_RotaryCache, Row):
    """colossalai fused_rotary_embedding_kernel_v2 with 4 query heads on 2 KV heads (Llama-style GQA, which
    rotary_embedding accepts: it asserts q_heads % kv_heads == 0): the kernel loads k and writes the cache at the
    query head's index (block_head_index), so heads 2 and 3 read past each token's 2 KV heads (the next token's k,
    past the tensor for the last) and write cache heads that do not exist (the next block's, past the cache for the
    last). A library defect; the row states what rotary_embedding should do (KV head h rotated into its cache).
    Racer: inequivalent, a manifest witness at kc[1,0,4,0] (the next block's cache overwritten by token 0's head
    2), with the out-of-bounds reads of k reported"""
    expect = "inequivalent"
    H, KVH = 4, 2


class _DecodingRotary:
    """decoding_fused_rotary_embedding(q, k, v, cos, sin, k_cache, v_cache, block_tables, kv_lengths,
    use_new_kcache_layout): decoding_fused_rotary_embedding_kernel over grid (q_heads, tokens), 4 warps; one token
    per sequence (lengths 5, 17, 30), q [3][4][32] rotated in place, k [3][2][32] rotated into the K cache, v copied
    into the V cache at slot len - 1; caches of 6 blocks, f32"""
    mutate = None
    lens, H, KVH, D, x = (5, 17, 30), 4, 2, 32, 32
    blocks = 6
    tables = [[0, 3], [4, 1], [5, 2]]

    def setup(self):
        Tn = len(self.lens)
        self.q = racer.input((Tn, self.H, self.D), "f32", range=(-2, 2))
        self.k = racer.input((Tn, self.KVH, self.D), "f32", range=(-2, 2))
        self.v = racer.input((Tn, self.KVH, self.D), "f32", range=(-2, 2))
        self.cos = racer.input((Tn, self.D // 2), "f32", range=(-1, 1))
        self.sin = racer.input((Tn, self.D // 2), "f32", range=(-1, 1))
        self.kc = racer.input(cache_shape(self.blocks, self.KVH, self.D, self.x), "f32", range=(-2, 2))
        self.vc = racer.input(cache_shape(self.blocks, self.KVH, self.D, self.D), "f32", range=(-2, 2))
        self.bt = racer.values(self.tables, dtype="i32")
        self.kv_lens = racer.values(list(self.lens), dtype="i32")

    def outputs(self):
        return {"q": self.q, "kc": self.kc, "vc": self.vc}

    def program_a(self):
        Tn, H, KVH, D = len(self.lens), self.H, self.KVH, self.D
        k = racer.triton(kernel(f"{T}.no_pad_rotary_embedding", "decoding_fused_rotary_embedding_kernel",
                                self.mutate), KV_GROUP_NUM=H // KVH, HEAD_DIM=D, num_warps=4)
        kcs = cache_strides(KVH, D, self.x)
        racer.launch(k, grid=(H, Tn),
                     args=[racer.readwrite(self.q), racer.read(self.k), racer.read(self.v), racer.read(self.cos),
                           racer.read(self.sin), racer.readwrite(self.kc), racer.readwrite(self.vc),
                           racer.read(self.bt), racer.read(self.kv_lens), self.x, H * D, D, KVH * D, D, 1, D // 2, 1,
                           kcs[0], kcs[1], kcs[2], kcs[3], kcs[4], KVH * BS * D, BS * D, D, 1, 2, 1, BS])
        return self.outputs()

    def program_b(self):
        Tn, H, KVH, D = len(self.lens), self.H, self.KVH, self.D
        racer.launch(ref(REF, "rope_inplace"), grid=cdiv(Tn * H * D // 2, 128), block=128,
                     args=[racer.readwrite(self.q), racer.read(self.cos), racer.read(self.sin), None, 0, Tn, H, D])
        racer.launch(ref(REF, "rope_to_cache"), grid=cdiv(Tn * KVH * D // 2, 128), block=128,
                     args=[racer.read(self.k), racer.read(self.cos), racer.read(self.sin), racer.readwrite(self.kc),
                           racer.read(self.bt), racer.read(self.kv_lens), Tn, KVH, D, BS, self.x, 2])
        racer.launch(ref(REF, "to_cache_f32"), grid=cdiv(Tn * KVH * D, 128), block=128,
                     args=[racer.read(self.v), racer.readwrite(self.vc), racer.read(self.bt),
                           racer.read(self.kv_lens), Tn, 1, 0, Tn, KVH, D, BS, D, 2])
        return self.outputs()


class ColossalDecodingRotary(_DecodingRotary, Row):
    """colossalai decoding_fused_rotary_embedding_kernel, both caches [blocks][heads][16][32]"""


class ColossalDecodingRotaryNewLayout(_DecodingRotary, Row):
    """colossalai decoding_fused_rotary_embedding_kernel with the K cache in the x layout [6][2][32 / 8][16][8]"""
    x = 8


class ColossalDecodingRotarySlotMutant(_DecodingRotary, Mutation):
    """mutation: the new token's cache slot is len instead of len - 1"""
    x = 8
    mutate = [("past_kv_seq_len = tl.load(context_lengths + cur_token_idx) - 1",
               "past_kv_seq_len = tl.load(context_lengths + cur_token_idx)")]


# ---------------------------------------------------------------- fused_rotary_embedding.py

class ColossalFusedRotaryEmb(Row):
    """colossalai fused_rotary_emb as fused_rotary_embedding launches it, on the only shape where its loads stay in
    bounds (4 sequences of one token: N_ELEMENTS = next_power_of_2(4 tokens) = 4 = num_seqs): q, k [4][4][16] f32
    (the host takes k's head count from q), cos, sin [4][8]; grid (1, 1, 8), BLOCK_HEAD 4, BLOCK_SIZE 8, 4 warps.
    Expected inequivalent, a library defect: the kernel stores q's second half as k_0 sin + k_1 cos and k's first
    half as q_0 cos - q_1 sin (fused_rotary_embedding.py:91-95), where rotate-half RoPE gives q_0 sin + q_1 cos and
    k_0 cos - k_1 sin. The reference is the rotary embedding fused_rotary_embedding documents."""
    expect = "inequivalent"
    lens, H, D = (1, 1, 1, 1), 4, 16

    def setup(self):
        Tn = sum(self.lens)
        self.q = racer.input((Tn, self.H, self.D), "f32", range=(-2, 2))
        self.k = racer.input((Tn, self.H, self.D), "f32", range=(-2, 2))
        self.cos = racer.input((Tn, self.D // 2), "f32", range=(-1, 1))
        self.sin = racer.input((Tn, self.D // 2), "f32", range=(-1, 1))
        cums, acc = [], 0
        for n in self.lens:
            acc += n
            cums.append(acc)
        self.cumsum = racer.values(cums, dtype="i32")
        self.lengths = racer.values(list(self.lens), dtype="i32")

    def program_a(self):
        Tn, H, D = sum(self.lens), self.H, self.D
        k = racer.triton(kernel(f"{T}.fused_rotary_embedding", "fused_rotary_emb"), Q_HEAD_NUM=H, K_HEAD_NUM=H,
                         HEAD_DIM=D, BLOCK_HEAD=4, BLOCK_SIZE=8, N_ELEMENTS=next_power_of_2(Tn), num_warps=4)
        racer.launch(k, grid=(cdiv(H, 4), cdiv(Tn, 8), 8),
                     args=[racer.readwrite(self.q), racer.readwrite(self.k), racer.read(self.cos), racer.read(self.sin),
                           racer.read(self.cumsum), H * D, D, H * D, D, 1, D // 2, 1, Tn])
        return {"q": self.q, "k": self.k}

    def program_b(self):
        Tn, H, D = sum(self.lens), self.H, self.D
        for t in (self.q, self.k):
            racer.launch(ref(REF, "rope_inplace"), grid=cdiv(Tn * H * D // 2, 128), block=128,
                         args=[racer.readwrite(t), racer.read(self.cos), racer.read(self.sin),
                               racer.read(self.lengths), len(self.lens), Tn, H, D])
        return {"q": self.q, "k": self.k}


# ---------------------------------------------------------------- qkv_matmul_kernel.py

class _QkvGemm:
    """qkv_gemm_4d_kernel: c[b][h] = a[b][h] b[b][h] (scaled when scale > 0) over 4-D tensors given by strides,
    tiles 16x16x16 (the defaults 64x32x32 scaled down), GROUP_SIZE_M 8, 4 warps, grid (batch, heads,
    cdiv(M, 16) cdiv(N, 16)); f16 in and out, f32 accumulation. Q K^T: a = q (bs, M, h, K), b = k (bs, N, h, K)
    read as [K][N], c (bs, h, M, N), scale 1/sqrt(K); batch 2, heads 2, M 24, N 20, K 40 (masked tiles on every
    axis)"""
    mutate = None
    Bt, H, M, N, K = 2, 2, 24, 20, 40
    scores_v = False

    def setup(self):
        Bt, H, M, N, K = self.Bt, self.H, self.M, self.N, self.K
        if self.scores_v:  # scores (bs, h, M, K) times v (bs, K, h, N) into (bs, M, h, N)
            self.a = racer.input((Bt, H, M, K), "f16", range=(0, 1))
            self.b = racer.input((Bt, K, H, N), "f16", range=(-2, 2))
            self.c = racer.empty((Bt, M, H, N), "f16")
            self.sa = [H * M * K, M * K, K, 1]
            self.sb = [K * H * N, N, H * N, 1]
            self.sc = [M * H * N, N, H * N, 1]
            self.scale = 0.0
        else:
            self.a = racer.input((Bt, M, H, K), "f16", range=(-2, 2))
            self.b = racer.input((Bt, N, H, K), "f16", range=(-2, 2))
            self.c = racer.empty((Bt, H, M, N), "f16")
            self.sa = [M * H * K, K, H * K, 1]
            self.sb = [N * H * K, K, 1, H * K]
            self.sc = [H * M * N, M * N, N, 1]
            self.scale = 1.0 / math.sqrt(K)

    def program_a(self):
        k = racer.triton(kernel(f"{T}.qkv_matmul_kernel", "qkv_gemm_4d_kernel", self.mutate), BLOCK_SIZE_M=16,
                         BLOCK_SIZE_N=16, BLOCK_SIZE_K=16, GROUP_SIZE_M=8, num_warps=4)
        racer.launch(k, grid=(self.Bt, self.H, cdiv(self.M, 16) * cdiv(self.N, 16)),
                     args=[racer.read(self.a), racer.read(self.b), racer.write(self.c), self.M, self.N, self.K] +
                          self.sa + self.sb + self.sc + [self.scale])
        return {"c": self.c}

    def program_b(self):
        n = self.Bt * self.H * self.M * self.N
        racer.launch(ref(REF, "bmm4d_f16"), grid=cdiv(n, 128), block=128,
                     args=[racer.read(self.a), racer.read(self.b), racer.write(self.c), self.Bt, self.H, self.M,
                           self.N, self.K] + self.sa + self.sb + self.sc + [f32(self.scale)])
        return {"c": self.c}


class ColossalQkvGemm(_QkvGemm, Row):
    """colossalai qkv_gemm_4d_kernel as Q K^T / sqrt(d)"""


class ColossalQkvGemmScoresV(_QkvGemm, Row):
    """colossalai qkv_gemm_4d_kernel as scores V (scale 0: not applied): a (bs, h, M, K), v (bs, K, h, N) into
    (bs, M, h, N); M 24, K 20, N 24"""
    M, N, K = 24, 24, 20
    scores_v = True


class ColossalQkvGemmOverwriteMutant(_QkvGemm, Mutation):
    """mutation: the K loop assigns the tile's product instead of accumulating it (only the last of 3 K tiles)"""
    mutate = [("accumulator += tl.dot(a, b)", "accumulator = tl.dot(a, b)")]


# ---------------------------------------------------------------- context_attn_unpad.py

class _Context:
    """context_attention_unpadded(q, k, v, k_cache, v_cache, context_lengths, block_tables, block_size 16, ...):
    2 packed sequences of 7 and 18 tokens, 2 query heads on 1 KV head, head_dim 32, f16; grid (2, 2, 2), BLOCK_M =
    BLOCK_N = BLOCK_SIZE 16, 4 warps, sm_scale 1/sqrt(32); o [25][2 * 32]; each sequence's K and V copied into its
    cache blocks (block tables [[2, 0], [1, 3]], caches of 4 blocks)"""
    mutate = None
    lens, H, KVH, D, x = (7, 18), 2, 1, 32, 32
    alibi = False
    blocks = 4
    tables = [[2, 0], [1, 3]]

    def setup(self):
        Tn = sum(self.lens)
        self.q = racer.input((Tn, self.H, self.D), "f16", range=(-1, 1))
        self.k = racer.input((Tn, self.KVH, self.D), "f16", range=(-1, 1))
        self.v = racer.input((Tn, self.KVH, self.D), "f16", range=(-2, 2))
        self.kc = racer.input(cache_shape(self.blocks, self.KVH, self.D, self.x), "f16", range=(-2, 2))
        self.vc = racer.input(cache_shape(self.blocks, self.KVH, self.D, self.D), "f16", range=(-2, 2))
        self.bt = racer.values(self.tables, dtype="i32")
        self.ctx = racer.values(list(self.lens), dtype="i32")
        self.slopes = racer.input((self.H,), "f32", range=(0.05, 1)) if self.alibi else None
        self.o = racer.empty((Tn, self.H * self.D), "f16")

    def outputs(self):
        return {"o": self.o, "kc": self.kc, "vc": self.vc}

    def program_a(self):
        b, H, KVH, D = len(self.lens), self.H, self.KVH, self.D
        consts = dict(KV_GROUPS=H // KVH, BLOCK_SIZE=BS, HEAD_DIM=D, BLOCK_M=BS, BLOCK_N=BS, num_warps=4)
        if self.x != D:
            name, consts["KCACHE_X"] = "_fwd_context_paged_attention_kernel_v2", self.x
        elif self.alibi:
            name = "_alibi_fwd_context_paged_attention_kernel"
        else:
            name = "_fwd_context_paged_attention_kernel"
        k = racer.triton(kernel(f"{T}.context_attn_unpad", name, self.mutate), **consts)
        args = [racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.write(self.o),
                racer.readwrite(self.kc), racer.readwrite(self.vc), racer.read(self.bt), b]
        args += [racer.read(self.slopes)] if self.alibi else []
        args += [H * D, D, 1, KVH * D, D, 1, KVH * D, D, 1, H * D, D, 1, KVH * BS * D, BS * D, D, 1,
                 2, 1, racer.read(self.ctx), 1.0 / math.sqrt(D)]
        racer.launch(k, grid=(next_power_of_2(b), H, cdiv(max(self.lens), BS)), args=args)
        return self.outputs()

    def program_b(self):
        b, Tn, H, KVH, D = len(self.lens), sum(self.lens), self.H, self.KVH, self.D
        racer.launch(ref(REF, "prefill_attention_f16"), grid=cdiv(Tn * H * D, 128), block=128,
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.write(self.o),
                           racer.read(self.ctx), racer.read(self.slopes) if self.alibi else None, b, Tn, H, KVH, D,
                           f32(1.0 / math.sqrt(D))])
        for src, cache, x in ((self.k, self.kc, self.x), (self.v, self.vc, D)):
            racer.launch(ref(REF, "to_cache_f16"), grid=cdiv(Tn * KVH * D, 128), block=128,
                         args=[racer.read(src), racer.readwrite(cache), racer.read(self.bt), racer.read(self.ctx),
                               b, 1, 1, Tn, KVH, D, BS, x, 2])
        return self.outputs()


class ColossalContextAttention(_Context, Row):
    """colossalai _fwd_context_paged_attention_kernel: causal attention within each packed sequence (the 18-token
    one spans two 16-blocks, the second block of the 7-token one returns early), K/V copied into the caches"""


class ColossalContextAttentionNewLayout(_Context, Row):
    """colossalai _fwd_context_paged_attention_kernel_v2: the same with the K cache in the x layout (x 8)"""
    x = 8


class ColossalContextAttentionAlibi(_Context, Row):
    """colossalai _alibi_fwd_context_paged_attention_kernel: scores sm_scale q.k - slope_h (i - j) for j <= i,
    slopes [2] f32 in (0.05, 1) (ALiBi's are positive)"""
    alibi = True


class ColossalContextAttentionNoRescaleMutant(_Context, Mutation):
    """mutation: the running output is not rescaled when a later key block raises the row max"""
    mutate = [("acc = acc * scale[:, None]", "acc = acc")]


class ColossalContextAttentionCacheMaskMutant(_Context, Mutation):
    """mutation: the K cache store masks slots by the sequence length instead of what remains of it in this block
    (the 18-token sequence's second block writes 14 padding rows over the cache)"""
    mutate = [("tl.store(offsets_kcache, k, mask=offsets_kcachebs[:, None] < cur_seq_len - block_start_m * BLOCK_SIZE)",
               "tl.store(offsets_kcache, k, mask=offsets_kcachebs[:, None] < cur_seq_len)")]


# ---------------------------------------------------------------- flash_decoding.py

class _Decoding:
    """flash_decoding_attention(q, k_cache, v_cache, kv_seq_len, block_tables, block_size 16, ...): 3 sequences
    whose caches hold 5, 20 and 33 positions, 2 query heads on 1 KV head (kv_group_num 2), head_dim 32, q, caches
    and output f32 (f16 in one row), f32 mid_output / mid_output_lse [tokens][2][3 splits]...; stage 1 over grid (4, 2,
    cdiv(64, 16) = 4) (the fourth sequence slot and the splits past a sequence return), then the reduce over grid
    (4, 2); 4 warps, sm_scale 1/sqrt(32); block tables [3][3] concrete, caches of 6 blocks"""
    mutate1 = mutate2 = None
    lens, qlen, H, KVH, D, x = (5, 20, 33), 1, 2, 1, 32, 32
    alibi = False
    dtype = "f32"
    blocks = 6
    tables = [[5, 0, 0], [2, 4, 0], [1, 3, 0]]
    S = 3  # kv_max_split_num = cdiv(max len, 16)

    def setup(self):
        Tn = len(self.lens) * self.qlen
        self.q = racer.input((Tn, self.H, self.D), self.dtype, range=(-1, 1))
        self.kc = racer.input(cache_shape(self.blocks, self.KVH, self.D, self.x), self.dtype, range=(-1, 1))
        self.vc = racer.input(cache_shape(self.blocks, self.KVH, self.D, self.D), self.dtype, range=(-2, 2))
        self.bt = racer.values(self.tables, dtype="i32")
        self.kv_lens = racer.values(list(self.lens), dtype="i32")
        self.slopes = racer.input((self.H,), "f32", range=(0.05, 1)) if self.alibi else None
        self.mid = racer.empty((Tn, self.H, self.S, self.D), "f32")
        self.lse = racer.empty((Tn, self.H, self.S), "f32")
        self.o = racer.empty((Tn, self.H * self.D), self.dtype)

    def mid_strides(self):
        H, S, D = self.H, self.S, self.D
        return [H * S * D, S * D, D, 1, H * S, S, 1]

    def reduce(self):
        Tn, H, D = len(self.lens) * self.qlen, self.H, self.D
        k = racer.triton(kernel(f"{T}.flash_decoding", "_flash_decoding_fwd_reduce_kernel", self.mutate2),
                         BLOCK_KV=BS, HEAD_DIM=D, num_warps=4)
        racer.launch(k, grid=(next_power_of_2(Tn), H),
                     args=[racer.read(self.mid), racer.read(self.lse), racer.write(self.o), racer.read(self.kv_lens),
                           self.qlen, len(self.lens)] + self.mid_strides() + [H * D, D, 1])
        return {"o": self.o}

    def program_a(self):
        b, Tn, H, KVH, D = len(self.lens), len(self.lens) * self.qlen, self.H, self.KVH, self.D
        grid = (next_power_of_2(Tn), H, cdiv(next_power_of_2(max(self.lens)), BS))
        scale = 1.0 / math.sqrt(D)
        head = [racer.read(self.q), racer.read(self.kc), racer.read(self.vc), racer.read(self.bt),
                racer.write(self.mid), racer.write(self.lse), racer.read(self.kv_lens), self.qlen, b]
        if self.alibi:
            k = racer.triton(kernel(f"{T}.flash_decoding", "_alibi_flash_decoding_fwd_kernel", self.mutate1),
                             KV_GROUPS=H // KVH, BLOCK_KV=BS, BLOCK_SIZE=BS, HEAD_DIM=D, num_warps=4)
            args = head + [racer.read(self.slopes), H * D, D, 1, KVH * BS * D, BS * D, D, 1, 3, 1] + \
                self.mid_strides() + [scale]
        else:
            k = racer.triton(kernel(f"{T}.flash_decoding", "_flash_decoding_fwd_kernel", self.mutate1), BLOCK_KV=BS,
                             BLOCK_SIZE=BS, HEAD_DIM=D, num_warps=4)
            kcs = cache_strides(KVH, D, self.x)
            args = head + [H // KVH, self.x, scale, H * D, D, 1, kcs[0], kcs[1], kcs[2], kcs[3], kcs[4],
                           KVH * BS * D, BS * D, D, 1, 3, 1] + self.mid_strides()
        racer.launch(k, grid=grid, args=args)
        return self.reduce()

    def program_b(self):
        Tn, H, KVH, D = len(self.lens) * self.qlen, self.H, self.KVH, self.D
        racer.launch(ref(REF, f"decode_attention_{self.dtype}"), grid=cdiv(Tn * H * D, 128), block=128,
                     args=[racer.read(self.q), racer.read(self.kc), racer.read(self.vc), racer.read(self.bt),
                           racer.read(self.kv_lens), racer.read(self.slopes) if self.alibi else None,
                           racer.write(self.o), Tn, H, KVH, D, BS, self.x, 3, self.qlen, f32(1.0 / math.sqrt(D))])
        return {"o": self.o}


class ColossalFlashDecoding(_Decoding, Row):
    """colossalai _flash_decoding_fwd_kernel + _flash_decoding_fwd_reduce_kernel: softmax(q k^T / sqrt(32)) v over
    each sequence's cached positions (1, 2 and 3 splits, the last of each partial)"""


class ColossalFlashDecodingF16(_Decoding, Row):
    """colossalai flash decoding in f16 (the inference engine's usual dtype): stage 1 sums q * k and v * p in f16
    (tl.sum keeps a float16 input's type), moving the f16 partial sums between lanes zero-extended to 32 bits"""
    dtype = "f16"


class ColossalFlashDecodingNewLayout(_Decoding, Row):
    """colossalai flash decoding with the K cache in the x layout [6][1][32 / 8][16][8]"""
    x = 8


class ColossalFlashDecodingSpeculative(_Decoding, Row):
    """colossalai flash decoding with q_len 2 (speculative decoding's verification): 2 sequences of 20 and 33 cached
    positions, their last 2 tokens each (the first of the two sees one position fewer); grid (4, 2, 4)"""
    lens, qlen = (20, 33), 2
    tables = [[2, 4, 0], [1, 3, 5]]


class ColossalFlashDecodingAlibi(_Decoding, Row):
    """colossalai _alibi_flash_decoding_fwd_kernel + the reduce: scores sm_scale q.k - slope_h (len - 1 - j), slopes
    [2] f32 in (0.05, 1)"""
    alibi = True


class ColossalFlashDecodingMaskMutant(_Decoding, Mutation):
    """mutation: stage 1 keeps the score of the cache slot just past the sequence (< becomes <=)"""
    mutate1 = [("S_ij += tl.where(block_start_kv * BLOCK_KV + offsets_block < cur_kv_seq_len, 0, float(\"-inf\"))",
                "S_ij += tl.where(block_start_kv * BLOCK_KV + offsets_block <= cur_kv_seq_len, 0, float(\"-inf\"))")]


class ColossalFlashDecodingSplitCountMutant(_Decoding, Mutation):
    """mutation: the reduce counts the splits as len // 16, dropping the partial last split"""
    mutate2 = [("kv_split_num = (cur_kv_seq_len + BLOCK_KV - 1) // BLOCK_KV",
                "kv_split_num = cur_kv_seq_len // BLOCK_KV")]


class _DecodingReduce(_Decoding):
    """_flash_decoding_fwd_reduce_kernel alone: free split outputs mid [3][2][3][32] and log-sum-exps lse [3][2][3]
    (in (-4, 4)) merged over the cdiv(len, 16) splits of each sequence (1, 2, 3), o f16; grid (4, 2), 4 warps"""
    dtype = "f16"

    def setup(self):
        super().setup()
        Tn = len(self.lens) * self.qlen
        self.mid = racer.input((Tn, self.H, self.S, self.D), "f32", range=(-2, 2))
        self.lse = racer.input((Tn, self.H, self.S), "f32", range=(-4, 4))

    def program_a(self):
        return self.reduce()

    def program_b(self):
        Tn, H, D = len(self.lens) * self.qlen, self.H, self.D
        racer.launch(ref(REF, "merge_splits_f16"), grid=cdiv(Tn * H * D, 128), block=128,
                     args=[racer.read(self.mid), racer.read(self.lse), racer.read(self.kv_lens), racer.write(self.o),
                           Tn, H, self.S, D, BS, self.qlen])
        return {"o": self.o}


class ColossalFlashDecodingReduce(_DecodingReduce, Row):
    """colossalai _flash_decoding_fwd_reduce_kernel: o = sum_b exp(lse_b) mid_b / sum_b exp(lse_b)"""


class ColossalFlashDecodingReduceNoRescaleMutant(_DecodingReduce, Mutation):
    """mutation: the reduce does not rescale its accumulated output when a later split raises the max"""
    mutate2 = [("acc = acc * scale", "acc = acc")]
