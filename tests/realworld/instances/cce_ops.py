"""cut-cross-entropy 25.1.1 (Apple's "Cut Your Losses"): the fused linear + cross-entropy kernels against
reference/cce_ops.cu. The log-sum-exp of the logits E C^T computed blockwise without materializing them
(`cce_lse_forward.py`, with soft-capping, the token list of valid positions and the mean logit), the dot
product of each token's embedding with its target's classifier row (`indexed_dot.py`, with shift), and the
backward (`cce_backward.py`: dE and dC, soft-capping, shift, the mean / none reductions, the gradient filter).

Shapes: N 8 tokens, D 32, V 40 classes, bf16 (and f16) embeddings and classifier, f32 accumulation. Without
CCE_AUTOTUNE the wrappers take one fixed config per kernel (`tl_autotune.py`: forward 256 x 128 x 32 with 8
warps, backward 128 x 128 x 32 with 4 warps, indexed dot 128 x 256 with 16 warps), far larger than these
shapes; the rows take the smallest fitting entry of the CCE_AUTOTUNE=1 list instead (named per row), so one
program covers all tokens and classes (the kernels' spin locks are then uncontended). The heuristics the
loader drops are given as they would choose: EVEN_D = D % BLOCK_D == 0, GROUP_B 8, DOT_PRECISION "ieee"
(torch's default float32 matmul precision "highest"), HAS_* from which optional tensors are None.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

N, D, V = 8, 32, 40
FWD = "cut_cross_entropy.cce_lse_forward"
DOT = "cut_cross_entropy.indexed_dot"
BWD = "cut_cross_entropy.cce_backward"
TARGETS = [3, 39, 0, 17, 17, 25, 8, 30]
VALIDS = [0, 2, 3, 5, 6]          # tokens whose target is not ignore_index (positions 1, 4 and 7 ignored)
SHIFT_VALIDS = [0, 1, 3, 4, 5]    # shift: positions i whose next target (i + 1) is not ignored (2 and 6 are)
DT = {"bf16": "bf16", "f16": "f16"}


def _mut(mutate, inside):
    out = {}
    if mutate:
        out["mutate"] = mutate
    if inside:
        out["inside"] = inside
    return out


class _Common:
    dtype = "bf16"
    v = V
    valids = None
    mutate, inside = None, None

    def inputs(self):
        self.e = racer.input((N, D), self.dtype, range=(-1, 1))
        self.c = racer.input((self.v, D), self.dtype, range=(-1, 1))
        self.b = len(self.valids) if self.valids else N
        self.vl = racer.values(np.array(self.valids, dtype=np.int32)) if self.valids else None

    def fn(self, module, name):
        return kernel(module, name, **_mut(self.mutate, self.inside))


class _LseForward(_Common):
    """cce_lse_forward_kernel: LSE starts at -inf (new_full), one lock (cdiv(B, 128)); grid
    cdiv(B, BLOCK_B) * cdiv(V, BLOCK_V) = 1 with the CCE_AUTOTUNE list's io-bound entry BLOCK_B 16, BLOCK_V 64,
    BLOCK_D 32 (2 warps as it gives BLOCK_V <= 64, 2 stages); B_BIN = b_bin_fn(B) = 128."""
    softcap = None
    logit_avg = False

    def setup(self):
        self.inputs()
        self.lse = racer.values(np.full(self.b, -np.inf, dtype=np.float32))
        self.locks = racer.zeros((1,), "i32")  # the library's uint32 zeros (no u32 tensors here)
        self.la = racer.zeros((self.v,), "f32") if self.logit_avg else None

    def outputs(self):
        return {"lse": self.lse, **({"la": self.la} if self.logit_avg else {})}

    def program_a(self):
        k = racer.triton(self.fn(FWD, "_cce_lse_forward_kernel"), BLOCK_B=16, BLOCK_V=64, BLOCK_D=32, GROUP_B=8,
                         EVEN_D=D % 32 == 0, HAS_VALIDS=self.valids is not None, HAS_SOFTCAP=self.softcap is not None,
                         HAS_LA=self.logit_avg, DOT_PRECISION="ieee", num_warps=2, num_stages=2,
                         **({} if self.logit_avg else {"LA": None}), **({} if self.valids else {"Valids": None}),
                         **({} if self.softcap is not None else {"softcap": None}))
        args = [racer.read(self.e), racer.read(self.c), racer.readwrite(self.lse)]
        if self.logit_avg:
            args.append(racer.readwrite(self.la))
        args.append(racer.readwrite(self.locks))
        if self.valids:
            args.append(racer.read(self.vl))
        if self.softcap is not None:
            args.append(self.softcap)
        args += [self.b, self.v, D, D, 1, D, 1, 1, 1, 1, 128]
        racer.launch(k, grid=1, args=args)
        return self.outputs()

    def program_b(self):
        racer.launch(ref("cce_ops.cu", f"lse_fwd_{self.dtype}"), grid=1, block=max(self.b, self.v),
                     args=[racer.read(self.e), racer.read(self.c), racer.write(self.lse),
                           racer.write(self.la) if self.logit_avg else None,
                           racer.read(self.vl) if self.valids else None, self.b, self.v, D, float(self.softcap or 0.0)])
        return self.outputs()


class CceLseForward(_LseForward, Row):
    """cut_cross_entropy cce_lse_forward.py _cce_lse_forward_kernel: lse of E C^T per token, bf16, 40 classes in a
    block of 64 (lanes past V wrap to classes mod V and are masked to -inf)"""


class CceLseForwardSoftcap(_LseForward, Row):
    """cut_cross_entropy cce_lse_forward.py _cce_lse_forward_kernel with softcap 20: z -> 20 tanh(z / 20)
    (libdevice tanh), HAS_SOFTCAP; 64 classes, a whole block (see the next row for V short of the block)"""
    softcap = 20.0
    v = 64


class CceLseForwardSoftcapMaskedLanes(_LseForward, Row):
    """cut_cross_entropy cce_lse_forward.py _cce_lse_forward_kernel with softcap 20 at 40 classes in a block of 64:
    found by reading, the kernel masks the lanes past V to -inf before soft-capping them, and 20 tanh(-inf) = -20,
    so each of the 24 lanes adds exp(-20) to the sum (lse off by log(1 + 24 e^-20 / sum exp z), visible when a
    token's logits are all near -20): expected inequivalent"""
    expect = "inequivalent"
    softcap = 20.0


class CceLseForwardValidsLogitAvg(_LseForward, Row):
    """cut_cross_entropy cce_lse_forward.py _cce_lse_forward_kernel, f16, with the valid-token list (ignore_index at
    positions 1, 4, 7: HAS_VALIDS, B = 5) and the mean logit per class (HAS_LA, atomic adds), as cce.py calls it when
    filter_eps is set and gradients are needed"""
    dtype = "f16"
    valids = VALIDS
    logit_avg = True


class CceLseForwardMaskOffByOneMutant(_LseForward, Mutation):
    """mutation: the class mask v < V written v <= V, so lane 40 (class 40 mod 40 = 0) is counted twice"""
    mutate = [("v_mask = (pid_v * BLOCK_V + tl.arange(0, BLOCK_V)) < V",
               "v_mask = (pid_v * BLOCK_V + tl.arange(0, BLOCK_V)) <= V")]


class CceLseForwardDroppedMaxMutant(_LseForward, Mutation):
    """mutation: the block's lse forgets to add back the max it subtracted (log sum exp(z - max))"""
    mutate = [("this_lse = this_mx + tl.log(tl.sum(e, axis=1))", "this_lse = tl.log(tl.sum(e, axis=1))")]


class CceLseForwardSoftcapNoCapMutant(_LseForward, Mutation):
    """mutation: the soft-capped logit left as tanh(z / cap), without the cap's outer factor"""
    softcap = 20.0
    v = 64
    mutate = [("logits = tl_softcapping(logits, softcap)", "logits = tl_softcapping(logits, softcap) / softcap")]


class _IndexedDot(_Common):
    """_indexed_neg_dot_forward_kernel: out (zeros, f32) gets -sum_d e c[target] by atomic add; the CCE_AUTOTUNE
    list's entry BLOCK_B 128, BLOCK_D 128, 4 warps, 4 stages (EVEN_D false at D 32); grid cdiv(B, 128) *
    cdiv(D, 128) = 1; B_BIN 128."""
    shift = False

    def setup(self):
        self.inputs()
        self.t = racer.values(np.array(TARGETS, dtype=np.int64))
        self.out = racer.zeros((self.b,), "f32")

    def program_a(self):
        k = racer.triton(self.fn(DOT, "_indexed_neg_dot_forward_kernel"), BLOCK_B=128, BLOCK_D=128, GROUP_B=8,
                         HAS_VALIDS=self.valids is not None, EVEN_D=D % 128 == 0, SHIFT=self.shift, num_warps=4,
                         num_stages=4, **({} if self.valids else {"Valids": None}))
        args = [racer.read(self.e), racer.read(self.c), racer.read(self.t)]
        if self.valids:
            args.append(racer.read(self.vl))
        args += [racer.readwrite(self.out), self.b, D, D, 1, D, 1, 1, 1, 128]
        racer.launch(k, grid=1, args=args)
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref("cce_ops.cu", f"neg_target_dot_{self.dtype}"), grid=1, block=self.b,
                     args=[racer.read(self.e), racer.read(self.c), racer.read(self.t),
                           racer.read(self.vl) if self.valids else None, racer.write(self.out), self.b, D,
                           int(self.shift)])
        return {"out": self.out}


class CceIndexedNegDot(_IndexedDot, Row):
    """cut_cross_entropy indexed_dot.py _indexed_neg_dot_forward_kernel: -e . c[target] per token, bf16 products
    summed in f32"""


class CceIndexedNegDotShift(_IndexedDot, Row):
    """cut_cross_entropy indexed_dot.py _indexed_neg_dot_forward_kernel with shift (SHIFT: token i against target
    i + 1) over the valid list cce.py builds for shift (positions whose next target is not ignored), f16"""
    dtype = "f16"
    shift = True
    valids = SHIFT_VALIDS


class CceIndexedNegDotNoShiftMutant(_IndexedDot, Mutation):
    """mutation: the shifted target index forgets the + 1"""
    shift = True
    valids = SHIFT_VALIDS
    mutate = [("inds = tl.load(Inds + stride_ib * ((offs_b + 1) if SHIFT else offs_b))",
               "inds = tl.load(Inds + stride_ib * (offs_b if SHIFT else offs_b))")]


class CceIndexedNegDotSignMutant(_IndexedDot, Mutation):
    """mutation: the dot is stored without its minus sign"""
    mutate = [("neg_dot = -tl.sum(dot, 1).to(out_ptrs.dtype.element_ty)",
               "neg_dot = tl.sum(dot, 1).to(out_ptrs.dtype.element_ty)")]


class _Backward(_Common):
    """_cce_backward_kernel: dE and dC (zeros, the input type) by locked adds; the CCE_AUTOTUNE list's io-bound
    entry BLOCK_B 16, BLOCK_V 64, BLOCK_D 32 (2 warps, 2 stages), so MM_BACK_BLOCK_D 64 and MM_BACK_EVEN_D false at
    D 32; grid 1; locks as the wrapper makes them: nd_locks = cdiv(D, 64) = 1, dE locks (B, 1), dC locks (V, 1);
    REQUIRES_GRAD (C needs a gradient); the lse is a free f32 input (the forward's output)."""
    softcap = None
    shift = False
    reduction = "mean"          # mean: dOut one value, grad_scale 1 / B; none: dOut per position, grad_scale 1
    filter_eps = None
    ordering = None

    def setup(self):
        self.inputs()
        self.t = racer.values(np.array(TARGETS, dtype=np.int64))
        self.lse = racer.input((self.b,), "f32", range=(1, 6))
        self.dout = racer.input((1,) if self.reduction == "mean" else (N,), "f32", range=(-2, 2))
        self.scale = 1.0 / self.b if self.reduction == "mean" else 1.0
        self.de = racer.zeros((N, D), self.dtype)
        self.dc = racer.zeros((self.v, D), self.dtype)
        self.de_locks = racer.zeros((self.b, 1), "i32")
        self.dc_locks = racer.zeros((self.v, 1), "i32")
        self.order = racer.values(np.array(self.ordering, dtype=np.int32)) if self.ordering else None

    def program_a(self):
        nones = {}
        for name, absent in (("Valids", not self.valids), ("VocabOrdering", not self.ordering),
                             ("softcap", self.softcap is None), ("filter_eps", self.filter_eps is None)):
            if absent:
                nones[name] = None
        k = racer.triton(self.fn(BWD, "_cce_backward_kernel"), BLOCK_B=16, BLOCK_V=64, BLOCK_D=32, MM_BACK_BLOCK_D=64,
                         GROUP_B=8, EVEN_D=D % 32 == 0, MM_BACK_EVEN_D=D % 64 == 0, ITEM_DO=self.reduction == "mean",
                         HAS_VALIDS=self.valids is not None, HAS_VOCAB_ORDERING=self.ordering is not None,
                         FILTER_GRAD=self.filter_eps is not None, HAS_TARGETS=True,
                         HAS_SOFTCAP=self.softcap is not None, SHIFT=self.shift, REQUIRES_GRAD=True,
                         num_warps=2, num_stages=2, **nones)
        args = [racer.read(self.e), racer.read(self.c), racer.read(self.lse), racer.read(self.dout), self.scale]
        if self.valids:
            args.append(racer.read(self.vl))
        if self.ordering:
            args.append(racer.read(self.order))
        if self.softcap is not None:
            args.append(self.softcap)
        args += [racer.read(self.t), racer.readwrite(self.de), racer.readwrite(self.de_locks),
                 racer.readwrite(self.dc), racer.readwrite(self.dc_locks), self.b, D, self.v, self.b, 1, self.v, 1, D, 1, D, 1, 1]
        if self.filter_eps is not None:
            args.append(self.filter_eps)
        args.append(128)
        racer.launch(k, grid=1, args=args)
        return {"de": self.de, "dc": self.dc}

    def program_b(self):
        racer.launch(ref("cce_ops.cu", f"ce_bwd_{self.dtype}"), grid=1, block=self.b + self.v,
                     args=[racer.read(self.e), racer.read(self.c), racer.read(self.lse), racer.read(self.t),
                           racer.read(self.vl) if self.valids else None, racer.read(self.dout),
                           1 if self.reduction == "mean" else N, self.scale, racer.readwrite(self.de),
                           racer.readwrite(self.dc), self.b, self.v, D, float(self.softcap or 0.0), int(self.shift)])
        return {"de": self.de, "dc": self.dc}


class CceBackward(_Backward, Row):
    """cut_cross_entropy cce_backward.py _cce_backward_kernel: dE = G C and dC = G^T E with G = (softmax - onehot)
    * dOut / B rounded to bf16, reduction mean (ITEM_DO), no filter"""


class CceBackwardSoftcap(_Backward, Row):
    """cut_cross_entropy cce_backward.py _cce_backward_kernel with softcap 20, f16: G times 1 - (z / 20)^2 of the
    capped logit z (tl_softcapping_grad)"""
    dtype = "f16"
    softcap = 20.0


class CceBackwardShiftNone(_Backward, Row):
    """cut_cross_entropy cce_backward.py _cce_backward_kernel with shift over the valid list, reduction none (dOut
    per position read at i + 1, grad_scale 1)"""
    shift = True
    valids = SHIFT_VALIDS
    reduction = "none"


class CceBackwardFilter(_Backward, Row):
    """cut_cross_entropy cce_backward.py _cce_backward_kernel with the gradient filter as filter_eps="auto" gives it
    for bf16 (eps / 32 = 2^-12: a block whose |softmax - onehot| are all below it returns before writing) and the
    vocabulary ordering cce.py then passes (argsort of the mean logit: here a fixed permutation)"""
    filter_eps = 2.0 ** -12
    ordering = [(7 * i + 3) % V for i in range(V)]


class CceBackwardNoGradScaleMutant(_Backward, Mutation):
    """mutation: the mean reduction's 1 / B scale of dOut dropped"""
    mutate = [("d_out = grad_scale * d_out", "d_out = d_out")]


class CceBackwardNoSoftcapGradMutant(_Backward, Mutation):
    """mutation: the soft-capping derivative 1 - (z / cap)^2 forgotten in the gradient"""
    dtype = "f16"
    softcap = 20.0
    mutate = [("d_accum = tl_softcapping_grad(d_accum, accum, softcap)", "d_accum = d_accum")]


class CceBackwardTargetOffsetMutant(_Backward, Mutation):
    """mutation: the shifted backward reads the target of the token itself (no + 1), dOut still shifted"""
    shift = True
    valids = SHIFT_VALIDS
    reduction = "none"
    mutate = [("targets = tl.load(Targets + ((offs_b + 1) if SHIFT else offs_b))",
               "targets = tl.load(Targets + offs_b)")]
