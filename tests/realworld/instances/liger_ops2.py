"""liger-kernel: backward norms (DyT, fused add + RMSNorm, GroupNorm), the Qwen2-VL and Llama-4 rotary
embeddings, multi-token attention's causal masks, sparsemax forward, the fused linear KL-div's loss
kernel, modulated RMSNorm and the gradient scaling kernel, against reference/liger_ops2.cu."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
import triton.language as tl  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

R, C = 3, 40


def _lib(module, name, mutate):
    return kernel(module, name, **({"mutate": mutate} if mutate else {}))


SLOTS = 4  # the host's NUM_SMS (a grid row per SM); 4 here, one of them without rows


class _DytBwd:
    """liger _dyt_bwd_kernel with beta: grid (cdiv(N, BLOCK_N), NUM_SMS), BLOCK_N 1024 (the smallest autotune
    config; da's layout start_row * cdiv(N, 512) + pid0 assumes BLOCK_N >= 512), 4 warps; each of the 4 slots
    loops over rows slot, slot + 4, ... and stores its partial dg, db and da."""
    mutate = None

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.dy = racer.input((R, C), "f32", range=(-2, 2))
        self.alpha = racer.input((1,), "f32", range=(0.25, 2))
        self.gamma = racer.input((C,), "f32", range=(-2, 2))
        self.dx = racer.empty((R, C), "f32")
        self.da = racer.zeros((SLOTS, 1), "f32")
        self.dg = racer.empty((SLOTS, C), "f32")
        self.db = racer.empty((SLOTS, C), "f32")

    def outputs(self):
        return {"dx": self.dx, "da": self.da, "dg": self.dg, "db": self.db}

    def program_a(self):
        k = racer.triton(_lib("liger_kernel.ops.dyt", "_dyt_bwd_kernel", self.mutate), HAVE_BETA=True, N=C,
                         BLOCK_N=1024, num_warps=4)
        racer.launch(k, grid=(1, SLOTS), args=[racer.read(self.dy), racer.write(self.dx), racer.readwrite(self.da),
                                               racer.write(self.dg), racer.write(self.db), racer.read(self.x),
                                               racer.read(self.alpha), racer.read(self.gamma), R])
        return self.outputs()

    def program_b(self):
        racer.launch(ref("liger_ops2.cu", "dyt_bwd"), grid=1, block=SLOTS * C,
                     args=[racer.read(self.x), racer.read(self.dy), racer.read(self.alpha), racer.read(self.gamma),
                           racer.write(self.dx), racer.readwrite(self.da), racer.write(self.dg), racer.write(self.db),
                           R, C, SLOTS])
        return self.outputs()


class LigerDytBwd(_DytBwd, Row):
    """liger _dyt_bwd_kernel: dx = alpha (1 - tanh^2) dy gamma and the per-slot partials of dalpha, dgamma, dbeta"""


class LigerDytBwdMissingAlphaMutant(_DytBwd, Mutation):
    """mutation: dx forgets the chain rule's factor alpha"""
    mutate = [("dx = alpha * tmp", "dx = tmp")]


class _AddRmsBwd:
    """liger _fused_add_rms_norm_backward_kernel, Llama casting, with the residual's upstream gradient dS_out;
    BLOCK_SIZE 64, 4 warps (calculate_settings(40)); one program over the 3 rows (rows_per_program 3, as the
    host launches it with sm_count 1), so dW is one row"""
    mutate = None

    def setup(self):
        self.dy = racer.input((R, C), "f32", range=(-2, 2))
        self.ds = racer.input((R, C), "f32", range=(-2, 2))
        self.s = racer.input((R, C), "f32", range=(-4, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))
        self.rstd = racer.input((R,), "f32", range=(0.25, 4))
        self.dx = racer.empty((R, C), "f32")
        self.dw = racer.empty((1, C), "f32")

    def program_a(self):
        k = racer.triton(_lib("liger_kernel.ops.fused_add_rms_norm", "_fused_add_rms_norm_backward_kernel",
                              self.mutate), X_dtype=tl.float32, rows_per_program=R, casting_mode=0, BLOCK_SIZE=64,
                         has_dS_out=True, COMPUTE_DW=True, num_warps=4)
        racer.launch(k, grid=1, args=[racer.read(self.dy), C, racer.read(self.ds), C, racer.write(self.dx), C,
                                      racer.read(self.s), C, racer.read(self.w), 0, racer.read(self.rstd), 1,
                                      racer.write(self.dw), C, R, C, 0.0])
        return {"dx": self.dx, "dw": self.dw}

    def program_b(self):
        racer.launch(ref("liger_ops2.cu", "add_rmsnorm_bwd"), grid=1, block=64,
                     args=[racer.read(self.dy), racer.read(self.ds), racer.read(self.s), racer.read(self.w),
                           racer.read(self.rstd), racer.write(self.dx), racer.write(self.dw), R, C, 0.0])
        return {"dx": self.dx, "dw": self.dw}


class LigerFusedAddRmsNormBwd(_AddRmsBwd, Row):
    """liger _fused_add_rms_norm_backward_kernel: RMSNorm's dx plus the residual's gradient, and dW"""


class LigerFusedAddRmsNormBwdNoResidualGradMutant(_AddRmsBwd, Mutation):
    """mutation: the residual's upstream gradient is not added to dx"""
    mutate = [("            dX_row += dS_out_row\n", "            dX_row += 0.0 * dS_out_row\n")]


B, G, CPG, S = 2, 2, 2, 10  # batch, groups, channels per group, spatial


class _GroupNormBwd:
    """liger _group_norm_backward_kernel over x[2][4][10] in 2 groups: grid (batch, groups),
    BLOCK_SIZE = next_power_of_2(10) = 16, 4 warps (the default); dW and dB by atomic adds into zeros"""
    mutate = None

    def setup(self):
        shape = (B, G * CPG, S)
        self.x = racer.input(shape, "f32", range=(-4, 4))
        self.w = racer.input((G * CPG,), "f32", range=(-2, 2))
        self.mean = racer.input((B, G), "f32", range=(-1, 1))
        self.rstd = racer.input((B, G), "f32", range=(0.25, 4))
        self.dy = racer.input(shape, "f32", range=(-2, 2))
        self.dx = racer.empty(shape, "f32")
        self.dw = racer.zeros((G * CPG,), "f32")
        self.db = racer.zeros((G * CPG,), "f32")

    def program_a(self):
        k = racer.triton(_lib("liger_kernel.ops.group_norm", "_group_norm_backward_kernel", self.mutate),
                         hidden_size=S, channels_per_group=CPG, BLOCK_SIZE=16, dtype=tl.float32, num_warps=4)
        racer.launch(k, grid=(B, G), args=[racer.read(self.x), G * CPG * S, S, racer.read(self.w),
                                           racer.read(self.mean), G, 1, racer.read(self.rstd), racer.write(self.dx),
                                           racer.readwrite(self.dw), racer.readwrite(self.db), racer.read(self.dy)])
        return {"dx": self.dx, "dw": self.dw, "db": self.db}

    def program_b(self):
        racer.launch(ref("liger_ops2.cu", "groupnorm_bwd"), grid=1, block=32,
                     args=[racer.read(self.x), racer.read(self.w), racer.read(self.mean), racer.read(self.rstd),
                           racer.read(self.dy), racer.write(self.dx), racer.readwrite(self.dw),
                           racer.readwrite(self.db), B, G, CPG, S])
        return {"dx": self.dx, "dw": self.dw, "db": self.db}


class LigerGroupNormBwd(_GroupNormBwd, Row):
    """liger _group_norm_backward_kernel: dx of each group, dW and dB accumulated over the batch by atomics"""


class LigerGroupNormBwdMissingMeanTermMutant(_GroupNormBwd, Mutation):
    """mutation: the mean of w dy (c2) is left out of dx"""
    mutate = [("dx = (wdy - (x_hat * c1 + c2)) * rstd", "dx = (wdy - (x_hat * c1)) * rstd")]


T, HQ, HK, HD = 4, 2, 2, 16  # tokens (batch 1), query heads, key heads, head dim
SEC_T, SEC_H = 2, 3  # mrope sections over hd / 2 = 8: temporal 2, height 3, width 3


class _Mrope:
    """liger _triton_qwen2vl_mrope (M-RoPE) on q, k [4 tokens][2 heads][16] in place, cos and sin [3][1][4][16]
    (temporal, height, width), sections (2, 3, 3); pad_hd 16, BLOCK_SIZE 2, 4 warps (the default), grid = tokens"""
    backward, mutate = False, None

    def setup(self):
        self.q = racer.input((T, HQ, HD), "f32", range=(-2, 2))
        self.k = racer.input((T, HK, HD), "f32", range=(-2, 2))
        self.cos = racer.input((3, T, HD), "f32", range=(-1, 1))
        self.sin = racer.input((3, T, HD), "f32", range=(-1, 1))

    def program_a(self):
        k = racer.triton(_lib("liger_kernel.ops.qwen2vl_mrope", "_triton_qwen2vl_mrope", self.mutate), bs=1, n_qh=HQ,
                         n_kh=HK, hd=HD, pad_n_qh=HQ, pad_n_kh=HK, pad_hd=HD, mrope_section_t=SEC_T,
                         mrope_section_h=SEC_H, BLOCK_SIZE=2, BACKWARD_PASS=self.backward, num_warps=4)
        racer.launch(k, grid=T, args=[racer.readwrite(self.q), racer.readwrite(self.k), racer.read(self.cos),
                                      racer.read(self.sin), T])
        return {"q": self.q, "k": self.k}

    def program_b(self):
        for t, h in ((self.q, HQ), (self.k, HK)):
            racer.launch(ref("liger_ops2.cu", "mrope_neox"), grid=1, block=32,
                         args=[racer.readwrite(t), racer.read(self.cos), racer.read(self.sin), T, h, HD, SEC_T, SEC_H,
                               int(self.backward)])
        return {"q": self.q, "k": self.k}


class LigerQwen2vlMrope(_Mrope, Row):
    """liger _triton_qwen2vl_mrope forward: each frequency takes cos / sin from its section"""


class LigerQwen2vlMropeBwd(_Mrope, Row):
    """liger _triton_qwen2vl_mrope with BACKWARD_PASS: the inverse rotation"""
    backward = True


class LigerQwen2vlMropeSectionMutant(_Mrope, Mutation):
    """mutation: the height section's mask starts one frequency late, so frequency 2 gets cos = sin = 0"""
    mutate = [("h_mask = (t_end <= cos_offsets) & (cos_offsets < h_end)",
               "h_mask = (t_end < cos_offsets) & (cos_offsets < h_end)")]


L4Q, L4K = 4, 2  # Llama-4 query and key heads


class _Llama4Rope:
    """liger _llama4_rope_kernel on q [1][4][4][16], k [1][4][2][16] in place, freqs [4][8][2] (re, im):
    head_dim_half 8, so BLOCK_SIZE 16 and 2 warps (_select_kernel_meta), grid (tokens, max heads)"""
    sign, mutate = 1.0, None

    def setup(self):
        self.q = racer.input((T, L4Q, HD), "f32", range=(-2, 2))
        self.k = racer.input((T, L4K, HD), "f32", range=(-2, 2))
        self.f = racer.input((T, HD // 2, 2), "f32", range=(-1, 1))

    def program_a(self):
        k = racer.triton(_lib("liger_kernel.ops.llama4_rope", "_llama4_rope_kernel", self.mutate),
                         head_dim_half=HD // 2, n_q_heads=L4Q, n_k_heads=L4K, BLOCK_SIZE=16, num_warps=2)
        racer.launch(k, grid=(T, L4Q), args=[racer.readwrite(self.q), racer.readwrite(self.k), racer.read(self.f),
                                             L4Q * HD, L4K * HD, HD, HD, HD, T, 1, self.sign])
        return {"q": self.q, "k": self.k}

    def program_b(self):
        for t, h in ((self.q, L4Q), (self.k, L4K)):
            racer.launch(ref("liger_ops2.cu", "rope_complex"), grid=1, block=32,
                         args=[racer.readwrite(t), racer.read(self.f), T, h, HD, self.sign])
        return {"q": self.q, "k": self.k}


class LigerLlama4Rope(_Llama4Rope, Row):
    """liger _llama4_rope_kernel forward: interleaved (re, im) pairs times the complex frequency, fma form"""


class LigerLlama4RopeBwd(_Llama4Rope, Row):
    """liger _llama4_rope_kernel as its backward launches it: imag_sign -1 (the conjugate frequency)"""
    sign = -1.0


class LigerLlama4RopeConjugateKeyMutant(_Llama4Rope, Mutation):
    """mutation: the key's real part adds the imaginary product instead of subtracting it"""
    mutate = [("new_k_real = tl.math.fma(k_real, freqs_real, -(k_imag * freqs_imag))",
               "new_k_real = tl.math.fma(k_real, freqs_real, (k_imag * freqs_imag))")]


MB, ML = 2, 20  # batch of score matrices, L


class _Mask:
    """liger multi_token_attention's causal masks on 2 matrices of 20 x 20: BLOCK 32, 4 warps
    (calculate_settings(20)), grid (1, 1, 2); num_warps is also a constexpr of the kernel"""
    name, fill, mutate = "_mask_fwd_kernel", -1e9, None

    def setup(self):
        self.x = racer.input((MB, ML, ML), "f32", range=(-4, 4))
        self.y = racer.empty((MB, ML, ML), "f32")

    def program_a(self):
        extra = {} if self.name == "_mask_bwd_kernel" else {"mask_val": self.fill}
        k = racer.triton(_lib("liger_kernel.ops.multi_token_attention", self.name, self.mutate), BLOCK=32,
                         num_warps=4, **extra)
        racer.launch(k, grid=(1, 1, MB), args=[racer.read(self.x), racer.write(self.y), ML * ML, ML, 1, ML])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("liger_ops2.cu", "causal_mask"), grid=(MB * ML * ML + 127) // 128, block=128,
                     args=[racer.read(self.x), racer.write(self.y), MB, ML, self.fill])
        return {"y": self.y}


class LigerMtaMaskInfFwd(_Mask, Row):
    """liger _mask_fwd_kernel with mask_val -1e9 (_mask_inf_forward): future scores replaced"""


class LigerMtaMaskZeroFwd(_Mask, Row):
    """liger _mask_fwd_kernel with mask_val 0 (_mask_zero_forward)"""
    fill = 0.0


class LigerMtaMaskBwd(_Mask, Row):
    """liger _mask_bwd_kernel: the gradient of future positions is zero"""
    name, fill = "_mask_bwd_kernel", 0.0


class LigerMtaMaskDiagonalMutant(_Mask, Mutation):
    """mutation: the diagonal is masked too (>= for >)"""
    mutate = [("future = col_idx[None, :] > row_idx[:, None]", "future = col_idx[None, :] >= row_idx[:, None]")]


SPR, SPC = 2, 16


class _SparsemaxFwd:
    """liger _sparsemax_forward_kernel: x and its row-sorted copy (given, as the host's torch.sort gives it)
    in, 16 columns in a block of 16, 4 warps (calculate_settings(16)), num_warps a constexpr"""
    mutate = None

    def setup(self):
        self.x = racer.input((SPR, SPC), "f32", range=(-2, 2))
        self.xs = racer.input((SPR, SPC), "f32", range=(-2, 2))
        self.y = racer.empty((SPR, SPC), "f32")

    def program_a(self):
        k = racer.triton(_lib("liger_kernel.ops.sparsemax", "_sparsemax_forward_kernel", self.mutate), BLOCK_SIZE=16,
                         num_warps=4)
        racer.launch(k, grid=SPR, args=[racer.read(self.x), SPC, racer.read(self.xs), SPC, racer.write(self.y), SPC,
                                        SPC])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("liger_ops2.cu", "sparsemax_fwd"), grid=1, block=SPR,
                     args=[racer.read(self.x), racer.read(self.xs), racer.write(self.y), SPR, SPC])
        return {"y": self.y}


class LigerSparsemaxFwd(_SparsemaxFwd, Row):
    """liger _sparsemax_forward_kernel: support from the sorted row's cumsum, threshold tau, max(x - tau, 0)"""


class _FusedKl:
    """liger fused_linear_kl_div's _kl_div_kernel (after the matmul): 3 rows of 40 logits, temperature 2,
    labels with row 1 ignored, batchmean scale 1/2; BLOCK_SIZE 64, 4 warps (get_num_warps(64))"""
    mutate = None

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.q = racer.input((R, C), "f32", range=(0.001, 1))
        self.label = racer.values([5, -100, 9], dtype="i64")
        self.loss = racer.zeros((R,), "f32")

    def program_a(self):
        k = racer.triton(_lib("liger_kernel.ops.fused_linear_kl_div", "_kl_div_kernel", self.mutate),
                         ignore_index=-100, BLOCK_SIZE=64, HAS_LABEL=True, num_warps=4)
        racer.launch(k, grid=R, args=[racer.readwrite(self.x), C, racer.read(self.q), C, racer.readwrite(self.loss), 1,
                                      racer.read(self.label), C, 2.0, 1e-10, 0.5])
        return {"x": self.x, "loss": self.loss}

    def program_b(self):
        racer.launch(ref("liger_ops2.cu", "fused_kl_rows"), grid=1, block=R,
                     args=[racer.readwrite(self.x), racer.read(self.q), racer.read(self.label),
                           racer.readwrite(self.loss), R, C, 2.0, 1e-10, 0.5, -100])
        return {"x": self.x, "loss": self.loss}


class LigerFusedLinearKlDiv(_FusedKl, Row):
    """liger _kl_div_kernel: per-row KL(Q || softmax(x / T)) and its gradient in place, an ignored row"""


class LigerFusedLinearKlDivTemperatureMutant(_FusedKl, Mutation):
    """mutation: the gradient is not divided by the temperature"""
    mutate = [("d = -scale * (q - softmax * a2) / temperature", "d = -scale * (q - softmax * a2)")]


MR = 4  # rows of the modulated RMSNorm: batch 2 x sequence 2, a modulation row per batch


class _ModRms:
    """liger _modulated_rms_norm_forward_kernel, Llama casting, with shift: x [4][40], scale and shift [2][40]
    (rows_per_modulation 2), BLOCK_SIZE 64, 4 warps (calculate_settings(40)), weight offset 0"""
    mutate = None

    def setup(self):
        self.x = racer.input((MR, C), "f32", range=(-4, 4))
        self.w = racer.input((C,), "f32", range=(-2, 2))
        self.scale = racer.input((2, C), "f32", range=(-1, 1))
        self.shift = racer.input((2, C), "f32", range=(-1, 1))
        self.y = racer.empty((MR, C), "f32")
        self.rstd = racer.empty((MR,), "f32")

    def program_a(self):
        k = racer.triton(_lib("liger_kernel.ops.modulated_rms_norm", "_modulated_rms_norm_forward_kernel", self.mutate),
                         casting_mode=0, elementwise_affine=True, has_shift=True, rows_per_modulation=2, BLOCK_SIZE=64,
                         num_warps=4)
        racer.launch(k, grid=MR, args=[racer.write(self.y), C, racer.read(self.x), C, racer.read(self.w), 1,
                                       racer.read(self.scale), C, racer.read(self.shift), C, racer.write(self.rstd), 1,
                                       C, 1e-6, 0.0])
        return {"y": self.y, "rstd": self.rstd}

    def program_b(self):
        racer.launch(ref("liger_ops2.cu", "modulated_rmsnorm_fwd"), grid=1, block=MR,
                     args=[racer.read(self.x), racer.read(self.w), racer.read(self.scale), racer.read(self.shift),
                           racer.write(self.y), racer.write(self.rstd), MR, C, 2, 1e-6, 0.0])
        return {"y": self.y, "rstd": self.rstd}


class LigerModulatedRmsNormFwd(_ModRms, Row):
    """liger _modulated_rms_norm_forward_kernel: RMSNorm times (1 + scale) plus shift of the row's modulation"""


class LigerModulatedRmsNormFwdScaleMutant(_ModRms, Mutation):
    """mutation: the modulation multiplies by scale instead of 1 + scale"""
    mutate = [("Y_row = Y_row * (1.0 + Scale_row)", "Y_row = Y_row * (Scale_row)")]


class LigerElementMul(Row):
    """liger element_mul_kernel (cross-entropy backward's scaling by grad_output): 3 rows of 40 in place,
    BLOCK_SIZE 64, 32 warps as the host launches it"""

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-4, 4))
        self.g = racer.input((1,), "f32", range=(-2, 2))

    def program_a(self):
        k = racer.triton(kernel("liger_kernel.ops.utils", "element_mul_kernel"), BLOCK_SIZE=64, X_col_stride=1,
                         num_warps=32)
        racer.launch(k, grid=R, args=[racer.readwrite(self.x), C, racer.read(self.g), C])
        return {"x": self.x}

    def program_b(self):
        racer.launch(ref("liger_ops2.cu", "scale_inplace"), grid=1, block=128,
                     args=[racer.readwrite(self.x), racer.read(self.g), R * C])
        return {"x": self.x}
