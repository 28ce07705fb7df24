"""Kernels as they come: PTX (a file or its text) and CUDA C++ (compiled with nvcc). Each ends
as a PTX file in the cache (named by its content hash) and an entry with its parameters."""
import os

from . import _native
from .errors import fail, user_location


def cache_dir():
    return _native.call(_native.frontend().default_cache_dir)


class Kernel:
    """A PTX entry ready to launch: `ptx` is a file, `params` the entry's parameter types."""

    def __init__(self, ptx_path, entry, params, label, extra_null_params=0):
        self.ptx, self.entry, self.params, self.label = ptx_path, entry, params, label
        # Parameters the compiler added that the user does not pass (Triton's scratch pointers).
        self.extra_null_params = extra_null_params
        self.block = None          # a block size the kernel was compiled for, if any
        self.shared_bytes = 0      # dynamic shared memory the kernel needs

    def resolve(self, args, loc):
        return self

    def __repr__(self):
        return f"racer.Kernel({self.entry} from {self.label})"


def entries(path, loc):
    return dict(_native.call(_native.frontend().ptx_entries, path, loc=loc))


def _looks_like_text(s):
    return "\n" in s or ".entry" in s or ".version" in s


def _pick_entry(found, entry, label, loc, mangled_hint=False):
    if entry in found:
        return entry
    # nvcc mangles C++ names: _Z<len><name>...; one unambiguous match is the kernel meant.
    mangled = [e for e in found if e.startswith(f"_Z{len(entry)}{entry}")]
    if len(mangled) == 1:
        return mangled[0]
    hint = " (declare the kernel extern \"C\" to keep its name)" if mangled_hint and mangled else ""
    fail(f"no entry '{entry}' in {label}; its entries are: {', '.join(sorted(found)) or 'none'}{hint}", loc)


def ptx(path_or_text, entry):
    """A kernel given as PTX: a path to a .ptx file, or the PTX text itself."""
    loc = user_location()
    if not isinstance(path_or_text, (str, os.PathLike)):
        fail(f"racer.ptx takes a path or PTX text, not {type(path_or_text).__name__}", loc)
    s = os.fspath(path_or_text)
    if _looks_like_text(s):
        path, label = _native.call(_native.frontend().store_ptx, s, cache_dir(), loc=loc), "the PTX text"
    else:
        path = os.path.abspath(s)
        if not os.path.isfile(path):
            fail(f"PTX file not found: {s}", loc)
        label = s
    found = entries(path, loc)
    name = _pick_entry(found, entry, label, loc)
    return Kernel(path, name, found[name], label)


def _python_files_holding(text, first):
    """Python files that may hold the CUDA source as a string: the caller's, then the user's other
    loaded modules (not the standard library or installed packages)."""
    import sys
    yield first
    installed = tuple(os.path.realpath(p) for p in {sys.prefix, sys.base_prefix, sys.exec_prefix})
    for m in list(sys.modules.values()):
        f = getattr(m, "__file__", None)
        if f and f.endswith(".py") and f != first and not os.path.realpath(f).startswith(installed):
            yield f


def _line_directive(text, file):
    """A #line naming where the source really is (its file, or the line of the Python file holding
    it as a string), so the PTX's line info and every defect point at the user's own line."""
    if not file or file.startswith("<"):
        return ""
    if not file.endswith(".py"):
        return f'#line 1 "{os.path.abspath(file)}"\n'
    for holder_file in _python_files_holding(text, file):
        try:
            with open(holder_file, encoding="utf-8") as f:
                holder = f.read()
        except OSError:
            continue
        at = holder.find(text)
        if at >= 0:
            return f'#line {holder.count(chr(10), 0, at) + 1} "{os.path.abspath(holder_file)}"\n'
    return ""


def cuda(source_or_path, entry, arch="sm_90", options=()):
    """A kernel given as CUDA C++ (a .cu path or the source text), lowered to PTX by nvcc."""
    loc = user_location()
    if isinstance(options, str):
        fail("options must be a list of nvcc options, e.g. ['-O3'], not one string", loc)
    s = os.fspath(source_or_path)
    if "\n" not in s and os.path.isfile(s):
        with open(s, encoding="utf-8") as f:
            text = f.read()
        name, includes = s, [os.path.dirname(os.path.abspath(s))]
    elif "\n" not in s and s.endswith((".cu", ".cuh")):
        fail(f"CUDA source file not found: {s}", loc)
    else:
        text, includes = s, []
        name = f"{loc[0]}:{loc[1]} (CUDA source)" if loc[0] else "CUDA source"
    text = _line_directive(text, name if includes else loc[0]) + text
    path = _native.call(_native.frontend().compile_cuda, text, name, includes, arch, list(options), cache_dir(), loc=loc)
    found = entries(path, loc)
    chosen = _pick_entry(found, entry, f"the PTX nvcc made of {name}", loc, mangled_hint=True)
    return Kernel(path, chosen, found[chosen], name)
