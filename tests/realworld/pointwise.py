"""The launching kernels flag-gems generates around its pointwise ops.

flag-gems writes each elementwise op as a scalar @triton.jit function (gelu_none(x), ...) and
`pointwise_dynamic` generates, at run time and with torch, the kernel that loads a block, calls
the op and stores the result. These are that kernel for 1-D contiguous tensors: the op is a
constexpr argument, so the library's function is what runs on each element.
"""
import triton
import triton.language as tl


@triton.jit
def unary(x_ptr, y_ptr, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, OP(x), mask=mask)


@triton.jit
def binary(x_ptr, z_ptr, y_ptr, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    z = tl.load(z_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, OP(x, z), mask=mask)


@triton.jit
def unary_scalars(x_ptr, y_ptr, n, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr, OP: tl.constexpr,
                  N_SCALARS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if N_SCALARS == 2:
        y = OP(x, A, B)
    else:
        y = OP(x, A, B, C)
    tl.store(y_ptr + offs, y, mask=mask)


@triton.jit
def unary_scalar(x_ptr, y_ptr, n, A: tl.constexpr, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, OP(x, A), mask=mask)


@triton.jit
def ternary(x_ptr, u_ptr, v_ptr, y_ptr, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    u = tl.load(u_ptr + offs, mask=mask)
    v = tl.load(v_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, OP(x, u, v), mask=mask)


@triton.jit
def ternary_scalar(x_ptr, u_ptr, v_ptr, y_ptr, n, A: tl.constexpr, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    u = tl.load(u_ptr + offs, mask=mask)
    v = tl.load(v_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, OP(x, u, v, A), mask=mask)
