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


# Launchers whose scalars are run-time arguments, as pointwise_dynamic passes a Python scalar that is not a
# tensor (the op may call .to() on it); constexprs only where the op's own parameter is a tl.constexpr.
@triton.jit
def unary_scalar_rt(x_ptr, y_ptr, n, a, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, OP(x, a), mask=mask)


@triton.jit
def scalar_unary_rt(x_ptr, y_ptr, n, a, OP: tl.constexpr, BLOCK: tl.constexpr):
    """OP(scalar, tensor): the tensor is the op's second operand (pow_scalar's exponent)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, OP(a, x), mask=mask)


@triton.jit
def binary_scalar_rt(x_ptr, z_ptr, y_ptr, n, a, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    z = tl.load(z_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, OP(x, z, a), mask=mask)


@triton.jit
def binary_scalars_rt(x_ptr, z_ptr, y_ptr, n, a, b, C: tl.constexpr, D: tl.constexpr, OP: tl.constexpr,
                      BLOCK: tl.constexpr):
    """OP(x, z, a, b, C, D): two run-time scalars and two constexpr flags (isclose's rtol, atol, equal_nan, zero_tol)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    z = tl.load(z_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, OP(x, z, a, b, C, D), mask=mask)
