"""mlstm_kernels 2.0.6 (xLSTM's mLSTM kernels, NX-AI): its torch-facing Triton kernels in mlstm_kernels/triton/
(launched as mlstm_kernels/torch/ launches them) against reference/mlstm_ops.cu.

Launches, as the library's host code picks them:
- recurrent/fw_step_fused.py recurrent_step_fw_kernel (torch/recurrent/triton_step.py, the decode step): grid (1,
  cdiv(DHHV, siz_b_DHHV), B * NH), siz_b = min(64, next_power_of_2(head dim)), num_warps 4 if siz_b_DHQK >= 64 else
  2, num_stages 1; qk_scale DHQK ** -0.5 and every stride a constexpr, EPS 1e-6, f32 state.
- chunkwise/limit_chunk (torch/chunkwise/triton_limit_chunk): mlstm_chunkwise__recurrent_fw_C_kernel (grid
  (num_b_DHQK, num_b_DHHV, B * NH)) and mlstm_chunkwise__parallel_fw_H_kernel (grid (num_b_DHHV, NC, B * NH)),
  siz_b min(64, next_power_of_2(head dim)), num_warps 4 if siz_b_DHQK == 64 else 2, num_stages 1; vecB is the
  chunkwise running sum of logsigmoid(f) (torch, mlstm_chunkwise_fw), a free input here. The backward pieces
  mlstm_chunkwise__recurrent_bw_dC_kernel (grid (num_b_DHQK, num_b_DHHV, B * NH)) and
  mlstm_chunkwise__parallel_bw_dQKV_kernel (grid (num_b_DHQK, NC, B * NH), dV [num_b_DHQK][B][NH][S][DHHV]) take
  the forward's stabilizers (scaM_inter at the chunk borders, vecM_combine and vecN_out per step) as inputs.
  CHUNK_SIZE scaled from the library's 64 to 16, so two chunks cover S = 32.
- chunkwise/xl_chunk (torch/chunkwise/triton_xl_chunk): the forward's mlstm_chunkwise__recurrent_fw_C_kernel (raw
  forget gates, log sigmoid and the reverse cumsum in the kernel; save_states_every_nth_chunk) and
  mlstm_chunkwise__parallel_fw_Hintra_kernel (grid (num_b_DHHV, num_b_LQ, NC * B * NH), an online max over blocks
  of siz_b_LKV keys clamped below by MINIMUM_MAX_VAL -10, EPS 0 as mlstm_chunkwise_fw passes it), every stride
  and qk_scale constexprs. The heuristic's chunk 128 with 64-blocks is scaled to chunk_size_intra 32 with 16-blocks
  (two query blocks, the second looping over two key blocks) and chunk_size_inter 16 (states saved every 2nd
  chunk).
- parallel/limit_headdim/fw_kernel.py mlstm_parallel_fw_kernel (torch/parallel/triton_limit_headdim/fw.py): grid
  (cdiv(S, BLOCK_Q), B * NH), qk_scale sqrt(HEAD_DIM) (the kernel divides by it), MINIMUM_MAX_VAL -10, EPS 1e-6;
  its autotuner picks BLOCK_Q = BLOCK_KV in {32, 64}: the rows take the non-autotuning config (16, 16, 2 warps).
Tensors f32 (the library's f32 path: DTYPE f32; f32 tl.dot runs in tf32, Triton's default: the verdicts are over
the reals). Gates: i in (-3, 3) so the diagonal term i_t keeps every row max above MINIMUM_MAX_VAL.

Found by running (MlstmParallel, expected inequivalent): mlstm_parallel_fw_kernel's online renormalization across key
blocks, h * (m_ratio n_old) / (n_new + eps), weights every key block but the last by n_old / (n_old + eps) (exact only
for eps = 0; the wrapper passes 1e-6). Found by reading: get_head_dim_block_size's power-of-2 assertion is commented
out, while the chunkwise kernels load and store the n vectors over tl.arange(0, siz_b_DHQK) unmasked (C goes through
boundary-checked block pointers), so a DHQK that is not a multiple of its block (48, 96) writes n past each border's
slot into the next one's (another program's), and past the tensor for the last head; the fused step kernel loads q, k,
v, n and stores h unmasked the same way; mlstm_parallel_bw_dKdV_kernel asserts tl.multiple_of(qEndIdx, BLOCK_Q) of a
block count. The rows keep head dims that are multiples of the blocks along DHQK (and DHHV in the step kernel).

Not rows: chunkwise_gates.py (limit_chunk and xl_chunk) are torch code (torch.compile), not Triton; the xl_chunk_siging
variant (sigmoid input gate) and the jax/ copies were not taken.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
import triton.language as tl  # noqa: E402
from common import Mutation, Row, cdiv, kernel, ref  # noqa: E402

T = "mlstm_kernels.triton"
REF = "mlstm_ops.cu"


def npow2(x):
    p = 1
    while p < x:
        p *= 2
    return p


def head_block(d, minimum=64):
    """get_head_dim_block_size"""
    return min(minimum, npow2(d))


def by_name(fn, named, consts):
    """A kernel's runtime arguments in its parameter order, from a dict by name; a None pointer is bound as a
    constexpr None (as Triton binds a None argument)."""
    args = []
    for param in fn.params:
        name = param.name
        if name in named:
            if named[name] is None:
                consts[name] = None
            else:
                args.append(named[name])
        elif not param.is_constexpr and name not in consts:
            raise ValueError(f"{fn.__name__}: no value for argument '{name}'")
    return args


def launch_ref(entry, n, args):
    racer.launch(ref(REF, entry), grid=cdiv(n, 64), block=64, args=args)


def f32(x):
    return racer.scalar(x, "f32")


# ---------------------------------------------------------------- recurrent step (fw_step_fused)

class _Step:
    """recurrent_step_fw_kernel as mlstm_recurrent_step__triton_fw launches it: q, k [B][NH][DHQK], v [B][NH][DHHV],
    i, f [B][NH][1], the old state (C, n, m) in, the new state and h out"""
    mutate = None
    B, NH, DK, DV = 2, 2, 16, 16

    def setup(self):
        B, NH, DK, DV = self.B, self.NH, self.DK, self.DV
        self.C_old = racer.input((B, NH, DK, DV), "f32", range=(-2, 2))
        self.n_old = racer.input((B, NH, DK), "f32", range=(-2, 2))
        self.m_old = racer.input((B, NH, 1), "f32", range=(-3, 3))
        self.q = racer.input((B, NH, DK), "f32", range=(-1, 1))
        self.k = racer.input((B, NH, DK), "f32", range=(-1, 1))
        self.v = racer.input((B, NH, DV), "f32", range=(-1, 1))
        self.i = racer.input((B, NH, 1), "f32", range=(-3, 3))
        self.f = racer.input((B, NH, 1), "f32", range=(-4, 6))
        self.h = racer.empty((B, NH, DV), "f32")
        self.C_new = racer.empty((B, NH, DK, DV), "f32")
        self.n_new = racer.empty((B, NH, DK), "f32")
        self.m_new = racer.empty((B, NH, 1), "f32")

    def outputs(self):
        return {"h": self.h, "C_new": self.C_new, "n_new": self.n_new, "m_new": self.m_new}

    def program_a(self):
        B, NH, DK, DV = self.B, self.NH, self.DK, self.DV
        bk, bv = head_block(DK), head_block(DV)
        k = racer.triton(kernel(f"{T}.recurrent.fw_step_fused", "recurrent_step_fw_kernel", self.mutate),
                         qk_scale=DK ** -0.5, str_matC_B_NH=DK * DV, str_matC_DHQK=DV, str_matC_DHHV=1,
                         str_vecN_B_NH=DK, str_vecN_DHQK=1, str_scaM_B_NH=1, str_vecQK_NH=DK, str_vecQK_DHQK=1,
                         str_vecVH_B_NH=DV, str_vecVH_DHHV=1, str_scaIF_B_NH=1, B=B, NH=NH, DHQK=DK, DHHV=DV,
                         siz_b_DHQK=bk, siz_b_DHHV=bv, EPS=1e-6, DTYPE=tl.float32, DTYPE_STATE=tl.float32,
                         num_warps=4 if bk >= 64 else 2, num_stages=1)
        racer.launch(k, grid=(1, cdiv(DV, bv), B * NH),
                     args=[racer.read(self.C_old), racer.read(self.n_old), racer.read(self.m_old), racer.read(self.q),
                           racer.read(self.k), racer.read(self.v), racer.read(self.i), racer.read(self.f),
                           racer.write(self.h), racer.write(self.C_new), racer.write(self.n_new),
                           racer.write(self.m_new)])
        return self.outputs()

    def program_b(self):
        BNH = self.B * self.NH
        launch_ref("mlstm_step", BNH * self.DV,
                   [racer.read(self.C_old), racer.read(self.n_old), racer.read(self.m_old), racer.read(self.q),
                    racer.read(self.k), racer.read(self.v), racer.read(self.i), racer.read(self.f),
                    racer.write(self.h), racer.write(self.C_new), racer.write(self.n_new), racer.write(self.m_new),
                    BNH, self.DK, self.DV, f32(self.DK ** -0.5), f32(1e-6)])
        return self.outputs()


class MlstmStep(_Step, Row):
    """mlstm recurrent_step_fw_kernel: one mLSTM decode step, batch 2, 2 heads, DHQK = DHHV = 16 (siz_b 16, 2
    warps, grid (1, 1, 4)): m' = max(logsigmoid(f) + m, i), C' = e^(lf + m - m') C + e^(i - m') k v^T, n' likewise,
    h = C'^T q s / (max(|n' . q s|, e^-m') + eps)"""


class MlstmStepWide(_Step, Row):
    """mlstm recurrent_step_fw_kernel at DHQK 128 (siz_b_DHQK 64: the loop over DHQK blocks runs twice, 4 warps),
    DHHV 64, one head"""
    B, NH, DK, DV = 1, 1, 128, 64


class MlstmStepNoAbsMutant(_Step, Mutation):
    """mutation: the denominator takes max(n . q, e^-m) without the absolute value"""
    mutate = [("h_denom = tl.maximum(tl.abs(qn_dotproduct), max_val) + EPS",
               "h_denom = tl.maximum(qn_dotproduct, max_val) + EPS")]


# ---------------------------------------------------------------- chunkwise states (limit_chunk and xl_chunk fw_C)

BNH, S, L = 2, 32, 16  # batch * heads (1 x 2), sequence, chunk size
NC = S // L


def state_tensors(row, bnh, slots):
    """A row's initial state C0, n0, m0 (free inputs where row.init, else None) and the states Cs, ns, ms saved at
    `slots` chunk borders (outputs), for row.DK x row.DV heads."""
    DK, DV = row.DK, row.DV
    row.C0 = racer.input((1, bnh, DK, DV), "f32", range=(-2, 2)) if row.init else None
    row.n0 = racer.input((1, bnh, DK), "f32", range=(-2, 2)) if row.init else None
    row.m0 = racer.input((1, bnh, 1), "f32", range=(-3, 3)) if row.init else None
    row.Cs = racer.empty((1, bnh, slots * DK, DV), "f32")
    row.ns = racer.empty((1, bnh, slots * DK), "f32")
    row.ms = racer.empty((1, bnh, slots), "f32")


def chunk_inputs(row, q=True):
    """The chunkwise kernels' inputs over S steps in chunks of L: Q (where q), K [1][BNH][S][row.DK], V
    [..][row.DV], and the gates vecB (chunk running sums of log forget gates) and vecI [1][BNH][NC][L]."""
    if q:
        row.Q = racer.input((1, BNH, S, row.DK), "f32", range=(-1, 1))
    row.K = racer.input((1, BNH, S, row.DK), "f32", range=(-1, 1))
    row.V = racer.input((1, BNH, S, row.DV), "f32", range=(-1, 1))
    row.vecB = racer.input((1, BNH, NC, L), "f32", range=(-6, 0))
    row.vecI = racer.input((1, BNH, NC, L), "f32", range=(-3, 3))


class _LimitFwC:
    """limit_chunk mlstm_chunkwise__recurrent_fw_C_kernel as mlstm_chunkwise__recurrent_fw_C launches it: K [1][2][32]
    [DHQK], V [1][2][32][DHHV], vecB and vecI [1][2][2][16], the states at the 3 chunk borders out"""
    mutate = None
    DK, DV, init = 16, 16, False

    def setup(self):
        chunk_inputs(self, q=False)
        state_tensors(self, BNH, NC + 1)

    def outputs(self):
        return {"Cs": self.Cs, "ns": self.ns, "ms": self.ms}

    def program_a(self):
        DK, DV = self.DK, self.DV
        bk, bv = head_block(DK), head_block(DV)
        fn = kernel(f"{T}.chunkwise.limit_chunk.fw_kernel_recurrent", "mlstm_chunkwise__recurrent_fw_C_kernel",
                    self.mutate)
        consts = dict(NH=BNH, S=S, DHQK=DK, DHHV=DV, NC=NC, L=L, siz_b_DHQK=bk, siz_b_DHHV=bv,
                      USE_INITIAL_STATE=self.init, DTYPE=tl.float32)
        rd = lambda t: racer.read(t) if t is not None else None  # noqa: E731
        i = self.init  # the initial state's strides, 0 without one (as the wrapper passes them)
        named = dict(matK=racer.read(self.K), matV=racer.read(self.V), vecB=racer.read(self.vecB),
                     vecI=racer.read(self.vecI), matC_initial=rd(self.C0), vecN_initial=rd(self.n0),
                     scaMinter_initial=rd(self.m0), matC_states=racer.write(self.Cs), vecN_states=racer.write(self.ns),
                     scaMinter_states=racer.write(self.ms), str_matK_B_NH=S * DK, str_matK_S=DK, str_matK_DHQK=1,
                     str_matV_B_NH=S * DV, str_matV_S=DV, str_matV_DHHV=1, str_vecBI_B_NH=S, str_vecBI_NC=L,
                     str_vecBI_L=1, str_matCstates_B_NH=(NC + 1) * DK * DV, str_matCstates_NCDHQK=DV,
                     str_matCstates_DHHV=1, str_vecNstates_B_NH=(NC + 1) * DK, str_vecNstates_NCDHQK=1,
                     str_scaMinterstates_B_NH=NC + 1, str_scaMinterstates_NC=1,
                     str_matCinitial_B_NH=DK * DV if i else 0, str_matCinitial_DHQK=DV if i else 0,
                     str_matCinitial_DHHV=1 if i else 0, str_vecNinitial_B_NH=DK if i else 0,
                     str_vecNinitial_DHQK=1 if i else 0, str_scaMinterinitial_B_NH=1 if i else 0, B=1)
        args = by_name(fn, named, consts)
        k = racer.triton(fn, num_warps=4 if bk == 64 else 2, num_stages=1, **consts)
        racer.launch(k, grid=(cdiv(DK, bk), cdiv(DV, bv), BNH), args=args)
        return self.outputs()

    def program_b(self):
        rd = lambda t: racer.read(t) if t is not None else None  # noqa: E731
        launch_ref("mlstm_chunk_states", BNH * self.DK * self.DV,
                   [racer.read(self.K), racer.read(self.V), None, racer.read(self.vecB), racer.read(self.vecI),
                    rd(self.C0), rd(self.n0), rd(self.m0), racer.write(self.Cs), racer.write(self.ns),
                    racer.write(self.ms), BNH, S, self.DK, self.DV, L, 1])
        return self.outputs()


class MlstmLimitChunkFwC(_LimitFwC, Row):
    """mlstm limit_chunk mlstm_chunkwise__recurrent_fw_C_kernel: the states (C, n, m) at the chunk borders of 2
    chunks of 16, no initial state (zeros, m = 0); DHQK = DHHV = 16, 2 warps, grid (1, 1, 2)"""


class MlstmLimitChunkFwCInitialMasked(_LimitFwC, Row):
    """mlstm limit_chunk mlstm_chunkwise__recurrent_fw_C_kernel from an initial state (USE_INITIAL_STATE), DHHV 24
    (siz_b_DHHV 32: the block pointers mask the last 8 columns of V and C)"""
    DV, init = 24, True


class MlstmLimitChunkFwCGateMutant(_LimitFwC, Mutation):
    """mutation: the carried state's decay forgets the previous stabilizer (exp(g - m') instead of exp(g + m - m'))"""
    init = True
    mutate = [("scaGbar_k_val = tl.exp(scaG_k_val + scaMinter_k_val - scaMinter_next_val)",
               "scaGbar_k_val = tl.exp(scaG_k_val - scaMinter_next_val)")]


class MlstmLimitChunkFwCNoInputGateMutant(_LimitFwC, Mutation):
    """mutation: a_l drops the input gate (the keys weighted by their forget decay only)"""
    mutate = [("vecA_k_val = (vecB_last_k_val - vecB_k_val) + vecI_k_val",
               "vecA_k_val = (vecB_last_k_val - vecB_k_val)")]


class _XlFwC:
    """xl_chunk mlstm_chunkwise__recurrent_fw_C_kernel as mlstm_chunkwise__recurrent_fw_C (triton_xl_chunk) launches
    it: raw forget gates vecF and vecI [1][2][S], chunk_size_inter 16, states saved every `every`-th chunk border"""
    mutate = None
    DK, DV, init, SX, every = 16, 16, False, 32, 1
    bnh = BNH

    def setup(self):
        DK, DV, SX = self.DK, self.DV, self.SX
        nsave = SX // L // self.every
        self.K = racer.input((1, self.bnh, SX, DK), "f32", range=(-1, 1))
        self.V = racer.input((1, self.bnh, SX, DV), "f32", range=(-1, 1))
        self.vecF = racer.input((1, self.bnh, SX), "f32", range=(-4, 6))
        self.vecI = racer.input((1, self.bnh, SX), "f32", range=(-3, 3))
        state_tensors(self, self.bnh, nsave + 1)

    def outputs(self):
        return {"Cs": self.Cs, "ns": self.ns, "ms": self.ms}

    def program_a(self):
        DK, DV, SX = self.DK, self.DV, self.SX
        nc, nsave = SX // L, SX // L // self.every
        bk, bv = head_block(DK), head_block(DV)
        fn = kernel(f"{T}.chunkwise.xl_chunk.fw_kernel_recurrent", "mlstm_chunkwise__recurrent_fw_C_kernel",
                    self.mutate)
        i = self.init
        consts = dict(str_matK_B_NH=SX * DK, str_matK_S=DK, str_matK_DHQK=1, str_matV_B_NH=SX * DV, str_matV_S=DV,
                      str_matV_DHHV=1, str_vecFI_B_NH=SX, str_matCstates_B_NH=(nsave + 1) * DK * DV,
                      str_matCstates_NCDHQK=DV, str_matCstates_DHHV=1, str_vecNstates_B_NH=(nsave + 1) * DK,
                      str_vecNstates_NCDHQK=1, str_scaMinterstates_B_NH=nsave + 1, str_scaMinterstates_NC=1,
                      str_matCinitial_B_NH=DK * DV if i else 0, str_matCinitial_DHQK=DV if i else 0,
                      str_matCinitial_DHHV=1 if i else 0, str_vecNinitial_B_NH=DK if i else 0,
                      str_vecNinitial_DHQK=1 if i else 0, str_scaMinterinitial_B_NH=1 if i else 0,
                      B=1, NH=self.bnh, S=SX, DHQK=DK, DHHV=DV, NC=nc, L=L, siz_b_DHQK=bk, siz_b_DHHV=bv,
                      save_states_every_nth_chunk=self.every, USE_INITIAL_STATE=i, DTYPE=tl.float32)
        rd = lambda t: racer.read(t) if t is not None else None  # noqa: E731
        named = dict(matK=racer.read(self.K), matV=racer.read(self.V), vecF=racer.read(self.vecF),
                     vecI=racer.read(self.vecI), matC_initial=rd(self.C0), vecN_initial=rd(self.n0),
                     scaMinter_initial=rd(self.m0), matC_states=racer.write(self.Cs), vecN_states=racer.write(self.ns),
                     scaMinter_states=racer.write(self.ms))
        args = by_name(fn, named, consts)
        k = racer.triton(fn, num_warps=4 if bk == 64 else 2, num_stages=1, **consts)
        racer.launch(k, grid=(cdiv(DK, bk), cdiv(DV, bv), self.bnh), args=args)
        return self.outputs()

    def program_b(self):
        rd = lambda t: racer.read(t) if t is not None else None  # noqa: E731
        launch_ref("mlstm_chunk_states", self.bnh * self.DK * self.DV,
                   [racer.read(self.K), racer.read(self.V), racer.read(self.vecF), None, racer.read(self.vecI),
                    rd(self.C0), rd(self.n0), rd(self.m0), racer.write(self.Cs), racer.write(self.ns),
                    racer.write(self.ms), self.bnh, self.SX, self.DK, self.DV, L, self.every])
        return self.outputs()


class MlstmXlChunkFwC(_XlFwC, Row):
    """mlstm xl_chunk mlstm_chunkwise__recurrent_fw_C_kernel: log sigmoid of the raw forget gates, their reverse
    cumsum within each chunk of 16 (tl.flip / tl.cumsum) and the chunk's total; 2 chunks, every border saved"""


class MlstmXlChunkFwCEverySecond(_XlFwC, Row):
    """mlstm xl_chunk mlstm_chunkwise__recurrent_fw_C_kernel as mlstm_chunkwise_fw runs it with chunk_size_intra
    twice chunk_size_inter (save_states_every_nth_chunk 2): 4 chunks of 16 over S = 64, the states at borders 0, 2,
    4 saved; from an initial state; one head"""
    SX, every, init, bnh = 64, 2, True, 1


class MlstmXlChunkFwCGateShiftMutant(_XlFwC, Mutation):
    """mutation: the forget gates after step l are read one position early (vecF at k L + l instead of k L + l + 1),
    an off-by-one between a_l's decay and the step it decays (one head)"""
    bnh = 1
    mutate = [("vecF + idx_b_BNH * str_vecFI_B_NH + k * L + idx_L + 1,",
               "vecF + idx_b_BNH * str_vecFI_B_NH + k * L + idx_L + 0,")]


# ---------------------------------------------------------------- chunkwise outputs (limit fw_H, xl fw_Hintra)

class _ChunkOut:
    """the chunkwise forward's outputs from the states entering each chunk (free inputs here: C, n, m at the NC + 1
    borders, only the first NC read), vecB (chunk running sums of log forget gates) and vecI; H, vecN_out, vecM_out"""
    mutate = None
    DK, DV, SX, LX = 16, 16, 32, 16

    def setup(self):
        DK, DV, SX, LX = self.DK, self.DV, self.SX, self.LX
        nc = SX // LX
        self.Q = racer.input((1, BNH, SX, DK), "f32", range=(-1, 1))
        self.K = racer.input((1, BNH, SX, DK), "f32", range=(-1, 1))
        self.V = racer.input((1, BNH, SX, DV), "f32", range=(-1, 1))
        self.Cs = racer.input((1, BNH, (nc + 1) * DK, DV), "f32", range=(-2, 2))
        self.ns = racer.input((1, BNH, (nc + 1) * DK), "f32", range=(-2, 2))
        self.ms = racer.input((1, BNH, nc + 1), "f32", range=(-3, 3))
        self.vecB = racer.input((1, BNH, nc, LX), "f32", range=(-6, 0))
        self.vecI = racer.input((1, BNH, nc, LX), "f32", range=(-3, 3))
        self.H = racer.empty((1, BNH, SX, DV), "f32")
        self.n_out = racer.empty((1, BNH, SX), "f32")
        self.m_out = racer.empty((1, BNH, SX), "f32")

    def outputs(self):
        return {"H": self.H, "n_out": self.n_out, "m_out": self.m_out}

    def program_b(self):
        launch_ref("mlstm_chunk_outputs", BNH * self.SX * self.DV,
                   [racer.read(self.Q), racer.read(self.K), racer.read(self.V), racer.read(self.Cs),
                    racer.read(self.ns), racer.read(self.ms), racer.read(self.vecB), racer.read(self.vecI),
                    racer.write(self.H), racer.write(self.n_out), racer.write(self.m_out), BNH, self.SX, self.DK,
                    self.DV, self.LX, f32(self.DK ** -0.5), f32(self.eps)])
        return self.outputs()


class _LimitFwH(_ChunkOut):
    """limit_chunk mlstm_chunkwise__parallel_fw_H_kernel as mlstm_chunkwise__parallel_fw_H launches it (EPS 1e-6)"""
    eps = 1e-6

    def program_a(self):
        DK, DV = self.DK, self.DV
        bk, bv = head_block(DK), head_block(DV)
        fn = kernel(f"{T}.chunkwise.limit_chunk.fw_kernel_parallel", "mlstm_chunkwise__parallel_fw_H_kernel",
                    self.mutate)
        consts = dict(NH=BNH, S=S, DHQK=DK, DHHV=DV, NC=NC, L=L, siz_b_DHQK=bk, siz_b_DHHV=bv, DTYPE=tl.float32,
                      EPS=self.eps)
        named = dict(matQ=racer.read(self.Q), matK=racer.read(self.K), matV=racer.read(self.V),
                     matC_states=racer.read(self.Cs), vecN_states=racer.read(self.ns),
                     scaMinter_states=racer.read(self.ms), vecI=racer.read(self.vecI), vecB=racer.read(self.vecB),
                     matHout=racer.write(self.H), vecNout=racer.write(self.n_out), vecMout=racer.write(self.m_out),
                     qk_scale=DK ** -0.5, str_matQK_B_NH=S * DK, str_matQK_S=DK, str_matQK_DHQK=1,
                     str_matHV_B_NH=S * DV, str_matHV_S=DV, str_matHV_DHHV=1,
                     str_matCstates_B_NH=(NC + 1) * DK * DV, str_matCstates_NCDHQK=DV, str_matCstates_DHHV=1,
                     str_vecNstates_B_NH=(NC + 1) * DK, str_vecNstates_NCDHQK=1, str_scaMinterstates_B_NH=NC + 1,
                     str_vecBI_B_NH=S, str_vecBI_NC=L, str_vecBI_L=1, str_vecMN_B_NH=S, str_vecMN_S=1, B=1)
        args = by_name(fn, named, consts)
        k = racer.triton(fn, num_warps=4 if bk == 64 else 2, num_stages=1, **consts)
        racer.launch(k, grid=(cdiv(DV, bv), NC, BNH), args=args)
        return self.outputs()


class MlstmLimitChunkFwH(_LimitFwH, Row):
    """mlstm limit_chunk mlstm_chunkwise__parallel_fw_H_kernel: h_t from the state entering its chunk and the
    causal gated q k^T within the chunk, m_t = max(b_t + M, max_s (b_t - b_s + i_s)), the normalizer max(|.|, e^-m);
    2 chunks of 16, DHQK = DHHV = 16, grid (1, 2, 2)"""


class MlstmLimitChunkFwHMasked(_LimitFwH, Row):
    """mlstm limit_chunk mlstm_chunkwise__parallel_fw_H_kernel with DHHV 40 (siz_b_DHHV 64: V, C and H masked by the
    block pointers past column 40)"""
    DV = 40


class MlstmLimitChunkFwHDiagonalMutant(_LimitFwH, Mutation):
    """mutation: the causal gate mask excludes the diagonal (s < t instead of s <= t): a step's own key and value
    are left out of its output"""
    mutate = [("mask = idx_mask[:, None] >= idx_mask[None, :]", "mask = idx_mask[:, None] > idx_mask[None, :]")]


class MlstmLimitChunkFwHInterStabilizerMutant(_LimitFwH, Mutation):
    """mutation: the carried state's weight exp(b_t + M - m_t) drops the previous chunk's stabilizer M"""
    mutate = [("vecBbar_val = tl.exp(vecB_val + scaMinter_km1_val - vecM_combine_val)",
               "vecBbar_val = tl.exp(vecB_val - vecM_combine_val)")]


class _XlFwH(_ChunkOut):
    """xl_chunk mlstm_chunkwise__parallel_fw_Hintra_kernel as mlstm_chunkwise__parallel_fw_Hintra launches it: chunk
    32 (chunk_size_intra), siz_b_LQ = siz_b_LKV = 16 (scaled from 64), siz_b_DHQK min(64, .), siz_b_DHHV
    min(128, .), EPS 0.0 (mlstm_chunkwise_fw's default), MINIMUM_MAX_VAL -10, num_warps 2"""
    eps = 0.0
    SX, LX = 64, 32
    blq, blkv = 16, 16

    def program_a(self):
        DK, DV, SX, LX = self.DK, self.DV, self.SX, self.LX
        nc = SX // LX
        bk, bv = head_block(DK), head_block(DV, 128)
        fn = kernel(f"{T}.chunkwise.xl_chunk.fw_kernel_parallel", "mlstm_chunkwise__parallel_fw_Hintra_kernel",
                    self.mutate)
        consts = dict(qk_scale=DK ** -0.5, str_matQK_B_NH=SX * DK, str_matQK_S=DK, str_matQK_DHQK=1,
                      str_matHV_B_NH=SX * DV, str_matHV_S=DV, str_matHV_DHHV=1,
                      str_matCstates_B_NH=(nc + 1) * DK * DV, str_matCstates_NCDHQK=DV, str_matCstates_DHHV=1,
                      str_vecNstates_B_NH=(nc + 1) * DK, str_vecNstates_NCDHQK=1, str_scaMinterstates_B_NH=nc + 1,
                      str_vecBI_B_NH=SX, str_vecBI_NC=LX, str_vecBI_L=1, str_vecMN_B_NH=SX, str_vecMN_S=1,
                      B=1, NH=BNH, S=SX, DHQK=DK, DHHV=DV, NC=nc, L=LX, siz_b_LQ=self.blq, siz_b_LKV=self.blkv,
                      siz_b_DHQK=bk, siz_b_DHHV=bv, DTYPE=tl.float32, OUTPUT_DTYPE=tl.float32, EPS=self.eps,
                      MINIMUM_MAX_VAL=-10.0)
        named = dict(matQ=racer.read(self.Q), matK=racer.read(self.K), matV=racer.read(self.V),
                     matC_states=racer.read(self.Cs), vecN_states=racer.read(self.ns),
                     scaMinter_states=racer.read(self.ms), vecI=racer.read(self.vecI), vecB=racer.read(self.vecB),
                     matHout=racer.write(self.H), vecNout=racer.write(self.n_out), vecMout=racer.write(self.m_out))
        args = by_name(fn, named, consts)
        k = racer.triton(fn, num_warps=4 if bk >= 64 else 2, num_stages=1, **consts)
        racer.launch(k, grid=(cdiv(DV, bv), cdiv(LX, self.blq), nc * BNH), args=args)
        return self.outputs()


class MlstmXlChunkFwH(_XlFwH, Row):
    """mlstm xl_chunk mlstm_chunkwise__parallel_fw_Hintra_kernel: 2 chunks of 32 in query blocks of 16, the second
    looping over two key blocks with the online max (rescaling the partial sums by exp(m_old - m_new)), then
    combined with the carried state; grid (1, 2, 4)"""


class MlstmXlChunkFwHOneBlock(_XlFwH, Row):
    """mlstm xl_chunk mlstm_chunkwise__parallel_fw_Hintra_kernel as the heuristic picks it for a short sequence
    (S < 128: chunk = siz_b_LQ = siz_b_LKV = S = 16), with eps 1e-6 and DHHV 24 (siz_b_DHHV 32, masked)"""
    SX, LX, blq, blkv, DV, eps = 16, 16, 16, 16, 24, 1e-6


class MlstmXlChunkFwHRescaleMutant(_XlFwH, Mutation):
    """mutation: the online max forgets to rescale the earlier key blocks' partial numerator (the denominator still
    rescaled)"""
    mutate = [("matH_intra_acc = vecM_ratio[:, None] * matH_intra_acc + matH_cur",
               "matH_intra_acc = matH_intra_acc + matH_cur")]


class MlstmXlChunkFwHCausalMutant(_XlFwH, Mutation):
    """mutation: the diagonal key block is not masked causally (queries see later keys of their block)"""
    mutate = [("if b_kv_offset >= b_q_offset:", "if b_kv_offset > b_q_offset:")]


# ---------------------------------------------------------------- the chunkwise forward chained (limit_chunk)

class _LimitFw:
    """mlstm_chunkwise_fw (triton_limit_chunk) as it runs its two kernels: fw_C for the states at the chunk borders,
    then fw_H for the outputs (the states passed as computed), against the recurrence one step at a time. vecB is
    the chunk running sum of log forget gates (computed by torch from vecF), a free input: the reference takes
    lf_t = b_t - b_(t-1) within a chunk"""
    mutate = None
    init = False
    DK, DV = 16, 16

    def setup(self):
        chunk_inputs(self)
        state_tensors(self, BNH, NC + 1)
        self.H = racer.empty((1, BNH, S, self.DV), "f32")
        self.n_out = racer.empty((1, BNH, S), "f32")
        self.m_out = racer.empty((1, BNH, S), "f32")

    def outputs(self):
        return {"H": self.H, "n_out": self.n_out, "m_out": self.m_out}

    def program_a(self):
        c = _LimitFwC()
        c.DK, c.DV, c.init = self.DK, self.DV, self.init
        for name in ("K", "V", "vecB", "vecI", "C0", "n0", "m0", "Cs", "ns", "ms"):
            setattr(c, name, getattr(self, name))
        c.program_a()
        h = _LimitFwH()
        h.DK, h.DV, h.mutate = self.DK, self.DV, self.mutate
        for name in ("Q", "K", "V", "Cs", "ns", "ms", "vecB", "vecI", "H", "n_out", "m_out"):
            setattr(h, name, getattr(self, name))
        h.program_a()
        return self.outputs()

    def program_b(self):
        rd = lambda t: racer.read(t) if t is not None else None  # noqa: E731
        launch_ref("mlstm_recurrent", BNH * self.DV,
                   [racer.read(self.Q), racer.read(self.K), racer.read(self.V), None, racer.read(self.vecB),
                    racer.read(self.vecI), rd(self.C0), rd(self.n0), rd(self.m0), racer.write(self.H),
                    racer.write(self.n_out), racer.write(self.m_out), None, None, None, BNH, S, self.DK, self.DV, L,
                    f32(self.DK ** -0.5), f32(1e-6)])
        return self.outputs()


class MlstmLimitChunkForward(_LimitFw, Row):
    """mlstm limit_chunk forward (fw_C then fw_H, 2 chunks of 16) against the mLSTM recurrence step by step: the
    chunk-border stabilizer max(g + M, max_l a_l) and the in-chunk max(b_t + M, max_s D_ts) are the recurrent m_t
    unrolled, so h, n_out and m_out agree exactly (Racer: unknown at 60 s, the nested maxima; see the README)"""


# ---------------------------------------------------------------- parallel (limit_headdim fw)

class _Parallel:
    """parallel/limit_headdim mlstm_parallel_fw_kernel as mlstm_parallel_fw launches it: Q, K, V [1][2][S][16],
    vecI, vecF_cs (logsigmoid(f).cumsum(-1), torch; a free input here) [1][2][S]; H, vecM, vecN out"""
    mutate = None
    SX, D, block, warps = 32, 16, 16, 2

    def setup(self):
        SX, D = self.SX, self.D
        self.Q = racer.input((1, BNH, SX, D), "f32", range=(-1, 1))
        self.K = racer.input((1, BNH, SX, D), "f32", range=(-1, 1))
        self.V = racer.input((1, BNH, SX, D), "f32", range=(-1, 1))
        self.vecI = racer.input((1, BNH, SX), "f32", range=(-3, 3))
        self.Fcs = racer.input((1, BNH, SX), "f32", range=(-12, 0))
        self.H = racer.empty((1, BNH, SX, D), "f32")
        self.m_out = racer.empty((1, BNH, SX), "f32")
        self.n_out = racer.empty((1, BNH, SX), "f32")

    def outputs(self):
        return {"H": self.H, "m_out": self.m_out, "n_out": self.n_out}

    def program_a(self):
        SX, D = self.SX, self.D
        fn = kernel(f"{T}.parallel.limit_headdim.fw_kernel", "mlstm_parallel_fw_kernel", self.mutate)
        consts = dict(HEAD_DIM=D, BLOCK_Q=self.block, BLOCK_KV=self.block, MINIMUM_MAX_VAL=-10, EPS=1e-6)
        z, h, row = BNH * SX * D, SX * D, D  # [1][BNH][SX][D], contiguous
        named = dict(matQ=racer.read(self.Q), matK=racer.read(self.K), matV=racer.read(self.V),
                     vecI=racer.read(self.vecI), vecF_cs=racer.read(self.Fcs), qk_scale=D ** 0.5,
                     matH=racer.write(self.H), vecM=racer.write(self.m_out), vecN=racer.write(self.n_out),
                     stride_qz=z, stride_qh=h, stride_qm=row, stride_qk=1, stride_kz=z, stride_kh=h, stride_kn=row,
                     stride_kk=1, stride_vz=z, stride_vh=h, stride_vk=row, stride_vn=1, stride_hz=z, stride_hh=h,
                     stride_hm=row, stride_hn=1)
        named.update(stride_ifmn_z=BNH * SX, stride_ifmn_h=SX, stride_ifmn_m=1, Z=1, H=BNH, N_CTX=SX)
        args = by_name(fn, named, consts)
        k = racer.triton(fn, num_warps=self.warps, num_stages=1, **consts)
        racer.launch(k, grid=(cdiv(SX, self.block), BNH, 1), args=args)
        return self.outputs()

    def program_b(self):
        launch_ref("mlstm_parallel", BNH * self.SX * self.D,
                   [racer.read(self.Q), racer.read(self.K), racer.read(self.V), racer.read(self.vecI),
                    racer.read(self.Fcs), racer.write(self.H), racer.write(self.m_out), racer.write(self.n_out),
                    BNH, self.SX, self.D, self.D, f32(self.D ** 0.5), f32(1e-6)])
        return self.outputs()


class MlstmParallelOneBlock(_Parallel, Row):
    """mlstm mlstm_parallel_fw_kernel over 16 steps in one block (BLOCK_Q = BLOCK_KV = 16, 2 warps): the causal
    gated q k^T / sqrt(d), row max stabilizer (clamped below by MINIMUM_MAX_VAL -10, inert here: the diagonal term is
    i_t > -3), normalizer max(|row sum|, e^-m)"""
    SX = 16


class MlstmParallel(_Parallel, Row):
    """mlstm mlstm_parallel_fw_kernel over 32 steps in blocks of 16: the second query block loops over two key
    blocks. A library bug, found by this row: the running output h = num_old / (n_old + eps) is carried to the next
    key block by h * (m_ratio n_old) / (n_new + eps), which gives m_ratio num_old n_old / ((n_old + eps)(n_new +
    eps)) instead of m_ratio num_old / (n_new + eps): every key block but the last is weighted by n_old / (n_old +
    eps). Exact only for eps = 0 (the wrapper passes 1e-6); the rescale should be m_ratio (n_old + eps) / (n_new +
    eps). Refuted with a manifest witness (H[0,0,19,9] -6.95037 against -6.95101 on the emulator); in float64 on
    random inputs (a NumPy model of the kernel's loop) the relative error is up to 6e-4 with i in (-3, 3), and 4 to
    19 % on the second query block with strong input gates (i in (5, 10)) and small q.k, where n_old = e^-m_old is
    far below eps; with the corrected rescale it is 1e-13. Expected inequivalent"""
    expect = "inequivalent"


class MlstmParallelDiagonalMutant(_Parallel, Mutation):
    """mutation: the causal mask drops the diagonal (q_idx - kv_idx > 0)"""
    SX = 16
    mutate = [("matD = tl.where(mask >= 0, matD, -float(\"inf\"))", "matD = tl.where(mask > 0, matD, -float(\"inf\"))")]


# ---------------------------------------------------------------- chunkwise backward (limit_chunk)

class _LimitBwDC:
    """limit_chunk mlstm_chunkwise__recurrent_bw_dC_kernel as mlstm_chunkwise__recurrent_bw_dC launches it: Q, vecB,
    scaM_inter [1][2][NC + 1], vecM_combine, vecN_out [1][2][S], dH, dC_last (USE_LAST_STATE); dC at the 3 borders"""
    mutate = None
    DK, DV, last = 16, 16, True

    def setup(self):
        DK, DV = self.DK, self.DV
        self.Q = racer.input((1, BNH, S, DK), "f32", range=(-1, 1))
        self.vecB = racer.input((1, BNH, NC, L), "f32", range=(-6, 0))
        self.Mi = racer.input((1, BNH, NC + 1), "f32", range=(-3, 3))
        self.m_out = racer.input((1, BNH, S), "f32", range=(-3, 3))
        self.dH = racer.input((1, BNH, S, DV), "f32", range=(-1, 1))
        self.n_out = racer.input((1, BNH, S), "f32", range=(0.5, 4))
        self.dC_last = racer.input((1, BNH, DK, DV), "f32", range=(-1, 1)) if self.last else None
        self.dCs = racer.empty((1, BNH, (NC + 1) * DK, DV), "f32")

    def program_a(self):
        DK, DV = self.DK, self.DV
        bk, bv = head_block(DK), head_block(DV)
        fn = kernel(f"{T}.chunkwise.limit_chunk.bw_kernel_recurrent", "mlstm_chunkwise__recurrent_bw_dC_kernel",
                    self.mutate)
        consts = dict(NH=BNH, S=S, DHQK=DK, DHHV=DV, NC=NC, L=L, siz_b_DHQK=bk, siz_b_DHHV=bv,
                      USE_LAST_STATE=self.last, DTYPE=tl.float32, EPS=1e-6)
        named = dict(matQ=racer.read(self.Q), vecB=racer.read(self.vecB), scaM_inter=racer.read(self.Mi),
                     vecM_combine=racer.read(self.m_out), matDeltaH=racer.read(self.dH),
                     vecN_out=racer.read(self.n_out),
                     matDeltaC_last=racer.read(self.dC_last) if self.last else None,
                     matDeltaC_states=racer.write(self.dCs), qk_scale=DK ** -0.5,
                     str_matQ_B_NH=S * DK, str_matQ_S=DK, str_matQ_DHQK=1, str_vecB_B_NH=S, str_vecB_NC=L, str_vecB_L=1,
                     str_scaM_inter_B_NH=NC + 1, str_scaM_inter_NC=1, str_vecM_combine_B_NH=S,
                     str_vecM_combine_S=1, str_matDeltaH_B_NH=S * DV, str_matDeltaH_S=DV, str_matDeltaH_DHHV=1,
                     str_vecN_out_B_NH=S, str_vecN_out_S=1,
                     str_matDeltaC_last_B_NH=DK * DV if self.last else 0,
                     str_matDeltaC_last_DHQK=DV if self.last else 0, str_matDeltaC_last_DHHV=1 if self.last else 0,
                     str_matDeltaC_states_B_NH=(NC + 1) * DK * DV, str_matDeltaC_states_NCDHQK=DV,
                     str_matDeltaC_states_DHHV=1, B=1)
        args = by_name(fn, named, consts)
        k = racer.triton(fn, num_warps=4 if bk == 64 else 2, num_stages=1, **consts)
        racer.launch(k, grid=(cdiv(DK, bk), cdiv(DV, bv), BNH), args=args)
        return {"dCs": self.dCs}

    def program_b(self):
        launch_ref("mlstm_chunk_state_grads", BNH * self.DK * self.DV,
                   [racer.read(self.Q), None, racer.read(self.vecB), racer.read(self.Mi), racer.read(self.m_out),
                    racer.read(self.dH), racer.read(self.n_out),
                    racer.read(self.dC_last) if self.last else None, racer.write(self.dCs), BNH, S, self.DK,
                    self.DV, L, 1, f32(self.DK ** -0.5), f32(1e-6)])
        return {"dCs": self.dCs}


class MlstmLimitChunkBwDC(_LimitBwDC, Row):
    """mlstm limit_chunk mlstm_chunkwise__recurrent_bw_dC_kernel: the state gradients at the 3 chunk borders, backward
    from dC_last, DHQK = DHHV = 16, 2 warps, grid (1, 1, 2)"""


class MlstmLimitChunkBwDCMasked(_LimitBwDC, Row):
    """mlstm limit_chunk mlstm_chunkwise__recurrent_bw_dC_kernel without a last-state gradient, DHHV 40 (siz_b_DHHV 64,
    dH and dC masked by the block pointers)"""
    DV, last = 40, False


class MlstmLimitChunkBwDCDecayMutant(_LimitBwDC, Mutation):
    """mutation: the gradient carried across a border is decayed by exp(g + M_k - M_(k-1)) (the stabilizers swapped)"""
    mutate = [("scaGbar_k_val = tl.exp(scaG_k_val + scaM_inter_km1_val - scaM_inter_k_val)",
               "scaGbar_k_val = tl.exp(scaG_k_val + scaM_inter_k_val - scaM_inter_km1_val)")]


class _LimitBwQKV:
    """limit_chunk mlstm_chunkwise__parallel_bw_dQKV_kernel as mlstm_chunkwise__parallel_bw_dQKV launches it: the
    forward's Q, K, V, vecB, vecI, vecM_combine, scaM_inter, the states C entering each chunk, dH, vecN_out and the
    state gradients dC leaving each chunk (free inputs here); dQ, dK, dV (num_b_DHQK = 1 partial)"""
    mutate = None
    DK, DV = 16, 16

    def setup(self):
        DK, DV = self.DK, self.DV
        chunk_inputs(self)
        self.m_out = racer.input((1, BNH, S), "f32", range=(-3, 3))
        self.Mi = racer.input((1, BNH, NC + 1), "f32", range=(-3, 3))
        self.Cs = racer.input((1, BNH, (NC + 1) * DK, DV), "f32", range=(-2, 2))
        self.dH = racer.input((1, BNH, S, DV), "f32", range=(-1, 1))
        self.n_out = racer.input((1, BNH, S), "f32", range=(0.5, 4))
        self.dCs = racer.input((1, BNH, (NC + 1) * DK, DV), "f32", range=(-1, 1))
        self.dQ = racer.empty((1, BNH, S, DK), "f32")
        self.dK = racer.empty((1, BNH, S, DK), "f32")
        self.dV = racer.empty((1, 1, BNH, S, DV), "f32")

    def outputs(self):
        return {"dQ": self.dQ, "dK": self.dK, "dV": self.dV}

    def program_a(self):
        DK, DV = self.DK, self.DV
        bk, bv = head_block(DK), head_block(DV)
        fn = kernel(f"{T}.chunkwise.limit_chunk.bw_kernel_parallel", "mlstm_chunkwise__parallel_bw_dQKV_kernel",
                    self.mutate)
        consts = dict(NH=BNH, S=S, DHQK=DK, DHHV=DV, NC=NC, L=L, siz_b_DHQK=bk, siz_b_DHHV=bv, DTYPE=tl.float32,
                      EPS=1e-6)
        named = dict(matQ=racer.read(self.Q), matK=racer.read(self.K), matV=racer.read(self.V),
                     vecB=racer.read(self.vecB), vecI=racer.read(self.vecI), vecM_combine=racer.read(self.m_out),
                     scaM_inter=racer.read(self.Mi), matC_states=racer.read(self.Cs), matDeltaH=racer.read(self.dH),
                     vecN_out=racer.read(self.n_out), matDeltaC_states=racer.read(self.dCs),
                     matDeltaQ=racer.write(self.dQ), matDeltaK=racer.write(self.dK), matDeltaV=racer.write(self.dV),
                     qk_scale=DK ** -0.5, str_matQK_B_NH=S * DK, str_matQK_S=DK, str_matQK_DHQK=1,
                     str_matDV_num_b_DHQK=BNH * S * DV, str_matHV_B_NH=S * DV, str_matHV_S=DV, str_matHV_DHHV=1,
                     str_vecBI_B_NH=S, str_vecBI_NC=L, str_vecBI_L=1, str_vecM_combine_B_NH=S,
                     str_vecM_combine_S=1, str_scaM_inter_B_NH=NC + 1, str_scaM_inter_NC=1,
                     str_matC_states_B_NH=(NC + 1) * DK * DV, str_matC_states_NCDHQK=DV, str_matC_states_DHHV=1,
                     str_vecN_out_B_NH=S, str_vecN_out_S=1, str_matDeltaC_states_B_NH=(NC + 1) * DK * DV,
                     str_matDeltaC_states_NCDHQK=DV, str_matDeltaC_states_DHHV=1, B=1)
        args = by_name(fn, named, consts)
        k = racer.triton(fn, num_warps=4 if bk == 64 else 2, num_stages=1, **consts)
        racer.launch(k, grid=(cdiv(DK, bk), NC, BNH), args=args)
        return self.outputs()

    def program_b(self):
        launch_ref("mlstm_chunk_qkv_grads", BNH * S,
                   [racer.read(self.Q), racer.read(self.K), racer.read(self.V), racer.read(self.vecB),
                    racer.read(self.vecI), None, racer.read(self.m_out), racer.read(self.Mi), racer.read(self.Cs),
                    racer.read(self.dH), racer.read(self.n_out), racer.read(self.dCs), racer.write(self.dQ),
                    racer.write(self.dK), racer.write(self.dV), BNH, S, self.DK, self.DV, L,
                    f32(self.DK ** -0.5), f32(1e-6)])
        return self.outputs()


class MlstmLimitChunkBwDQKV(_LimitBwQKV, Row):
    """mlstm limit_chunk mlstm_chunkwise__parallel_bw_dQKV_kernel: dQ, dK, dV within 2 chunks of 16 (the intra-chunk
    gated scores and the inter-chunk terms through C and dC), DHQK = DHHV = 16, grid (1, 2, 2)"""


class MlstmLimitChunkBwDQKVMasked(_LimitBwQKV, Row):
    """mlstm limit_chunk mlstm_chunkwise__parallel_bw_dQKV_kernel with DHHV 24 (siz_b_DHHV 32: V, dH, C, dC and dV
    masked by the block pointers)"""
    DV = 24


class MlstmLimitChunkBwDQKVInterKMutant(_LimitBwQKV, Mutation):
    """mutation: dK's term through the state gradient dC is not weighted by exp(a_s - M_k)"""
    mutate = [("matDeltaK_inter_val = matDeltaK_inter_val * vecAbar_val[:, None]",
               "matDeltaK_inter_val = matDeltaK_inter_val")]


# ---------------------------------------------------------------- chunkwise backward (xl_chunk)

class _XlBwDC:
    """xl_chunk mlstm_chunkwise__recurrent_bw_dC_kernel as mlstm_chunkwise__recurrent_bw_dC (triton_xl_chunk) launches
    it: raw forget gates vecF (log sigmoid and cumsum in the kernel), scaM_inter at the chunk_size_inter borders,
    vecM_combine, vecN_out, dH, dC_last; every stride and qk_scale constexprs, EPS 0 (mlstm_chunkwise_bw's eps)"""
    mutate = None
    DK, DV, SX, every, last = 16, 16, 32, 1, True

    def setup(self):
        DK, DV, SX = self.DK, self.DV, self.SX
        nc = SX // L
        self.Q = racer.input((1, BNH, SX, DK), "f32", range=(-1, 1))
        self.vecF = racer.input((1, BNH, SX), "f32", range=(-4, 6))
        self.Mi = racer.input((1, BNH, nc + 1), "f32", range=(-3, 3))
        self.m_out = racer.input((1, BNH, SX), "f32", range=(-3, 3))
        self.dH = racer.input((1, BNH, SX, DV), "f32", range=(-1, 1))
        self.n_out = racer.input((1, BNH, SX), "f32", range=(0.5, 4))
        self.dC_last = racer.input((1, BNH, DK, DV), "f32", range=(-1, 1)) if self.last else None
        self.dCs = racer.empty((1, BNH, (nc // self.every + 1) * DK, DV), "f32")

    def program_a(self):
        DK, DV, SX = self.DK, self.DV, self.SX
        nc, nsave = SX // L, SX // L // self.every
        bk, bv = head_block(DK), head_block(DV)
        fn = kernel(f"{T}.chunkwise.xl_chunk.bw_kernel_recurrent", "mlstm_chunkwise__recurrent_bw_dC_kernel",
                    self.mutate)
        lst = self.last
        consts = dict(qk_scale=DK ** -0.5, str_matQ_B_NH=SX * DK, str_matQ_S=DK, str_matQ_DHQK=1, str_vecF_B_NH=SX,
                      str_scaM_inter_B_NH=nc + 1, str_scaM_inter_NC=1, str_vecM_combine_B_NH=SX, str_vecM_combine_S=1,
                      str_matDeltaH_B_NH=SX * DV, str_matDeltaH_S=DV, str_matDeltaH_DHHV=1, str_vecN_out_B_NH=SX,
                      str_vecN_out_S=1, str_matDeltaC_last_B_NH=DK * DV if lst else 0,
                      str_matDeltaC_last_DHQK=DV if lst else 0, str_matDeltaC_last_DHHV=1 if lst else 0,
                      str_matDeltaC_states_B_NH=(nsave + 1) * DK * DV, str_matDeltaC_states_NCDHQK=DV,
                      str_matDeltaC_states_DHHV=1, B=1, NH=BNH, S=SX, DHQK=DK, DHHV=DV, NC=nc, L=L, siz_b_DHQK=bk,
                      siz_b_DHHV=bv, save_states_every_nth_chunk=self.every, USE_LAST_STATE=lst, DTYPE=tl.float32,
                      EPS=0.0)
        named = dict(matQ=racer.read(self.Q), vecF=racer.read(self.vecF), scaM_inter=racer.read(self.Mi),
                     vecM_combine=racer.read(self.m_out), matDeltaH=racer.read(self.dH),
                     vecN_out=racer.read(self.n_out), matDeltaC_last=racer.read(self.dC_last) if lst else None,
                     matDeltaC_states=racer.write(self.dCs))
        args = by_name(fn, named, consts)
        k = racer.triton(fn, num_warps=4 if bk == 64 else 2, num_stages=1, **consts)
        racer.launch(k, grid=(cdiv(DK, bk), cdiv(DV, bv), BNH), args=args)
        return {"dCs": self.dCs}

    def program_b(self):
        launch_ref("mlstm_chunk_state_grads", BNH * self.DK * self.DV,
                   [racer.read(self.Q), racer.read(self.vecF), None, racer.read(self.Mi), racer.read(self.m_out),
                    racer.read(self.dH), racer.read(self.n_out),
                    racer.read(self.dC_last) if self.last else None, racer.write(self.dCs), BNH, self.SX, self.DK,
                    self.DV, L, self.every, f32(self.DK ** -0.5), f32(0.0)])
        return {"dCs": self.dCs}


class MlstmXlChunkBwDC(_XlBwDC, Row):
    """mlstm xl_chunk mlstm_chunkwise__recurrent_bw_dC_kernel: the state gradients at the 3 borders of 2 chunks of 16
    from dC_last, the chunk's b and g from log sigmoid of the raw forget gates (tl.cumsum, tl.sum)"""


class MlstmXlChunkBwDCEverySecond(_XlBwDC, Row):
    """mlstm xl_chunk mlstm_chunkwise__recurrent_bw_dC_kernel with save_states_every_nth_chunk 2 (4 chunks of 16, S =
    64; the gradients at borders 0, 2, 4 kept), no dC_last"""
    SX, every, last = 64, 2, False


class MlstmXlChunkBwDCCumsumMutant(_XlBwDC, Mutation):
    """mutation: b_l is the log sigmoid of step l alone instead of the running sum up to l"""
    mutate = [("vecB_val = tl.cumsum(vecFlogsig_val, axis=0)  # (L,)", "vecB_val = vecFlogsig_val  # (L,)")]


XL_BW = "mlstm_kernels.triton.chunkwise.xl_chunk"


class _XlBwPar:
    """xl_chunk mlstm_chunkwise__parallel_bw_d{Q,K,V}_kernel as mlstm_chunkwise_bw (triton_xl_chunk) launches them:
    chunk_size_intra 32 (scaled from 128), siz_b_L_loop = siz_b_L_parallel = 16 (scaled from 64), the head-dim
    blocks min(128, .) for the parallel one and min(64, .) for the loop one, EPS 0; the forward's states C entering
    each chunk, vecM_out, vecN_out, scaM at the borders, vecB and vecA (chunkwise_gates, torch: free inputs here;
    the reference reads a_s from vecA) and the state gradients dC (free inputs)"""
    mutate = None
    DK, DV = 16, 16
    SX, LX = 64, 32
    which = "Q"

    def setup(self):
        DK, DV, SX, LX = self.DK, self.DV, self.SX, self.LX
        nc = SX // LX
        self.Q = racer.input((1, BNH, SX, DK), "f32", range=(-1, 1))
        self.K = racer.input((1, BNH, SX, DK), "f32", range=(-1, 1))
        self.V = racer.input((1, BNH, SX, DV), "f32", range=(-1, 1))
        self.vecI = racer.input((1, BNH, nc, LX), "f32", range=(-3, 3))
        self.vecB = racer.input((1, BNH, nc, LX), "f32", range=(-6, 0))
        self.vecA = racer.input((1, BNH, nc, LX), "f32", range=(-6, 3))
        self.Cs = racer.input((1, BNH, (nc + 1) * DK, DV), "f32", range=(-2, 2))
        self.ns = racer.input((1, BNH, (nc + 1) * DK), "f32", range=(-2, 2))
        self.Mi = racer.input((1, BNH, nc + 1), "f32", range=(-3, 3))
        self.n_out = racer.input((1, BNH, SX), "f32", range=(0.5, 4))
        self.m_out = racer.input((1, BNH, SX), "f32", range=(-3, 3))
        self.dH = racer.input((1, BNH, SX, DV), "f32", range=(-1, 1))
        self.dCs = racer.input((1, BNH, (nc + 1) * DK, DV), "f32", range=(-1, 1))
        self.dQ = racer.empty((1, BNH, SX, DK), "f32")
        self.dK = racer.empty((1, BNH, SX, DK), "f32")
        self.dV = racer.empty((1, BNH, SX, DV), "f32")

    def out(self):
        return {"d" + self.which: getattr(self, "d" + self.which)}

    def program_a(self):
        DK, DV, SX, LX, w = self.DK, self.DV, self.SX, self.LX, self.which
        nc = SX // LX
        bl = 16  # siz_b_L_loop = siz_b_L_parallel
        if w == "Q":
            bk, bv = head_block(DK, 128), head_block(DV, 64)
            grid = (cdiv(DK, bk), cdiv(LX, bl), nc * BNH)
        elif w == "K":
            bk, bv = head_block(DK, 128), head_block(DV, 64)
            grid = (cdiv(DK, bk), cdiv(LX, bl), nc * BNH)
        else:
            bk, bv = head_block(DK, 64), head_block(DV, 128)
            grid = (cdiv(DV, bv), cdiv(LX, bl), nc * BNH)
        fn = kernel(f"{XL_BW}.bw_kernel_parallel_d{w}", f"mlstm_chunkwise__parallel_bw_d{w}_kernel", self.mutate)
        consts = dict(qk_scale=DK ** -0.5, str_matQK_B_NH=SX * DK, str_matQK_S=DK, str_matQK_DHQK=1,
                      str_matHV_B_NH=SX * DV, str_matHV_S=DV, str_matHV_DHHV=1, str_vecABI_B_NH=SX, str_vecABI_NC=LX,
                      str_matCstate_B_NH=(nc + 1) * DK * DV, str_matCstate_NCDHQK=DV, str_matCstate_DHHV=1,
                      str_vecNstate_B_NH=(nc + 1) * DK, str_scaMstate_B_NH=nc + 1, str_vecMN_B_NH=SX,
                      str_vecMN_S=1, B=1, NH=BNH, S=SX, DHQK=DK, DHHV=DV, NC=nc, L=LX, siz_b_LQ=bl, siz_b_LKV=bl,
                      siz_b_DHQK=bk, siz_b_DHHV=bv, DTYPE=tl.float32, OUTPUT_DTYPE=tl.float32, EPS=0.0)
        named = dict(matQ=racer.read(self.Q), matK=racer.read(self.K), matV=racer.read(self.V),
                     vecI=racer.read(self.vecI), vecB=racer.read(self.vecB), vecA=racer.read(self.vecA),
                     matCstate_all=racer.read(self.Cs), vecNstate_all=racer.read(self.ns),
                     scaMstate_all=racer.read(self.Mi), vecN_out=racer.read(self.n_out),
                     vecM_out=racer.read(self.m_out), matDeltaH_out=racer.read(self.dH),
                     matDeltaC_states=racer.read(self.dCs))
        named["matDelta" + w] = racer.write(getattr(self, "d" + w))
        args = by_name(fn, named, consts)
        k = racer.triton(fn, num_warps=4 if (bk >= 64 or bv >= 64) else 2, num_stages=1, **consts)
        racer.launch(k, grid=grid, args=args)
        return self.out()

    def program_b(self):
        launch_ref("mlstm_chunk_qkv_grads", BNH * self.SX,
                   [racer.read(self.Q), racer.read(self.K), racer.read(self.V), racer.read(self.vecB),
                    racer.read(self.vecI), racer.read(self.vecA), racer.read(self.m_out), racer.read(self.Mi),
                    racer.read(self.Cs), racer.read(self.dH), racer.read(self.n_out), racer.read(self.dCs),
                    *[racer.write(getattr(self, n)) if n == "d" + self.which else None for n in ("dQ", "dK", "dV")],
                    BNH, self.SX, self.DK,
                    self.DV, self.LX, f32(self.DK ** -0.5), f32(0.0)])
        return self.out()


class MlstmXlChunkBwDQ(_XlBwPar, Row):
    """mlstm xl_chunk mlstm_chunkwise__parallel_bw_dQ_kernel: dQ over 2 chunks of 32 in query blocks of 16 (the second
    looping over two key blocks), the inter-chunk term dH C^T from the state entering the chunk; grid (1, 2, 4)"""


class MlstmXlChunkBwDK(_XlBwPar, Row):
    """mlstm xl_chunk mlstm_chunkwise__parallel_bw_dK_kernel: dK over 2 chunks of 32 in key blocks of 16 (the first
    looping over two query blocks), the inter-chunk term V dC^T exp(a - M) with a from vecA; grid (1, 2, 4)"""
    which = "K"


class MlstmXlChunkBwDV(_XlBwPar, Row):
    """mlstm xl_chunk mlstm_chunkwise__parallel_bw_dV_kernel: dV over 2 chunks of 32 in key blocks of 16, the
    inter-chunk term (K exp(a - M)) dC; DHHV 24 (siz_b_DHHV 32, masked by the block pointers); grid (1, 2, 4)"""
    which, DV = "V", 24


class MlstmXlChunkBwDQCausalMutant(_XlBwPar, Mutation):
    """mutation: dQ's diagonal key block is not masked causally"""
    mutate = [("if b_kv_offset >= b_q_offset:", "if b_kv_offset > b_q_offset:")]


class MlstmXlChunkBwDKInterMutant(_XlBwPar, Mutation):
    """mutation: dK's term through the state gradient leaves out the decay exp(a_s - M_k)"""
    which = "K"
    mutate = [("matDeltaK_acc += matDeltaKbar_inter_val * vecAbar_val[:, None]",
               "matDeltaK_acc += matDeltaKbar_inter_val")]


class MlstmXlChunkBwDVNormMutant(_XlBwPar, Mutation):
    """mutation: dV's intra-chunk term does not divide dH by the forward's normalizer"""
    which = "V"
    mutate = [("matDeltaH_intra_val = matDeltaH_out_val / (vecN_out_val[:, None] + EPS)",
               "matDeltaH_intra_val = matDeltaH_out_val")]


# ---------------------------------------------------------------- parallel backward (limit_headdim bw)

class _ParallelBw:
    """parallel/limit_headdim mlstm_parallel_bw_dKdV_kernel and mlstm_parallel_bw_dQ_kernel as mlstm_parallel_bw
    launches them (qk_scale sqrt(HEAD_DIM), EPS 1e-6, the forward's vecM and vecN, vecF_cs free here): grid
    (cdiv(S, BLOCK_KV), B * NH) for dK, dV, dI and (cdiv(S, BLOCK_Q), B * NH) for dQ; the autotuner's BLOCK_Q =
    BLOCK_KV in {32, 64} scaled to 16 (2 warps), S = 32"""
    mutate = None
    SX, D, block = 32, 16, 16
    which = "dKdV"

    def setup(self):
        SX, D = self.SX, self.D
        self.dH = racer.input((1, BNH, SX, D), "f32", range=(-1, 1))
        self.Q = racer.input((1, BNH, SX, D), "f32", range=(-1, 1))
        self.K = racer.input((1, BNH, SX, D), "f32", range=(-1, 1))
        self.V = racer.input((1, BNH, SX, D), "f32", range=(-1, 1))
        self.vecI = racer.input((1, BNH, SX), "f32", range=(-3, 3))
        self.Fcs = racer.input((1, BNH, SX), "f32", range=(-12, 0))
        self.vecM = racer.input((1, BNH, SX), "f32", range=(-3, 3))
        self.vecN = racer.input((1, BNH, SX), "f32", range=(0.5, 4))
        self.dQ = racer.empty((1, BNH, SX, D), "f32")
        self.dK = racer.empty((1, BNH, SX, D), "f32")
        self.dV = racer.empty((1, BNH, SX, D), "f32")
        self.dI = racer.empty((1, BNH, SX), "f32")

    def outputs(self):
        return {"dQ": self.dQ} if self.which == "dQ" else {"dK": self.dK, "dV": self.dV, "dI": self.dI}

    def program_a(self):
        SX, D = self.SX, self.D
        fn = kernel(f"{T}.parallel.limit_headdim.bw_kernel", f"mlstm_parallel_bw_{self.which}_kernel", self.mutate)
        consts = dict(HEAD_DIM=D, BLOCK_Q=self.block, BLOCK_KV=self.block, EPS=1e-6)
        z, h, row = BNH * SX * D, SX * D, D
        named = dict(matDeltaHtilde=racer.read(self.dH), matQ=racer.read(self.Q), matK=racer.read(self.K),
                     matV=racer.read(self.V), vecI=racer.read(self.vecI), vecF_cs=racer.read(self.Fcs),
                     vecM=racer.read(self.vecM), vecN=racer.read(self.vecN), qk_scale=D ** 0.5,
                     matDeltaQ=racer.write(self.dQ), matDeltaK=racer.write(self.dK), matDeltaV=racer.write(self.dV),
                     vecDeltaI=racer.write(self.dI), Z=1, H=BNH, N_CTX=SX,
                     stride_ifmn_z=BNH * SX, stride_ifmn_h=SX, stride_ifmn_s=1)
        for p in ("dht", "q", "k", "v"):
            named.update({f"stride_{p}z": z, f"stride_{p}h": h, f"stride_{p}s": row, f"stride_{p}d": 1})
        args = by_name(fn, named, consts)
        k = racer.triton(fn, num_warps=2, num_stages=1, **consts)
        racer.launch(k, grid=(cdiv(SX, self.block), BNH, 1), args=args)
        return self.outputs()

    def program_b(self):
        launch_ref("mlstm_parallel_grads", BNH * self.SX,
                   [racer.read(self.dH), racer.read(self.Q), racer.read(self.K), racer.read(self.V),
                    racer.read(self.vecI), racer.read(self.Fcs), racer.read(self.vecM), racer.read(self.vecN),
                    racer.write(self.dQ), racer.write(self.dK), racer.write(self.dV), racer.write(self.dI), BNH,
                    self.SX, self.D, f32(self.D ** 0.5), f32(1e-6)])
        return self.outputs()


class MlstmParallelBwDKDV(_ParallelBw, Row):
    """mlstm mlstm_parallel_bw_dKdV_kernel: dK, dV and the input gate gradient dI, each key block looping over the
    query blocks from its own (two for the first)"""


class MlstmParallelBwDQ(_ParallelBw, Row):
    """mlstm mlstm_parallel_bw_dQ_kernel: dQ, each query block looping over the key blocks up to its own"""
    which = "dQ"


class MlstmParallelBwDIMutant(_ParallelBw, Mutation):
    """mutation: dI sums the gradient of the gate matrix over the wrong axis (per query instead of per key)"""
    mutate = [("vecDeltaI_sum_chunk_KV += tl.sum(matDeltaCTilde_tile, axis=0)",
               "vecDeltaI_sum_chunk_KV += tl.sum(matDeltaCTilde_tile, axis=1)")]


class MlstmParallelBwDQMaskMutant(_ParallelBw, Mutation):
    """mutation: dQ's causal mask keeps the key just after the query (q_idx - kv_idx >= -1)"""
    which = "dQ"
    mutate = [("matLogD_tile = tl.where(mask >= 0, matLogD_tile, -float(\"inf\"))",
               "matLogD_tile = tl.where(mask >= -1, matLogD_tile, -float(\"inf\"))")]


# ---------------------------------------------------------------- recurrent step, two kernels (fw_step_alternate)

class _StepAlt(_Step):
    """fw_step_alternate recurrent_step_fw_kernel_C (grid (cdiv(DHQK, BLOCK_DQK), cdiv(DHV, BLOCK_DV), B * NH): the
    new C, n, m) then recurrent_step_fw_kernel_H (grid (1, cdiv(DHV, BLOCK_DV), B * NH): h from the new state) as
    mlstm_recurrent_step__triton_alternate_fw launches them, at one of the autotuner's configs"""
    mutate_h = None
    block, warps = 16, 1

    def program_a(self):
        B, NH, DK, DV, bl = self.B, self.NH, self.DK, self.DV, self.block
        st = dict(qk_scale=DK ** -0.5, s_matC_b=NH * DK * DV, s_matC_nh=DK * DV, s_matC_dhqk=DV, s_matC_dhv=1,
                  s_vecN_b=NH * DK, s_vecN_nh=DK, s_vecN_dhqk=1, s_scaM_b=NH, s_scaM_nh=1, s_vecQK_b=NH * DK,
                  s_vecQK_nh=DK, s_vecQK_dhqk=1, s_vecVH_b=NH * DV, s_vecVH_nh=DV, s_vecVH_dhv=1, s_scaIF_b=NH,
                  s_scaIF_nh=1, B=B, NH=NH)
        consts = dict(DHQK=DK, DHV=DV, BLOCK_DQK=bl, BLOCK_DV=bl, EPS=1e-6)
        fc = kernel(f"{T}.recurrent.fw_step_alternate", "recurrent_step_fw_kernel_C", self.mutate)
        named = dict(st, matC_old=racer.read(self.C_old), vecN_old=racer.read(self.n_old),
                     scaM_old=racer.read(self.m_old), vecK=racer.read(self.k), vecV=racer.read(self.v),
                     scaI=racer.read(self.i), scaF=racer.read(self.f), matC_new=racer.write(self.C_new),
                     vecN_new=racer.write(self.n_new), scaM_new=racer.write(self.m_new))
        args = by_name(fc, named, dict(consts))
        racer.launch(racer.triton(fc, num_warps=self.warps, num_stages=1, **consts),
                     grid=(cdiv(DK, bl), cdiv(DV, bl), B * NH), args=args)
        fh = kernel(f"{T}.recurrent.fw_step_alternate", "recurrent_step_fw_kernel_H", self.mutate_h)
        named = dict(st, vecQ=racer.read(self.q), vecH=racer.write(self.h), matC_new=racer.read(self.C_new),
                     vecN_new=racer.read(self.n_new), scaM_new=racer.read(self.m_new))
        args = by_name(fh, named, dict(consts))
        racer.launch(racer.triton(fh, num_warps=self.warps, num_stages=1, **consts),
                     grid=(1, cdiv(DV, bl), B * NH), args=args)
        return self.outputs()


class MlstmStepAlternate(_StepAlt, Row):
    """mlstm fw_step_alternate (recurrent_step_fw_kernel_C then _H): batch 2, 2 heads, DHQK = DHV = 16 at the
    autotuner's (16, 16, 1 warp) config"""


class MlstmStepAlternateBlocks(_StepAlt, Row):
    """mlstm fw_step_alternate at DHQK = DHV = 32 with the (16, 16, 1 warp) config: kernel C runs 2 x 2 programs per
    head (the two along DHV both store the same n and m), kernel H loops over two DHQK blocks"""
    B, NH, DK, DV = 1, 2, 32, 32


class MlstmStepAlternateAdvanceMutant(_StepAlt, Mutation):
    """mutation: kernel H does not advance its C block pointer, so the second DHQK block multiplies q's second half
    with C's first rows"""
    B, NH, DK, DV = 1, 2, 32, 32
    mutate_h = [("        matC_new_bptr = tl.advance(matC_new_bptr, (BLOCK_DQK, 0))\n", "        pass\n")]
