"""flashinfer-python 0.7.4: its Triton kernels (flashinfer/triton/: cascade state merging, RMSNorm with fused
residual and quantization scales, SiLU-and-mul, the SM-constrained GEMMs, Mamba2's chunked dA cumsum, page
and GDN slot bookkeeping, Ulysses all-to-all packing), against reference/flashinfer_ops.cu. Each launched with
the constexprs, grid and warps flashinfer's host wrapper (flashinfer/triton/*.py, flashinfer/page.py,
flashinfer/gdn_paged.py) picks for the shape."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

FI = "flashinfer.triton"
KERNELS = f"{FI}.kernels"

T, H, HD = 2, 2, 8  # attention states: tokens, heads, head size (bdx = head size: scalar loops)


class _MergeState:
    """flashinfer merge_state_kernel (triton/kernels/cascade.py, cascade.merge_state): v and lse (base 2) of two
    attention passes merged; 2 tokens x 2 heads of 8 channels, bdx = head_dim 8, bdy = num_heads 2 (scalar
    loops, one trip a channel: at 3 tokens x 40 channels the symbolic run passes 60 s), grid (2,), 4 warps"""
    mutate = None

    def setup(self):
        self.va = racer.input((T, H, HD), "f32", range=(-2, 2))
        self.a = racer.input((T, H), "f32", range=(-4, 4))
        self.vb = racer.input((T, H, HD), "f32", range=(-2, 2))
        self.b = racer.input((T, H), "f32", range=(-4, 4))
        self.o = racer.empty((T, H, HD), "f32")
        self.lse = racer.empty((T, H), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{KERNELS}.cascade", "merge_state_kernel", self.mutate), bdx=HD, bdy=H)
        racer.launch(k, grid=T, args=[racer.read(self.va), racer.read(self.a), racer.read(self.vb), racer.read(self.b),
                                      racer.write(self.o), racer.write(self.lse), H, HD])
        return {"o": self.o, "lse": self.lse}

    def program_b(self):
        racer.launch(ref("flashinfer_ops.cu", "merge_state_base2"), grid=1, block=T * H,
                     args=[racer.read(self.va), racer.read(self.a), racer.read(self.vb), racer.read(self.b),
                           racer.write(self.o), racer.write(self.lse), T * H, HD])
        return {"o": self.o, "lse": self.lse}


class FlashinferMergeState(_MergeState, Row):
    """flashinfer merge_state_kernel: o = (2^a va + 2^b vb) / (2^a + 2^b), lse = log2(2^a + 2^b)"""


class FlashinferMergeStateLseNoMaxMutant(_MergeState, Mutation):
    """mutation: the merged lse forgets to add back the max it subtracted"""
    mutate = [("tl.log2(d) + s_max,", "tl.log2(d),")]


class _MergeInPlace:
    """flashinfer merge_state_in_place_kernel (cascade.merge_state_in_place): (v, s) merged with (v_other,
    s_other) in place where mask[token] != 0 (mask [0, 1], concrete); 2 tokens x 2 heads of 8 channels, bdx 8,
    bdy 2, grid (2,), 4 warps"""
    mutate = None

    def setup(self):
        self.v = racer.input((T, H, HD), "f32", range=(-2, 2))
        self.s = racer.input((T, H), "f32", range=(-4, 4))
        self.vo = racer.input((T, H, HD), "f32", range=(-2, 2))
        self.so = racer.input((T, H), "f32", range=(-4, 4))
        self.mask = racer.values([False, True], dtype="bool")

    def program_a(self):
        k = racer.triton(kernel(f"{KERNELS}.cascade", "merge_state_in_place_kernel", self.mutate), bdx=HD, bdy=H)
        racer.launch(k, grid=T, args=[racer.readwrite(self.v), racer.readwrite(self.s), racer.read(self.vo),
                                      racer.read(self.so), H, HD, racer.read(self.mask)])
        return {"v": self.v, "s": self.s}

    def program_b(self):
        racer.launch(ref("flashinfer_ops.cu", "merge_state_in_place_base2"), grid=1, block=T * H,
                     args=[racer.readwrite(self.v), racer.readwrite(self.s), racer.read(self.vo), racer.read(self.so),
                           racer.read(self.mask), T, H, HD])
        return {"v": self.v, "s": self.s}


class FlashinferMergeStateInPlace(_MergeInPlace, Row):
    """flashinfer merge_state_in_place_kernel: the masked in-place merge"""


class FlashinferMergeStateInPlaceSelfScaleMutant(_MergeInPlace, Mutation):
    """mutation: a copy-paste slip normalizes the other state's weight by twice its own"""
    mutate = [("other_scale = s_other_val / (s_val + s_other_val)",
               "other_scale = s_other_val / (s_other_val + s_other_val)")]


NSETS = 3  # merge_states: index sets a token


class _MergeStates:
    """flashinfer merge_states_kernel (cascade.merge_states): 3 states of each (token, head) folded from the
    initial state (o, m, d) = (0, -5e4, 1); v [2][3][2][8], s [2][3][2]; bdx 8, bdy 2, grid (2,), 4 warps"""
    mutate = None

    def setup(self):
        self.v = racer.input((T, NSETS, H, HD), "f32", range=(-2, 2))
        self.s = racer.input((T, NSETS, H), "f32", range=(-4, 4))
        self.o = racer.empty((T, H, HD), "f32")
        self.lse = racer.empty((T, H), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{KERNELS}.cascade", "merge_states_kernel", self.mutate), bdx=HD, bdy=H)
        racer.launch(k, grid=T, args=[racer.read(self.v), racer.read(self.s), racer.write(self.o),
                                      racer.write(self.lse), NSETS, H, HD])
        return {"o": self.o, "lse": self.lse}

    def program_b(self):
        racer.launch(ref("flashinfer_ops.cu", "merge_states_base2"), grid=1, block=T * H,
                     args=[racer.read(self.v), racer.read(self.s), racer.write(self.o), racer.write(self.lse), T, NSETS,
                           H, HD])
        return {"o": self.o, "lse": self.lse}


class FlashinferMergeStates(_MergeStates, Row):
    """flashinfer merge_states_kernel: o = sum 2^s_k v_k / sum 2^s_k, lse = log2(sum 2^s_k)"""


class FlashinferMergeStatesNoRescaleMutant(_MergeStates, Mutation):
    """mutation: state_merge rescales the running numerator but not the running denominator"""
    mutate = [("d = d * tl.exp2(m - m_max) + other_d * tl.exp2(other_m - m_max)",
               "d = d + other_d * tl.exp2(other_m - m_max)")]
    inside = "state_merge"

    def program_a(self):
        k = racer.triton(kernel(f"{KERNELS}.cascade", "merge_states_kernel", self.mutate, inside=self.inside),
                         bdx=HD, bdy=H)
        racer.launch(k, grid=T, args=[racer.read(self.v), racer.read(self.s), racer.write(self.o),
                                      racer.write(self.lse), NSETS, H, HD])
        return {"o": self.o, "lse": self.lse}


VL_INDPTR = [0, 2, 5]  # variable-length merge: token t merges rows indptr[t] .. indptr[t+1]


class FlashinferVariableLengthMergeStates(Row):
    """flashinfer variable_length_merge_states_kernel (cascade.variable_length_merge_states): token t merges the
    states of rows indptr[t] .. indptr[t+1] (indptr [0, 2, 5], concrete), v [5][2][8], s [5][2], from the
    initial state (0, -5e4, 1); bdx 8, bdy 2, grid (2,), 4 warps"""

    def setup(self):
        self.v = racer.input((VL_INDPTR[-1], H, HD), "f32", range=(-2, 2))
        self.s = racer.input((VL_INDPTR[-1], H), "f32", range=(-4, 4))
        self.indptr = racer.values(VL_INDPTR, dtype="i32")
        self.o = racer.empty((T, H, HD), "f32")
        self.lse = racer.empty((T, H), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{KERNELS}.cascade", "variable_length_merge_states_kernel"), bdx=HD, bdy=H)
        racer.launch(k, grid=T, args=[racer.read(self.v), racer.read(self.s), racer.read(self.indptr),
                                      racer.write(self.o), racer.write(self.lse), H, HD])
        return {"o": self.o, "lse": self.lse}

    def program_b(self):
        racer.launch(ref("flashinfer_ops.cu", "variable_length_merge_states_base2"), grid=1, block=T * H,
                     args=[racer.read(self.v), racer.read(self.s), racer.read(self.indptr), racer.write(self.o),
                           racer.write(self.lse), T, H, HD])
        return {"o": self.o, "lse": self.lse}


R, C = 3, 40
EPS = 1e-6


class _RmsNorm:
    """flashinfer rms_norm_kernel (triton/kernels/norm.py, triton.norm.rms_norm): out = w (x rsqrt(mean x^2 +
    eps)) of x[3][40]; BLOCK_SIZE next_power_of_2(40) = 64, num_warps max(8, min(32, 64 // 256)) = 8, grid (3,)"""
    mutate = None

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))
        self.y = racer.empty((R, C), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{KERNELS}.norm", "rms_norm_kernel", self.mutate), x_scale_ptr=None, r_ptr=None,
                         o_scale_ptr=None, EPS=EPS, BLOCK_SIZE=64, HAS_IN_SCALE=False, HAS_OUT_SCALE=False,
                         HAS_OUTPUT=True, HAS_RESIDUAL=False, num_warps=8)
        racer.launch(k, grid=R, args=[C, R, racer.read(self.x), C, 0, racer.read(self.w), racer.write(self.y), C])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("flashinfer_ops.cu", "rmsnorm_scaled_rows"), grid=1, block=R,
                     args=[racer.read(self.x), None, racer.read(self.w), racer.write(self.y), R, C, EPS])
        return {"y": self.y}


class FlashinferRmsNorm(_RmsNorm, Row):
    """flashinfer rms_norm_kernel: y = x / sqrt(mean x^2 + eps) w"""


class FlashinferRmsNormPaddedMeanMutant(_RmsNorm, Mutation):
    """mutation: the mean of squares divides by the padded block (64) instead of the row length"""
    mutate = [("rms = tl.rsqrt(tl.sum(square_sum) / n + EPS)", "rms = tl.rsqrt(tl.sum(square_sum) / BLOCK_SIZE + EPS)")]


class FlashinferRmsNormInScale(Row):
    """flashinfer rms_norm_kernel with in_scale (rms_norm(x, w, out, eps, in_scale)): the input dequantized by a
    scalar scale first; BLOCK_SIZE 64, 8 warps, grid (3,)"""

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.sc = racer.input((1,), "f32", range=(0.25, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))
        self.y = racer.empty((R, C), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{KERNELS}.norm", "rms_norm_kernel"), r_ptr=None, o_scale_ptr=None, EPS=EPS,
                         BLOCK_SIZE=64, HAS_IN_SCALE=True, HAS_OUT_SCALE=False, HAS_OUTPUT=True, HAS_RESIDUAL=False,
                         num_warps=8)
        racer.launch(k, grid=R, args=[C, R, racer.read(self.x), C, racer.read(self.sc), 0, racer.read(self.w),
                                      racer.write(self.y), C])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("flashinfer_ops.cu", "rmsnorm_scaled_rows"), grid=1, block=R,
                     args=[racer.read(self.x), racer.read(self.sc), racer.read(self.w), racer.write(self.y), R, C, EPS])
        return {"y": self.y}


class _RmsNormQuant:
    """flashinfer rms_norm_kernel with out_scale (rms_norm(x, w, out, eps, out_scale=s)) into a narrower out
    dtype: the result times s, clamped to the dtype's finite range (quant.scale_and_clamp) and cast;
    BLOCK_SIZE 64, 8 warps, grid (3,)"""
    mutate, dtype, entry = None, "bf16", "rmsnorm_bf16_rows"

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))
        self.sc = racer.input((1,), "f32", range=(1, 64))
        self.q = racer.empty((R, C), self.dtype)

    def program_a(self):
        k = racer.triton(kernel(f"{KERNELS}.norm", "rms_norm_kernel", self.mutate), x_scale_ptr=None, r_ptr=None,
                         EPS=EPS, BLOCK_SIZE=64, HAS_IN_SCALE=False, HAS_OUT_SCALE=True, HAS_OUTPUT=True,
                         HAS_RESIDUAL=False, num_warps=8)
        racer.launch(k, grid=R, args=[C, R, racer.read(self.x), C, 0, racer.read(self.w), racer.write(self.q), C,
                                      racer.read(self.sc)])
        return {"q": self.q}

    def program_b(self):
        racer.launch(ref("flashinfer_ops.cu", self.entry), grid=1, block=R,
                     args=[racer.read(self.x), racer.read(self.w), racer.read(self.sc), racer.write(self.q), R, C, EPS])
        return {"q": self.q}


class FlashinferRmsNormFp8(_RmsNormQuant, Row):
    """flashinfer rms_norm_kernel, fp8 e4m3 output: fp8(clamp(s y, -448, 448))"""
    dtype, entry = "fp8e4m3", "rmsnorm_fp8_rows"


class FlashinferRmsNormBf16Scaled(_RmsNormQuant, Row):
    """flashinfer rms_norm_kernel, bf16 output with out_scale: bf16(clamp(s y, +-3.3895e38))"""


class FlashinferRmsNormBf16InvertedScaleMutant(_RmsNormQuant, Mutation):
    """mutation: the output is divided by the quantization scale instead of multiplied"""
    mutate = [("result = scale_and_clamp(result, o_scale, output_dtype)",
               "result = scale_and_clamp(result, 1.0 / o_scale, output_dtype)")]


class _AddRmsNorm:
    """flashinfer rms_norm_kernel as rms_norm_add_residual(x, residual, w, eps): r = r + x stored, then x =
    rmsnorm(r) in place (no x_out: HAS_OUTPUT False); BLOCK_SIZE 64, num_warps min(32, cdiv(64, 32)) = 2"""
    mutate, out = None, False

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.r = racer.input((R, C), "f32", range=(-4, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))
        if self.out:
            self.y = racer.empty((R, C), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{KERNELS}.norm", "rms_norm_kernel", self.mutate), x_scale_ptr=None,
                         o_scale_ptr=None, EPS=EPS, BLOCK_SIZE=64, HAS_IN_SCALE=False, HAS_OUT_SCALE=False,
                         HAS_OUTPUT=self.out, HAS_RESIDUAL=True, num_warps=2,
                         **({} if self.out else {"o_ptr": None}))
        o = [racer.write(self.y), C] if self.out else [0]
        racer.launch(k, grid=R, args=[C, R, racer.readwrite(self.x), C, racer.readwrite(self.r), C,
                                      racer.read(self.w)] + o)
        return self.outputs()

    def program_b(self):
        racer.launch(ref("flashinfer_ops.cu", "add_rmsnorm_rows"), grid=1, block=R,
                     args=[racer.readwrite(self.x), racer.readwrite(self.r), racer.read(self.w),
                           racer.write(self.y if self.out else self.x), R, C, EPS])
        return self.outputs()

    def outputs(self):
        return {"y": self.y, "x": self.x, "r": self.r} if self.out else {"x": self.x, "r": self.r}


class FlashinferAddRmsNorm(_AddRmsNorm, Row):
    """flashinfer rms_norm_add_residual, in place: r += x, x = r / sqrt(mean r^2 + eps) w"""


class FlashinferAddRmsNormOut(_AddRmsNorm, Row):
    """flashinfer rms_norm_add_residual with x_out (HAS_OUTPUT True): the norm to its own tensor, x read only"""
    out = True


class FlashinferAddRmsNormStaleInputMutant(_AddRmsNorm, Mutation):
    """mutation: the second pass normalizes the input x instead of the residual sum"""
    mutate = [("x = tl.load(r_row + offsets, mask=mask).to(tl.float32)",
               "x = tl.load(x_row + offsets, mask=mask).to(tl.float32)")]


class _SiluAndMul:
    """flashinfer silu_and_mul_kernel (triton/kernels/activation.py, triton.activation.silu_and_mul): y =
    sigmoid(a) a b on the halves of x[3][80]; BLOCK_SIZE 1024, grid (3, cdiv(40, 1024)) = (3, 1), 4 warps"""
    mutate = None

    def setup(self):
        self.x = racer.input((R, 2 * C), "f32", range=(-4, 4))
        self.y = racer.empty((R, C), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{KERNELS}.activation", "silu_and_mul_kernel", self.mutate), o_scale_ptr=None,
                         x_scale_ptr=None, BLOCK_SIZE=1024, HAS_X_SCALE=False, HAS_O_SCALE=False)
        racer.launch(k, grid=(R, 1), args=[racer.write(self.y), C, racer.read(self.x), 2 * C, C])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("flashinfer_ops.cu", "silu_and_mul_rows"), grid=1, block=128,
                     args=[racer.read(self.x), racer.write(self.y), R, C])
        return {"y": self.y}


class FlashinferSiluAndMul(_SiluAndMul, Row):
    """flashinfer silu_and_mul_kernel: y = silu(x[:, :40]) x[:, 40:]"""


class FlashinferSiluAndMulGateOnUpMutant(_SiluAndMul, Mutation):
    """mutation: the sigmoid is taken of the up half instead of the gate half"""
    mutate = [("result = tl.sigmoid(a) * a * b", "result = tl.sigmoid(b) * a * b")]


class _SiluAndMulScaled:
    """flashinfer silu_and_mul_kernel with x_scale and o_scale into f16 (silu_and_mul(x, x_scale, o_scale,
    dtype=float16)): both halves times x_scale, the result times o_scale clamped to +-65504; BLOCK_SIZE 1024,
    grid (3, 1), 4 warps"""
    mutate = None

    def setup(self):
        self.x = racer.input((R, 2 * C), "f32", range=(-4, 4))
        self.xs = racer.input((1,), "f32", range=(0.25, 4))
        self.os = racer.input((1,), "f32", range=(0.25, 4))
        self.y = racer.empty((R, C), "f16")

    def program_a(self):
        k = racer.triton(kernel(f"{KERNELS}.activation", "silu_and_mul_kernel", self.mutate), BLOCK_SIZE=1024,
                         HAS_X_SCALE=True, HAS_O_SCALE=True)
        racer.launch(k, grid=(R, 1), args=[racer.write(self.y), C, racer.read(self.os), racer.read(self.x), 2 * C,
                                           racer.read(self.xs), C])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("flashinfer_ops.cu", "silu_and_mul_scaled_f16"), grid=1, block=128,
                     args=[racer.read(self.x), racer.read(self.xs), racer.read(self.os), racer.write(self.y), R, C])
        return {"y": self.y}


class FlashinferSiluAndMulScaledF16(_SiluAndMulScaled, Row):
    """flashinfer silu_and_mul_kernel, scaled f16 output: f16(clamp(o_s silu(x_s a) (x_s b)))"""


class FlashinferSiluAndMulScaledUpUnscaledMutant(_SiluAndMulScaled, Mutation):
    """mutation: the up half is not dequantized by x_scale"""
    mutate = [("        b *= x_scale\n", "        b *= 1.0\n")]


GM = GN = GK = 32  # GEMM
ALPHA, BETA = 0.5, 2.0


class _Gemm:
    """flashinfer gemm_kernel (triton/kernels/sm_constraint_gemm.py, sm_constraint_gemm.gemm(a, b, c, alpha, beta,
    out_dtype=float32)): c = alpha a b + beta c in place, a, b bf16 [32][32], c f32, alpha 0.5, beta 2.
    The autotuner's one config is 128x128x64 tiles (GROUP_SIZE_M 8, 4 warps, 3 stages); here 16x16x16 tiles,
    grid cdiv(32, 16)^2 = 4, GROUP_SIZE_M 8, 4 warps, 3 stages"""
    mutate = None

    def setup(self):
        self.a = racer.input((GM, GK), "bf16", range=(-2, 2))
        self.b = racer.input((GK, GN), "bf16", range=(-2, 2))
        self.c = racer.input((GM, GN), "f32", range=(-2, 2))

    def program_a(self):
        k = racer.triton(kernel(f"{KERNELS}.sm_constraint_gemm", "gemm_kernel", self.mutate), BLOCK_SIZE_M=16,
                         BLOCK_SIZE_N=16, BLOCK_SIZE_K=16, GROUP_SIZE_M=8, num_warps=4, num_stages=3)
        racer.launch(k, grid=4, args=[racer.read(self.a), racer.read(self.b), racer.readwrite(self.c), GM, GN, GK,
                                      GK, 1, GN, 1, GN, 1, ALPHA, BETA])
        return {"c": self.c}

    def program_b(self):
        racer.launch(ref("flashinfer_ops.cu", "gemm_bf16_f32_epilogue"), grid=GM * GN // 128, block=128,
                     args=[racer.read(self.a), racer.read(self.b), racer.readwrite(self.c), GM, GN, GK, ALPHA, BETA])
        return {"c": self.c}


class FlashinferGemm(_Gemm, Row):
    """flashinfer gemm_kernel: c = alpha a b + beta c"""


class FlashinferGemmAutotuneTile(_Gemm, Row):
    """flashinfer gemm_kernel at the autotuner's one config: a 128x128x64 tile over the 32x32x32 problem (rows
    and columns past 32 clamped to 0 by tl.where, k masked), grid 1, GROUP_SIZE_M 8, 4 warps, 3 stages"""

    def program_a(self):
        k = racer.triton(kernel(f"{KERNELS}.sm_constraint_gemm", "gemm_kernel"), BLOCK_SIZE_M=128, BLOCK_SIZE_N=128,
                         BLOCK_SIZE_K=64, GROUP_SIZE_M=8, num_warps=4, num_stages=3)
        racer.launch(k, grid=1, args=[racer.read(self.a), racer.read(self.b), racer.readwrite(self.c), GM, GN, GK,
                                      GK, 1, GN, 1, GN, 1, ALPHA, BETA])
        return {"c": self.c}


class FlashinferGemmWrongStrideMutant(_Gemm, Mutation):
    """mutation: b's pointers advance along n instead of k between K tiles"""
    mutate = [("b_ptrs += BLOCK_SIZE_K * stride_bk", "b_ptrs += BLOCK_SIZE_K * stride_bn")]


class _GemmPersistent(_Gemm):
    """flashinfer gemm_kernel_persistent (sm_constraint_gemm.gemm_persistent(a, b, c, alpha, beta,
    out_dtype=float32, num_sms=2)): each of NUM_SMS 2 programs loops over the 4 tiles of c, c = alpha a b +
    beta c; a, b bf16 [32][32], c f32; 16x16x16 tiles (the autotuner's config: 128x128x64), GROUP_SIZE_M 8,
    grid min(2, 4) = 2, 4 warps, 3 stages"""

    def program_a(self):
        k = racer.triton(kernel(f"{KERNELS}.sm_constraint_gemm", "gemm_kernel_persistent", self.mutate),
                         BLOCK_SIZE_M=16, BLOCK_SIZE_N=16, BLOCK_SIZE_K=16, GROUP_SIZE_M=8, NUM_SMS=2, num_warps=4,
                         num_stages=3)
        racer.launch(k, grid=2, args=[racer.read(self.a), racer.read(self.b), racer.readwrite(self.c), GM, GN, GK,
                                      GK, 1, GN, 1, GN, 1, ALPHA, BETA])
        return {"c": self.c}


class FlashinferGemmPersistent(_GemmPersistent, Row):
    """flashinfer gemm_kernel_persistent: c = alpha a b + beta c, two persistent programs"""


class FlashinferGemmPersistentKMaskMutant(_GemmPersistent, Mutation):
    """mutation: an off-by-one in a's K mask drops the last k of the last K tile"""
    mutate = [("a_ptrs, mask=offs_k_for_mask[None, :] < K - ki * BLOCK_SIZE_K, other=0.0",
               "a_ptrs, mask=offs_k_for_mask[None, :] < K - ki * BLOCK_SIZE_K - 1, other=0.0")]


SB, SL, SH, CS = 2, 40, 3, 16  # Mamba2 SSD: batch, sequence length, heads, chunk size
SNC = -(-SL // CS)


class _ChunkCumsum:
    """flashinfer _chunk_cumsum_fwd_kernel (triton/kernels/ssd_chunk_state.py, chunk_cumsum_fwd(dt, A, 16, dt_bias,
    dt_softplus=True), Mamba2's default dt_limit (0, inf)): dt [2][40][3] plus bias, softplus, clamped, then the
    cumsum of dt A over each chunk of 16 (3 chunks, the last of 8); BLOCK_SIZE_CHUNK 16, BLOCK_SIZE_H 2 (one of
    the autotuner's configs), grid (2, 3, cdiv(3, 2)) = (2, 3, 2), 4 warps"""
    mutate = None

    def setup(self):
        self.dt = racer.input((SB, SL, SH), "f32", range=(-4, 4))
        self.A = racer.input((SH,), "f32", range=(-2, 0))
        self.bias = racer.input((SH,), "f32", range=(-2, 2))
        self.dt_out = racer.empty((SB, SH, SNC, CS), "f32")
        self.dA = racer.empty((SB, SH, SNC, CS), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{KERNELS}.ssd_chunk_state", "_chunk_cumsum_fwd_kernel", self.mutate),
                         DT_SOFTPLUS=True, HAS_DT_BIAS=True, BLOCK_SIZE_H=2, BLOCK_SIZE_CHUNK=CS)
        st = [SH * SNC * CS, CS, SNC * CS, 1]  # batch, chunk, head, position strides of [B][H][NC][CS]
        racer.launch(k, grid=(SB, SNC, 2),
                     args=[racer.read(self.dt), racer.read(self.A), racer.read(self.bias), racer.write(self.dt_out),
                           racer.write(self.dA), SB, SL, SH, CS, 0.0, float("inf"), SL * SH, SH, 1, 1, 1] + st + st)
        return {"dt_out": self.dt_out, "dA": self.dA}

    def program_b(self):
        racer.launch(ref("flashinfer_ops.cu", "ssd_chunk_cumsum"), grid=1, block=SB * SH * SNC,
                     args=[racer.read(self.dt), racer.read(self.A), racer.read(self.bias), racer.write(self.dt_out),
                           racer.write(self.dA), SB, SL, SH, CS, 0.0, float("inf")])
        return {"dt_out": self.dt_out, "dA": self.dA}


class FlashinferChunkCumsum(_ChunkCumsum, Row):
    """flashinfer _chunk_cumsum_fwd_kernel: dt_out = clamp(softplus(dt + bias)), dA_cumsum = cumsum(dt_out A)"""


class FlashinferChunkCumsumAxisMutant(_ChunkCumsum, Mutation):
    """mutation: the cumsum runs over the heads of the block instead of the chunk's steps"""
    mutate = [("dA_cs = tl.cumsum(dA, axis=1)", "dA_cs = tl.cumsum(dA, axis=0)")]


class FlashinferChunkCumsumPaddingMutant(_ChunkCumsum, Mutation):
    """mutation: the steps past the sequence end are not zeroed after the softplus (softplus(0 + bias) kept)"""
    mutate = [("(offs_h[:, None] < nheads) & (offs_c[None, :] < chunk_size_limit), dt, 0.0",
               "(offs_h[:, None] < nheads) & (offs_c[None, :] < chunk_size), dt, 0.0")]


APPEND_INDPTR = [0, 3, 4, 9]  # get_batch_indices_positions: new tokens of 3 requests


class _BatchIndices:
    """flashinfer get_batch_indices_positions_kernel (triton/page.py, page.get_batch_indices_positions): append
    indptr [0, 3, 4, 9] (concrete), seq_lens [3] symbolic; each appended token's request and its position
    seq_len - appended + j; grid (3,), num_stages 2, 4 warps"""
    mutate = None

    def setup(self):
        self.indptr = racer.values(APPEND_INDPTR, dtype="i32")
        self.seq_lens = racer.input((3,), "i32", range=(5, 1000))
        self.bi = racer.empty((APPEND_INDPTR[-1],), "i32")
        self.pos = racer.empty((APPEND_INDPTR[-1],), "i32")

    def program_a(self):
        k = racer.triton(kernel(f"{FI}.page", "get_batch_indices_positions_kernel", self.mutate), num_stages=2)
        racer.launch(k, grid=3, args=[racer.read(self.indptr), racer.read(self.seq_lens), racer.write(self.bi),
                                      racer.write(self.pos)])
        return {"bi": self.bi, "pos": self.pos}

    def program_b(self):
        racer.launch(ref("flashinfer_ops.cu", "batch_indices_positions"), grid=1, block=32,
                     args=[racer.read(self.indptr), racer.read(self.seq_lens), racer.write(self.bi),
                           racer.write(self.pos), 3])
        return {"bi": self.bi, "pos": self.pos}


class FlashinferBatchIndicesPositions(_BatchIndices, Row):
    """flashinfer get_batch_indices_positions_kernel: ragged append indptr to (request, position) pairs"""


class FlashinferBatchIndicesPositionsStartMutant(_BatchIndices, Mutation):
    """mutation: positions counted back from the request's first appended token instead of its end"""
    mutate = [("offsets + seq_len - batch_end", "offsets + seq_len - batch_start")]


PAGE = 64
GDN_CU = [0, 10, 68, 98, 98]  # new tokens: 10, 58, 30, 0
GDN_INDPTR = [0, 1, 3, 5, 8]  # pages: 1, 2, 2, 3
GDN_LAST = [10, 64, 30, 2]  # totals 10, 128, 94, 130: prefixes 0, 70, 64, 130


class _GdnPrefill:
    """flashinfer gdn_paged_prefill_slots_kernel (triton/gdn_paged.py, gdn_paged.gdn_paged_prefill_slots):
    4 sequences (no prefix; a prefix ending mid-page and a final state on a page boundary; a prefix of exactly
    one page; no new tokens), page_size 64; cu_seqlens, page_indptr, last_page_len concrete, page_indices [8]
    symbolic; BLOCK 128, grid (1,), 4 warps"""
    mutate = None

    def setup(self):
        self.cu = racer.values(GDN_CU, dtype="i32")
        self.pages = racer.input((GDN_INDPTR[-1],), "i32", range=(0, 4096))
        self.indptr = racer.values(GDN_INDPTR, dtype="i32")
        self.last = racer.values(GDN_LAST, dtype="i32")
        self.read_rows, self.write_rows, self.ckpt, self.prefix = (racer.empty((4,), "i32") for _ in range(4))

    def program_a(self):
        k = racer.triton(kernel(f"{FI}.gdn_paged", "gdn_paged_prefill_slots_kernel", self.mutate), BLOCK=128)
        racer.launch(k, grid=1, args=[racer.read(self.cu), racer.read(self.pages), racer.read(self.indptr),
                                      racer.read(self.last)] + [racer.write(o) for o in self.outs()] + [4, PAGE])
        return self.outputs()

    def program_b(self):
        racer.launch(ref("flashinfer_ops.cu", "gdn_prefill_slots"), grid=1, block=32,
                     args=[racer.read(self.cu), racer.read(self.pages), racer.read(self.indptr), racer.read(self.last)]
                     + [racer.write(o) for o in self.outs()] + [4, PAGE])
        return self.outputs()

    def outs(self):
        return [self.read_rows, self.write_rows, self.ckpt, self.prefix]

    def outputs(self):
        return {"read_rows": self.read_rows, "write_rows": self.write_rows, "ckpt": self.ckpt, "prefix": self.prefix}


class FlashinferGdnPrefillSlots(_GdnPrefill, Row):
    """flashinfer gdn_paged_prefill_slots_kernel: read, write, checkpoint rows and prefix lengths"""


class FlashinferGdnPrefillSlotsReadEntryMutant(_GdnPrefill, Mutation):
    """mutation: the read row is the page of token prefix instead of the last prefix token (prefix - 1)"""
    mutate = [("read_entry = first + tl.maximum(prefix - 1, 0) // page_size",
               "read_entry = first + tl.maximum(prefix, 0) // page_size")]


DEC_INDPTR = [0, 1, 3, 5]
DEC_LAST = [5, 1, 64]  # the second sequence's token opens its second page


class _GdnDecode:
    """flashinfer gdn_paged_decode_slots_kernel (gdn_paged.gdn_paged_decode_slots): 3 sequences of 1, 2, 2 pages,
    last_page_len [5, 1, 64] (concrete), page_indices [5] symbolic; BLOCK 128, grid (1,), 4 warps"""
    mutate = None

    def setup(self):
        self.pages = racer.input((DEC_INDPTR[-1],), "i32", range=(0, 4096))
        self.indptr = racer.values(DEC_INDPTR, dtype="i32")
        self.last = racer.values(DEC_LAST, dtype="i32")
        self.read = racer.empty((3,), "i32")
        self.write = racer.empty((3,), "i32")

    def program_a(self):
        k = racer.triton(kernel(f"{FI}.gdn_paged", "gdn_paged_decode_slots_kernel", self.mutate), BLOCK=128)
        racer.launch(k, grid=1, args=[racer.read(self.pages), racer.read(self.indptr), racer.read(self.last),
                                      racer.write(self.read), racer.write(self.write), 3])
        return {"read": self.read, "write": self.write}

    def program_b(self):
        racer.launch(ref("flashinfer_ops.cu", "gdn_decode_slots"), grid=1, block=32,
                     args=[racer.read(self.pages), racer.read(self.indptr), racer.read(self.last),
                           racer.write(self.read), racer.write(self.write), 3])
        return {"read": self.read, "write": self.write}


class FlashinferGdnDecodeSlots(_GdnDecode, Row):
    """flashinfer gdn_paged_decode_slots_kernel: write the last page, read the previous one on a new page"""


class FlashinferGdnDecodeSlotsNewPageMutant(_GdnDecode, Mutation):
    """mutation: a new page is detected by last_page_len == 0 (never), so the previous page is never read"""
    mutate = [("mask=valid, other=2) == 1", "mask=valid, other=2) == 0")]


UB, US, UW, ULH, UHC, UOFF, UD = 2, 3, 2, 3, 2, 1, 8  # Ulysses: batch, seq, world, local heads, chunk, offset, dim
UH = UW * ULH


class _UlyssesPack:
    """flashinfer _pack_ulysses_qkv_head_chunk_kernel (triton/ulysses.py, _pack_ulysses_qkv_head_chunk): heads 1..2
    of each rank's band of 3 (world 2) of q, k, v [2][3][6][8] packed into [3 x 8] records; total 192,
    BLOCK 256, grid (1,), 4 warps"""
    mutate, nccl = None, False

    def setup(self):
        self.q, self.k, self.v = (racer.input((UB, US, UH, UD), "f32", range=(-4, 4)) for _ in range(3))
        self.out = racer.empty((UW * UB * US * UHC, 3 * UD), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{FI}.ulysses", "_pack_ulysses_qkv_head_chunk_kernel", self.mutate), world_size=UW,
                         local_heads=ULH, head_dim=UD, nccl_layout=self.nccl, BLOCK=256)
        st = [US * UH * UD, UH * UD, UD, 1]
        racer.launch(k, grid=1, args=[racer.write(self.out), racer.read(self.q), racer.read(self.k), racer.read(self.v),
                                      UB * US * UW * UHC * UD, UB, US, UHC, UOFF] + st + st + st)
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref("flashinfer_ops.cu", "ulysses_pack_qkv"), grid=1, block=32,
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.write(self.out), UB, US,
                           UW, ULH, UHC, UOFF, UD, int(self.nccl)])
        return {"out": self.out}


class FlashinferUlyssesPackQkv(_UlyssesPack, Row):
    """flashinfer _pack_ulysses_qkv_head_chunk_kernel, [B, S, W HC, 3D] layout"""


class FlashinferUlyssesPackQkvNccl(_UlyssesPack, Row):
    """flashinfer _pack_ulysses_qkv_head_chunk_kernel, send-major [W, B, S, HC, 3D] layout (nccl_layout)"""
    nccl = True


class FlashinferUlyssesPackQkvBandMutant(_UlyssesPack, Mutation):
    """mutation: the rank's head band is strided by the chunk's heads instead of the rank's local heads"""
    mutate = [("global_head = destination * local_heads + head_offset + head_in_chunk",
               "global_head = destination * chunk_heads + head_offset + head_in_chunk")]


class FlashinferUlyssesPackOutputSeq(Row):
    """flashinfer _pack_ulysses_output_sequence_chunk_kernel (_pack_ulysses_output_sequence_chunk): [2][6][2][8]
    (batch, world 2 x 3 positions, heads, dim) to send-major [2][2][3][2][8]; total 192, BLOCK 256, grid (1,)"""

    def setup(self):
        self.src = racer.input((UB, UW * US, UHC, UD), "f32", range=(-4, 4))
        self.out = racer.empty((UW, UB, US, UHC, UD), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{FI}.ulysses", "_pack_ulysses_output_sequence_chunk_kernel"), world_size=UW,
                         head_dim=UD, BLOCK=256)
        racer.launch(k, grid=1, args=[racer.write(self.out), racer.read(self.src), UW * UB * US * UHC * UD, UB, US,
                                      UHC, UW * US * UHC * UD, UHC * UD, UD, 1])
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref("flashinfer_ops.cu", "ulysses_pack_output_seq"), grid=2, block=128,
                     args=[racer.read(self.src), racer.write(self.out), UB, US, UW, UHC, UD])
        return {"out": self.out}


class _UlyssesMerge:
    """flashinfer _merge_ulysses_output_head_chunk_kernel (_merge_ulysses_output_head_chunk): received
    [2][2][3][2][8] (rank, batch, seq, chunk heads, dim) into heads r 3 + 1 + hc of output [2][3][6][8], the other
    heads kept; total 192, BLOCK 256, grid (1,), 4 warps"""
    mutate = None

    def setup(self):
        self.recv = racer.input((UW, UB, US, UHC, UD), "f32", range=(-4, 4))
        self.out = racer.input((UB, US, UH, UD), "f32", range=(-4, 4))

    def program_a(self):
        k = racer.triton(kernel(f"{FI}.ulysses", "_merge_ulysses_output_head_chunk_kernel", self.mutate),
                         world_size=UW, local_heads=ULH, head_dim=UD, BLOCK=256)
        racer.launch(k, grid=1, args=[racer.read(self.recv), racer.readwrite(self.out), UW * UB * US * UHC * UD, UB,
                                      US, UHC, UOFF, UB * US * UHC * UD, US * UHC * UD, UHC * UD, UD, 1,
                                      US * UH * UD, UH * UD, UD, 1])
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref("flashinfer_ops.cu", "ulysses_merge_output_heads"), grid=2, block=128,
                     args=[racer.read(self.recv), racer.readwrite(self.out), UW, UB, US, UHC, UD, ULH, UOFF])
        return {"out": self.out}


class FlashinferUlyssesMergeOutput(_UlyssesMerge, Row):
    """flashinfer _merge_ulysses_output_head_chunk_kernel: each rank's chunk of heads back into the full output"""


class FlashinferUlyssesMergeOutputNoOffsetMutant(_UlyssesMerge, Mutation):
    """mutation: the head chunk's offset within the rank's band is forgotten"""
    mutate = [("global_head = source_rank * local_heads + head_offset + head_in_chunk",
               "global_head = source_rank * local_heads + head_in_chunk")]
