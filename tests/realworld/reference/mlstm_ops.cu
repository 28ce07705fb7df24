// Naive references for mlstm_kernels' Triton kernels (xLSTM's mLSTM cell, NX-AI): the recurrent decode step, the
// chunkwise forward (the states at chunk borders, the outputs within chunks), the whole recurrence step by step
// (what the chained chunkwise forward computes), the parallel (attention-like) forward, and the chunkwise
// backward (the state gradients at chunk borders, dQ, dK, dV). One thread per output cell or row, textbook
// formulas, f32 accumulation.
//
// The mLSTM with stabilizer m (i: input gate pre-activation, f: forget gate pre-activation, lf = log sigmoid(f)):
//   m_t = max(lf_t + m_{t-1}, i_t), C_t = exp(lf_t + m_{t-1} - m_t) C_{t-1} + exp(i_t - m_t) k_t v_t^T,
//   n_t = exp(lf_t + m_{t-1} - m_t) n_{t-1} + exp(i_t - m_t) k_t,
//   h_t = C_t^T (s q_t) / (max(|n_t . s q_t|, exp(-m_t)) + eps)   (s the qk scale).
// Layouts (bnh = batch * heads + head): Q, K [BNH][S][DK], V, H, dH [BNH][S][DV], gates [BNH][S]; chunk states
// C [BNH][NC + 1][DK][DV], n [BNH][NC + 1][DK], m [BNH][NC + 1]; per-step n_out, m_out [BNH][S].
#include <math.h>

__device__ float log_sigmoid(float f) { return logf(1.f / (1.f + expf(-f))); }

// Step row `at`'s output h = num / (n + eps) with n = max(|den|, exp(-m)), and n and m themselves at lane j = 0
// where those outputs are given.
__device__ void store_step(float* H, float* n_out, float* m_out, int at, int DV, int j, float num, float den, float m,
                           float eps) {
  float nn = fmaxf(fabsf(den), expf(-m));
  H[at * DV + j] = num / (nn + eps);
  if (j == 0 && n_out) n_out[at] = nn;
  if (j == 0 && m_out) m_out[at] = m;
}

// Log forget gates come either raw (F: lf = log sigmoid(f)) or as Bc, the running sums of lf within each chunk that
// the caller computed (Bc[c L + l] = sum over chunk positions 0..l). With F the sums are accumulated in a running
// register here (a local array of log results is refused by Racer, see the README).

// ---- the recurrent step (one token): C, n, m updated from the old state; h ----
// q, k [BNH][DK], v, h [BNH][DV], i, f [BNH]; C_old/C_new [BNH][DK][DV], n [BNH][DK], m [BNH]. One thread per (bnh, j).
extern "C" __global__ void mlstm_step(const float* C_old, const float* n_old, const float* m_old, const float* q,
                                      const float* k, const float* v, const float* ig, const float* fg, float* h,
                                      float* C_new, float* n_new, float* m_new, int BNH, int DK, int DV, float scale,
                                      float eps) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= BNH * DV) return;
  int b = t / DV, j = t % DV;
  float lf = log_sigmoid(fg[b]);
  float m = fmaxf(lf + m_old[b], ig[b]);
  float fa = expf(lf + m_old[b] - m), ia = expf(ig[b] - m);
  float num = 0.f, den = 0.f;
  for (int d = 0; d < DK; ++d) {
    float c = fa * C_old[(b * DK + d) * DV + j] + ia * k[b * DK + d] * v[b * DV + j];
    float nn = fa * n_old[b * DK + d] + ia * k[b * DK + d];
    C_new[(b * DK + d) * DV + j] = c;
    if (j == 0) n_new[b * DK + d] = nn;
    num += q[b * DK + d] * scale * c;
    den += q[b * DK + d] * scale * nn;
  }
  if (j == 0) m_new[b] = m;
  h[b * DV + j] = num / (fmaxf(fabsf(den), expf(-m)) + eps);
}

// ---- chunkwise forward, part 1: the state at each chunk border ----
// Chunk c of L steps takes the state (C, n, m) at its start to its end with the chunk-level stabilizer
//   g = (log forget sum of the chunk), a_l = (log forget sum after l) + i_l, m' = max(g + m, max_l a_l),
//   C' = exp(g + m - m') C + sum_l exp(a_l - m') k_l v_l^T, n' likewise with k_l.
// The state at border c (c = 0..NC; 0 the initial state, zeros and m = 0 without one) is written to slot c / every
// when c is a multiple of every. F (raw forget gates) or Bc (chunk running sums of log forget gates), I [BNH][S].
// One thread per (bnh, i, j); the threads with j = 0 write n, the thread (i, j) = (0, 0) writes m.
extern "C" __global__ void mlstm_chunk_states(const float* K, const float* V, const float* F, const float* Bc,
                                              const float* I, const float* C0, const float* n0, const float* m0,
                                              float* Cs, float* ns, float* ms, int BNH, int S, int DK, int DV, int L,
                                              int every) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= BNH * DK * DV) return;
  int b = t / (DK * DV), i = (t / DV) % DK, j = t % DV;
  int NC = S / L, slots = NC / every + 1;
  float C = C0 ? C0[(b * DK + i) * DV + j] : 0.f;
  float n = n0 ? n0[b * DK + i] : 0.f;
  float m = m0 ? m0[b] : 0.f;
  for (int c = 0; c <= NC; ++c) {
    if (c % every == 0) {
      int slot = c / every;
      Cs[((b * slots + slot) * DK + i) * DV + j] = C;
      if (j == 0) ns[(b * slots + slot) * DK + i] = n;
      if (i == 0 && j == 0) ms[b * slots + slot] = m;
    }
    if (c == NC) break;
    int base = b * S + c * L;
    // b_l = the log forget sum over chunk positions 0..l (kept per position: L <= 64), g = b_{L-1},
    // a_l = g - b_l + i_l
    float bl[64];
    for (int l = 0; l < L; ++l) bl[l] = Bc ? Bc[base + l] : (l ? bl[l - 1] : 0.f) + log_sigmoid(F[base + l]);
    float g = bl[L - 1];
    float mn = g + m;
    for (int l = 0; l < L; ++l) mn = fmaxf(mn, g - bl[l] + I[base + l]);
    float decay = expf(g + m - mn);
    float addC = 0.f, addn = 0.f;
    for (int l = 0; l < L; ++l) {
      float w = expf(g - bl[l] + I[base + l] - mn);
      addC += w * K[(base + l) * DK + i] * V[(base + l) * DV + j];
      addn += w * K[(base + l) * DK + i];
    }
    C = decay * C + addC;
    n = decay * n + addn;
    m = mn;
  }
}

// ---- chunkwise forward, part 2: the outputs of each step from the state entering its chunk ----
// Step t = c L + l: with b_l the chunk running sum of log forget gates (Bc) and M the stabilizer of the state
// entering chunk c (Cs, ns, ms slot c), m_t = max(b_l + M, max_{s <= l} (b_l - b_s + i_s));
//   num = s q_t^T C exp(b_l + M - m_t) + sum_{s <= l} s (q_t . k_s) exp(b_l - b_s + i_s - m_t) v_s,
//   den likewise with n and 1 for v_s, n_out = max(|den|, exp(-m_t)), h_t = num / (n_out + eps), m_out = m_t.
// One thread per (bnh, t, j); j = 0 writes n_out and m_out.
extern "C" __global__ void mlstm_chunk_outputs(const float* Q, const float* K, const float* V, const float* Cs,
                                               const float* ns, const float* ms, const float* Bc, const float* I,
                                               float* H, float* n_out, float* m_out, int BNH, int S, int DK, int DV,
                                               int L, float scale, float eps) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= BNH * S * DV) return;
  int b = x / (S * DV), t = (x / DV) % S, j = x % DV;
  int c = t / L, l = t % L, base = b * S + c * L, NC = S / L;
  float M = ms[b * (NC + 1) + c];
  float m = Bc[base + l] + M;
  for (int s = 0; s <= l; ++s) m = fmaxf(m, Bc[base + l] - Bc[base + s] + I[base + s]);
  float num = 0.f, den = 0.f;
  float carry = expf(Bc[base + l] + M - m);
  for (int d = 0; d < DK; ++d) {
    float qd = scale * Q[(b * S + t) * DK + d];
    num += qd * carry * Cs[((b * (NC + 1) + c) * DK + d) * DV + j];
    den += qd * carry * ns[(b * (NC + 1) + c) * DK + d];
  }
  for (int s = 0; s <= l; ++s) {
    float qk = 0.f;
    for (int d = 0; d < DK; ++d) qk += Q[(b * S + t) * DK + d] * K[(base + s) * DK + d];
    float w = scale * qk * expf(Bc[base + l] - Bc[base + s] + I[base + s] - m);
    num += w * V[(base + s) * DV + j];
    den += w;
  }
  store_step(H, n_out, m_out, b * S + t, DV, j, num, den, m, eps);
}

// ---- the whole mLSTM, one step at a time (what the chunkwise forward computes) ----
// From the initial state (C0, n0, m0; zeros and m = 0 without) through the S steps of the recurrence at the top
// of this file; lf_t from the raw forget gates F, or from Bc (chunk running sums, L steps a chunk). Writes h_t,
// n_out_t = max(|n_t . s q_t|, exp(-m_t)) and m_out_t when given, and the final state (Cf, nf, mf) when given.
// One thread per (bnh, j).
extern "C" __global__ void mlstm_recurrent(const float* Q, const float* K, const float* V, const float* F,
                                           const float* Bc, const float* I, const float* C0, const float* n0,
                                           const float* m0, float* H, float* n_out, float* m_out, float* Cf,
                                           float* nf, float* mf, int BNH, int S, int DK, int DV, int L, float scale,
                                           float eps) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= BNH * DV) return;
  int b = x / DV, j = x % DV;
  float C[64], n[64];
  for (int d = 0; d < DK; ++d) {
    C[d] = C0 ? C0[(b * DK + d) * DV + j] : 0.f;
    n[d] = n0 ? n0[b * DK + d] : 0.f;
  }
  float m = m0 ? m0[b] : 0.f;
  for (int t = 0; t < S; ++t) {
    float lf = F ? log_sigmoid(F[b * S + t]) : (t % L == 0 ? Bc[b * S + t] : Bc[b * S + t] - Bc[b * S + t - 1]);
    float ig = I[b * S + t];
    float mn = fmaxf(lf + m, ig);
    float fa = expf(lf + m - mn), ia = expf(ig - mn);
    float num = 0.f, den = 0.f;
    for (int d = 0; d < DK; ++d) {
      C[d] = fa * C[d] + ia * K[(b * S + t) * DK + d] * V[(b * S + t) * DV + j];
      n[d] = fa * n[d] + ia * K[(b * S + t) * DK + d];
      num += scale * Q[(b * S + t) * DK + d] * C[d];
      den += scale * Q[(b * S + t) * DK + d] * n[d];
    }
    m = mn;
    store_step(H, n_out, m_out, b * S + t, DV, j, num, den, m, eps);
  }
  if (Cf)
    for (int d = 0; d < DK; ++d) Cf[(b * DK + d) * DV + j] = C[d];
  if (nf && j == 0)
    for (int d = 0; d < DK; ++d) nf[b * DK + d] = n[d];
  if (mf && j == 0) mf[b] = m;
}

// ---- the parallel form (one query row against all earlier keys) ----
// Fcs [BNH][S]: the running sum of log forget gates over the whole sequence; D_ts = Fcs_t - Fcs_s + i_s (s <= t),
// m_t = max_s D_ts, w_ts = (q_t . k_s) / sqrt_d exp(D_ts - m_t), n_t = max(|sum_s w_ts|, exp(-m_t)),
// h_t = sum_s w_ts v_s / (n_t + eps). One thread per (bnh, t, j); j = 0 writes m and n.
extern "C" __global__ void mlstm_parallel(const float* Q, const float* K, const float* V, const float* I,
                                          const float* Fcs, float* H, float* m_out, float* n_out, int BNH, int S,
                                          int DK, int DV, float sqrt_d, float eps) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= BNH * S * DV) return;
  int b = x / (S * DV), t = (x / DV) % S, j = x % DV;
  float m = -INFINITY;
  for (int s = 0; s <= t; ++s) m = fmaxf(m, Fcs[b * S + t] - Fcs[b * S + s] + I[b * S + s]);
  float num = 0.f, den = 0.f;
  for (int s = 0; s <= t; ++s) {
    float qk = 0.f;
    for (int d = 0; d < DK; ++d) qk += Q[(b * S + t) * DK + d] * K[(b * S + s) * DK + d];
    float w = qk / sqrt_d * expf(Fcs[b * S + t] - Fcs[b * S + s] + I[b * S + s] - m);
    num += w * V[(b * S + s) * DV + j];
    den += w;
  }
  store_step(H, n_out, m_out, b * S + t, DV, j, num, den, m, eps);
}

// ---- chunkwise backward, part 1: the gradient of the state at each chunk border ----
// With the forward's stabilizers (Mi [BNH][NC + 1] at the borders, m_out and n_out per step) held fixed, the
// state entering chunk c reaches h_t (t = c L + l) through s q_t exp(b_l + Mi_c - m_t) / (n_out_t + eps) and the
// next border through exp(g + Mi_c - Mi_{c+1}) (b_l the chunk's log forget sum over positions 0..l, g = b_{L-1}):
//   dC_NC = dC_last (0 without), dC_c = exp(g + Mi_c - Mi_{c+1}) dC_{c+1}
//                                     + sum_l s q_t exp(b_l + Mi_c - m_t) / (n_out_t + eps) dh_t^T.
// The gradient at border c is written to slot c / every when c is a multiple of every (always at border 0).
// F (raw forget gates) or Bc (chunk running sums). dCs [BNH][NC / every + 1][DK][DV]. One thread per (bnh, i, j).
extern "C" __global__ void mlstm_chunk_state_grads(const float* Q, const float* F, const float* Bc, const float* Mi,
                                                   const float* m_out, const float* dH, const float* n_out,
                                                   const float* dC_last, float* dCs, int BNH, int S, int DK, int DV,
                                                   int L, int every, float scale, float eps) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= BNH * DK * DV) return;
  int b = x / (DK * DV), i = (x / DV) % DK, j = x % DV;
  int NC = S / L, slots = NC / every + 1;
  float g = dC_last ? dC_last[(b * DK + i) * DV + j] : 0.f;
  for (int c = NC; c >= 0; --c) {
    if (c % every == 0) dCs[((b * slots + c / every) * DK + i) * DV + j] = g;
    if (c == 0) break;
    int p = c - 1, base = b * S + p * L;
    float acc = 0.f, run = 0.f;  // run: the log forget sum over chunk positions 0..l
    for (int l = 0; l < L; ++l) {
      int t = base + l;
      run = Bc ? Bc[t] : run + log_sigmoid(F[t]);
      acc += scale * Q[t * DK + i] * expf(run + Mi[b * (NC + 1) + p] - m_out[t]) * dH[t * DV + j] / (n_out[t] + eps);
    }
    acc += expf(run + Mi[b * (NC + 1) + p] - Mi[b * (NC + 1) + c]) * g;
    g = acc;
  }
}

// ---- chunkwise backward, part 2: dQ, dK, dV of each step ----
// h_t = num_t / (n_out_t + eps) with num_t as in mlstm_chunk_outputs (n_out, m_out, the border stabilizers Mi
// held fixed), and the state leaving chunk c gets k_s v_s^T exp(a_s - Mi_{c+1}), a_s = b_{L-1} - b_s + i_s (or
// read from A [BNH][S] when given: the log forget sum after s plus i_s, as the caller computed it).
// With G_t = dh_t / (n_out_t + eps), Dw_ts = exp(b_l - b_s + i_s - m_t) (s <= t in the chunk), dC the gradient of the
// state leaving the chunk (dCs slot c + 1) and C the state entering it (Cs slot c):
//   dq_t = s sum_j G_t[j] (exp(b_l + Mi_c - m_t) C[:, j] + sum_{s <= t} Dw_ts k_s v_s[j]),
//   dk_s = s sum_{t >= s} Dw_ts (G_t . v_s) q_t + exp(a_s - Mi_{c+1}) dC v_s,
//   dv_s = sum_{t >= s} s (q_t . k_s) Dw_ts G_t + exp(a_s - Mi_{c+1}) dC^T k_s.
// One thread per (bnh, t); each writes its row of those of dQ, dK, dV that are given (the others may be null).
extern "C" __global__ void mlstm_chunk_qkv_grads(const float* Q, const float* K, const float* V, const float* Bc,
                                                 const float* I, const float* A, const float* m_out, const float* Mi,
                                                 const float* Cs, const float* dH, const float* n_out,
                                                 const float* dCs, float* dQ, float* dK, float* dV, int BNH, int S,
                                                 int DK, int DV, int L, float scale, float eps) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= BNH * S) return;
  int b = x / S, t = x % S, c = t / L, l = t % L, base = b * S + c * L, NC = S / L;
  const float* Cin = Cs + (b * (NC + 1) + c) * DK * DV;
  const float* dCout = dCs + (b * (NC + 1) + c + 1) * DK * DV;
  float Mc = Mi[b * (NC + 1) + c], Mn = Mi[b * (NC + 1) + c + 1];
  int row = b * S + t;
  float decay_out = expf((A ? A[row] : Bc[base + L - 1] - Bc[row] + I[row]) - Mn);
  // dq_t (when dQ is given)
  for (int d = 0; dQ && d < DK; ++d) {
    float acc = 0.f;
    for (int j = 0; j < DV; ++j)
      acc += dH[row * DV + j] / (n_out[row] + eps) * expf(Bc[row] + Mc - m_out[row]) * Cin[d * DV + j];
    for (int s = 0; s <= l; ++s) {
      float Gv = 0.f;  // G_t . v_s
      for (int j = 0; j < DV; ++j) Gv += dH[row * DV + j] / (n_out[row] + eps) * V[(base + s) * DV + j];
      acc += expf(Bc[row] - Bc[base + s] + I[base + s] - m_out[row]) * K[(base + s) * DK + d] * Gv;
    }
    dQ[row * DK + d] = scale * acc;
  }
  // dk_s for s = t (when dK is given)
  for (int d = 0; dK && d < DK; ++d) {
    float acc = 0.f;
    for (int u = l; u < L; ++u) {
      int r = base + u;
      float Gv = 0.f;
      for (int j = 0; j < DV; ++j) Gv += dH[r * DV + j] / (n_out[r] + eps) * V[row * DV + j];
      acc += scale * expf(Bc[r] - Bc[row] + I[row] - m_out[r]) * Gv * Q[r * DK + d];
    }
    float dcv = 0.f;
    for (int j = 0; j < DV; ++j) dcv += dCout[d * DV + j] * V[row * DV + j];
    dK[row * DK + d] = acc + decay_out * dcv;
  }
  // dv_s for s = t (when dV is given)
  for (int j = 0; dV && j < DV; ++j) {
    float acc = 0.f;
    for (int u = l; u < L; ++u) {
      int r = base + u;
      float qk = 0.f;
      for (int d = 0; d < DK; ++d) qk += Q[r * DK + d] * K[row * DK + d];
      acc += scale * qk * expf(Bc[r] - Bc[row] + I[row] - m_out[r]) * dH[r * DV + j] / (n_out[r] + eps);
    }
    float dck = 0.f;
    for (int d = 0; d < DK; ++d) dck += dCout[d * DV + j] * K[row * DK + d];
    dV[row * DV + j] = acc + decay_out * dck;
  }
}

// ---- the parallel form's backward ----
// With the forward's m_t and n_t held fixed (m, n [BNH][S]), w_ts = exp(D_ts - m_t) for s <= t (D as in
// mlstm_parallel), G_ts = (dh_t . v_s) / (n_t + eps):
//   dq_t = sum_{s <= t} G_ts w_ts k_s / sqrt_d,        dk_s = sum_{t >= s} G_ts w_ts q_t / sqrt_d,
//   dv_s = sum_{t >= s} (q_t . k_s) / sqrt_d w_ts dh_t / (n_t + eps),
//   di_s = sum_{t >= s} G_ts (q_t . k_s) / sqrt_d w_ts (the gradient of the input gate through D_ts).
// D = DK = DV. One thread per (bnh, row r); each writes row r of dQ, dK, dV and dI[r].
extern "C" __global__ void mlstm_parallel_grads(const float* dH, const float* Q, const float* K, const float* V,
                                                const float* I, const float* Fcs, const float* m, const float* n,
                                                float* dQ, float* dK, float* dV, float* dI, int BNH, int S, int D,
                                                float sqrt_d, float eps) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= BNH * S) return;
  int b = x / S, r = x % S;
  const float* q = Q + b * S * D;
  const float* k = K + b * S * D;
  const float* v = V + b * S * D;
  const float* dh = dH + b * S * D;
  const float* fc = Fcs + b * S;
  const float* ig = I + b * S;
  const float* mm = m + b * S;
  const float* nn = n + b * S;
  // dq_r: keys s <= r
  for (int d = 0; d < D; ++d) {
    float acc = 0.f;
    for (int s = 0; s <= r; ++s) {
      float G = 0.f;
      for (int j = 0; j < D; ++j) G += dh[r * D + j] * v[s * D + j];
      G /= nn[r] + eps;
      acc += G * expf(fc[r] - fc[s] + ig[s] - mm[r]) * k[s * D + d] / sqrt_d;
    }
    dQ[(b * S + r) * D + d] = acc;
  }
  // dk_r, dv_r, di_r: queries t >= r
  float di = 0.f;
  for (int t = r; t < S; ++t) {
    float w = expf(fc[t] - fc[r] + ig[r] - mm[t]);
    float G = 0.f, qk = 0.f;
    for (int j = 0; j < D; ++j) {
      G += dh[t * D + j] * v[r * D + j];
      qk += q[t * D + j] * k[r * D + j];
    }
    G /= nn[t] + eps;
    di += G * qk / sqrt_d * w;
  }
  dI[b * S + r] = di;
  for (int d = 0; d < D; ++d) {
    float ak = 0.f, av = 0.f;
    for (int t = r; t < S; ++t) {
      float w = expf(fc[t] - fc[r] + ig[r] - mm[t]);
      float G = 0.f, qk = 0.f;
      for (int j = 0; j < D; ++j) {
        G += dh[t * D + j] * v[r * D + j];
        qk += q[t * D + j] * k[r * D + j];
      }
      G /= nn[t] + eps;
      ak += G * w * q[t * D + d] / sqrt_d;
      av += qk / sqrt_d * w * dh[t * D + d] / (nn[t] + eps);
    }
    dK[(b * S + r) * D + d] = ak;
    dV[(b * S + r) * D + d] = av;
  }
}
