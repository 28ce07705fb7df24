// Naive references for axolotl's Triton kernels: ReLU^2, SwiGLU and GeGLU (forward and backward), the gated RMSNorm
// (forward and backward), DoRA's weight-norm scale, Gemma 4's RMSNorm + partial RoPE (forward and backward, and the
// unscaled RMSNorm), GLM-4.7-Flash's MLA Q/K/V assembly with partial RoPE (forward, backward, shared-key backward),
// EBFT's log-softmax gather, masked REINFORCE partial sums, cosine similarity and pairwise diversity, and the SinkGD
// optimizer's Sinkhorn step, power-iteration matvecs and update.
// One thread per element, row or output cell, textbook formulas, f32 accumulation.
#include <cuda_bf16.h>
#include <math.h>

__device__ float sigmoid(float v) { return 1.f / (1.f + expf(-v)); }
__device__ float silu(float v) { return v * sigmoid(v); }
// d/dv silu(v) = sigmoid(v) + v sigmoid(v) (1 - sigmoid(v))
__device__ float silu_grad(float v) { return sigmoid(v) + v * sigmoid(v) * (1.f - sigmoid(v)); }
// GELU with the exact erf: Phi(v) = (1 + erf(v / sqrt 2)) / 2, gelu(v) = v Phi(v), gelu'(v) = Phi(v) + v phi(v)
__device__ float normal_cdf(float v) { return 0.5f * (1.f + erff(v / sqrtf(2.f))); }
__device__ float normal_pdf(float v) { return expf(-0.5f * v * v) / sqrtf(2.f * 3.14159265358979f); }

// One Sinkhorn step on an HC x HC matrix: out = in with each column (cols) or row divided by its sum plus eps;
// the divisors left in sums (out may be in).
__device__ void sinkhorn_step(const float* in, float* out, float* sums, int HC, bool cols, float eps) {
  for (int a = 0; a < HC; ++a) {
    float s = 0.f;
    for (int b = 0; b < HC; ++b) s += cols ? in[b * HC + a] : in[a * HC + b];
    sums[a] = s + eps;
  }
  for (int i = 0; i < HC; ++i)
    for (int k = 0; k < HC; ++k) out[i * HC + k] = in[i * HC + k] / sums[cols ? k : i];
}

// ---- ReLU^2: out = max(x, 0)^2; backward: out = g * 2 max(x, 0) ----
extern "C" __global__ void relu2_fwd(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float p = x[i] > 0.f ? x[i] : 0.f;
  out[i] = p * p;
}
extern "C" __global__ void relu2_bwd(const float* g, const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float p = x[i] > 0.f ? x[i] : 0.f;
  out[i] = g[i] * (2.f * p);
}

// ---- SwiGLU: out = silu(gate) up ----
extern "C" __global__ void swiglu_fwd(const float* gate, const float* up, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = silu(gate[i]) * up[i];
}
// bf16 tensors: silu(gate) is rounded to bf16 before the product (as torch computes act(gate).to(bf16) * up)
extern "C" __global__ void swiglu_fwd_bf16(const __nv_bfloat16* gate, const __nv_bfloat16* up, __nv_bfloat16* out,
                                           int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = __bfloat162float(__float2bfloat16(silu(__bfloat162float(gate[i]))));
  out[i] = __float2bfloat16(a * __bfloat162float(up[i]));
}
// Backward in place: go <- h = silu(gate) up, gate <- d h / d gate * go = go up silu'(gate), up <- go silu(gate)
extern "C" __global__ void swiglu_bwd(float* go, float* gate, float* up, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float g = gate[i], u = up[i], d = go[i];
  go[i] = silu(g) * u;
  gate[i] = d * u * silu_grad(g);
  up[i] = d * silu(g);
}

// ---- GeGLU (exact erf GELU): out = gelu(gate) up; backward in place as SwiGLU's ----
extern "C" __global__ void geglu_fwd(const float* gate, const float* up, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = gate[i] * normal_cdf(gate[i]) * up[i];
}
extern "C" __global__ void geglu_bwd(float* go, float* gate, float* up, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float g = gate[i], u = up[i], d = go[i];
  float gelu = g * normal_cdf(g);
  go[i] = gelu * u;
  gate[i] = d * u * (normal_cdf(g) + g * normal_pdf(g));
  up[i] = d * gelu;
}

// ---- Gated RMSNorm: y = (w + offset) x rstd silu(z), rstd = 1 / sqrt(mean(x^2) + eps); x, z, y [M][N] ----
extern "C" __global__ void rms_norm_gated_fwd(const float* x, const float* z, const float* w, float* y, float* rstd_out,
                                              int M, int N, float eps, float offset) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M) return;
  float ss = 0.f;
  for (int j = 0; j < N; ++j) ss += x[r * N + j] * x[r * N + j];
  float rstd = 1.f / sqrtf(ss / N + eps);
  rstd_out[r] = rstd;
  for (int j = 0; j < N; ++j) y[r * N + j] = (w[j] + offset) * (x[r * N + j] * rstd) * silu(z[r * N + j]);
}
// Backward given the saved rstd, one thread per program p of P (rows [p rpp, min((p + 1) rpp, M))): with
// w' = w + offset, xhat = x rstd, m = dy w' silu(z):
//   dz = dy w' xhat silu'(z), dx = rstd m - rstd^3 / N x sum_k(m_k x_k), dw[p][j] = sum over its rows dy xhat silu(z).
extern "C" __global__ void rms_norm_gated_bwd(const float* dy, const float* x, const float* z, const float* w,
                                              const float* rstd, float* dx, float* dz, float* dw, int M, int N,
                                              float offset, int P, int rpp) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= P) return;
  for (int j = 0; j < N; ++j) dw[p * N + j] = 0.f;
  int end = (p + 1) * rpp < M ? (p + 1) * rpp : M;
  for (int r = p * rpp; r < end; ++r) {
    float rs = rstd[r], dot = 0.f;
    for (int k = 0; k < N; ++k) dot += dy[r * N + k] * (w[k] + offset) * silu(z[r * N + k]) * x[r * N + k];
    for (int j = 0; j < N; ++j) {
      float wj = w[j] + offset, xv = x[r * N + j], zv = z[r * N + j], d = dy[r * N + j];
      dz[r * N + j] = d * wj * (xv * rs) * silu_grad(zv);
      dx[r * N + j] = rs * d * wj * silu(zv) - rs * rs * rs / N * xv * dot;
      dw[p * N + j] += d * (xv * rs) * silu(zv);
    }
  }
}

// ---- DoRA: scale[i] = mag[i] / sqrt(||W[i, :] + s (B A)[i, :]||^2 + 1e-12); W [O][I], B [O][R], A [R][I] ----
extern "C" __global__ void dora_scale(const float* W, const float* B, const float* A, const float* mag, float* out,
                                      int O, int I, int R, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= O) return;
  float ss = 0.f;
  for (int j = 0; j < I; ++j) {
    float ba = 0.f;
    for (int r = 0; r < R; ++r) ba += B[i * R + r] * A[r * I + j];
    float c = W[i * I + j] + s * ba;
    ss += c * c;
  }
  out[i] = mag[i] / sqrtf(ss + 1e-12f);
}

// ---- Gemma 4: RMSNorm (weight w, or 1 + w with unit_offset) then rotate-half RoPE on the first R columns ----
// x, y [rows][N], row = token H + head; cos, sin [tokens][R]; n = x rstd w', y[c] = n[c] cos[c] + rot(n)[c] sin[c]
// for c < R with rot(n)[c] = -n[c + R/2] (c < R/2), n[c - R/2] (c >= R/2); y[c] = n[c] for c >= R.
extern "C" __global__ void norm_rope_fwd(const float* x, const float* w, const float* cosv, const float* sinv, float* y,
                                         float* rstd_out, int rows, int N, int R, int H, float eps, int has_w,
                                         int unit_offset) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* X = x + r * N;
  int t = r / H, h = R / 2;
  float ss = 0.f;
  for (int j = 0; j < N; ++j) ss += X[j] * X[j];
  float rstd = 1.f / sqrtf(ss / N + eps);
  rstd_out[r] = rstd;
  for (int c = 0; c < N; ++c) {
    float wc = has_w ? (unit_offset ? w[c] + 1.f : w[c]) : 1.f;
    float n = X[c] * rstd * wc;
    if (c >= R) {
      y[r * N + c] = n;
      continue;
    }
    int o = c < h ? c + h : c - h;
    float wo = has_w ? (unit_offset ? w[o] + 1.f : w[o]) : 1.f;
    float rot = c < h ? -(X[o] * rstd * wo) : X[o] * rstd * wo;
    y[r * N + c] = n * cosv[t * R + c] + rot * sinv[t * R + c];
  }
}
// Backward given the saved rstd, one thread per program p of P (rows [p rpp, min((p + 1) rpp, M))): the RoPE adjoint
// dn[c] = dy[c] cos[c] + (c < R/2: dy[c + R/2] sin[c + R/2]; R/2 <= c < R: -dy[c - R/2] sin[c - R/2]); dn = dy past R;
// dm = dn w', dx = rstd dm - rstd^3 / N x sum(dm x), dw[p][c] = sum over its rows dn x rstd.
extern "C" __global__ void norm_rope_bwd(const float* dy, const float* x, const float* w, const float* cosv,
                                         const float* sinv, const float* rstd, float* dx, float* dw, int M, int N,
                                         int R, int H, int unit_offset, int P, int rpp) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= P) return;
  int h = R / 2;
  for (int c = 0; c < N; ++c) dw[p * N + c] = 0.f;
  int end = (p + 1) * rpp < M ? (p + 1) * rpp : M;
  for (int r = p * rpp; r < end; ++r) {
    int t = r / H;
    float rs = rstd[r];
    const float* D = dy + r * N;
    const float* X = x + r * N;
    float dot = 0.f;
    for (int c = 0; c < N; ++c) {
      float dn = D[c];
      if (c < h) dn = D[c] * cosv[t * R + c] + D[c + h] * sinv[t * R + c + h];
      else if (c < R) dn = D[c] * cosv[t * R + c] - D[c - h] * sinv[t * R + c - h];
      dot += dn * (unit_offset ? w[c] + 1.f : w[c]) * X[c];
    }
    for (int c = 0; c < N; ++c) {
      float dn = D[c];
      if (c < h) dn = D[c] * cosv[t * R + c] + D[c + h] * sinv[t * R + c + h];
      else if (c < R) dn = D[c] * cosv[t * R + c] - D[c - h] * sinv[t * R + c - h];
      float dm = dn * (unit_offset ? w[c] + 1.f : w[c]);
      dx[r * N + c] = rs * dm - rs * rs * rs / N * X[c] * dot;
      dw[p * N + c] += dn * X[c] * rs;
    }
  }
}
// RMSNorm without a weight: y = x rstd; backward dx = rstd dy - rstd^3 / N x sum(dy x) (saved rstd)
extern "C" __global__ void rms_noscale_fwd(const float* x, float* y, float* rstd_out, int M, int N, float eps) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M) return;
  float ss = 0.f;
  for (int j = 0; j < N; ++j) ss += x[r * N + j] * x[r * N + j];
  float rstd = 1.f / sqrtf(ss / N + eps);
  rstd_out[r] = rstd;
  for (int j = 0; j < N; ++j) y[r * N + j] = x[r * N + j] * rstd;
}
extern "C" __global__ void rms_noscale_bwd(const float* dy, const float* x, const float* rstd, float* dx, int M,
                                           int N) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M) return;
  float dot = 0.f, rs = rstd[r];
  for (int j = 0; j < N; ++j) dot += dy[r * N + j] * x[r * N + j];
  for (int j = 0; j < N; ++j) dx[r * N + j] = rs * dy[r * N + j] - rs * rs * rs / N * x[r * N + j] * dot;
}

// ---- GLM-4.7-Flash MLA assembly: q [T][H][P + R], kv [T][H][P + V], k_rot [T][R] (row stride ks), cos, sin [T][R] ----
// oq = [q_nope, rope(q_rot)], ok = [k_nope (kv's first P), rope(k_rot) shared over heads], ov = kv's last V.
// rope over R = 2 h columns: with the input's pairs (x_i, x_{i+h}) (halves) or (x_{2i}, x_{2i+1}) (interleaved, which
// HF's apply_rotary_pos_emb_interleave regroups into halves first), out_i = a c - b s, out_{i+h} = b c' + a s', where
// halves read c, s at i and c', s' at i + h, and interleaved read the pair's frequency at i for both (HF builds
// cos = cat(freqs, freqs), so its first half holds each frequency once).
__device__ void rope_out(const float* x, const float* cosv, const float* sinv, int R, int inter, float* out) {
  int h = R / 2;
  for (int i = 0; i < h; ++i) {
    float a = inter ? x[2 * i] : x[i], b = inter ? x[2 * i + 1] : x[i + h];
    float c0 = cosv[i], s0 = sinv[i];
    float c1 = inter ? cosv[i] : cosv[i + h], s1 = inter ? sinv[i] : sinv[i + h];
    out[i] = a * c0 - b * s0;
    out[i + h] = b * c1 + a * s1;
  }
}
// The adjoint: gradient of the rope input given the gradient g of its output.
__device__ void rope_adjoint(const float* g, const float* cosv, const float* sinv, int R, int inter, float* dx) {
  int h = R / 2;
  for (int i = 0; i < h; ++i) {
    float c0 = cosv[i], s0 = sinv[i];
    float c1 = inter ? cosv[i] : cosv[i + h], s1 = inter ? sinv[i] : sinv[i + h];
    float da = g[i] * c0 + g[i + h] * s1;   // d/da of (a c0 - b s0, b c1 + a s1)
    float db = -g[i] * s0 + g[i + h] * c1;  // d/db
    if (inter) {
      dx[2 * i] = da;
      dx[2 * i + 1] = db;
    } else {
      dx[i] = da;
      dx[i + h] = db;
    }
  }
}
extern "C" __global__ void mla_prepare_fwd(const float* q, const float* kv, const float* kr, const float* cosv,
                                           const float* sinv, float* oq, float* ok, float* ov, int T, int H, int P,
                                           int R, int V, int ks, int inter) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= T * H) return;
  int t = row / H, D = P + R;
  for (int j = 0; j < P; ++j) {
    oq[row * D + j] = q[row * D + j];
    ok[row * D + j] = kv[row * (P + V) + j];
  }
  for (int j = 0; j < V; ++j) ov[row * V + j] = kv[row * (P + V) + P + j];
  rope_out(q + row * D + P, cosv + t * R, sinv + t * R, R, inter, oq + row * D + P);
  rope_out(kr + t * ks, cosv + t * R, sinv + t * R, R, inter, ok + row * D + P);
}
// Backward: iq = [dq_nope, rope^T(dq_rot)], ikv = [dk_nope, dv], ikr[t] = rope^T(sum over heads of dk_rot[t][h]).
extern "C" __global__ void mla_prepare_bwd(const float* dq, const float* dk, const float* dv, const float* cosv,
                                           const float* sinv, float* iq, float* ikv, int T, int H, int P, int R, int V,
                                           int inter) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= T * H) return;
  int t = row / H, D = P + R;
  for (int j = 0; j < P; ++j) {
    iq[row * D + j] = dq[row * D + j];
    ikv[row * (P + V) + j] = dk[row * D + j];
  }
  for (int j = 0; j < V; ++j) ikv[row * (P + V) + P + j] = dv[row * V + j];
  rope_adjoint(dq + row * D + P, cosv + t * R, sinv + t * R, R, inter, iq + row * D + P);
}
extern "C" __global__ void mla_shared_key_bwd(const float* dk, const float* cosv, const float* sinv, float* ikr, int T,
                                              int H, int P, int R, int inter) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= T) return;
  float g[64];
  for (int c = 0; c < R; ++c) {
    float s = 0.f;
    for (int h = 0; h < H; ++h) s += dk[(t * H + h) * (P + R) + P + c];
    g[c] = s;
  }
  rope_adjoint(g, cosv + t * R, sinv + t * R, R, inter, ikr + t * R);
}

// ---- EBFT ----
// log_softmax(x[r])[label[r]] = x[r][label] - log(sum_j exp(x[r][j])); x [M][V]
extern "C" __global__ void log_softmax_gather(const float* x, const long long* label, float* out, int M, int V) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M) return;
  float s = 0.f;
  for (int j = 0; j < V; ++j) s += expf(x[r * V + j]);
  out[r] = x[r * V + label[r]] - logf(s);
}
// Per block b of B elements: sum = sum of -logp adv mask, cnt = sum of mask (mask a bool tensor read as 0 / 1, the
// host's (-logp * adv * mask).sum() and mask.sum())
extern "C" __global__ void reinforce_partials(const float* logp, const float* adv, const bool* mask, float* psum,
                                              float* pcnt, int n, int B) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b * B >= n) return;
  float s = 0.f, c = 0.f;
  for (int i = b * B; i < n && i < (b + 1) * B; ++i) {
    float m = mask[i] ? 1.f : 0.f;
    s += -logp[i] * adv[i] * m;
    c += m;
  }
  psum[b] = s;
  pcnt[b] = c;
}
// cos(a, b) = a.b / max(|a| |b|, 1e-8) per row of D
extern "C" __global__ void cosine_sim(const float* a, const float* b, float* out, int M, int D) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M) return;
  float ab = 0.f, aa = 0.f, bb = 0.f;
  for (int j = 0; j < D; ++j) {
    ab += a[r * D + j] * b[r * D + j];
    aa += a[r * D + j] * a[r * D + j];
    bb += b[r * D + j] * b[r * D + j];
  }
  float den = sqrtf(aa) * sqrtf(bb);
  out[r] = ab / fmaxf(den, 1e-8f);
}
// out[b][i] = mean over j != i of e[b][i] . e[b][j]; e [B][N][D]
extern "C" __global__ void diversity(const float* e, float* out, int B, int N, int D) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= B * N) return;
  int b = t / N, i = t % N;
  float total = 0.f;
  for (int j = 0; j < N; ++j) {
    if (j == i) continue;
    float d = 0.f;
    for (int k = 0; k < D; ++k) d += e[(b * N + i) * D + k] * e[(b * N + j) * D + k];
    total += d;
  }
  out[t] = total / (N - 1);
}

// ---- SinkGD (x [B][M][N], colsq [B][N]): the column scale cs_j = sqrt(M) / max(sqrt(colsq_j), eps) ----
// One Sinkhorn iteration: v = x cs, rs_i = sqrt(N) / max(|v_i|, eps), out = v rs; colsq_out_j += sum_i out_ij^2;
// rowsq (if given) += sum_j v_ij^2. One thread per (matrix, row) for out, then one per (matrix, column) for colsq_out.
__device__ float col_scale(const float* colsq, int j, float sqrt_m, float eps) {
  return sqrt_m / fmaxf(sqrtf(colsq[j]), eps);
}
extern "C" __global__ void sinkhorn_iter(const float* x, float* out, const float* colsq_in, float* colsq_out,
                                         float* rowsq, int B, int M, int N, float sqrt_n, float sqrt_m, float eps) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < B * M) {
    int b = t / M;
    float ss = 0.f;
    for (int j = 0; j < N; ++j) {
      float v = x[t * N + j] * col_scale(colsq_in + b * N, j, sqrt_m, eps);
      ss += v * v;
    }
    if (rowsq) rowsq[t] += ss;
    float rs = sqrt_n / fmaxf(sqrtf(ss), eps);
    for (int j = 0; j < N; ++j) out[t * N + j] = x[t * N + j] * col_scale(colsq_in + b * N, j, sqrt_m, eps) * rs;
  }
  if (t < B * N) {
    int b = t / N, j = t % N;
    float cs = col_scale(colsq_in + b * N, j, sqrt_m, eps), acc = 0.f;
    for (int i = 0; i < M; ++i) {
      float ss = 0.f;
      for (int k = 0; k < N; ++k) {
        float v = x[(b * M + i) * N + k] * col_scale(colsq_in + b * N, k, sqrt_m, eps);
        ss += v * v;
      }
      float o = x[(b * M + i) * N + j] * cs * (sqrt_n / fmaxf(sqrtf(ss), eps));
      acc += o * o;
    }
    colsq_out[t] += acc;
  }
}
// Power iteration: v_i = sum_j x_ij cs_j u_j (one thread per (matrix, row)); with partials, sums[b] += (sum p^2,
// sum p . x cs, sum (x cs)^2) over the matrix (thread 0 of each matrix).
extern "C" __global__ void sinkgd_matvec1(const float* x, const float* colsq, const float* p, const float* u, float* v,
                                          float* sums, int B, int M, int N, float sqrt_m, float eps, int partials) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < B * M) {
    int b = t / M;
    float acc = 0.f;
    for (int j = 0; j < N; ++j) acc += x[t * N + j] * col_scale(colsq + b * N, j, sqrt_m, eps) * u[b * N + j];
    v[t] = acc;
  }
  if (partials && t < B) {
    float s0 = 0.f, s1 = 0.f, s2 = 0.f;
    for (int k = 0; k < M * N; ++k) {
      float xs = x[t * M * N + k] * col_scale(colsq + t * N, k % N, sqrt_m, eps), pv = p[t * M * N + k];
      s0 += pv * pv;
      s1 += pv * xs;
      s2 += xs * xs;
    }
    sums[t * 3 + 0] += s0;
    sums[t * 3 + 1] += s1;
    sums[t * 3 + 2] += s2;
  }
}
// uu_j += sum_i x_ij cs_j v_i (one thread per (matrix, column))
extern "C" __global__ void sinkgd_matvec2(const float* x, const float* colsq, const float* v, float* uu, int B, int M,
                                          int N, float sqrt_m, float eps) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= B * N) return;
  int b = t / N, j = t % N;
  float acc = 0.f;
  for (int i = 0; i < M; ++i) acc += x[(b * M + i) * N + j] * col_scale(colsq + b * N, j, sqrt_m, eps) * v[b * M + i];
  uu[t] += acc;
}
// The update: p = (p decay - a[b] x cs) scale2[b] (one thread per element)
extern "C" __global__ void sinkgd_apply(float* p, const float* x, const float* colsq, const float* a,
                                        const float* scale2, int B, int M, int N, float decay, float sqrt_m, float eps) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= B * M * N) return;
  int b = t / (M * N), j = t % N;
  p[t] = (p[t] * decay - a[b] * (x[t] * col_scale(colsq + b * N, j, sqrt_m, eps))) * scale2[b];
}

// ---- DeepSeek-V4 (integrations/kernels/libs/dsv4) ----
// Interleaved partial RoPE: x, out [B][H][S][D] (rows (b, h, s)), the last 2 Rh channels rotated in adjacent pairs,
// out[n + 2i] = x[n + 2i] c_i - x[n + 2i + 1] s_i, out[n + 2i + 1] = x[n + 2i + 1] c_i + x[n + 2i] s_i (n = D - 2 Rh),
// the first n channels copied; cos, sin [B][S][Rh] read through strides (cb, cs, ci).
extern "C" __global__ void dsv4_rope(const float* x, const float* cosv, const float* sinv, float* out, int B, int H,
                                     int S, int D, int Rh, int cb, int cs, int ci) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= B * H * S) return;
  int b = row / (H * S), s = row % S, n = D - 2 * Rh;
  for (int j = 0; j < n; ++j) out[row * D + j] = x[row * D + j];
  for (int i = 0; i < Rh; ++i) {
    float c = cosv[b * cb + s * cs + i * ci], sn = sinv[b * cb + s * cs + i * ci];
    float e = x[row * D + n + 2 * i], o = x[row * D + n + 2 * i + 1];
    out[row * D + n + 2 * i] = e * c - o * sn;
    out[row * D + n + 2 * i + 1] = o * c + e * sn;
  }
}
// Gated softmax pooling over a window: kv, gate [M][W][D]; p[w] = exp(gate[w]) / sum_v exp(gate[v]) per (m, d),
// out[m][d] = sum_w p[w] kv[w]; backward dkv = p dout, dgate = p dout (kv - out).
__device__ float pool_p(const float* g, int m, int w, int d, int W, int D) {
  float s = 0.f;
  for (int v = 0; v < W; ++v) s += expf(g[(m * W + v) * D + d]);
  return expf(g[(m * W + w) * D + d]) / s;
}
extern "C" __global__ void gated_pool_fwd(const float* kv, const float* g, float* out, int M, int W, int D) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= M * D) return;
  int m = t / D, d = t % D;
  float acc = 0.f;
  for (int w = 0; w < W; ++w) acc += pool_p(g, m, w, d, W, D) * kv[(m * W + w) * D + d];
  out[t] = acc;
}
extern "C" __global__ void gated_pool_bwd(const float* kv, const float* g, const float* dout, float* dkv, float* dg,
                                          int M, int W, int D) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= M * D) return;
  int m = t / D, d = t % D;
  float o = 0.f;
  for (int w = 0; w < W; ++w) o += pool_p(g, m, w, d, W, D) * kv[(m * W + w) * D + d];
  for (int w = 0; w < W; ++w) {
    int i = (m * W + w) * D + d;
    float p = pool_p(g, m, w, d, W, D);
    dkv[i] = p * dout[t];
    dg[i] = p * dout[t] * (kv[i] - o);
  }
}
// Clamped SwiGLU (V4's shared expert): out = silu(min(gate, L)) clamp(up, -L, L); backward in place (h, d gate,
// d up), the clamps' derivatives 1 where the clamp is inactive (gate < L; -L < up < L) and 0 where it clamps.
extern "C" __global__ void clamped_swiglu_fwd(const float* gate, const float* up, float* out, int n, float L) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float g = fminf(gate[i], L), u = fminf(fmaxf(up[i], -L), L);
  out[i] = silu(g) * u;
}
extern "C" __global__ void clamped_swiglu_bwd(float* go, float* gate, float* up, int n, float L) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float g0 = gate[i], u0 = up[i], d = go[i];
  float g = fminf(g0, L), u = fminf(fmaxf(u0, -L), L);
  go[i] = silu(g) * u;
  gate[i] = g0 < L ? d * u * silu_grad(g) : 0.f;
  up[i] = (u0 > -L && u0 < L) ? d * silu(g) : 0.f;
}
// mHC mixer per row m (mix [M][HC (2 + HC)], scale [3], base [HC (2 + HC)]): pre = sigmoid(mix_j s0 + base_j) + eps,
// post = pm sigmoid(mix_{HC+j} s1 + base_{HC+j}), comb = softmax over each row of the HC x HC logits
// mix s2 + base, plus eps; then a column normalization (each entry / (its column's sum + eps)), then (iters - 1) x
// [row normalization, column normalization]. states[m][t] = the input of the t-th normalization.
extern "C" __global__ void mhc_fwd(const float* mix, const float* scale, const float* base, float* pre, float* post,
                                   float* comb, float* states, int M, int HC, int iters, float eps, float pm) {
  int m = blockIdx.x * blockDim.x + threadIdx.x;
  if (m >= M) return;
  int MN = HC * (2 + HC), NS = 1 + 2 * (iters - 1);
  const float* x = mix + m * MN;
  for (int j = 0; j < HC; ++j) {
    pre[m * HC + j] = sigmoid(x[j] * scale[0] + base[j]) + eps;
    post[m * HC + j] = pm * sigmoid(x[HC + j] * scale[1] + base[HC + j]);
  }
  float c[64];
  for (int i = 0; i < HC; ++i) {
    float s = 0.f;
    for (int k = 0; k < HC; ++k) s += expf(x[2 * HC + i * HC + k] * scale[2] + base[2 * HC + i * HC + k]);
    for (int k = 0; k < HC; ++k) c[i * HC + k] = expf(x[2 * HC + i * HC + k] * scale[2] + base[2 * HC + i * HC + k]) / s + eps;
  }
  for (int t = 0; t < NS; ++t) {
    for (int q = 0; q < HC * HC; ++q) states[(m * NS + t) * HC * HC + q] = c[q];
    bool cols = t % 2 == 0;  // column normalizations at even steps, row normalizations at odd ones
    float sums[8];
    sinkhorn_step(c, c, sums, HC, cols, eps);
  }
  for (int q = 0; q < HC * HC; ++q) comb[m * HC * HC + q] = c[q];
}
// RMSNorm + linear: x [M][K], fn [N][K]: g = x fn^T, r = 1 / sqrt(mean(x^2) + eps), mixes = r g (one thread per row)
extern "C" __global__ void rmsln_fwd(const float* x, const float* fn, float* mixes, float* r_out, float* g, int M,
                                     int K, int N, float eps) {
  int m = blockIdx.x * blockDim.x + threadIdx.x;
  if (m >= M) return;
  float ss = 0.f;
  for (int k = 0; k < K; ++k) ss += x[m * K + k] * x[m * K + k];
  float r = 1.f / sqrtf(ss / K + eps);
  r_out[m] = r;
  for (int n = 0; n < N; ++n) {
    float acc = 0.f;
    for (int k = 0; k < K; ++k) acc += x[m * K + k] * fn[n * K + k];
    g[m * N + n] = acc;
    mixes[m * N + n] = r * acc;
  }
}
// Backward from the saved r and g: mixes = r (x fn^T) with r = (mean x^2 + eps)^(-1/2), so
// dx[m][k] = r sum_n dmix fn[n][k] - x[m][k] r^3 / K sum_n dmix g; dfn[n][k] += sum_m r dmix[m][n] x[m][k].
// Threads: one per row m for dx, then one per fn row n for dfn.
extern "C" __global__ void rmsln_bwd(const float* x, const float* fn, const float* r, const float* g,
                                     const float* dmix, float* dx, float* dfn, int M, int K, int N) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < M) {
    float c = 0.f;
    for (int n = 0; n < N; ++n) c += dmix[t * N + n] * g[t * N + n];
    for (int k = 0; k < K; ++k) {
      float a = 0.f;
      for (int n = 0; n < N; ++n) a += dmix[t * N + n] * fn[n * K + k];
      dx[t * K + k] = r[t] * a - x[t * K + k] * (r[t] * r[t] * r[t] / K) * c;
    }
  }
  if (t < N) {
    for (int k = 0; k < K; ++k) {
      float a = 0.f;
      for (int m = 0; m < M; ++m) a += r[m] * dmix[m * N + t] * x[m * K + k];
      dfn[t * K + k] += a;
    }
  }
}
// Collapse: out[m][d] = sum_h pre[m][h] s[m][h][d]; backward ds = pre g, dpre[m][h] += sum_d g s
extern "C" __global__ void collapse_fwd(const float* pre, const float* s, float* out, int M, int HC, int D) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= M * D) return;
  int m = t / D, d = t % D;
  float acc = 0.f;
  for (int h = 0; h < HC; ++h) acc += pre[m * HC + h] * s[(m * HC + h) * D + d];
  out[t] = acc;
}
extern "C" __global__ void collapse_bwd(const float* pre, const float* s, const float* g, float* dpre, float* ds,
                                        int M, int HC, int D) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= M * HC) return;
  int m = t / HC;
  float acc = 0.f;
  for (int d = 0; d < D; ++d) {
    ds[t * D + d] = pre[t] * g[m * D + d];
    acc += g[m * D + d] * s[t * D + d];
  }
  dpre[t] += acc;
}

// ---- Flash attention for large heads (monkeypatch/attention/flash_attn_d512.py) ----
// q, k, v, o, do [B][H][N][D] contiguous; pos [B][N] the position ids (varlen: packed documents, each starting where
// its position id is 0; a query attends only to keys of its own document); causal: keys n <= m.
// s = scale q.k; o = sum_n softmax(s)_n v_n, L = log sum_n exp(s_n).
__device__ bool attends(const int* pos, int b, int N, int m, int n, int causal, int varlen) {
  if (causal && n > m) return false;
  if (varlen) {
    if (n < m - pos[b * N + m]) return false;           // before the query's document
    for (int j = m + 1; j <= n; ++j)                     // a document starts between the query and the key
      if (pos[b * N + j] == 0) return false;
  }
  return true;
}
extern "C" __global__ void attn_fwd(const float* q, const float* k, const float* v, float* o, float* L, const int* pos,
                                    int B, int H, int N, int D, float scale, int causal, int varlen) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= B * H * N) return;
  int bh = t / N, m = t % N, b = bh / H;
  const float* Q = q + t * D;
  float den = 0.f;
  for (int n = 0; n < N; ++n) {
    if (!attends(pos, b, N, m, n, causal, varlen)) continue;
    float s = 0.f;
    for (int d = 0; d < D; ++d) s += Q[d] * k[(bh * N + n) * D + d];
    den += expf(scale * s);
  }
  for (int d = 0; d < D; ++d) {
    float acc = 0.f;
    for (int n = 0; n < N; ++n) {
      if (!attends(pos, b, N, m, n, causal, varlen)) continue;
      float s = 0.f;
      for (int e = 0; e < D; ++e) s += Q[e] * k[(bh * N + n) * D + e];
      acc += expf(scale * s) / den * v[(bh * N + n) * D + d];
    }
    o[t * D + d] = acc;
  }
  L[t] = logf(den);
}
// delta[bh][m] = sum_d o do
extern "C" __global__ void attn_bwd_pre(const float* o, const float* dout, float* delta, int BHN, int D) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= BHN) return;
  float s = 0.f;
  for (int d = 0; d < D; ++d) s += o[t * D + d] * dout[t * D + d];
  delta[t] = s;
}
// Backward from the saved L and delta: p_mn = exp(scale q_m.k_n - L_m) where m attends to n, dp_mn = do_m.v_n,
// ds_mn = p_mn (dp_mn - delta_m) scale; dq_m = sum_n ds_mn k_n (one thread per query row), dk_n = sum_m ds_mn q_m,
// dv_n = sum_m p_mn do_m (one thread per key row).
__device__ float attn_p(const float* q, const float* k, const float* L, const int* pos, int bh, int b, int N, int D,
                        int m, int n, float scale, int causal, int varlen) {
  if (!attends(pos, b, N, m, n, causal, varlen)) return 0.f;
  float s = 0.f;
  for (int d = 0; d < D; ++d) s += q[(bh * N + m) * D + d] * k[(bh * N + n) * D + d];
  return expf(scale * s - L[bh * N + m]);
}
__device__ float attn_ds(const float* q, const float* k, const float* v, const float* dout, const float* L,
                         const float* delta, const int* pos, int bh, int b, int N, int D, int m, int n, float scale,
                         int causal, int varlen) {
  float p = attn_p(q, k, L, pos, bh, b, N, D, m, n, scale, causal, varlen);
  float dp = 0.f;
  for (int d = 0; d < D; ++d) dp += dout[(bh * N + m) * D + d] * v[(bh * N + n) * D + d];
  return p * (dp - delta[bh * N + m]) * scale;
}
extern "C" __global__ void attn_bwd_dq(const float* q, const float* k, const float* v, const float* dout,
                                       const float* L, const float* delta, const int* pos, float* dq, int B, int H,
                                       int N, int D, float scale, int causal, int varlen) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= B * H * N) return;
  int bh = t / N, m = t % N, b = bh / H;
  for (int d = 0; d < D; ++d) {
    float acc = 0.f;
    for (int n = 0; n < N; ++n)
      acc += attn_ds(q, k, v, dout, L, delta, pos, bh, b, N, D, m, n, scale, causal, varlen) * k[(bh * N + n) * D + d];
    dq[t * D + d] = acc;
  }
}
extern "C" __global__ void attn_bwd_dkdv(const float* q, const float* k, const float* v, const float* dout,
                                         const float* L, const float* delta, const int* pos, float* dk, float* dv,
                                         int B, int H, int N, int D, float scale, int causal, int varlen) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= B * H * N) return;
  int bh = t / N, n = t % N, b = bh / H;
  for (int d = 0; d < D; ++d) {
    float ak = 0.f, av = 0.f;
    for (int m = 0; m < N; ++m) {
      ak += attn_ds(q, k, v, dout, L, delta, pos, bh, b, N, D, m, n, scale, causal, varlen) * q[(bh * N + m) * D + d];
      av += attn_p(q, k, L, pos, bh, b, N, D, m, n, scale, causal, varlen) * dout[(bh * N + m) * D + d];
    }
    dk[t * D + d] = ak;
    dv[t * D + d] = av;
  }
}

// ---- ScatterMoE (integrations/kernels/libs/scattermoe_lora): each token's k routed rows through their experts ----
// x [T][K], w [E][K][N], b [E][N], expert [T k] (the expert of token r / k's (r % k)-th choice):
// y[r][n] = sum_j x[r / k][j] w[expert[r]][j][n] + b[expert[r]][n] (one thread per output row r)
extern "C" __global__ void moe_expert_gemm(const float* x, const float* w, const float* b, const int* expert, float* y,
                                           int T, int k, int K, int N) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= T * k) return;
  int e = expert[r], t = r / k;
  for (int n = 0; n < N; ++n) {
    float acc = 0.f;
    for (int j = 0; j < K; ++j) acc += x[t * K + j] * w[(e * K + j) * N + n];
    y[r * N + n] = acc + (b ? b[e * N + n] : 0.f);
  }
}

// ---- DeepSeek-V4 sliding-window attention with a per-head sink (dsv4/attention.py) ----
// q, o, do [B][H][S][D], one MQA head k, v [B][KV][D], sinks [H]: query m attends to keys n with n <= m and
// m - n < W; s = scale q.k; the sink is a logit column in the denominator only:
// o = sum_n exp(s_n) v_n / (exp(sink) + sum_n exp(s_n)), L = log(exp(sink) + sum_n exp(s_n)).
__device__ bool in_window(int m, int n, int W) { return n <= m && m - n < W; }
__device__ float qk_dot(const float* q, const float* k, int D) {
  float s = 0.f;
  for (int d = 0; d < D; ++d) s += q[d] * k[d];
  return s;
}
extern "C" __global__ void sink_attn_fwd(const float* q, const float* k, const float* v, const float* sinks, float* o,
                                         float* L, int B, int H, int S, int KV, int D, int W, float scale) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= B * H * S) return;
  int b = t / (H * S), h = (t / S) % H, m = t % S;
  const float* Q = q + t * D;
  float den = expf(sinks[h]);
  for (int n = 0; n < KV; ++n)
    if (in_window(m, n, W)) den += expf(scale * qk_dot(Q, k + (b * KV + n) * D, D));
  for (int d = 0; d < D; ++d) {
    float acc = 0.f;
    for (int n = 0; n < KV; ++n)
      if (in_window(m, n, W)) acc += expf(scale * qk_dot(Q, k + (b * KV + n) * D, D)) * v[(b * KV + n) * D + d];
    o[t * D + d] = acc / den;
  }
  L[t] = logf(den);
}
// Backward from the saved L and delta = rowsum(o do): p_mn = exp(s_mn - L_m) in the window, ds = p (do.v_n - delta)
// scale; dq_m = sum_n ds k_n; dsink_h = -sum over the head's queries exp(sink_h - L_m) delta_m (one thread per
// query row, then one per head); dk_n = sum over heads and queries ds q_m, dv_n = sum p do_m (one thread per key).
__device__ float sink_ds(const float* q, const float* k, const float* v, const float* dout, const float* L,
                         const float* delta, int t, int b, int KV, int D, int n, float scale) {
  float p = expf(scale * qk_dot(q + t * D, k + (b * KV + n) * D, D) - L[t]);
  return p * (qk_dot(dout + t * D, v + (b * KV + n) * D, D) - delta[t]) * scale;
}
extern "C" __global__ void sink_attn_bwd_dq(const float* q, const float* k, const float* v, const float* sinks,
                                            const float* dout, const float* L, const float* delta, float* dq,
                                            float* dsink, int B, int H, int S, int KV, int D, int W, float scale) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < B * H * S) {
    int b = t / (H * S), m = t % S;
    for (int d = 0; d < D; ++d) {
      float acc = 0.f;
      for (int n = 0; n < KV; ++n)
        if (in_window(m, n, W)) acc += sink_ds(q, k, v, dout, L, delta, t, b, KV, D, n, scale) * k[(b * KV + n) * D + d];
      dq[t * D + d] = acc;
    }
  }
  if (t < H) {
    float acc = 0.f;
    for (int b = 0; b < B; ++b)
      for (int m = 0; m < S; ++m) acc += -expf(sinks[t] - L[(b * H + t) * S + m]) * delta[(b * H + t) * S + m];
    dsink[t] += acc;
  }
}
extern "C" __global__ void sink_attn_bwd_dkdv(const float* q, const float* k, const float* v, const float* dout,
                                              const float* L, const float* delta, float* dk, float* dv, int B, int H,
                                              int S, int KV, int D, int W, float scale) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= B * KV) return;
  int b = t / KV, n = t % KV;
  for (int d = 0; d < D; ++d) {
    float ak = 0.f, av = 0.f;
    for (int h = 0; h < H; ++h)
      for (int m = 0; m < S; ++m) {
        if (!in_window(m, n, W)) continue;
        int r = (b * H + h) * S + m;
        float p = expf(scale * qk_dot(q + r * D, k + t * D, D) - L[r]);
        ak += sink_ds(q, k, v, dout, L, delta, r, b, KV, D, n, scale) * q[r * D + d];
        av += p * dout[r * D + d];
      }
    dk[t * D + d] += ak;
    dv[t * D + d] += av;
  }
}
// Expert weight gradients over rows grouped by expert (expert e owns rows [off[e - 1], off[e]), off[-1] = 0):
// dwt[e][n][k] = sum over its rows m of x[m][k] dy[m][n], db[e][n] = sum over its rows dy[m][n] (one thread per
// (expert, n)).
extern "C" __global__ void moe_group_xty(const float* x, const float* dy, const int* off, float* dwt, float* db, int E,
                                         int K, int N) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= E * N) return;
  int e = t / N, n = t % N;
  int lo = e == 0 ? 0 : off[e - 1], hi = off[e];
  for (int k = 0; k < K; ++k) {
    float acc = 0.f;
    for (int m = lo; m < hi; ++m) acc += x[m * K + k] * dy[m * N + n];
    dwt[(e * N + n) * K + k] = acc;
  }
  float b = 0.f;
  for (int m = lo; m < hi; ++m) b += dy[m * N + n];
  db[t] = b;
}
// Grouping: y[r] = a[idx[r] / fan_out] coeff[idx[r]] (one thread per output row)
extern "C" __global__ void moe_group(const float* a, const int* idx, const float* coeff, float* y, int R, int K,
                                     int fan_out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= R) return;
  int s = idx[r];
  for (int k = 0; k < K; ++k) y[r * K + k] = a[(s / fan_out) * K + k] * (coeff ? coeff[s] : 1.f);
}
// mHC mixer backward: the gradient dz of the pre-activations z = mix s + base of row m (z_j for pre, z_{HC+j} for
// post, the HC x HC comb logits), by the chain rule through the forward above: pre = sigmoid(z) + eps,
// post = pm sigmoid(z), comb = normalizations of softmax_rows(z) + eps, each normalization y = x / (sums + eps) with
// d x = (d y - sums over the same axis of d y y) / (sums + eps), the softmax's d z = p (d p - sum_k d p_k p_k).
// Then dmix = dz s (per segment's scale), dbase = sum over rows dz, dscale[seg] = sum over rows and the segment of
// dz mix.
__device__ void mhc_row_dz(const float* mix, const float* scale, const float* base, const float* dpre,
                           const float* dpost, const float* dcomb, int m, int HC, int iters, float eps, float pm,
                           float* dz) {
  int MN = HC * (2 + HC), NS = 1 + 2 * (iters - 1), Q = HC * HC;
  const float* x = mix + m * MN;
  for (int j = 0; j < HC; ++j) {
    float sp = sigmoid(x[j] * scale[0] + base[j]);
    dz[j] = dpre[m * HC + j] * sp * (1.f - sp);
    float so = sigmoid(x[HC + j] * scale[1] + base[HC + j]);
    dz[HC + j] = dpost[m * HC + j] * pm * so * (1.f - so);
  }
  float st[8][64], p[64], c[64];
  for (int i = 0; i < HC; ++i) {
    float s = 0.f;
    for (int k = 0; k < HC; ++k) s += expf(x[2 * HC + i * HC + k] * scale[2] + base[2 * HC + i * HC + k]);
    for (int k = 0; k < HC; ++k) {
      p[i * HC + k] = expf(x[2 * HC + i * HC + k] * scale[2] + base[2 * HC + i * HC + k]) / s;
      c[i * HC + k] = p[i * HC + k] + eps;
    }
  }
  float sums[8];
  for (int t = 0; t < NS; ++t) {  // forward, keeping each normalization's input
    for (int q = 0; q < Q; ++q) st[t][q] = c[q];
    bool cols = t % 2 == 0;
    sinkhorn_step(c, c, sums, HC, cols, eps);
  }
  float g[64];
  for (int q = 0; q < Q; ++q) g[q] = dcomb[m * Q + q];
  for (int t = NS - 1; t >= 0; --t) {  // reverse
    bool cols = t % 2 == 0;
    float y[64], dots[8];
    sinkhorn_step(st[t], y, sums, HC, cols, eps);
    for (int a = 0; a < HC; ++a) {
      float s = 0.f;
      for (int b = 0; b < HC; ++b) s += cols ? g[b * HC + a] * y[b * HC + a] : g[a * HC + b] * y[a * HC + b];
      dots[a] = s;
    }
    for (int i = 0; i < HC; ++i)
      for (int k = 0; k < HC; ++k) {
        int a = cols ? k : i;
        g[i * HC + k] = (g[i * HC + k] - dots[a]) / sums[a];
      }
  }
  for (int i = 0; i < HC; ++i) {
    float s = 0.f;
    for (int k = 0; k < HC; ++k) s += g[i * HC + k] * p[i * HC + k];
    for (int k = 0; k < HC; ++k) dz[2 * HC + i * HC + k] = p[i * HC + k] * (g[i * HC + k] - s);
  }
}
extern "C" __global__ void mhc_bwd(const float* mix, const float* scale, const float* base, const float* dpre,
                                   const float* dpost, const float* dcomb, float* dmix, float* dscale, float* dbase,
                                   int M, int HC, int iters, float eps, float pm) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int MN = HC * (2 + HC);
  float dz[64];
  if (t < M) {
    mhc_row_dz(mix, scale, base, dpre, dpost, dcomb, t, HC, iters, eps, pm, dz);
    for (int q = 0; q < MN; ++q) dmix[t * MN + q] = dz[q] * scale[q < HC ? 0 : (q < 2 * HC ? 1 : 2)];
  }
  if (t < MN) {
    float acc = 0.f;
    for (int m = 0; m < M; ++m) {
      mhc_row_dz(mix, scale, base, dpre, dpost, dcomb, m, HC, iters, eps, pm, dz);
      acc += dz[t];
    }
    dbase[t] += acc;
  }
  if (t < 3) {
    int lo = t == 0 ? 0 : (t == 1 ? HC : 2 * HC), hi = t == 0 ? HC : (t == 1 ? 2 * HC : MN);
    float acc = 0.f;
    for (int m = 0; m < M; ++m) {
      mhc_row_dz(mix, scale, base, dpre, dpost, dcomb, m, HC, iters, eps, pm, dz);
      for (int q = lo; q < hi; ++q) acc += dz[q] * mix[m * MN + q];
    }
    dscale[t] += acc;
  }
}

// ---- GLM DSA lightning indexer: out[b][s][t] = sum_h w[b][s][h] scale relu(q[b][s][h] . k[b][t]) ----
// q [B][S][H][D], k [B][T][D], w [B][S][H]; one thread per (b, s, t)
extern "C" __global__ void indexer_scores(const float* q, const float* k, const float* w, float* out, int B, int S,
                                          int T, int H, int D, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= B * S * T) return;
  int b = i / (S * T), s = (i / T) % S, t = i % T;
  float acc = 0.f;
  for (int h = 0; h < H; ++h) {
    float d = 0.f;
    for (int e = 0; e < D; ++e) d += q[((b * S + s) * H + h) * D + e] * k[(b * T + t) * D + e];
    acc += w[(b * S + s) * H + h] * (scale * fmaxf(d, 0.f));
  }
  out[i] = acc;
}
