"""mamba-ssm 2.3.2.post1 (Mamba, Mamba2 and Mamba-3 state-space models, Tri Dao, Albert Gu et al.): its Triton
kernels in mamba_ssm/ops/triton/ against reference/mamba_ops.cu.

Launches, as the library's host code picks them:
- selective_state_update.py, _selective_scan_update_kernel (the decode step): grid (cdiv(dim, BLOCK_SIZE_M), batch,
  nheads), BLOCK_SIZE_M / num_warps by dstate ((32, 4) for dstate <= 16, (16, 4) for <= 32, (8, 4) for <= 64),
  BLOCK_SIZE_DSTATE next_power_of_2(dstate), the HAS_* heuristics from which pointers are given. Mamba
  (modules/mamba_simple.py step) calls it with 3-D state (nheads 1), per-channel dt, dt_bias, A [dim][dstate], D, z
  and dt_softplus; Mamba2 (modules/mamba2.py step) with A, dt, dt_bias and D repeated over headdim (stride 0:
  TIE_HDIM) and z only without its RMSNorm. vLLM-style servers add state_batch_indices (a slot < 0 is a padding
  token).
- layernorm_gated.py, _layer_norm_fwd_1pass_kernel (Mamba2's RMSNormGated): grid (M, ngroups), BLOCK_N
  min(65536 / 4, next_power_of_2(group_size)), num_warps min(max(BLOCK_N // 256, 1), 8) = 1 at these sizes.
- layer_norm.py, _layer_norm_fwd_1pass_kernel (the fused residual + norm of Mamba's blocks, no dropout, no
  rowscale, no second input): grid (M,), BLOCK_N next_power_of_2(N); its autotuner picks num_warps among 1..32
  by timing: the rows take 4.
- k_activations.py, _swiglu_fwd_kernel: grid (M, cdiv(N, BLOCK_N)), one of the autotuner's configs (BLOCK_N 32).
- the Mamba2 SSD forward (ssd_combined.py _mamba_chunk_scan_combined_fwd): _chunk_cumsum_fwd_kernel (grid (batch,
  nchunks, cdiv(nheads, BLOCK_SIZE_H)), BLOCK_SIZE_CHUNK next_power_of_2(chunk_size)), _chunk_state_fwd_kernel,
  _bmm_chunk_fwd_kernel (not causal, as ssd_combined calls it), _state_passing_fwd_kernel (its dA argument the
  strided view dA_cumsum[:, :, :, -1]), _chunk_scan_fwd_kernel (causal, D per head) and, for varlen states,
  _chunk_state_varlen_kernel. Each piece alone against its own formula, and the five chained as the forward runs
  them (plain, packed sequences by seq_idx, varlen states by cu_seqlens) against the step-by-step recurrence.
  Their autotuners choose among tiles of 32..256 (BLOCK_SIZE 64..2048 for state passing): the rows scale the tiles
  down to 16 (BLOCK_SIZE 64 for state passing, its smallest config) and chunk_size from Mamba2's 256 to 32 (16 in
  the chained rows; the kernels take any chunk_size a multiple of the tiles), so the loops over a chunk run twice
  and the last chunk is partial.
- mamba3/angle_dt.py angle_dt_fwd_kernel (the rotary angles' running sum mod 2 pi, chunk_size 16 for its 64) and
  mamba3/mamba3_siso_step.py mamba3_siso_step_kernel (Mamba-3's decode step, its PTX cos/sin/tanh.approx read as
  cos, sin, tanh; its output dot takes the state and q rounded to bf16, as the reference does).
Tensors f32 except one bf16 decode row (the SSD kernels' f32 tl.dot runs in tf32, Triton's default; the verdict is
over the reals). The SSD kernels' min(dA_cs[i] - dA_cs[j], 0) guard before exp is written in the piecewise
references too: the dA cumsum is a free input there, not necessarily non-increasing as the chunk cumsum of dt A
(dt >= 0, A < 0) makes it; the chained rows compare with the plain recurrence, without the guard.

Found by reading: _chunk_state_varlen_kernel ignores initial_states for a first sequence that ends inside chunk 0
(MambaSsdForwardVarlenStatesInitialState, refuted with a manifest witness). Host code, not checkable here:
selective_state_update passes `*(dt_bias.stride(0), dt_bias.stride(1)) if dt_bias is not None else 0` (and the
same for D), which unpacks the int 0 when dt_bias or D is None (TypeError: the documented optional arguments cannot
be omitted), and its tie_hdim test reads dt_bias.stride(-1) of a None dt_bias when A and dt are repeated; the
docstring of _bmm_chunk_fwd says out[i, j] is guaranteed only for i <= j when causal, where the kernel skips the
tiles above the diagonal (j > i).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import racer  # noqa: E402
import triton.language as tl  # noqa: E402
from common import Mutation, Row, cdiv, kernel, next_power_of_2, ref  # noqa: E402

T = "mamba_ssm.ops.triton"
REF = "mamba_ops.cu"


# ---------------------------------------------------------------- selective_state_update

class _Ssu:
    """_selective_scan_update_kernel as selective_state_update launches it; state [batch][nheads][dim][dstate],
    updated in place, and out [batch][nheads][dim]"""
    mutate = None
    batch, H, P, N, G = 2, 1, 40, 16, 1
    tied, has_z, sidx = False, True, None
    dtype = "f32"  # state, x, dt, B, C, z, out (A, dt_bias, D stay f32)

    def setup(self):
        B, H, P, N, G = self.batch, self.H, self.P, self.N, self.G
        slots = B if self.sidx is None else max(self.sidx) + 1
        self.state = racer.input((slots, H, P, N), self.dtype, range=(-2, 2))
        self.x = racer.input((B, H, P), self.dtype, range=(-2, 2))
        self.dt = racer.input((B, H) if self.tied else (B, H, P), self.dtype, range=(-4, 4))
        self.dt_bias = racer.input((H,) if self.tied else (H, P), "f32", range=(-2, 2))
        self.A = racer.input((H,) if self.tied else (H, P, N), "f32", range=(-2, -0.1))
        self.Bm = racer.input((B, G, N), self.dtype, range=(-1, 1))
        self.Cm = racer.input((B, G, N), self.dtype, range=(-1, 1))
        self.D = racer.input((H,) if self.tied else (H, P), "f32", range=(-1, 1))
        self.z = racer.input((B, H, P), self.dtype, range=(-4, 4)) if self.has_z else None
        self.idx = racer.values(self.sidx, dtype="i32") if self.sidx is not None else None
        self.out = racer.empty((B, H, P), self.dtype)

    def program_a(self):
        B, H, P, N, G = self.batch, self.H, self.P, self.N, self.G
        bm, warps = (32, 4) if N <= 16 else ((16, 4) if N <= 32 else (8, 4))
        k = racer.triton(kernel(f"{T}.selective_state_update", "_selective_scan_update_kernel", self.mutate),
                         DT_SOFTPLUS=True, TIE_HDIM=self.tied, BLOCK_SIZE_M=bm, HAS_DT_BIAS=True, HAS_D=True,
                         HAS_Z=self.has_z, HAS_STATE_BATCH_INDICES=self.sidx is not None,
                         BLOCK_SIZE_DSTATE=next_power_of_2(N), num_warps=warps,
                         **({} if self.has_z else {"z_ptr": None}),
                         **({} if self.sidx is not None else {"state_batch_indices_ptr": None}))
        if self.tied:  # repeat(..., "h -> h p n") etc.: stride 0 over headdim and dstate
            dt_st, bias_st, A_st, D_st = [H, 1, 0], [1, 0], [1, 0, 0], [1, 0]
        else:
            dt_st, bias_st, A_st, D_st = [H * P, P, 1], [P, 1], [P * N, N, 1], [P, 1]
        xs = [H * P, P, 1]
        args = [racer.readwrite(self.state), racer.read(self.x), racer.read(self.dt), racer.read(self.dt_bias),
                racer.read(self.A), racer.read(self.Bm), racer.read(self.Cm), racer.read(self.D)]
        args += [racer.read(self.z)] if self.has_z else []
        args += [racer.write(self.out)]
        args += [racer.read(self.idx)] if self.sidx is not None else []
        args += [B, H, P, N, H // G, H * P * N, P * N, N, 1] + xs + dt_st + bias_st + A_st + \
            [G * N, N, 1, G * N, N, 1] + D_st + (xs if self.has_z else [0, 0, 0]) + xs
        racer.launch(k, grid=(cdiv(P, bm), B, H), args=args)
        return {"state": self.state, "out": self.out}

    def program_b(self):
        B, H, P, N, G = self.batch, self.H, self.P, self.N, self.G
        entry = "ssm_state_update" if self.dtype == "f32" else "ssm_state_update_bf16"
        racer.launch(ref(REF, entry), grid=cdiv(B * H * P, 64), block=64,
                     args=[racer.readwrite(self.state), racer.read(self.x), racer.read(self.dt),
                           racer.read(self.dt_bias), racer.read(self.A), racer.read(self.Bm), racer.read(self.Cm),
                           racer.read(self.D), racer.read(self.z) if self.has_z else None, racer.write(self.out),
                           racer.read(self.idx) if self.sidx is not None else None,
                           B, H, P, N, G, int(self.tied), 1, 1, 1, int(self.has_z)])
        return {"state": self.state, "out": self.out}


class MambaSelectiveStateUpdate(_Ssu, Row):
    """mamba _selective_scan_update_kernel as Mamba's step() calls it (modules/mamba_simple.py): batch 2, d_inner
    40 (one head), dstate 16, per-channel dt + dt_bias with softplus, A [40][16], D, z gate; BLOCK_SIZE_M 32 (the
    second program half masked), 4 warps, grid (2, 2, 1); the updated state and y"""


class MambaSelectiveStateUpdateMamba2(_Ssu, Row):
    """mamba _selective_scan_update_kernel as Mamba2's step() calls it (modules/mamba2.py, rmsnorm so no z): batch
    2, 4 heads of headdim 16 in 2 groups, dstate 64; A, dt, dt_bias, D repeated over headdim (stride 0, TIE_HDIM:
    one exp(A dt) per head); BLOCK_SIZE_M 8, 4 warps, grid (2, 2, 4)"""
    batch, H, P, N, G = 2, 4, 16, 64, 2
    tied, has_z = True, False


class MambaSelectiveStateUpdateMamba2Bf16(_Ssu, Row):
    """mamba _selective_scan_update_kernel in Mamba2's bf16 inference (the ssm_state cache in the model's dtype):
    state, x, dt, B, C, z, out bf16, A, dt_bias, D f32; the kernel sums C . state over the new state before its
    bf16 store rounds it (the reference does the same); batch 2, 2 heads of 16, 1 group, dstate 32 (BLOCK_SIZE_M
    16), with z; grid (1, 2, 2)"""
    batch, H, P, N, G = 2, 2, 16, 32, 1
    tied, has_z, dtype = True, True, "bf16"


class MambaSelectiveStateUpdateBatchIndices(_Ssu, Row):
    """mamba _selective_scan_update_kernel with state_batch_indices [2, -1, 0] (a continuous-batching server's
    cache slots; -1 is a padding token whose output is 0 and whose state is left alone): batch 3, 3 state slots,
    Mamba2 layout (tied, 2 heads of 16 in 1 group, dstate 16) with z; BLOCK_SIZE_M 32, grid (1, 3, 2)"""
    batch, H, P, N, G = 3, 2, 16, 16, 1
    tied, has_z, sidx = True, True, [2, -1, 0]


class MambaSelectiveStateUpdateNoDtInputMutant(_Ssu, Mutation):
    """mutation: the input term forgets dt (state exp(A dt) + B x instead of + dt B x)"""
    mutate = [("state = state * dA + dB * x[:, None]", "state = state * dA + B[None, :] * x[:, None]")]


class MambaSelectiveStateUpdateGroupMutant(_Ssu, Mutation):
    """mutation: head h reads the B of group h % ratio instead of h / ratio (4 heads in 2 groups; C stays right)"""
    batch, H, P, N, G = 2, 4, 16, 32, 2
    tied, has_z = True, False
    mutate = [("B_ptr += pid_b * stride_B_batch + (pid_h // nheads_ngroups_ratio) * stride_B_group",
               "B_ptr += pid_b * stride_B_batch + (pid_h % nheads_ngroups_ratio) * stride_B_group")]


class MambaSelectiveStateUpdateSoftplusThresholdMutant(_Ssu, Mutation):
    """mutation: the softplus threshold 20 mistyped as 2 (dt + dt_bias in (2, 20] passes through unsoftened)"""
    mutate = [("            dt = tl.where(dt <= 20.0, softplus(dt), dt)\n        A = tl.load(A_ptrs",
               "            dt = tl.where(dt <= 2.0, softplus(dt), dt)\n        A = tl.load(A_ptrs")]


# ---------------------------------------------------------------- layernorm_gated (Mamba2's RMSNormGated)

class _GatedNorm:
    """layernorm_gated._layer_norm_fwd_1pass_kernel as _layer_norm_fwd launches it: x, z, y [M][N] f32, one
    program per (row, group), mean and rstd [ngroups * M]"""
    mutate = None
    M, N, GS, eps = 3, 64, 32, 1e-5
    rms, gate_first, bias = True, True, False

    def setup(self):
        self.x = racer.input((self.M, self.N), "f32", range=(-4, 4))
        self.z = racer.input((self.M, self.N), "f32", range=(-4, 4))
        self.w = racer.input((self.N,), "f32", range=(-2, 2))
        self.b = racer.input((self.N,), "f32", range=(-1, 1)) if self.bias else None
        self.y = racer.empty((self.M, self.N), "f32")
        self.mean = None if self.rms else racer.empty((self.N // self.GS * self.M,), "f32")
        self.rstd = racer.empty((self.N // self.GS * self.M,), "f32")

    def outputs(self):
        out = {"y": self.y, "rstd": self.rstd}
        if not self.rms:
            out["mean"] = self.mean
        return out

    def program_a(self):
        block = min(65536 // 4, next_power_of_2(self.GS))
        extra = {} if self.bias else {"B": None}
        if self.rms:
            extra["Mean"] = None
        k = racer.triton(kernel(f"{T}.layernorm_gated", "_layer_norm_fwd_1pass_kernel", self.mutate), BLOCK_N=block,
                         HAS_BIAS=self.bias, HAS_Z=True, NORM_BEFORE_GATE=not self.gate_first, IS_RMS_NORM=self.rms,
                         num_warps=min(max(block // 256, 1), 8), **extra)
        args = [racer.read(self.x), racer.write(self.y), racer.read(self.w)]
        args += [racer.read(self.b)] if self.bias else []
        args += [racer.read(self.z)]
        args += [] if self.rms else [racer.write(self.mean)]
        args += [racer.write(self.rstd), self.N, self.N, self.N, self.M, self.GS, self.eps]
        racer.launch(k, grid=(self.M, self.N // self.GS), args=args)
        return self.outputs()

    def program_b(self):
        racer.launch(ref(REF, "gated_norm"), grid=1, block=32,
                     args=[racer.read(self.x), racer.read(self.z), racer.read(self.w),
                           racer.read(self.b) if self.bias else None, racer.write(self.y),
                           None if self.rms else racer.write(self.mean), racer.write(self.rstd), self.M, self.N,
                           self.GS, racer.scalar(self.eps, "f32"), int(self.rms), int(self.gate_first),
                           int(self.bias), 1])
        return self.outputs()


class MambaRmsNormGated(_GatedNorm, Row):
    """mamba layernorm_gated _layer_norm_fwd_1pass_kernel as Mamba2's RMSNormGated calls it (eps 1e-5,
    norm_before_gate=False, group_size = d_ssm / ngroups): y = rmsnorm(x silu(z)) w per group of 32; 3 rows of 64,
    BLOCK_N 32, 1 warp, grid (3, 2)"""


class MambaLayerNormGatedAfterNorm(_GatedNorm, Row):
    """mamba layernorm_gated _layer_norm_fwd_1pass_kernel as LayerNorm(norm_before_gate=True) with bias and one
    group of 48 columns (BLOCK_N 64, the last 16 lanes masked): y = layernorm(x) w + b, then times silu(z); mean
    and rstd [3]; grid (3, 1), 1 warp"""
    N, GS, rms, gate_first, bias = 48, 48, False, False, True


class MambaLayerNormGatedMaskedVarianceMutant(_GatedNorm, Mutation):
    """mutation: the variance sums (x - mean)^2 over all BLOCK_N lanes, the 16 masked ones adding mean^2 each"""
    N, GS, rms, gate_first, bias = 48, 48, False, False, True
    mutate = [("xbar = tl.where(cols < N, x - mean, 0.)", "xbar = x - mean")]


class MambaRmsNormGatedGroupWeightMutant(_GatedNorm, Mutation):
    """mutation: a group's weights offset by group instead of group * N (group 1 reads w[1:33])"""
    mutate = [("    W += group * N\n", "    W += group\n")]


# ---------------------------------------------------------------- layer_norm (residual + LayerNorm / RMSNorm)

class _AddNorm:
    """layer_norm._layer_norm_fwd_1pass_kernel as _layer_norm_fwd launches it for layer_norm_fn / rms_norm_fn with a
    residual (Mamba's Block with fused_add_norm, residual_in_fp32): x, residual [M][N] f32, no dropout, rowscale or
    second input; residual_out = x + residual, y = norm(residual_out) w (+ b); grid (M,), BLOCK_N
    next_power_of_2(N), num_warps 4 (one of the autotuner's)"""
    mutate = None
    M, N, eps = 3, 48, 1e-5
    rms, bias = False, True

    def setup(self):
        self.x = racer.input((self.M, self.N), "f32", range=(-4, 4))
        self.res = racer.input((self.M, self.N), "f32", range=(-4, 4))
        self.w = racer.input((self.N,), "f32", range=(-2, 2))
        self.b = racer.input((self.N,), "f32", range=(-1, 1)) if self.bias else None
        self.y = racer.empty((self.M, self.N), "f32")
        self.res_out = racer.empty((self.M, self.N), "f32")
        self.mean = None if self.rms else racer.empty((self.M,), "f32")
        self.rstd = racer.empty((self.M,), "f32")

    def outputs(self):
        out = {"y": self.y, "res_out": self.res_out, "rstd": self.rstd}
        if not self.rms:
            out["mean"] = self.mean
        return out

    def program_a(self):
        extra = dict(X1=None, W1=None, B1=None, Y1=None, ROWSCALE=None, SEEDS=None, DROPOUT_MASK=None)
        if not self.bias:
            extra["B"] = None
        if self.rms:
            extra["Mean"] = None
        k = racer.triton(kernel(f"{T}.layer_norm", "_layer_norm_fwd_1pass_kernel", self.mutate),
                         IS_RMS_NORM=self.rms, BLOCK_N=next_power_of_2(self.N), HAS_RESIDUAL=True,
                         STORE_RESIDUAL_OUT=True, HAS_BIAS=self.bias, HAS_DROPOUT=False, STORE_DROPOUT_MASK=False,
                         HAS_ROWSCALE=False, HAS_X1=False, HAS_W1=False, HAS_B1=False, num_warps=4, **extra)
        args = [racer.read(self.x), racer.write(self.y), racer.read(self.w)]
        args += [racer.read(self.b)] if self.bias else []
        args += [racer.read(self.res), racer.write(self.res_out)]
        args += [] if self.rms else [racer.write(self.mean)]
        args += [racer.write(self.rstd), self.N, self.N, self.N, self.N, 0, 0, self.M, self.N, self.eps, 0.0]
        racer.launch(k, grid=(self.M,), args=args)
        return self.outputs()

    def program_b(self):
        racer.launch(ref(REF, "add_norm"), grid=1, block=32,
                     args=[racer.read(self.x), racer.read(self.res), racer.read(self.w),
                           racer.read(self.b) if self.bias else None, racer.write(self.y), racer.write(self.res_out),
                           None if self.rms else racer.write(self.mean), racer.write(self.rstd), self.M, self.N,
                           racer.scalar(self.eps, "f32"), int(self.rms), 1, int(self.bias)])
        return self.outputs()


class MambaAddLayerNorm(_AddNorm, Row):
    """mamba layer_norm _layer_norm_fwd_1pass_kernel: residual add + LayerNorm with bias, 3 rows of 48 (BLOCK_N 64,
    masked), eps 1e-5; y, residual_out, mean, rstd"""


class MambaAddRmsNorm(_AddNorm, Row):
    """mamba layer_norm _layer_norm_fwd_1pass_kernel: residual add + RMSNorm without bias (Mamba's default
    RMSNorm blocks), 3 rows of 64 (BLOCK_N 64), eps 1e-5; y, residual_out, rstd"""
    N, rms, bias = 64, True, False


class MambaAddLayerNormResidualOutMutant(_AddNorm, Mutation):
    """mutation: residual_out is stored before the residual is added (x alone)"""
    mutate = [("        residual = tl.load(RESIDUAL + cols, mask=cols < N, other=0.0).to(tl.float32)\n"
               "        x += residual\n"
               "    if STORE_RESIDUAL_OUT:\n"
               "        tl.store(RESIDUAL_OUT + cols, x, mask=cols < N)\n",
               "        residual = tl.load(RESIDUAL + cols, mask=cols < N, other=0.0).to(tl.float32)\n"
               "        tl.store(RESIDUAL_OUT + cols, x, mask=cols < N)\n"
               "    if STORE_RESIDUAL_OUT:\n"
               "        x += residual\n")]


# ---------------------------------------------------------------- k_activations (SwiGLU)

SW_M, SW_N = 3, 40  # rows, columns of each half


class _Swiglu:
    """k_activations._swiglu_fwd_kernel as _swiglu_fwd launches it: xy [3][80] split into x = xy[:, :40] and y =
    xy[:, 40:] (row stride 80), out [3][40]; BLOCK_N 32 (one of the autotuner's configs), grid (3, cdiv(40, 32)) =
    (3, 2), 4 warps"""
    mutate = None

    def setup(self):
        self.xy = racer.input((SW_M, 2 * SW_N), "f32", range=(-4, 4))
        self.out = racer.empty((SW_M, SW_N), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{T}.k_activations", "_swiglu_fwd_kernel", self.mutate), BLOCK_N=32)
        racer.launch(k, grid=(SW_M, cdiv(SW_N, 32)),
                     args=[racer.read(self.xy), racer.read(self.xy, offset=SW_N), racer.write(self.out), 2 * SW_N,
                           2 * SW_N, SW_N, SW_N])
        return {"out": self.out}

    def program_b(self):
        racer.launch(ref(REF, "swiglu"), grid=1, block=128,
                     args=[racer.read(self.xy), racer.read(self.xy, offset=SW_N), racer.write(self.out), SW_M, SW_N,
                           2 * SW_N])
        return {"out": self.out}


class MambaSwiglu(_Swiglu, Row):
    """mamba k_activations _swiglu_fwd_kernel: out = silu(x) y over the two halves of xy"""


class MambaSwigluColumnOffsetMutant(_Swiglu, Mutation):
    """mutation: the second column block restarts at column 0 (the program's column offset forgotten)"""
    mutate = [("cols = start_col + tl.arange(0, BLOCK_N)", "cols = tl.arange(0, BLOCK_N)")]


# ---------------------------------------------------------------- Mamba2 SSD (ssd_combined's forward, piece by piece)

SB, SL, SH, SG, SP, SN, CS = 1, 40, 2, 1, 16, 16, 32  # batch, seqlen, heads, groups, headdim, dstate, chunk_size
SNC = cdiv(SL, CS)  # 2 chunks, the last of 8 steps
TILE = 16  # BLOCK_SIZE_M / N / K, scaled down from the autotuners' 32..256
CS_ST = [SH * SNC * CS, CS, SNC * CS, 1]  # dt, dA_cumsum [B][H][NC][CS] as kernels take them: batch, chunk, head, pos
X_ST = [SL * SH * SP, SH * SP, SP, 1]  # x, z, out [B][L][H][P]
BC_ST = [SL * SG * SN, SG * SN, SN, 1]  # B, C [B][L][G][N]


class _ChunkCumsum:
    """ssd_chunk_state._chunk_cumsum_fwd_kernel as _chunk_cumsum_fwd launches it (as flashinfer vendors it; see
    flashinfer_ops.FlashinferChunkCumsum): dt [2][40][3] + dt_bias, softplus, clamped to a finite dt_limit (0.01,
    2.0) (Mamba2's dt_limit option), 0 past the sequence end, then the cumsum of dt A over each chunk of 16;
    BLOCK_SIZE_CHUNK 16, BLOCK_SIZE_H 2 (one of the autotuner's), grid (2, 3, 2), 4 warps"""
    mutate = None
    B, L, H, C, lo, hi = 2, 40, 3, 16, 0.01, 2.0

    def setup(self):
        nc = cdiv(self.L, self.C)
        self.dt = racer.input((self.B, self.L, self.H), "f32", range=(-4, 4))
        self.A = racer.input((self.H,), "f32", range=(-2, 0))
        self.bias = racer.input((self.H,), "f32", range=(-2, 2))
        self.dt_out = racer.empty((self.B, self.H, nc, self.C), "f32")
        self.dA = racer.empty((self.B, self.H, nc, self.C), "f32")

    def program_a(self):
        nc = cdiv(self.L, self.C)
        k = racer.triton(kernel(f"{T}.ssd_chunk_state", "_chunk_cumsum_fwd_kernel", self.mutate), DT_SOFTPLUS=True,
                         HAS_DT_BIAS=True, BLOCK_SIZE_H=2, BLOCK_SIZE_CHUNK=next_power_of_2(self.C))
        st = [self.H * nc * self.C, self.C, nc * self.C, 1]
        racer.launch(k, grid=(self.B, nc, cdiv(self.H, 2)),
                     args=[racer.read(self.dt), racer.read(self.A), racer.read(self.bias), racer.write(self.dt_out),
                           racer.write(self.dA), self.B, self.L, self.H, self.C, self.lo, self.hi,
                           self.L * self.H, self.H, 1, 1, 1] + st + st)
        return {"dt_out": self.dt_out, "dA": self.dA}

    def program_b(self):
        racer.launch(ref(REF, "ssd_chunk_cumsum"), grid=1, block=32,
                     args=[racer.read(self.dt), racer.read(self.A), racer.read(self.bias), racer.write(self.dt_out),
                           racer.write(self.dA), self.B, self.L, self.H, self.C, racer.scalar(self.lo, "f32"),
                           racer.scalar(self.hi, "f32")])
        return {"dt_out": self.dt_out, "dA": self.dA}


class MambaChunkCumsum(_ChunkCumsum, Row):
    """mamba _chunk_cumsum_fwd_kernel: dt_out = clamp(softplus(dt + bias), 0.01, 2), dA_cumsum = cumsum(dt_out A)"""


class MambaChunkCumsumClampSwapMutant(_ChunkCumsum, Mutation):
    """mutation: the clamp's bounds swapped (min with dt_min, max with dt_max: every step becomes dt_max)"""
    mutate = [("dt = tl.minimum(tl.maximum(dt, dt_min), dt_max)", "dt = tl.maximum(tl.minimum(dt, dt_min), dt_max)")]


class _ChunkState:
    """ssd_chunk_state._chunk_state_fwd_kernel as _chunk_state_fwd launches it: x [1][40][2][16], B [1][40][1][16],
    dt and dA_cumsum [1][2][2][32] (free inputs, dt >= 0, dA_cumsum <= 0) -> each chunk's own final state [1][2][2]
    [16][16] f32; BLOCK_SIZE_M = N = K = 16 (the autotuner's smallest are 32..64), so the chunk's steps take two
    trips of the K loop and the last chunk one; grid (1, 2, 2), 4 warps"""
    mutate = None

    def setup(self):
        self.x = racer.input((SB, SL, SH, SP), "f32", range=(-1, 1))
        self.b = racer.input((SB, SL, SG, SN), "f32", range=(-1, 1))
        self.dt = racer.input((SB, SH, SNC, CS), "f32", range=(0, 1))
        self.dA = racer.input((SB, SH, SNC, CS), "f32", range=(-4, 0))
        self.states = racer.empty((SB, SNC, SH, SP, SN), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{T}.ssd_chunk_state", "_chunk_state_fwd_kernel", self.mutate), seq_idx_ptr=None,
                         HAS_SEQ_IDX=False, BLOCK_SIZE_M=TILE, BLOCK_SIZE_N=TILE, BLOCK_SIZE_K=TILE, num_warps=4)
        racer.launch(k, grid=(cdiv(SP, TILE) * cdiv(SN, TILE), SB * SNC, SH),
                     args=[racer.read(self.x), racer.read(self.b), racer.write(self.states), racer.read(self.dt),
                           racer.read(self.dA), SP, SN, CS, SB, SL, SH // SG] + X_ST + BC_ST +
                          [SNC * SH * SP * SN, SH * SP * SN, SP * SN, SN, 1] + CS_ST + CS_ST + [0, 0])
        return {"states": self.states}

    def program_b(self):
        racer.launch(ref(REF, "ssd_chunk_state"), grid=cdiv(SB * SNC * SH * SP * SN, 128), block=128,
                     args=[racer.read(self.x), racer.read(self.b), racer.read(self.dt), racer.read(self.dA),
                           racer.write(self.states), SB, SL, SH, SG, SP, SN, CS])
        return {"states": self.states}


class MambaChunkState(_ChunkState, Row):
    """mamba _chunk_state_fwd_kernel: states = sum over the chunk's steps of x B^T dt exp(dA_cs[last] - dA_cs[l])"""


class MambaChunkStateNoDtMutant(_ChunkState, Mutation):
    """mutation: the step's dt is left out of the scale (only the decay exp(dA_cs[last] - dA_cs[l]))"""
    mutate = [("scale = tl.exp(tl.minimum((dA_cs_last - dA_cs_k), 0.0)) * dt_k\n",
               "scale = tl.exp(tl.minimum((dA_cs_last - dA_cs_k), 0.0))\n")]


class _Bmm:
    """ssd_bmm._bmm_chunk_fwd_kernel as _bmm_chunk_fwd(C, B, chunk_size) launches it in ssd_combined (causal False,
    dot_dtype tl.float32 for f32 inputs): C, B [1][40][1][16] -> CB [1][2][1][32][32] f32, 0 where a step is past
    the sequence end; BLOCK_SIZE_M = N = K = 16, grid (4, 1, 2), 4 warps"""
    mutate = None

    def setup(self):
        self.c = racer.input((SB, SL, SG, SN), "f32", range=(-1, 1))
        self.b = racer.input((SB, SL, SG, SN), "f32", range=(-1, 1))
        self.cb = racer.empty((SB, SNC, SG, CS, CS), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{T}.ssd_bmm", "_bmm_chunk_fwd_kernel", self.mutate), seq_idx_ptr=None,
                         IS_CAUSAL=False, dot_dtype=tl.float32, HAS_SEQ_IDX=False, BLOCK_SIZE_M=TILE,
                         BLOCK_SIZE_N=TILE, BLOCK_SIZE_K=TILE, num_warps=4)
        racer.launch(k, grid=(cdiv(CS, TILE) * cdiv(CS, TILE), SB, SNC * SG),
                     args=[racer.read(self.c), racer.read(self.b), racer.write(self.cb), SL, CS, SN, SG] + BC_ST +
                          BC_ST + [SNC * SG * CS * CS, SG * CS * CS, CS * CS, CS, 1, 0, 0])
        return {"cb": self.cb}

    def program_b(self):
        racer.launch(ref(REF, "ssd_bmm_chunk"), grid=cdiv(SB * SNC * SG * CS * CS, 128), block=128,
                     args=[racer.read(self.c), racer.read(self.b), racer.write(self.cb), SB, SL, SG, SN, CS])
        return {"cb": self.cb}


class MambaBmmChunk(_Bmm, Row):
    """mamba _bmm_chunk_fwd_kernel: CB[c][i][j] = <C[c CS + i], B[c CS + j]> within each chunk"""


class MambaBmmChunkOffsetMutant(_Bmm, Mutation):
    """mutation: B's chunk offset forgotten (pid_c * stride_b_seqlen for pid_c * chunk_size * stride_b_seqlen): the
    second chunk pairs its C with B of steps 1..32"""
    mutate = [("b_ptr += pid_b * stride_b_batch + pid_c * chunk_size * stride_b_seqlen",
               "b_ptr += pid_b * stride_b_batch + pid_c * stride_b_seqlen")]


SP_NC, SP_DIM, SP_CS = 3, 32, 8  # state passing: chunks, headdim * dstate (flattened), the dA cumsum's chunk length


class _StatePassing:
    """ssd_state_passing._state_passing_fwd_kernel as _state_passing_fwd launches it from ssd_combined: states
    [1][3][2][32] (headdim x dstate flattened), dA_chunk_cumsum the strided view dA_cumsum[:, :, :, -1] of a
    [1][2][3][8] tensor (strides batch 48, chunk 8, head 24, offset 7), initial states [1][2][32]; out [1][3][2][32]
    (the state entering each chunk) and final_states [1][2][32]; BLOCK_SIZE 64 (the autotuner's smallest, half
    masked), grid (1, 1, 2), 4 warps"""
    mutate = None

    def setup(self):
        self.states = racer.input((SB, SP_NC, SH, SP_DIM), "f32", range=(-2, 2))
        self.dA = racer.input((SB, SH, SP_NC, SP_CS), "f32", range=(-4, 0))
        self.init = racer.input((SB, SH, SP_DIM), "f32", range=(-2, 2))
        self.out = racer.empty((SB, SP_NC, SH, SP_DIM), "f32")
        self.final = racer.empty((SB, SH, SP_DIM), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{T}.ssd_state_passing", "_state_passing_fwd_kernel", self.mutate),
                         seq_idx_ptr=None, HAS_INITSTATES=True, HAS_SEQ_IDX=False, BLOCK_SIZE=64, num_warps=4)
        st = [SP_NC * SH * SP_DIM, SH * SP_DIM, SP_DIM, 1]
        racer.launch(k, grid=(cdiv(SP_DIM, 64), SB, SH),
                     args=[racer.read(self.states), racer.write(self.out), racer.write(self.final),
                           racer.read(self.dA, offset=SP_CS - 1), racer.read(self.init), SP_DIM, SP_NC, 0, 0] + st +
                          st + [SH * SP_DIM, SP_DIM, 1, SH * SP_NC * SP_CS, SP_CS, SP_NC * SP_CS, SH * SP_DIM, SP_DIM,
                                1, 0, 0])
        return {"out": self.out, "final": self.final}

    def program_b(self):
        racer.launch(ref(REF, "ssd_state_passing"), grid=1, block=64,
                     args=[racer.read(self.states), racer.read(self.dA, offset=SP_CS - 1), racer.read(self.init),
                           racer.write(self.out), racer.write(self.final), SB, SP_NC, SH, SP_DIM,
                           SH * SP_NC * SP_CS, SP_NC * SP_CS, SP_CS])
        return {"out": self.out, "final": self.final}


class MambaStatePassing(_StatePassing, Row):
    """mamba _state_passing_fwd_kernel: s_0 = initial state, s_{c+1} = exp(dA_cs[c][-1]) s_c + states[c]"""


class MambaStatePassingNoDecayMutant(_StatePassing, Mutation):
    """mutation: the carried state is not decayed across the chunk (scale forgotten)"""
    mutate = [("states = scale * states + new_states", "states = states + new_states")]


class _ChunkScan:
    """ssd_chunk_scan._chunk_scan_fwd_kernel as _chunk_scan_fwd launches it from ssd_combined (IS_CAUSAL True,
    IS_TRITON_22): cb [1][2][1][32][32], x [1][40][2][16], dt and dA_cumsum [1][2][2][32], C [1][40][1][16], the
    states entering each chunk [1][2][2][16][16], D; BLOCK_SIZE_M = N = K = 16 (the autotuner's smallest are
    32..64), BLOCK_SIZE_DSTATE max(next_power_of_2(16), 16) = 16, grid (2, 2, 2), 4 warps"""
    mutate = None
    has_z, d_hdim = False, False

    def setup(self):
        self.cb = racer.input((SB, SNC, SG, CS, CS), "f32", range=(-1, 1))
        self.x = racer.input((SB, SL, SH, SP), "f32", range=(-1, 1))
        self.z = racer.input((SB, SL, SH, SP), "f32", range=(-4, 4)) if self.has_z else None
        self.dt = racer.input((SB, SH, SNC, CS), "f32", range=(0, 1))
        self.dA = racer.input((SB, SH, SNC, CS), "f32", range=(-4, 0))
        self.c = racer.input((SB, SL, SG, SN), "f32", range=(-1, 1))
        self.prev = racer.input((SB, SNC, SH, SP, SN), "f32", range=(-1, 1))
        self.D = racer.input((SH, SP) if self.d_hdim else (SH,), "f32", range=(-1, 1))
        self.out = racer.empty((SB, SL, SH, SP), "f32")
        self.out_x = racer.empty((SB, SL, SH, SP), "f32") if self.has_z else None

    def outputs(self):
        return {"out": self.out, "out_x": self.out_x} if self.has_z else {"out": self.out}

    def program_a(self):
        extra = {} if self.has_z else {"z_ptr": None, "out_x_ptr": None}
        k = racer.triton(kernel(f"{T}.ssd_chunk_scan", "_chunk_scan_fwd_kernel", self.mutate), seq_idx_ptr=None,
                         IS_CAUSAL=True, HAS_D=True, D_HAS_HDIM=self.d_hdim, HAS_Z=self.has_z, HAS_SEQ_IDX=False,
                         BLOCK_SIZE_M=TILE, BLOCK_SIZE_N=TILE, BLOCK_SIZE_K=TILE, BLOCK_SIZE_DSTATE=16,
                         IS_TRITON_22=True, num_warps=4, **extra)
        args = [racer.read(self.cb), racer.read(self.x)]
        args += [racer.read(self.z)] if self.has_z else []
        args += [racer.write(self.out)]
        args += [racer.write(self.out_x)] if self.has_z else []
        args += [racer.read(self.dt), racer.read(self.dA), racer.read(self.c), racer.read(self.prev),
                 racer.read(self.D), CS, SP, SN, SB, SL, SH // SG,
                 SNC * SG * CS * CS, SG * CS * CS, CS * CS, CS, 1] + X_ST + (X_ST if self.has_z else [0, 0, 0, 0]) + \
            X_ST + CS_ST + CS_ST + [0, 0] + BC_ST + [SNC * SH * SP * SN, SH * SP * SN, SP * SN, SN, 1] + \
            [SP if self.d_hdim else 1]
        racer.launch(k, grid=(cdiv(CS, TILE) * cdiv(SP, TILE), SB * SNC, SH), args=args)
        return self.outputs()

    def program_b(self):
        racer.launch(ref(REF, "ssd_chunk_scan"), grid=cdiv(SB * SL * SH * SP, 128), block=128,
                     args=[racer.read(self.cb), racer.read(self.x), racer.read(self.z) if self.has_z else None,
                           racer.read(self.dt), racer.read(self.dA), racer.read(self.c), racer.read(self.prev),
                           racer.read(self.D), racer.write(self.out),
                           racer.write(self.out_x) if self.has_z else None, SB, SL, SH, SG, SP, SN, CS, 1, 1,
                           int(self.d_hdim), int(self.has_z)])
        return self.outputs()


class MambaChunkScan(_ChunkScan, Row):
    """mamba _chunk_scan_fwd_kernel as Mamba2 (rmsnorm, so no z) runs it: y = exp(dA_cs[i]) C prev_state + sum_{j <= i}
    CB[i][j] exp(dA_cs[i] - dA_cs[j]) dt[j] x[j] + D[h] x[i]"""


class MambaChunkScanGated(_ChunkScan, Row):
    """mamba _chunk_scan_fwd_kernel with z (Mamba2 without its RMSNorm) and D per channel [2][16]: out_x = y and
    out = y silu(z)"""
    has_z, d_hdim = True, True


class MambaChunkScanStrictCausalMutant(_ChunkScan, Mutation):
    """mutation: the causal mask drops the diagonal (j < i instead of j <= i: a step's own input left out)"""
    mutate = [("mask = offs_m[:, None] >= k + offs_k[None, :]", "mask = offs_m[:, None] > k + offs_k[None, :]")]


FL, FH, FP, FN, FCS = 24, 1, 16, 16, 16  # the whole SSD forward: seqlen, heads, headdim, dstate, chunk_size
FNC = cdiv(FL, FCS)


class _SsdForward:
    """The Mamba2 SSD forward as _mamba_chunk_scan_combined_fwd (ssd_combined.py) chains its five kernels, against
    the step-by-step recurrence: _chunk_cumsum_fwd_kernel (dt_softplus, dt_bias, dt_limit (0, inf); BLOCK_SIZE_H 1,
    BLOCK_SIZE_CHUNK 16), _chunk_state_fwd_kernel, _state_passing_fwd_kernel (initial states where given;
    BLOCK_SIZE 64 over headdim x dstate = 256), _bmm_chunk_fwd_kernel (C B^T, not causal), _chunk_scan_fwd_kernel
    (causal, D per head); x [1][24][1][16], B, C [1][24][1][16], chunk_size 16 (2 chunks, the last of 8), tiles 16,
    4 warps; y and final_states"""
    mutate = None  # of the state passing kernel
    scan_mutate = None
    seq = None  # seq_idx [1][24] (int32, concrete): packed sequences, every kernel with HAS_SEQ_IDX
    has_init = True  # initial_states given
    varlen = False  # return_varlen_states: chunk_state_varlen's per-sequence final states (cu_seqlens from seq)

    def nseq(self):
        return max(self.seq) + 1

    def outputs(self):
        out = {"out": self.out, "final": self.final}
        if self.varlen:
            out["varlen_states"] = self.varlen_states
        return out

    def setup(self):
        self.x = racer.input((1, FL, FH, FP), "f32", range=(-1, 1))
        self.dt = racer.input((1, FL, FH), "f32", range=(-4, 1))
        self.A = racer.input((FH,), "f32", range=(-2, -0.1))
        self.bias = racer.input((FH,), "f32", range=(-1, 1))
        self.b = racer.input((1, FL, 1, FN), "f32", range=(-1, 1))
        self.c = racer.input((1, FL, 1, FN), "f32", range=(-1, 1))
        self.D = racer.input((FH,), "f32", range=(-1, 1))
        self.init = racer.input((1, FH, FP, FN), "f32", range=(-1, 1)) if self.has_init else None
        self.seq_idx = racer.values(self.seq, dtype="i32", shape=(1, FL)) if self.seq else None
        if self.varlen:
            self.cu = racer.values([0] + [sum(1 for v in self.seq if v <= i) for i in range(self.nseq())], dtype="i32")
            self.varlen_states = racer.empty((self.nseq(), FH, FP, FN), "f32")
        self.dt_out = racer.empty((1, FH, FNC, FCS), "f32")
        self.dA = racer.empty((1, FH, FNC, FCS), "f32")
        self.states = racer.empty((1, FNC, FH, FP, FN), "f32")
        self.passed = racer.empty((1, FNC, FH, FP, FN), "f32")
        self.cb = racer.empty((1, FNC, 1, FCS, FCS), "f32")
        self.out = racer.empty((1, FL, FH, FP), "f32")
        self.final = racer.empty((1, FH, FP, FN), "f32")

    def program_a(self):
        cs_st = [FH * FNC * FCS, FCS, FNC * FCS, 1]
        x_st = [FL * FH * FP, FH * FP, FP, 1]
        bc_st = [FL * FN, FN, FN, 1]
        st_st = [FNC * FH * FP * FN, FH * FP * FN, FP * FN, FN, 1]
        has_seq = self.seq is not None
        seq = [racer.read(self.seq_idx)] if has_seq else []  # the seq_idx argument where a kernel takes it
        seq_kw = {} if has_seq else {"seq_idx_ptr": None}
        seq_st = [FL, 1] if has_seq else [0, 0]
        k = racer.triton(kernel(f"{T}.ssd_chunk_state", "_chunk_cumsum_fwd_kernel"), DT_SOFTPLUS=True,
                         HAS_DT_BIAS=True, BLOCK_SIZE_H=1, BLOCK_SIZE_CHUNK=FCS)
        racer.launch(k, grid=(1, FNC, FH),
                     args=[racer.read(self.dt), racer.read(self.A), racer.read(self.bias), racer.write(self.dt_out),
                           racer.write(self.dA), 1, FL, FH, FCS, 0.0, float("inf"), FL * FH, FH, 1, 1, 1] + cs_st +
                          cs_st)
        k = racer.triton(kernel(f"{T}.ssd_chunk_state", "_chunk_state_fwd_kernel"), HAS_SEQ_IDX=has_seq,
                         BLOCK_SIZE_M=TILE, BLOCK_SIZE_N=TILE, BLOCK_SIZE_K=TILE, num_warps=4, **seq_kw)
        racer.launch(k, grid=(cdiv(FP, TILE) * cdiv(FN, TILE), FNC, FH),
                     args=[racer.read(self.x), racer.read(self.b), racer.write(self.states), racer.read(self.dt_out),
                           racer.read(self.dA)] + seq + [FP, FN, FCS, 1, FL, FH] + x_st + bc_st + st_st + cs_st +
                          cs_st + seq_st)
        dim = FP * FN
        init_kw = {} if self.has_init else {"initstates_ptr": None}
        k = racer.triton(kernel(f"{T}.ssd_state_passing", "_state_passing_fwd_kernel", self.mutate),
                         HAS_INITSTATES=self.has_init, HAS_SEQ_IDX=has_seq, BLOCK_SIZE=64, num_warps=4, **seq_kw,
                         **init_kw)
        racer.launch(k, grid=(cdiv(dim, 64), 1, FH),
                     args=[racer.read(self.states), racer.write(self.passed), racer.write(self.final),
                           racer.read(self.dA, offset=FCS - 1)] + ([racer.read(self.init)] if self.has_init else []) +
                          seq +
                          [dim, FNC] + ([FL, FCS] if has_seq else [0, 0]) +
                          [FNC * FH * dim, FH * dim, dim, 1, FNC * FH * dim, FH * dim, dim, 1, FH * dim, dim, 1,
                           FH * FNC * FCS, FCS, FNC * FCS] + ([FH * dim, dim, 1] if self.has_init else [0, 0, 0]) +
                          seq_st)
        k = racer.triton(kernel(f"{T}.ssd_bmm", "_bmm_chunk_fwd_kernel"), IS_CAUSAL=False, dot_dtype=tl.float32,
                         HAS_SEQ_IDX=has_seq, BLOCK_SIZE_M=TILE, BLOCK_SIZE_N=TILE, BLOCK_SIZE_K=TILE, num_warps=4,
                         **seq_kw)
        racer.launch(k, grid=(cdiv(FCS, TILE) ** 2, 1, FNC),
                     args=[racer.read(self.c), racer.read(self.b), racer.write(self.cb)] + seq + [FL, FCS, FN, 1] +
                          bc_st + bc_st + [FNC * FCS * FCS, FCS * FCS, FCS * FCS, FCS, 1] + seq_st)
        k = racer.triton(kernel(f"{T}.ssd_chunk_scan", "_chunk_scan_fwd_kernel", self.scan_mutate), z_ptr=None,
                         out_x_ptr=None, IS_CAUSAL=True, HAS_D=True, D_HAS_HDIM=False, HAS_Z=False,
                         HAS_SEQ_IDX=has_seq, BLOCK_SIZE_M=TILE, BLOCK_SIZE_N=TILE, BLOCK_SIZE_K=TILE,
                         BLOCK_SIZE_DSTATE=16, IS_TRITON_22=True, num_warps=4, **seq_kw)
        racer.launch(k, grid=(cdiv(FCS, TILE) * cdiv(FP, TILE), FNC, FH),
                     args=[racer.read(self.cb), racer.read(self.x), racer.write(self.out), racer.read(self.dt_out),
                           racer.read(self.dA)] + seq + [racer.read(self.c), racer.read(self.passed),
                                                         racer.read(self.D), FCS, FP, FN, 1, FL, FH,
                                                         FNC * FCS * FCS, FCS * FCS, FCS * FCS, FCS, 1] +
                          x_st + [0, 0, 0, 0] + x_st + cs_st + cs_st + seq_st + bc_st + st_st + [1])
        if self.varlen:  # chunk_state_varlen(B[0], x[0], dt[0], dA_cumsum[0], cu_seqlens, states[0])
            k = racer.triton(kernel(f"{T}.ssd_chunk_state", "_chunk_state_varlen_kernel"), BLOCK_SIZE_M=TILE,
                             BLOCK_SIZE_N=TILE, BLOCK_SIZE_K=TILE, num_warps=4)
            racer.launch(k, grid=(cdiv(FP, TILE) * cdiv(FN, TILE), self.nseq(), FH),
                         args=[racer.read(self.x), racer.read(self.b), racer.read(self.dt_out), racer.read(self.dA),
                               racer.read(self.passed), racer.read(self.cu), racer.write(self.varlen_states), FP, FN,
                               FCS, FL, FH, FH * FP, FP, 1, FN, FN, 1, FCS, FNC * FCS, 1, FCS, FNC * FCS, 1,
                               FH * FP * FN, FP * FN, FN, 1, FH * FP * FN, FP * FN, FN, 1])
        return self.outputs()

    def program_b(self):
        racer.launch(ref(REF, "ssd_scan_sequential"), grid=1, block=FH * FP,
                     args=[racer.read(self.x), racer.read(self.dt), racer.read(self.A), racer.read(self.b),
                           racer.read(self.c), racer.read(self.bias), racer.read(self.D),
                           racer.read(self.init) if self.has_init else None,
                           racer.read(self.seq_idx) if self.seq else None, racer.write(self.out),
                           racer.write(self.final), racer.write(self.varlen_states) if self.varlen else None, 1, FL,
                           FH, 1, FP, FN, racer.scalar(0.0, "f32"), racer.scalar(float("inf"), "f32")])
        return self.outputs()


class MambaSsdForward(_SsdForward, Row):
    """mamba's Mamba2 SSD forward (five kernels chained as mamba_chunk_scan_combined runs them) against the
    sequential selective scan s_t = exp(dt_t A) s_{t-1} + dt_t B_t x_t, y_t = C_t s_t + D x_t"""


class MambaSsdForwardUndecayedStateMutant(_SsdForward, Mutation):
    """mutation: the chunk scan adds C . (the state entering the chunk) without its decay exp(dA_cs[i]) to step i"""
    scan_mutate = [("acc = tl.dot(C, prev_states) * scale_m[:, None]", "acc = tl.dot(C, prev_states)")]


PACKED = [0] * 10 + [1] * 10 + [2] * 4  # seq_idx: three sequences packed into the batch row, boundaries at 10 and 20


class MambaSsdForwardPackedSequences(_SsdForward, Row):
    """mamba's Mamba2 SSD forward with seq_idx (mamba_chunk_scan_combined(..., seq_idx=...), packed variable-length
    sequences): seq_idx [0 x 10, 1 x 10, 2 x 4] (concrete), one boundary inside each chunk; every kernel's
    HAS_SEQ_IDX path (chunk state, state passing, bmm masks, chunk scan), against the recurrence restarted from 0
    at each new sequence (the first one starts from the initial state)"""
    seq = PACKED


class MambaSsdForwardPackedLeakMutant(_SsdForward, Mutation):
    """mutation: the chunk scan applies the state entering the chunk to every step, also to those of a sequence that
    starts inside the chunk (the seq_idx test of scale_m dropped)"""
    seq = PACKED
    scan_mutate = [("scale_m = tl.where(seq_idx_m == seq_idx_prev, tl.exp(dA_cs_m), 0.0)",
                    "scale_m = tl.exp(dA_cs_m)")]


class MambaSsdForwardVarlenStates(_SsdForward, Row):
    """mamba's Mamba2 SSD forward with seq_idx and cu_seqlens [0, 10, 20, 24] as Mamba2's varlen prefill runs it
    (return_varlen_states, no initial states): the five kernels, then _chunk_state_varlen_kernel (chunk_state_varlen,
    tiles 16, grid (1, 3, 1)) gives each sequence's final state from the states entering its last chunk and the
    chunk's own steps; against the recurrence's state at each sequence's last step"""
    seq, has_init, varlen = PACKED, False, True


class MambaSsdForwardVarlenStatesInitialState(_SsdForward, Row):
    """mamba's Mamba2 SSD forward with initial_states, seq_idx and cu_seqlens [0, 10, 20, 24], return_varlen_states
    (mamba_chunk_scan_combined allows the three together). Found by reading: _chunk_state_varlen_kernel adds the
    state entering the sequence's last chunk only if the sequence starts before that chunk (start_idx < pid_c
    chunk_size), so the first sequence, when it ends inside chunk 0, gets no contribution of the initial state,
    while the outputs y of its steps include it (the chunk scan's scale_m keeps it for seq_idx 0) and a first
    sequence that runs past chunk 0 carries it through the state passing: varlen_states[0] misses
    exp(dA_cs[9]) initial_state. Expected inequivalent"""
    expect = "inequivalent"
    seq, has_init, varlen = PACKED, True, True


# ---------------------------------------------------------------- Mamba-3 (mamba3/angle_dt.py, mamba3_siso_step.py)

AB, AL, AH, AD, ACH = 2, 24, 2, 8, 16  # batch, seqlen, heads, angle dims, CHUNK_SIZE


class _AngleDt:
    """mamba3 angle_dt_fwd_kernel as angle_dt_fwd launches it (mamba3_siso_combined's rotary angles): angle [2][24]
    [2][8], dt [2][2][24], init_state [2][2][8], return_output_state; grid (nheads, batch) = (2, 2), BLOCK_D
    next_power_of_2(8) = 8, num_warps 2 (one of the autotuner's); chunk_size scaled down from its default 64 to 16
    (2 chunks, the last of 8): the state carried between chunks is reduced mod 2 pi, the outputs again"""
    mutate = None

    def setup(self):
        self.angle = racer.input((AB, AL, AH, AD), "f32", range=(-3, 3))
        self.dt = racer.input((AB, AH, AL), "f32", range=(0, 1))
        self.init = racer.input((AB, AH, AD), "f32", range=(0, 6.28))
        self.out = racer.empty((AB, AL, AH, AD), "f32")
        self.final = racer.empty((AB, AH, AD), "f32")

    def program_a(self):
        k = racer.triton(kernel(f"{T}.mamba3.angle_dt", "angle_dt_fwd_kernel", self.mutate), CU_SEQLENS=None,
                         CHUNK_SIZE=ACH, BLOCK_D=next_power_of_2(AD), HAS_INIT_STATE=True, RETURN_OUTPUT_STATE=True,
                         IS_VARLEN=False, num_warps=2)
        x_st = [AL * AH * AD, AH * AD, AD, 1]
        s_st = [AH * AD, AD, 1]
        racer.launch(k, grid=(AH, AB),
                     args=[racer.write(self.out), racer.write(self.final), racer.read(self.angle), racer.read(self.dt),
                           racer.read(self.init)] + x_st + s_st + x_st + [AH * AL, AL, 1] + s_st + [0, AL, AD])
        return {"out": self.out, "final": self.final}

    def program_b(self):
        racer.launch(ref(REF, "angle_dt_cumsum"), grid=1, block=32,
                     args=[racer.read(self.angle), racer.read(self.dt), racer.read(self.init), racer.write(self.out),
                           racer.write(self.final), AB, AL, AH, AD])
        return {"out": self.out, "final": self.final}


class Mamba3AngleDt(_AngleDt, Row):
    """mamba3 angle_dt_fwd_kernel: out_t = (init + sum_{u <= t} pi tanh(angle_u) dt_u) mod 2 pi, and the final state
    (the kernel's tanh is the PTX tanh.approx.f32, the reference's CUDA tanhf: both read as tanh)"""


class Mamba3AngleDtHalfTurnMutant(_AngleDt, Mutation):
    """mutation: the state carried to the next chunk is reduced mod pi instead of mod 2 pi"""
    mutate = [("state = state - TWO_PI * tl.floor(state / TWO_PI)", "state = state - PI * tl.floor(state / PI)")]


MB, MH, MHQK, MQK, MP, MNA = 2, 2, 1, 16, 16, 4  # batch, heads, q/k heads, headdim_qk, headdim_v, headdim_angles


class _Mamba3Step:
    """mamba3 mamba3_siso_step_kernel (mamba3/mamba3_siso_step.py) as mamba3_siso_step launches it: grid (nheads,
    batch) = (2, 2), 2 heads sharing 1 q/k head, headdim_qk = headdim_v = 16 (constexprs), 4 rotary angles (the
    other 4 angle slots masked to angle 0), D and z, every input f32 (Out in V's dtype, the states f32); the
    autotuner's num_warps 4, num_stages 1. Outputs: y, the new angle, SSM and K states"""
    mutate = None

    def setup(self):
        self.q = racer.input((MB, MHQK, MQK), "f32", range=(-1, 1))
        self.k = racer.input((MB, MHQK, MQK), "f32", range=(-1, 1))
        self.v = racer.input((MB, MH, MP), "f32", range=(-1, 1))
        self.adt = racer.input((MB, MH), "f32", range=(-2, 0))
        self.dt = racer.input((MB, MH), "f32", range=(0, 1))
        self.trap = racer.input((MB, MH), "f32", range=(-4, 4))
        self.qb = racer.input((MH, MQK), "f32", range=(-1, 1))
        self.kb = racer.input((MH, MQK), "f32", range=(-1, 1))
        self.ang = racer.input((MB, MH, MNA), "f32", range=(-3, 3))
        self.D = racer.input((MH,), "f32", range=(-1, 1))
        self.z = racer.input((MB, MH, MP), "f32", range=(-4, 4))
        self.as_in = racer.input((MB, MH, MNA), "f32", range=(0, 6.28))
        self.s_in = racer.input((MB, MH, MP, MQK), "f32", range=(-1, 1))
        self.k_in = racer.input((MB, MH, MQK), "f32", range=(-1, 1))
        self.v_in = racer.input((MB, MH, MP), "f32", range=(-1, 1))
        self.out = racer.empty((MB, MH, MP), "f32")
        self.as_out = racer.empty((MB, MH, MNA), "f32")
        self.s_out = racer.empty((MB, MH, MP, MQK), "f32")
        self.k_out = racer.empty((MB, MH, MQK), "f32")

    def outputs(self):
        return {"out": self.out, "as_out": self.as_out, "s_out": self.s_out, "k_out": self.k_out}

    def program_a(self):
        k = racer.triton(kernel(f"{T}.mamba3.mamba3_siso_step", "mamba3_siso_step_kernel", self.mutate),
                         HEADDIM_QK=MQK, HEADDIM_V=MP, HEADDIM_ANGLES=MNA, HAS_D=True, HAS_Z=True, num_warps=4,
                         num_stages=1)
        qk_st = [MHQK * MQK, MQK, 1]
        hp = [MH * MP, MP, 1]
        bh = [MH, 1]
        ang = [MH * MNA, MNA, 1]
        hqk = [MH * MQK, MQK, 1]
        s_st = [MH * MP * MQK, MP * MQK, MQK, 1]
        racer.launch(k, grid=(MH, MB),
                     args=[racer.read(t) for t in (self.q, self.k, self.v, self.adt, self.dt, self.trap, self.qb,
                                                   self.kb, self.ang, self.D, self.z, self.as_in, self.s_in,
                                                   self.k_in, self.v_in)] +
                          [racer.write(self.out), racer.write(self.as_out), racer.write(self.s_out),
                           racer.write(self.k_out)] +
                          qk_st + qk_st + hp + bh + bh + bh + [MQK, 1, MQK, 1] + ang + [1] + hp + ang + s_st + hqk +
                          hp + hp + ang + s_st + hqk + [MHQK])
        return self.outputs()

    def program_b(self):
        racer.launch(ref(REF, "mamba3_step"), grid=1, block=32,
                     args=[racer.read(t) for t in (self.q, self.k, self.v, self.adt, self.dt, self.trap, self.qb,
                                                   self.kb, self.ang, self.D, self.z, self.as_in, self.s_in,
                                                   self.k_in, self.v_in)] +
                          [racer.write(self.out), racer.write(self.as_out), racer.write(self.s_out),
                           racer.write(self.k_out), MB, MH, MHQK, MQK, MP, MNA])
        return self.outputs()


class Mamba3SisoStep(_Mamba3Step, Row):
    """mamba3 mamba3_siso_step_kernel: one Mamba-3 decode step (rotary angle state, RoPE'd q and k, the
    trapezoidal state update with the previous K and V, y = S q + D v, z gate)"""


class Mamba3SisoStepTrapezoidMutant(_Mamba3Step, Mutation):
    """mutation: the previous step's term of the trapezoidal update is not decayed (beta = dt (1 - trap) without
    alpha)"""
    mutate = [("beta = alpha * dt * (1 - trap)", "beta = dt * (1 - trap)")]

