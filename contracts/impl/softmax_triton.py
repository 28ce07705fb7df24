# Row softmax in Triton, one program per row, for contracts/examples/triton.kc: the good
# kernel subtracts the row maximum before exponentiating, the bad one does not (its exp
# overflows once the inputs are shifted far enough).
import triton
import triton.language as tl


@triton.jit
def softmax_good(x_ptr, y_ptr, ROWS, COLS, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < COLS
    x = tl.load(x_ptr + row * COLS + cols, mask=mask, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * COLS + cols, e / tl.sum(e, axis=0), mask=mask)


@triton.jit
def softmax_bad(x_ptr, y_ptr, ROWS, COLS, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < COLS
    x = tl.load(x_ptr + row * COLS + cols, mask=mask, other=-float("inf"))
    e = tl.exp(x)
    tl.store(y_ptr + row * COLS + cols, e / tl.sum(e, axis=0), mask=mask)
