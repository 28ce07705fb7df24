"""The Triton front end: a triton.jit function, with its constexprs, num_warps and num_stages,
compiled by triton.compile for a target architecture (no GPU needed). The signature is read off
the launch's arguments unless given. Lowered PTX is cached by content hash."""
import json
import numbers
import os

from . import _native
from .errors import fail, user_location
from .kernels import Kernel, cache_dir, entries
from .tensors import Access, Scalar

_POINTEE = {"f64": "fp64", "f32": "fp32", "f16": "fp16", "bf16": "bf16", "fp8e4m3": "fp8e4nv", "fp8e5m2": "fp8e5",
            "i64": "i64", "i32": "i32", "i16": "i16", "i8": "i8", "u8": "u8", "bool": "i1"}
_SCALAR = {"f64": "fp64", "f32": "fp32", "f16": "fp16", "bf16": "bf16", "i64": "i64", "i32": "i32",
           "i16": "i16", "i8": "i8", "u64": "u64", "u32": "u32", "u16": "u16", "u8": "u8"}


def is_triton_function(obj):
    return type(obj).__name__ in ("JITFunction", "Autotuner", "Heuristics") and hasattr(obj, "arg_names")


def _triton():
    try:
        import triton
        return triton
    except ImportError as e:
        raise _native_error(f"the Triton front end needs the triton package ({e}); "
                            "run scripts/install-deps.sh") from None


def _native_error(msg):
    from .errors import RacerError
    return RacerError(msg)


def _arg_type(a, name, loc):
    if isinstance(a, Access):
        return "*" + _POINTEE[a.tensor.dtype]
    if isinstance(a, Scalar):
        return _SCALAR[a.type]
    if isinstance(a, bool):
        return "i1"
    if isinstance(a, numbers.Integral):
        return "i32" if -2**31 <= int(a) < 2**31 else "i64"
    if isinstance(a, (numbers.Real, str)):  # a float argument arrives as its decimal text
        return "fp32"
    fail(f"cannot tell the Triton type of parameter '{name}' from {a!r}; give signature=", loc)


_OPTION_DEFAULTS = {"num_warps": 4, "num_stages": 1}


def _constexpr_params(fn):
    """The names of a triton.jit function's constexpr parameters (through autotune/heuristics wrappers)."""
    while not hasattr(fn, "params") and hasattr(fn, "fn"):
        fn = fn.fn
    return {p.name for p in getattr(fn, "params", []) if p.is_constexpr}


class TritonKernel:
    """A triton.jit function with its compile options; compiled for the arguments it is launched with.
    num_warps and num_stages of None mean not given (4 and 1, or the constexpr of that name)."""

    def __init__(self, fn, constexprs, num_warps, num_stages, arch, signature, loc):
        self.fn, self.constexprs = fn, dict(constexprs)
        self.arch, self.signature, self.loc = arch, signature, loc
        self.name = getattr(getattr(fn, "fn", None), "__name__", str(fn))
        unknown = [k for k in self.constexprs if k not in fn.arg_names]
        if unknown:
            fail(f"'{unknown[0]}' is not a parameter of Triton kernel {self.name} "
                 f"(its parameters: {', '.join(fn.arg_names)})", loc)
        options = self._bind_options({"num_warps": num_warps, "num_stages": num_stages}, loc)
        self.num_warps, self.num_stages = options["num_warps"], options["num_stages"]
        self.runtime_params = [a for a in fn.arg_names if a not in self.constexprs]

    def _bind_options(self, given, loc):
        """The launch options, each bound to a constexpr parameter of its name where the kernel has one
        (liger's kernels take num_warps: tl.constexpr): Triton's launcher gives such a parameter the
        option's value, so the two are one value here too."""
        named = _constexpr_params(self.fn)
        options = {}
        for option, value in given.items():
            if option in named:
                if value is not None and option in self.constexprs and self.constexprs[option] != value:
                    fail(f"{option}={value} and constexpr {option}={self.constexprs[option]} disagree: Triton kernel "
                         f"{self.name}'s constexpr parameter {option} is the launch option {option}", loc)
                if value is None:
                    value = self.constexprs.get(option, _OPTION_DEFAULTS[option])
                self.constexprs[option] = value
            options[option] = _OPTION_DEFAULTS[option] if value is None else value
            if isinstance(options[option], bool) or not isinstance(options[option], int) or options[option] < 1:
                fail(f"{option} must be a positive integer, not {options[option]!r}", loc)
        return options

    def _signature(self, args, loc):
        if isinstance(self.signature, (list, tuple)):
            if len(self.signature) != len(self.runtime_params):
                fail(f"signature has {len(self.signature)} types but Triton kernel {self.name} has "
                     f"{len(self.runtime_params)} parameters besides its constexprs ({', '.join(self.runtime_params)})", loc)
            sig = dict(zip(self.runtime_params, self.signature))
        elif self.signature is not None:
            sig = dict(self.signature)
        else:
            if len(args) != len(self.runtime_params):
                fail(f"Triton kernel {self.name} takes {len(self.runtime_params)} arguments "
                     f"({', '.join(self.runtime_params)}) besides its constexprs, but {len(args)} are given", loc)
            sig = {n: _arg_type(a, n, loc) for n, a in zip(self.runtime_params, args)}
        for k in self.constexprs:
            sig[k] = "constexpr"
        missing = [a for a in self.fn.arg_names if a not in sig]
        if missing:
            fail(f"Triton kernel {self.name}: no type or constexpr value for parameter '{missing[0]}'", loc)
        return {a: sig[a] for a in self.fn.arg_names}

    def resolve(self, args, loc):
        sig = self._signature(args, loc)
        triton = _triton()
        arch = int("".join(c for c in str(self.arch) if c.isdigit()) or 0)
        key_text = json.dumps({"fn": self.fn.cache_key, "sig": sig, "constexprs": repr(sorted(self.constexprs.items())),
                               "warps": self.num_warps, "stages": self.num_stages, "arch": arch,
                               "triton": triton.__version__}, sort_keys=True)
        index = os.path.join(cache_dir(), "triton-" + _native.frontend().content_hash(key_text) + ".json")
        meta = None
        if os.path.isfile(index):
            with open(index) as f:
                meta = json.load(f)
            if not os.path.isfile(meta.get("ptx", "")):
                meta = None
        if meta is None:
            meta = self._compile(triton, sig, arch, loc)
            tmp = f"{index}.{os.getpid()}"
            with open(tmp, "w") as f:
                json.dump(meta, f)
            os.replace(tmp, index)
        found = entries(meta["ptx"], loc)
        params = found[meta["entry"]]
        extra = len(params) - len(self.runtime_params)
        k = Kernel(meta["ptx"], meta["entry"], params, f"Triton kernel {self.name}", extra_null_params=max(extra, 0))
        k.block, k.shared_bytes = (32 * self.num_warps, 1, 1), meta["shared"]
        return k

    def compile(self, args=()):
        """The compiled kernel, for the signature given or the types of `args`."""
        return self.resolve(list(args), self.loc)

    def _compile(self, triton, sig, arch, loc):
        from triton.backends.compiler import GPUTarget
        from triton.compiler import ASTSource
        src = ASTSource(fn=self.fn, signature=sig, constexprs=self.constexprs)
        try:
            compiled = triton.compile(src, target=GPUTarget("cuda", arch, 32),
                                      options={"num_warps": self.num_warps, "num_stages": self.num_stages})
        except Exception as e:  # Triton's own message says what and where in the kernel
            fail(f"Triton could not compile {self.name} for sm_{arch}:\n{e}", loc)
        md = compiled.metadata
        for what in ("global_scratch_size", "profile_scratch_size"):
            if getattr(md, what, 0):
                fail(f"Triton kernel {self.name} needs {getattr(md, what)} bytes of {what.split('_')[0]} scratch "
                     "memory, which Racer does not model", loc)
        path = _native.call(_native.frontend().store_ptx, compiled.asm["ptx"], cache_dir(), loc=loc)
        return {"ptx": path, "entry": md.name, "shared": int(md.shared)}

    def __repr__(self):
        return f"racer.triton({self.name}, constexprs={self.constexprs}, num_warps={self.num_warps})"


def triton(fn, constexprs=None, num_warps=None, num_stages=None, arch="sm_90", signature=None, **more_constexprs):
    """A triton.jit kernel; constexprs as a dict or keywords (BLOCK=128). num_warps (default 4) and
    num_stages (default 1) are compile options, and also the kernel's constexprs of those names."""
    loc = user_location()
    if not is_triton_function(fn):
        fail(f"racer.triton takes a @triton.jit function, not {type(fn).__name__}", loc)
    consts = dict(constexprs or {})
    consts.update(more_constexprs)
    return TritonKernel(fn, consts, num_warps, num_stages, arch, signature, loc)
