"""lightning_attn 0.0.5 (OpenNLPLab's Lightning Attention-2): its Triton kernels (lightning_attn/ops/triton/:
lightning_attn2.py, lightning_attn2_no_decay.py, srmsnorm.py) against reference/lightning_attn_ops.cu. Each
launched as the module's autograd Function does (LightningAttention2, LightningAttention2NoDecay, _SrmsNorm):
q, k [b][h][n][d], v [b][h][n][e] contiguous, the decay rates s [h] (one per head, f32, positive as
utils._build_slope_tensor makes them), grid (b * h, cdiv(e, BLOCK_MODEL)) for the forward, BLOCK_MODEL =
min(next_power_of_2(e), 32), (b * h, NUM_BLOCK) and (b * h,) for the two backward kernels, Triton's default 4
warps. The Functions fix BLOCK 64 (and CBLOCK 32 in the backward): the rows that need several blocks (the
inter-block state) scale BLOCK down (16 or 32, CBLOCK BLOCK / 2), said per row. The f32 tl.dots run in tf32
(Triton's default input_precision: Racer's float-hazard search shows the tf32 error, its verdict is over the reals);
the references are exact f32 formulas. Found by reading, not rows: _fwd_kernel masks the rows it loads and stores but
not the BLOCK_MODEL columns, so an e that is not a multiple of BLOCK_MODEL (e 48: two programs of 32 columns) reads
and writes past each row (lightning_attn_func pads e to a power of 2 first; the Function itself does not);
lightning_attn_interface's is_support(dim) is `16 % dim`, false for d = 16, and its no-decay path for d <= 128
passes the undefined q1, k1."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
from common import Mutation, Row, cdiv, kernel, ref  # noqa: E402

LA = "lightning_attn.ops.triton.lightning_attn2"
LAND = "lightning_attn.ops.triton.lightning_attn2_no_decay"
SR = "lightning_attn.ops.triton.srmsnorm"
REF = "lightning_attn_ops.cu"


def block_model(e):
    p = 1
    while p < e:
        p *= 2
    return min(p, 32)


class _Fwd:
    """The forward kernel, one program per (b * h, e / BLOCK_MODEL): the in-block part by the mask
    exp(-s (i - j)) for j <= i, the earlier blocks through a [d][BLOCK_MODEL] state decayed by exp(-s BLOCK)"""
    mutate = None
    decay = True
    dtype = "f32"
    B, H, N, D, E, BLOCK = 1, 2, 40, 16, 16, 16

    def setup(self):
        self.BH = self.B * self.H
        self.q = racer.input((self.B, self.H, self.N, self.D), self.dtype, range=(-1, 1))
        self.k = racer.input((self.B, self.H, self.N, self.D), self.dtype, range=(-1, 1))
        self.v = racer.input((self.B, self.H, self.N, self.E), self.dtype, range=(-1, 1))
        self.s = racer.input((self.H,), "f32", range=(0.01, 1)) if self.decay else racer.zeros((self.H,), "f32")
        self.o = racer.empty((self.B, self.H, self.N, self.E), self.dtype)

    def program_a(self):
        bm = block_model(self.E)
        consts = dict(b=self.B, h=self.H, n=self.N, d=self.D, e=self.E, BLOCK=self.BLOCK,
                      NUM_BLOCK=cdiv(self.N, self.BLOCK), BLOCK_MODEL=bm)
        if self.decay:
            k = racer.triton(kernel(LA, "_fwd_kernel", self.mutate), **consts)
            args = [racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.write(self.o), racer.read(self.s)]
        else:
            k = racer.triton(kernel(LAND, "_fwd_kernel", self.mutate), **consts)
            args = [racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.write(self.o)]
        racer.launch(k, grid=(self.BH, cdiv(self.E, bm)), args=args)
        return {"o": self.o}

    def program_b(self):
        entry = "linear_attn_fwd_f32" if self.dtype == "f32" else "linear_attn_fwd_bf16"
        racer.launch(ref(REF, entry), grid=cdiv(self.BH * self.N, 64), block=64,
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.read(self.s),
                           racer.write(self.o), self.BH, self.H, self.N, self.D, self.E, int(self.decay)])
        return {"o": self.o}


class LightningFwd(_Fwd, Row):
    """lightning_attn _fwd_kernel (ops/triton/lightning_attn2.py, LightningAttention2.forward): b 1, h 2, n 40,
    d = e = 16, f32; BLOCK scaled down from 64 to 16 (NUM_BLOCK 3, the last block half masked), BLOCK_MODEL 16,
    grid (2, 1), 4 warps"""


class LightningFwdLibraryBlock(_Fwd, Row):
    """lightning_attn _fwd_kernel at the Function's own BLOCK 64: b 1, h 1, n 48 (one block, masked), d 16, e 64,
    BLOCK_MODEL min(64, 32) = 32, grid (1, 2) (two channel programs), f32, 4 warps"""
    H, N, D, E, BLOCK = 1, 48, 16, 64, 64


class LightningFwdBf16(_Fwd, Row):
    """lightning_attn _fwd_kernel with bf16 q, k, v, o (f32 s): b 1, h 1, n 32, d = e = 32, BLOCK scaled down to 16
    (NUM_BLOCK 2), BLOCK_MODEL 32, grid (1, 1), 4 warps"""
    dtype = "bf16"
    H, N, D, E, BLOCK = 1, 32, 32, 32, 16


class LightningFwdDecaySignMutant(_Fwd, Mutation):
    """mutation: the in-block mask grows instead of decaying, exp(+s (i - j))"""
    mutate = [("s_index = tl.where(index >= 0, -s_index, float(\"-inf\"))",
               "s_index = tl.where(index >= 0, s_index, float(\"-inf\"))")]


class LightningFwdKeyDecayOffByOneMutant(_Fwd, Mutation):
    """mutation: a key's decay to the block's end is one step short, exp(-s (BLOCK - 1 - j))"""
    mutate = [("k_trans_decay = tl.exp(-s.to(tl.float32) * (BLOCK - off_block[None, :]))",
               "k_trans_decay = tl.exp(-s.to(tl.float32) * (BLOCK - 1 - off_block[None, :]))")]


class LightningFwdNoInterMutant(_Fwd, Mutation):
    """mutation: the earlier blocks' contribution (through the state) is dropped"""
    mutate = [("o = o_intra + o_inter", "o = o_intra")]


class LightningFwdTwoBatches(_Fwd, Row):
    """lightning_attn _fwd_kernel with b 2, h 2 (program bh reads the decay of head bh % h): n 24, d = e = 16, f32;
    BLOCK scaled down from 64 to 16 (NUM_BLOCK 2), BLOCK_MODEL 16, grid (4, 1), 4 warps"""
    B, H, N = 2, 2, 24


class LightningFwdNoDecay(_Fwd, Row):
    """lightning_attn _fwd_kernel (ops/triton/lightning_attn2_no_decay.py, LightningAttention2NoDecay.forward):
    b 1, h 2, n 40, d = e = 16, f32; BLOCK scaled down from 64 to 16 (NUM_BLOCK 3), BLOCK_MODEL 16, grid (2, 1),
    4 warps"""
    decay = False


class LightningFwdNoDecayStateResetMutant(_Fwd, Mutation):
    """mutation: the state keeps only the last block (= instead of +=)"""
    decay = False
    mutate = [("kv += tl.dot(k_trans, v)", "kv = tl.dot(k_trans, v)")]


class _Bwd:
    """The backward as the Function runs it: _bwd_intra_kernel over grid (b * h, NUM_BLOCK) writes each block's
    own dq, dk, dv, then _bwd_inter_kernel over grid (b * h,) adds the cross-block terms in CBLOCK sub-blocks
    (dq forward through the state, dk and dv backward through its adjoint)"""
    mutate = None
    inter_mutate = None
    decay = True
    H, N, D, E, BLOCK, CBLOCK = 1, 48, 16, 16, 32, 16

    def setup(self):
        shp_qk, shp_v = (1, self.H, self.N, self.D), (1, self.H, self.N, self.E)
        self.q = racer.input(shp_qk, "f32", range=(-1, 1))
        self.k = racer.input(shp_qk, "f32", range=(-1, 1))
        self.v = racer.input(shp_v, "f32", range=(-1, 1))
        self.do = racer.input(shp_v, "f32", range=(-1, 1))
        self.s = racer.input((self.H,), "f32", range=(0.01, 1)) if self.decay else racer.zeros((self.H,), "f32")
        self.dq = racer.empty(shp_qk, "f32")
        self.dk = racer.empty(shp_qk, "f32")
        self.dv = racer.empty(shp_v, "f32")

    def program_a(self):
        nb = cdiv(self.N, self.BLOCK)
        consts = dict(b=1, h=self.H, n=self.N, d=self.D, e=self.E, BLOCK=self.BLOCK, NUM_BLOCK=nb,
                      CBLOCK=self.CBLOCK, NUM_CBLOCK=self.BLOCK // self.CBLOCK)
        mod = LA if self.decay else LAND
        intra = racer.triton(kernel(mod, "_bwd_intra_kernel", self.mutate), **consts)
        inter = racer.triton(kernel(mod, "_bwd_inter_kernel", self.inter_mutate), **consts)
        ins = [racer.read(self.q), racer.read(self.k), racer.read(self.v)] + \
            ([racer.read(self.s)] if self.decay else []) + [racer.read(self.do)]
        racer.launch(intra, grid=(self.H, nb),
                     args=ins + [racer.write(self.dq), racer.write(self.dk), racer.write(self.dv)])
        racer.launch(inter, grid=(self.H,),
                     args=ins + [racer.readwrite(self.dq), racer.readwrite(self.dk), racer.readwrite(self.dv)])
        return {"dq": self.dq, "dk": self.dk, "dv": self.dv}

    def program_b(self):
        racer.launch(ref(REF, "linear_attn_bwd_f32"), grid=cdiv(self.H * self.N, 64), block=64,
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.read(self.s),
                           racer.read(self.do), racer.write(self.dq), racer.write(self.dk), racer.write(self.dv),
                           self.H, self.H, self.N, self.D, self.E, int(self.decay)])
        return {"dq": self.dq, "dk": self.dk, "dv": self.dv}


class LightningBwd(_Bwd, Row):
    """lightning_attn _bwd_intra_kernel + _bwd_inter_kernel (ops/triton/lightning_attn2.py,
    LightningAttention2.backward): b 1, h 1, n 48, d = e = 16, f32; BLOCK scaled down from 64 to 32 and CBLOCK
    from 32 to 16 (NUM_BLOCK 2, the last block half masked; NUM_CBLOCK 2), grids (1, 2) and (1,), 4 warps"""


class LightningBwdIntraTransposedMaskMutant(_Bwd, Mutation):
    """mutation: dv's in-block scores take the decay mask untransposed (diag_decay for diag_decay_trans)"""
    mutate = [("qk_trans = tl.dot(k, q_trans) * diag_decay_trans", "qk_trans = tl.dot(k, q_trans) * diag_decay")]


class LightningBwdInterSubblockOffsetMutant(_Bwd, Mutation):
    """mutation: dk's cross-block decay forgets the sub-block's offset inside its block, exp(-s (BLOCK - c)) for
    exp(-s (BLOCK - (j CBLOCK + c))). (Dropping the state's exp(-s BLOCK) decay instead would not show at 2 blocks:
    the state is still zero when it is first decayed.)"""
    inter_mutate = [("-s.to(tl.float32) * (BLOCK - (j * CBLOCK + c_array[None, :]))",
                     "-s.to(tl.float32) * (BLOCK - c_array[None, :])")]


class LightningBwdNoDecay(_Bwd, Row):
    """lightning_attn _bwd_intra_kernel + _bwd_inter_kernel (ops/triton/lightning_attn2_no_decay.py,
    LightningAttention2NoDecay.backward): b 1, h 2, n 48, d = e = 16, f32; BLOCK scaled down from 64 to 32 and
    CBLOCK from 32 to 16 (NUM_BLOCK 2; NUM_CBLOCK 2), grids (2, 2) and (2,), 4 warps"""
    decay = False
    H = 2


SR_ROWS, SR_N = 3, 40  # srmsnorm: rows, columns (BLOCK_SIZE_N next_power_of_2(40) = 64, num_warps max(64 // 256, 1) = 1)


class _SrmsFwd:
    """lightning_attn srms_norm_fw (ops/triton/srmsnorm.py, _SrmsNorm.forward): 3 rows of 40, BLOCK_SIZE_N
    min(65536 // element size, next_power_of_2(40)) = 64, grid (3,), num_warps min(max(64 // 256, 1), 16) = 1"""
    mutate = None
    dtype, eps = "f32", 1e-6  # SimpleRMSNorm's default eps

    def setup(self):
        self.x = racer.input((SR_ROWS, SR_N), self.dtype, range=(-4, 4))
        self.y = racer.empty((SR_ROWS, SR_N), self.dtype)
        self.rstd = racer.empty((SR_ROWS,), "f32")

    def program_a(self):
        k = racer.triton(kernel(SR, "srms_norm_fw", self.mutate), BLOCK_SIZE_N=64, num_warps=1)
        racer.launch(k, grid=SR_ROWS, args=[racer.read(self.x), racer.write(self.y), racer.write(self.rstd), SR_N,
                                            SR_N, self.eps])
        return {"y": self.y, "rstd": self.rstd}

    def program_b(self):
        racer.launch(ref(REF, f"srms_fwd_{self.dtype}"), grid=1, block=SR_ROWS,
                     args=[racer.read(self.x), racer.write(self.y), racer.write(self.rstd), SR_ROWS, SR_N,
                           racer.scalar(self.eps, "f32")])
        return {"y": self.y, "rstd": self.rstd}


class LightningSrmsNormFwd(_SrmsFwd, Row):
    """lightning_attn srms_norm_fw: y = x / sqrt(mean(x^2) + eps) and rstd, f32, eps 1e-6"""


class LightningSrmsNormFwdF16(_SrmsFwd, Row):
    """lightning_attn srms_norm_fw on f16 x and y (rstd f32), eps raised by the Function to max(1e-6, 1.6e-5)"""
    dtype, eps = "f16", 1.6e-5


class LightningSrmsNormFwdEpsOutsideSqrtMutant(_SrmsFwd, Mutation):
    """mutation: eps added outside the square root, 1 / (sqrt(mean(x^2)) + eps)"""
    mutate = [("rstd = 1.0 / tl.sqrt(x_var + eps)", "rstd = 1.0 / (tl.sqrt(x_var) + eps)")]


class _SrmsBwd:
    """lightning_attn srms_norm_bwd_dx_fused (ops/triton/srmsnorm.py, _SrmsNorm.backward): 3 rows of 40 with the
    forward's BLOCK_SIZE_N 64 and num_warps 1, grid (3,), f32"""
    mutate = None

    def setup(self):
        self.x = racer.input((SR_ROWS, SR_N), "f32", range=(-4, 4))
        self.rstd = racer.input((SR_ROWS,), "f32", range=(0.1, 4))
        self.dy = racer.input((SR_ROWS, SR_N), "f32", range=(-2, 2))
        self.dx = racer.empty((SR_ROWS, SR_N), "f32")

    def program_a(self):
        k = racer.triton(kernel(SR, "srms_norm_bwd_dx_fused", self.mutate), BLOCK_SIZE_N=64, num_warps=1)
        racer.launch(k, grid=SR_ROWS, args=[racer.write(self.dx), racer.read(self.dy), racer.read(self.x),
                                            racer.read(self.rstd), SR_N, SR_N])
        return {"dx": self.dx}

    def program_b(self):
        racer.launch(ref(REF, "srms_bwd_f32"), grid=1, block=SR_ROWS,
                     args=[racer.read(self.dy), racer.read(self.x), racer.read(self.rstd), racer.write(self.dx),
                           SR_ROWS, SR_N])
        return {"dx": self.dx}


class LightningSrmsNormBwd(_SrmsBwd, Row):
    """lightning_attn srms_norm_bwd_dx_fused: dx = rstd dy - x rstd^3 <dy, x> / N with the saved rstd"""


class LightningSrmsNormBwdNoRstdMutant(_SrmsBwd, Mutation):
    """mutation: the final multiplication by rstd is dropped"""
    mutate = [("dx = (wdy - (xhat * mean1)) * rstd", "dx = (wdy - (xhat * mean1))")]
