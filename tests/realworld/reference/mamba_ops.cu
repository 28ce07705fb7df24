// Naive references for mamba-ssm's Triton kernels (mamba_ssm/ops/triton/): the selective-state decode step, the
// gated RMS/LayerNorm, the fused residual + LayerNorm/RMSNorm, SwiGLU, the Mamba2 SSD pieces (dt softplus +
// chunked dA cumsum, per-chunk states, C B^T within chunks, state passing across chunks, chunk scan), the whole
// selective scan step by step (what the chained SSD forward computes), and Mamba-3's angle cumsum and decode step.
// One thread per row or per output cell, textbook formulas, f32 accumulation.
#include <cuda_bf16.h>
#include <math.h>
#include "float_formats.cuh"

__device__ float sigmoid(float v) { return 1.f / (1.f + expf(-v)); }
__device__ float silu(float v) { return v * sigmoid(v); }
// softplus(x) = log(1 + e^x), x itself above 20 (torch's threshold, as Mamba applies it).
__device__ float softplus20(float v) { return v <= 20.f ? logf(1.f + expf(v)) : v; }

// ---- selective_state_update: one decode step of the SSM ----
// state [B][H][P][N] (updated in place, batch row sidx[b] when sidx is given, skipped when it is < 0), x, z, out
// [B][H][P]; B, C [B][G][N], head h uses group h / (H / G). Per head and channel p (untied) or per head (tied:
// dt [B][H], dt_bias [H], A [H], D [H]; untied: dt [B][H][P], dt_bias [H][P], A [H][P][N], D [H][P]):
//   dt' = softplus(dt + dt_bias), state[n] = state[n] exp(A dt') + dt' B[n] x, out = sum_n C[n] state[n] + D x,
//   out *= silu(z). A padding slot (sidx[b] < 0) writes out = 0 and leaves the states alone.

template <typename T>
__device__ void state_update(T* state, const T* x, const T* dt, const float* dt_bias, const float* A, const T* Bm,
                             const T* Cm, const float* D, const T* z, T* out, const int* sidx, int batch, int H, int P,
                             int N, int G, int tied, int softplus, int has_bias, int has_D, int has_z) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= batch * H * P) return;
  int b = t / (H * P), h = (t / P) % H, p = t % P, g = h / (H / G);
  int sb = b;
  if (sidx) {
    sb = sidx[b];
    if (sb < 0) {
      out[t] = from_float<T>(0.f);
      return;
    }
  }
  float d = as_float(tied ? dt[b * H + h] : dt[t]);
  if (has_bias) d += tied ? dt_bias[h] : dt_bias[h * P + p];
  if (softplus) d = softplus20(d);
  float xv = as_float(x[t]);
  T* s = state + ((sb * H + h) * P + p) * N;
  float acc = 0.f;
  for (int n = 0; n < N; ++n) {
    float a = tied ? A[h] : A[(h * P + p) * N + n];
    float v = as_float(s[n]) * expf(a * d) + d * as_float(Bm[(b * G + g) * N + n]) * xv;
    s[n] = from_float<T>(v);
    acc += v * as_float(Cm[(b * G + g) * N + n]);  // the unrounded new state, as the kernel sums it
  }
  if (has_D) acc += xv * (tied ? D[h] : D[h * P + p]);
  if (has_z) acc *= silu(as_float(z[t]));
  out[t] = from_float<T>(acc);
}

extern "C" __global__ void ssm_state_update(float* state, const float* x, const float* dt, const float* dt_bias,
                                           const float* A, const float* Bm, const float* Cm, const float* D,
                                           const float* z, float* out, const int* sidx, int batch, int H, int P,
                                           int N, int G, int tied, int softplus, int has_bias, int has_D, int has_z) {
  state_update(state, x, dt, dt_bias, A, Bm, Cm, D, z, out, sidx, batch, H, P, N, G, tied, softplus, has_bias, has_D,
               has_z);
}
// The same with the state, x, dt, B, C, z and out in bf16 (A, dt_bias, D in f32), f32 arithmetic.
extern "C" __global__ void ssm_state_update_bf16(__nv_bfloat16* state, const __nv_bfloat16* x,
                                                const __nv_bfloat16* dt, const float* dt_bias, const float* A,
                                                const __nv_bfloat16* Bm, const __nv_bfloat16* Cm, const float* D,
                                                const __nv_bfloat16* z, __nv_bfloat16* out, const int* sidx, int batch,
                                                int H, int P, int N, int G, int tied, int softplus, int has_bias,
                                                int has_D, int has_z) {
  state_update(state, x, dt, dt_bias, A, Bm, Cm, D, z, out, sidx, batch, H, P, N, G, tied, softplus, has_bias, has_D,
               has_z);
}

// ---- layernorm_gated: RMSNorm / LayerNorm per group of G columns with a gate z ----
// x, z, y [M][N], w, b [N]; per (row, group): with gate_first the input is x silu(z); y = (v - mean) rstd w + b
// (mean 0 for rms, two-pass variance), and without gate_first y *= silu(z). mean, rstd of (row, group) at
// [group M + row].
extern "C" __global__ void gated_norm(const float* x, const float* z, const float* w, const float* b, float* y,
                                      float* mean_out, float* rstd_out, int M, int N, int G, float eps, int rms,
                                      int gate_first, int has_bias, int has_z) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int groups = N / G;
  if (i >= M * groups) return;
  int r = i / groups, g = i % groups, o = r * N + g * G;
  float mean = 0.f;
  if (!rms) {
    for (int j = 0; j < G; ++j) mean += (has_z && gate_first) ? x[o + j] * silu(z[o + j]) : x[o + j];
    mean /= G;
  }
  float var = 0.f;
  for (int j = 0; j < G; ++j) {
    float v = ((has_z && gate_first) ? x[o + j] * silu(z[o + j]) : x[o + j]) - mean;
    var += v * v;
  }
  var /= G;
  float rstd = 1.f / sqrtf(var + eps);
  for (int j = 0; j < G; ++j) {
    float v = (has_z && gate_first) ? x[o + j] * silu(z[o + j]) : x[o + j];
    float out = (v - mean) * rstd * w[g * G + j];
    if (has_bias) out += b[g * G + j];
    if (has_z && !gate_first) out *= silu(z[o + j]);
    y[o + j] = out;
  }
  if (!rms) mean_out[g * M + r] = mean;
  rstd_out[g * M + r] = rstd;
}

// ---- layer_norm: residual add, then LayerNorm or RMSNorm over the row ----
// x, res, y, res_out [M][N], w, b [N]: s = x + res (written to res_out), y = (s - mean) rstd w + b (mean 0 for
// rms); mean [M] (LayerNorm only), rstd [M].
extern "C" __global__ void add_norm(const float* x, const float* res, const float* w, const float* b, float* y,
                                    float* res_out, float* mean_out, float* rstd_out, int M, int N, float eps,
                                    int rms, int has_res, int has_bias) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M) return;
  const float* X = x + r * N;
  float mean = 0.f;
  if (!rms) {
    for (int j = 0; j < N; ++j) mean += X[j] + (has_res ? res[r * N + j] : 0.f);
    mean /= N;
  }
  float var = 0.f;
  for (int j = 0; j < N; ++j) {
    float v = X[j] + (has_res ? res[r * N + j] : 0.f) - mean;
    var += v * v;
  }
  var /= N;
  float rstd = 1.f / sqrtf(var + eps);
  for (int j = 0; j < N; ++j) {
    float s = X[j] + (has_res ? res[r * N + j] : 0.f);
    if (has_res) res_out[r * N + j] = s;
    float out = (s - mean) * rstd * w[j];
    if (has_bias) out += b[j];
    y[r * N + j] = out;
  }
  if (!rms) mean_out[r] = mean;
  rstd_out[r] = rstd;
}

// ---- k_activations: SwiGLU, out = silu(x) y, x, y, out [M][N] (x and y with row stride ld) ----
extern "C" __global__ void swiglu(const float* x, const float* y, float* out, int M, int N, int ld) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  int r = i / N, c = i % N;
  out[i] = silu(x[r * ld + c]) * y[r * ld + c];
}

// ---- Mamba2 SSD ----
// dt [B][L][H]; per (batch, head, chunk of CS steps): dt_out = clamp(softplus(dt + bias), lo, hi) (0 past the
// sequence end), dA_cs = running sum over the chunk of dt_out A[h]. dt_out, dA_cs: [B][H][NC][CS].
extern "C" __global__ void ssd_chunk_cumsum(const float* dt, const float* A, const float* bias, float* dt_out,
                                            float* dA_cs, int B, int L, int H, int CS, float lo, float hi) {
  int NC = (L + CS - 1) / CS;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= B * H * NC) return;
  int b = i / (H * NC), h = (i / NC) % H, ch = i % NC;
  float cum = 0.f;
  for (int c = 0; c < CS; ++c) {
    int t = ch * CS + c;
    float v = 0.f;
    if (t < L) v = fminf(fmaxf(softplus20(dt[(b * L + t) * H + h] + bias[h]), lo), hi);
    dt_out[i * CS + c] = v;
    cum += v * A[h];
    dA_cs[i * CS + c] = cum;
  }
}

// The state each chunk ends with, from its own steps only: x [B][L][H][P], Bm [B][L][G][N], dt, dA_cs
// [B][H][NC][CS]; states[b][c][h][p][n] = sum over the chunk's steps l (t = c CS + l < L) of
// x[t][h][p] Bm[t][g][n] dt[l] exp(min(dA_cs[CS - 1] - dA_cs[l], 0)) (the decay from step l to the chunk's last
// slot; the kernel's min(., 0) guard is kept: dA_cs is an input here, not necessarily non-increasing).
extern "C" __global__ void ssd_chunk_state(const float* x, const float* Bm, const float* dt, const float* dA_cs,
                                           float* states, int batch, int L, int H, int G, int P, int N, int CS) {
  int NC = (L + CS - 1) / CS;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= batch * NC * H * P * N) return;
  int n = i % N, p = (i / N) % P, h = (i / (N * P)) % H, c = (i / (N * P * H)) % NC, b = i / (N * P * H * NC);
  int g = h / (H / G);
  const float* DT = dt + ((b * H + h) * NC + c) * CS;
  const float* DA = dA_cs + ((b * H + h) * NC + c) * CS;
  float acc = 0.f;
  for (int l = 0; l < CS && c * CS + l < L; ++l) {
    int t = c * CS + l;
    acc += x[((b * L + t) * H + h) * P + p] * Bm[((b * L + t) * G + g) * N + n] * DT[l] *
           expf(fminf(DA[CS - 1] - DA[l], 0.f));
  }
  states[i] = acc;
}

// C B^T within each chunk: a, bm [B][L][G][K]; out[b][c][g][i][j] = sum_k a[c CS + i][g][k] bm[c CS + j][g][k]
// for steps inside the sequence, 0 for i or j past its end. out [B][NC][G][CS][CS].
extern "C" __global__ void ssd_bmm_chunk(const float* a, const float* bm, float* out, int batch, int L, int G,
                                         int K, int CS) {
  int NC = (L + CS - 1) / CS;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= batch * NC * G * CS * CS) return;
  int j = t % CS, i = (t / CS) % CS, g = (t / (CS * CS)) % G, c = (t / (CS * CS * G)) % NC;
  int b = t / (CS * CS * G * NC);
  float acc = 0.f;
  if (c * CS + i < L && c * CS + j < L)
    for (int k = 0; k < K; ++k)
      acc += a[((b * L + c * CS + i) * G + g) * K + k] * bm[((b * L + c * CS + j) * G + g) * K + k];
  out[t] = acc;
}

// States passed across chunks: states [B][NC][H][D] (each chunk's own), dA_last[b][h][c] at
// dA_last[b sb + h sh + c sc] (the chunk's last dA cumsum); s_0 = init[b][h] (0 without), s_{c+1} = exp(dA_last[c])
// s_c + states[c]; out[b][c] = s_c for c < NC, final = s_NC.
extern "C" __global__ void ssd_state_passing(const float* states, const float* dA_last, const float* init,
                                             float* out, float* final_states, int batch, int NC, int H, int D,
                                             int sb, int sh, int sc) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= batch * H * D) return;
  int b = t / (H * D), h = (t / D) % H, m = t % D;
  float s = init ? init[t] : 0.f;
  for (int c = 0; c < NC; ++c) {
    out[((b * NC + c) * H + h) * D + m] = s;
    s = expf(dA_last[b * sb + h * sh + c * sc]) * s + states[((b * NC + c) * H + h) * D + m];
  }
  final_states[t] = s;
}

// The chunk scan's output: cb [B][NC][G][CS][CS] (C B^T), x, z, out, out_x [B][L][H][P], dt, dA_cs [B][H][NC][CS],
// Cm [B][L][G][N], prev [B][NC][H][P][N] (the state entering each chunk), D [H] (or [H][P] with d_hdim); for
// step t = c CS + i < L: y = exp(dA_cs[i]) sum_n Cm[t][n] prev[p][n]
//   + sum_{j <= i (causal; all j without), c CS + j < L} cb[i][j] exp(min(dA_cs[i] - dA_cs[j], 0)) dt[j] x[c CS + j][p]
//   + D x[t][p]; with z, out_x = y and out = y silu(z).
extern "C" __global__ void ssd_chunk_scan(const float* cb, const float* x, const float* z, const float* dt,
                                          const float* dA_cs, const float* Cm, const float* prev, const float* D,
                                          float* out, float* out_x, int batch, int L, int H, int G, int P, int N,
                                          int CS, int causal, int has_D, int d_hdim, int has_z) {
  int NC = (L + CS - 1) / CS;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= batch * L * H * P) return;
  int p = t % P, h = (t / P) % H, l = (t / (P * H)) % L, b = t / (P * H * L);
  int c = l / CS, i = l % CS, g = h / (H / G);
  const float* DA = dA_cs + ((b * H + h) * NC + c) * CS;
  const float* DT = dt + ((b * H + h) * NC + c) * CS;
  float s = 0.f;
  for (int n = 0; n < N; ++n)
    s += Cm[((b * L + l) * G + g) * N + n] * prev[((((b * NC + c) * H + h) * P + p) * N) + n];
  float acc = expf(DA[i]) * s;
  for (int j = 0; j < CS && c * CS + j < L; ++j) {
    if (causal && j > i) break;
    acc += cb[(((b * NC + c) * G + g) * CS + i) * CS + j] * expf(fminf(DA[i] - DA[j], 0.f)) * DT[j] *
           x[((b * L + c * CS + j) * H + h) * P + p];
  }
  if (has_D) acc += (d_hdim ? D[h * P + p] : D[h]) * x[t];
  if (has_z) {
    out_x[t] = acc;
    acc *= silu(z[t]);
  }
  out[t] = acc;
}

// The whole selective scan, step by step (what the chunked SSD forward computes): x [B][L][H][P], dt [B][L][H],
// Bm, Cm [B][L][G][N], A, dt_bias, D [H], init [B][H][P][N] (0 without), seq [B][L] (packed sequences: the state
// restarts from 0 where seq changes; none without), seq_final [nseq][H][P][N] (each sequence's state at its last
// step, seq numbered 0, 1, ... in order; none without). Per (b, h, p):
//   d_t = clamp(softplus(dt + dt_bias), lo, hi), s_t[n] = exp(d_t A) s_{t-1}[n] + d_t Bm[t][n] x[t][p],
//   y_t = sum_n Cm[t][n] s_t[n] + D x[t][p]; final = s_L.
extern "C" __global__ void ssd_scan_sequential(const float* x, const float* dt, const float* A, const float* Bm,
                                               const float* Cm, const float* dt_bias, const float* D,
                                               const float* init, const int* seq, float* out, float* final_states,
                                               float* seq_final, int batch, int L, int H, int G, int P, int N,
                                               float lo, float hi) {
  int t0 = blockIdx.x * blockDim.x + threadIdx.x;
  if (t0 >= batch * H * P) return;
  int b = t0 / (H * P), h = (t0 / P) % H, p = t0 % P, g = h / (H / G);
  float s[64];
  for (int n = 0; n < N; ++n) s[n] = init ? init[t0 * N + n] : 0.f;
  for (int t = 0; t < L; ++t) {
    if (seq && t > 0 && seq[b * L + t] != seq[b * L + t - 1])
      for (int n = 0; n < N; ++n) s[n] = 0.f;
    float d = fminf(fmaxf(softplus20(dt[(b * L + t) * H + h] + dt_bias[h]), lo), hi);
    float xv = x[((b * L + t) * H + h) * P + p];
    float y = 0.f;
    for (int n = 0; n < N; ++n) {
      s[n] = expf(d * A[h]) * s[n] + d * Bm[((b * L + t) * G + g) * N + n] * xv;
      y += Cm[((b * L + t) * G + g) * N + n] * s[n];
    }
    out[((b * L + t) * H + h) * P + p] = y + D[h] * xv;
    if (seq_final && (t == L - 1 || seq[b * L + t + 1] != seq[b * L + t]))
      for (int n = 0; n < N; ++n) seq_final[((seq[b * L + t] * H + h) * P + p) * N + n] = s[n];
  }
  for (int n = 0; n < N; ++n) final_states[t0 * N + n] = s[n];
}

// ---- Mamba3: the rotary angles' running sum ----
// angle [B][L][H][D], dt [B][H][L], init [B][H][D]: s_t = init + sum_{u <= t} pi tanh(angle[u]) dt[u];
// out[t] = s_t mod 2 pi (x - 2 pi floor(x / 2 pi)), final = s_L mod 2 pi.
extern "C" __global__ void angle_dt_cumsum(const float* angle, const float* dt, const float* init, float* out,
                                           float* final_state, int B, int L, int H, int D) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= B * H * D) return;
  int b = i / (H * D), h = (i / D) % H, d = i % D;
  const float pi = 3.14159265358979f, two_pi = 6.28318530717959f;
  float s = init[i];
  for (int t = 0; t < L; ++t) {
    s += tanhf(angle[((b * L + t) * H + h) * D + d]) * pi * dt[(b * H + h) * L + t];
    out[((b * L + t) * H + h) * D + d] = s - two_pi * floorf(s / two_pi);
  }
  final_state[i] = s - two_pi * floorf(s / two_pi);
}

// ---- Mamba3: the SISO decode step ----
// Q, K [B][Hqk][QK], V, Z [B][H][P], ADT, DT, Trap [B][H], Qb, Kb [H][QK], Ang [B][H][NA], D [H], the input states
// AS [B][H][NA], S [B][H][P][QK], Kp [B][H][QK], Vp [B][H][P]. Per (b, h), with q = Q + Qb, k = K + Kb:
//   a_i = (AS_i + pi tanh(Ang_i) DT) mod 2 pi for i < NA, 0 for NA <= i < QK / 2 (new angle state: a_i, i < NA);
//   q, k rotated pairwise ((2i, 2i+1) by a_i) -> qr, kr (new K state: kr);
//   alpha = exp(ADT), tr = sigmoid(Trap), S' = alpha S + alpha DT (1 - tr) Vp Kp^T + tr DT V kr^T (new SSM state);
//   y = bf16(S') bf16(qr) (the kernel's dot takes both rounded to bf16, f32 accumulation) + D V, times silu(Z).
extern "C" __global__ void mamba3_step(const float* Q, const float* K, const float* V, const float* ADT,
                                       const float* DT, const float* Trap, const float* Qb, const float* Kb,
                                       const float* Ang, const float* D, const float* Z, const float* AS,
                                       const float* S, const float* Kp, const float* Vp, float* out, float* AS_out,
                                       float* S_out, float* K_out, int B, int H, int Hqk, int QK, int P, int NA) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= B * H) return;
  int b = t / H, h = t % H, hq = h / (H / Hqk);
  const float pi = 3.14159265358979f, two_pi = 6.28318530717959f;
  float dt = DT[t];
  float qr[64], kr[64];
  for (int i = 0; i < QK / 2; ++i) {
    float a = 0.f;
    if (i < NA) {
      a = AS[t * NA + i] + tanhf(Ang[t * NA + i]) * pi * dt;
      a = a - two_pi * floorf(a / two_pi);
      AS_out[t * NA + i] = a;
    }
    float c = cosf(a), s = sinf(a);
    float q0 = Q[(b * Hqk + hq) * QK + 2 * i] + Qb[h * QK + 2 * i];
    float q1 = Q[(b * Hqk + hq) * QK + 2 * i + 1] + Qb[h * QK + 2 * i + 1];
    float k0 = K[(b * Hqk + hq) * QK + 2 * i] + Kb[h * QK + 2 * i];
    float k1 = K[(b * Hqk + hq) * QK + 2 * i + 1] + Kb[h * QK + 2 * i + 1];
    qr[2 * i] = q0 * c - q1 * s;
    qr[2 * i + 1] = q0 * s + q1 * c;
    kr[2 * i] = k0 * c - k1 * s;
    kr[2 * i + 1] = k0 * s + k1 * c;
  }
  for (int j = 0; j < QK; ++j) K_out[t * QK + j] = kr[j];
  float alpha = expf(ADT[t]), tr = sigmoid(Trap[t]);
  for (int p = 0; p < P; ++p) {
    float acc = 0.f;
    for (int j = 0; j < QK; ++j) {
      float v = S[(t * P + p) * QK + j] * alpha + alpha * dt * (1.f - tr) * Vp[t * P + p] * Kp[t * QK + j] +
                tr * dt * V[t * P + p] * kr[j];
      S_out[(t * P + p) * QK + j] = v;
      acc += __bfloat162float(__float2bfloat16(v)) * __bfloat162float(__float2bfloat16(qr[j]));
    }
    out[t * P + p] = (acc + D[h] * V[t * P + p]) * silu(Z[t * P + p]);
  }
}
