"""Launches: a kernel, its grid and block, dynamic shared memory and the arguments."""
import numbers

from .errors import fail, user_location
from .kernels import Kernel
from .tensors import Access, Scalar, Tensor, TensorMap
from .triton_frontend import TritonKernel, is_triton_function

_recording = []  # the launch lists of the programs being recorded, innermost last


class Launch:
    def __init__(self, kernel, grid, block, args, shared_bytes, loc, cluster=None):
        self.kernel, self.grid, self.block, self.args, self.shared_bytes, self.loc = (
            kernel, grid, block, args, shared_bytes, loc)
        self.cluster = cluster

    def describe(self, names, line):
        args = []
        for a in self.args:
            if isinstance(a, Access):
                args.append({"tensor": names[id(a.tensor)], "access": a.access, "offset": a.offset})
            elif isinstance(a, Scalar):
                if a.tensor is None:
                    args.append({"scalar": a.value, "type": a.type})
                else:  # a one-cell input tensor's value
                    args.append({"scalar_tensor": names[id(a.tensor)], "type": a.type})
            elif isinstance(a, TensorMap):
                args.append({"tensor_map": names[id(a)]})
            elif a is None:
                args.append({"null": True})
            else:
                args.append({"scalar": a})
        j = {"ptx": self.kernel.ptx, "entry": self.kernel.entry, "grid": list(self.grid), "block": list(self.block),
             "shared_bytes": self.shared_bytes, "args": args}
        if self.cluster is not None:
            j["cluster"] = list(self.cluster)
        if line:
            j["line"] = line
        return j

    def tensors(self):
        return [a.tensor for a in self.args if isinstance(a, (Access, TensorMap))]

    def tensor_maps(self):
        return [a for a in self.args if isinstance(a, TensorMap)]


def _dims(d, what, loc, limit):
    if isinstance(d, numbers.Integral) and not isinstance(d, bool):
        d = (d,)
    try:
        d = tuple(d)
    except TypeError:
        fail(f"{what} must be an integer or a tuple of 1 to 3 integers, not {d!r}", loc)
    if not 1 <= len(d) <= 3:
        fail(f"{what} must have 1 to 3 dimensions, not {len(d)}", loc)
    for i, x in enumerate(d):
        if isinstance(x, bool) or not isinstance(x, numbers.Integral) or not 1 <= x <= limit[i]:
            fail(f"{what} {d}: dimension {'xyz'[i]} must be an integer from 1 to {limit[i]}, not {x!r}", loc)
    return tuple(int(x) for x in d) + (1,) * (3 - len(d))


def _arg(a, i, loc):
    from .numbers_text import number_json
    if isinstance(a, (Access, Scalar, TensorMap)) or a is None:
        return a
    if isinstance(a, Tensor):
        n = a.name or "the tensor"
        fail(f"argument {i} is a bare tensor; say how the kernel may use it: racer.read({n}), "
             f"racer.write({n}) or racer.readwrite({n})", loc)
    if isinstance(a, (numbers.Real, str)) or type(a).__module__ == "numpy":
        if type(a).__module__ == "numpy":
            import numpy as np
            kind = {"f": "f", "i": "i", "u": "u"}.get(np.asarray(a).dtype.kind)
            if kind:
                bits = np.asarray(a).dtype.itemsize * 8
                return Scalar(a.item() if kind != "f" else a, f"{kind}{bits}")
        return number_json(a, f"argument {i}", loc)
    fail(f"argument {i} must be racer.read/write/readwrite(tensor), racer.tensor_map(...), a number or None, "
         f"not {type(a).__name__}", loc)


def launch(kernel, grid, block=None, args=(), shared_bytes=None, constexprs=None, num_warps=None, num_stages=None,
           cluster=None):
    """One kernel launch of a program. Inside program_a/program_b (or a racer.program block) it
    is recorded in that program; it is also returned. cluster=(x, y, z) launches thread-block
    clusters of that shape (the grid a whole number of them)."""
    loc = user_location()
    if is_triton_function(kernel):
        from .triton_frontend import triton
        kernel = TritonKernel(kernel, constexprs or {}, num_warps, num_stages, "sm_90", None, loc)
    elif constexprs is not None or num_warps is not None or num_stages is not None:
        fail("constexprs, num_warps and num_stages apply to a triton.jit kernel; give them to racer.triton(...)", loc)
    if not isinstance(kernel, (Kernel, TritonKernel)):
        fail(f"kernel must come from racer.ptx, racer.cuda or racer.triton (or be a triton.jit function), "
             f"not {type(kernel).__name__}", loc)
    args = [_arg(a, i, loc) for i, a in enumerate(args)]
    k = kernel.resolve(args, loc)
    args = args + [None] * k.extra_null_params
    if len(args) != len(k.params):
        shown = ", ".join(k.params)
        fail(f"kernel '{k.entry}' ({k.label}) takes {len(k.params) - k.extra_null_params} arguments ({shown}), "
             f"but {len(args) - k.extra_null_params} are given", loc)
    for i, (a, t) in enumerate(zip(args, k.params)):
        if isinstance(a, Access) and t not in ("u64", "s64", "b64"):
            fail(f"argument {i} is tensor {a.tensor.name or ''} but parameter {i} of '{k.entry}' is .{t}, "
                 "not a 64-bit pointer", loc)
        if isinstance(a, TensorMap) and t != "b8":
            fail(f"argument {i} is a tensor map but parameter {i} of '{k.entry}' is .{t}, "
                 "not a 128-byte .b8 array (a CUtensorMap passed by value)", loc)
    grid = _dims(grid, "grid", loc, (2147483647, 65535, 65535))
    if block is None:
        if k.block is None:
            fail(f"give block= for kernel '{k.entry}'", loc)
        block = k.block
    block = _dims(block, "block", loc, (1024, 1024, 64))
    if k.block is not None and block != tuple(k.block):
        fail(f"block {block} does not match the {k.block[0]} threads ({k.block[0] // 32} warps) "
             f"kernel '{k.entry}' was compiled for", loc)
    if block[0] * block[1] * block[2] > 1024:
        fail(f"block {block} has {block[0] * block[1] * block[2]} threads; a CTA has at most 1024", loc)
    if shared_bytes is None:
        shared_bytes = k.shared_bytes
    if isinstance(shared_bytes, bool) or not isinstance(shared_bytes, numbers.Integral) or not 0 <= shared_bytes <= 232448:
        fail(f"shared_bytes must be an integer from 0 to 232448, not {shared_bytes!r}", loc)
    if cluster is not None:
        cluster = _dims(cluster, "cluster", loc, (8, 8, 8))
        if cluster[0] * cluster[1] * cluster[2] > 8:
            fail(f"cluster {cluster} has {cluster[0] * cluster[1] * cluster[2]} CTAs; the portable maximum is 8", loc)
        for i in range(3):
            if grid[i] % cluster[i]:
                fail(f"grid {grid} is not a whole number of clusters {cluster}: "
                     f"dimension {'xyz'[i]} {grid[i]} is not a multiple of {cluster[i]}", loc)
    out = Launch(k, grid, block, args, int(shared_bytes), loc, cluster)
    if _recording:
        _recording[-1].append(out)
    return out


class program:
    """Records the launches made inside a with-block: `with racer.program() as a: racer.launch(...)`."""

    def __init__(self):
        self.launches = []

    def __enter__(self):
        _recording.append(self.launches)
        return self

    def __exit__(self, *exc):
        _recording.pop()
        return False

    def __iter__(self):
        return iter(self.launches)

    def __len__(self):
        return len(self.launches)
