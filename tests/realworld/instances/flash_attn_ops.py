"""flash-attn 2.8.3.post2 (Dao-AILab's FlashAttention package; its CUDA attention kernels are not Triton): the Triton
kernels of flash_attn/ops/triton/ against reference/flash_attn_ops.cu.

- cross_entropy.py: cross_entropy_fwd_kernel (loss, lse, z-loss; label smoothing, logit_scale, lse_square_scale,
  ignore_index, PRECOMPUTED_LSE, the tensor-parallel SPLIT form with class_start_idx) and cross_entropy_bwd_kernel
  (dlogits; the vocabulary split across programs in BLOCK_SIZE columns), launched as CrossEntropyLoss does: grid
  (n_rows,) and (n_rows, cdiv(n_cols, BLOCK_SIZE)), BLOCK_SIZE next_power_of_2(n_cols) capped at 16 K (forward) and
  4 K (backward), 4 warps below 2048 columns. The rows that need several blocks scale the caps down to 32.
- layer_norm.py: _layer_norm_fwd_1pass_kernel and _layer_norm_bwd_kernel as _layer_norm_fwd_impl /
  _layer_norm_bwd_impl launch them for layer_norm_fn, rms_norm_fn and LayerNormLinearFn: grid (M,), BLOCK_N
  min(65536 // element size, next_power_of_2(N)), the HAS_* constexprs from which tensors are given; the backward
  over grid (sm_count,) with rows_per_program = ceil(M / sm_count) and per-program dw/db partial sums, sm_count (8 x
  the SMs, 1056 on an H100) scaled down to 4. Their autotuners pick num_warps by timing: the rows take 4 (1 for two
  RMSNorm rows). Dropout (tl.rand, Philox with 7 rounds) is checked with fixed seeds, as the host's torch.randint
  would give them: the masks are concrete and the reference computes the same Philox stream.
- rotary.py: rotary_kernel as apply_rotary launches it: grid (cdiv(nheads, 2), cdiv(seqlen, 8), batch), BLOCK_H 2,
  BLOCK_M 8 (rotary_dim <= 128), 4 warps; halves and interleaved pairs, int and tensor seqlen_offsets, conjugate,
  variable lengths (cu_seqlens), partial rotary in place. (vllm_ops.py checks vLLM's vendored copy once.)
- linear.py with k_activations.py: kernel_fwd (x w^T + bias, a fused activation, the pre-activation saved) and
  kernel_bwd (the gradient through the activation) as triton_linear_act / triton_dgrad_act launch them for
  FusedDenseSqreluDense (ops/triton/mlp.py; f16, squared ReLU), with one of their autotuners' io-bound configs.
  linear.py itself does not import with Triton 3.6 (it imports triton.ops.matmul_perf_model, which Triton no longer
  has), so the library cannot run these kernels there; the loader reads them from source without that import.
  k_activations' gelu and gelu_grad call tl.libdevice.erf (gone from Triton 3) and gelu_approx reads the module
  global _sqrt2pi (a plain float, which Triton 3.6 refuses in a kernel): kernel_fwd with ACTIVATION "gelu" or
  "gelu_approx" does not compile, so the forward rows use squared ReLU; gelu_approx_grad (literal constants) does.

Found by reading and confirmed: kernel_fwd computes its store mask and does not use it (`tl.store(C, acc)`), while
its loads wrap rows and columns (rm % M, rn % N). With M not a multiple of BLOCK_M (any batch x seqlen), the last
row block writes past the output (FaLinearRaggedRows: Racer lists the out-of-bounds writes; the outputs are right);
with N not a multiple of BLOCK_N, the wrapped columns' values, without the bias, land on the next row's first
columns and race with their own program (FaLinearRaggedCols). On an H100 (gpu_compare.py) the second row's outputs
differed from the reference by up to 51 (of values up to 66); the first row's outputs matched, but under
compute-sanitizer (allocations laid out differently) its act_input came out wrong by up to 57.5, as the stray rows of
the output tensor landing on the tensor allocated after it would make it.

Not rows: flash_attn/flash_attn_triton.py is written for Triton 2.0 (tl.dot(..., trans_b=True)) and does not compile
with Triton 3.6; ops/activations.py's swiglu is a CUDA jiterator kernel, not Triton."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
from common import Mutation, Row, cdiv, kernel, next_power_of_2, ref  # noqa: E402

CE = "flash_attn.ops.triton.cross_entropy"
LN = "flash_attn.ops.triton.layer_norm"
ROT = "flash_attn.ops.triton.rotary"
LIN = "flash_attn.ops.triton.linear"
REF = "flash_attn_ops.cu"
IGNORE = -100


# ---------------------------------------------------------------------------------------------------------------
# cross_entropy.py


class _CeFwd:
    """cross_entropy_fwd_kernel as CrossEntropyLoss.forward launches it: grid (n_rows,), BLOCK_SIZE
    min(next_power_of_2(n_cols), 16 * 1024), num_warps 4 below 2048 columns, HAS_SMOOTHING = smoothing > 0 (its
    heuristic), SPLIT = world_size > 1, losses, lse, z_losses f32. Each rank of a tensor-parallel group launches it
    on its own shard of n_cols classes with class_start_idx = rank * n_cols, total_classes = world_size * n_cols."""
    mutate = None
    R, V, ranks, dtype = 3, 40, 1, "f32"
    labels = [3, 17, 39]
    smoothing, scale, zs = 0.0, 1.0, 0.0
    block = None  # BLOCK_SIZE: next_power_of_2(V) unless scaled down
    precomputed = False
    free_labels = False  # labels free over the classes (racer.input), not fixed

    def setup(self):
        for r in range(self.ranks):  # rank r's shard of the logits, its losses and lse
            setattr(self, f"x{r}", racer.input((self.R, self.V), self.dtype, range=(-6, 6)))
            setattr(self, f"loss{r}", racer.empty((self.R,), "f32"))
            setattr(self, f"lse{r}", racer.input((self.R,), "f32", range=(-2, 8)) if self.precomputed
                    else racer.empty((self.R,), "f32"))
        self.x, self.loss = [getattr(self, f"x{r}") for r in range(self.ranks)], \
            [getattr(self, f"loss{r}") for r in range(self.ranks)]
        self.lse = [getattr(self, f"lse{r}") for r in range(self.ranks)]
        self.t = racer.input((self.R,), "i64", range=(0, self.ranks * self.V - 1)) if self.free_labels else \
            racer.values(self.labels, dtype="i64")
        self.z_loss = racer.empty((self.R,), "f32")

    def outputs(self):
        out = {f"loss{r}": self.loss[r] for r in range(self.ranks)}
        if not self.precomputed:
            out.update({f"lse{r}": self.lse[r] for r in range(self.ranks)})
        if self.ranks == 1:
            out["z_loss"] = self.z_loss
        return out

    def program_a(self):
        block = self.block or min(next_power_of_2(self.V), 16 * 1024)
        k = racer.triton(kernel(CE, "cross_entropy_fwd_kernel", self.mutate), BLOCK_SIZE=block,
                         HAS_SMOOTHING=self.smoothing > 0, SPLIT=self.ranks > 1, PRECOMPUTED_LSE=self.precomputed,
                         num_warps=4)
        for r in range(self.ranks):
            lse = racer.read(self.lse[r]) if self.precomputed else racer.write(self.lse[r])
            racer.launch(k, grid=self.R,
                         args=[racer.write(self.loss[r]), lse, racer.write(self.z_loss), racer.read(self.x[r]),
                               racer.read(self.t), self.smoothing, self.scale, self.zs, IGNORE, self.ranks * self.V,
                               r * self.V, self.V, self.V])
        return self.outputs()

    def program_b(self):
        for r in range(self.ranks):
            lse = racer.read(self.lse[r]) if self.precomputed else racer.write(self.lse[r])
            racer.launch(ref(REF, f"ce_fwd_{self.dtype}"), grid=1, block=self.R,
                         args=[racer.read(self.x[r]), racer.read(self.t), racer.write(self.loss[r]), lse,
                               racer.write(self.z_loss), self.R, self.V, self.V, racer.scalar(self.smoothing, "f32"),
                               racer.scalar(self.scale, "f32"), racer.scalar(self.zs, "f32"), IGNORE,
                               self.ranks * self.V, r * self.V, int(self.ranks > 1), int(self.precomputed)])
        return self.outputs()


class FaCrossEntropyFwd(_CeFwd, Row):
    """flash-attn cross_entropy_fwd_kernel (ops/triton/cross_entropy.py): loss, lse and z-loss of 3 rows of 40 f32
    logits, no smoothing, logit_scale 1, lse_square_scale 0; BLOCK_SIZE 64 (one masked block of the online
    softmax), grid (3,), 4 warps"""


class FaCrossEntropyFwdSmoothingScaleZLoss(_CeFwd, Row):
    """flash-attn cross_entropy_fwd_kernel with label smoothing 0.1, logit_scale 0.5 and lse_square_scale 1e-4
    (z-loss), the middle row's label ignore_index (-100): loss 0 and z-loss 0 there, its lse still stored"""
    labels = [3, IGNORE, 39]
    smoothing, scale, zs = 0.1, 0.5, 1e-4


class FaCrossEntropyFwdVocabBlocks(_CeFwd, Row):
    """flash-attn cross_entropy_fwd_kernel over a vocabulary longer than its block: the online softmax (running max
    and rescaled sum) and the smoothing sum over 3 blocks, the last one masked; bf16 logits [3][80], smoothing 0.1.
    MAX_BLOCK_SIZE 16 * 1024 is scaled down to 32 (the loop runs when n_cols > 16384 in the library)"""
    V, dtype, block = 80, "bf16", 32
    labels = [0, 45, 79]
    smoothing = 0.1


class FaCrossEntropyFwdTensorParallel(_CeFwd, Row):
    """flash-attn cross_entropy_fwd_kernel as two tensor-parallel ranks launch it (process_group of 2: SPLIT, each
    rank a [3][40] shard, class_start_idx 0 and 40, total_classes 80), smoothing 0.1: each rank's partial loss
    (minus the label's logit if the label is in its shard, the smoothing term) and its shard's lse, which the host
    then all-gathers and combines (torch, not checked here)"""
    ranks = 2
    labels = [3, 45, 79]
    smoothing = 0.1


class FaCrossEntropyFwdPrecomputedLse(_CeFwd, Row):
    """flash-attn cross_entropy_fwd_kernel with PRECOMPUTED_LSE (a precomputed_lse given, logit_scale 1, no
    smoothing): the lse is read, not computed; lse_square_scale 1e-4"""
    precomputed = True
    zs = 1e-4


class FaCrossEntropyFwdFreeLabelsTensorParallel(_CeFwd, Row):
    """flash-attn cross_entropy_fwd_kernel on two tensor-parallel ranks (as FaCrossEntropyFwdTensorParallel) with
    the labels free over all 80 classes (racer.input int64): each rank's branch on whether the label falls in its
    shard and its load of the label's logit at a data-dependent address, for every label; smoothing 0.1"""
    ranks = 2
    free_labels = True
    smoothing = 0.1


class FaCrossEntropyFwdSmoothingTotalMutant(_CeFwd, Mutation):
    """mutation: the smoothing term averages over the shard's n_cols instead of total_classes (wrong only under
    tensor parallelism, where they differ)"""
    ranks = 2
    labels = [3, 45, 79]
    smoothing = 0.1
    mutate = [("- smoothing * sum_logits / total_classes", "- smoothing * sum_logits / n_cols")]


class FaCrossEntropyFwdRescaleMutant(_CeFwd, Mutation):
    """mutation: the online softmax forgets to rescale the running sum when the max grows (l_i carried as is)"""
    V, dtype, block = 80, "bf16", 32
    labels = [0, 45, 79]
    mutate = [("l_i = tl.exp(m_i - m_i_new) * l_i + tl.sum(tl.exp(logits - m_i_new))",
               "l_i = l_i + tl.sum(tl.exp(logits - m_i_new))")]


class _CeBwd:
    """cross_entropy_bwd_kernel as CrossEntropyLoss.backward launches it: grid (n_rows, cdiv(n_cols, BLOCK_SIZE)),
    BLOCK_SIZE min(next_power_of_2(n_cols), 4 * 1024), num_warps 4 below 2048; dlogits in the logits' dtype, the lse
    saved by the forward (an input here), grad_losses with its stride (0 when it is the expanded gradient of a mean)"""
    mutate = None
    R, V, dtype = 3, 40, "f32"
    labels = [3, 17, 39]
    smoothing, scale, zs = 0.0, 1.0, 0.0
    block = None
    dstride = 1
    start, total = 0, None

    def setup(self):
        self.x = racer.input((self.R, self.V), self.dtype, range=(-6, 6))
        self.dloss = racer.input((self.R if self.dstride else 1,), "f32", range=(-2, 2))
        self.lse = racer.input((self.R,), "f32", range=(0, 8))
        self.t = racer.values(self.labels, dtype="i64")
        self.dlogits = racer.empty((self.R, self.V), self.dtype)

    def program_a(self):
        block = self.block or min(next_power_of_2(self.V), 4 * 1024)
        k = racer.triton(kernel(CE, "cross_entropy_bwd_kernel", self.mutate), BLOCK_SIZE=block,
                         HAS_SMOOTHING=self.smoothing > 0, num_warps=4)
        racer.launch(k, grid=(self.R, cdiv(self.V, block)),
                     args=[racer.write(self.dlogits), racer.read(self.dloss), racer.read(self.x), racer.read(self.lse),
                           racer.read(self.t), self.smoothing, self.scale, self.zs, IGNORE, self.total or self.V,
                           self.start, self.V, self.V, self.V, self.dstride])
        return {"dlogits": self.dlogits}

    def program_b(self):
        racer.launch(ref(REF, f"ce_bwd_{self.dtype}"), grid=cdiv(self.R * self.V, 128), block=128,
                     args=[racer.read(self.x), racer.read(self.dloss), racer.read(self.lse), racer.read(self.t),
                           racer.write(self.dlogits), self.R, self.V, racer.scalar(self.smoothing, "f32"),
                           racer.scalar(self.scale, "f32"), racer.scalar(self.zs, "f32"), IGNORE,
                           self.total or self.V, self.start, self.dstride])
        return {"dlogits": self.dlogits}


class FaCrossEntropyBwd(_CeBwd, Row):
    """flash-attn cross_entropy_bwd_kernel: dlogits = dloss (softmax - onehot) for 3 rows of 40 f32 logits;
    BLOCK_SIZE 64, grid (3, 1), 4 warps"""


class FaCrossEntropyBwdSmoothingScaleZLoss(_CeBwd, Row):
    """flash-attn cross_entropy_bwd_kernel with smoothing 0.1, logit_scale 0.5, lse_square_scale 1e-4, the middle
    row ignored (dloss taken as 0), grad_losses of stride 0 (the mean reduction's expanded scalar gradient)"""
    labels = [3, IGNORE, 39]
    smoothing, scale, zs = 0.1, 0.5, 1e-4
    dstride = 0


class FaCrossEntropyBwdVocabSplit(_CeBwd, Row):
    """flash-attn cross_entropy_bwd_kernel with the vocabulary split across programs: bf16 logits [3][80] of rank 1
    of 2 (class_start_idx 80, total_classes 160, labels 85, 159 in the shard and 3 outside), smoothing 0.1;
    BLOCK_SIZE 4 * 1024 scaled down to 32: grid (3, 3), the last column block masked"""
    V, dtype, block = 80, "bf16", 32
    labels = [85, 3, 159]
    smoothing = 0.1
    start, total = 80, 160


class FaCrossEntropyBwdLabelShiftMutant(_CeBwd, Mutation):
    """mutation: the label is not moved into the shard (class_start_idx not subtracted), so rank 1 subtracts the
    one-hot term at the wrong column"""
    V, dtype, block = 80, "bf16", 32
    labels = [85, 3, 159]
    smoothing = 0.1
    start, total = 80, 160
    mutate = [("    label_idx -= class_start_idx\n", "    label_idx -= 0\n")]


class FaCrossEntropyBwdZLossFactorMutant(_CeBwd, Mutation):
    """mutation: the z-loss gradient loses its factor 2 (d(zs lse^2) = 2 zs lse softmax)"""
    zs = 1e-4
    mutate = [("probs += 2.0 * lse_square_scale * lse * probs", "probs += lse_square_scale * lse * probs")]


# ---------------------------------------------------------------------------------------------------------------
# layer_norm.py

def _triton_args(k_fn, pointers, scalars, consts):
    """A kernel's runtime arguments in its parameter order: the pointers given as accesses, those given as None
    bound as constexpr None (as Triton binds a None argument), then the scalars (a dict by name)."""
    args = []
    for name in k_fn.arg_names:
        if name in pointers:
            if pointers[name] is None:
                consts[name] = None
            else:
                args.append(pointers[name])
        elif name in scalars:
            args.append(scalars[name])
    return args


LN_RMS, LN_BIAS, LN_RES, LN_STORE_RES, LN_X1, LN_W1, LN_B1, LN_ROWSCALE, LN_ZERO_CENTERED = \
    1, 2, 4, 8, 16, 32, 64, 128, 256
LN_DROPOUT, LN_STORE_MASK = 8192, 16384
LB_DRES, LB_STORE_DRES, LB_DY1, LB_RECOMPUTE, LB_DX1 = 512, 1024, 2048, 4096, 32768
# Dropout seeds as _layer_norm_fwd_impl draws them (torch.randint(2**32, (M or 2 M,)), int64), fixed here
SEEDS = [12345, 3735928559, 42, 2147483655, 987654321, 4000000000, 7, 1234567890, 2718281828, 31415926]


class _LnFwd:
    """_layer_norm_fwd_1pass_kernel as _layer_norm_fwd_impl launches it (layer_norm_fn / rms_norm_fn): grid (M,),
    BLOCK_N = min(65536 // element size, next_power_of_2(N)), the HAS_* flags from which tensors are given,
    residual_out allocated when a residual, a residual dtype other than x's, a rowscale or x1 is given, mean only for
    LayerNorm; dropout_p 0 (HAS_DROPOUT False: dropout draws tl.rand numbers, not checked). The autotuner picks
    num_warps among 1..32 by timing on a GPU: the rows take 4 (1 for the RMSNorm ones)."""
    mutate = None
    M, N, dtype, eps = 3, 40, "f32", 1e-6
    flags = LN_BIAS
    warps = 4
    dropout_p = 0.0

    def setup(self):
        f, M, N, dt = self.flags, self.M, self.N, self.dtype
        self.seeds = racer.values(SEEDS[:2 * M if f & LN_X1 else M], dtype="i64") if f & LN_DROPOUT else None
        self.dropout_mask = racer.empty((M, N), "bool") if f & LN_STORE_MASK else None
        self.dropout_mask1 = racer.empty((M, N), "bool") if f & LN_STORE_MASK and f & LN_X1 else None
        res_dt = "f32"  # the residual (in and out): f32 rows, or f16 rows with residual_in_fp32
        self.x = racer.input((M, N), dt, range=(-3, 3))
        self.w = racer.input((N,), dt, range=(-2, 2))
        self.b = racer.input((N,), dt, range=(-1, 1)) if f & LN_BIAS else None
        self.residual = racer.input((M, N), res_dt, range=(-3, 3)) if f & LN_RES else None
        self.x1 = racer.input((M, N), dt, range=(-3, 3)) if f & LN_X1 else None
        self.w1 = racer.input((N,), dt, range=(-2, 2)) if f & LN_W1 else None
        self.b1 = racer.input((N,), dt, range=(-1, 1)) if f & LN_B1 else None
        self.rowscale = racer.input((M,), "f32", range=(0.25, 2)) if f & LN_ROWSCALE else None
        self.y = racer.empty((M, N), dt)
        self.y1 = racer.empty((M, N), dt) if f & LN_W1 else None
        self.residual_out = racer.empty((M, N), res_dt) if f & LN_STORE_RES else None
        self.mean = racer.empty((M,), "f32") if not f & LN_RMS else None
        self.rstd = racer.empty((M,), "f32")

    def outputs(self):
        names = ("y", "y1", "residual_out", "mean", "rstd", "dropout_mask", "dropout_mask1")
        return {n: getattr(self, n) for n in names if getattr(self, n) is not None}

    @staticmethod
    def _r(t):
        return racer.read(t) if t is not None else None

    @staticmethod
    def _w(t):
        return racer.write(t) if t is not None else None

    def program_a(self):
        f, M, N = self.flags, self.M, self.N
        esize = 4 if self.dtype == "f32" else 2
        fn = kernel(LN, "_layer_norm_fwd_1pass_kernel", self.mutate)
        consts = dict(IS_RMS_NORM=bool(f & LN_RMS), BLOCK_N=min(65536 // esize, next_power_of_2(N)),
                      HAS_RESIDUAL=bool(f & LN_RES), STORE_RESIDUAL_OUT=bool(f & LN_STORE_RES),
                      HAS_BIAS=bool(f & LN_BIAS), HAS_DROPOUT=bool(f & LN_DROPOUT),
                      STORE_DROPOUT_MASK=bool(f & LN_STORE_MASK),
                      HAS_ROWSCALE=bool(f & LN_ROWSCALE), HAS_X1=bool(f & LN_X1), HAS_W1=bool(f & LN_W1),
                      HAS_B1=bool(f & LN_B1))
        pointers = dict(X=self._r(self.x), Y=self._w(self.y), W=self._r(self.w), B=self._r(self.b),
                        RESIDUAL=self._r(self.residual), X1=self._r(self.x1), W1=self._r(self.w1),
                        B1=self._r(self.b1), Y1=self._w(self.y1), RESIDUAL_OUT=self._w(self.residual_out),
                        ROWSCALE=self._r(self.rowscale), SEEDS=self._r(self.seeds),
                        DROPOUT_MASK=self._w(self.dropout_mask), DROPOUT_MASK1=self._w(self.dropout_mask1),
                        Mean=self._w(self.mean), Rstd=self._w(self.rstd))
        scalars = dict(stride_x_row=N, stride_y_row=N, stride_res_row=N if f & LN_RES else 0,
                       stride_res_out_row=N if f & LN_STORE_RES else 0, stride_x1_row=N if f & LN_X1 else 0,
                       stride_y1_row=N if f & LN_W1 else 0, M=M, N=N, eps=self.eps, dropout_p=self.dropout_p,
                       zero_centered_weight=int(bool(f & LN_ZERO_CENTERED)))
        args = _triton_args(fn, pointers, scalars, consts)
        racer.launch(racer.triton(fn, num_warps=self.warps, **consts), grid=M, args=args)
        return self.outputs()

    def program_b(self):
        entry = "ln_fwd_f32" if self.dtype == "f32" else "ln_fwd_f16_res32"
        racer.launch(ref(REF, entry), grid=1, block=self.M,
                     args=[self._r(self.x), self._r(self.x1), self._r(self.residual), self._r(self.rowscale),
                           self._r(self.w), self._r(self.b), self._r(self.w1), self._r(self.b1), self._w(self.y),
                           self._w(self.y1), self._w(self.residual_out), self._w(self.mean), self._w(self.rstd),
                           self.M, self.N, racer.scalar(self.eps, "f32"), self.flags, self._r(self.seeds),
                           racer.scalar(self.dropout_p, "f32"), self._w(self.dropout_mask),
                           self._w(self.dropout_mask1)])
        return self.outputs()


class FaLayerNormFwd(_LnFwd, Row):
    """flash-attn _layer_norm_fwd_1pass_kernel (ops/triton/layer_norm.py, layer_norm_fn): LayerNorm with bias of 3
    rows of 40 f32, eps 1e-6; y, mean, rstd; BLOCK_N 64, grid (3,), 4 warps"""


class FaRmsNormFwdResidualFp32(_LnFwd, Row):
    """flash-attn _layer_norm_fwd_1pass_kernel as rms_norm_fn(x, w, None, residual, prenorm=True) runs it on f16
    x and weight with an f32 residual (a pre-norm block's residual stream kept in f32): v = x + residual stored
    to residual_out (f32), y = v rstd w in f16, rstd; BLOCK_N 64, grid (3,), 1 warp"""
    dtype, eps = "f16", 1e-5
    flags = LN_RMS | LN_RES | LN_STORE_RES
    warps = 1


class FaLayerNormFwdParallelResidual(_LnFwd, Row):
    """flash-attn _layer_norm_fwd_1pass_kernel with the parallel-residual inputs (layer_norm_fn with x1, weight1,
    bias1 and a residual, as GPT-J / parallel blocks use it): v = x + x1 + residual, residual_out = v, y = LN(v) w + b
    and y1 = LN(v) w1 + b1 from the same statistics; f32, 3 rows of 40, BLOCK_N 64, 4 warps"""
    flags = LN_BIAS | LN_RES | LN_STORE_RES | LN_X1 | LN_W1 | LN_B1


class FaRmsNormFwdRowscaleZeroCentered(_LnFwd, Row):
    """flash-attn _layer_norm_fwd_1pass_kernel, RMSNorm with a rowscale (x scaled per row, so residual_out is
    written) and zero_centered_weight (weight + 1, a runtime flag); f32, 4 rows of 48, BLOCK_N 64, 1 warp"""
    M, N = 4, 48
    flags = LN_RMS | LN_STORE_RES | LN_ROWSCALE | LN_ZERO_CENTERED
    warps = 1


class FaLayerNormFwdDropoutParallel(_LnFwd, Row):
    """flash-attn _layer_norm_fwd_1pass_kernel with dropout_p 0.1 (HAS_DROPOUT) on x and x1 and the keep masks
    stored (return_dropout_mask: STORE_DROPOUT_MASK, bool): x's mask is tl.rand(seeds[row], cols, n_rounds=7) > p,
    x1's from seeds[M + row] (Philox, 7 rounds), kept values scaled by 1 / (1 - p); with a residual, weight1 and
    bias1, f32, 3 rows of 40. The seeds are fixed values (the host draws them with torch.randint), so every mask
    is concrete; the reference computes the same Philox4x32-7 stream"""
    flags = LN_BIAS | LN_RES | LN_STORE_RES | LN_X1 | LN_W1 | LN_B1 | LN_DROPOUT | LN_STORE_MASK
    dropout_p = 0.1


class FaLayerNormFwdDropoutSharedSeedMutant(_LnFwd, Mutation):
    """mutation: x1's dropout draws from x's seed (seeds[row] for seeds[M + row]), the two masks equal"""
    flags = LN_BIAS | LN_RES | LN_STORE_RES | LN_X1 | LN_W1 | LN_B1 | LN_DROPOUT | LN_STORE_MASK
    dropout_p = 0.1
    mutate = [("tl.rand(tl.load(SEEDS + M + row).to(tl.uint32), cols, n_rounds=7) > dropout_p",
               "tl.rand(tl.load(SEEDS + row).to(tl.uint32), cols, n_rounds=7) > dropout_p")]


class FaLayerNormFwdUnmaskedVarianceMutant(_LnFwd, Mutation):
    """mutation: the centred values are not masked to the row, so each of the 24 padding lanes adds mean^2 to the
    variance"""
    mutate = [("xbar = tl.where(cols < N, x - mean, 0.0)", "xbar = x - mean")]


class FaLayerNormFwdSecondWeightMutant(_LnFwd, Mutation):
    """mutation: the second output is scaled by the first weight (w for w1)"""
    flags = LN_BIAS | LN_RES | LN_STORE_RES | LN_X1 | LN_W1 | LN_B1
    mutate = [("y1 = x_hat * w1 + b1 if HAS_B1 else x_hat * w1", "y1 = x_hat * w + b1 if HAS_B1 else x_hat * w1")]


class _LnBwd:
    """_layer_norm_bwd_kernel as _layer_norm_bwd_impl launches it (LayerNormFn.backward, and LayerNormLinearFn's
    with recompute_output): grid (sm_count,) with sm_count = 8 x the GPU's SMs (1056 on an H100), rows_per_program
    = ceil(M / sm_count), each program writing its partial sums of dw (and db, dw1, db1) as one row of an
    [sm_count][N] f32 buffer that the host sums (torch, not checked here); a program with no rows writes zeros.
    sm_count is scaled down to 4 for M = 5 rows: rows_per_program 2, programs of rows (0, 1), (2, 3), (4) and none.
    BLOCK_N as the forward's, dropout_p 0, the autotuner's num_warps taken as 4. mean and rstd are inputs (what the
    forward saved), x the forward's residual_out (or x)."""
    mutate = None
    M, N, P, dtype = 5, 40, 4, "f32"
    flags = LN_BIAS
    dropout_p = 0.0

    def setup(self):
        f, M, N, P, dt = self.flags, self.M, self.N, self.P, self.dtype
        self.seeds = racer.values(SEEDS[:2 * M if f & LB_DX1 else M], dtype="i64") if f & LN_DROPOUT else None
        self.dx1 = racer.empty((M, N), dt) if f & LB_DX1 else None
        self.x = racer.input((M, N), dt, range=(-3, 3))
        self.w = racer.input((N,), dt, range=(-2, 2))
        self.b = racer.input((N,), dt, range=(-1, 1)) if f & LN_BIAS else None
        self.dy = racer.input((M, N), dt, range=(-2, 2))
        self.mean_in = racer.input((M,), "f32", range=(-1, 1)) if not f & LN_RMS else None
        self.rstd_in = racer.input((M,), "f32", range=(0.25, 4))
        self.dresidual = racer.input((M, N), dt, range=(-2, 2)) if f & LB_DRES else None
        self.w1 = racer.input((N,), dt, range=(-2, 2)) if f & LB_DY1 else None
        self.dy1 = racer.input((M, N), dt, range=(-2, 2)) if f & LB_DY1 else None
        self.rowscale = racer.input((M,), "f32", range=(0.25, 2)) if f & LN_ROWSCALE else None
        self.dx = racer.empty((M, N), dt)
        self.dw = racer.empty((P, N), "f32")
        self.db = racer.empty((P, N), "f32") if f & LN_BIAS else None
        self.dw1 = racer.empty((P, N), "f32") if f & LB_DY1 else None
        self.db1 = racer.empty((P, N), "f32") if f & LN_B1 else None
        self.dresidual_in = racer.empty((M, N), dt) if f & LB_STORE_DRES else None
        self.y = racer.empty((M, N), dt) if f & LB_RECOMPUTE else None

    def outputs(self):
        names = ("dx", "dw", "db", "dw1", "db1", "dresidual_in", "y", "dx1")
        return {n: getattr(self, n) for n in names if getattr(self, n) is not None}

    _r, _w = staticmethod(_LnFwd._r), staticmethod(_LnFwd._w)

    def program_a(self):
        f, M, N, P = self.flags, self.M, self.N, self.P
        esize = 4 if self.dtype == "f32" else 2
        rpp = cdiv(M, P)
        fn = kernel(LN, "_layer_norm_bwd_kernel", self.mutate)
        consts = dict(IS_RMS_NORM=bool(f & LN_RMS), BLOCK_N=min(65536 // esize, next_power_of_2(N)),
                      HAS_DRESIDUAL=bool(f & LB_DRES), STORE_DRESIDUAL=bool(f & LB_STORE_DRES),
                      HAS_BIAS=bool(f & LN_BIAS), HAS_DROPOUT=bool(f & LN_DROPOUT),
                      HAS_ROWSCALE=bool(f & LN_ROWSCALE), HAS_DY1=bool(f & LB_DY1), HAS_DX1=bool(f & LB_DX1),
                      HAS_B1=bool(f & LN_B1), RECOMPUTE_OUTPUT=bool(f & LB_RECOMPUTE))
        pointers = dict(X=self._r(self.x), W=self._r(self.w), B=self._r(self.b), Y=self._w(self.y),
                        DY=self._r(self.dy), DX=self._w(self.dx), DW=self._w(self.dw), DB=self._w(self.db),
                        DRESIDUAL=self._r(self.dresidual), W1=self._r(self.w1), DY1=self._r(self.dy1),
                        DX1=self._w(self.dx1), DW1=self._w(self.dw1), DB1=self._w(self.db1),
                        DRESIDUAL_IN=self._w(self.dresidual_in), ROWSCALE=self._r(self.rowscale),
                        SEEDS=self._r(self.seeds), Mean=self._r(self.mean_in), Rstd=self._r(self.rstd_in))
        scalars = dict(stride_x_row=N, stride_y_row=N if f & LB_RECOMPUTE else 0, stride_dy_row=N, stride_dx_row=N,
                       stride_dres_row=N if f & LB_DRES else 0, stride_dy1_row=N if f & LB_DY1 else 0,
                       stride_dx1_row=N if f & LB_DX1 else 0, stride_dres_in_row=N if f & LB_STORE_DRES else 0, M=M,
                       N=N, eps=1e-6, dropout_p=self.dropout_p, zero_centered_weight=int(bool(f & LN_ZERO_CENTERED)),
                       rows_per_program=rpp)
        args = _triton_args(fn, pointers, scalars, consts)
        racer.launch(racer.triton(fn, num_warps=4, **consts), grid=P, args=args)
        return self.outputs()

    def program_b(self):
        racer.launch(ref(REF, f"ln_bwd_{self.dtype}"), grid=1, block=self.P,
                     args=[self._r(self.x), self._r(self.w), self._r(self.b), self._r(self.dy),
                           self._r(self.mean_in), self._r(self.rstd_in), self._r(self.dresidual), self._r(self.w1),
                           self._r(self.dy1), self._r(self.rowscale), self._w(self.dx), self._w(self.dw),
                           self._w(self.db), self._w(self.dw1), self._w(self.db1), self._w(self.dresidual_in),
                           self._w(self.y), self.P, cdiv(self.M, self.P), self.M, self.N, self.flags,
                           self._r(self.seeds), racer.scalar(self.dropout_p, "f32"), self._w(self.dx1)])
        return self.outputs()


class FaLayerNormBwd(_LnBwd, Row):
    """flash-attn _layer_norm_bwd_kernel (ops/triton/layer_norm.py, LayerNormFn.backward): LayerNorm with bias, f32,
    5 rows of 40: dx and the per-program partial sums of dw and db (4 programs, the last one with no rows)"""


class FaRmsNormBwdResidualRowscale(_LnBwd, Row):
    """flash-attn _layer_norm_bwd_kernel, RMSNorm with a residual and a rowscale, prenorm (dresidual flows in:
    HAS_DRESIDUAL) and zero_centered_weight: dresidual_in = dx + dresidual stored before the rowscale scales dx
    (STORE_DRESIDUAL, as the host asks when a rowscale is given); f32, 5 rows of 40, partial dw"""
    flags = LN_RMS | LB_DRES | LB_STORE_DRES | LN_ROWSCALE | LN_ZERO_CENTERED


class FaLayerNormBwdParallelBf16(_LnBwd, Row):
    """flash-attn _layer_norm_bwd_kernel with the second output's gradient (HAS_DY1, HAS_B1: layer_norm_fn with
    weight1, bias1): dx from w dy + w1 dy1, partial dw, db, dw1, db1; bf16 x, weights, dy, dy1 and dx, 5 rows of 40"""
    dtype = "bf16"
    flags = LN_BIAS | LB_DY1 | LN_B1


class FaLayerNormBwdRecompute(_LnBwd, Row):
    """flash-attn _layer_norm_bwd_kernel as LayerNormLinearFn.backward runs it (recompute_output: y = xhat w + b
    written again for the linear layer's weight gradient), with a residual's dresidual (prenorm); f32, 5 rows of 40"""
    flags = LN_BIAS | LB_DRES | LB_RECOMPUTE


class FaLayerNormBwdDropoutParallel(_LnBwd, Row):
    """flash-attn _layer_norm_bwd_kernel with dropout_p 0.1 after the parallel forward (x1, weight1, bias1, a
    residual, prenorm): dresidual_in = dx stored before dropout (the host asks for it when dropout_p > 0), dx1 = dx
    through x1's keep mask (seeds[M + row]: HAS_DX1), dx through x's (seeds[row]); partial dw, db, dw1, db1; f32,
    5 rows of 40, seeds fixed"""
    flags = LN_BIAS | LB_DY1 | LN_B1 | LB_DRES | LB_STORE_DRES | LN_DROPOUT | LB_DX1
    dropout_p = 0.1


class FaLayerNormBwdDroppedMeanTermMutant(_LnBwd, Mutation):
    """mutation: LayerNorm's dx forgets the mean of w dy (the c2 term, RMSNorm's formula used for LayerNorm)"""
    mutate = [("dx = (wdy - (xhat * c1 + c2)) * rstd", "dx = (wdy - xhat * c1) * rstd")]


class FaLayerNormBwdSecondWeightGradMutant(_LnBwd, Mutation):
    """mutation: the second weight's gradient accumulates dy xhat (the first output's gradient) instead of dy1 xhat"""
    dtype = "bf16"
    flags = LN_BIAS | LB_DY1 | LN_B1
    mutate = [("dw1 += dy1 * xhat", "dw1 += dy * xhat")]


# ---------------------------------------------------------------------------------------------------------------
# rotary.py


class _Rotary:
    """rotary_kernel as apply_rotary launches it: grid (cdiv(nheads, BLOCK_H), cdiv(seqlen, BLOCK_M), batch),
    BLOCK_H 2, BLOCK_M 8 (rotary_dim <= 128), Triton's default 4 warps, x [batch][seqlen][nheads][headdim] (or
    [total_seqlen][nheads][headdim] with cu_seqlens, seqlen = max_seqlen), cos, sin [seqlen_ro][rotary_dim / 2] in
    x's dtype, seqlen_offsets an int or an int32 tensor [batch]. Only the first rotary_dim channels are written: the
    rows with rotary_dim < headdim rotate in place (inplace=True, the rest stays x; not in place the host copies it)"""
    mutate = None
    B, S, H, D, rd, ro, dtype = 2, 12, 3, 32, 32, 12, "f32"
    interleaved, conjugate, inplace = False, False, False
    offset, offsets, cu = 0, None, None  # int offset, per-batch offsets tensor, cu_seqlens (varlen)

    def setup(self):
        shape = (self.cu[-1], self.H, self.D) if self.cu else (self.B, self.S, self.H, self.D)
        self.x = racer.input(shape, self.dtype, range=(-4, 4))
        self.cos = racer.input((self.ro, self.rd // 2), self.dtype, range=(-1, 1))
        self.sin = racer.input((self.ro, self.rd // 2), self.dtype, range=(-1, 1))
        self.seqlen_offsets = racer.values(self.offsets, dtype="i32") if self.offsets else None
        self.cu_seqlens = racer.values(self.cu, dtype="i32") if self.cu else None
        self.out = None if self.inplace else racer.empty(shape, self.dtype)

    def _io(self):
        if self.inplace:
            return racer.readwrite(self.x), racer.readwrite(self.x), {"x": self.x}
        return racer.read(self.x), racer.write(self.out), {"out": self.out}

    def program_a(self):
        x, out, result = self._io()
        varlen = self.cu is not None
        hd = self.D
        seq_stride = self.H * hd
        consts = dict(ROTARY_DIM=self.rd, IS_SEQLEN_OFFSETS_TENSOR=self.offsets is not None, IS_VARLEN=varlen,
                      INTERLEAVED=self.interleaved, CONJUGATE=self.conjugate, BLOCK_H=2, BLOCK_M=8)
        if not varlen:
            consts["CU_SEQLENS"] = None
        k = racer.triton(kernel(ROT, "rotary_kernel", self.mutate), **consts)
        batch_stride = 0 if varlen else self.S * seq_stride
        args = [out, x, racer.read(self.cos), racer.read(self.sin)] + \
            ([racer.read(self.cu_seqlens)] if varlen else []) + \
            [racer.read(self.seqlen_offsets) if self.offsets else self.offset, self.S, self.H, self.ro,
             batch_stride, seq_stride, hd, 1, batch_stride, seq_stride, hd, 1]
        racer.launch(k, grid=(cdiv(self.H, 2), cdiv(self.S, 8), self.B), args=args)
        return result

    def program_b(self):
        x, out, result = self._io()
        tokens = self.cu[-1] if self.cu else self.B * self.S
        racer.launch(ref(REF, f"rotary_{self.dtype}"), grid=cdiv(tokens * self.H * self.rd // 2, 128), block=128,
                     args=[x, out, racer.read(self.cos), racer.read(self.sin),
                           racer.read(self.seqlen_offsets) if self.offsets else None,
                           racer.read(self.cu_seqlens) if self.cu else None, self.B, self.S, self.H, self.D, self.rd,
                           self.offset, int(self.interleaved), int(self.conjugate)])
        return result


class FaRotary(_Rotary, Row):
    """flash-attn rotary_kernel (ops/triton/rotary.py, apply_rotary): GPT-NeoX halves, x [2][12][3][32] f32,
    rotary_dim 32, seqlen_offsets 0; grid (2, 2, 2): the second head block and the second row block half masked"""


class FaRotaryInterleavedOffset(_Rotary, Row):
    """flash-attn rotary_kernel with interleaved (GPT-J) pairs and an int seqlen_offsets 5 (positions 5..16 of a
    20-entry table, as in a decode step after a cached prefix)"""
    interleaved, offset, ro = True, 5, 20


class FaRotaryPartialInplaceTensorOffsets(_Rotary, Row):
    """flash-attn rotary_kernel in place on bf16 x [2][12][3][32] with rotary_dim 24 of 32 (BLOCK_K 32, half the
    last pairs masked; channels 24..31 kept) and per-batch seqlen_offsets tensor [0, 7] (IS_SEQLEN_OFFSETS_TENSOR),
    a 20-entry table"""
    dtype, rd, ro, inplace = "bf16", 24, 20, True
    offsets = [0, 7]


class FaRotaryConjugateVarlen(_Rotary, Row):
    """flash-attn rotary_kernel with conjugate (the backward's rotation by -theta) over variable-length sequences:
    cu_seqlens [0, 5, 16] (IS_VARLEN, max_seqlen 11, x [16][3][32] f32), grid (2, 2, 2)"""
    conjugate = True
    cu, S = [0, 5, 16], 11


class FaRotaryOffsetsByHeadMutant(_Rotary, Mutation):
    """mutation: the per-sequence offset is read at the head block's index instead of the batch's"""
    dtype, rd, ro, inplace = "bf16", 24, 20, True
    offsets = [0, 7]
    mutate = [("rm_cs = rm + tl.load(SEQLEN_OFFSETS + pid_batch)", "rm_cs = rm + tl.load(SEQLEN_OFFSETS + pid_head)")]


class FaRotaryInterleavedSwappedMutant(_Rotary, Mutation):
    """mutation: the interleaved outputs are joined in the wrong order, (o1, o0) for (o0, o1)"""
    interleaved, offset, ro = True, 5, 20
    mutate = [("o = tl.reshape(tl.join(o0, o1), [BLOCK_H, BLOCK_M, BLOCK_K])",
               "o = tl.reshape(tl.join(o1, o0), [BLOCK_H, BLOCK_M, BLOCK_K])")]


class FaRotaryVarlenStrideMutant(_Rotary, Mutation):
    """mutation: a variable-length sequence's first token is found with the head stride instead of the token
    stride, so every sequence but the first reads another's tokens"""
    conjugate = True
    cu, S = [0, 5, 16], 11
    mutate = [("X = X + start_idx * stride_x_seqlen", "X = X + start_idx * stride_x_nheads")]


# ---------------------------------------------------------------------------------------------------------------
# linear.py (with k_activations.py's activations)

ACTS = {"id": 0, "gelu_approx": 1, "squared_relu": 2}


class _LinearFwd:
    """kernel_fwd as triton_linear_act launches it (fused_dense / mlp.py's FusedMLP): out = act(x w^T + b), f16,
    x [M][K] row-major (A_ROWMAJOR), w [N][K] (B_COLMAJOR: stride_bn K), GROUP_M 8, grid (cdiv(M, BLOCK_M) *
    cdiv(N, BLOCK_N),), EVEN_K = K % (BLOCK_K * SPLIT_K) == 0 (its heuristic). The autotuner picks by timing among
    its configs (pruned by triton.ops' perf model, gone from Triton 3.6): the rows take one of its io-bound configs,
    BLOCK_M 16, BLOCK_N 32, BLOCK_K 32, SPLIT_K 1, num_warps 2, num_stages 2"""
    mutate = None
    M, N, K = 32, 32, 64
    act, bias, save = "squared_relu", True, True

    def setup(self):
        self.x = racer.input((self.M, self.K), "f16", range=(-1, 1))
        self.w = racer.input((self.N, self.K), "f16", range=(-1, 1))
        self.b = racer.input((self.N,), "f16", range=(-1, 1)) if self.bias else None
        self.out = racer.empty((self.M, self.N), "f16")
        self.act_input = racer.empty((self.M, self.N), "f16") if self.save else None

    def outputs(self):
        return dict(out=self.out, **({"act_input": self.act_input} if self.save else {}))

    def program_a(self):
        bm, bn, bk = 16, 32, 32
        consts = dict(BLOCK_M=bm, GROUP_M=8, BLOCK_N=bn, BLOCK_K=bk, SPLIT_K=1, EVEN_K=self.K % bk == 0,
                      A_ROWMAJOR=True, B_COLMAJOR=True, BIAS=self.bias, SAVE_ACT_INPUT=self.save, ACTIVATION=self.act)
        if not self.save:
            consts["ACT_INPUT"] = None
        k = racer.triton(kernel(LIN, "kernel_fwd", self.mutate), num_warps=2, num_stages=2, **consts)
        args = [racer.write(self.out)] + ([racer.write(self.act_input)] if self.save else []) + \
            [racer.read(self.x), racer.read(self.w), racer.read(self.b if self.bias else self.x), self.M, self.N,
             self.K, self.M // 32, self.N // 32, self.K // 32, self.N, self.K, 1, self.K, 1]
        racer.launch(k, grid=cdiv(self.M, bm) * cdiv(self.N, bn), args=args)
        return self.outputs()

    def program_b(self):
        racer.launch(ref(REF, "linear_act_fwd"), grid=cdiv(self.M * self.N, 128), block=128,
                     args=[racer.read(self.x), racer.read(self.w), racer.read(self.b) if self.bias else None,
                           racer.write(self.out), racer.write(self.act_input) if self.save else None, self.M, self.N,
                           self.K, ACTS[self.act]])
        return self.outputs()


class FaLinearSquaredRelu(_LinearFwd, Row):
    """flash-attn kernel_fwd (ops/triton/linear.py, triton_linear_act): f16 x [32][64] w^T [64][32] + bias with the
    squared ReLU fused (FusedMLP's activation "sqrelu"), the pre-activation saved (save_act_input, as FusedMLP's
    forward does for its backward); grid (2,)"""
    act = "squared_relu"


class FaLinearSquaredReluUnevenK(_LinearFwd, Row):
    """flash-attn kernel_fwd with squared ReLU, no bias, not saving the pre-activation, K 48 (EVEN_K False: the
    second K step masked to 16 columns)"""
    K, act, bias, save = 48, "squared_relu", False, False


class FaLinearRaggedRows(_LinearFwd, Row):
    """flash-attn kernel_fwd with M = 40 rows, not a multiple of BLOCK_M 16 (any batch x seqlen may be): found by
    reading, the kernel wraps its loads to row rm % M but stores C unmasked (its `mask` is computed and not used;
    kernel_bwd stores with it), so the third program writes rows 40..47, 512 bytes past the output; its saved
    pre-activation goes to the wrapped rows 8..15 again (the same values, written by two programs). The outputs
    are right and proved; Racer's report lists the 256 out-of-bounds writes as defects"""
    M = 40


class FaLinearRaggedCols(_LinearFwd, Row):
    """flash-attn kernel_fwd with N = 48 output features, not a multiple of BLOCK_N 32: found by reading, the
    second column block's wrapped columns 48..63 hold the values of columns 0..15 of the same row (w read through
    rn % N) without the bias (loaded at rn, masked to 0 past N); the unmasked store writes them at rm * N + rn, over
    columns 0..15 of the next row (past the end for the last row), racing with the program that owns those cells,
    and the saved pre-activation stores them over columns 0..15 of the same row. The outputs depend on the schedule
    (an H100 gave cells off by up to 51): expected inequivalent; Racer reports the races and ends Unknown"""
    N = 48
    expect = "inequivalent"


class FaLinearBiasIndexMutant(_LinearFwd, Mutation):
    """mutation: the bias read one column off (bias[n + 1], the last column's masked to 0)"""
    mutate = [("bias = tl.load(bias + rn, mask=rn < N, other=0.0).to(tl.float32)",
               "bias = tl.load(bias + rn + 1, mask=rn + 1 < N, other=0.0).to(tl.float32)")]


class _LinearBwd:
    """kernel_bwd as triton_dgrad_act launches it (FusedMLP's backward through fc2 and the activation):
    dx = (g w) * act'(act_input), g [M][K] f16, w [K][N] (fc2.weight, stride_bk N, stride_bn 1), act_input [M][N]
    the forward's pre-activation; same config as the forward rows (BLOCK_M 16, BLOCK_N 32, BLOCK_K 32, 2 warps,
    2 stages), GROUP_M 8"""
    mutate = None
    M, N, K = 32, 64, 64
    act = "gelu_approx"

    def setup(self):
        self.g = racer.input((self.M, self.K), "f16", range=(-1, 1))
        self.w = racer.input((self.K, self.N), "f16", range=(-1, 1))
        self.act_input = racer.input((self.M, self.N), "f16", range=(-3, 3))
        self.dx = racer.empty((self.M, self.N), "f16")

    def program_a(self):
        bm, bn, bk = 16, 32, 32
        k = racer.triton(kernel(LIN, "kernel_bwd", self.mutate), num_warps=2, num_stages=2, BLOCK_M=bm, GROUP_M=8,
                         BLOCK_N=bn, BLOCK_K=bk, SPLIT_K=1, EVEN_K=self.K % bk == 0, ACTIVATION=self.act)
        racer.launch(k, grid=cdiv(self.M, bm) * cdiv(self.N, bn),
                     args=[racer.write(self.dx), racer.read(self.act_input), racer.read(self.g), racer.read(self.w),
                           self.M, self.N, self.K, self.M // 32, self.N // 32, self.K // 32, self.N, self.K, 1,
                           self.N, 1])
        return {"dx": self.dx}

    def program_b(self):
        racer.launch(ref(REF, "linear_act_bwd"), grid=cdiv(self.M * self.N, 128), block=128,
                     args=[racer.read(self.g), racer.read(self.w), racer.read(self.act_input), racer.write(self.dx),
                           self.M, self.N, self.K, ACTS[self.act]])
        return {"dx": self.dx}


class FaLinearBwdGeluApprox(_LinearBwd, Row):
    """flash-attn kernel_bwd (ops/triton/linear.py, triton_dgrad_act): f16 g [32][64] w [64][64] times the tanh
    GELU's derivative (k_activations.gelu_approx_grad, Megatron's constants 0.79788456 and 0.1070322243, both the
    f32 rounding of sqrt(2 / pi) and 3 x 0.044715 sqrt(2 / pi)) at the saved pre-activation; grid (4,). Ends
    rounding, a Racer gap: the tanh's sigmoid runs ex2.approx(fma(y, -2, 0) * 0f3FB8AA3B), and with y a constant
    times the input Racer merges the rounded log2(e) into the monomial's coefficient before its exp(x) =
    ex2(x * log2e) reading applies, so the sides differ by log2e_f32 ln 2 - 1 (8.9e-8 relative)"""


class FaLinearBwdSquaredRelu(_LinearBwd, Row):
    """flash-attn kernel_bwd with squared ReLU's derivative 2 max(v, 0), as FusedDenseSqreluDense's backward calls
    triton_dgrad_act. Refused, a Racer gap: Triton tests the f16 pre-activation against 0 two lanes at a time
    (setp.ge.f16x2 at k_activations.py:105, the f32 conversion dropped since it keeps the order), which Racer does
    not model yet"""
    act = "squared_relu"


class FaLinearBwdWeightStepMutant(_LinearBwd, Mutation):
    """mutation: the weight pointer advances by BLOCK_K columns instead of BLOCK_K rows between K steps"""
    mutate = [("        B += BLOCK_K * stride_bk\n", "        B += BLOCK_K\n")]
