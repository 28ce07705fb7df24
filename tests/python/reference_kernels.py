"""Triton kernels for the reference tests (issue 21) that the corpus lacks, each with a
mutation: the kind of slip a port makes. Compiled by racer.triton (no GPU needed)."""
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice


@triton.jit
def log_softmax_no_max(x, out, ncols, BLOCK: tl.constexpr):
    # Mutation: subtracts the row max from x but not inside the exponentials.
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < ncols
    v = tl.load(x + row * ncols + offs, mask=m, other=-float("inf"))
    mx = tl.max(v, 0)
    s = tl.sum(tl.where(m, tl.exp(v), 0.0), 0)
    tl.store(out + row * ncols + offs, v - mx - tl.log(s), mask=m)


@triton.jit
def rmsnorm_eps_outside(x, w, out, ncols, eps, BLOCK: tl.constexpr):
    # Mutation: eps added after the square root.
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < ncols
    v = tl.load(x + row * ncols + offs, mask=m, other=0.0)
    g = tl.load(w + offs, mask=m, other=0.0)
    r = 1.0 / (tl.sqrt(tl.sum(v * v, 0) / ncols) + eps)
    tl.store(out + row * ncols + offs, v * r * g, mask=m)


@triton.jit
def gelu_tanh(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m)
    inner = 0.7978845608028654 * (v + 0.044715 * v * v * v)
    tl.store(out + offs, 0.5 * v * (1.0 + libdevice.tanh(inner)), mask=m)


@triton.jit
def gelu_tanh_wrong_cube(x, out, n, BLOCK: tl.constexpr):
    # Mutation: the cubic term squared instead of cubed.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m)
    inner = 0.7978845608028654 * (v + 0.044715 * v * v)
    tl.store(out + offs, 0.5 * v * (1.0 + libdevice.tanh(inner)), mask=m)


@triton.jit
def gelu_erf_wrong_scale(x, out, n, BLOCK: tl.constexpr):
    # Mutation: divides by sqrt(2) twice (x * 0.5 inside erf).
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m)
    tl.store(out + offs, 0.5 * v * (1.0 + tl.math.erf(v * 0.5)), mask=m)


@triton.jit
def silu_exp2_unscaled(x, out, n, BLOCK: tl.constexpr):
    # Mutation: exp(-x) ported to the hardware's exp2 without the log2(e) scale.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m)
    tl.store(out + offs, v / (1.0 + tl.math.exp2(-v)), mask=m)


@triton.jit
def swiglu(a, b, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    u = tl.load(a + offs, mask=m)
    g = tl.load(b + offs, mask=m)
    tl.store(out + offs, u * tl.sigmoid(u) * g, mask=m)


@triton.jit
def swiglu_swapped(a, b, out, n, BLOCK: tl.constexpr):
    # Mutation: the gate applied to the wrong half.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    u = tl.load(a + offs, mask=m)
    g = tl.load(b + offs, mask=m)
    tl.store(out + offs, g * tl.sigmoid(g) * u, mask=m)


@triton.jit
def cross_entropy_smooth(logits, labels, loss, ncols, ignore_index, smoothing, BLOCK: tl.constexpr):
    # torch.nn.functional.cross_entropy(reduction="none", ignore_index, label_smoothing):
    # (1 - s) * (lse - x[y]) + s * (lse - mean(x)), and 0 on ignored rows.
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < ncols
    v = tl.load(logits + row * ncols + offs, mask=m, other=-float("inf"))
    y = tl.load(labels + row)
    mx = tl.max(v, 0)
    lse = mx + tl.log(tl.sum(tl.exp(v - mx), 0))
    picked = tl.sum(tl.where(offs == y, v, 0.0), 0)
    mean = tl.sum(tl.where(m, v, 0.0), 0) / ncols
    val = (1.0 - smoothing) * (lse - picked) + smoothing * (lse - mean)
    tl.store(loss + row, tl.where(y == ignore_index, 0.0, val))


@triton.jit
def cross_entropy_smooth_wrong(logits, labels, loss, ncols, ignore_index, smoothing, BLOCK: tl.constexpr):
    # Mutation: the smoothing term uses the sum of the logits instead of their mean.
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < ncols
    v = tl.load(logits + row * ncols + offs, mask=m, other=-float("inf"))
    y = tl.load(labels + row)
    mx = tl.max(v, 0)
    lse = mx + tl.log(tl.sum(tl.exp(v - mx), 0))
    picked = tl.sum(tl.where(offs == y, v, 0.0), 0)
    total = tl.sum(tl.where(m, v, 0.0), 0)
    val = (1.0 - smoothing) * (lse - picked) + smoothing * (lse - total)
    tl.store(loss + row, tl.where(y == ignore_index, 0.0, val))


@triton.jit
def cross_entropy_smooth_host_keep(logits, labels, loss, ncols, ignore_index, keep, smoothing, BLOCK: tl.constexpr):
    # The same with 1 - smoothing computed on the host (in double, then float32), as PyTorch's
    # cross_entropy does: keep * (lse - x[y]) + smoothing * (lse - mean(x)).
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < ncols
    v = tl.load(logits + row * ncols + offs, mask=m, other=-float("inf"))
    y = tl.load(labels + row)
    mx = tl.max(v, 0)
    lse = mx + tl.log(tl.sum(tl.exp(v - mx), 0))
    picked = tl.sum(tl.where(offs == y, v, 0.0), 0)
    mean = tl.sum(tl.where(m, v, 0.0), 0) / ncols
    val = keep * (lse - picked) + smoothing * (lse - mean)
    tl.store(loss + row, tl.where(y == ignore_index, 0.0, val))


@triton.jit
def embedding(table, idx, out, D: tl.constexpr):
    # out[i, :] = table[idx[i], :]: a gather by an index tensor.
    i = tl.program_id(0)
    offs = tl.arange(0, D)
    r = tl.load(idx + i)
    tl.store(out + i * D + offs, tl.load(table + r * D + offs))


@triton.jit
def embedding_row_stride_bug(table, idx, out, D: tl.constexpr):
    # Mutation: the gathered row's offset uses the index of the output row.
    i = tl.program_id(0)
    offs = tl.arange(0, D)
    r = tl.load(idx + i)
    tl.store(out + i * D + offs, tl.load(table + (r + i % 2) * D + offs))
