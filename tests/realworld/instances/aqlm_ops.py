"""aqlm 1.1.7 (Additive Quantization of Language Models): its Triton GEMV _aqlm_gemv_simple
(aqlm/inference_kernels/triton_kernel.py) against reference/aqlm_ops.cu. Launched as aqlm_gemm_stupid (called by
triton_matmul) does: one launch per input row, grid (out_features // out_group_size,), codebooks
[num_codebooks][codebook_size][out_group_size][in_group_size] f16, codes [out_features // out_group_size]
[in_features // in_group_size][num_codebooks] int16, per-output-group scales [out_features // out_group_size]
(has_output_scale), the bias if given, num_input_groups_next_power_of_2 = next_power_of_2(num_input_groups),
compute_in_fp32 True (the default), f16 input and output (the codebooks' dtype). The autotuner picks among
num_stages 1..5 x num_warps 1, 2, 4, 8 by timing on a GPU: the rows take num_stages 1, num_warps 4 (UNUSED 1).
Codebooks are scaled down to 16 entries (aqlm's are 2^8 or 2^16): the codes are free racer.input int16 over
range (0, 15), so Racer checks every index, except AqlmGemvConcreteCodes, whose codes are fixed racer.values.
aqlm's get_forward_pass_kernel (kernel_selector.py) gives CUDA inference triton_matmul for out_group_size 1 and the
codebook shapes its CUDA kernels do not cover (1 x 2^16 and 1 or 2 x 2^8 with groups of 8 go to CUDA), so a
16-entry codebook takes this kernel. The reference reads the f16 codebook entries as nvcc loads a __half
(ld.global.u16 at the codes' address). Found by reading, not a row: for out_group_size > 1 the
kernel adds bias[pid] (one per output group) to each of the group's outputs, where aqlm's bias has out_features
entries; the selector never sends out_group_size > 1 here."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
from common import Mutation, Row, kernel, next_power_of_2, ref  # noqa: E402

AQ = "aqlm.inference_kernels.triton_kernel"
K = 16  # codebook size


class _Gemv:
    mutate = None
    rows, in_f, out_f, C, OG, IG, bias, concrete = 1, 64, 16, 1, 1, 8, False, False

    def setup(self):
        ng, nog = self.in_f // self.IG, self.out_f // self.OG
        self.x = racer.input((self.rows, self.in_f), "f16", range=(-2, 2))
        if self.concrete:
            self.codes = racer.values([(7 * i + 3) % K for i in range(nog * ng * self.C)], dtype="i16",
                                      shape=(nog, ng, self.C))
        else:
            self.codes = racer.input((nog, ng, self.C), "i16", range=(0, K - 1))
        self.cb = racer.input((self.C, K, self.OG, self.IG), "f16", range=(-1, 1))
        self.scales = racer.input((nog, 1, 1, 1), "f16", range=(0.01, 2))
        self.b = racer.input((self.out_f,), "f16", range=(-1, 1)) if self.bias else racer.zeros((1,), "f16")
        self.y = racer.empty((self.rows, self.out_f), "f16")

    def program_a(self):
        ng = self.in_f // self.IG
        k = racer.triton(kernel(AQ, "_aqlm_gemv_simple", self.mutate), in_features=self.in_f,
                         out_features=self.out_f, num_codebooks=self.C, codebook_size=K, out_group_size=self.OG,
                         in_group_size=self.IG, num_input_groups=ng, num_input_groups_next_power_of_2=next_power_of_2(ng),
                         compute_in_fp32=True, has_output_scale=True, has_bias=self.bias, UNUSED=1, num_warps=4,
                         num_stages=1)
        for i in range(self.rows):  # aqlm_gemm_stupid: one launch per row of the input
            racer.launch(k, grid=self.out_f // self.OG,
                         args=[racer.read(self.x, offset=i * self.in_f), racer.write(self.y, offset=i * self.out_f),
                               racer.read(self.codes), racer.read(self.cb), racer.read(self.scales),
                               racer.read(self.b)])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("aqlm_ops.cu", "aqlm_gemv"), grid=1, block=self.rows * self.out_f,
                     args=[racer.read(self.x), racer.read(self.codes), racer.read(self.cb), racer.read(self.scales),
                           racer.read(self.b), racer.write(self.y), self.rows, self.in_f, self.out_f, self.C, K,
                           self.OG, self.IG, int(self.bias)])
        return {"y": self.y}


class AqlmGemv1Codebook(_Gemv, Row):
    """aqlm _aqlm_gemv_simple (inference_kernels/triton_kernel.py, aqlm_gemm_stupid): the "1x16"-style layout with
    one codebook (16 entries here), in_group_size 8, out_group_size 1; in 64 (8 groups), out 16, grid (16,)"""


class AqlmGemv2Codebooks(_Gemv, Row):
    """aqlm _aqlm_gemv_simple: the "2x8"-style layout, two codebooks summed, in_group_size 8, out_group_size 1, with
    the bias; in 64 (8 groups), out 8, grid (8,)"""
    out_f, C, bias = 8, 2, True


class AqlmGemvOutGroup2(_Gemv, Row):
    """aqlm _aqlm_gemv_simple with out_group_size 2 (each code picks a 2 x 4 block of weights), one codebook,
    in_group_size 4; in 32 (8 groups), out 16, grid (8,), no bias: the kernel's out_group_size > 1 branch, which
    aqlm_gemm_stupid accepts (aqlm's kernel selector sends only out_group_size 1 to it)"""
    in_f, out_f, OG, IG = 32, 16, 2, 4


class AqlmGemvRaggedGroups(_Gemv, Row):
    """aqlm _aqlm_gemv_simple with 6 input groups padded to num_input_groups_next_power_of_2 8 (the masked input
    and code loads without other=, the weights' with other=0); one codebook, in_group_size 8; in 48, out 8"""
    in_f, out_f = 48, 8


class AqlmGemvConcreteCodes(_Gemv, Row):
    """aqlm _aqlm_gemv_simple with fixed codes (racer.values, (7 i + 3) mod 16) and two input rows (two launches, as
    aqlm_gemm_stupid loops over rows): two codebooks, in_group_size 8, with the bias; in 64, out 8, grid (8,)"""
    rows, out_f, C, bias, concrete = 2, 8, 2, True, True


class AqlmGemvCodebookOffsetMutant(_Gemv, Mutation):
    """mutation: the second codebook's codes are shifted by one entry instead of one codebook (codebook_size
    forgotten)"""
    out_f, C, bias = 8, 2, True
    mutate = [("codes_i += tl.arange(0, num_codebooks)[None, :] * codebook_size",
               "codes_i += tl.arange(0, num_codebooks)[None, :]")]


class AqlmGemvEntryStrideMutant(_Gemv, Mutation):
    """mutation: a wrong codebook stride, an entry taken as in_group_size weights long (out_group_size forgotten)"""
    in_f, out_f, OG, IG = 32, 16, 2, 4
    mutate = [("codes_i[:, :, None, None] * out_group_size * in_group_size",
               "codes_i[:, :, None, None] * in_group_size")]


class AqlmGemvFirstScaleMutant(_Gemv, Mutation):
    """mutation: every output unit takes the first output group's scale"""
    mutate = [("output_i *= tl.load(scales_ptr + pid).to(weights_i.dtype)",
               "output_i *= tl.load(scales_ptr).to(weights_i.dtype)")]
