"""liger-kernel softmax, cross-entropy (plain, label smoothing, z-loss, softcap, ignore_index),
KL-div, JSD and rope against reference/softmax_losses.cu."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

R, C = 3, 40
SM = "liger_kernel.ops.softmax"


class _Softmax:
    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-8, 8))
        self.y = racer.empty((R, C), "f32")

    def program_b(self):
        racer.launch(ref("softmax_losses.cu", "softmax_fwd"), grid=1, block=R,
                     args=[racer.read(self.x), racer.write(self.y), R, C])
        return {"y": self.y}

    def launch_a(self, name, block, **mutation):
        k = racer.triton(kernel(SM, name, **mutation), BLOCK_SIZE=block, num_warps=1)
        racer.launch(k, grid=R, args=[racer.write(self.y), C, racer.read(self.x), C, C])
        return {"y": self.y}


class LigerSoftmaxSingleBlockFwd(_Softmax, Row):
    """liger _softmax_single_block_forward_kernel, 40 columns in a block of 64"""

    def program_a(self):
        return self.launch_a("_softmax_single_block_forward_kernel", 64)


class LigerSoftmaxMaskedLanesCountMutant(_Softmax, Mutation):
    """mutation: masked lanes load 0 instead of -inf, so they add exp(-max) to the row's sum"""

    def program_a(self):
        return self.launch_a("_softmax_single_block_forward_kernel", 64,
                             mutate=[('other=-float("inf"), cache_modifier=".ca")', 'other=0.0, cache_modifier=".ca")')])


# _softmax_multi_block_forward_kernel and _softmax_multi_block_backward_kernel do not compile with
# Triton 3.6 (`tl.float32(-float("inf"))`: "'dtype' object is not callable"), so they are not rows.


class LigerSoftmaxSingleBlockBwd(Row):
    """liger _softmax_single_block_backward_kernel"""

    def setup(self):
        self.dy = racer.input((R, C), "f32", range=(-2, 2))
        self.y = racer.input((R, C), "f32", range=(0, 1))
        self.dx = racer.empty((R, C), "f32")

    def program_a(self):
        k = racer.triton(kernel(SM, "_softmax_single_block_backward_kernel"), BLOCK_SIZE=64, num_warps=1)
        racer.launch(k, grid=R, args=[racer.read(self.dy), C, racer.read(self.y), C, racer.write(self.dx), C, C])
        return {"dx": self.dx}

    def program_b(self):
        racer.launch(ref("softmax_losses.cu", "softmax_bwd"), grid=1, block=R,
                     args=[racer.read(self.dy), racer.read(self.y), racer.write(self.dx), R, C])
        return {"dx": self.dx}


CE = "liger_kernel.ops.cross_entropy"
V = 40  # vocabulary


class _CrossEntropy:
    """liger_cross_entropy_kernel (no class weights, mean reduction, gradients in place over the logits)."""
    targets = [3, 17, 39]
    label_smoothing, lse_square_scale, softcap = 0.0, 0.0, 0.0
    mutate = None
    block, warps = 64, 32  # the library's launch for f32 logits: next_power_of_2(V) and 32 warps

    def setup(self):
        self.x = racer.input((R, V), "f32", range=(-6, 6))
        self.t = racer.values(np.array(self.targets, dtype=np.int64))
        self.loss = racer.zeros((R,), "f32")
        self.z = racer.zeros((R,), "f32")

    def valid(self):
        return float(sum(t != -100 for t in self.targets))

    def program_a(self):
        fn = kernel(CE, "liger_cross_entropy_kernel", **({"mutate": self.mutate} if self.mutate else {}))
        k = racer.triton(fn, lse_square_scale=self.lse_square_scale, label_smoothing=self.label_smoothing,
                         reduction="mean", RETURN_Z_LOSS=True, RETURN_TOKEN_ACCURACY=False,
                         RETURN_PREDICTED_TOKENS=False, BLOCK_SIZE=self.block, HAS_WEIGHT=False,
                         HAS_SOFTCAPPING=self.softcap > 0, HAS_GRADIENTS=True, num_warps=self.warps,
                         weight_ptr=None, token_accuracy_ptr=None, predicted_tokens_ptr=None)  # as Triton binds None
        racer.launch(k, grid=R, args=[racer.readwrite(self.x), V, racer.read(self.t), 1,
                                      racer.write(self.loss), racer.write(self.z), 1, 1, 1,
                                      V, self.valid(), self.valid(), 0.0, -100, self.softcap or 1.0])
        return {"loss": self.loss, "z": self.z, "x": self.x}

    def program_b(self):
        racer.launch(ref("softmax_losses.cu", "cross_entropy"), grid=1, block=R,
                     args=[racer.readwrite(self.x), racer.read(self.t), racer.write(self.loss), racer.write(self.z),
                           R, V, -100, self.label_smoothing, self.lse_square_scale, self.softcap, self.valid()])
        return {"loss": self.loss, "z": self.z, "x": self.x}


class LigerCrossEntropy(_CrossEntropy, Row):
    """liger_cross_entropy_kernel: loss and gradient, 40 classes"""


class LigerCrossEntropyLabelSmoothing(_CrossEntropy, Row):
    """liger_cross_entropy_kernel with label smoothing 0.1"""
    label_smoothing = 0.1


class LigerCrossEntropyZLoss(_CrossEntropy, Row):
    """liger_cross_entropy_kernel with z-loss (lse_square_scale 1e-4)"""
    lse_square_scale = 1e-4


class LigerCrossEntropySoftcap(_CrossEntropy, Row):
    """liger_cross_entropy_kernel with logit softcapping at 5"""
    softcap = 5.0


class LigerCrossEntropyIgnoreIndex(_CrossEntropy, Row):
    """liger_cross_entropy_kernel with the middle row's target = ignore_index (-100)"""
    targets = [3, -100, 39]


class LigerCrossEntropySmoothingSignMutant(_CrossEntropy, Mutation):
    """mutation: the label-smoothing gradient term gets the wrong sign"""
    label_smoothing = 0.1
    mutate = [("                X_block += -eps\n", "                X_block += eps\n")]


class LigerCrossEntropyMeanDividesByColsMutant(_CrossEntropy, Mutation):
    """mutation: the mean reduction of the loss divides by n_cols instead of n_non_ignore"""
    mutate = [("            loss = loss / n_non_ignore\n", "            loss = loss / n_cols\n")]


KL = "liger_kernel.ops.kl_div"


class LigerKlDivFwd(Row):
    """liger _kldiv_kernel_forward, per-row sums (batchmean reduction before its host-side division)"""

    def setup(self):
        self.logq = racer.input((R, C), "f32", range=(-6, 0))
        self.t = racer.input((R, C), "f32", range=(0.001, 1))
        self.loss = racer.empty((R,), "f32")

    def program_a(self):
        k = racer.triton(kernel(KL, "_kldiv_kernel_forward"), BLOCK_SIZE=16, reduction=3, log_target=False,
                         num_warps=1)
        racer.launch(k, grid=R, args=[racer.read(self.logq), C, racer.read(self.t), C, racer.write(self.loss), 1,
                                      C, 1e-10])
        return {"loss": self.loss}

    def program_b(self):
        racer.launch(ref("softmax_losses.cu", "kl_div_rows"), grid=1, block=R,
                     args=[racer.read(self.logq), racer.read(self.t), racer.write(self.loss), R, C, 1e-10])
        return {"loss": self.loss}


class LigerKlDivBwd(Row):
    """liger _kldiv_kernel_backward: d loss / d logq = -target"""

    def setup(self):
        self.t = racer.input((R, C), "f32", range=(0, 1))
        self.g = racer.empty((R, C), "f32")

    def program_a(self):
        k = racer.triton(kernel(KL, "_kldiv_kernel_backward"), BLOCK_SIZE=16, log_target=False, num_warps=1)
        racer.launch(k, grid=R, args=[racer.read(self.t), C, racer.write(self.g), C, C])
        return {"g": self.g}

    def program_b(self):
        racer.launch(ref("softmax_losses.cu", "neg"), grid=1, block=R * C,
                     args=[racer.read(self.t), racer.write(self.g), R * C])
        return {"g": self.g}


class _KlDivLogTarget:
    """liger _kldiv_kernel_forward with the target in log space, per-row sums (batchmean)"""
    mutate = None

    def setup(self):
        self.logq = racer.input((R, C), "f32", range=(-6, 0))
        self.t = racer.input((R, C), "f32", range=(-6, 0))
        self.loss = racer.empty((R,), "f32")

    def program_a(self):
        k = racer.triton(kernel(KL, "_kldiv_kernel_forward", **({"mutate": self.mutate} if self.mutate else {})),
                         BLOCK_SIZE=16, reduction=3, log_target=True, num_warps=1)
        racer.launch(k, grid=R, args=[racer.read(self.logq), C, racer.read(self.t), C, racer.write(self.loss), 1,
                                      C, 1e-10])
        return {"loss": self.loss}

    def program_b(self):
        racer.launch(ref("softmax_losses.cu", "kl_div_log_target_rows"), grid=1, block=R,
                     args=[racer.read(self.logq), racer.read(self.t), racer.write(self.loss), R, C])
        return {"loss": self.loss}


class LigerKlDivFwdLogTarget(_KlDivLogTarget, Row):
    """liger _kldiv_kernel_forward, log_target=True: sum exp(t) (t - logq) per row"""


class LigerKlDivFwdLogTargetWrongWeightMutant(_KlDivLogTarget, Mutation):
    """mutation: the log-space target's terms weighted by exp of the prediction instead of the target"""
    mutate = [("loss = tl.exp(y_true) * (y_true - y)", "loss = tl.exp(y) * (y_true - y)")]


class LigerKlDivFwdPointwise(Row):
    """liger _kldiv_kernel_forward, reduction none: the pointwise terms stored per cell"""

    def setup(self):
        self.logq = racer.input((R, C), "f32", range=(-6, 0))
        self.t = racer.input((R, C), "f32", range=(0.001, 1))
        self.loss = racer.empty((R, C), "f32")

    def program_a(self):
        k = racer.triton(kernel(KL, "_kldiv_kernel_forward"), BLOCK_SIZE=16, reduction=0, log_target=False,
                         num_warps=1)
        racer.launch(k, grid=R, args=[racer.read(self.logq), C, racer.read(self.t), C, racer.write(self.loss), C,
                                      C, 1e-10])
        return {"loss": self.loss}

    def program_b(self):
        racer.launch(ref("softmax_losses.cu", "kl_div_pointwise"), grid=1, block=R * C,
                     args=[racer.read(self.logq), racer.read(self.t), racer.write(self.loss), R * C, 1e-10])
        return {"loss": self.loss}


class LigerKlDivBwdLogTarget(Row):
    """liger _kldiv_kernel_backward, log_target=True: d loss / d logq = -exp(target)"""

    def setup(self):
        self.t = racer.input((R, C), "f32", range=(-6, 0))
        self.g = racer.empty((R, C), "f32")

    def program_a(self):
        k = racer.triton(kernel(KL, "_kldiv_kernel_backward"), BLOCK_SIZE=16, log_target=True, num_warps=1)
        racer.launch(k, grid=R, args=[racer.read(self.t), C, racer.write(self.g), C, C])
        return {"g": self.g}

    def program_b(self):
        racer.launch(ref("softmax_losses.cu", "neg_exp"), grid=1, block=R * C,
                     args=[racer.read(self.t), racer.write(self.g), R * C])
        return {"g": self.g}


class _Jsd:
    beta = 0.5

    def setup(self):
        self.x = racer.input((R, C), "f32", range=(-6, 0))
        self.y = racer.input((R, C), "f32", range=(-6, 0))
        self.loss = racer.empty((R, C), "f32")
        self.dx = racer.empty((R, C), "f32")
        self.labels = racer.zeros((R,), "i64")  # unread without HAS_LABEL, as liger's placeholder

    def launch_a(self, **mutation):
        k = racer.triton(kernel("liger_kernel.ops.jsd", "_jsd_kernel", **mutation), beta=self.beta, ignore_index=-100,
                         BLOCK_SIZE=16, HAS_LABEL=False, num_warps=1)
        racer.launch(k, grid=R, args=[racer.read(self.x), C, racer.read(self.y), C, racer.write(self.loss), C,
                                      racer.write(self.dx), C, racer.read(self.labels), R, C])
        return {"loss": self.loss, "dx": self.dx}

    def program_b(self):
        racer.launch(ref("softmax_losses.cu", "jsd_rows"), grid=1, block=R,
                     args=[racer.read(self.x), racer.read(self.y), racer.write(self.loss), racer.write(self.dx),
                           R, C, self.beta, float(R)])
        return {"loss": self.loss, "dx": self.dx}


class LigerJsd(_Jsd, Row):
    """liger _jsd_kernel, beta 0.5: pointwise loss and gradient"""

    def program_a(self):
        return self.launch_a()


class LigerJsdSwappedWeightsMutant(_Jsd, Mutation):
    """mutation: beta and 1 - beta swapped in the mixture M"""
    beta = 0.25

    def program_a(self):
        return self.launch_a(mutate=[("M_shifted = beta * tl.exp(Y_shifted) + (1 - beta) * tl.exp(X_shifted)",
                                      "M_shifted = (1 - beta) * tl.exp(Y_shifted) + beta * tl.exp(X_shifted)")])


class _KlJsd(_Jsd):
    """liger _jsd_kernel at beta 0 or 1, its forward / reverse KL branches (a row max, then exp)"""
    mutate = None

    def program_a(self):
        return self.launch_a(**({"mutate": self.mutate} if self.mutate else {}))

    def program_b(self):
        racer.launch(ref("softmax_losses.cu", "kl_jsd_rows"), grid=1, block=R,
                     args=[racer.read(self.x), racer.read(self.y), racer.write(self.loss), racer.write(self.dx),
                           R, C, int(self.beta == 1.0), float(R)])
        return {"loss": self.loss, "dx": self.dx}


class LigerJsdForwardKl(_KlJsd, Row):
    """liger _jsd_kernel, beta 0: forward KL(P || Q) and its gradient"""
    beta = 0.0


class LigerJsdReverseKl(_KlJsd, Row):
    """liger _jsd_kernel, beta 1: reverse KL(Q || P) and its gradient"""
    beta = 1.0


class LigerJsdReverseKlGradientSignMutant(_KlJsd, Mutation):
    """mutation: the reverse-KL gradient subtracts Q instead of adding it"""
    beta = 1.0
    mutate = [("dX = loss + X_prob", "dX = loss - X_prob")]


class LigerJsdIgnoredLabel(_Jsd, Row):
    """liger _jsd_kernel with labels, beta 0.5: row 0's label is ignore_index (zero gradient, no loss), mean over 2"""

    def setup(self):
        super().setup()
        self.labels = racer.values([-100, 3, 7], dtype="i64")

    def launch_a(self):
        k = racer.triton(kernel("liger_kernel.ops.jsd", "_jsd_kernel"), beta=self.beta, ignore_index=-100,
                         BLOCK_SIZE=16, HAS_LABEL=True, num_warps=1)
        racer.launch(k, grid=R, args=[racer.read(self.x), C, racer.read(self.y), C, racer.write(self.loss), C,
                                      racer.write(self.dx), C, racer.read(self.labels), R - 1, C])
        return {"loss": self.loss, "dx": self.dx}

    def program_a(self):
        return self.launch_a()

    def program_b(self):
        racer.launch(ref("softmax_losses.cu", "jsd_rows_labels"), grid=1, block=R,
                     args=[racer.read(self.x), racer.read(self.y), racer.read(self.labels), racer.write(self.loss),
                           racer.write(self.dx), R, C, self.beta, float(R - 1), -100])
        return {"loss": self.loss, "dx": self.dx}


T, H, HD = 4, 2, 16  # tokens (batch 1), heads, head dim


class _Rope:
    def setup(self):
        self.q = racer.input((T, H, HD), "f32", range=(-2, 2))
        self.k = racer.input((T, H, HD), "f32", range=(-2, 2))
        self.cos = racer.input((T, HD), "f32", range=(-1, 1))
        self.sin = racer.input((T, HD), "f32", range=(-1, 1))

    def launch_a(self, **mutation):
        k = racer.triton(kernel("liger_kernel.ops.rope", "_triton_rope", **mutation), bs=1, cos_bs=1, n_qh=H, n_kh=H,
                         hd=HD, pad_n_qh=H, pad_n_kh=H, pad_hd=HD, pad_rd=HD, rd=HD, BLOCK_SIZE=HD, BACKWARD_PASS=False,
                         num_warps=1)
        racer.launch(k, grid=T, args=[racer.readwrite(self.q), H * HD, racer.readwrite(self.k), H * HD,
                                      racer.read(self.cos), HD, racer.read(self.sin), HD, T])
        return {"q": self.q, "k": self.k}

    def program_b(self):
        for t in (self.q, self.k):
            racer.launch(ref("softmax_losses.cu", "rope_neox"), grid=1, block=T,
                         args=[racer.readwrite(t), racer.read(self.cos), racer.read(self.sin), T, H, HD])
        return {"q": self.q, "k": self.k}


class LigerRope(_Rope, Row):
    """liger _triton_rope forward (NeoX halves), q and k in place"""

    def program_a(self):
        return self.launch_a()


class LigerRopeSignMutant(_Rope, Mutation):
    """mutation: the rotated second half of k adds where it should subtract (an inverse rotation)"""

    def program_a(self):
        return self.launch_a(mutate=[("new_k_tile_1 = k_tile_1 * cos_row - k_tile_2 * sin_row",
                                      "new_k_tile_1 = k_tile_1 * cos_row + k_tile_2 * sin_row")])
