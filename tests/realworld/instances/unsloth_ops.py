"""unsloth 2026.10.9 (unsloth/kernels/*.py): RMSNorm (Llama and Gemma; the multi-row kernels unsloth launches
for 33..128 columns on Triton >= 3.6 and CUDA, and the one-row kernels it launches otherwise), LayerNorm, the
decode residual add + RMSNorm, RoPE on Q and K, per-head RMSNorm + RoPE (Qwen3's q_norm / k_norm), SwiGLU and
GeGLU (erf and tanh) and cross-entropy (plain, Gemma 2 softcapping, Cohere logit scaling), forward and
backward, against reference/unsloth_ops.cu and norms.cu. Each is launched with the constexprs, grid and warps
unsloth's host code picks for the shape on an sm_90 GPU (its `_launch` / `kernel[grid]` calls)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402


R, C = 3, 48  # rows x columns of the norms: calculate_settings(48) = (BLOCK_SIZE 64, 4 warps)
EPS, LN_EPS = 1e-6, 1e-5
RMS = "unsloth.kernels.rms_layernorm"


class _RmsFwd:
    """RMSNorm forward: y = x / sqrt(mean(x^2) + eps) * (w + offset), and the saved rstd."""
    offset = 0.0

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))
        self.y = racer.empty((R, C), "f32")
        self.r = racer.empty((R,), "f32")

    def program_b(self):
        racer.launch(ref("norms.cu", "rmsnorm_fwd"), grid=1, block=R,
                     args=[racer.read(self.x), racer.read(self.w), racer.write(self.y), racer.write(self.r),
                           R, C, EPS, self.offset])
        return {"y": self.y, "r": self.r}

    def rows(self, gemma, mutate=None):
        """_rms_layernorm_forward_rows as _rms_forward launches it for 48 columns: _multirow_settings gives
        BLOCK_SIZE 64, ROWS 4096 // 64 = 64, WARPS 64 // 32 = 2, 4 warps; one program for the 3 rows
        (rows 3..63 masked); LONG_INDEXING is `long or gemma`."""
        k = racer.triton(kernel(RMS, "_rms_layernorm_forward_rows", mutate), Y_row_stride=C, X_row_stride=C,
                         n_cols=C, eps=EPS, GEMMA=gemma, BLOCK_SIZE=64, ROWS=64, WARPS=2, LONG_INDEXING=gemma,
                         num_warps=4)
        racer.launch(k, grid=1, args=[racer.write(self.y), racer.read(self.x), racer.read(self.w),
                                      racer.write(self.r), R])
        return {"y": self.y, "r": self.r}

    def one_row(self, name, mutate=None):
        """the one-row forward kernels, as _rms_forward launches them when the multi-row ones are off
        (UNSLOTH_RMSNORM_MULTIROW=0, Triton < 3.6, or a failed self-check): a program per row, 4 warps"""
        k = racer.triton(kernel(RMS, name, mutate), Y_row_stride=C, X_row_stride=C, W_row_stride=1, r_row_stride=1,
                         n_cols=C, eps=EPS, LONG_INDEXING=False, BLOCK_SIZE=64, num_warps=4)
        racer.launch(k, grid=R, args=[racer.write(self.y), racer.read(self.x), racer.read(self.w),
                                      racer.write(self.r)])
        return {"y": self.y, "r": self.r}


class UnslothRmsNormRowsFwd(_RmsFwd, Row):
    """unsloth _rms_layernorm_forward_rows (Llama): 64 rows x 64 columns a program, CUDA's tl.sum order replayed"""

    def program_a(self):
        return self.rows(False)


class UnslothRmsNormRowsFwdGemma(_RmsFwd, Row):
    """unsloth _rms_layernorm_forward_rows with GEMMA: weights w + 1, int64 rows"""
    offset = 1.0

    def program_a(self):
        return self.rows(True)


class UnslothRmsNormRowsFwdGemmaNoOffsetMutant(_RmsFwd, Mutation):
    """mutation: the Gemma branch multiplies by w, not w + 1 (Llama's formula in Gemma's branch)"""
    offset = 1.0

    def program_a(self):
        return self.rows(True, mutate=[("output = normed * (W_row[None, :] + 1.0)", "output = normed * W_row[None, :]")])


class UnslothRmsNormFwd(_RmsFwd, Row):
    """unsloth _rms_layernorm_forward (one row a program, Llama)"""

    def program_a(self):
        return self.one_row("_rms_layernorm_forward")


class UnslothGemmaRmsNormFwd(_RmsFwd, Row):
    """unsloth _gemma_rms_layernorm_forward (one row a program, w + 1 in f32)"""
    offset = 1.0

    def program_a(self):
        return self.one_row("_gemma_rms_layernorm_forward")


class _RmsBwd:
    """RMSNorm backward with the saved rstd: dX, and dW as the sum over rows of dy x rstd."""
    gemma = False

    def setup(self):
        self.dy = racer.input((R, C), "f32", range=(-2, 2))
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))
        self.r = racer.input((R,), "f32", range=(0.25, 4))
        self.dx = racer.empty((R, C), "f32")
        self.dw = racer.empty((C,), "f32")
        self.partials = racer.empty((R, C), "f32")  # the programs' f32 dW partials (one row for the multi-row kernel)

    def program_b(self):
        racer.launch(ref("norms.cu", "rmsnorm_bwd"), grid=1, block=C,
                     args=[racer.read(self.dy), racer.read(self.x), racer.read(self.w), racer.read(self.r),
                           racer.write(self.dx), racer.write(self.dw), R, C, 1.0 if self.gemma else 0.0])
        return {"dx": self.dx, "dw": self.dw}

    def sum_partials(self, partials, programs):
        """_rms_sum_partials: dW = the column sums of the programs' f32 partials, one program of 64 columns"""
        k = racer.triton(kernel(RMS, "_rms_sum_dw_partials"), BLOCK_ROWS=64, BLOCK_COLS=64)
        racer.launch(k, grid=1, args=[racer.read(partials), racer.write(self.dw), programs, C])

    def rows(self, train_w=True, mutate=None, inside=None):
        """_rms_layernorm_backward_rows as _rms_backward launches it for 48 columns (BLOCK_SIZE 64, ROWS 64,
        WARPS 2, 4 warps): with a trained W, _dw_launch(1 block) gives one program of one block, its partial
        dW row summed by _rms_sum_dw_partials; a frozen W passes r as the unused dW."""
        k = racer.triton(kernel(RMS, "_rms_layernorm_backward_rows", mutate, inside), dY_row_stride=C,
                         dX_row_stride=C, X_row_stride=C, n_cols=C, eps=EPS, GEMMA=self.gemma, BLOCK_SIZE=64,
                         ROWS=64, WARPS=2, LONG_INDEXING=False, TRAIN_W=train_w, FROM_Y=False, num_warps=4)
        racer.launch(k, grid=1, args=[racer.read(self.dy), racer.write(self.dx), racer.read(self.x),
                                      racer.read(self.w), racer.read(self.r),
                                      racer.write(self.partials) if train_w else racer.read(self.r), R, 1])
        if not train_w:
            return {"dx": self.dx}
        self.sum_partials(self.partials, 1)
        return {"dx": self.dx, "dw": self.dw}

    def one_row(self, mutate=None, inside=None):
        """_rms_layernorm_backward (one row a program) with a trained W, as _rms_backward launches it when the
        multi-row kernels are off: _dw_row_config(48) gives BLOCK_SIZE 64, 4 warps, and _dw_split(3 rows)
        a program per row, each storing its partial dW row"""
        k = racer.triton(kernel(RMS, "_rms_layernorm_backward", mutate, inside), dY_row_stride=C, dX_row_stride=C,
                         X_row_stride=C, W_row_stride=1, r_row_stride=1, n_cols=C, eps=EPS, GEMMA=self.gemma,
                         LONG_INDEXING=False, BLOCK_SIZE=64, TRAIN_W=True, FROM_Y=False, num_warps=4)
        racer.launch(k, grid=R, args=[racer.read(self.dy), racer.write(self.dx), racer.read(self.x),
                                      racer.read(self.w), racer.read(self.r), racer.write(self.partials), R, 1])
        self.sum_partials(self.partials, R)
        return {"dx": self.dx, "dw": self.dw}


class UnslothRmsNormRowsBwd(_RmsBwd, Row):
    """unsloth _rms_layernorm_backward_rows (Llama, trained W) then _rms_sum_dw_partials"""

    def program_a(self):
        return self.rows()


class UnslothRmsNormRowsBwdGemma(_RmsBwd, Row):
    """unsloth _rms_layernorm_backward_rows (Gemma, trained W) then _rms_sum_dw_partials"""
    gemma = True

    def program_a(self):
        return self.rows()


class UnslothRmsNormRowsBwdFrozenW(_RmsBwd, Row):
    """unsloth _rms_layernorm_backward_rows with a frozen W (TRAIN_W off): dX only"""

    def program_a(self):
        return self.rows(train_w=False)

    def program_b(self):
        return {"dx": super().program_b()["dx"]}


class UnslothRmsNormBwd(_RmsBwd, Row):
    """unsloth _rms_layernorm_backward (one row a program, Llama, trained W) then _rms_sum_dw_partials"""

    def program_a(self):
        return self.one_row()


class UnslothRmsNormBwdGemma(_RmsBwd, Row):
    """unsloth _rms_layernorm_backward (one row a program, Gemma, trained W) then _rms_sum_dw_partials"""
    gemma = True

    def program_a(self):
        return self.one_row()


LN = "unsloth.kernels.layernorm"


class _LnFwd:
    has_bias = True

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))
        # (Without a bias the reference adds zeros: norms.cu's layernorm_fwd serves both.)
        self.b = racer.input((C,), "f32", range=(-2, 2)) if self.has_bias else racer.zeros((C,), "f32")
        self.y = racer.empty((R, C), "f32")
        self.r = racer.empty((R,), "f32")
        self.mu = racer.empty((R,), "f32")

    def program_a(self, mutate=None):
        """layernorm_forward as Fast_Layernorm.forward launches it: a program per row, BLOCK_SIZE 64, 4 warps;
        without a bias it passes W as b (never read)"""
        k = racer.triton(kernel(LN, "layernorm_forward", mutate), Y_row_stride=C, X_row_stride=C, n_cols=C,
                         eps=LN_EPS, LONG_INDEXING=False, BLOCK_SIZE=64, HAS_BIAS=self.has_bias, num_warps=4)
        racer.launch(k, grid=R, args=[racer.write(self.y), racer.read(self.x), racer.read(self.w),
                                      racer.read(self.b if self.has_bias else self.w), racer.write(self.r),
                                      racer.write(self.mu)])
        return {"y": self.y, "r": self.r, "mu": self.mu}

    def program_b(self):
        racer.launch(ref("norms.cu", "layernorm_fwd"), grid=1, block=R,
                     args=[racer.read(self.x), racer.read(self.w), racer.read(self.b), racer.write(self.y),
                           racer.write(self.mu), racer.write(self.r), R, C, LN_EPS])
        return {"y": self.y, "r": self.r, "mu": self.mu}


class UnslothLayerNormFwd(_LnFwd, Row):
    """unsloth layernorm_forward with a bias"""


class UnslothLayerNormFwdNoBias(_LnFwd, Row):
    """unsloth layernorm_forward without a bias (HAS_BIAS off)"""
    has_bias = False


class UnslothLayerNormFwdUnmaskedMutant(_LnFwd, Mutation):
    """mutation: x - mean is not masked, so the 16 padding lanes add mean^2 each to the variance"""

    def program_a(self):
        return super().program_a(mutate=[("XX = tl.where(mask, X_row - mean_X, 0)", "XX = X_row - mean_X")])


class _LnBwd:
    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))
        self.b = racer.input((C,), "f32", range=(-2, 2))
        self.mu = racer.input((R,), "f32", range=(-1, 1))
        self.r = racer.input((R,), "f32", range=(0.25, 4))
        self.dy = racer.input((R, C), "f32", range=(-2, 2))
        self.dx = racer.empty((R, C), "f32")
        self.dw = racer.empty((C,), "f32")
        self.db = racer.empty((C,), "f32")
        self.partials = racer.empty((2, R, C), "f32")  # layernorm_backward_dw's partial dW and dB rows

    def program_b(self):
        racer.launch(ref("norms.cu", "layernorm_bwd"), grid=1, block=C,
                     args=[racer.read(self.x), racer.read(self.w), racer.read(self.mu), racer.read(self.r),
                           racer.read(self.dy), racer.write(self.dx), racer.write(self.dw), racer.write(self.db),
                           R, C])
        return {"dx": self.dx, "dw": self.dw, "db": self.db}


class UnslothLayerNormBwdFrozen(_LnBwd, Row):
    """unsloth layernorm_backward (W and b frozen): dX only, a program per row, BLOCK_SIZE 64, 4 warps"""

    def program_a(self):
        k = racer.triton(kernel(LN, "layernorm_backward"), dY_row_stride=C, dX_row_stride=C, X_row_stride=C, n_cols=C,
                         eps=LN_EPS, LONG_INDEXING=False, BLOCK_SIZE=64, num_warps=4)
        racer.launch(k, grid=R, args=[racer.read(self.dy), racer.write(self.dx), racer.read(self.x),
                                      racer.read(self.w), racer.read(self.b), racer.read(self.r),
                                      racer.read(self.mu)])
        return {"dx": self.dx}

    def program_b(self):
        return {"dx": super().program_b()["dx"]}


class UnslothLayerNormBwd(_LnBwd, Row):
    """unsloth layernorm_backward_dw (W and b trained) then _layernorm_sum_partials: _dw_programs on an H100
    (132 SMs, 32 warp pairs a SM) gives a program per row, each storing partial dW and dB rows into
    partials[2][3][48]; the sum kernel's grid is (1 column block, 2 outputs)"""

    def program_a(self):
        k = racer.triton(kernel(LN, "layernorm_backward_dw"), dY_row_stride=C, dX_row_stride=C, X_row_stride=C,
                         n_cols=C, LONG_INDEXING=False, BLOCK_SIZE=64, TRAIN_W=True, TRAIN_B=True, num_warps=4)
        partials = self.partials
        racer.launch(k, grid=R, args=[racer.read(self.dy), racer.write(self.dx), racer.read(self.x),
                                      racer.read(self.w), racer.read(self.r), racer.read(self.mu),
                                      racer.write(partials), racer.write(partials, offset=R * C), R, 1])
        s = racer.triton(kernel(LN, "_layernorm_sum_partials"), BLOCK_ROWS=64, BLOCK_COLS=64)
        racer.launch(s, grid=(1, 2), args=[racer.read(partials), racer.write(self.dw), racer.write(self.db), R, C])
        return {"dx": self.dx, "dw": self.dw, "db": self.db}


class _AddRms:
    """_add_rms_layernorm_inference as fast_add_rms_layernorm_inference launches it: a program per row,
    BLOCK_SIZE 64, 4 warps, X and the residual updated in place (unsloth compiles it with
    enable_fp_fusion=False, an option Racer's Triton front end does not take: here it is fused)"""
    add = True

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.res = racer.input((R, C), "f32", range=(-4, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))

    def program_a(self, mutate=None):
        k = racer.triton(kernel("unsloth.kernels.fused_add_rms_layernorm", "_add_rms_layernorm_inference", mutate),
                         n_cols=C, eps=EPS, HAS_RESIDUAL=self.add, BLOCK_SIZE=64, num_warps=4)
        racer.launch(k, grid=R, args=[racer.readwrite(self.x), racer.readwrite(self.res), racer.read(self.w), C, C])
        return {"x": self.x, "res": self.res}

    def program_b(self):
        entry = ("norms.cu", "add_rmsnorm_inplace") if self.add else ("unsloth_ops.cu", "rmsnorm_inplace_keep")
        racer.launch(ref(*entry), grid=1, block=R,
                     args=[racer.readwrite(self.x), racer.readwrite(self.res), racer.read(self.w), R, C, EPS])
        return {"x": self.x, "res": self.res}


class UnslothAddRmsNormInference(_AddRms, Row):
    """unsloth _add_rms_layernorm_inference: residual = x + residual, x = RMSNorm(residual) w, in place"""


class UnslothAddRmsNormInferenceNoAdd(_AddRms, Row):
    """unsloth _add_rms_layernorm_inference with add=False (HAS_RESIDUAL off): residual = x, x = RMSNorm(x) w"""
    add = False


class UnslothAddRmsNormInferenceBlockMeanMutant(_AddRms, Mutation):
    """mutation: the mean square divides by the padded block width (64), not the row's 48 columns"""

    def program_a(self):
        return super().program_a(mutate=[("* (1.0 / n_cols)", "* (1.0 / BLOCK_SIZE)")])


ROPE = "unsloth.kernels.rope_embedding"
B, S, HQ, HK, D = 2, 2, 3, 1, 24  # batch, sequence, query heads, key heads, head dim (half 12 in a block of 16)


class _RopeQK:
    """_rope_embedding_QK as Fast_RoPE_Embedding_QK launches it for Q [2, 3, 2, 24] and K [2, 1, 2, 24]
    ([batch, heads, seq, head_dim], contiguous) with HF's cos / sin tables [positions, head_dim]:
    BLOCK_SIZE 16 lanes over the half head, HEADS_Q = 4 heads a program (one group, the fourth head masked),
    HEADS_K 1, grid (batch * seq, 1 + 1), 4 warps. The forward rotates in place, the backward (sin negated)
    writes fresh tensors; with position ids it reads each token's table row from them (evict_first)."""
    backward, indices = False, None
    mutate, inside = None, None

    def setup(self):
        positions = S if self.indices is None else max(self.indices) + 1
        self.q = racer.input((B, HQ, S, D), "f32", range=(-2, 2))
        self.k = racer.input((B, HK, S, D), "f32", range=(-2, 2))
        self.cos = racer.input((positions, D), "f32", range=(-1, 1))
        self.sin = racer.input((positions, D), "f32", range=(-1, 1))
        pos = list(self.indices) if self.indices is not None else [s for _ in range(B) for s in range(S)]
        self.pos = racer.values(np.array(pos, dtype=np.int32))
        if self.backward:
            self.qo = racer.empty((B, HQ, S, D), "f32")
            self.ko = racer.empty((B, HK, S, D), "f32")

    def program_a(self):
        k = racer.triton(kernel(ROPE, "_rope_embedding_QK", self.mutate, self.inside), q_seq_stride=D, q_dim_stride=1,
                         qo_seq_stride=D, qo_dim_stride=1, k_seq_stride=D, k_dim_stride=1, ko_seq_stride=D,
                         ko_dim_stride=1, n_heads_Q=HQ, n_heads_K=HK, n_groups_Q=1, half_head_dim=D // 2,
                         BACKWARD_PASS=self.backward, HAS_ROPE_INDICES=self.indices is not None,
                         LONG_INDEXING=False, CAST_TO_SIN=False, HEADS_Q=4, HEADS_K=1, BLOCK_SIZE=16,
                         EVICT_INDICES=self.indices is not None, num_warps=4)
        if self.backward:
            q, qo, kk, ko = racer.read(self.q), racer.write(self.qo), racer.read(self.k), racer.write(self.ko)
        else:
            q, qo, kk, ko = (racer.readwrite(self.q), racer.readwrite(self.q), racer.readwrite(self.k),
                             racer.readwrite(self.k))
        racer.launch(k, grid=(B * S, 2), args=[q, qo, kk, ko, HQ * S * D, S * D, HQ * S * D, S * D, HK * S * D, S * D,
                                               HK * S * D, S * D, racer.read(self.cos), D, racer.read(self.sin), D,
                                               racer.read(self.pos if self.indices is not None else self.cos), S])
        return self.outputs()

    def outputs(self):
        return {"qo": self.qo, "ko": self.ko} if self.backward else {"q": self.q, "k": self.k}

    def program_b(self):
        for x, h in ((self.q, HQ), (self.k, HK)):
            out = (self.qo if x is self.q else self.ko) if self.backward else x
            xa, oa = (racer.read(x), racer.write(out)) if self.backward else (racer.readwrite(x), racer.readwrite(x))
            racer.launch(ref("unsloth_ops.cu", "rope"), grid=1, block=256,
                         args=[xa, oa, racer.read(self.cos), racer.read(self.sin), racer.read(self.pos), B, h, S, D,
                               h * S * D, S * D, D, h * S * D, S * D, D, D, -1.0 if self.backward else 1.0])
        return self.outputs()


class UnslothRopeQKFwd(_RopeQK, Row):
    """unsloth _rope_embedding_QK forward: Q and K rotated in place in one launch"""


class UnslothRopeQKBwd(_RopeQK, Row):
    """unsloth _rope_embedding_QK backward (BACKWARD_PASS: sin negated), out of place"""
    backward = True


class UnslothRopeQKFwdPositions(_RopeQK, Row):
    """unsloth _rope_embedding_QK forward with position ids (HAS_ROPE_INDICES, EVICT_INDICES): tokens at 3, 1, 0, 2"""
    indices = (3, 1, 0, 2)


class UnslothRopeQKBwdSinSignMutant(_RopeQK, Mutation):
    """mutation: the backward forgets to negate sin, so it rotates forward again instead of inverting"""
    backward = True
    mutate = [("        sin1 = -sin1\n", "        sin1 = sin1\n")]
    inside = "_rope_embedding_QK"


class UnslothRopeRowsFwd(Row):
    """unsloth _rope_embedding_QK as Fast_RoPE_Embedding launches it (_rope_rows): Q [2, 2, 3, 24]
    ([batch, seq, heads, head_dim], contiguous) seen as [batch, heads, seq, head_dim], in place, no K
    (a [1, 1, 1, 1] dummy, n_heads_K 0), CAST_TO_SIN; grid (batch * seq, 1)"""

    def setup(self):
        self.q = racer.input((B, S, HQ, D), "f32", range=(-2, 2))
        self.dummy = racer.zeros((1, 1, 1, 1), "f32")
        self.cos = racer.input((S, D), "f32", range=(-1, 1))
        self.sin = racer.input((S, D), "f32", range=(-1, 1))
        self.pos = racer.values(np.array([s for _ in range(B) for s in range(S)], dtype=np.int32))

    def program_a(self):
        k = racer.triton(kernel(ROPE, "_rope_embedding_QK"), q_seq_stride=HQ * D, q_dim_stride=1,
                         qo_seq_stride=HQ * D, qo_dim_stride=1, k_seq_stride=1, k_dim_stride=1, ko_seq_stride=1,
                         ko_dim_stride=1, n_heads_Q=HQ, n_heads_K=0, n_groups_Q=1, half_head_dim=D // 2,
                         BACKWARD_PASS=False, HAS_ROPE_INDICES=False, LONG_INDEXING=False, CAST_TO_SIN=True,
                         HEADS_Q=4, HEADS_K=1, BLOCK_SIZE=16, EVICT_INDICES=False, num_warps=4)
        racer.launch(k, grid=(B * S, 1), args=[racer.readwrite(self.q), racer.readwrite(self.q),
                                               racer.readwrite(self.dummy), racer.readwrite(self.dummy),
                                               S * HQ * D, D, S * HQ * D, D, 1, 1, 1, 1,
                                               racer.read(self.cos), D, racer.read(self.sin), D,
                                               racer.read(self.cos), S])
        return {"q": self.q}

    def program_b(self):
        racer.launch(ref("unsloth_ops.cu", "rope"), grid=1, block=256,
                     args=[racer.readwrite(self.q), racer.readwrite(self.q), racer.read(self.cos), racer.read(self.sin),
                           racer.read(self.pos), B, HQ, S, D, S * HQ * D, D, HQ * D, S * HQ * D, D, HQ * D, D, 1.0])
        return {"q": self.q}


QKN = "unsloth.kernels.qk_norm_rope"
QB, QS, NQ, NK, QD = 1, 3, 3, 2, 16  # batch, seq, q heads, k heads, head dim (a power of two >= 16)


class _QkNormRope:
    """Per-head RMSNorm (Qwen3 q_norm / k_norm, eps 1e-6) then RoPE, as Fast_QK_Norm_RoPE launches it for
    Q [1, 3, 3, 16] and K [1, 3, 2, 16] ([batch, seq, heads, head_dim]): _block_h gives BLOCK_H 2 heads a
    program (Q's second block has one head masked), grid (batch * seq, 2 + 1), 4 warps, no position ids
    (rope_indices an unread 1-element int32 tensor)."""

    def setup(self):
        rows = QB * QS
        self.q = racer.input((rows, NQ, QD), "f32", range=(-2, 2))
        self.k = racer.input((rows, NK, QD), "f32", range=(-2, 2))
        self.wq = racer.input((QD,), "f32", range=(-2, 2))
        self.wk = racer.input((QD,), "f32", range=(-2, 2))
        self.cos = racer.input((QS, QD), "f32", range=(-1, 1))
        self.sin = racer.input((QS, QD), "f32", range=(-1, 1))
        self.idx = racer.zeros((1,), "i32")


class UnslothQkNormRopeFwd(_QkNormRope, Row):
    """unsloth _qk_norm_rope_forward: Q and K normalized per head, rotated, with the saved rstd of each head"""

    def setup(self):
        super().setup()
        rows = QB * QS
        self.qo = racer.empty((rows, NQ, QD), "f32")
        self.ko = racer.empty((rows, NK, QD), "f32")
        self.rq = racer.empty((rows, NQ), "f32")
        self.rk = racer.empty((rows, NK), "f32")

    def outputs(self):
        return {"qo": self.qo, "ko": self.ko, "rq": self.rq, "rk": self.rk}

    def program_a(self):
        k = racer.triton(kernel(QKN, "_qk_norm_rope_forward"), HEAD_DIM=QD, BLOCK_H=2, HAS_ROPE_INDICES=False,
                         num_warps=4)
        racer.launch(k, grid=(QB * QS, 3), args=[
            racer.write(self.qo), racer.read(self.q), NQ * QD, QD, racer.read(self.wq), racer.write(self.rq), NQ, EPS,
            racer.write(self.ko), racer.read(self.k), NK * QD, QD, racer.read(self.wk), racer.write(self.rk), NK, EPS,
            racer.read(self.cos), QD, racer.read(self.sin), QD, racer.read(self.idx), QS])
        return self.outputs()

    def program_b(self):
        for x, w, y, r, h in ((self.q, self.wq, self.qo, self.rq, NQ), (self.k, self.wk, self.ko, self.rk, NK)):
            racer.launch(ref("unsloth_ops.cu", "head_rmsnorm_rope"), grid=1, block=32,
                         args=[racer.read(x), racer.read(w), racer.write(y), racer.write(r), racer.read(self.cos),
                               racer.read(self.sin), QB * QS, h, QD, QS, EPS])
        return self.outputs()


class UnslothQkNormRopeBwd(_QkNormRope, Row):
    """unsloth _qk_norm_rope_backward: the inverse rotation of dY, then RMSNorm's backward per head (frozen W)"""

    def setup(self):
        super().setup()
        rows = QB * QS
        self.dqo = racer.input((rows, NQ, QD), "f32", range=(-2, 2))
        self.dko = racer.input((rows, NK, QD), "f32", range=(-2, 2))
        self.rq = racer.input((rows, NQ), "f32", range=(0.25, 4))
        self.rk = racer.input((rows, NK), "f32", range=(0.25, 4))
        self.dq = racer.empty((rows, NQ, QD), "f32")
        self.dk = racer.empty((rows, NK, QD), "f32")

    def program_a(self):
        k = racer.triton(kernel(QKN, "_qk_norm_rope_backward"), HEAD_DIM=QD,
                         BLOCK_H=2, HAS_ROPE_INDICES=False, num_warps=4)
        racer.launch(k, grid=(QB * QS, 3), args=[
            racer.write(self.dq), racer.read(self.dqo), QS * NQ * QD, NQ * QD, QD, racer.read(self.q), NQ * QD, QD,
            racer.read(self.wq), racer.read(self.rq), NQ,
            racer.write(self.dk), racer.read(self.dko), QS * NK * QD, NK * QD, QD, racer.read(self.k), NK * QD, QD,
            racer.read(self.wk), racer.read(self.rk), NK,
            racer.read(self.cos), QD, racer.read(self.sin), QD, racer.read(self.idx), QS])
        return {"dq": self.dq, "dk": self.dk}

    def program_b(self):
        for dy, x, w, r, dx, h in ((self.dqo, self.q, self.wq, self.rq, self.dq, NQ),
                                   (self.dko, self.k, self.wk, self.rk, self.dk, NK)):
            racer.launch(ref("unsloth_ops.cu", "head_rmsnorm_rope_bwd"), grid=1, block=32,
                         args=[racer.read(dy), racer.read(x), racer.read(w), racer.read(r), racer.write(dx),
                               racer.read(self.cos), racer.read(self.sin), QB * QS, h, QD, QS])
        return {"dq": self.dq, "dk": self.dk}


N = R * 40  # elements of the gated activations: a [3, 40] tensor in one block of 1024


class _Gated:
    """A gated MLP activation as unsloth's host code launches it: grid cdiv(120, 1024) = 1, BLOCK_SIZE 1024,
    LONG_INDEXING 0, the default 4 warps. The backward kernels overwrite their three inputs: DW <- h,
    e <- DW f(e), g <- DW g f'(e)."""
    module, act, mutate = None, 0, None
    backward = False

    def setup(self):
        self.e = racer.input((R, 40), "f32", range=(-4, 4))
        self.g = racer.input((R, 40), "f32", range=(-2, 2))
        if self.backward:
            self.dw = racer.input((R, 40), "f32", range=(-2, 2))  # dh on entry
        else:
            self.h = racer.empty((R, 40), "f32")

    def fwd_a(self, name):
        k = racer.triton(kernel(self.module, name, self.mutate), BLOCK_SIZE=1024, LONG_INDEXING=0)
        racer.launch(k, grid=1, args=[racer.read(self.e), racer.read(self.g), racer.write(self.h), N])
        return {"h": self.h}

    def bwd_a(self, name):
        k = racer.triton(kernel(self.module, name, self.mutate), BLOCK_SIZE=1024, LONG_INDEXING=0)
        racer.launch(k, grid=1, args=[racer.readwrite(self.dw), racer.readwrite(self.e), racer.readwrite(self.g), N])
        return {"dw": self.dw, "e": self.e, "g": self.g}

    def fwd_b(self):
        racer.launch(ref("unsloth_ops.cu", "gated_fwd"), grid=1, block=128,
                     args=[racer.read(self.e), racer.read(self.g), racer.write(self.h), N, self.act])
        return {"h": self.h}

    def bwd_b(self):
        racer.launch(ref("unsloth_ops.cu", "gated_bwd"), grid=1, block=128,
                     args=[racer.readwrite(self.dw), racer.readwrite(self.e), racer.readwrite(self.g), N, self.act])
        return {"dw": self.dw, "e": self.e, "g": self.g}


SWIGLU, GEGLU = "unsloth.kernels.swiglu", "unsloth.kernels.geglu"


class UnslothSwigluFwd(_Gated, Row):
    """unsloth swiglu _fg_kernel: h = silu(e) g"""
    module = SWIGLU

    def program_a(self):
        return self.fwd_a("_fg_kernel")

    def program_b(self):
        return self.fwd_b()


class _SwigluBwd(_Gated):
    module, backward = SWIGLU, True

    def program_a(self):
        return self.bwd_a("_DWf_DW_dfg_kernel")

    def program_b(self):
        return self.bwd_b()


class UnslothSwigluBwd(_SwigluBwd, Row):
    """unsloth swiglu _DWf_DW_dfg_kernel: h, DW silu(e) and DW g silu'(e), in place"""


class UnslothSwigluBwdSigmoidMutant(_SwigluBwd, Mutation):
    """mutation: silu's derivative taken as sigmoid(e), the factor 1 + e (1 - sigmoid(e)) dropped"""
    mutate = [("de_row = dg_row.to(tl.float32) * se_row * (1.0 + e_row * (1.0 - se_row))",
               "de_row = dg_row.to(tl.float32) * se_row")]


class UnslothGegluExactFwd(_Gated, Row):
    """unsloth geglu _exact_forward_kernel: h = e Phi(e) g, Phi by erf"""
    module, act = GEGLU, 1

    def program_a(self):
        return self.fwd_a("_exact_forward_kernel")

    def program_b(self):
        return self.fwd_b()


class UnslothGegluExactBwd(_Gated, Row):
    """unsloth geglu _exact_backward_kernel: d/de [e Phi(e)] = Phi(e) + e phi(e)"""
    module, act, backward = GEGLU, 1, True

    def program_a(self):
        return self.bwd_a("_exact_backward_kernel")

    def program_b(self):
        return self.bwd_b()


class UnslothGegluApproxFwd(_Gated, Row):
    """unsloth geglu _approx_forward_kernel: gelu with tanh (libdevice tanh)"""
    module, act = GEGLU, 2

    def program_a(self):
        return self.fwd_a("_approx_forward_kernel")

    def program_b(self):
        return self.fwd_b()


class _GegluApproxBwd(_Gated):
    module, act, backward = GEGLU, 2, True

    def program_a(self):
        return self.bwd_a("_approx_backward_kernel")

    def program_b(self):
        return self.bwd_b()


class UnslothGegluApproxBwd(_GegluApproxBwd, Row):
    """unsloth geglu _approx_backward_kernel: the tanh gelu's derivative through sech^2 = 1 - tanh^2"""


class UnslothGegluApproxBwdCubicMutant(_GegluApproxBwd, Mutation):
    """mutation: the inner derivative of sqrt(2/pi) (x + 0.044715 x^3) misses the cubic's factor 3"""
    mutate = [("Q2 = -T2 * (T - 2.0) * (a + 3.0 * b)", "Q2 = -T2 * (T - 2.0) * (a + b)")]


CE = "unsloth.kernels.cross_entropy_loss"
V = 40  # vocabulary: calculate_settings(40) = (64, 4 warps) for the forward


class _CrossEntropy:
    """Fast_CrossEntropyLoss for a vocabulary of 40 (one chunk): _cross_entropy_forward, a program per row,
    BLOCK_SIZE 64, 4 warps; labels 3, -100 (ignored) and 39. The backward rows run the forward then
    _cross_entropy_backward as autograd does (it reads the saved logsumexp and loss): grid (3 rows, 1 block
    of 4096), 8 warps, into a fresh dlogits."""
    labels = [3, -100, 39]
    softcap, scale = 0, 0  # unsloth's defaults: logit_softcapping = 0, logit_scaling = 0 (off)
    backward = False
    mutate, inside = None, None

    def setup(self):
        self.x = racer.input((R, V), "f32", range=(-6, 6))
        self.t = racer.values(np.array(self.labels, dtype=np.int64))
        self.loss = racer.empty((R,), "f32")
        self.lse = racer.empty((R,), "f32")
        if self.backward:
            self.dloss = racer.input((R,), "f32", range=(-2, 2))
            self.dx = racer.empty((R, V), "f32")

    def constexprs(self):
        return dict(VOCAB_SIZE=V, DO_SOFTCAPPING=self.softcap != 0, SOFTCAP=self.softcap,
                    DO_LOGIT_SCALING=self.scale != 0, LOGIT_SCALE=self.scale)

    def program_a(self):
        fwd_mutate = self.mutate if self.inside == "_cross_entropy_forward" else None
        k = racer.triton(kernel(CE, "_cross_entropy_forward", fwd_mutate), logits_row_stride=V, BLOCK_SIZE=64,
                         num_warps=4, **self.constexprs())
        racer.launch(k, grid=R, args=[racer.read(self.x), racer.write(self.loss), racer.write(self.lse),
                                      racer.read(self.t)])
        if not self.backward:
            return {"loss": self.loss, "lse": self.lse}
        bwd_mutate = self.mutate if self.inside == "_cross_entropy_backward" else None
        k = racer.triton(kernel(CE, "_cross_entropy_backward", bwd_mutate), logits_row_stride=V, dloss_row_stride=1,
                         BLOCK_SIZE=4096, num_warps=8, **self.constexprs())
        racer.launch(k, grid=(R, 1), args=[racer.read(self.x), racer.write(self.dx), racer.read(self.dloss),
                                           racer.read(self.lse), racer.read(self.loss), racer.read(self.t)])
        return {"loss": self.loss, "lse": self.lse, "dx": self.dx}

    def program_b(self):
        common = [R, V, float(self.scale), float(self.softcap)]
        if not self.backward:
            racer.launch(ref("unsloth_ops.cu", "cross_entropy_fwd"), grid=1, block=R,
                         args=[racer.read(self.x), racer.read(self.t), racer.write(self.loss), racer.write(self.lse)]
                         + common)
            return {"loss": self.loss, "lse": self.lse}
        racer.launch(ref("unsloth_ops.cu", "cross_entropy_bwd"), grid=1, block=R,
                     args=[racer.read(self.x), racer.read(self.t), racer.write(self.loss), racer.write(self.lse),
                           racer.read(self.dloss), racer.write(self.dx)] + common)
        return {"loss": self.loss, "lse": self.lse, "dx": self.dx}


class UnslothCrossEntropyFwd(_CrossEntropy, Row):
    """unsloth _cross_entropy_forward: loss = softplus(logsumexp of the other logits - x[label]), and logsumexp"""


class UnslothCrossEntropyFwdSoftcap(_CrossEntropy, Row):
    """unsloth _cross_entropy_forward with Gemma 2's logit softcapping 30: z = 30 tanh(x / 30)"""
    softcap = 30.0


class UnslothCrossEntropyFwdScaling(_CrossEntropy, Row):
    """unsloth _cross_entropy_forward with Cohere's logit scaling 0.0625: z = 0.0625 x"""
    scale = 0.0625


class UnslothCrossEntropyBwd(_CrossEntropy, Row):
    """unsloth _cross_entropy_forward then _cross_entropy_backward: dloss (softmax - onehot), expm1(-loss) at the label"""
    backward = True


class UnslothCrossEntropyBwdSoftcap(_CrossEntropy, Row):
    """unsloth cross-entropy forward and backward with softcapping 30: the gradient times 1 - tanh^2(x / 30)"""
    backward, softcap = True, 30.0


class UnslothCrossEntropyBwdScaling(_CrossEntropy, Row):
    """unsloth cross-entropy forward and backward with logit scaling 0.0625"""
    backward, scale = True, 0.0625


class UnslothCrossEntropyBwdNoOneHotMutant(_CrossEntropy, Mutation):
    """mutation: the label's gradient is exp(-loss), the one-hot's -1 forgotten"""
    backward = True
    mutate = [("_expm1_neg(loss),", "tl.exp(-loss),")]
    inside = "_cross_entropy_backward"
