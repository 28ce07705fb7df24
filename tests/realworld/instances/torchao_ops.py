"""torchao 0.18.0: Triton quantization kernels (fp8 blockwise act/weight quantization and dequantization,
fp8 blockwise training quantization, MoE row-wise and per-group fp8 scaling, tensorwise fp8 casting,
MX block scaling, int8 matmul), against reference/torchao_ops.cu. Each launched with the constexprs,
grid and warps torchao's host wrapper picks for the shape (block sizes scaled down to the small shapes
here where the wrapper takes block_size as an argument)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
import triton.language as tl  # noqa: E402  (dtype constexprs, as torchao's FP8_DTYPE_MAP gives them)
from common import Mutation, Row, kernel, ref  # noqa: E402

BQ = "torchao.kernel.blockwise_quantization"
IMPLS = "_build_triton_impls."  # blockwise_quantization defines its kernels inside this function


class _ActQuant:
    """torchao _fp8_blockwise_act_quant_kernel_impl (kernel/blockwise_quantization.py, fp8_blockwise_act_quant):
    x[2][64] f32 in 1 x 32 blocks (block_size=32), s = amax / 448, y = x / s in e4m3; grid numel / 32 = 4,
    4 warps"""
    mutate = None
    M, K, B = 2, 64, 32

    def setup(self):
        self.x = racer.input((self.M, self.K), "f32", range=(-8, 8))
        self.y = racer.empty((self.M, self.K), "fp8e4m3")
        self.s = racer.empty((self.M, self.K // self.B), "f32")

    def program_a(self):
        k = racer.triton(kernel(BQ, IMPLS + "_fp8_blockwise_act_quant_kernel_impl", self.mutate), BLOCK_SIZE=self.B)
        racer.launch(k, grid=self.M * self.K // self.B, args=[racer.read(self.x), racer.write(self.y),
                                                              racer.write(self.s)])
        return {"y": self.y, "s": self.s}

    def program_b(self):
        racer.launch(ref("torchao_ops.cu", "quant_amax_over_448"), grid=1, block=32,
                     args=[racer.read(self.x), racer.write(self.y), racer.write(self.s), self.M, self.K, 1, self.B])
        return {"y": self.y, "s": self.s}


class TorchaoBlockwiseActQuant(_ActQuant, Row):
    """torchao fp8_blockwise_act_quant: per 1 x 32 block s = amax / 448, y = e4m3(x / s)"""


class TorchaoBlockwiseActQuantE5m2MaxMutant(_ActQuant, Mutation):
    """mutation: the scale divides by e5m2's max 57344 instead of e4m3's 448"""
    mutate = [("s = tl.max(tl.abs(x)) / 448.0", "s = tl.max(tl.abs(x)) / 57344.0")]


class _WeightQuant:
    """torchao _fp8_blockwise_weight_quant_kernel_impl (fp8_blockwise_weight_quant): x[32][32] f32 in 16 x 16
    blocks (block_size=16), s[2][2] = amax / 448, y = x / s in e4m3; grid (2, 2), 4 warps"""
    mutate = None
    M, N, B = 32, 32, 16

    def setup(self):
        self.x = racer.input((self.M, self.N), "f32", range=(-8, 8))
        self.y = racer.empty((self.M, self.N), "fp8e4m3")
        self.s = racer.empty((self.M // self.B, self.N // self.B), "f32")

    def program_a(self):
        k = racer.triton(kernel(BQ, IMPLS + "_fp8_blockwise_weight_quant_kernel_impl", self.mutate), BLOCK_SIZE=self.B)
        racer.launch(k, grid=(self.M // self.B, self.N // self.B),
                     args=[racer.read(self.x), racer.write(self.y), racer.write(self.s), self.M, self.N])
        return {"y": self.y, "s": self.s}

    def program_b(self):
        racer.launch(ref("torchao_ops.cu", "quant_amax_over_448"), grid=1, block=32,
                     args=[racer.read(self.x), racer.write(self.y), racer.write(self.s), self.M, self.N, self.B,
                           self.B])
        return {"y": self.y, "s": self.s}


class TorchaoBlockwiseWeightQuant(_WeightQuant, Row):
    """torchao fp8_blockwise_weight_quant: per 16 x 16 block s = amax / 448, y = e4m3(x / s)"""


class TorchaoBlockwiseWeightQuantScaleIndexMutant(_WeightQuant, Mutation):
    """mutation: the scale of block (i, j) is stored at i * n + i (a wrong column index)"""
    mutate = [("tl.store(s_ptr + pid_m * n + pid_n, s)", "tl.store(s_ptr + pid_m * n + pid_m, s)")]


class _WeightDequant:
    """torchao _fp8_blockwise_weight_dequant_kernel_impl (fp8_blockwise_weight_dequant): x[32][48] e4m3, s[2][3]
    per 16 x 16 block (block_size=16), y = x * s in f32; grid (2, 3), 4 warps"""
    mutate = None
    M, N, B = 32, 48, 16

    def setup(self):
        self.x = racer.input((self.M, self.N), "fp8e4m3")
        self.s = racer.input((self.M // self.B, self.N // self.B), "f32", range=(1e-3, 1))
        self.y = racer.empty((self.M, self.N), "f32")

    def program_a(self):
        k = racer.triton(kernel(BQ, IMPLS + "_fp8_blockwise_weight_dequant_kernel_impl", self.mutate),
                         BLOCK_SIZE=self.B)
        racer.launch(k, grid=(self.M // self.B, self.N // self.B),
                     args=[racer.read(self.x), racer.read(self.s), racer.write(self.y), self.M, self.N])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("torchao_ops.cu", "dequant_blocks"), grid=(self.M * self.N + 127) // 128, block=128,
                     args=[racer.read(self.x), racer.read(self.s), racer.write(self.y), self.M, self.N, self.B])
        return {"y": self.y}


class TorchaoBlockwiseWeightDequant(_WeightDequant, Row):
    """torchao fp8_blockwise_weight_dequant: y = x * s of the x's 16 x 16 block"""


class TorchaoBlockwiseWeightDequantBlocksPerRowMutant(_WeightDequant, Mutation):
    """mutation: the blocks per row counted with floor division of M (the row count) instead of cdiv of N"""
    mutate = [("n = tl.cdiv(N, BLOCK_SIZE)", "n = M // BLOCK_SIZE")]


BT = "torchao.prototype.blockwise_fp8_training.kernels"
FP8_MAX, EPS = 448.0, 1e-12  # torch.finfo(float8_e4m3fn).max, the modules' EPS


class _TrainQuant:
    """torchao blockwise fp8 training quantization (prototype/blockwise_fp8_training/kernels.py): scale =
    448 / max(amax, 1e-12) of each group (in f64), y = e4m3(clamp(x scale)), the reciprocal scale stored"""
    mutate = None
    entry = None  # the kernel
    M = K = B = 0
    gm = gk = 1  # the reference's group shape
    ys = ss = (0, 0)  # strides of y and s as the host allocates them
    yshape = sshape = ()
    grid = ()
    extra = {}
    warps = 4

    def setup(self):
        self.x = racer.input((self.M, self.K), "f32", range=(-8, 8))
        self.y = racer.empty(self.yshape, "fp8e4m3")
        self.s = racer.empty(self.sshape, "f32")

    def program_a(self):
        k = racer.triton(kernel(BT, self.entry, self.mutate), BLOCK_SIZE=self.B, EPS=EPS, FP8_MAX=FP8_MAX,
                         num_warps=self.warps, **self.extra)
        racer.launch(k, grid=self.grid, args=[racer.read(self.x), self.K, 1, racer.write(self.y), *self.ys,
                                              racer.write(self.s), *self.ss, self.M])
        return {"y": self.y, "s": self.s}

    def program_b(self):
        racer.launch(ref("torchao_ops.cu", "quant_groups_reciprocal"), grid=1, block=64,
                     args=[racer.read(self.x), racer.write(self.y), racer.write(self.s), self.M, self.K, self.gm,
                           self.gk, *self.ys_ref, *self.ss_ref, FP8_MAX, EPS])
        return {"y": self.y, "s": self.s}


class _ActLhs(_TrainQuant):
    """torchao triton_fp8_blockwise_act_quant_lhs_kernel (triton_fp8_blockwise_act_quant_lhs): x[4][64] f32 in
    1 x 32 groups (block_size=32), y row-major, reciprocal scales s[4][2] column-major (strides 1, 4);
    K=64, BLOCK_SIZE=32, NUM_GROUPS=2 (the smallest autotune config), grid (2, 2), 2 warps"""
    entry = "triton_fp8_blockwise_act_quant_lhs_kernel"
    M, K, B, gm, gk = 4, 64, 32, 1, 32
    yshape, sshape = (4, 64), (4, 2)
    ys, ss, ys_ref, ss_ref = (64, 1), (1, 4), (64, 1), (1, 4)
    grid, extra, warps = (2, 2), {"K": 64, "NUM_GROUPS": 2}, 2


class TorchaoTrainActQuantLhs(_ActLhs, Row):
    """torchao triton_fp8_blockwise_act_quant_lhs: 1 x 32 groups, y = e4m3(clamp(x 448 / amax)), s = amax / 448"""


class TorchaoTrainActQuantLhsScaleNotInvertedMutant(_ActLhs, Mutation):
    """mutation: the scale itself is stored where the dequantization scale (its reciprocal) belongs"""
    mutate = [("tl.store(s_ptr + scale_offs, tl.div_rn(1.0, scale), mask=scale_mask)",
               "tl.store(s_ptr + scale_offs, scale, mask=scale_mask)")]


class _ActRhs(_TrainQuant):
    """torchao triton_fp8_blockwise_act_quant_rhs_kernel (triton_fp8_blockwise_act_quant_rhs): x[32][16] f32 in
    16 x 1 groups (block_size=16), y column-major (strides 1, 32), scales s[2][16] row-major; K=16,
    BLOCK_SIZE=16, NUM_GROUPS=2, grid (2, 8), 2 warps"""
    entry = "triton_fp8_blockwise_act_quant_rhs_kernel"
    M, K, B, gm, gk = 32, 16, 16, 16, 1
    yshape, sshape = (32, 16), (2, 16)
    ys, ss, ys_ref, ss_ref = (1, 32), (16, 1), (1, 32), (16, 1)
    grid, extra, warps = (2, 8), {"K": 16, "NUM_GROUPS": 2}, 2


class TorchaoTrainActQuantRhs(_ActRhs, Row):
    """torchao triton_fp8_blockwise_act_quant_rhs: 16 x 1 groups, column-major e4m3 output"""


class TorchaoTrainActQuantRhsScaleMaskMutant(_ActRhs, Mutation):
    """mutation: an off-by-one scale mask drops the last column's scale"""
    mutate = [("scale_mask = k_offs[None, :] < K\n", "scale_mask = k_offs[None, :] < K - 1\n")]


class TorchaoTrainActQuantTransposedLhs(_TrainQuant, Row):
    """torchao triton_fp8_blockwise_act_quant_transposed_lhs_kernel (triton_fp8_blockwise_act_quant_transposed_lhs):
    x[32][16] f32, scales per 16 x 1 column group (block_size=16), y = x^T [16][32] row-major, reciprocal scales
    [16][2] column-major (strides 1, 16); K=16, BLOCK_SIZE=16, NUM_GROUPS=2, grid (2, 8), 2 warps"""
    entry = "triton_fp8_blockwise_act_quant_transposed_lhs_kernel"
    M, K, B, gm, gk = 32, 16, 16, 16, 1
    yshape, sshape = (16, 32), (16, 2)
    ys, ss, ys_ref, ss_ref = (32, 1), (1, 16), (1, 32), (16, 1)
    grid, extra, warps = (2, 8), {"K": 16, "NUM_GROUPS": 2}, 2


class _WeightRhs(_TrainQuant):
    """torchao triton_fp8_blockwise_weight_quant_rhs_kernel (triton_fp8_blockwise_weight_quant_rhs): x[32][32] f32
    in 16 x 16 blocks (block_size=16), y column-major (strides 1, 32), reciprocal scales [2][2] column-major
    (strides 1, 2); M=32, N=32, BLOCK_SIZE=16, grid (2, 2), 4 warps"""
    entry = "triton_fp8_blockwise_weight_quant_rhs_kernel"
    M, K, B, gm, gk = 32, 32, 16, 16, 16
    yshape, sshape = (32, 32), (2, 2)
    ys, ss, ys_ref, ss_ref = (1, 32), (1, 2), (1, 32), (1, 2)
    grid, extra = (2, 2), {"M": 32, "N": 32}

    def program_a(self):
        k = racer.triton(kernel(BT, self.entry, self.mutate), BLOCK_SIZE=self.B, EPS=EPS, FP8_MAX=FP8_MAX,
                         num_warps=self.warps, **self.extra)
        racer.launch(k, grid=self.grid, args=[racer.read(self.x), self.K, 1, racer.write(self.y), *self.ys,
                                              racer.write(self.s), *self.ss])
        return {"y": self.y, "s": self.s}


class TorchaoTrainWeightQuantRhs(_WeightRhs, Row):
    """torchao triton_fp8_blockwise_weight_quant_rhs: 16 x 16 blocks, column-major e4m3 output"""


class TorchaoTrainWeightQuantRhsRowMajorMutant(_WeightRhs, Mutation):
    """mutation: the output offsets swap the strides, writing y row-major into the column-major tensor"""
    mutate = [("y_offs = offs_m[:, None] * y_stride_dim_0 + offs_n[None, :] * y_stride_dim_1",
               "y_offs = offs_m[:, None] * y_stride_dim_1 + offs_n[None, :] * y_stride_dim_0")]


class TorchaoTrainWeightQuantTransposedRhs(_WeightRhs, Row):
    """torchao triton_fp8_blockwise_weight_quant_transposed_rhs_kernel: x[32][48] f32 in 16 x 16 blocks, y = x^T
    [48][32] column-major (strides 1, 48), reciprocal scales [3][2] column-major (strides 1, 3); M=32, N=48,
    BLOCK_SIZE=16, grid (2, 3), 4 warps"""
    entry = "triton_fp8_blockwise_weight_quant_transposed_rhs_kernel"
    M, K, B, gm, gk = 32, 48, 16, 16, 16
    yshape, sshape = (48, 32), (3, 2)
    ys, ss, ys_ref, ss_ref = (1, 48), (1, 3), (48, 1), (3, 1)
    grid, extra = (2, 3), {"M": 32, "N": 48}


F8R = "torchao.prototype.moe_training.kernels.float8_rowwise"
E, KR, NR = 2, 4, 40  # experts, rows (K), columns (N) of the MoE weight (E, K, N)


class _Rowwise3d:
    """torchao _triton_fp8_rowwise_3d_transpose_rhs_fused_reduction_kernel (moe_training/kernels/float8_rowwise.py,
    triton_fp8_rowwise_3d_transpose_rhs_fused_reduction): hp (2, 4, 40) f32, per (expert, k) row scale =
    448 / max(amax, 1e-12) (f64), output (E, N, K) column-major (strides N K, 1, N: x's layout), scales (2, 4);
    the one config BLOCK_SIZE_N 64, BLOCK_SIZE_K 128, 8 warps; grid (2, 1, 1)"""
    mutate = None

    def setup(self):
        self.x = racer.input((E, KR, NR), "f32", range=(-8, 8))
        self.y = racer.empty((E, NR, KR), "fp8e4m3", strides=(NR * KR, 1, NR))
        self.s = racer.empty((E, KR), "f32")

    def program_a(self):
        k = racer.triton(kernel(F8R, "_triton_fp8_rowwise_3d_transpose_rhs_fused_reduction_kernel", self.mutate),
                         fp8_dtype_min=-FP8_MAX, fp8_dtype_max=FP8_MAX, input_dtype=tl.float32,
                         output_dtype=tl.float8e4nv, round_scales_to_power_of_2=False, BLOCK_SIZE_N=64,
                         BLOCK_SIZE_K=128, EPS=EPS, num_warps=8)
        racer.launch(k, grid=(E, 1, 1), args=[racer.read(self.x), KR * NR, NR, 1, racer.write(self.y), NR * KR, 1, NR,
                                              racer.write(self.s), KR, 1, E, NR, KR])
        return {"y": self.y, "s": self.s}

    def program_b(self):
        racer.launch(ref("torchao_ops.cu", "rowwise_scale_cast"), grid=1, block=32,
                     args=[racer.read(self.x), racer.write(self.y), racer.write(self.s), E * KR, NR, FP8_MAX, EPS])
        return {"y": self.y, "s": self.s}


class TorchaoRowwise3dFused(_Rowwise3d, Row):
    """torchao fused row-wise fp8 quantization of MoE weights (E, K, N), written transposed column-major"""


class TorchaoRowwise3dFusedSecondPassStrideMutant(_Rowwise3d, Mutation):
    """mutation: the second pass reads the input with the output's column stride (N instead of 1)"""
    mutate = [("                + n_offs[None, :] * stride_input_dim2\n            )\n"
               "            input_mask = k_mask[:, None] & n_mask[None, :]\n"
               "            input_data = tl.load(input_ptr + input_offs, mask=input_mask, other=0.0)\n\n"
               "            # Transpose",
               "                + n_offs[None, :] * stride_output_dim2\n            )\n"
               "            input_mask = k_mask[:, None] & n_mask[None, :]\n"
               "            input_data = tl.load(input_ptr + input_offs, mask=input_mask, other=0.0)\n\n"
               "            # Transpose")]


TW = "torchao.prototype.float8nocompile.kernels.fp8_dynamic_tensorwise"
R, C = 3, 40


class _CastRowMajor:
    """torchao _to_fp8_row_major (prototype/float8nocompile/kernels/fp8_dynamic_tensorwise.py, hp_to_fp8_row_major):
    x[3][40] f32 times a given scale, clamped to [-448, 448], cast to e4m3; the first autotune config
    BLOCK_SIZE 128, 1 warp; grid cdiv(120, 128) = 1"""
    mutate = None

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-8, 8))
        self.scale = racer.input((1,), "f32", range=(1, 100))
        self.y = racer.empty((R, C), "fp8e4m3")

    def program_a(self):
        k = racer.triton(kernel(TW, "_to_fp8_row_major", self.mutate), input_dtype=tl.float32,
                         output_dtype=tl.float8e4nv, BLOCK_SIZE=128, EPS=EPS, num_warps=1)
        racer.launch(k, grid=1, args=[racer.read(self.x), racer.write(self.y), racer.read(self.scale), R * C,
                                      -FP8_MAX, FP8_MAX])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref("torchao_ops.cu", "tensorwise_cast"), grid=1, block=128,
                     args=[racer.read(self.x), racer.read(self.scale), racer.write(self.y), R, C, C, 1, -FP8_MAX,
                           FP8_MAX])
        return {"y": self.y}


class TorchaoTensorwiseCastRowMajor(_CastRowMajor, Row):
    """torchao _to_fp8_row_major: y = e4m3(clamp(x scale, -448, 448))"""


class TorchaoTensorwiseCastDividesMutant(_CastRowMajor, Mutation):
    """mutation: the value is divided by the scale (the dequantization direction) instead of multiplied"""
    mutate = [("    vals = vals * scale\n", "    vals = vals / scale\n")]


class _CastRowAndCol:
    """torchao _to_fp8_row_and_col_major (hp_to_fp8_row_and_col_major): x[3][40] f32 scaled, clamped and cast
    to e4m3, written row-major and column-major; the first autotune config BLOCK_SIZE_ROWS 32, BLOCK_SIZE_COLS 32,
    1 warp; grid (1, 2)"""
    mutate = None

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-8, 8))
        self.scale = racer.input((1,), "f32", range=(1, 100))
        self.y = racer.empty((R, C), "fp8e4m3")
        self.yc = racer.empty((R, C), "fp8e4m3", strides=(1, R))

    def program_a(self):
        k = racer.triton(kernel(TW, "_to_fp8_row_and_col_major", self.mutate), input_dtype=tl.float32,
                         output_dtype=tl.float8e4nv, BLOCK_SIZE_ROWS=32, BLOCK_SIZE_COLS=32, EPS=EPS, num_warps=1)
        racer.launch(k, grid=(1, 2), args=[racer.read(self.x), racer.write(self.y), racer.write(self.yc),
                                           racer.read(self.scale), R * C, -FP8_MAX, FP8_MAX, R, C])
        return {"y": self.y, "yc": self.yc}

    def program_b(self):
        racer.launch(ref("torchao_ops.cu", "tensorwise_cast_both"), grid=1, block=128,
                     args=[racer.read(self.x), racer.read(self.scale), racer.write(self.y), racer.write(self.yc), R, C,
                           -FP8_MAX, FP8_MAX])
        return {"y": self.y, "yc": self.yc}


class TorchaoTensorwiseCastRowAndCol(_CastRowAndCol, Row):
    """torchao _to_fp8_row_and_col_major: the e4m3 cast written row-major and column-major"""


class TorchaoTensorwiseCastRowAndColStrideMutant(_CastRowAndCol, Mutation):
    """mutation: the column-major offsets step columns by the column count instead of the row count"""
    mutate = [("col_major_offs = block_col_offs[None, :] * num_rows + block_row_offs[:, None]",
               "col_major_offs = block_col_offs[None, :] * num_cols + block_row_offs[:, None]")]


class _ScaleReduction:
    """torchao _amax_reduction + _scale_reduction (fp8_dynamic_tensorwise.py, _hp_tensor_to_scale with
    KernelAlgorithm.REDUCTION): x[2][16] f32; block_size next_power_of_2(min(4096, 32)) = 32, 8 warps, one
    block amax, then scale = 448 / max(amax, 1e-12) (an f64 division; the clamp's 1e-12 is the f32 constant,
    as Triton types a Python float constexpr); grids 1 and (1, 1, 1)"""
    R, C = 2, 16
    mutate = None

    def setup(self):
        self.x = racer.input((self.R, self.C), "f32", range=(-8, 8))
        self.amaxes = racer.empty((1,), "f32")
        self.scale = racer.empty((1,), "f32")

    def program_a(self):
        n = self.R * self.C
        a = racer.triton(kernel(TW, "_amax_reduction"), input_dtype=tl.float32, BLOCK_SIZE=n, EPS=EPS, num_warps=8)
        racer.launch(a, grid=1, args=[racer.read(self.x), racer.write(self.amaxes), n])
        s = racer.triton(kernel(TW, "_scale_reduction", self.mutate), BLOCK_SIZE=n, EPS=EPS)
        racer.launch(s, grid=(1, 1, 1), args=[racer.read(self.amaxes), racer.write(self.scale), n, FP8_MAX])
        return {"scale": self.scale}

    def program_b(self):
        racer.launch(ref("torchao_ops.cu", "tensorwise_scale"), grid=1, block=32,
                     args=[racer.read(self.x), racer.write(self.scale), self.R * self.C, FP8_MAX, EPS])
        return {"scale": self.scale}


class TorchaoTensorwiseScaleReduction(_ScaleReduction, Row):
    """torchao tensorwise fp8 scale by reduction: 448 / max(amax(|x|), 1e-12)"""


class TorchaoTensorwiseScaleReductionNoEpsMutant(_ScaleReduction, Mutation):
    """mutation: the epsilon clamp is forgotten, so an all-zero tensor gets an infinite scale"""
    mutate = [('scale = (fp8_dtype_max / tl.clamp(global_amax, min=EPS, max=float("inf"))).to(',
               "scale = (fp8_dtype_max / global_amax).to(")]


class TorchaoTensorwiseScaleReductionLargeEpsMutant(_ScaleReduction, Mutation):
    """mutation: a wrong epsilon constant (1e-4 for 1e-12) clamps small but ordinary maxima"""
    mutate = [('tl.clamp(global_amax, min=EPS, max=float("inf"))', 'tl.clamp(global_amax, min=1e-4, max=float("inf"))')]


class TorchaoTensorwiseScaleAtomic(Row):
    """torchao _amax_atomic + _scale_atomic (_hp_tensor_to_scale with KernelAlgorithm.ATOMIC_MAX, the default):
    x[3][96] f32, global amax zero-initialized and combined by tl.atomic_max over the blocks of the first autotune
    config (BLOCK_SIZE 128, 1 warp, grid cdiv(288, 128) = 3), then scale = 448 / max(amax, 1e-12) (f64)"""

    def setup(self):
        self.x = racer.input((R, 96), "f32", range=(-8, 8))
        self.amax = racer.zeros((1,), "f32")
        self.scale = racer.empty((1,), "f32")

    def program_a(self):
        a = racer.triton(kernel(TW, "_amax_atomic"), input_dtype=tl.float32, BLOCK_SIZE=128, EPS=EPS, num_warps=1)
        racer.launch(a, grid=3, args=[racer.read(self.x), racer.readwrite(self.amax), R * 96])
        s = racer.triton(kernel(TW, "_scale_atomic"), EPS=EPS)
        racer.launch(s, grid=(1, 1, 1), args=[racer.read(self.amax), racer.write(self.scale), FP8_MAX])
        return {"scale": self.scale}

    def program_b(self):
        racer.launch(ref("torchao_ops.cu", "tensorwise_scale"), grid=1, block=32,
                     args=[racer.read(self.x), racer.write(self.scale), R * 96, FP8_MAX, EPS])
        return {"scale": self.scale}


class _RowwiseScalesAtomic:
    """torchao _triton_fp8_rowwise_3d_transpose_scales_rhs_kernel (float8_rowwise.py,
    triton_fp8_rowwise_3d_transpose_rhs): hp (2, 4, 40) f32, per (expert, k) row scale = 448 / max(amax, 1e-12)
    (f64), combined by tl.atomic_min into scales (2, 4) initialized to inf; the one config BLOCK_SIZE_N 128,
    BLOCK_SIZE_K 128, 4 warps; grid (2, 1, 1)"""
    mutate = None

    def setup(self):
        self.x = racer.input((E, KR, NR), "f32", range=(-8, 8))
        self.s = racer.full((E, KR), float("inf"), "f32")

    def program_a(self):
        k = racer.triton(kernel(F8R, "_triton_fp8_rowwise_3d_transpose_scales_rhs_kernel", self.mutate),
                         fp8_dtype_min=-FP8_MAX, fp8_dtype_max=FP8_MAX, input_dtype=tl.float32,
                         round_scales_to_power_of_2=False, BLOCK_SIZE_N=128, BLOCK_SIZE_K=128, EPS=EPS, num_warps=4)
        racer.launch(k, grid=(E, 1, 1), args=[racer.read(self.x), KR * NR, NR, 1, racer.readwrite(self.s), KR, 1,
                                              E, NR, KR])
        return {"s": self.s}

    def program_b(self):
        racer.launch(ref("torchao_ops.cu", "rowwise_scales"), grid=1, block=32,
                     args=[racer.read(self.x), racer.write(self.s), E * KR, NR, FP8_MAX, EPS])
        return {"s": self.s}


class TorchaoRowwiseScalesAtomic(_RowwiseScalesAtomic, Row):
    """torchao row-wise fp8 scales of MoE weights by atomic min: 448 / max(amax of the row, 1e-12)"""


class TorchaoRowwiseScalesAtomicColumnAxisMutant(_RowwiseScalesAtomic, Mutation):
    """mutation: the amax is taken down the columns (axis 0) of the (K, N) tile, not along each row"""
    mutate = [("amaxes = tl.max(tl.abs(input_data), axis=1).to(tl.float64)  # (K,)",
               "amaxes = tl.max(tl.abs(input_data), axis=0).to(tl.float64)  # (K,)")]


IMM = "torchao.kernel.intmm_triton"
MM = 32  # int8 matmuls: M = N = K = 32


class _IntMatmul:
    """torchao matmul_kernel_with_block_pointers (kernel/intmm_triton.py, int_matmul_kernel): int8 a[32][32] x
    b[32][32] -> int32 c with block pointers; config BLOCK_M = BLOCK_N = BLOCK_K = 32, GROUP_M 8 (the first of
    int8_mm_kernel_configs at 32 x 32 x 32 with 4 warps, 1 stage); grid 1"""
    mutate = None

    def setup(self):
        self.a = racer.input((MM, MM), "i8")
        self.b = racer.input((MM, MM), "i8")
        self.c = racer.empty((MM, MM), "i32")

    def program_a(self):
        k = racer.triton(kernel(IMM, "matmul_kernel_with_block_pointers", self.mutate), BLOCK_M=32, BLOCK_N=32,
                         BLOCK_K=32, GROUP_M=8, num_warps=4)
        racer.launch(k, grid=1, args=[racer.read(self.a), racer.read(self.b), racer.write(self.c), MM, MM, MM,
                                      MM, 1, MM, 1, MM, 1])
        return {"c": self.c}

    def program_b(self):
        racer.launch(ref("torchao_ops.cu", "int8_matmul"), grid=(MM * MM + 127) // 128, block=128,
                     args=[racer.read(self.a), racer.read(self.b), racer.write(self.c), MM, MM, MM])
        return {"c": self.c}


class TorchaoIntMatmul(_IntMatmul, Row):
    """torchao int_matmul: int8 x int8 -> int32 with tl.dot on block pointers"""


class TorchaoIntMatmulTransposedBMutant(_IntMatmul, Mutation):
    """mutation: b's block pointer swaps its strides (reads b transposed)"""
    mutate = [("strides=(stride_bk, stride_bn),", "strides=(stride_bn, stride_bk),")]


class _IntScaledMatmul:
    """torchao scaled_matmul_kernel_with_block_pointers (intmm_triton.py, int_scaled_matmul_kernel): int8
    a[32][32] x b[32][32] -> int32 accumulator times the row scale s[32][1] (f32), c f32 (scales1's dtype);
    BLOCK_M = BLOCK_N = BLOCK_K = 32, GROUP_M 8, EVEN_K (32 % 2 == 0), 4 warps; grid 1"""
    mutate = None

    def setup(self):
        self.a = racer.input((MM, MM), "i8")
        self.b = racer.input((MM, MM), "i8")
        self.s = racer.input((MM, 1), "f32", range=(1e-3, 1))
        self.c = racer.empty((MM, MM), "f32")

    def program_a(self):
        k = racer.triton(kernel(IMM, "scaled_matmul_kernel_with_block_pointers", self.mutate), BLOCK_M=32,
                         BLOCK_N=32, BLOCK_K=32, GROUP_M=8, EVEN_K=True, ACC_TYPE=tl.int32, num_warps=4)
        racer.launch(k, grid=1, args=[racer.read(self.a), racer.read(self.b), racer.write(self.c), racer.read(self.s),
                                      MM, MM, MM, MM, 1, MM, 1, MM, 1, 1, 1])
        return {"c": self.c}

    def program_b(self):
        racer.launch(ref("torchao_ops.cu", "int8_matmul_row_scaled"), grid=(MM * MM + 127) // 128, block=128,
                     args=[racer.read(self.a), racer.read(self.b), racer.read(self.s), racer.write(self.c), MM, MM, MM])
        return {"c": self.c}


class TorchaoIntScaledMatmul(_IntScaledMatmul, Row):
    """torchao int_scaled_matmul: float(int8 a x int8 b) times a per-row scale"""


class TorchaoIntScaledMatmulColumnScaleMutant(_IntScaledMatmul, Mutation):
    """mutation: the scale is indexed by the output column instead of the row"""
    mutate = [("s1_ptr + (tl.broadcast_to(idx_m, mask.shape)),", "s1_ptr + (tl.broadcast_to(idx_n, mask.shape)),")]


MX = "torchao.prototype.mx_formats.kernels"
SR, SC = 40, 6  # e8m0 block scales: rows, columns (padded to 128 x 8)


class _ScaleSwizzle:
    """torchao triton_scale_swizzle (prototype/mx_formats/kernels.py, triton_mx_block_rearrange): u8 scales [40][6]
    into the block-scaled layout padded to 128 x 8; BLOCK_ROWS 128, BLOCK_COLS 4, output_block_stride
    128 * 4 * 2 = 1024, grid (1, 2), 4 warps"""
    mutate = None

    def setup(self):
        self.x = racer.input((SR, SC), "u8")
        self.out = racer.empty((128, 8), "u8")

    def program_a(self):
        k = racer.triton(kernel(MX, "triton_scale_swizzle", self.mutate), BLOCK_ROWS=128, BLOCK_COLS=4)
        racer.launch(k, grid=(1, 2), args=[racer.read(self.x), SR, SC, racer.write(self.out), SC, 1, 1024])
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref("torchao_ops.cu", "mx_scale_swizzle"), grid=8, block=128,
                     args=[racer.read(self.x), racer.write(self.out), SR, SC, 128, 8])
        return {"out": self.out}


class TorchaoMxScaleSwizzle(_ScaleSwizzle, Row):
    """torchao triton_mx_block_rearrange: 128 x 4 tiles, (r mod 32) 16 + (r / 32) 4 + c within a tile"""


class TorchaoMxScaleSwizzleColumnMaskMutant(_ScaleSwizzle, Mutation):
    """mutation: an off-by-one column mask reads one scale past each row into the padding"""
    mutate = [("mask = (global_rows < scale_rows) & (global_cols < scale_cols)",
               "mask = (global_rows < scale_rows) & (global_cols <= scale_cols)")]
