"""Triton kernels of the t_tc_* cases: a flash-attention forward (online softmax over KV
blocks, tensor-core dots) and the same with the accumulator's rescaling left out (the bug).
Q: queries x D, K and V: SEQ_KV x D in f16; Out: queries x D in f32; one program per
BLOCK_M query rows."""
import triton
import triton.language as tl


@triton.jit
def attn_fwd(Q, Kp, V, Out, SEQ_KV: tl.constexpr, D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
             SCALE: tl.constexpr, RESCALE: tl.constexpr):
    pid = tl.program_id(0)
    offs_m = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q = tl.load(Q + offs_m[:, None] * D + offs_d[None, :])
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, D], tl.float32)
    for start in range(0, SEQ_KV, BLOCK_N):
        k = tl.load(Kp + (start + offs_n)[:, None] * D + offs_d[None, :])
        v = tl.load(V + (start + offs_n)[:, None] * D + offs_d[None, :])
        s = tl.dot(q, tl.trans(k)) * SCALE
        m_new = tl.maximum(m_i, tl.max(s, 1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        if RESCALE:
            acc = acc * alpha[:, None]
        acc = acc + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    tl.store(Out + offs_m[:, None] * D + offs_d[None, :], acc / l_i[:, None])
