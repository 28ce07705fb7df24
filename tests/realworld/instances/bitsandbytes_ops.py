"""bitsandbytes 0.50.2: its Triton backend's kernels (bitsandbytes/backends/triton/: kernels_optim.py's 32-bit and
8-bit blockwise optimizer updates, kernels_4bit.py's NF4 / FP4 blockwise quantization and dequantization,
kernels_8bit_quant.py's code-table quantization), against reference/bitsandbytes_ops.cu. Each launched as
bitsandbytes' host wrapper (backends/triton/ops.py, kernels_*.py) does: the optimizers with BLOCK_SIZE 256,
N_PER_TH 1, num_warps 2, grid cdiv(n, 256), the hyper-parameters as bitsandbytes' optimizer classes pass them
(beta1 ** step and beta2 ** step computed on the host); 4-bit quantization with SPLIT_NUM_BLOCKS 4, dequantization
with SPLIT_SIZE 256 (Triton's default 4 warps)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import numpy as np  # noqa: E402
import racer  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

OPT = "bitsandbytes.backends.triton.kernels_optim"
Q4 = "bitsandbytes.backends.triton.kernels_4bit"
Q8 = "bitsandbytes.backends.triton.kernels_8bit_quant"
REF = "bitsandbytes_ops.cu"
ADAM, ADEMAMIX, MOMENTUM, RMSPROP, ADAGRAD, LION = 3, 5, 0, 1, 2, 4  # kernels_optim's optimizer ids
N = 96  # elements of the optimizer rows: one program of 256 lanes, the last 160 masked
OPT_LAUNCH = {"BLOCK_SIZE": 256, "N_PER_TH": 1, "num_warps": 2}


def _update_args(t, step, b1, b2, lr, param_norm=0.0, beta3=0.0, alpha=0.0):
    """The runtime arguments of kernels_optim's 32-bit update kernels (optimizer_update_32bit_impl's order)."""
    two = [racer.readwrite(t.s2)] if getattr(t, "s2", None) is not None else []  # state2_ptr None: a constexpr
    return [racer.read(t.g), racer.readwrite(t.p), racer.readwrite(t.s1), *two, param_norm, beta3, alpha, step,
            b1 ** step, b2 ** step, lr, False, N]


# ---- 32-bit two-state: Adam / AdamW, AdEMAMix ----
class _Adam32:
    """bitsandbytes _optimizer_update_2state_32bit_triton_kernel (backends/triton/kernels_optim.py,
    optimizer_update_32bit_impl for "adam"): g, p, state1 (m), state2 (v) [96] f32, betas (0.9, 0.999), eps 1e-8,
    lr 1e-3, step 3, gnorm_scale 1, max_unorm 0 (unorm_vec None); OPTIMIZER_ID 3, BLOCK_SIZE 256, N_PER_TH 1,
    num_warps 2, grid (1,)"""
    mutate = None
    wd, gs, dtype, entry = 0.0, 1.0, "f32", "adam_32bit"

    def setup(self):
        self.g = racer.input((N,), self.dtype, range=(-1, 1))
        self.p = racer.input((N,), self.dtype, range=(-1, 1))
        self.s1 = racer.input((N,), "f32", range=(-1, 1))
        self.s2 = racer.input((N,), "f32", range=(0, 1))

    def program_a(self):
        k = racer.triton(kernel(OPT, "_optimizer_update_2state_32bit_triton_kernel", self.mutate), unorm_ptr=None,
                         max_unorm=0.0, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=self.wd, gnorm_scale=self.gs,
                         OPTIMIZER_ID=ADAM, **OPT_LAUNCH)
        a = _update_args(self, 3, 0.9, 0.999, 1e-3)
        racer.launch(k, grid=1, args=a)
        return {"p": self.p, "s1": self.s1, "s2": self.s2}

    def program_b(self):
        racer.launch(ref(REF, self.entry), grid=1, block=128,
                     args=[racer.read(self.g), racer.readwrite(self.p), racer.readwrite(self.s1), racer.readwrite(self.s2),
                           N, 0.9, 1.0 - 0.9, 0.999, 1.0 - 0.999, 1e-8, self.wd, 1e-3, 0.9 ** 3, 0.999 ** 3, self.gs])
        return {"p": self.p, "s1": self.s1, "s2": self.s2}


class BnbAdam32bit(_Adam32, Row):
    """bitsandbytes Adam (32-bit states): m, v EMAs, p -= lr / (1 - b1^t) m / (sqrt(v) / sqrt(1 - b2^t) + eps)"""


class BnbAdamW32bit(_Adam32, Row):
    """bitsandbytes AdamW (32-bit states, weight_decay 1e-2 constexpr): p (1 - lr wd) before the Adam step"""
    wd = 1e-2


class BnbAdamW32bitBf16GnormScale(_Adam32, Row):
    """bitsandbytes AdamW (32-bit states) on bf16 g and p (states f32), weight_decay 1e-2, gnorm_scale 0.5: g
    scaled, the update in f32, p stored back as bf16"""
    wd, gs, dtype, entry = 1e-2, 0.5, "bf16", "adam_32bit_bf16"


class BnbAdam32bitEpsPlacementMutant(_Adam32, Mutation):
    """mutation: eps added to sqrt(v) unscaled by sqrt(1 - b2^t) (the eps of the uncorrected denominator)"""
    mutate = [("(tl.sqrt(s2_vals) + eps * correction2)", "(tl.sqrt(s2_vals) + eps)")]


class BnbAdam32bitBiasCorrectionMutant(_Adam32, Mutation):
    """mutation: the first moment corrected with beta2^t instead of beta1^t"""
    mutate = [("correction1 = 1.0 - beta1_step\n        correction2 = tl.sqrt(1.0 - beta2_step)\n        step_size",
               "correction1 = 1.0 - beta2_step\n        correction2 = tl.sqrt(1.0 - beta2_step)\n        step_size")]


class BnbAdamW32bitDecayNoLrMutant(_Adam32, Mutation):
    """mutation: AdamW's decay factor misses the learning rate (p (1 - wd))"""
    wd = 1e-2
    mutate = [("p_vals = p_vals * (1.0 - lr * weight_decay)\n\n        update_val",
               "p_vals = p_vals * (1.0 - weight_decay)\n\n        update_val")]


class _Ademamix32:
    """bitsandbytes _optimizer_update_2state_32bit_triton_kernel (kernels_optim.py, optimizer_update_32bit_impl for
    "ademamix"): g, p, nu [96] f32, state1 [2][96] (m1, m2); betas (0.9, 0.999, 0.9999) (beta3 at run time),
    alpha 5, eps 1e-8, weight_decay 1e-2, lr 1e-3, step 3; OPTIMIZER_ID 5, BLOCK_SIZE 256, num_warps 2, grid (1,)"""
    mutate = None

    def setup(self):
        self.g = racer.input((N,), "f32", range=(-1, 1))
        self.p = racer.input((N,), "f32", range=(-1, 1))
        self.s1 = racer.input((2, N), "f32", range=(-1, 1))
        self.s2 = racer.input((N,), "f32", range=(0, 1))

    def program_a(self):
        k = racer.triton(kernel(OPT, "_optimizer_update_2state_32bit_triton_kernel", self.mutate), unorm_ptr=None,
                         max_unorm=0.0, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=1e-2, gnorm_scale=1.0,
                         OPTIMIZER_ID=ADEMAMIX, **OPT_LAUNCH)
        racer.launch(k, grid=1, args=_update_args(self, 3, 0.9, 0.999, 1e-3, beta3=0.9999, alpha=5.0))
        return {"p": self.p, "s1": self.s1, "s2": self.s2}

    def program_b(self):
        racer.launch(ref(REF, "ademamix_32bit"), grid=1, block=128,
                     args=[racer.read(self.g), racer.readwrite(self.p), racer.readwrite(self.s1), racer.readwrite(self.s2),
                           N, 0.9, 1.0 - 0.9, 0.999, 1.0 - 0.999, 0.9999, 5.0, 1e-8, 1e-2, 1e-3, 0.9 ** 3, 0.999 ** 3])
        return {"p": self.p, "s1": self.s1, "s2": self.s2}


class BnbAdemamix32bit(_Ademamix32, Row):
    """bitsandbytes AdEMAMix (32-bit states): fast and slow EMAs mixed, m1 / (1 - b1^t) + alpha m2"""


class BnbAdemamix32bitAlphaMutant(_Ademamix32, Mutation):
    """mutation: alpha weighs the fast EMA instead of the slow one"""
    mutate = [("(s1_vals / correction1) + (alpha * s3_vals)", "(alpha * s1_vals / correction1) + s3_vals")]


class _Lamb32:
    """bitsandbytes LAMB: optimizer_update_32bit_impl for "lamb" with max_unorm 1.0 launches
    _optimizer_precondition_2state_32bit (the squared norm of the bias-corrected Adam update, tl.atomic_add into
    unorm_vec, zeroed by the host) then _optimizer_update_2state_32bit_triton_kernel (update scaled by
    max_unorm param_norm / sqrt(unorm) when larger); g, p, m, v [96] f32, betas (0.9, 0.999), eps 1e-8, weight_decay
    0, lr 1e-3, step 3, param_norm (the host's ||p||) a free scalar in [0.01, 4]; OPTIMIZER_ID 3, BLOCK_SIZE 256,
    num_warps 2, grid (1,) each"""
    mutate = None

    def setup(self):
        self.g = racer.input((N,), "f32", range=(-1, 1))
        self.p = racer.input((N,), "f32", range=(-1, 1))
        self.s1 = racer.input((N,), "f32", range=(-1, 1))
        self.s2 = racer.input((N,), "f32", range=(0, 1))
        self.unorm = racer.zeros((1,), "f32")
        self.pnorm = racer.input((1,), "f32", range=(0.01, 4))

    def program_a(self):
        pre = racer.triton(kernel(OPT, "_optimizer_precondition_2state_32bit"), beta1=0.9, beta2=0.999, eps=1e-8,
                           weight_decay=0.0, gnorm_scale=1.0, OPTIMIZER_ID=ADAM, **OPT_LAUNCH)
        racer.launch(pre, grid=1, args=[racer.read(self.g), racer.read(self.p), racer.read(self.s1), racer.read(self.s2),
                                        racer.readwrite(self.unorm), 3, 0.9 ** 3, 0.999 ** 3, 1e-3, N])
        k = racer.triton(kernel(OPT, "_optimizer_update_2state_32bit_triton_kernel", self.mutate), max_unorm=1.0,
                         beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.0, gnorm_scale=1.0, OPTIMIZER_ID=ADAM,
                         **OPT_LAUNCH)
        racer.launch(k, grid=1, args=[racer.read(self.g), racer.readwrite(self.p), racer.readwrite(self.s1),
                                      racer.readwrite(self.s2), racer.read(self.unorm), racer.scalar(self.pnorm, "f32"),
                                      0.0, 0.0, 3, 0.9 ** 3, 0.999 ** 3, 1e-3, False, N])
        return {"p": self.p, "s1": self.s1, "s2": self.s2, "unorm": self.unorm}

    def program_b(self):
        racer.launch(ref(REF, "lamb_32bit"), grid=1, block=32,
                     args=[racer.read(self.g), racer.readwrite(self.p), racer.readwrite(self.s1), racer.readwrite(self.s2),
                           racer.write(self.unorm), N, 0.9, 1.0 - 0.9, 0.999, 1.0 - 0.999, 1e-8, 0.0, 1e-3, 0.9 ** 3,
                           0.999 ** 3, 1.0, racer.scalar(self.pnorm, "f32")])
        return {"p": self.p, "s1": self.s1, "s2": self.s2, "unorm": self.unorm}


class BnbLamb32bit(_Lamb32, Row):
    """bitsandbytes LAMB (32-bit): Adam with the update norm clipped to max_unorm ||p||"""


class BnbLamb32bitTrustRatioMutant(_Lamb32, Mutation):
    """mutation: the clipping ratio inverted (current_unorm / (max_unorm param_norm))"""
    mutate = [("update_scale = (max_unorm * param_norm) / current_unorm",
               "update_scale = current_unorm / (max_unorm * param_norm)")]


# ---- 32-bit one-state: momentum SGD, LARS, RMSprop, Adagrad, Lion ----
class _OneState32:
    """bitsandbytes _optimizer_update_1state_32bit_triton_kernel (kernels_optim.py, optimizer_update_32bit_impl):
    g, p, state1 [96] f32 (state2 None); BLOCK_SIZE 256, N_PER_TH 1, num_warps 2, grid (1,)"""
    mutate = None
    opt = 0
    b1 = b2 = eps = wd = lr = 0.0
    step = 3
    entry = ""
    s1_range = (-1, 1)

    def setup(self):
        self.g = racer.input((N,), "f32", range=(-1, 1))
        self.p = racer.input((N,), "f32", range=(-1, 1))
        self.s1 = racer.input((N,), "f32", range=self.s1_range)

    def program_a(self):
        k = racer.triton(kernel(OPT, "_optimizer_update_1state_32bit_triton_kernel", self.mutate), state2_ptr=None,
                         unorm_ptr=None, max_unorm=0.0, beta1=self.b1, beta2=self.b2, eps=self.eps,
                         weight_decay=self.wd, gnorm_scale=1.0, OPTIMIZER_ID=self.opt, **OPT_LAUNCH)
        racer.launch(k, grid=1, args=_update_args(self, self.step, self.b1, self.b2, self.lr))
        return {"p": self.p, "s1": self.s1}

    def ref_args(self):
        return []

    def program_b(self):
        racer.launch(ref(REF, self.entry), grid=1, block=128,
                     args=[racer.read(self.g), racer.readwrite(self.p), racer.readwrite(self.s1), N, *self.ref_args()])
        return {"p": self.p, "s1": self.s1}


class _Momentum32(_OneState32):
    """momentum SGD as bitsandbytes' SGD passes it: betas (momentum 0.9, dampening 0), eps 0, lr 1e-2; OPTIMIZER_ID 0"""
    opt, b1, b2, eps, lr, entry = MOMENTUM, 0.9, 0.0, 0.0, 1e-2, "momentum_32bit"

    def ref_args(self):
        return [self.step, self.b1, self.wd, self.lr]


class BnbMomentum32bitFirstStep(_Momentum32, Row):
    """bitsandbytes SGD with momentum (32-bit), step 1: the momentum starts as g, p -= lr g"""
    step = 1


class BnbMomentum32bitWeightDecay(_Momentum32, Row):
    """bitsandbytes SGD with momentum (32-bit), step 3, weight_decay 1e-4 (coupled: g + wd p)"""
    wd = 1e-4


class BnbMomentum32bitFirstStepMutant(_Momentum32, Mutation):
    """mutation: the first-step test off by one (step == 0), so step 1 blends in the stale momentum"""
    step = 1
    mutate = [("if step == 1:\n            s1_vals = g_vals\n", "if step == 0:\n            s1_vals = g_vals\n")]


class _Rmsprop32(_OneState32):
    """RMSprop as bitsandbytes' RMSprop passes it: betas (alpha 0.99, momentum 0), eps 1e-8, lr 1e-2,
    weight_decay 1e-2; OPTIMIZER_ID 1; state1 (the mean square) in [0, 1]"""
    opt, b1, b2, eps, wd, lr, entry, s1_range = RMSPROP, 0.99, 0.0, 1e-8, 1e-2, 1e-2, "rmsprop_32bit", (0, 1)

    def ref_args(self):
        return [self.b1, 1.0 - self.b1, self.eps, self.wd, self.lr]


class BnbRmsprop32bit(_Rmsprop32, Row):
    """bitsandbytes RMSprop (32-bit): s = a s + (1 - a) g^2, p -= lr g / (sqrt(s) + eps)"""


class BnbRmsprop32bitSquareMutant(_Rmsprop32, Mutation):
    """mutation: the mean square accumulates g instead of g^2"""
    mutate = [("s1_vals = s1_vals * beta1 + (1.0 - beta1) * g_vals * g_vals\n\n        update_val = update_scale",
               "s1_vals = s1_vals * beta1 + (1.0 - beta1) * g_vals * 1.0000\n\n        update_val = update_scale")]


class _Adagrad32(_OneState32):
    """Adagrad as bitsandbytes' Adagrad passes it: betas (0, 0), eps 1e-10, lr 1e-2, weight_decay 1e-2;
    OPTIMIZER_ID 2; state1 (the sum of squares) in [0, 4]"""
    opt, eps, wd, lr, entry, s1_range = ADAGRAD, 1e-10, 1e-2, 1e-2, "adagrad_32bit", (0, 4)

    def ref_args(self):
        return [self.eps, self.wd, self.lr]


class BnbAdagrad32bit(_Adagrad32, Row):
    """bitsandbytes Adagrad (32-bit): s += g^2, p -= lr g / (sqrt(s) + eps), coupled weight decay"""


class BnbAdagrad32bitDecayMutant(_Adagrad32, Mutation):
    """mutation: the coupled weight decay adds wd instead of wd p to the gradient"""
    mutate = [("g_vals = g_vals + p_vals * weight_decay", "g_vals = g_vals + 1.0000 * weight_decay")]


class _Lion32(_OneState32):
    """Lion as bitsandbytes' Lion passes it: betas (0.9, 0.99), eps 0, lr 1e-4; OPTIMIZER_ID 4"""
    opt, b1, b2, lr, entry = LION, 0.9, 0.99, 1e-4, "lion_32bit"

    def ref_args(self):
        return [self.b1, 1.0 - self.b1, self.b2, 1.0 - self.b2, self.wd, self.lr]


class BnbLion32bit(_Lion32, Row):
    """bitsandbytes Lion (32-bit): p -= lr sign(b1 s + (1 - b1) g), s = b2 s + (1 - b2) g"""


class BnbLion32bitWeightDecay(_Lion32, Row):
    """bitsandbytes Lion (32-bit), weight_decay 1e-2 (decoupled: p (1 - lr wd))"""
    wd = 1e-2


class BnbLion32bitSignBetaMutant(_Lion32, Mutation):
    """mutation: the sign taken of the beta2 interpolation (the new state) instead of beta1's"""
    mutate = [("momentum_update = s1_vals * beta1 + (1.0 - beta1) * g_vals",
               "momentum_update = s1_vals * beta2 + (1.0 - beta2) * g_vals")]


class _Lars32:
    """bitsandbytes LARS: optimizer_update_32bit_impl for "lars" (momentum, max_unorm 0.02) launches
    _optimizer_precondition_1state_32bit (the squared norm of the new momentum, atomic_add into the zeroed unorm_vec)
    then _optimizer_update_1state_32bit_triton_kernel (update scaled by (max_unorm param_norm + eps) / sqrt(unorm)
    when larger); g, p, state1 [96] f32, betas (momentum 0.9, dampening 0), eps 0, weight_decay 0, lr 1e-2, step 3,
    param_norm a free scalar in [0.01, 4]; OPTIMIZER_ID 0, BLOCK_SIZE 256, num_warps 2, grid (1,) each"""
    mutate = None

    def setup(self):
        self.g = racer.input((N,), "f32", range=(-1, 1))
        self.p = racer.input((N,), "f32", range=(-1, 1))
        self.s1 = racer.input((N,), "f32", range=(-1, 1))
        self.unorm = racer.zeros((1,), "f32")
        self.pnorm = racer.input((1,), "f32", range=(0.01, 4))

    def program_a(self):
        pre = racer.triton(kernel(OPT, "_optimizer_precondition_1state_32bit"), state2_ptr=None, beta1=0.9, beta2=0.0,
                           eps=0.0, gnorm_scale=1.0, OPTIMIZER_ID=MOMENTUM, **OPT_LAUNCH)
        racer.launch(pre, grid=1, args=[racer.read(self.g), racer.read(self.p), racer.read(self.s1),
                                        racer.readwrite(self.unorm), 0.0, 3, 0.9 ** 3, 0.0, 1e-2, N])
        k = racer.triton(kernel(OPT, "_optimizer_update_1state_32bit_triton_kernel", self.mutate), state2_ptr=None,
                         max_unorm=0.02, beta1=0.9, beta2=0.0, eps=0.0, weight_decay=0.0, gnorm_scale=1.0,
                         OPTIMIZER_ID=MOMENTUM, **OPT_LAUNCH)
        racer.launch(k, grid=1, args=[racer.read(self.g), racer.readwrite(self.p), racer.readwrite(self.s1),
                                      racer.read(self.unorm), racer.scalar(self.pnorm, "f32"), 0.0, 0.0, 3, 0.9 ** 3,
                                      0.0, 1e-2, False, N])
        return {"p": self.p, "s1": self.s1, "unorm": self.unorm}

    def program_b(self):
        racer.launch(ref(REF, "lars_32bit"), grid=1, block=32,
                     args=[racer.read(self.g), racer.readwrite(self.p), racer.readwrite(self.s1), racer.write(self.unorm),
                           N, 3, 0.9, 1e-2, 0.0, 0.02, racer.scalar(self.pnorm, "f32")])
        return {"p": self.p, "s1": self.s1, "unorm": self.unorm}


class BnbLars32bit(_Lars32, Row):
    """bitsandbytes LARS (32-bit): momentum SGD with the update norm clipped to max_unorm ||p||"""


class BnbLars32bitClipMutant(_Lars32, Mutation):
    """mutation: the clipping test compares the squared norm (the unorm buffer) instead of its square root"""
    mutate = [("current_unorm = tl.sqrt(tl.load(unorm_ptr))", "current_unorm = tl.load(unorm_ptr) * 1.0")]


# ---- 4-bit NF4 / FP4 blockwise quantization (kernels_4bit.py) ----
class _Quant4:
    """bitsandbytes quantize_nf4_blockwise_kernel / quantize_fp4_blockwise_kernel (backends/triton/kernels_4bit.py,
    quantize_4bit_blockwise_triton from ops.quantize_4bit): A [128] f32, blocksize 32, blocks = cdiv(n, 2 x 32) = 2,
    absmax [2 blocks x 2] f32, out [n - n // 2] u8 (two codes a byte, the first element high); BLOCK_SIZE 32,
    SPLIT_NUM_BLOCKS 4 (each program takes 8 blocks), grid cdiv(2, 4) = (1,), 4 warps"""
    mutate = None
    n, nabs, entry, fn = 128, 4, "quant_nf4", "quantize_nf4_blockwise_kernel"

    def setup(self):
        self.x = racer.input((self.n,), "f32", range=(-4, 4))
        self.absmax = racer.empty((self.nabs,), "f32")
        self.q = racer.empty((self.n - self.n // 2,), "u8")

    def program_a(self):
        k = racer.triton(kernel(Q4, self.fn, self.mutate), BLOCK_SIZE=32, SPLIT_NUM_BLOCKS=4)
        racer.launch(k, grid=1, args=[racer.read(self.x), racer.write(self.absmax), racer.write(self.q), self.n,
                                      self.nabs])
        return {"absmax": self.absmax, "q": self.q}

    def program_b(self):
        racer.launch(ref(REF, self.entry), grid=1, block=32,
                     args=[racer.read(self.x), racer.write(self.absmax), racer.write(self.q), self.n, self.nabs, 32])
        return {"absmax": self.absmax, "q": self.q}


class BnbQuantizeNf4(_Quant4, Row):
    """bitsandbytes quantize_4bit (NF4): absmax per 32-block, the nearest NF4 level of x / absmax, packed"""


class BnbQuantizeFp4(_Quant4, Row):
    """bitsandbytes quantize_4bit (FP4): absmax per 32-block, sign bit and the 3-bit code of |x| / absmax past
    bitsandbytes' decision boundaries, packed"""
    entry, fn = "quant_fp4", "quantize_fp4_blockwise_kernel"


BYTES = [(37 * i + 11) % 256 for i in range(256)]  # every byte value once: every pair of 4-bit codes


class _Dequant4:
    """bitsandbytes dequant_nf4_kernel / dequant_fp4_kernel (kernels_4bit.py, dequantize_4bit_impl from
    ops.dequantize_4bit): A [256] u8 holding every byte value once (so every code in both nibbles: the codes are
    known, the scales free), absmax [16] f32 (blocksize 32: 16 bytes a block), out [512]; QUANT_BLOCK 32,
    SPLIT_SIZE 256, grid cdiv(256, 256) = (1,), 4 warps"""
    mutate = None
    inside = None
    fn, entry, dtype = "dequant_nf4_kernel", "dequant_nf4_f32", "f32"
    nq = 256

    def codes(self):
        return racer.values(BYTES, dtype="u8")

    def setup(self):
        self.q = self.codes()
        self.absmax = racer.input((self.nq // 16,), "f32", range=(0.01, 4))
        self.y = racer.empty((2 * self.nq,), self.dtype)

    def program_a(self):
        k = racer.triton(kernel(Q4, self.fn, self.mutate, inside=self.inside), QUANT_BLOCK=32, SPLIT_SIZE=256)
        racer.launch(k, grid=1, args=[racer.read(self.q), racer.write(self.y), racer.read(self.absmax), self.nq,
                                      2 * self.nq])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref(REF, self.entry), grid=2, block=128,
                     args=[racer.read(self.q), racer.read(self.absmax), racer.write(self.y), self.nq, 32])
        return {"y": self.y}


class BnbDequantizeNf4(_Dequant4, Row):
    """bitsandbytes dequantize_4bit (NF4, f32 out): y = NF4 level of each nibble x its block's absmax"""


class BnbDequantizeNf4SymbolicCodes(_Dequant4, Row):
    """bitsandbytes dequantize_4bit (NF4, f32 out) with the codes free too: A [64] u8 any, absmax [4], out [128]"""
    nq = 64

    def codes(self):
        return racer.input((64,), "u8")


class BnbDequantizeNf4Bf16(_Dequant4, Row):
    """bitsandbytes dequantize_4bit (NF4, bf16 out): the f32 product rounded to bf16"""
    entry, dtype = "dequant_nf4_bf16", "bf16"


class BnbDequantizeNf4AbsmaxIndexMutant(_Dequant4, Mutation):
    """mutation: the absmax index counts elements, not bytes (offsets // QUANT_BLOCK on byte offsets)"""
    inside = "dequant_nf4_body_util"
    mutate = [("abs_offsets = offsets // PAIRED_QUANT_BLOCK", "abs_offsets = offsets // QUANT_BLOCK")]


class BnbDequantizeNf4LevelMutant(_Dequant4, Mutation):
    """mutation: two adjacent NF4 levels swapped in the decoding tree (codes 1101 and 1100)"""
    inside = "dequantize_nf4_tree"
    mutate = [("tl.where(cond3, 0.5626170039176941, 0.44070982933044434)",
               "tl.where(cond3, 0.44070982933044434, 0.5626170039176941)")]


class BnbDequantizeFp4(_Dequant4, Row):
    """bitsandbytes dequantize_4bit (FP4, f32 out): sign x the 3-bit code's level x absmax"""
    fn, entry = "dequant_fp4_kernel", "dequant_fp4_f32"


class BnbDequantizeFp4InterleaveMutant(_Dequant4, Mutation):
    """mutation: the two nibbles interleaved in the wrong order (low nibble first)"""
    fn, entry = "dequant_fp4_kernel", "dequant_fp4_f32"
    inside = "dequant_fp4_body_util"
    mutate = [("out_dq = tl.interleave(mul_low, mul_high)", "out_dq = tl.interleave(mul_high, mul_low)")]


# ---- 8-bit blockwise with a code table (kernels_8bit_quant.py, kernels_optim.py) ----
SIGNED_MAP = np.linspace(-1, 1, 256, dtype=np.float32)  # an ascending signed code table (bitsandbytes' linear map)
UNSIGNED_MAP = np.linspace(0, 1, 256, dtype=np.float32)


class _Dequant8:
    """bitsandbytes dequant_8bit_kernel (backends/triton/kernels_8bit_quant.py, dequant_8bit_blockwise from
    ops.dequantize_blockwise): A [256] u8, code [256] f32 and absmax [4] f32 (blocksize 64) all free, out [256]
    f32 (the table read at an index loaded from A); QUANT_BLOCK 64, SPLIT_SIZE 256, grid cdiv(256, 256) = (1,),
    4 warps"""
    mutate = None
    inside = None

    def setup(self):
        self.q = racer.input((256,), "u8")
        self.code = racer.input((256,), "f32", range=(-1, 1))
        self.absmax = racer.input((4,), "f32", range=(0.01, 4))
        self.y = racer.empty((256,), "f32")

    def program_a(self):
        k = racer.triton(kernel(Q8, "dequant_8bit_kernel", self.mutate, inside=self.inside), QUANT_BLOCK=64,
                         SPLIT_SIZE=256)
        racer.launch(k, grid=1, args=[racer.read(self.q), racer.write(self.y), racer.read(self.code),
                                      racer.read(self.absmax), 256])
        return {"y": self.y}

    def program_b(self):
        racer.launch(ref(REF, "dequant_8bit"), grid=2, block=128,
                     args=[racer.read(self.q), racer.read(self.code), racer.read(self.absmax), racer.write(self.y), 256,
                           64])
        return {"y": self.y}


class BnbDequantize8bit(_Dequant8, Row):
    """bitsandbytes dequantize_blockwise (8-bit): y = code[q] x absmax of q's 64-block"""


class BnbDequantize8bitAbsmaxBlockMutant(_Dequant8, Mutation):
    """mutation: the absmax index divides by twice the block size (one scale per pair of blocks)"""
    inside = "dequant_8bit_blockwise_kernel_util"
    mutate = [("absmax_offsets = offsets // BLOCK_SIZE", "absmax_offsets = offsets // (2 * BLOCK_SIZE)")]


class BnbQuantize8bit(Row):
    """bitsandbytes quantize_8bit_blockwise_kernel (kernels_8bit_quant.py, quantize_blockwise_triton from
    ops.quantize_blockwise): A [128] f32, an ascending code table [256] (the signed linear map), blocksize 64,
    absmax [2], out [128] u8 = the nearest code (ties to the lower) by an 8-step binary search over the table;
    BLOCK_SIZE 64, CODE_SIZE 256, SPLIT_NUM_BLOCKS 1, grid (2,), 4 warps"""

    def setup(self):
        self.x = racer.input((128,), "f32", range=(-4, 4))
        self.code = racer.values(SIGNED_MAP, dtype="f32")
        self.absmax = racer.empty((2,), "f32")
        self.q = racer.empty((128,), "u8")

    def program_a(self):
        k = racer.triton(kernel(Q8, "quantize_8bit_blockwise_kernel"), BLOCK_SIZE=64, CODE_SIZE=256, SPLIT_NUM_BLOCKS=1)
        racer.launch(k, grid=2, args=[racer.read(self.x), racer.read(self.code), racer.write(self.absmax),
                                      racer.write(self.q), 128])
        return {"absmax": self.absmax, "q": self.q}

    def program_b(self):
        racer.launch(ref(REF, "quant_8bit"), grid=1, block=32,
                     args=[racer.read(self.x), racer.read(self.code), racer.write(self.absmax), racer.write(self.q), 128,
                           64])
        return {"absmax": self.absmax, "q": self.q}


class BnbAdam8bitBlockwise(Row):
    """bitsandbytes _optimizer_update_2state_8bit_blockwise_triton_kernel (kernels_optim.py,
    optimizer_update_8bit_blockwise_impl for "adam"): p, g [256] f32, state1 / state2 [256] u8 (every byte value
    once), qmap1 signed and qmap2 unsigned ascending tables [256], absmax1 / absmax2 [1] free; the states dequantized,
    the Adam step (betas (0.9, 0.999), eps 1e-8, lr 1e-3, step 3, weight_decay 0, gnorm_scale 1), requantized by
    binary search; BLOCK_SIZE_N 256, N_PER_TH 1, OPTIMIZER_ID 3, num_warps 2, grid (1,)"""

    def setup(self):
        self.g = racer.input((256,), "f32", range=(-1, 1))
        self.p = racer.input((256,), "f32", range=(-1, 1))
        self.q1 = racer.values(BYTES, dtype="u8")
        self.q2 = racer.values(BYTES, dtype="u8")
        self.map1 = racer.values(SIGNED_MAP, dtype="f32")
        self.map2 = racer.values(UNSIGNED_MAP, dtype="f32")
        self.a1 = racer.input((1,), "f32", range=(0.01, 1))
        self.a2 = racer.input((1,), "f32", range=(0.01, 1))
        self.m32 = racer.empty((256,), "f32")
        self.v32 = racer.empty((256,), "f32")

    def program_a(self):
        k = racer.triton(kernel(OPT, "_optimizer_update_2state_8bit_blockwise_triton_kernel"), beta1=0.9, beta2=0.999,
                         eps=1e-8, weight_decay=0.0, gnorm_scale=1.0, BLOCK_SIZE_N=256, N_PER_TH=1, OPTIMIZER_ID=ADAM,
                         num_warps=2)
        racer.launch(k, grid=1, args=[racer.readwrite(self.p), racer.read(self.g), racer.readwrite(self.q1),
                                      racer.readwrite(self.q2), 0.0, 0.0, 3, 0.9 ** 3, 0.999 ** 3, 1e-3,
                                      racer.read(self.map1), racer.read(self.map2), racer.readwrite(self.a1),
                                      racer.readwrite(self.a2), 256])
        return {"p": self.p, "q1": self.q1, "q2": self.q2, "a1": self.a1, "a2": self.a2}

    def program_b(self):
        racer.launch(ref(REF, "adam_8bit"), grid=1, block=32,
                     args=[racer.read(self.g), racer.readwrite(self.p), racer.readwrite(self.q1), racer.readwrite(self.q2),
                           racer.read(self.map1), racer.read(self.map2), racer.readwrite(self.a1), racer.readwrite(self.a2),
                           racer.write(self.m32), racer.write(self.v32), 256, 256, 0.9, 1.0 - 0.9, 0.999, 1.0 - 0.999,
                           1e-8, 0.0, 1e-3, 0.9 ** 3, 0.999 ** 3])
        return {"p": self.p, "q1": self.q1, "q2": self.q2, "a1": self.a1, "a2": self.a2}
