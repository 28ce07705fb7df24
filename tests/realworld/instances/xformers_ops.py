"""xformers 0.0.35: the Triton kernels of xformers/ops/_triton/ (RMSNorm with and without the residual add,
rotary embedding of a padded batch with its KV-cache writes, index_select_cat and scaled_index_add forward and
backward, the matmul over a grid of tiles), against reference/xformers_ops.cu. Each launched with the constexprs,
grid and warps xformers' host wrapper picks for the shape (the tiled matmul: one config of its autotuner)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

TRI = "xformers.ops._triton"
REF = "xformers_ops.cu"


# ---- RMSNorm (rmsnorm_kernels.py) ----
class _RmsNorm:
    """xformers _rms_norm_kernel (ops/_triton/rmsnorm_kernels.py, _rms_norm_forward): x[4][48] f32, w[48], eps
    1e-6; out = x rsqrt(mean(x^2) + eps) w; BLOCK_SIZE max(next_power_of_2(48), 128) = 128, num_warps
    min(max(128 // 256, 1), 8) = 1, INCLUDE_WEIGHT, grid (4,)"""
    mutate = None
    dtype, R, N, weight = "f32", 4, 48, True

    def setup(self):
        self.x = racer.input((self.R, self.N), self.dtype, range=(-4, 4))
        self.w = racer.input((self.N,), self.dtype, range=(-2, 2))
        self.y = racer.empty((self.R, self.N), self.dtype)

    def program_a(self):
        w = racer.read(self.w) if self.weight else None
        k = racer.triton(kernel(f"{TRI}.rmsnorm_kernels", "_rms_norm_kernel", self.mutate), N_COLS=self.N,
                         BLOCK_SIZE=128, INCLUDE_WEIGHT=self.weight, num_warps=1,
                         **({} if self.weight else {"w_ptr": None}))
        args = [racer.read(self.x), racer.write(self.y)] + ([w] if self.weight else []) + [1e-6, self.N]
        racer.launch(k, grid=self.R, args=args)
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref(REF, f"rms_norm_{self.dtype}"), grid=1, block=32,
                     args=[racer.readwrite(self.x), racer.read(self.w) if self.weight else None, racer.write(self.y),
                           self.R, self.N, 1e-6])
        return {"y": self.y}


class XformersRmsNorm(_RmsNorm, Row):
    """xformers rms_norm: y = w x / sqrt(mean(x^2) + eps)"""


class XformersRmsNormNoWeightBf16(_RmsNorm, Row):
    """xformers _rms_norm_kernel (rmsnorm_kernels.py, _rms_norm_forward with attn_norm_weights None): x[3][64]
    bf16, eps 1e-6; y = bf16(x rsqrt(mean(x^2) + eps)); BLOCK_SIZE max(64, 128) = 128, 1 warp, INCLUDE_WEIGHT
    False (w_ptr None), grid (3,)"""
    dtype, R, N, weight = "bf16", 3, 64, False


class XformersRmsNormEpsOutsideMutant(_RmsNorm, Mutation):
    """mutation: eps added after the reciprocal square root instead of under it"""
    mutate = [("rstd = rsqrt((tl.sum(_mean, axis=0) / N_COLS) + eps)", "rstd = rsqrt(tl.sum(_mean, axis=0) / N_COLS) + eps")]


class XformersRmsNormBlockMeanMutant(_RmsNorm, Mutation):
    """mutation: the mean of squares divides by the block size (128) instead of the row length (48)"""
    mutate = [("rstd = rsqrt((tl.sum(_mean, axis=0) / N_COLS) + eps)",
               "rstd = rsqrt((tl.sum(_mean, axis=0) / BLOCK_SIZE) + eps)")]


class _RmsNormAdd:
    """xformers _rms_norm_add_kernel (ops/_triton/rmsnorm_kernels.py, _rms_norm_add_forward): x, y [4][48] f32,
    w[48], eps 1e-6; x <- x + y in place, out = (x + y) rsqrt(mean((x + y)^2) + eps) w; BLOCK_SIZE 128, 1 warp,
    INCLUDE_WEIGHT, grid (4,)"""
    mutate = None
    dtype, R, N = "f32", 4, 48

    def setup(self):
        self.x = racer.input((self.R, self.N), self.dtype, range=(-4, 4))
        self.y = racer.input((self.R, self.N), self.dtype, range=(-4, 4))
        self.w = racer.input((self.N,), self.dtype, range=(-2, 2))
        self.o = racer.empty((self.R, self.N), self.dtype)

    def program_a(self):
        k = racer.triton(kernel(f"{TRI}.rmsnorm_kernels", "_rms_norm_add_kernel", self.mutate), N_COLS=self.N,
                         BLOCK_SIZE=128, INCLUDE_WEIGHT=True, num_warps=1)
        racer.launch(k, grid=self.R, args=[racer.readwrite(self.x), racer.read(self.y), racer.write(self.o),
                                           racer.read(self.w), 1e-6, self.N])
        return {"x": self.x, "o": self.o}

    def program_b(self):
        racer.launch(ref(REF, f"add_rms_norm_{self.dtype}"), grid=1, block=32,
                     args=[racer.readwrite(self.x), racer.read(self.y), racer.read(self.w), racer.write(self.o),
                           self.R, self.N, 1e-6])
        return {"x": self.x, "o": self.o}


class XformersRmsNormAdd(_RmsNormAdd, Row):
    """xformers rms_norm_add: x += y, out = RMSNorm(x) w"""


class XformersRmsNormAddBf16(_RmsNormAdd, Row):
    """xformers _rms_norm_add_kernel (rmsnorm_kernels.py, _rms_norm_add_forward): x, y [3][64] bf16, w[64] bf16,
    eps 1e-6; the sum is stored to x as bf16, the mean of squares taken over the f32 sums, the output scales the
    stored bf16 sums; BLOCK_SIZE 128, 1 warp, grid (3,)"""
    dtype, R, N = "bf16", 3, 64


class XformersRmsNormAddResidualOnlyMutant(_RmsNormAdd, Mutation):
    """mutation: the mean of squares is taken over x alone, not the sum x + y"""
    mutate = [("_mean += a * a", "_mean += ax * ax")]


# ---- rotary embedding of a padded batch (rope_padded_kernels.py) ----
# 2 sequences: 2 and 3 new tokens (q seqstart [0, 2, 5]) in cache segments of 8 rows (k seqstart [0, 8, 16])
# holding 5 and 7 rows (seqlen): the new keys go to rows 3, 4 and 12, 13, 14 at positions 3, 4 and 4, 5, 6.
QSTART, KSTART, KLEN = [0, 2, 5], [0, 8, 16], [5, 7]
TOK, HQ, HK, RD, ROWS = 5, 2, 1, 32, 16


class _RopePadded:
    """xformers _rope_padded_kernel (ops/_triton/rope_padded_kernels.py, ops/rope_padded.py rope_padded): xq
    [1][5][2][32], xk, xv [1][5][1][32] f32, cache_k, cache_v [1][16][1][32] (attn_bias
    BlockDiagonalCausalWithOffsetPaddedKeysMask: q seqstart [0, 2, 5], k seqstart [0, 8, 16], k seqlen [5, 7]),
    theta 10000, linear_scale 1, adjacents, internal_dtype "", no dynamic scaling, first_seqpos and seqpos None;
    k_start 2, v_start 3, n_groups 1, BLOCK_SIZE max(next_power_of_2(32), 128) = 128, num_warps
    min(max(128 // 256, 1), 8) = 1, grid (max q seqlen 3, 2 sequences, 4 heads); const_batch_strides False,
    cache_padding_length 0, seqlenk_shift 0"""
    mutate = None
    dtype, adjacents, first, pos, internal = "f32", True, None, None, ""

    def setup(self):
        self.xq = racer.input((1, TOK, HQ, RD), self.dtype, range=(-4, 4))
        self.xk = racer.input((1, TOK, HK, RD), self.dtype, range=(-4, 4))
        self.xv = racer.input((1, TOK, HK, RD), self.dtype, range=(-4, 4))
        self.oq = racer.empty((1, TOK, HQ, RD), self.dtype)
        self.ck = racer.input((1, ROWS, HK, RD), self.dtype, range=(-4, 4))
        self.cv = racer.input((1, ROWS, HK, RD), self.dtype, range=(-4, 4))
        self.qs = racer.values(QSTART, dtype="i32")
        self.ks = racer.values(KSTART, dtype="i32")
        self.kl = racer.values(KLEN, dtype="i32")
        self.fp = None if self.first is None else racer.values(self.first, dtype="i32")
        self.sp = None if self.pos is None else racer.values(self.pos, dtype="i32")

    def program_a(self):
        extra = {}
        if self.fp is None:
            extra["first_seqpos"] = None
        if self.sp is None:
            extra["seqpos"] = None
        k = racer.triton(kernel(f"{TRI}.rope_padded_kernels", "_rope_padded_kernel", self.mutate),
                         use_dynamic_scaling=False, dynamic_old_context_len=0, dynamic_scale_factor=0,
                         dynamic_low_freq_factor=0, dynamic_high_freq_factor=0, k_start=HQ, v_start=HQ + HK, dim=RD,
                         internal_dtype=self.internal, const_batch_strides=False, seqlenk_shift=0, BLOCK_SIZE=128,
                         adjacents=self.adjacents, num_warps=1, **extra)
        seq = [racer.read(t) for t in (self.fp, self.sp) if t is not None]
        racer.launch(k, grid=(3, 2, HQ + 2 * HK),
                     args=[racer.read(self.xq), racer.read(self.xk), racer.read(self.xv), racer.write(self.oq),
                           racer.readwrite(self.ck), racer.readwrite(self.cv), racer.read(self.qs),
                           racer.read(self.ks), racer.read(self.kl), 10000.0, 1.0] + seq +
                          [1,  # n_groups
                           HQ * RD, 0, RD, HK * RD, 0, RD, HK * RD, 0, RD,  # xq, xk, xv strides (M, G, H)
                           HK * RD, 0, RD, HK * RD, 0, RD,  # cache_k, cache_v
                           1, 1, 1,  # seqstartq, seqstartk, seqlenk
                           HQ * RD, 0, RD,  # out_q
                           0 if not seq else 1,  # stride_seqpos
                           0])  # cache_padding_length
        return {"oq": self.oq, "ck": self.ck, "cv": self.cv}

    def program_b(self):
        racer.launch(ref(REF, f"rope_padded_{self.dtype}"), grid=1, block=TOK * (HQ + 2 * HK) * RD // 2,
                     args=[racer.read(self.xq), racer.read(self.xk), racer.read(self.xv), racer.write(self.oq),
                           racer.readwrite(self.ck), racer.readwrite(self.cv), racer.read(self.qs),
                           racer.read(self.ks), racer.read(self.kl),
                           None if self.fp is None else racer.read(self.fp),
                           None if self.sp is None else racer.read(self.sp),
                           2, TOK, HQ, HK, RD, 10000.0, 1.0, int(self.adjacents)])
        return {"oq": self.oq, "ck": self.ck, "cv": self.cv}


class XformersRopePadded(_RopePadded, Row):
    """xformers rope_padded, adjacent pairs: (x_2i, x_2i+1) rotated by p theta^(-2i/32); k into cache_k, v copied
    into cache_v at the rows after each sequence's cached ones"""


class XformersRopePaddedHalvesBf16(_RopePadded, Row):
    """xformers _rope_padded_kernel (rope_padded_kernels.py, rope_padded with adjacents=False): the same padded
    batch in bf16, pairs (x_i, x_i+16) (HuggingFace's layout), rotation in f32, stored as bf16; BLOCK_SIZE 128,
    1 warp, grid (3, 2, 4)"""
    dtype, adjacents = "bf16", False


class XformersRopePaddedFirstSeqpos(_RopePadded, Row):
    """xformers _rope_padded_kernel (rope_padded_kernels.py, rope_padded with first_seqpos [3, 0] i32): the
    positions of sequence b start at first_seqpos[b] (3, 4 become 6, 7); stride_seqpos 1; BLOCK_SIZE 128, 1 warp,
    grid (3, 2, 4)"""
    first = [3, 0]


class XformersRopePaddedSeqpos(_RopePadded, Row):
    """xformers _rope_padded_kernel (rope_padded_kernels.py, rope_padded with seqpos [7, 2, 0, 5, 9] i32): each
    query's position given explicitly (the cache rows still follow the layout); stride_seqpos 1; BLOCK_SIZE 128,
    1 warp, grid (3, 2, 4)"""
    pos = [7, 2, 0, 5, 9]


class XformersRopePaddedSignMutant(_RopePadded, Mutation):
    """mutation: the rotation's sine terms swapped in sign (the inverse rotation)"""
    mutate = [("re_out = re_x * cosines - im_x * sines", "re_out = re_x * cosines + im_x * sines"),
              ("im_out = im_x * cosines + re_x * sines", "im_out = im_x * cosines - re_x * sines")]


class XformersRopePaddedCacheRowMutant(_RopePadded, Mutation):
    """mutation: an off-by-one in the cache row (one past the end of the sequence's keys)"""
    mutate = [("cache_pos = end_of_batch_elt_cache - (end_query_pos - query_pos)",
               "cache_pos = end_of_batch_elt_cache - (end_query_pos - query_pos) + 1")]


# ---- index_select_cat (k_index_select_cat.py) ----
SRC_ROWS, COLS = 6, 40
INDEX = [2, 5, 0]


class _IndexSelectCat:
    """xformers index_select_cat_fwd_kernel (ops/_triton/k_index_select_cat.py, index_select_cat_fwd):
    source[6][40] f32, index [2, 5, 0] i64, output[3][40] = source[index]; BLOCK_SIZE_INDEX 1, BLOCK_SIZE_COL
    512, grid (cdiv(3, 1), cdiv(40, 512)) = (3, 1), default 4 warps"""
    mutate = None

    def setup(self):
        self.src = racer.input((SRC_ROWS, COLS), "f32", range=(-4, 4))
        self.idx = racer.values(INDEX, dtype="i64")
        self.out = racer.empty((len(INDEX), COLS), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{TRI}.k_index_select_cat", "index_select_cat_fwd_kernel", self.mutate),
                         BLOCK_SIZE_INDEX=1, BLOCK_SIZE_COL=512)
        racer.launch(k, grid=(len(INDEX), 1), args=[racer.write(self.out), racer.read(self.src), racer.read(self.idx),
                                                    len(INDEX), COLS, COLS, 1])
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref(REF, "gather_rows"), grid=1, block=len(INDEX) * COLS,
                     args=[racer.read(self.src), racer.read(self.idx), racer.write(self.out), len(INDEX), COLS])
        return {"out": self.out}


class XformersIndexSelectCat(_IndexSelectCat, Row):
    """xformers index_select_cat_fwd: out[i] = source[index[i]]"""


class XformersIndexSelectCatScatterMutant(_IndexSelectCat, Mutation):
    """mutation: the output row is the source row's index instead of the index's position (a scatter)"""
    mutate = [("output_offsets = output_ptr + indices[:, None] * stride0",
               "output_offsets = output_ptr + rows[:, None] * stride0")]


class XformersIndexSelectCatBwd(Row):
    """xformers index_select_cat_bwd_kernel (ops/_triton/k_index_select_cat.py, index_select_cat_bwd):
    grad_output[3][40] f32 scattered into grad_source[6][40] at rows index [2, 5, 0] i64 (the other rows kept);
    BLOCK_SIZE_INDEX 1, BLOCK_SIZE_COL 512, grid (3, 1), 4 warps"""

    def setup(self):
        self.g = racer.input((len(INDEX), COLS), "f32", range=(-4, 4))
        self.idx = racer.values(INDEX, dtype="i64")
        self.gs = racer.input((SRC_ROWS, COLS), "f32", range=(-4, 4))

    def program_a(self):
        k = racer.triton(kernel(f"{TRI}.k_index_select_cat", "index_select_cat_bwd_kernel"), BLOCK_SIZE_INDEX=1,
                         BLOCK_SIZE_COL=512)
        racer.launch(k, grid=(len(INDEX), 1), args=[racer.readwrite(self.gs), racer.read(self.idx), racer.read(self.g),
                                                    SRC_ROWS, len(INDEX), COLS, COLS, 1])
        return {"gs": self.gs}

    def program_b(self):
        racer.launch(ref(REF, "scatter_rows"), grid=1, block=len(INDEX) * COLS,
                     args=[racer.read(self.g), racer.read(self.idx), racer.readwrite(self.gs), len(INDEX), COLS])
        return {"gs": self.gs}


# ---- scaled_index_add (k_scaled_index_add.py) ----
NI, NR, NS = 5, 2, 3  # input slices, rows a slice, source slices
SIA_INDEX = [4, 0, 2]


class _ScaledIndexAdd:
    """xformers scaled_index_add_fwd_kernel (ops/_triton/k_scaled_index_add.py, scaled_index_add_fwd):
    x[5][2][40] f32 updated in place, source[3][2][40], index [4, 0, 2] i64, scaling[40], alpha any f32 (a
    symbolic scalar); x[index[s]] += alpha scaling source[s]; BLOCK_SIZE_INDEX 1, BLOCK_SIZE_ROW 1, BLOCK_SIZE_COL
    512, HAS_SCALING, grid (3, 2, 1), default 4 warps"""
    mutate = None
    dtype, scaling = "f32", True

    def setup(self):
        self.x = racer.input((NI, NR, COLS), self.dtype, range=(-4, 4))
        self.src = racer.input((NS, NR, COLS), self.dtype, range=(-4, 4))
        self.idx = racer.values(SIA_INDEX, dtype="i64")
        self.sc = racer.input((COLS,), self.dtype, range=(-2, 2))
        self.alpha = racer.input((1,), "f32", range=(-2, 2))

    def program_a(self):
        k = racer.triton(kernel(f"{TRI}.k_scaled_index_add", "scaled_index_add_fwd_kernel", self.mutate),
                         BLOCK_SIZE_INDEX=1, BLOCK_SIZE_ROW=1, BLOCK_SIZE_COL=512, HAS_SCALING=self.scaling,
                         **({} if self.scaling else {"scaling_ptr": None}))
        racer.launch(k, grid=(NS, NR, 1),
                     args=[racer.readwrite(self.x), racer.read(self.idx), racer.read(self.src)] +
                          ([racer.read(self.sc)] if self.scaling else []) +
                          [racer.scalar(self.alpha, "f32"), NI, NS, NR, COLS, NR * COLS, COLS, 1])
        return {"x": self.x}

    def program_b(self):
        racer.launch(ref(REF, f"scaled_index_add_{self.dtype}"), grid=1, block=NS * NR * COLS,
                     args=[racer.readwrite(self.x), racer.read(self.idx), racer.read(self.src),
                           racer.read(self.sc) if self.scaling else None, racer.scalar(self.alpha, "f32"), NS,
                           NR * COLS, COLS])
        return {"x": self.x}


class XformersScaledIndexAdd(_ScaledIndexAdd, Row):
    """xformers scaled_index_add_fwd: x[index[s]] += alpha scaling source[s]"""


class XformersScaledIndexAddNoScalingBf16(_ScaledIndexAdd, Row):
    """xformers scaled_index_add_fwd_kernel (k_scaled_index_add.py, scaled_index_add_fwd with scaling None):
    x[5][2][40] bf16, source[3][2][40] bf16, index [4, 0, 2] i64, alpha any f32; x[index[s]] = bf16(x + alpha
    source) in f32; HAS_SCALING False (scaling_ptr None), BLOCK_SIZE_COL 512, grid (3, 2, 1), 4 warps"""
    dtype, scaling = "bf16", False


class XformersScaledIndexAddScalingRowMutant(_ScaledIndexAdd, Mutation):
    """mutation: the per-column scaling is indexed by the row instead of the column"""
    mutate = [("scaling_ptr + cols[None, None, :] * stride2,", "scaling_ptr + rows[None, :, None] * stride2,")]


class _ScaledIndexAddBwd:
    """xformers scaled_index_add_bwd_kernel (ops/_triton/k_scaled_index_add.py, scaled_index_add_bwd):
    grad_output[5][2][40] f32, source[3][2][40], scaling[40], index [4, 0, 2] i64, alpha any f32; grad_source[s] =
    alpha grad_output[index[s]] scaling, grad_scaling[s] = alpha grad_output[index[s]] source[s] (per slice, the
    host sums it); HAS_SCALING, BLOCK_SIZE_INDEX 1, BLOCK_SIZE_ROW 1, BLOCK_SIZE_COL 512, grid (3, 2, 1), 4 warps"""
    mutate = None

    def setup(self):
        self.g = racer.input((NI, NR, COLS), "f32", range=(-4, 4))
        self.src = racer.input((NS, NR, COLS), "f32", range=(-4, 4))
        self.idx = racer.values(SIA_INDEX, dtype="i64")
        self.sc = racer.input((COLS,), "f32", range=(-2, 2))
        self.alpha = racer.input((1,), "f32", range=(-2, 2))
        self.gsrc = racer.empty((NS, NR, COLS), "f32")
        self.gsc = racer.empty((NS, NR, COLS), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{TRI}.k_scaled_index_add", "scaled_index_add_bwd_kernel", self.mutate),
                         BLOCK_SIZE_INDEX=1, BLOCK_SIZE_ROW=1, BLOCK_SIZE_COL=512, HAS_SCALING=True)
        racer.launch(k, grid=(NS, NR, 1),
                     args=[racer.read(self.g), racer.write(self.gsrc), racer.write(self.gsc), racer.read(self.src),
                           racer.read(self.sc), racer.read(self.idx), racer.scalar(self.alpha, "f32"), NI, NS, NR,
                           COLS, NR * COLS, COLS, 1])
        return {"gsrc": self.gsrc, "gsc": self.gsc}

    def program_b(self):
        racer.launch(ref(REF, "scaled_index_add_bwd_f32"), grid=1, block=NS * NR * COLS,
                     args=[racer.read(self.g), racer.read(self.idx), racer.read(self.src), racer.read(self.sc),
                           racer.write(self.gsrc), racer.write(self.gsc), racer.scalar(self.alpha, "f32"), NS,
                           NR * COLS, COLS])
        return {"gsrc": self.gsrc, "gsc": self.gsc}


class XformersScaledIndexAddBwd(_ScaledIndexAddBwd, Row):
    """xformers scaled_index_add_bwd: the gradients of source and scaling"""


class XformersScaledIndexAddBwdScalingGradMutant(_ScaledIndexAddBwd, Mutation):
    """mutation: the scaling's gradient multiplies by the scaling instead of the source"""
    mutate = [("tl.store(grad_scaling_offsets, alpha * grad_output * source, mask=source_mask)",
               "tl.store(grad_scaling_offsets, alpha * grad_output * scaling, mask=source_mask)")]


# ---- matmul over a grid of tiles (tiled_matmul_kernels.py) ----
class _TiledMatmul:
    """xformers _xformers_tiled_matmul_kernel (ops/_triton/tiled_matmul_kernels.py, _launch_triton_matmul): A, B,
    C 32 x 32 f32 as 2 x 2 grids of 16 x 16 tiles (ms = ns = ks = [16, 16]; tiles as views of one row-major
    matrix, strides_am = strides_bk = strides_cm = [32, 32, 0], the others [1, 1, 1]; the 3 x 3 tile arguments
    repeat the last row and column); the autotuner's IO-bound config BLOCK_M 16, BLOCK_N 32, BLOCK_K 32, SPLIT_K 1,
    GROUP_M 8, 2 warps, 2 stages; EVEN_K False (16 % 32), ACC_TYPE f32, grid ((1 + 1) x (1 + 1), 1) = (4, 1);
    N tiles of 16 in 32-wide blocks wrap (rn % N) and store masked"""
    mutate = None
    dtype = "f32"
    t1, t2 = 16, 16  # the two tile sizes along each of M, N, K

    def setup(self):
        mm = self.t1 + self.t2
        self.a = racer.input((mm, mm), self.dtype, range=(-2, 2))
        self.b = racer.input((mm, mm), self.dtype, range=(-2, 2))
        self.c = racer.empty((mm, mm), self.dtype)

    def _tiles(self, access, t):
        mm, h = self.t1 + self.t2, self.t1
        grid = [[access(t, 0), access(t, h)], [access(t, h * mm), access(t, h * mm + h)]]
        return [grid[min(i, 1)][min(j, 1)] for i in range(3) for j in range(3)]

    def program_a(self):
        import triton.language as tl
        k = racer.triton(kernel(f"{TRI}.tiled_matmul_kernels", "_xformers_tiled_matmul_kernel", self.mutate),
                         BLOCK_M=16, BLOCK_N=32, BLOCK_K=32, GROUP_M=8, SPLIT_K=1, EVEN_K=False, ACC_TYPE=tl.float32,
                         num_warps=2, num_stages=2)
        mm, sizes = self.t1 + self.t2, [self.t1, self.t2, 0]
        grid_m = sum((m + 15) // 16 for m in sizes)
        grid_n = sum((n + 31) // 32 for n in sizes)
        racer.launch(k, grid=(grid_m * grid_n, 1),
                     args=self._tiles(racer.read, self.a) + self._tiles(racer.read, self.b) +
                          self._tiles(racer.write, self.c) + sizes * 3 +
                          [mm, mm, 0, 1, 1, 1, mm, mm, 0, 1, 1, 1, mm, mm, 0, 1, 1, 1])
        return {"c": self.c}

    def program_b(self):
        mm = self.t1 + self.t2
        racer.launch(ref(REF, f"matmul_{self.dtype}"), grid=(mm * mm + 255) // 256, block=256,
                     args=[racer.read(self.a), racer.read(self.b), racer.write(self.c), mm, mm, mm])
        return {"c": self.c}


class XformersTiledMatmul(_TiledMatmul, Row):
    """xformers tiled_matmul: C = A B over a 2 x 2 grid of tiles"""


class XformersTiledMatmulBf16(_TiledMatmul, Row):
    """xformers _xformers_tiled_matmul_kernel (tiled_matmul_kernels.py, _launch_triton_matmul): the same 2 x 2 tile
    grid in bf16 (ACC_TYPE f32, the accumulator rounded to bf16 at the store); BLOCK_M 16, BLOCK_N 32, BLOCK_K 32,
    SPLIT_K 1, GROUP_M 8, 2 warps, 2 stages, grid (4, 1)"""
    dtype = "bf16"


class XformersTiledMatmulUneven(_TiledMatmul, Row):
    """xformers _xformers_tiled_matmul_kernel (tiled_matmul_kernels.py, _launch_triton_matmul): A, B, C 24 x 24 f32
    as 2 x 2 grids of uneven tiles (ms = ns = ks = [16, 8]: tiles 16 x 16, 16 x 8, 8 x 16, 8 x 8, views of one
    row-major matrix, strides_am = strides_bk = strides_cm = [24, 24, 0]); BLOCK_M 16, BLOCK_N 32, BLOCK_K 32,
    SPLIT_K 1, GROUP_M 8, 2 warps, 2 stages, EVEN_K False, grid ((1 + 1) x (1 + 1), 1) = (4, 1); the 8-row tiles
    wrap their rows (rm % 8) and store masked"""
    t1, t2 = 16, 8


class XformersTiledMatmulTileMutant(_TiledMatmul, Mutation):
    """mutation: a tile-name slip picks B21 (second tile row) where the second tile column B12 belongs"""
    mutate = [("B1 = tl.where(pid_n < grid_n1, B11, tl.where(pid_n < grid_n1 + grid_n2, B12, B13))",
               "B1 = tl.where(pid_n < grid_n1, B11, tl.where(pid_n < grid_n1 + grid_n2, B21, B13))")]
