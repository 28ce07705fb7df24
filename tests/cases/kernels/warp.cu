// Warp collectives: shfl.sync in down/up/bfly/idx modes, vote.sync (ballot, all, any).
// Rows of 32 elements, one warp per row (blockDim = 32, blockIdx.x = row) unless noted.
#define FULL 0xffffffffu

// Sum of each 32-element row with a shfl.down tree; lane 0 stores.
extern "C" __global__ void row_sum32_shfl_down(const float* x, float* out) {
  int r = blockIdx.x, lane = threadIdx.x;
  float v = x[r * 32 + lane];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(FULL, v, o);
  if (lane == 0) out[r] = v;
}

// Reference: one thread per row.
extern "C" __global__ void row_sum32_seq(const float* x, float* out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int j = 0; j < 32; ++j) s += x[r * 32 + j];
  out[r] = s;
}

// out[i] = x[i] + (value of the next lane). shfl.down by 1: lane 31 has no source lane
// and receives its own value, so out = 2 x there.
extern "C" __global__ void add_next_shfl(const float* x, float* out) {
  int i = blockIdx.x * 32 + threadIdx.x;
  float v = x[i];
  out[i] = v + __shfl_down_sync(FULL, v, 1);
}

// Reference matching the hardware clamp: lane 31 adds itself.
extern "C" __global__ void add_next_clamped(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int j = (i & 31) < 31 ? i + 1 : i;
  out[i] = x[i] + x[j];
}

// A reference that assumes the missing neighbour is 0 (differs in lane 31).
extern "C" __global__ void add_next_zero(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = x[i] + ((i & 31) < 31 ? x[i + 1] : 0.f);
}

// Rows of 8: each group of 8 lanes computes its row maximum with a shfl.bfly (xor)
// all-reduce and every lane stores it. Row = blockIdx.x * 4 + lane / 8.
extern "C" __global__ void row_max8_bfly(const float* x, float* out) {
  int i = blockIdx.x * 32 + threadIdx.x;
  float v = x[i];
  for (int o = 4; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(FULL, v, o));
  out[i] = v;
}

// Bug: the butterfly skips the distance-1 step, so each lane only sees 4 of the 8.
extern "C" __global__ void row_max8_bfly_short(const float* x, float* out) {
  int i = blockIdx.x * 32 + threadIdx.x;
  float v = x[i];
  for (int o = 4; o > 1; o >>= 1) v = fmaxf(v, __shfl_xor_sync(FULL, v, o));
  out[i] = v;
}

// Reference: one thread per row of 8 computes the maximum and stores it 8 times.
extern "C" __global__ void row_max8_seq(const float* x, float* out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float m = x[r * 8];
  for (int j = 1; j < 8; ++j) m = fmaxf(m, x[r * 8 + j]);
  for (int j = 0; j < 8; ++j) out[r * 8 + j] = m;
}

// out[i] = x[i] - (value of lane src of the same warp), shfl.idx.
extern "C" __global__ void sub_lane_shfl_idx(const float* x, float* out, int src) {
  int i = blockIdx.x * 32 + threadIdx.x;
  float v = x[i];
  out[i] = v - __shfl_sync(FULL, v, src);
}

// Reference: subtract the first element of each row of 32.
extern "C" __global__ void sub_first_direct(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] - x[(i / 32) * 32];
}

// Exclusive prefix sum of each row of 32: Kogge-Stone inclusive scan with shfl.up, then a
// shfl.up by one to shift it. Lane 0 gets 0.
extern "C" __global__ void scan_excl_shfl_up(const float* x, float* out) {
  int i = blockIdx.x * 32 + threadIdx.x, lane = threadIdx.x;
  float v = x[i];
  for (int o = 1; o < 32; o <<= 1) {
    float u = __shfl_up_sync(FULL, v, o);
    if (lane >= o) v += u;
  }
  float e = __shfl_up_sync(FULL, v, 1);
  out[i] = lane == 0 ? 0.f : e;
}

// Bug: the scan's lane condition is > instead of >=, so lane o misses lane 0's term.
extern "C" __global__ void scan_excl_shfl_up_gt(const float* x, float* out) {
  int i = blockIdx.x * 32 + threadIdx.x, lane = threadIdx.x;
  float v = x[i];
  for (int o = 1; o < 32; o <<= 1) {
    float u = __shfl_up_sync(FULL, v, o);
    if (lane > o) v += u;
  }
  float e = __shfl_up_sync(FULL, v, 1);
  out[i] = lane == 0 ? 0.f : e;
}

// Reference exclusive scan, one thread per row.
extern "C" __global__ void scan_excl_seq(const float* x, float* out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int j = 0; j < 32; ++j) { out[r * 32 + j] = s; s += x[r * 32 + j]; }
}

// Number of positive elements per row: vote.sync.ballot then popc.
extern "C" __global__ void count_pos_ballot(const float* x, int* out) {
  int r = blockIdx.x, lane = threadIdx.x;
  unsigned m = __ballot_sync(FULL, x[r * 32 + lane] > 0.f);
  if (lane == 0) out[r] = __popc(m);
}

// Reference count, one thread per row.
extern "C" __global__ void count_pos_seq(const float* x, int* out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int c = 0;
  for (int j = 0; j < 32; ++j) c += x[r * 32 + j] > 0.f ? 1 : 0;
  out[r] = c;
}

// out[r] = 1 when every element of the row is >= 0 (vote.sync.all).
extern "C" __global__ void all_nonneg_vote(const float* x, int* out) {
  int r = blockIdx.x, lane = threadIdx.x;
  int a = __all_sync(FULL, x[r * 32 + lane] >= 0.f);
  if (lane == 0) out[r] = a ? 1 : 0;
}

// Bug: tests > 0, so a row containing an exact 0 (and nothing negative) gives 0.
extern "C" __global__ void all_pos_vote(const float* x, int* out) {
  int r = blockIdx.x, lane = threadIdx.x;
  int a = __all_sync(FULL, x[r * 32 + lane] > 0.f);
  if (lane == 0) out[r] = a ? 1 : 0;
}

// Reference: sequential AND of the comparisons.
extern "C" __global__ void all_nonneg_seq(const float* x, int* out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int a = 1;
  for (int j = 0; j < 32; ++j) a &= x[r * 32 + j] >= 0.f ? 1 : 0;
  out[r] = a;
}

// out[r] = 1 when some element of the row is < 0 (vote.sync.any).
extern "C" __global__ void any_neg_vote(const float* x, int* out) {
  int r = blockIdx.x, lane = threadIdx.x;
  int a = __any_sync(FULL, x[r * 32 + lane] < 0.f);
  if (lane == 0) out[r] = a ? 1 : 0;
}

// Same question through vote.sync.ballot: any bit set.
extern "C" __global__ void any_neg_ballot(const float* x, int* out) {
  int r = blockIdx.x, lane = threadIdx.x;
  unsigned m = __ballot_sync(FULL, x[r * 32 + lane] < 0.f);
  if (lane == 0) out[r] = m != 0u ? 1 : 0;
}

// Divergent halves of a warp, each with its own 16-lane collective: lanes 0..15 sum row
// 2b with mask 0x0000ffff, lanes 16..31 sum row 2b+1 with mask 0xffff0000 (width 16, so
// every source lane is inside its half). Rows of 16.
extern "C" __global__ void row_sum16_halfwarps(const float* x, float* out) {
  int lane = threadIdx.x, h = lane >> 4, r = blockIdx.x * 2 + h;
  float v = x[r * 16 + (lane & 15)];
  if (h == 0) {
    for (int o = 8; o > 0; o >>= 1) v += __shfl_down_sync(0x0000ffffu, v, o, 16);
    if (lane == 0) out[r] = v;
  } else {
    for (int o = 8; o > 0; o >>= 1) v += __shfl_down_sync(0xffff0000u, v, o, 16);
    if (lane == 16) out[r] = v;
  }
}

// Reference for rows of 16.
extern "C" __global__ void row_sum16_seq(const float* x, float* out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int j = 0; j < 16; ++j) s += x[r * 16 + j];
  out[r] = s;
}
