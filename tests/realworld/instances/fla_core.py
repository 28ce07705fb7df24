"""fla-core (flash-linear-attention): chunk-local and global cumsum, the fused linear KL-div and
cross-entropy kernels (after their matmul), the chunked linear-attention state and
output kernels (chunk_fwd_kernel_h, chunk_fwd_kernel_o), softmax and log-sum-exp utilities, against
reference/linear_attention.cu and reference/softmax_losses.cu. One batch, one head, T = 32 in
chunks of 16, K = V = 16, f16 inputs."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
from common import Mutation, Row, kernel, ref  # noqa: E402

T, K, V, BT = 32, 16, 16, 16
NT = T // BT
NONE = dict(cu_seqlens=None, chunk_indices=None)  # pointers fla passes as None (bound as Triton does)


class _Cumsum:
    reverse, mutate = False, None

    def setup(self):
        self.s = racer.input((1, T, 1), "f32", range=(-4, 4))
        self.o = racer.empty((1, T, 1), "f32")

    def program_a(self):
        fn = kernel("fla.ops.utils.cumsum", "chunk_local_cumsum_scalar_kernel",
                    **({"mutate": self.mutate} if self.mutate else {}))
        k = racer.triton(fn, scale=None, B=1, H=1, BT=BT, REVERSE=self.reverse, HAS_SCALE=False, IS_VARLEN=False,
                         USE_GRAPH=False, num_warps=1, **NONE)
        racer.launch(k, grid=NT, args=[racer.read(self.s), racer.write(self.o), T])
        return {"o": self.o}

    def program_b(self):
        racer.launch(ref("linear_attention.cu", "chunk_cumsum"), grid=1, block=32,
                     args=[racer.read(self.s), racer.write(self.o), T, BT, int(self.reverse)])
        return {"o": self.o}


class FlaChunkLocalCumsum(_Cumsum, Row):
    """fla chunk_local_cumsum_scalar_kernel (gate cumsum within chunks of 16)"""


class FlaChunkLocalCumsumReverse(_Cumsum, Row):
    """fla chunk_local_cumsum_scalar_kernel, reverse (suffix sums within each chunk)"""
    reverse = True


class FlaChunkLocalCumsumChunkMaskMutant(_Cumsum, Mutation):
    """mutation: the time mask compares the chunk-local offset, so the second chunk reads past its end"""
    mutate = [("m_t = o_t < T", "m_t = o_t < BT")]


VS = 8  # columns of the vector cumsum


class _VectorCumsum:
    reverse, mutate = False, None

    def setup(self):
        self.s = racer.input((1, T, 1, VS), "f32", range=(-4, 4))
        self.o = racer.empty((1, T, 1, VS), "f32")

    def program_a(self):
        fn = kernel("fla.ops.utils.cumsum", "chunk_local_cumsum_vector_kernel",
                    **({"mutate": self.mutate} if self.mutate else {}))
        k = racer.triton(fn, scale=None, B=1, H=1, S=VS, BT=BT, BS=VS, REVERSE=self.reverse, HAS_SCALE=False,
                         IS_VARLEN=False, USE_GRAPH=False, num_warps=1, **NONE)
        racer.launch(k, grid=(NT, 1), args=[racer.read(self.s), racer.write(self.o), T])
        return {"o": self.o}

    def program_b(self):
        racer.launch(ref("linear_attention.cu", "chunk_cumsum_cols"), grid=1, block=32,
                     args=[racer.read(self.s), racer.write(self.o), T, VS, BT, int(self.reverse)])
        return {"o": self.o}


class FlaChunkLocalCumsumVector(_VectorCumsum, Row):
    """fla chunk_local_cumsum_vector_kernel: per-column cumsum within chunks of 16, 8 columns"""


class FlaChunkLocalCumsumVectorReverse(_VectorCumsum, Row):
    """fla chunk_local_cumsum_vector_kernel, reverse"""
    reverse = True


class FlaChunkLocalCumsumVectorWrongAxisMutant(_VectorCumsum, Mutation):
    """mutation: the forward cumsum runs along the columns instead of time"""
    mutate = [("b_o = tl.cumsum(b_s, axis=0)", "b_o = tl.cumsum(b_s, axis=1)")]


class _GlobalCumsum:
    reverse, mutate = False, None

    def setup(self):
        self.s = racer.input((1, T, 1), "f32", range=(-4, 4))
        self.o = racer.empty((1, T, 1), "f32")

    def program_a(self):
        fn = kernel("fla.ops.utils.cumsum", "chunk_global_cumsum_scalar_kernel",
                    **({"mutate": self.mutate} if self.mutate else {}))
        k = racer.triton(fn, scale=None, cu_seqlens=None, B=1, H=1, BT=BT, REVERSE=self.reverse, HAS_SCALE=False,
                         IS_VARLEN=False, num_warps=1)
        racer.launch(k, grid=1, args=[racer.read(self.s), racer.write(self.o), T])
        return {"o": self.o}

    def program_b(self):  # one chunk as long as the sequence: a plain (suffix) prefix sum
        racer.launch(ref("linear_attention.cu", "chunk_cumsum"), grid=1, block=32,
                     args=[racer.read(self.s), racer.write(self.o), T, T, int(self.reverse)])
        return {"o": self.o}


class FlaChunkGlobalCumsum(_GlobalCumsum, Row):
    """fla chunk_global_cumsum_scalar_kernel: a prefix sum over the sequence, chunk by chunk with a carry"""


class FlaChunkGlobalCumsumReverse(_GlobalCumsum, Row):
    """fla chunk_global_cumsum_scalar_kernel, reverse (suffix sums over the sequence)"""
    reverse = True


class FlaChunkGlobalCumsumNoCarryMutant(_GlobalCumsum, Mutation):
    """mutation: a chunk's sums do not add the carry of the chunks before it"""
    mutate = [("b_o += b_z", "b_o += 0 * b_z")]


class _State:
    mutate = None

    def setup(self):
        self.k = racer.input((1, T, 1, K), "f16", range=(-1, 1))
        self.v = racer.input((1, T, 1, V), "f16", range=(-1, 1))
        self.h = racer.empty((NT, 1, K, V), "f32")
        self.ht = racer.empty((1, K, V), "f32")

    def program_a(self):
        fn = kernel("fla.ops.common.chunk_h", "chunk_fwd_kernel_h", **({"mutate": self.mutate} if self.mutate else {}))
        k = racer.triton(fn, g=None, g_gamma=None, gk=None, gv=None, h0=None, cu_seqlens=None, split_offsets=None,
                         H=1, K=K, V=V, BT=BT, BS=BT, BK=16, BV=16, USE_G=False, USE_G_GAMMA=False, USE_GK=False,
                         USE_GV=False, USE_INITIAL_STATE=False, STORE_FINAL_STATE=True, IS_VARLEN=False,
                         STATE_V_FIRST=False, num_warps=4)
        racer.launch(k, grid=1, args=[racer.read(self.k), racer.read(self.v), racer.write(self.h),
                                      racer.write(self.ht), T])
        return {"h": self.h, "ht": self.ht}

    def program_b(self):
        racer.launch(ref("linear_attention.cu", "chunk_states"), grid=1, block=K * V,
                     args=[racer.read(self.k), racer.read(self.v), racer.write(self.h), racer.write(self.ht),
                           T, K, V, BT])
        return {"h": self.h, "ht": self.ht}


class FlaChunkFwdH(_State, Row):
    """fla chunk_fwd_kernel_h: the running state k^T v before each chunk and the final state (tl.dot, f16)"""


class FlaChunkFwdHForgetfulStateMutant(_State, Mutation):
    """mutation: each chunk's update replaces the state instead of accumulating into it"""
    mutate = [("b_h = tl.dot(b_k, b_v, b_h)", "b_h = tl.dot(b_k, b_v)")]


class _StateFromInitial:
    mutate = None

    def setup(self):
        self.k = racer.input((1, T, 1, K), "f16", range=(-1, 1))
        self.v = racer.input((1, T, 1, V), "f16", range=(-1, 1))
        self.h0 = racer.input((1, K, V), "f32", range=(-1, 1))
        self.h = racer.empty((NT, 1, K, V), "f32")
        self.ht = racer.empty((1, K, V), "f32")

    def program_a(self):
        fn = kernel("fla.ops.common.chunk_h", "chunk_fwd_kernel_h", **({"mutate": self.mutate} if self.mutate else {}))
        k = racer.triton(fn, g=None, g_gamma=None, gk=None, gv=None, cu_seqlens=None, split_offsets=None,
                         H=1, K=K, V=V, BT=BT, BS=BT, BK=16, BV=16, USE_G=False, USE_G_GAMMA=False, USE_GK=False,
                         USE_GV=False, USE_INITIAL_STATE=True, STORE_FINAL_STATE=True, IS_VARLEN=False,
                         STATE_V_FIRST=False, num_warps=4)
        racer.launch(k, grid=1, args=[racer.read(self.k), racer.read(self.v), racer.write(self.h), racer.read(self.h0),
                                      racer.write(self.ht), T])
        return {"h": self.h, "ht": self.ht}

    def program_b(self):
        racer.launch(ref("linear_attention.cu", "chunk_states_h0"), grid=1, block=K * V,
                     args=[racer.read(self.k), racer.read(self.v), racer.read(self.h0), racer.write(self.h),
                           racer.write(self.ht), T, K, V, BT])
        return {"h": self.h, "ht": self.ht}


class FlaChunkFwdHInitialState(_StateFromInitial, Row):
    """fla chunk_fwd_kernel_h from an initial state h0"""


class FlaChunkFwdHTransposedInitialStateMutant(_StateFromInitial, Mutation):
    """mutation: the initial state is loaded transposed"""
    mutate = [("p_h0 = h0 + i_nh * K*V + o_k[:, None] * V + o_v[None, :]",
               "p_h0 = h0 + i_nh * K*V + o_v[None, :] * K + o_k[:, None]")]


class _Output:
    mutate = None
    SCALE = 0.25

    def setup(self):
        self.q = racer.input((1, T, 1, K), "f16", range=(-1, 1))
        self.k = racer.input((1, T, 1, K), "f16", range=(-1, 1))
        self.v = racer.input((1, T, 1, V), "f16", range=(-1, 1))
        self.h = racer.input((NT, 1, K, V), "f16", range=(-2, 2))
        self.o = racer.empty((1, T, 1, V), "f16")

    def program_a(self):
        fn = kernel("fla.ops.common.chunk_o", "chunk_fwd_kernel_o", **({"mutate": self.mutate} if self.mutate else {}))
        k = racer.triton(fn, g=None, g_gamma=None, H=1, HV=1, K=K, V=V, BT=BT, BK=16, BV=16, USE_G=False,
                         USE_G_GAMMA=False, STATE_V_FIRST=False, IS_VARLEN=False, num_warps=4, **NONE)
        racer.launch(k, grid=(NT, 1), args=[racer.read(self.q), racer.read(self.k), racer.read(self.v),
                                            racer.read(self.h), racer.write(self.o), self.SCALE, T])
        return {"o": self.o}

    def program_b(self):
        racer.launch(ref("linear_attention.cu", "chunk_output"), grid=(T * V) // 128, block=128,
                     args=[racer.read(self.q), racer.read(self.k), racer.read(self.v), racer.read(self.h),
                           racer.write(self.o), T, K, V, BT, self.SCALE])
        return {"o": self.o}


class FlaChunkFwdO(_Output, Row):
    """fla chunk_fwd_kernel_o: inter-chunk q h plus the causal intra-chunk (q k^T) v, scaled"""


class FlaChunkFwdONonCausalMutant(_Output, Mutation):
    """mutation: the intra-chunk mask keeps future positions (>= flipped to <=)"""
    mutate = [("m_A = (o_t[:, None] >= o_t[None, :])", "m_A = (o_t[:, None] <= o_t[None, :])")]


R, D = 3, 40


class FlaSoftmaxFwd(Row):
    """fla softmax_fwd_kernel (fla.ops.utils.softmax), 40 columns in a block of 64"""

    def setup(self):
        self.x = racer.input((R, D), "f32", range=(-8, 8))
        self.p = racer.empty((R, D), "f32")

    def program_a(self):
        k = racer.triton(kernel("fla.ops.utils.softmax", "softmax_fwd_kernel"), D=D, B=64, num_warps=1)
        racer.launch(k, grid=R, args=[racer.read(self.x), racer.write(self.p)])
        return {"p": self.p}

    def program_b(self):
        racer.launch(ref("softmax_losses.cu", "softmax_fwd"), grid=1, block=R,
                     args=[racer.read(self.x), racer.write(self.p), R, D])
        return {"p": self.p}


class FlaLogsumexpFwd(Row):
    """fla logsumexp_fwd_kernel: per-block log-sum-exp, blocks of 16 over 40 columns (a ragged last block)"""

    def setup(self):
        self.x = racer.input((R, D), "f32", range=(-8, 8))
        self.z = racer.empty((R, 3), "f32")

    def program_a(self):
        k = racer.triton(kernel("fla.ops.utils.logsumexp", "logsumexp_fwd_kernel"), scale=None, D=D, B=16,
                         HAS_SCALE=False, num_warps=1)
        racer.launch(k, grid=(R, 3), args=[racer.read(self.x), racer.write(self.z)])
        return {"z": self.z}

    def program_b(self):
        racer.launch(ref("linear_attention.cu", "block_logsumexp"), grid=1, block=32,
                     args=[racer.read(self.x), racer.write(self.z), R, D, 16])
        return {"z": self.z}


KR, KV = 3, 40  # rows, vocabulary


class _FusedKlDiv:
    mutate = None

    def setup(self):
        self.s = racer.input((KR, KV), "f32", range=(-4, 4))
        self.t = racer.input((KR, KV), "f32", range=(-4, 4))
        self.loss = racer.empty((KR,), "f32")

    def program_a(self):
        fn = kernel("fla.modules.fused_kl_div.ops", "kl_div_kernel", **({"mutate": self.mutate} if self.mutate else {}))
        k = racer.triton(fn, reduction="batchmean", N=KR, V=KV, BV=16, num_warps=1)
        racer.launch(k, grid=KR, args=[racer.readwrite(self.s), racer.read(self.t), racer.write(self.loss), KV, 1])
        return {"s": self.s, "loss": self.loss}

    def program_b(self):
        racer.launch(ref("softmax_losses.cu", "kl_div_logits_rows"), grid=1, block=KR,
                     args=[racer.readwrite(self.s), racer.read(self.t), racer.write(self.loss), KR, KV, float(KR)])
        return {"s": self.s, "loss": self.loss}


class FlaFusedKlDiv(_FusedKlDiv, Row):
    """fla fused linear KL-div's kl_div_kernel (after the matmul): online softmax of both logits, loss and the
    gradient in place, batchmean over 3 rows of 40 in blocks of 16"""


class FlaFusedKlDivGradientSignMutant(_FusedKlDiv, Mutation):
    """mutation: the gradient's sign flipped"""
    mutate = [("b_dl = -b_tp + b_sp", "b_dl = b_tp - b_sp")]


CE = "fla.modules.fused_cross_entropy.ops"
CR, CV = 3, 40  # rows, vocabulary (one block of 64)


class _FlaCe:
    ls, mutate = 0.0, None

    def setup(self):
        self.x = racer.input((CR, CV), "f32", range=(-4, 4))
        self.target = racer.values([3, -100, 39], dtype="i64")  # the second row ignored

    def consts(self):
        return dict(label_smoothing=self.ls, logit_scale=1.0, lse_square_scale=0.0, logit_softcapping=None,
                    ignore_index=-100, V=CV, V_TOTAL=CV, V_START=0, BV=64)

    def kernel(self, name):
        return kernel(CE, name, **({"mutate": self.mutate} if self.mutate else {}))


class _FlaCeFwd(_FlaCe):
    def setup(self):
        super().setup()
        self.loss, self.zloss, self.lse = (racer.empty((CR,), "f32") for _ in range(3))

    def program_a(self):
        k = racer.triton(self.kernel("cross_entropy_fwd_kernel"), SPLIT=False, num_warps=2, **self.consts())
        racer.launch(k, grid=(CR, 1), args=[racer.read(self.x), racer.read(self.target), racer.write(self.loss),
                                             racer.write(self.zloss), racer.write(self.lse), CV, CR])
        return {"loss": self.loss, "zloss": self.zloss, "lse": self.lse}

    def program_b(self):
        racer.launch(ref("softmax_losses.cu", "ce_rows_fwd"), grid=1, block=CR,
                     args=[racer.read(self.x), racer.read(self.target), racer.write(self.loss), racer.write(self.zloss),
                           racer.write(self.lse), CR, CV, self.ls, -100])
        return {"loss": self.loss, "zloss": self.zloss, "lse": self.lse}


class FlaCrossEntropyFwd(_FlaCeFwd, Row):
    """fla fused linear cross-entropy's cross_entropy_fwd_kernel (after the matmul): lse and loss per row,
    an ignored row"""


class FlaCrossEntropyFwdLabelSmoothing(_FlaCeFwd, Row):
    """fla cross_entropy_fwd_kernel with label smoothing 0.1"""
    ls = 0.1


class FlaCrossEntropyFwdSignMutant(_FlaCeFwd, Mutation):
    """mutation: the target logit added instead of subtracted"""
    mutate = [("b_loss = -b_target_logit", "b_loss = b_target_logit")]


class _FlaCeBwd(_FlaCe):
    def setup(self):
        super().setup()
        self.lse = racer.input((CR,), "f32", range=(2, 6))
        self.dloss = racer.input((CR,), "f32", range=(0.1, 1))
        self.dx = racer.empty((CR, CV), "f32")

    def program_a(self):
        k = racer.triton(self.kernel("cross_entropy_bwd_kernel"), num_warps=2, **self.consts())
        racer.launch(k, grid=(CR, 1), args=[racer.read(self.x), racer.read(self.target), racer.read(self.lse),
                                             racer.read(self.dloss), racer.write(self.dx), CV, 1, CV])
        return {"dx": self.dx}

    def program_b(self):
        racer.launch(ref("softmax_losses.cu", "ce_rows_bwd"), grid=1, block=CR,
                     args=[racer.read(self.x), racer.read(self.target), racer.read(self.lse), racer.read(self.dloss),
                           racer.write(self.dx), CR, CV, self.ls, -100])
        return {"dx": self.dx}


class FlaCrossEntropyBwd(_FlaCeBwd, Row):
    """fla cross_entropy_bwd_kernel: (softmax - one-hot) * dloss, zero on the ignored row"""


class FlaCrossEntropyBwdLabelSmoothing(_FlaCeBwd, Row):
    """fla cross_entropy_bwd_kernel with label smoothing 0.1"""
    ls = 0.1


class FlaCrossEntropyBwdHalfOneHotMutant(_FlaCeBwd, Mutation):
    """mutation: the one-hot term is 0.5"""
    mutate = [("b_dlogits -= tl.where(o_v == b_target, 1.0, 0.0)", "b_dlogits -= tl.where(o_v == b_target, 0.5, 0.0)")]
