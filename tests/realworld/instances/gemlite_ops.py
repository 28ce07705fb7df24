"""gemlite 0.6.0.post2: its low-bit matmul kernels (gemlite/triton_kernels/: gemv_kernels.py, gemv_splitK_kernels.py,
gemv_revsplitK_kernels.py, gemm_splitK_kernels.py, gemm_kernels.py; dequantize() of utils.py), against
reference/gemlite_ops.cu. The weights are as GemLiteLinearTriton.pack (core.py) leaves them: codes of W_nbits bits
packed over K into int32 words (bitpack.py's pack_weights_over_cols, code k at bit (k % e) W_nbits, e = 32 /
W_nbits codes a word), transposed to [K / e][N] and made contiguous (data_contiguous True); scales and zeros
[K / group_size][N]; with fma_mode (pack's default) the zeros stored as -zero * scale (W_group_mode 4), else the
zero points themselves (W_group_mode 3). Each kernel is launched as its host forward (gemv_forward, ...) does,
with one config of the "fast" autotune list (config.py's default setting) as its kernel_config_pruner adapts it
to the shape: the autotuner's pick depends on timings on a GPU, so the config is named per row. Activations f16,
scales and zeros f16 (meta_dtype), f32 accumulation (GEMLITE_ACC_DTYPE); f16 output where the kernel stores C,
f32 output (GemLiteLinearTriton's output_dtype FP32) where it adds into C atomically: Racer does not read Triton's
f16 atomic add (atom.add.noftz.f16). The packed words are fixed values covering every code (Racer refuses the
bit-field extraction on free words: GemliteGemvRevSplitK4bitFreeCodes); scales, zeros and activations are free."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
import triton.language as tl  # noqa: E402  (dtype constexprs, as gemlite's DTYPE_TO_TRITON gives them)
from common import Mutation, Row, kernel, ref  # noqa: E402

TK = "gemlite.triton_kernels."
REF = "gemlite_ops.cu"
FP16 = 1  # gemlite DType.FP16.value (type_id = input dtype value * 100 + W_nbits)
# the kernels' defaulted constexprs, as the host leaves them
GEMV_DEFAULTS = dict(meta_evict_policy="", atomic_mode="relaxed", a_evict="evict_last", b_evict="evict_first",
                     block_quant_size=128)
MODE_NONE, MODE_SHIFT, MODE_SCALE, MODE_SUB_SCALE, MODE_FMA, MODE_SUB_INT = 0, 1, 2, 3, 4, 5  # reference modes


def words(n):
    """n packed int32 words, fixed and spread over every bit pattern's neighbourhood: each nibble (and so each
    2-bit, 4-bit and 8-bit field) takes its values evenly, sign bit included (a linear congruential sequence)."""
    out, x = [], 12345
    for _ in range(n):
        x = (1103515245 * x + 12345) % 2 ** 31
        y = (x * 2654435761) % 2 ** 32
        out.append(y - 2 ** 32 if y >= 2 ** 31 else y)
    return out


class _Quant:
    """The shared setup: A [M][K] f16, packed codes [K / e][N] i32 free, scales / zeros [K / group][N] f16 free."""
    mutate = None
    M, K, N, nbits, group = 1, 64, 32, 4, 32
    mode = 4              # gemlite's W_group_mode (4: q s + z fused, 3: (q - z) s, 2: q s, 1: q - z, 0: q)
    zero_int = None       # a scalar integer zero point (zero_is_scalar): W_group_mode 3 with an int32 zero
    channel_scale = False  # channel_scale_mode 1: scales [N] applied after the dot product
    free_codes = False     # the packed words (or int8 weights) free inputs, else fixed values spread over the codes
    int8 = False           # unpacked int8 weights [N][K] (A16W8: pack() keeps W_q.t(), data_contiguous False), free
    out = "f32"            # output dtype: f32 where the kernel adds into C atomically (Racer reads no f16 atom.add)

    @property
    def e(self):
        return 1 if self.int8 else 32 // self.nbits

    def setup(self):
        self.a = racer.input((self.M, self.K), "f16", range=(-2, 2))
        if self.int8 and not self.free_codes:
            self.w = racer.values([(37 * i + 11) % 256 - 128 for i in range(self.N * self.K)], dtype="i8",
                                  shape=(self.N, self.K))
        elif self.int8:
            self.w = racer.input((self.N, self.K), "i8")
        elif self.free_codes:
            self.w = racer.input((self.K // self.e, self.N), "i32")
        else:
            self.w = racer.values(words(self.K // self.e * self.N), dtype="i32", shape=(self.K // self.e, self.N))
        groups = 1 if self.channel_scale else self.K // self.group
        self.s = racer.input((groups, self.N), "f16", range=(0.01, 1))
        self.z = racer.input((groups, self.N), "f16", range=(-16, 16)) if self.mode in (1, 3, 4) and \
            self.zero_int is None else None
        self.zi = racer.values([self.zero_int], dtype="i32") if self.zero_int is not None else None
        self.dummy = racer.zeros((1, 1), "i32") if self.z is None and self.zi is None else None
        self.c = racer.zeros((self.M, self.N), self.out)

    def meta(self):
        """The constexprs every gemlite INT kernel takes the same way (gemv_forward's call)."""
        return dict(N=self.N, K=self.K, W_nbits=self.nbits, group_size=self.group, unpack_mask=2 ** self.nbits - 1,
                    elements_per_sample=self.e, type_id=FP16 * 100 + self.nbits, stride_am=self.K, stride_ak=1,
                    stride_bk=1 if self.int8 else self.N, stride_bn=self.K if self.int8 else 1, stride_cm=self.N,
                    stride_cn=1, stride_meta_g=self.N, stride_meta_n=1, input_dtype=tl.float16,
                    output_dtype=tl.float32 if self.out == "f32" else tl.float16, acc_dtype=tl.float32,
                    meta_dtype=tl.float16, channel_scale_mode=1 if self.channel_scale else 0,
                    W_group_mode=self.mode, zero_is_scalar=self.zero_int is not None, data_contiguous=not self.int8)

    def tensors(self):
        """The pointer arguments a_ptr .. zeros_ptr; with no zero points, zeros_ptr is gemlite's dummy (an empty
        int32 tensor in pack(); one cell here, never read)."""
        if self.zi is not None:
            zeros = racer.read(self.zi)
        elif self.z is not None:
            zeros = racer.read(self.z)
        else:
            zeros = racer.read(self.dummy)
        return [racer.read(self.a), racer.read(self.w), racer.readwrite(self.c), racer.read(self.s), zeros]

    def absent(self):
        return {}

    def ref_mode(self):
        if self.zero_int is not None:
            return MODE_SUB_INT
        if self.channel_scale:
            return MODE_SHIFT if self.mode == 1 else MODE_NONE
        return self.mode

    def program_b(self):
        cs = racer.read(self.s) if self.channel_scale else None
        s = None if self.channel_scale else racer.read(self.s)
        z = racer.read(self.z) if self.z is not None else None
        suffix = "_f32" if self.out == "f32" else ""
        if self.int8:
            racer.launch(ref(REF, "qmatmul_int8_f16" + suffix), grid=(self.M * self.N + 63) // 64, block=64,
                         args=[racer.read(self.a), racer.read(self.w), s, z, cs, racer.write(self.c), self.M, self.N,
                               self.K, self.group, self.ref_mode()])
        else:
            racer.launch(ref(REF, "qmatmul_packed_f16" + suffix), grid=(self.M * self.N + 63) // 64, block=64,
                         args=[racer.read(self.a), racer.read(self.w), s, z, self.zero_int or 0, cs,
                               racer.write(self.c), self.M, self.N, self.K, self.nbits, self.group, self.ref_mode()])
        return {"c": self.c}


# ---- GEMV_REVSPLITK: gemlite's default for M <= 4 and W_nbits < 8 (core.get_matmul_type) ----
class _RevSplitK(_Quant):
    """gemlite gemv_INT_revsplitK_kernel (triton_kernels/gemv_revsplitK_kernels.py, gemv_revsplitK_forward): each
    program takes two BLOCK_SIZE_K chunks of K (pid_k = program_id(1) * 2) with the scales / zeros of the first
    and atomically adds its partial row into C (zeroed by the host, torch.zeros); the fast list's first config
    BLOCK_SIZE_M 1, BLOCK_SIZE_N 32, BLOCK_SIZE_K 16, A_load_order 0, dot_prod_mode 0, 1 warp, 1 stage (the
    pruner keeps BLOCK_SIZE_K 16: 2 x 16 <= group_size); grid (M cdiv(N, 32), cdiv(K, 32))"""
    BN, BK = 32, 16

    def program_a(self):
        k = racer.triton(kernel(TK + "gemv_revsplitK_kernels", "gemv_INT_revsplitK_kernel", self.mutate),
                         scales_a_ptr=None, use_prehook=False, stride_meta_a_m=0, stride_meta_a_g=0,
                         BLOCK_SIZE_M=1, BLOCK_SIZE_N=self.BN, BLOCK_SIZE_K=self.BK, A_load_order=0, dot_prod_mode=0,
                         dump_b_val=0, EVEN_K=self.K % (2 * self.BK) == 0, EVEN_N=self.N % self.BN == 0,
                         num_warps=1, num_stages=1, **GEMV_DEFAULTS, **self.absent(), **self.meta())
        racer.launch(k, grid=(self.M * -(-self.N // self.BN), -(-self.K // (2 * self.BK))),
                     args=self.tensors() + [self.M])
        return {"c": self.c}


class GemliteGemvRevSplitK4bit(_RevSplitK, Row):
    """gemlite A16W4 GEMV (revsplitK): M 1, K 64, N 32, group 32, 4-bit codes (8 a word), W = q s + z (fma_mode);
    grid (1, 2), f32 output"""


class GemliteGemvRevSplitK4bitF16(_RevSplitK, Row):
    """gemlite A16W4 GEMV (revsplitK) as GemliteGemvRevSplitK4bit with gemlite's default output dtype, f16: the two
    programs' partial rows are added into C (zeroed) by atom.add.noftz.f16; grid (1, 2)"""
    out = "f16"


class GemliteGemvRevSplitK4bitSubScaleM2(_RevSplitK, Row):
    """gemlite gemv_INT_revsplitK_kernel (gemv_revsplitK_kernels.py, gemv_revsplitK_forward; M 2 <= 4 still picks
    it): A [2][64], 4-bit codes, group 32, zero points packed with fma_mode=False (W_group_mode 3: W = (q - z) s);
    BLOCK_SIZE_N 32, BLOCK_SIZE_K 16, 1 warp, grid (2, 2), f32 output"""
    M, mode = 2, 3


class GemliteGemvRevSplitK2bit(_RevSplitK, Row):
    """gemlite gemv_INT_revsplitK_kernel (gemv_revsplitK_forward) for A16W2: 2-bit codes (16 a word, unpack_mask 3),
    K 64, N 32, group 32, W = q s + z (fma_mode); BLOCK_SIZE_N 32, BLOCK_SIZE_K 16 (>= 16 codes a word: the
    pruner keeps it), 1 warp, grid (1, 2), f32 output"""
    nbits = 2


class GemliteGemvRevSplitK4bitScalarZero(_RevSplitK, Row):
    """gemlite gemv_INT_revsplitK_kernel (gemv_revsplitK_forward) with an integer zero point (pack(zeros=8): "symmetric
    with shift", W_group_mode 3, zero_is_scalar: W = (q - 8) s, the subtraction in int32); K 64, N 32, group 32;
    BLOCK_SIZE_N 32, BLOCK_SIZE_K 16, 1 warp, grid (1, 2), f32 output"""
    mode, zero_int = 3, 8


class GemliteGemvRevSplitK4bitLongK(_RevSplitK, Row):
    """gemlite gemv_INT_revsplitK_kernel (gemv_revsplitK_forward): K 128, N 32, group 64, 4-bit, fma_mode: four
    programs along K each add a partial row into C atomically (the sum's order is the hardware's); BLOCK_SIZE_N 32,
    BLOCK_SIZE_K 16, 1 warp, grid (1, 4), f32 output"""
    K, group = 128, 64


class GemliteGemvRevSplitK4bitFreeCodes(_RevSplitK, Row):
    """gemlite gemv_INT_revsplitK_kernel (gemv_revsplitK_forward), A16W4 as GemliteGemvRevSplitK4bit with the packed
    int32 words free inputs too: the unpacking (b >> shift) & 15 is a bit-field extract of a symbolic word"""
    free_codes = True


class GemliteGemvRevSplitKDroppedChunkMutant(_RevSplitK, Mutation):
    """mutation: the second K chunk's dot product overwrites the first's instead of adding to it"""
    mutate = [("            acc += tl.sum(a.to(acc_dtype) * b.to(acc_dtype), axis=0, keep_dims=True) \n",
               "            acc = tl.sum(a.to(acc_dtype) * b.to(acc_dtype), axis=0, keep_dims=True) \n")]


class GemliteGemvRevSplitKGroupIndexMutant(_RevSplitK, Mutation):
    """mutation: the group index from the unscaled program id (program_id(1), not 2 program_id(1)): every program
    reads the scales of group 0"""
    mutate = [("k_m = (pid_k * (BLOCK_SIZE_K / group_size)).to(tl.int32)",
               "k_m = (tl.program_id(axis=1) * (BLOCK_SIZE_K / group_size)).to(tl.int32)")]


class GemliteGemvRevSplitKPackedAdvanceMutant(_RevSplitK, Mutation):
    """mutation: the packed-word pointer not advanced to the second chunk (only A's pointer moves on)"""
    mutate = [("b_ptrs += (BLOCK_SIZE_K // elements_per_sample) * stride_bk",
               "b_ptrs += 0 * stride_bk")]


class GemliteGemvRevSplitK2bitShiftMutant(_RevSplitK, Mutation):
    """mutation: the code shift hard-wired to 4-bit fields on 2-bit codes"""
    nbits = 2
    mutate = [("q_shift = ((offs_k % elements_per_sample) * W_nbits).to(tl.int32)[:, None]",
               "q_shift = ((offs_k % elements_per_sample) * 4).to(tl.int32)[:, None]")]


# ---- GEMV: gemv_INT_kernel (gemv_forward; matmul_type "GEMV" when asked for) ----
class _Gemv(_Quant):
    """gemlite gemv_INT_kernel (triton_kernels/gemv_kernels.py, gemv_forward): one BLOCK_SIZE_K chunk of K a program
    (grid axis 1), atomically added into C (torch.zeros); the fast list's config BLOCK_SIZE_N 64, BLOCK_SIZE_K 32,
    1 warp, 1 stage as the pruner fits it (BLOCK_SIZE_N min(N, 64) = 32, BLOCK_SIZE_K min(K, 32, group_size) =
    32), NUM_STAGES 1; grid (M cdiv(N, 32), cdiv(K, 32))"""
    BN, BK = 32, 32

    def program_a(self):
        k = racer.triton(kernel(TK + "gemv_kernels", "gemv_INT_kernel", self.mutate),
                         scales_a_ptr=None, mapping_ptr=None, use_prehook=False, stride_meta_a_m=None,
                         stride_meta_a_g=None, BLOCK_SIZE_M=1, BLOCK_SIZE_N=self.BN, BLOCK_SIZE_K=self.BK,
                         A_load_order=0, NUM_STAGES=1, dot_prod_mode=0, dump_b_val=0, join_version=False,
                         load_scales_as_block=False, EVEN_K=self.K % self.BK == 0, EVEN_N=self.N % self.BN == 0,
                         num_warps=1, num_stages=1, **GEMV_DEFAULTS, **self.absent(), **self.meta())
        racer.launch(k, grid=(self.M * -(-self.N // self.BN), -(-self.K // self.BK)), args=self.tensors() + [self.M])
        return {"c": self.c}


class GemliteGemv4bit(_Gemv, Row):
    """gemlite gemv_INT_kernel (gemv_kernels.py, gemv_forward): A16W4, M 1, K 64, N 32, group 32, W = q s + z
    (fma_mode); BLOCK_SIZE_N 32, BLOCK_SIZE_K 32, 1 warp, grid (1, 2), f32 output"""


class GemliteGemv1bit(_Gemv, Row):
    """gemlite gemv_INT_kernel (gemv_forward) for A16W1 (HQQ 1-bit): 32 codes a word (unpack_mask 1), K 64, N 32,
    group 32, W = q s + z (fma_mode); BLOCK_SIZE_N 32, BLOCK_SIZE_K 32 (>= 32 codes a word), 1 warp, grid (1, 2)"""
    nbits = 1


class GemliteGemv4bitZeroAfterScaleMutant(_Gemv, Mutation):
    """mutation: the zero point subtracted after scaling (q s - z) where gemlite's W_group_mode 3 takes (q - z) s"""
    mode = 3
    mutate = [("b = dequantize(b, scales, zeros, q_shift, meta_dtype, unpack_mask, elements_per_sample, W_group_mode, "
               "zero_is_scalar)",
               "b = ((b >> q_shift) & unpack_mask).to(meta_dtype) * scales - zeros")]


# ---- GEMV_SPLITK: gemlite's default for M <= 2 and W_nbits 8 (core.get_matmul_type) ----
class _GemvSplitK(_Quant):
    """gemlite gemv_INT_splitK_kernel (triton_kernels/gemv_splitK_kernels.py, gemv_splitK_forward): one program a
    BLOCK_SIZE_N slice of one row, looping over K in BLOCK_SIZE_K chunks, (BLOCK_SIZE_K, BLOCK_SIZE_N) partial
    products summed over K after the loop, stored (SPLIT_K 1: no atomics); the fast list's second config
    BLOCK_SIZE_N 16, BLOCK_SIZE_K 256, GROUP_SIZE_M 8, SPLIT_K 1, A_load_order 0, dot_prod_mode 0, 4 warps,
    2 stages as the pruner fits it (BLOCK_SIZE_K min(K, 256, group_size)); grid (M cdiv(N, 16), 1)"""
    M, mode, nbits, out = 2, 4, 8, "f16"
    BN = 16

    @property
    def BK(self):
        return min(self.K, 256, self.group)

    def program_a(self):
        k = racer.triton(kernel(TK + "gemv_splitK_kernels", "gemv_INT_splitK_kernel", self.mutate),
                         scales_a_ptr=None, stride_meta_a_m=None, stride_meta_a_g=None, BLOCK_SIZE_M=1,
                         BLOCK_SIZE_N=self.BN, BLOCK_SIZE_K=self.BK, GROUP_SIZE_M=8, SPLIT_K=1, A_load_order=0,
                         dot_prod_mode=0, dump_b_val=0, EVEN_M=True, EVEN_K=self.K % self.BK == 0,
                         EVEN_N=self.N % self.BN == 0, num_warps=4, num_stages=2, **GEMV_DEFAULTS, **self.absent(),
                         **self.meta())
        racer.launch(k, grid=(self.M * -(-self.N // self.BN), 1), args=self.tensors() + [self.M])
        return {"c": self.c}


class GemliteGemvSplitK8bitPacked(_GemvSplitK, Row):
    """gemlite A16W8 (HQQ 8-bit codes, A16W8_HQQ_INT) GEMV: gemv_INT_splitK_kernel (gemv_splitK_kernels.py,
    gemv_splitK_forward), M 2, K 64, N 32, 8-bit codes packed 4 a word, group 32, W = q s + z (fma_mode);
    BLOCK_SIZE_N 16, BLOCK_SIZE_K 32, SPLIT_K 1, 4 warps, grid (4, 1), f16 output stored"""


class GemliteGemvSplitK8bitInt8PostScale(_GemvSplitK, Row):
    """gemlite A16W8 (helper.A16W8, post_scale=True) GEMV: gemv_INT_splitK_kernel (gemv_splitK_forward), int8
    weights W_q [N][K] free, read transposed (stride_bk 1, stride_bn K, data_contiguous False), group_size K,
    W_group_mode 0 and channel_scale_mode 1: C = (A W^T) s per output channel, after the loop; M 2, K 64, N 32;
    BLOCK_SIZE_N 16, BLOCK_SIZE_K 64, SPLIT_K 1, 4 warps, grid (4, 1), f16 output"""
    int8, free_codes, mode, channel_scale, group = True, True, 0, True, 64


class GemliteGemvSplitK8bitInt8PreScale(_GemvSplitK, Row):
    """gemlite A16W8 (helper.A16W8, the default pre-scaling) GEMV: gemv_INT_splitK_kernel (gemv_splitK_forward),
    int8 weights [N][K] free, group_size K, W_group_mode 2 (W = q s before the dot); M 1, K 64, N 32;
    BLOCK_SIZE_N 16, BLOCK_SIZE_K 64, SPLIT_K 1, 4 warps, grid (2, 1), f16 output"""
    M, int8, free_codes, mode, group = 1, True, True, 2, 64


class GemliteGemvSplitK8bitActivationAdvanceMutant(_GemvSplitK, Mutation):
    """mutation: A's pointer advanced by the packed chunk length (BLOCK_SIZE_K_P, the words of W) per step"""
    mutate = [("a_ptrs += BLOCK_SIZE_K_U * stride_ak", "a_ptrs += BLOCK_SIZE_K_P * stride_ak")]


class GemliteGemvSplitK8bitChannelScaleMutant(_GemvSplitK, Mutation):
    """mutation: the per-channel scale applied to the unscaled sum at the accumulator's rows (offs_am) instead of its
    columns (offs_bn)"""
    int8, free_codes, mode, channel_scale, group = True, True, 0, True, 64
    mutate = [("        scales_b = tl.load(scales_ptr + offs_bn, mask=offs_bn < N, other=1, eviction_policy=meta_evict_policy)\n"
               "        acc      = acc.to(meta_dtype) * scales_b[None, :]",
               "        scales_b = tl.load(scales_ptr + offs_am, mask=offs_am < N, other=1, eviction_policy=meta_evict_policy)\n"
               "        acc      = acc.to(meta_dtype) * scales_b[:, None]")]


# ---- GEMM_SPLITK: gemlite's pick for 2 < M < 64 (W_nbits 8) or 4 < M < 64 (core.get_matmul_type) ----
class _GemmSplitK(_Quant):
    """gemlite gemm_splitK_INT_kernel (triton_kernels/gemm_splitK_kernels.py, gemm_splitK_forward): tl.dot of an f16
    A tile and the dequantized W tile (b.to(f16)), f32 accumulator, SPLIT_K programs along K each adding its tile
    into C atomically (C zeroed by the config's pre_hook); elements_per_sample > 1: linear_tile; M 8 (M_CLOSEST 8),
    the pruner's BLOCK_SIZE_M 16, BLOCK_SIZE_K max(min(BLOCK_SIZE_K, group_size), 32); grid (cdiv(M, 16)
    cdiv(N, BLOCK_SIZE_N), SPLIT_K); EVEN_M/N/K by gemlite's heuristics"""
    M, BM = 8, 16
    BN, BK, SPLIT, A_ORDER, WARPS = 32, 32, 2, 2, 4

    def program_a(self):
        k = racer.triton(kernel(TK + "gemm_splitK_kernels", "gemm_splitK_INT_kernel", self.mutate),
                         scales_a_ptr=None, meta_scale_norm_ptr=None, stride_meta_a_m=None, stride_meta_a_g=None,
                         a_sizeof=2, b_sizeof=1 if self.int8 else 4, BLOCK_SIZE_M=self.BM, BLOCK_SIZE_N=self.BN,
                         BLOCK_SIZE_K=self.BK, GROUP_SIZE_M=8, SPLIT_K=self.SPLIT, NUM_STAGES=5,
                         A_load_order=self.A_ORDER, EVEN_M=self.M % self.BM == 0, EVEN_N=self.N % self.BN == 0,
                         EVEN_K=self.K % (self.BK * self.SPLIT) == 0, use_tma=False, use_5d_scales=False,
                         warp_specialize=False, num_warps=self.WARPS, num_stages=5, **GEMV_DEFAULTS, **self.absent(),
                         **{n: v for n, v in self.meta().items() if not n.startswith("stride_")})
        m = self.meta()
        strides = [m[n] for n in ("stride_am", "stride_ak", "stride_bk", "stride_bn", "stride_cm", "stride_cn",
                                  "stride_meta_g", "stride_meta_n")]
        racer.launch(k, grid=(-(-self.M // self.BM) * -(-self.N // self.BN), self.SPLIT),
                     args=self.tensors() + [self.M, self.M] + strides + [False])
        return {"c": self.c}


class GemliteGemmSplitK4bit(_GemmSplitK, Row):
    """gemlite A16W4 GEMM split-K: gemm_splitK_INT_kernel (gemm_splitK_forward), M 8, K 64, N 32, group 32, W = q s
    + z (fma_mode); the fast list's config BLOCK_SIZE_N 256, BLOCK_SIZE_K 128, SPLIT_K 2, A_load_order 2, 4 warps,
    5 stages, fitted to BLOCK_SIZE_N 32, BLOCK_SIZE_K 32; grid (1, 2), f32 output"""


class GemliteGemmSplitK4bitF16(_GemmSplitK, Row):
    """gemlite A16W4 GEMM split-K as GemliteGemmSplitK4bit with gemlite's default f16 output: the two splits' tiles
    are added into C (zeroed) by atom.add.noftz.f16; grid (1, 2)"""
    out = "f16"


class GemliteGemmSplitK4bitSplit4(_GemmSplitK, Row):
    """gemlite gemm_splitK_INT_kernel (gemm_splitK_forward), A16W4, M 8, K 128, N 32, group 32, fma_mode; the fast
    list's config BLOCK_SIZE_N 32, BLOCK_SIZE_K 128, SPLIT_K 4, A_load_order 2, 4 warps, 5 stages fitted to
    BLOCK_SIZE_N 32, BLOCK_SIZE_K 32: four programs add their tiles into C atomically; grid (1, 4), f32 output"""
    K, SPLIT = 128, 4


class GemliteGemmSplitK8bitInt8(_GemmSplitK, Row):
    """gemlite A16W8 (helper.A16W8, pre-scaling) GEMM split-K: gemm_splitK_INT_kernel (gemm_splitK_forward), M 8,
    K 256, N 32, int8 weights [N][K] fixed (every byte value; free ones are refused: the tl.dot operand's bytes are
    converted from ldmatrix words) read transposed (elements_per_sample 1: swizzle_tile), group_size K (one scale
    row), W_group_mode 2; the fast list's config BLOCK_SIZE_N 256, BLOCK_SIZE_K 128, SPLIT_K 2, A_load_order 2,
    4 warps, 5 stages fitted to BLOCK_SIZE_N 32, BLOCK_SIZE_K 128; grid (1, 2), f32 output"""
    int8, nbits, mode, K, group, BK = True, 8, 2, 256, 256, 128


class GemliteGemmSplitKDroppedTileMutant(_GemmSplitK, Mutation):
    """mutation: each K step's tile product replaces the accumulator (acc= dropped): with SPLIT_K 2 over K 128 each
    program keeps only its last tile"""
    K = 128
    mutate = [("            acc = tl.dot(a, b.to(input_dtype), acc=acc, out_dtype=acc_dtype)",
               "            acc = tl.dot(a, b.to(input_dtype), out_dtype=acc_dtype)")]


class GemliteGemmSplitKGroupIndexMutant(_GemmSplitK, Mutation):
    """mutation: the group index of step k forgets the split (k * stride_mul, not (k SPLIT_K + pid_k) stride_mul)"""
    K = 128
    mutate = [("k_m = ((k * SPLIT_K + pid_k) * stride_mul).to(tl.int32)", "k_m = ((k + pid_k) * stride_mul).to(tl.int32)")]


# ---- GEMM: gemlite's pick for M >= 64 (core.get_matmul_type); run here at M 16 ----
class _Gemm(_Quant):
    """gemlite gemm_INT_kernel (triton_kernels/gemm_kernels.py, gemm_forward): tl.dot of A and the dequantized W
    tiles over K, f32 accumulator, stored as f16; run at M 16 (gemlite takes this kernel from M 64: the pruner's
    BLOCK_SIZE_M 16 for M <= 16); the fast list's first config BLOCK_SIZE_M 64, BLOCK_SIZE_N 64, BLOCK_SIZE_K 64,
    GROUP_SIZE_M 8, A_load_order 0, 4 warps, 5 stages fitted to BLOCK_SIZE_M 16, BLOCK_SIZE_N 32, BLOCK_SIZE_K
    max(min(64, group_size), 32); grid (cdiv(M, 16) cdiv(N, 32),); EVEN_M/N/K by gemlite's heuristics"""
    M, BM, BN, out = 16, 16, 32, "f16"

    @property
    def BK(self):
        return max(min(64, self.group), 32)

    def program_a(self):
        k = racer.triton(kernel(TK + "gemm_kernels", "gemm_INT_kernel", self.mutate),
                         scales_a_ptr=None, meta_scale_norm_ptr=None, stride_meta_a_m=None, stride_meta_a_g=None,
                         a_sizeof=2, b_sizeof=1 if self.int8 else 4, BLOCK_SIZE_M=self.BM, BLOCK_SIZE_N=self.BN,
                         BLOCK_SIZE_K=self.BK, GROUP_SIZE_M=8, NUM_STAGES=5, A_load_order=0,
                         EVEN_M=self.M % self.BM == 0, EVEN_N=self.N % self.BN == 0, EVEN_K=self.K % self.BK == 0,
                         use_tma=False, use_5d_scales=False, warp_specialize=False, num_warps=4, num_stages=5,
                         meta_evict_policy="evict_last", a_evict="", b_evict="evict_first", block_quant_size=128,
                         **self.absent(), **{n: v for n, v in self.meta().items() if not n.startswith("stride_")})
        m = self.meta()
        strides = [m[n] for n in ("stride_am", "stride_ak", "stride_bk", "stride_bn", "stride_cm", "stride_cn",
                                  "stride_meta_g", "stride_meta_n")]
        racer.launch(k, grid=(-(-self.M // self.BM) * -(-self.N // self.BN),),
                     args=self.tensors() + [self.M, self.M] + strides + [False])
        return {"c": self.c}


class GemliteGemm4bit(_Gemm, Row):
    """gemlite A16W4 GEMM: gemm_INT_kernel (gemm_kernels.py, gemm_forward), M 16, K 64, N 32, group 32, W = q s + z
    (fma_mode); BLOCK_SIZE_M 16, BLOCK_SIZE_N 32, BLOCK_SIZE_K 32, 4 warps, 5 stages, grid (1,), f16 output"""


class GemliteGemm4bitSubScale(_Gemm, Row):
    """gemlite gemm_INT_kernel (gemm_forward), A16W4 with zero points packed fma_mode=False (W_group_mode 3: W =
    (q - z) s), M 16, K 128, N 32, group 64; BLOCK_SIZE_M 16, BLOCK_SIZE_N 32, BLOCK_SIZE_K 64, 4 warps, 5 stages,
    grid (1,), f16 output"""
    K, group, mode = 128, 64, 3


class GemliteGemm2bit(_Gemm, Row):
    """gemlite gemm_INT_kernel (gemm_forward), A16W2: 2-bit codes (16 a word), M 16, K 64, N 32, group 32, fma_mode;
    BLOCK_SIZE_M 16, BLOCK_SIZE_N 32, BLOCK_SIZE_K 32, 4 warps, 5 stages, grid (1,), f16 output"""
    nbits = 2


class GemliteGemm8bitInt8PostScale(_Gemm, Row):
    """gemlite A16W8 (helper.A16W8, post_scale=True) GEMM: gemm_INT_kernel (gemm_forward), int8 weights [N][K] fixed
    (every byte value, negative ones included; free ones are refused, the tl.dot operand's bytes being converted from
    ldmatrix words) read transposed (swizzle_tile), group_size K, W_group_mode 0, channel_scale_mode 1 (C = (A W^T) s
    per channel),
    M 16, K 64, N 32; BLOCK_SIZE_M 16, BLOCK_SIZE_N 32, BLOCK_SIZE_K 64, 4 warps, 5 stages, grid (1,), f16 output"""
    int8, nbits, mode, channel_scale, group = True, 8, 0, True, 64


class GemliteGemmDroppedTileMutant(_Gemm, Mutation):
    """mutation: the K loop's tile product replaces the accumulator (acc= dropped): only the last K tile is kept"""
    mutate = [("            acc = tl.dot(a, b.to(input_dtype), acc=acc, out_dtype=acc_dtype)",
               "            acc = tl.dot(a, b.to(input_dtype), out_dtype=acc_dtype)")]


class GemliteGemmCodeOrderMutant(_Gemm, Mutation):
    """mutation: the codes of a word unpacked from the high bits down (the first code taken from the top field)"""
    mutate = [("q_shift = ((offs_bk % elements_per_sample) * W_nbits).to(tl.int32)[:, None]",
               "q_shift = ((elements_per_sample - 1 - offs_bk % elements_per_sample) * W_nbits).to(tl.int32)[:, None]")]


class GemliteGemmMaskMutant(_Gemm, Mutation):
    """mutation: the unpack mask one bit short (unpack_mask >> 1: 4-bit codes read as 3-bit)"""
    mutate = [("b = dequantize(b, scales, zeros, q_shift, meta_dtype, unpack_mask, elements_per_sample, W_group_mode, "
               "zero_is_scalar)",
               "b = dequantize(b, scales, zeros, q_shift, meta_dtype, unpack_mask >> 1, elements_per_sample, "
               "W_group_mode, zero_is_scalar)")]
