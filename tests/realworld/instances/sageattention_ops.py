"""SageAttention 1.0.6: its Triton kernels (quant_per_block*.py, attn_qk_int8_per_block*.py), against the naive
references of reference/sageattention_ops.cu: per-block symmetric int8 quantization of Q (sm_scale log2(e)
folded in) and of K (plain, "NHD", head_dim 96, packed variable-length sequences), and the attention whose
scores are the int8 q k^T dequantized by the two blocks' scales, softmax in base 2 (exp2), p cast to f16 for its
dot with v (plain, causal, head_dim 96, causal varlen). Launched as sageattention's host code does (core.py
sageattn / sageattn_varlen, each module's per_block_int8 / forward) for head_dim 64 and layout "HND" unless a
row says otherwise: the attention tiles BLOCK_M 128 and BLOCK_N 64, num_warps 4 (8 for head_dim 96); the
quantizer's blocks BLKQ 128 and BLKK 64 are parameters of per_block_int8, and some rows pass smaller ones (said
per row): Racer's symbolic run of a 128 x 64 quantizer tile takes 45-55 s even with 4 live rows.

Found by reading (checked with Racer only at num_warps 2, where Triton uses mma.sync instead of the refused
wgmma: refuted, manifest): the non-causal kernels do not mask the scores of keys past kv_len in the last
BLOCK_N block; their k loads as 0, so each such key adds 2^(0 - max) to the softmax denominator (and nothing to
the numerator), and sageattn's output is too small unless kv_len is a multiple of 64. The causal kernels' diagonal
pass reads k_scale one block past the last when cdiv(kv_len, 64) is odd (the value multiplies scores that are
0, so only a non-finite value there would show)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

SA = "sageattention"
REF = "sageattention_ops.cu"
D = 64
LOG2E = 1.44269504  # the literal per_block_int8 multiplies sm_scale by
QMULT = D ** -0.5 * LOG2E  # sm_scale (None: head_dim^-0.5) times log2(e), the q quantizer's sm_scale argument


# ---- per-block int8 quantization ----
class _Quant:
    """quant_per_block_int8_kernel (quant_per_block.py, per_block_int8): x [B][H][L][64] f16 ("HND"), one program
    per block of BLK rows of one head, grid (cdiv(L, BLK), H, B): y = x sm_scale (f32), scale = max |y| / 127,
    q = int8(y / scale + 0.5 sign(y)) (the cast truncates); q int8 in x's layout, scales [B][H][cdiv(L, BLK)] f32;
    the wrapper leaves num_warps at Triton's default 4"""
    module, mutate = "quant_per_block", None
    B, H, L, HD = 1, 1, 8, D
    layout = "HND"

    def shape_strides(self):
        B, H, L, d = self.B, self.H, self.L, self.HD
        if self.layout == "HND":
            return (B, H, L, d), (H * L * d, L * d, d)
        return (B, L, H, d), (L * H * d, d, H * d)

    def setup(self):
        shape, _ = self.shape_strides()
        self.x = racer.input(shape, "f16", range=(-4, 4))
        self.q = racer.empty(shape, "i8")
        self.s = racer.empty((self.B, self.H, (self.L + self.BLK - 1) // self.BLK), "f32")

    def program_a(self):
        _, (sb, sh, sn) = self.shape_strides()
        nblk = (self.L + self.BLK - 1) // self.BLK
        k = racer.triton(kernel(f"{SA}.{self.module}", "quant_per_block_int8_kernel", self.mutate), C=self.HD,
                         BLK=self.BLK, num_warps=4)
        racer.launch(k, grid=(nblk, self.H, self.B),
                     args=[racer.read(self.x), racer.write(self.q), racer.write(self.s), self.L, sb, sh, sn, sb, sh,
                           sn, self.H * nblk, nblk, self.mult])
        return {"q": self.q, "s": self.s}

    def program_b(self):
        _, (sb, sh, sn) = self.shape_strides()
        racer.launch(ref(REF, "quant_per_block"), grid=1, block=32,
                     args=[racer.read(self.x), racer.write(self.q), racer.write(self.s), self.B, self.H, self.L,
                           self.HD, sb, sh, sn, self.BLK, self.mult])
        return {"q": self.q, "s": self.s}


class _QuantQ(_Quant):
    """Q's quantization: sm_scale 64^-0.5 * 1.44269504, q [1][2][8][64]; BLKQ 64, scaled down from per_block_int8's
    default 128 (a parameter of the wrapper; Racer's symbolic run of the 128 x 64 tile takes 45-55 s even for
    4 live rows): grid (1, 2, 1), 8 live rows in the 64-row tile"""
    BLK, mult, H = 64, QMULT, 2


class _QuantK(_Quant):
    """K's quantization: sm_scale 1.0, BLKK 64 (per_block_int8's default), k [1][1][8][64]: grid (1, 1, 1)"""
    BLK, mult = 64, 1.0


class SageQuantPerBlockQ(_QuantQ, Row):
    """sageattention quant_per_block_int8_kernel (quant_per_block.py, per_block_int8), Q: per-block int8 with
    sm_scale log2(e) folded in"""


class SageQuantPerBlockQScale128Mutant(_QuantQ, Mutation):
    """mutation: the scale divides the block's max by 128 (int8's magnitude range) instead of 127"""
    mutate = [("scale = tl.max(tl.abs(x)) / 127.", "scale = tl.max(tl.abs(x)) / 128.")]


class SageQuantPerBlockQNoSmScaleMutant(_QuantQ, Mutation):
    """mutation: the block forgets to fold the softmax scale in (the codes are unchanged, the scale is not)"""
    mutate = [("    x *= sm_scale\n", "    x *= 1.0\n")]


class SageQuantPerBlockK(_QuantK, Row):
    """sageattention quant_per_block_int8_kernel (quant_per_block.py, per_block_int8), K: per-block int8"""


class SageQuantPerBlockKTruncMutant(_QuantK, Mutation):
    """mutation: the quantizer truncates toward zero (the +-0.5 before the cast dropped)"""
    mutate = [("x_int8 += 0.5 * tl.where(x_int8 >= 0, 1, -1)", "x_int8 += 0.0 * tl.where(x_int8 >= 0, 1, -1)")]


class _QuantKNhd(_QuantK):
    """K's quantization with tensor_layout "NHD": k [1][24][2][64] (seq stride 128, head stride 64); BLKK 16,
    scaled down from 64 so that a head has two blocks (16 + 8 rows) at a size Racer runs quickly: grid (2, 2, 1)"""
    layout, H, L, BLK = "NHD", 2, 24, 16


class SageQuantPerBlockKNhd(_QuantKNhd, Row):
    """sageattention quant_per_block_int8_kernel (quant_per_block.py, per_block_int8, tensor_layout "NHD"), K:
    two heads of two blocks"""


class SageQuantPerBlockKNhdStrideSwapMutant(_QuantKNhd, Mutation):
    """mutation: the input is read with the head and sequence strides swapped (an HND reading of NHD data)
    (a mutant that drops the head from the scale's address instead ends unknown: both heads' programs store the
    same scale cell, a race Racer reports)"""
    mutate = [("off_h * stride_ih + offs_n[:, None] * stride_in", "off_h * stride_in + offs_n[:, None] * stride_ih")]


class _QuantHd96(_Quant):
    """quant_per_block_int8_kernel of quant_per_block_hd96.py (per_block_int8_hd96, core.py's path for head_dim
    96): the tile is BLK x 128 channels, masked to 96 on load and store; C = 96; Q side, sm_scale 96^-0.5 *
    1.44269504, q [1][1][8][96]; BLKQ 16, scaled down from 128 (the 128 x 128 tile is beyond a quick run): grid
    (1, 1, 1)"""
    module, HD, BLK, mult = "quant_per_block_hd96", 96, 16, 96 ** -0.5 * LOG2E


class SageQuantPerBlockHd96(_QuantHd96, Row):
    """sageattention quant_per_block_int8_kernel (quant_per_block_hd96.py, per_block_int8_hd96): head_dim 96"""


class SageQuantPerBlockHd96MaskMutant(_QuantHd96, Mutation):
    """mutation: the load keeps only the first 64 channels (the head-dim mask written for 64)"""
    mutate = [("x = tl.load(input_ptrs, mask=(offs_n[:, None] < L) & ((tl.arange(0, 128) < 96)[None, :]))",
               "x = tl.load(input_ptrs, mask=(offs_n[:, None] < L) & ((tl.arange(0, 128) < 64)[None, :]))")]


VL_CU, VL_CUS = [0, 5, 16], [0, 1, 2]  # two packed sequences of 5 and 11 tokens; one 64-row block each


class _QuantVarlen:
    """quant_per_block_int8_kernel of quant_per_block_varlen.py (per_block_int8 of sageattn_varlen), K side:
    k [16][1][64] f16 packed by cu_seqlens_k [0, 5, 16], BLKK 64 (the default), cu_seqlens_k_scale [0, 1, 2]
    as the wrapper's cumsum of cdiv(len, 64) gives, sm_scale 1.0, grid (cdiv(max_seqlen_k 11, 64), 1, 2),
    Triton's default 4 warps; scales [2][1][1] f32"""
    mutate = None
    T, H, BLK = 16, 1, 64

    def setup(self):
        self.x = racer.input((self.T, self.H, D), "f16", range=(-4, 4))
        self.cu = racer.values(VL_CU, dtype="i32")
        self.cus = racer.values(VL_CUS, dtype="i32")
        self.q = racer.empty((self.T, self.H, D), "i8")
        self.s = racer.empty((VL_CUS[-1], self.H, 1), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{SA}.quant_per_block_varlen", "quant_per_block_int8_kernel", self.mutate),
                         H=self.H, C=D, BLK=self.BLK, num_warps=4)
        racer.launch(k, grid=(1, self.H, 2),
                     args=[racer.read(self.x), racer.write(self.q), racer.write(self.s), racer.read(self.cu),
                           racer.read(self.cus), D, self.H * D, D, self.H * D, 1.0])
        return {"q": self.q, "s": self.s}

    def program_b(self):
        racer.launch(ref(REF, "quant_per_block_varlen"), grid=1, block=32,
                     args=[racer.read(self.x), racer.write(self.q), racer.write(self.s), racer.read(self.cu),
                           racer.read(self.cus), 2, self.H, D, self.BLK, 1, 1.0])
        return {"q": self.q, "s": self.s}


class SageQuantPerBlockVarlen(_QuantVarlen, Row):
    """sageattention quant_per_block_int8_kernel (quant_per_block_varlen.py, per_block_int8): packed sequences"""


class SageQuantPerBlockVarlenNoAbsMutant(_QuantVarlen, Mutation):
    """mutation: the block's scale takes the max of y, not of |y| (blocks whose largest magnitude is negative)"""
    mutate = [("scale = tl.max(tl.abs(x)) / 127.", "scale = tl.max(x) / 127.")]


# ---- attention over int8 q, k ----
# Every attention kernel of SageAttention 1.0.6 computes p v as tl.dot(p, v, out_dtype=tl.float16): on sm_90 Triton
# lowers it to a wgmma with f16 accumulators and unpacks the accumulator registers into halves before its
# wgmma.wait_group (as DeepSpeed's flash kernel), which Racer reports as a race and refuses. The rows below are
# launched as the wrappers launch them and are refused; no mutations of them (they could not be refuted).
class _Attn:
    """q [1][H][Lq][64] int8, k [1][H][Lk][64] int8, v [1][H][Lk][64] f16, q_scale [1][H][cdiv(Lq, 128)] and
    k_scale [1][H][cdiv(Lk, 64)] f32 as per_block_int8 leaves them (q's scale has sm_scale log2(e) folded in);
    output f16 (output_dtype of f16 inputs); BLOCK_M 128, BLOCK_N 64, grid (cdiv(Lq, 128), H, 1), num_warps 4
    (head_dim 64)"""
    module, causal = "attn_qk_int8_per_block", 0
    H, Lq, Lk, HD = 1, 16, 64, D
    num_stages = 3
    kscale_pad = 0

    def setup(self):
        H, Lq, Lk, d = self.H, self.Lq, self.Lk, self.HD
        self.q = racer.input((1, H, Lq, d), "i8", range=(-127, 127))
        self.k = racer.input((1, H, Lk, d), "i8", range=(-127, 127))
        self.v = racer.input((1, H, Lk, d), "f16", range=(-2, 2))
        self.qs = racer.input((H * ((Lq + 127) // 128),), "f32", range=(0.0005, 0.002))
        self.ks = racer.input((H * ((Lk + 63) // 64) + self.kscale_pad,), "f32", range=(0.002, 0.008))
        self.o = racer.empty((1, H, Lq, d), "f16")

    def strides(self):
        H, Lq, Lk, d = self.H, self.Lq, self.Lk, self.HD
        return [H * Lq * d, Lq * d, d, H * Lk * d, Lk * d, d, H * Lk * d, Lk * d, d, H * Lq * d, Lq * d, d]

    def tensors(self):
        return [racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.read(self.qs), racer.read(self.ks),
                racer.write(self.o)]

    def program_a(self):
        H, Lq, Lk = self.H, self.Lq, self.Lk
        k = racer.triton(kernel(f"{SA}.{self.module}", "_attn_fwd"), H=H, num_kv_groups=1, HEAD_DIM=D, BLOCK_M=128,
                         BLOCK_N=64, STAGE=3 if self.causal else 1, num_warps=4, num_stages=self.num_stages)
        racer.launch(k, grid=((Lq + 127) // 128, H, 1), args=self.tensors() + self.strides() + [Lq, Lk])
        return {"o": self.o}

    def program_b(self):
        H, Lq, Lk, d = self.H, self.Lq, self.Lk, self.HD
        n = H * Lq  # one thread per query row
        racer.launch(ref(REF, "attn_int8"), grid=(n + 127) // 128, block=128,
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.read(self.qs),
                           racer.read(self.ks), racer.write(self.o), 1, H, H, Lq, Lk, d, 128, 64, self.causal])
        return {"o": self.o}


class SageAttn(_Attn, Row):
    """sageattention _attn_fwd (attn_qk_int8_per_block.py, forward, STAGE 1, num_stages 3): softmax2((q k^T) q_scale
    k_scale) v with int8 QK; 16 queries over 64 keys (kv_len a multiple of BLOCK_N: the kernel does not mask the
    scores of keys past kv_len, which it loads as 0, so their 2^(0 - max) would join the denominator)"""


class SageAttnCausal(_Attn, Row):
    """sageattention _attn_fwd (attn_qk_int8_per_block_causal.py, forward, STAGE 3, num_stages 4): causal softmax2
    of the int8 scores, Lq = Lk = 16 (the wrapper asserts qo_len == kv_len); the off-diagonal pass covers no block
    for the first query tile, the diagonal pass walks keys 0..127 in two BLOCK_N steps and masks with -1e6 (not
    -inf). Its second step reads k_scale one block past kv_len's last (its keys all masked): k_scale gets one cell
    of slack for it (torch's allocator rounds allocations up)"""
    module, causal, Lk, num_stages, kscale_pad = "attn_qk_int8_per_block_causal", 1, 16, 4, 1


class SageAttnH96(_Attn, Row):
    """sageattention _attn_fwd (attn_qk_int8_per_block_h96.py, forward, core.py's path for head_dim 96): q, k, v
    [1][1][16 or 64][96], tiles of 128 channels masked to 96; H and num_kv_groups run-time arguments, grid
    (cdiv(16, 128), B H, 1) = (1, 1, 1), num_warps 8, num_stages 4, HEAD_DIM 96"""
    module, HD = "attn_qk_int8_per_block_h96", 96

    def program_a(self):
        H, Lq, Lk = self.H, self.Lq, self.Lk
        k = racer.triton(kernel(f"{SA}.{self.module}", "_attn_fwd"), HEAD_DIM=96, BLOCK_M=128, BLOCK_N=64, STAGE=1,
                         num_warps=8, num_stages=4)
        racer.launch(k, grid=(1, H, 1), args=self.tensors() + self.strides() + [H, 1, Lq, Lk])
        return {"o": self.o}


class SageAttnVarlenCausal(Row):
    """sageattention _attn_fwd (attn_qk_int8_per_block_causal_varlen.py, forward of sageattn_varlen, is_causal):
    causal softmax2 of the int8 scores over two packed sequences of 5 and 11 tokens (cu_seqlens_q = cu_seqlens_k =
    [0, 5, 16], max_seqlen_q 11), q, k int8 and v f16 [16][1][64], block scales [2][1][1] f32 indexed by
    cu_seqlens_q_scale = cu_seqlens_k_scale = [0, 1, 2] (per_block_int8_varlen's cumsum of cdiv(len, 128) and
    cdiv(len, 64)); BLOCK_M 128, BLOCK_N 64, STAGE 3, grid (cdiv(11, 128), 1, 2), num_warps 4, num_stages 4. The
    diagonal pass's second step reads k_scale one block past the sequence's last (keys all masked): k_scale gets
    one cell of slack for the last sequence's read"""

    def setup(self):
        self.q = racer.input((16, 1, D), "i8", range=(-127, 127))
        self.k = racer.input((16, 1, D), "i8", range=(-127, 127))
        self.v = racer.input((16, 1, D), "f16", range=(-2, 2))
        self.qs = racer.input((2,), "f32", range=(0.0005, 0.002))
        self.ks = racer.input((3,), "f32", range=(0.002, 0.008))
        self.cu = racer.values(VL_CU, dtype="i32")
        self.cus = racer.values(VL_CUS, dtype="i32")
        self.o = racer.empty((16, 1, D), "f16")

    def program_a(self):
        k = racer.triton(kernel(f"{SA}.attn_qk_int8_per_block_causal_varlen", "_attn_fwd"), H=1, num_kv_groups=1,
                         HEAD_DIM=D, BLOCK_M=128, BLOCK_N=64, STAGE=3, num_warps=4, num_stages=4)
        racer.launch(k, grid=(1, 1, 2),
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.read(self.cu),
                           racer.read(self.cu), racer.read(self.qs), racer.read(self.ks), racer.read(self.cus),
                           racer.read(self.cus), racer.write(self.o), D, D, D, D, D, D, D, D])
        return {"o": self.o}

    def program_b(self):
        racer.launch(ref(REF, "attn_int8_varlen_causal"), grid=1, block=32,  # 16 tokens x 1 head
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.read(self.qs),
                           racer.read(self.ks), racer.read(self.cu), racer.read(self.cus), racer.read(self.cus),
                           racer.write(self.o), 2, 16, 1, D, 128, 64])
        return {"o": self.o}
