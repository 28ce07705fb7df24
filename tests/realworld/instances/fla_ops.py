"""fla-core: more utilities (softmax backward, log-cumsum-exp, the global vector cumsum, mean pooling),
the L2 norm and token shift modules, against reference/fla_ops.cu, reference/softmax_losses.cu and
reference/linear_attention.cu. Launches as fla's host code makes them, one autotune config chosen."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

R, D = 3, 40


class FlaSoftmaxBwd(Row):
    """fla softmax_bwd_kernel (fla.ops.utils.softmax): ds = p dp - p <p, dp>, 40 columns in a block of 64, 4 warps"""

    def setup(self):
        self.p = racer.input((R, D), "f32", range=(0, 1))
        self.dp = racer.input((R, D), "f32", range=(-2, 2))
        self.ds = racer.empty((R, D), "f32")

    def program_a(self):
        k = racer.triton(kernel("fla.ops.utils.softmax", "softmax_bwd_kernel"), D=D, B=64, num_warps=4)
        racer.launch(k, grid=R, args=[racer.read(self.p), racer.read(self.dp), racer.write(self.ds)])
        return {"ds": self.ds}

    def program_b(self):
        racer.launch(ref("softmax_losses.cu", "softmax_bwd"), grid=1, block=R,
                     args=[racer.read(self.dp), racer.read(self.p), racer.write(self.ds), R, D])
        return {"ds": self.ds}


LT, LS = 40, 16  # log-cumsum-exp: time steps, columns


class _Logcumsumexp:
    """fla logcumsumexp_fwd_kernel (abc's normalizer): one program for B*H = 1, T = 40 in chunks of BT 16
    (a ragged last chunk), 16 columns; the in-chunk sums are a tl.dot of a lower-triangular ones matrix
    (f32, no tf32), rescaled by a running max; 2 warps"""
    mutate = None

    def setup(self):
        self.s = racer.input((1, LT, LS), "f32", range=(-4, 4))
        self.z = racer.empty((1, LT, LS), "f32")

    def program_a(self):
        k = racer.triton(kernel("fla.ops.utils.logcumsumexp", "logcumsumexp_fwd_kernel", self.mutate), S=LS, BT=16,
                         num_warps=2)
        racer.launch(k, grid=1, args=[racer.read(self.s), racer.write(self.z), LT])
        return {"z": self.z}

    def program_b(self):
        racer.launch(ref("fla_ops.cu", "logcumsumexp_cols"), grid=1, block=LS,
                     args=[racer.read(self.s), racer.write(self.z), LT, LS])
        return {"z": self.z}


class FlaLogcumsumexp(_Logcumsumexp, Row):
    """fla logcumsumexp_fwd_kernel: z[t] = log sum_{i <= t} exp(s[i]) per column"""


class FlaLogcumsumexpNoRescaleMutant(_Logcumsumexp, Mutation):
    """mutation: the carried sum is not rescaled when the running max grows"""
    mutate = [("b_zp = b_zp * exp(b_mp - b_mc)", "b_zp = b_zp")]


GT, GS, GBT = 32, 8, 16


class _GlobalVectorCumsum:
    """fla chunk_global_cumsum_vector_kernel: a prefix sum along time of s[1][32][1][8], chunk by chunk
    (BT 16) with a carry; BS = min(32, next_power_of_2(8)) = 8, grid (1,), 2 warps"""
    reverse, mutate = False, None

    def setup(self):
        self.s = racer.input((1, GT, 1, GS), "f32", range=(-4, 4))
        self.o = racer.empty((1, GT, 1, GS), "f32")

    def program_a(self):
        k = racer.triton(kernel("fla.ops.utils.cumsum", "chunk_global_cumsum_vector_kernel", self.mutate), scale=None,
                         cu_seqlens=None, B=1, H=1, S=GS, BT=GBT, BS=GS, REVERSE=self.reverse, HAS_SCALE=False,
                         IS_VARLEN=False, num_warps=2)
        racer.launch(k, grid=1, args=[racer.read(self.s), racer.write(self.o), GT])
        return {"o": self.o}

    def program_b(self):  # one chunk as long as the sequence: a plain (suffix) prefix sum per column
        racer.launch(ref("linear_attention.cu", "chunk_cumsum_cols"), grid=1, block=32,
                     args=[racer.read(self.s), racer.write(self.o), GT, GS, GT, int(self.reverse)])
        return {"o": self.o}


class FlaChunkGlobalCumsumVector(_GlobalVectorCumsum, Row):
    """fla chunk_global_cumsum_vector_kernel, forward"""


class FlaChunkGlobalCumsumVectorReverse(_GlobalVectorCumsum, Row):
    """fla chunk_global_cumsum_vector_kernel, reverse (suffix sums)"""
    reverse = True


class FlaChunkGlobalCumsumVectorReverseCarryMutant(_GlobalVectorCumsum, Mutation):
    """mutation: the reverse pass uses the forward cumsum inside each chunk"""
    reverse = True
    mutate = [("b_c = b_z[None, :] + tl.cumsum(b_s, axis=0, reverse=True)", "b_c = b_z[None, :] + tl.cumsum(b_s, axis=0)")]


PT, PH, PD, PBT = 40, 2, 16, 16  # mean pooling: time, heads, head dim, chunk
PNT = (PT + PBT - 1) // PBT


class _MeanPool:
    """fla mean_pooling_fwd_kernel over x[1][40][2][16] in chunks of 16 (the last one 8 long): BD 16 (an
    autotune config), grid (cdiv(D, BD) * NT, B * H) = (3, 2), 1 warp"""
    mutate = None

    def setup(self):
        self.x = racer.input((1, PT, PH, PD), "f32", range=(-4, 4))
        self.o = racer.empty((1, PNT, PH, PD), "f32")

    def program_a(self):
        k = racer.triton(kernel("fla.ops.utils.pooling", "mean_pooling_fwd_kernel", self.mutate), cu_seqlens=None,
                         chunk_indices=None, H=PH, D=PD, BT=PBT, BD=16, IS_VARLEN=False, num_warps=1)
        racer.launch(k, grid=(PNT, PH), args=[racer.read(self.x), racer.write(self.o), PT])
        return {"o": self.o}

    def program_b(self):
        racer.launch(ref("fla_ops.cu", "chunk_mean"), grid=1, block=128,
                     args=[racer.read(self.x), racer.write(self.o), PT, PH, PD, PBT])
        return {"o": self.o}


class FlaMeanPoolingFwd(_MeanPool, Row):
    """fla mean_pooling_fwd_kernel: the mean of each chunk, the short last chunk divided by its length"""


class FlaMeanPoolingFwdFullChunkMutant(_MeanPool, Mutation):
    """mutation: every chunk is divided by BT, the short last one too"""
    mutate = [("b_o = tl.sum(b_x, axis=0) / min(BT, T - i_t * BT)", "b_o = tl.sum(b_x, axis=0) / BT")]


class FlaMeanPoolingBwd(Row):
    """fla mean_pooling_bwd_kernel: each time step gets its chunk's gradient over the chunk length"""

    def setup(self):
        self.do = racer.input((1, PNT, PH, PD), "f32", range=(-4, 4))
        self.dx = racer.empty((1, PT, PH, PD), "f32")

    def program_a(self):
        k = racer.triton(kernel("fla.ops.utils.pooling", "mean_pooling_bwd_kernel"), cu_seqlens=None,
                         chunk_indices=None, H=PH, D=PD, BT=PBT, BD=16, IS_VARLEN=False, num_warps=1)
        racer.launch(k, grid=(PNT, PH), args=[racer.read(self.do), racer.write(self.dx), PT])
        return {"dx": self.dx}

    def program_b(self):
        racer.launch(ref("fla_ops.cu", "chunk_mean_bwd"), grid=(PT * PH * PD + 127) // 128, block=128,
                     args=[racer.read(self.do), racer.write(self.dx), PT, PH, PD, PBT])
        return {"dx": self.dx}


NR, NBT = 6, 4  # L2 norm: rows, rows per program (an autotune config; the last program half masked)
L2 = "fla.modules.norm.l2norm"


class _L2Fwd:
    """fla l2norm_fwd_kernel (D <= 512): 6 rows of 40 in programs of BT 4 rows, BD 64, NB 1, 2 warps"""
    mutate = None

    def setup(self):
        self.x = racer.input((NR, D), "f32", range=(-4, 4))
        self.y = racer.empty((NR, D), "f32")
        self.rstd = racer.empty((NR,), "f32")

    def program_a(self):
        k = racer.triton(kernel(L2, "l2norm_fwd_kernel", self.mutate), D=D, BD=64, NB=1, BT=NBT, num_warps=2)
        racer.launch(k, grid=2, args=[racer.read(self.x), racer.write(self.y), racer.write(self.rstd), 1e-6, NR])
        return {"y": self.y, "rstd": self.rstd}

    def program_b(self):
        racer.launch(ref("fla_ops.cu", "l2norm_rows"), grid=1, block=NR,
                     args=[racer.read(self.x), racer.write(self.y), racer.write(self.rstd), NR, D, 1e-6])
        return {"y": self.y, "rstd": self.rstd}


class FlaL2NormFwd(_L2Fwd, Row):
    """fla l2norm_fwd_kernel: y = x / sqrt(sum x^2 + eps) and the rstd of each row"""


class _L2Bwd:
    """fla l2norm_bwd_kernel, same tiling as the forward: 6 rows of 40 in programs of BT 4 rows, BD 64, 2 warps"""
    mutate = None

    def setup(self):
        self.y = racer.input((NR, D), "f32", range=(-1, 1))
        self.rstd = racer.input((NR,), "f32", range=(0.1, 4))
        self.dy = racer.input((NR, D), "f32", range=(-2, 2))
        self.dx = racer.empty((NR, D), "f32")

    def program_a(self):
        k = racer.triton(kernel(L2, "l2norm_bwd_kernel", self.mutate), D=D, BD=64, NB=1, BT=NBT, num_warps=2)
        racer.launch(k, grid=2, args=[racer.read(self.y), racer.read(self.rstd), racer.read(self.dy),
                                      racer.write(self.dx), 1e-6, NR])
        return {"dx": self.dx}

    def program_b(self):
        racer.launch(ref("fla_ops.cu", "l2norm_rows_bwd"), grid=1, block=NR,
                     args=[racer.read(self.y), racer.read(self.rstd), racer.read(self.dy), racer.write(self.dx), NR, D])
        return {"dx": self.dx}


class FlaL2NormBwd(_L2Bwd, Row):
    """fla l2norm_bwd_kernel: dx = rstd (dy - y <dy, y>)"""


class FlaL2NormBwdProjectionScaleMutant(_L2Bwd, Mutation):
    """mutation: the projection term is not scaled by rstd"""
    mutate = [("- tl.sum(b_dy * b_y, 1)[:, None] * b_y * b_rstd[:, None]", "- tl.sum(b_dy * b_y, 1)[:, None] * b_y")]


TB, TT = 2, 8  # token shift: batch, time


class _TokenShift:
    """fla token_shift_fwd_kernel_short (T <= 4096) with a cache and output_cache: x[2][8][40], grid (B, T),
    BD 64, 2 warps"""
    mutate = None

    def setup(self):
        self.x = racer.input((TB, TT, D), "f32", range=(-4, 4))
        self.cache = racer.input((TB, D), "f32", range=(-4, 4))
        self.y = racer.empty((TB, TT, D), "f32")
        self.cache_out = racer.empty((TB, D), "f32")

    def program_a(self):
        k = racer.triton(kernel("fla.modules.token_shift", "token_shift_fwd_kernel_short", self.mutate), cu_seqlens=None,
                         D=D, BD=64, IS_VARLEN=False, USE_INITIAL_STATE=True, STORE_FINAL_STATE=True, IS_DECODE=False,
                         num_warps=2)
        racer.launch(k, grid=(TB, TT), args=[racer.read(self.x), racer.write(self.y), racer.read(self.cache),
                                             racer.write(self.cache_out), TT])
        return {"y": self.y, "cache_out": self.cache_out}

    def program_b(self):
        racer.launch(ref("fla_ops.cu", "token_shift"), grid=(TB * TT * D + 127) // 128, block=128,
                     args=[racer.read(self.x), racer.read(self.cache), racer.write(self.y), racer.write(self.cache_out),
                           TB, TT, D])
        return {"y": self.y, "cache_out": self.cache_out}


class FlaTokenShift(_TokenShift, Row):
    """fla token_shift_fwd_kernel_short: y[t] = x[t-1] - x[t], the first from the cache, the last token cached"""


class FlaTokenShiftCacheSignMutant(_TokenShift, Mutation):
    """mutation: the first position's delta from the cache has its sign flipped"""
    mutate = [("            delta = b_cache - b_x\n            tl.store(y + base_offset, delta, mask=m_d)\n        else:",
               "            delta = b_x - b_cache\n            tl.store(y + base_offset, delta, mask=m_d)\n        else:")]
