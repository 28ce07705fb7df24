"""Library kernels as triton.jit functions, read from the installed packages without importing torch.

liger-kernel, flag-gems and fla-core import torch at the top of every module, and the machine that
checks kernels has no torch. `kernel(module, name)` therefore reads the module's source, finds the
top-level definition of `name`, and executes only what that definition needs: the @triton.jit
functions it calls, the module constants it reads and the imports they come from, transitively,
across the libraries' own modules. The libraries' launch-time decorators (autotune, heuristics,
libentry, pointwise_dynamic, ...) are dropped: an instance gives the constexprs they would choose.
Each function is compiled from its own file and lines, so Triton's line info and Racer's
reports point into the installed library.

What a library decides from the host (which GPU, which Triton, which libdevice) is answered by
HOST_FACTS for the target Racer compiles for (an NVIDIA sm_90 GPU, Triton as installed).
"""
import ast
import builtins
import hashlib
import importlib
import importlib.util
import linecache
import os
import types

LIBRARIES = ("liger_kernel", "flag_gems", "fla", "unsloth", "sglang", "torchao", "flashinfer", "vllm", "lmdeploy", "xformers", "bitsandbytes", "deepspeed", "gemlite", "lightllm", "cut_cross_entropy", "sageattention", "lightning_attn", "aqlm", "mamba_ssm", "flash_attn", "colossalai", "mlstm_kernels", "axolotl")
_BLOCKED = ("torch",)  # importing it is what this loader exists to avoid


class LoaderError(Exception):
    pass


def _release(text):
    """The numeric release of a version string ("3.6.0+git..." -> (3, 6, 0))."""
    parts = []
    for p in text.split("+")[0].split(".")[:3]:
        digits = "".join(c for c in p if c.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def _triton_version_at_least(target):
    import triton
    return _release(triton.__version__) >= _release(target)


def _compare_version(package, op, target):
    """liger_kernel.ops.utils.compare_version, without `packaging` (releases compare numerically)."""
    from importlib.metadata import version
    return op(_release(version(package)), _release(target))


def _use_tl_extra(func):
    """flag_gems.utils.triton_lang_helper.use_tl_extra: libdevice's function of that name if any."""
    import triton.language.extra.libdevice as libdevice
    return getattr(libdevice, func.__name__, func)


def _libdevice():
    import triton.language.extra.libdevice as libdevice
    return libdevice


def _fp8_e4m3fn_info():
    """torch.finfo(torch.float8_e4m3fn)'s range, the fp8 type vllm's current_platform picks on CUDA."""
    return types.SimpleNamespace(min=-448.0, max=448.0)


def _tl(name):
    import triton.language as tl
    return getattr(tl, name)


# (module, name) -> a function giving the value: host queries answered for an sm_90 CUDA target.
HOST_FACTS = {
    ("liger_kernel.ops.utils", "compare_version"): lambda: _compare_version,
    ("liger_kernel.utils", "is_npu_available"): lambda: (lambda: False),
    ("liger_kernel.utils", "infer_device"): lambda: (lambda: "cuda"),
    ("liger_kernel.ops.utils", "is_hip"): lambda: (lambda: False),
    ("flag_gems.utils.triton_lang_helper", "tl_extra_shim"): _libdevice,
    ("flag_gems.utils", "tl_extra_shim"): _libdevice,
    ("flag_gems.utils.triton_lang_helper", "use_tl_extra"): lambda: _use_tl_extra,
    ("fla.utils", "IS_NVIDIA_BLACKWELL"): lambda: False,
    ("fla.utils", "IS_NVIDIA_HOPPER"): lambda: True,
    ("fla.utils", "IS_AMD"): lambda: False,
    ("fla.utils", "IS_INTEL"): lambda: False,
    ("fla.utils", "IS_NVIDIA"): lambda: True,
    ("fla.utils", "IS_GATHER_SUPPORTED"): lambda: _triton_version_at_least("3.2"),
    ("fla.utils", "IS_TF32_SUPPORTED"): lambda: True,
    ("fla.utils", "IS_TMA_SUPPORTED"): lambda: False,
    ("fla.utils", "check_shared_mem"): lambda: (lambda *a, **k: True),
    # unsloth: libdevice's tanh and tl.cast for Triton >= 3 on CUDA; CUDA's tl.sum order, not ROCm's
    ("unsloth.kernels.utils", "triton_tanh"): lambda: _libdevice().tanh,
    ("unsloth.kernels.utils", "triton_cast"): lambda: _tl("cast"),
    ("unsloth.kernels.rms_layernorm", "_HIP_ROW_ORDER"): lambda: _tl("constexpr")(False),
    # torch's own host queries (keyed by torch's module): CUDA, not ROCm; Triton is there. Only these
    # attributes are answered: `import torch` binds a stand-in (_host_module), never torch itself.
    ("torch.version", "hip"): lambda: None,
    ("torch.utils._triton", "has_triton"): lambda: (lambda: True),
    # vllm: torch.finfo(current_platform.fp8_dtype()) on CUDA is float8_e4m3fn's (kernel default constexprs)
    ("vllm.v1.attention.ops.triton_merge_attn_states", "float8_info"): lambda: _fp8_e4m3fn_info(),
    ("vllm.v1.attention.ops.triton_unified_attention", "float8_info"): lambda: _fp8_e4m3fn_info(),
    ("vllm.v1.attention.ops.prefix_prefill", "float8_info"): lambda: _fp8_e4m3fn_info(),
    # vllm.platforms.current_platform on an NVIDIA GPU (int8_utils picks its libdevice round by it)
    ("vllm.platforms", "current_platform"): lambda: types.SimpleNamespace(
        is_rocm=lambda: False, is_xpu=lambda: False, is_cuda=lambda: True, is_cuda_alike=lambda: True,
        is_fp8_fnuz=lambda: False),
    # deepspeed.ops.triton_ops: Triton has an active (CUDA) backend; its kernels sit under `if _TRITON_AVAILABLE:`
    ("deepspeed.ops.triton_ops._triton", "_TRITON_AVAILABLE"): lambda: True,
}
for (_m, _n), _f in list(HOST_FACTS.items()):  # fla.utils re-exports fla.utils.hardware
    if _m == "fla.utils":
        HOST_FACTS[("fla.utils.hardware", _n)] = _f

_KEPT_DECORATORS = {"use_tl_extra"}  # decorators that change what the function is, not how it launches


def _module_file(module):
    top = module.split(".")[0]
    if top not in LIBRARIES:
        raise LoaderError(f"{module}: not one of the libraries read from source ({', '.join(LIBRARIES)})")
    spec = importlib.util.find_spec(top)  # a top-level name: located, not executed
    if spec is None or not spec.submodule_search_locations:
        raise LoaderError(f"{module}: package '{top}' is not installed (run scripts/install-deps.sh)")
    base = os.path.join(list(spec.submodule_search_locations)[0], *module.split(".")[1:])
    for path in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(path):
            return path
    raise LoaderError(f"{module}: no such module in the installed '{top}' (looked for {base}.py)")


def _is_jit(dec):
    target = dec.func if isinstance(dec, ast.Call) else dec
    return (isinstance(target, ast.Attribute) and target.attr == "jit") or \
        (isinstance(target, ast.Name) and target.id == "jit")


def _decorator_name(dec):
    target = dec.func if isinstance(dec, ast.Call) else dec
    return target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", None)


def _loaded_names(node):
    """Names a statement reads (over-approximated: locals too; only module-level ones are resolved)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _defined_names(stmt):
    if isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
        return {stmt.name}
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in stmt.names}
    if isinstance(stmt, ast.Assign):
        return {n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return {stmt.target.id}
    return set()


def _binds(compound, name):
    """Whether a module-level if/try binds `name` somewhere (only then is its condition evaluated); the
    bodies of functions and classes in it bind their own locals, not module names, and are not looked into."""
    stack = [compound]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.stmt) and not isinstance(node, (ast.If, ast.Try)) and name in _defined_names(node):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))
    return False


def _host_module(name):
    """A stand-in for a blocked module (torch) that answers only the HOST_FACTS keyed by it or its
    submodules (`torch.version.hip`); any other attribute is an AttributeError naming the fact missing."""
    proxy = types.ModuleType(f"{name} (host facts only)")

    def attribute(attr):
        fact = HOST_FACTS.get((name, attr))
        if fact is not None:
            return fact()
        if any(m == f"{name}.{attr}" or m.startswith(f"{name}.{attr}.") for m, _ in HOST_FACTS):
            return _host_module(f"{name}.{attr}")
        raise AttributeError(f"{name}.{attr} needs torch, which is not imported here (no HOST_FACTS entry)")
    proxy.__getattr__ = attribute
    return proxy


def _has_host_facts(module):
    return any(m == module or m.startswith(module + ".") for m, _ in HOST_FACTS)


class _Module:
    """One library module, read from source and executed a definition at a time into its own namespace."""

    def __init__(self, loader, name, path, text, tag=""):
        self.loader, self.name, self.path = loader, name, path
        self.tree = ast.parse(text, filename=path)
        # A mutated copy gets its own module name: Triton's cache keys and Racer's PTX cache see it apart.
        self.namespace = {"__name__": name + tag, "__file__": path, "__builtins__": builtins}
        self.done, self.active = set(), set()

    def definitions(self, name, body=None):
        """The statements that may bind `name` at module level, in order, with how to reach them
        (a top-level `if` is entered only when its condition holds; a `try` tries its body first)."""
        for stmt in (self.tree.body if body is None else body):
            if name in _defined_names(stmt):
                yield stmt
            elif isinstance(stmt, ast.If) and _binds(stmt, name):
                branch = stmt.body if self._condition(stmt.test) else stmt.orelse
                yield from self.definitions(name, branch)
            elif isinstance(stmt, ast.Try) and _binds(stmt, name):
                yield from self.definitions(name, stmt.body)
                for h in stmt.handlers:
                    yield from self.definitions(name, h.body)

    def _condition(self, test):
        self.require(_loaded_names(test), test)
        code = compile(ast.Expression(test), self.path, "eval")
        try:
            return bool(eval(code, self.namespace))
        except Exception as e:
            raise LoaderError(f"{self.path}:{test.lineno}: cannot decide the module-level condition "
                              f"'{ast.unparse(test)}' without torch ({type(e).__name__}: {e})") from None

    def require(self, names, where):
        for n in sorted(names):
            if n not in self.namespace:  # a module-level name shadows a builtin (flag-gems' `pow`)
                self.resolve(n, where)

    def resolve(self, name, where=None):
        """Binds `name` in this module's namespace; returns its value."""
        if name in self.namespace:
            return self.namespace[name]
        fact = HOST_FACTS.get((self.name, name))
        if fact is not None:
            self.namespace[name] = fact()
            return self.namespace[name]
        if name in self.active:
            raise LoaderError(f"{self.path}: '{name}' is defined in terms of itself")
        self.active.add(name)
        try:
            errors = []
            for stmt in self.definitions(name):
                try:
                    self._execute(stmt, name)
                except LoaderError as e:
                    errors.append(str(e))
                    continue
                if name in self.namespace:
                    return self.namespace[name]
            if errors:
                raise LoaderError(errors[-1])
        finally:
            self.active.discard(name)
        return self._star_imported(name)  # None: not a module-level name (a local, or a builtin Triton resolves)

    def _star_imported(self, name):
        """`from .utils import *` (gemlite): a public name no statement here binds, read from the library modules
        this one star-imports (the last of them that defines it, as at run time)."""
        if name.startswith("_") or "*" + name in self.active:  # modules that star-import each other
            return None
        self.active.add("*" + name)
        try:
            for stmt in reversed(self.tree.body):
                if isinstance(stmt, ast.ImportFrom) and any(a.name == "*" for a in stmt.names):
                    source = self._import_source(stmt)
                    if source.split(".")[0] in LIBRARIES:
                        value = self.loader.module(source).resolve(name)
                        if value is not None:
                            self.namespace[name] = value
                            return value
        finally:
            self.active.discard("*" + name)
        return None

    def _import_source(self, stmt):
        """The absolute module name a `from ... import` statement reads."""
        source = stmt.module or ""
        if stmt.level:
            pkg = self.name.split(".")
            if not self.path.endswith("__init__.py"):
                pkg = pkg[:-1]
            pkg = pkg[:len(pkg) - (stmt.level - 1)]
            source = ".".join(pkg + ([stmt.module] if stmt.module else []))
        return source

    def _execute(self, stmt, name):
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            return self._import(stmt, name)
        if isinstance(stmt, ast.ClassDef):
            raise LoaderError(f"{self.path}:{stmt.lineno}: '{name}' is a class; only functions and constants are read")
        if isinstance(stmt, ast.FunctionDef):
            stmt = self._strip_decorators(stmt)
            # Its parameters and the names it assigns are its locals, never the module's (a kernel's local
            # `use_penalty` does not need vllm's host function of that name, nor what that one's annotations name).
            local = {a.arg for a in ast.walk(stmt.args) if isinstance(a, ast.arg)} | \
                {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            self.require(_loaded_names(stmt) - local, stmt)
        else:
            self.require(_loaded_names(stmt), stmt)
        code = compile(ast.Module(body=[stmt], type_ignores=[]), self.path, "exec")
        try:
            exec(code, self.namespace)
        except Exception as e:
            raise LoaderError(f"{self.path}:{stmt.lineno}: defining '{name}' failed: {type(e).__name__}: {e}") from None

    def _strip_decorators(self, fn):
        # The function's first line stays where a kept decorator (or the def) is in the file, so
        # inspect.getsource, which Triton reads the function's text with, finds it there.
        kept = [d for d in fn.decorator_list if _is_jit(d) or _decorator_name(d) in _KEPT_DECORATORS]
        if kept == fn.decorator_list:
            return fn
        copy = ast.FunctionDef(**{f: getattr(fn, f) for f in fn._fields})
        copy.decorator_list = kept
        return ast.copy_location(copy, fn)

    def _import(self, stmt, name):
        if isinstance(stmt, ast.Import):
            for a in stmt.names:
                if (a.asname or a.name).split(".")[0] != name:
                    continue
                if a.name.split(".")[0] in _BLOCKED:
                    if not a.asname and _has_host_facts(a.name.split(".")[0]):
                        self.namespace[name] = _host_module(name)
                        continue
                    raise LoaderError(f"{self.path}:{stmt.lineno}: '{name}' is torch, which is not imported here")
                if a.name.split(".")[0] in LIBRARIES:
                    if not a.asname:
                        raise LoaderError(f"{self.path}:{stmt.lineno}: 'import {a.name}' binds the library's "
                                          "top-level package, which is not read from source")
                    self.namespace[name] = self.loader.module_object(a.name)
                    continue
                try:
                    mod = importlib.import_module(a.name)
                except ImportError as e:
                    raise LoaderError(f"{self.path}:{stmt.lineno}: import {a.name} failed: {e}") from None
                self.namespace[name] = mod if a.asname else importlib.import_module(a.name.split(".")[0])
            return
        source = self._import_source(stmt)
        for a in stmt.names:
            if (a.asname or a.name) != name:
                continue
            top = source.split(".")[0]
            if top in _BLOCKED:
                if (source, a.name) in HOST_FACTS:
                    self.namespace[name] = HOST_FACTS[(source, a.name)]()
                    return
                raise LoaderError(f"{self.path}:{stmt.lineno}: '{name}' comes from {source}, which needs torch")
            if top in LIBRARIES:
                if (source, a.name) not in HOST_FACTS and _is_submodule(source, a.name):
                    self.namespace[name] = self.loader.module_object(f"{source}.{a.name}")
                    return
                value = self.loader.module(source).resolve(a.name, stmt)
                if value is None and (source, a.name) not in HOST_FACTS:
                    raise LoaderError(f"{self.path}:{stmt.lineno}: {source} defines no '{a.name}'")
                self.namespace[name] = value
            else:
                try:
                    mod = importlib.import_module(source)
                    self.namespace[name] = getattr(mod, a.name) if hasattr(mod, a.name) else \
                        importlib.import_module(f"{source}.{a.name}")
                except ImportError as e:
                    raise LoaderError(f"{self.path}:{stmt.lineno}: from {source} import {a.name} failed: {e}") from None


class _Scope(_Module):
    """The body of a module-level function that defines kernels inside it (`def _build(): import triton;
    @triton.jit def k(...)`), read like a module: its own imports and definitions first, then the module's."""

    def __init__(self, parent, fn):
        self.loader, self.name, self.path, self.parent = parent.loader, parent.name, parent.path, parent
        self.tree = ast.Module(body=fn.body, type_ignores=[])
        self.namespace = {"__name__": parent.namespace["__name__"], "__file__": parent.path,
                          "__builtins__": builtins}
        self.done, self.active = set(), set()

    def resolve(self, name, where=None):
        if name in self.namespace:
            return self.namespace[name]
        if any(name in _defined_names(s) or (isinstance(s, (ast.If, ast.Try)) and _binds(s, name))
               for s in self.tree.body):
            return super().resolve(name, where)
        value = self.parent.resolve(name, where)
        if value is not None:
            self.namespace[name] = value
        return value


def _statements(body):
    """Statements of a body and of the module-level `if`/`try` blocks in it (`if has_triton(): @triton.jit ...`)."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.If, ast.Try)):
            for block in (stmt.body, stmt.orelse, getattr(stmt, "finalbody", []),
                          *(h.body for h in getattr(stmt, "handlers", []))):
                yield from _statements(block)


def _function(body, dotted):
    """The FunctionDef at `dotted` ("outer.inner": `inner` defined in `outer`'s body) among statements."""
    fn = None
    for part in dotted.split("."):
        fn = next((s for s in _statements(body) if isinstance(s, ast.FunctionDef) and s.name == part), None)
        if fn is None:
            return None
        body = fn.body
    return fn


def _is_submodule(package, name):
    try:
        _module_file(f"{package}.{name}")
        return True
    except LoaderError:
        return False


class _Loader:
    def __init__(self, mutations=None, tag=""):
        self.modules, self.mutations, self.tag = {}, mutations or {}, tag

    def module(self, name):
        if name not in self.modules:
            path = _module_file(name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if name in self.mutations:
                text, path = self.mutations[name](text, path)
            self.modules[name] = _Module(self, name, path, text, self.tag)
        return self.modules[name]


    def module_object(self, name):
        """A library module as a Python module whose attributes are read from source when asked for
        (`tle.program_id`); Triton accepts module globals in kernels."""
        source = self.module(name)
        proxy = types.ModuleType(source.namespace["__name__"])

        def attribute(attr):
            value = source.resolve(attr)
            if value is None:
                raise AttributeError(f"{name} ({source.path}) defines no '{attr}'")
            return value
        proxy.__getattr__ = attribute
        return proxy


_SHARED = _Loader()


def kernel(module, name, mutate=None, inside=None):
    """The @triton.jit function `name` of library module `module` (e.g. "liger_kernel.ops.rms_norm");
    "outer.name" is a kernel defined inside the module's function `outer` (read without calling it).

    mutate: [(old, new), ...] text replacements made inside that function's definition only (or
    inside the module's function `inside`, a helper the kernel calls), each of which must match
    exactly once there: a deliberate bug, compiled from an in-memory copy of the file (registered
    with linecache, so Triton reads the mutated text)."""
    if not mutate:
        return _get(_SHARED, module, name)
    target = inside or name
    # The tag names the mutated copy (module name, file name in the PTX's line info): no newlines or quotes.
    tag = "+mutant-" + hashlib.sha1(repr((inside, list(mutate))).encode()).hexdigest()[:10]

    def apply(text, path):
        mod = ast.parse(text)
        fn = _function(mod.body, target)
        if fn is None:
            raise LoaderError(f"{module}: no function '{target}' to mutate ({path})")
        lines = text.splitlines(keepends=True)
        start = min([fn.lineno] + [d.lineno for d in fn.decorator_list]) - 1
        span = "".join(lines[start:fn.end_lineno])
        for old, new in mutate:
            count = span.count(old)
            if count != 1:
                raise LoaderError(f"{module}.{target}: mutation text {old!r} occurs {count} times in the function "
                                  f"({path}:{start + 1}-{fn.end_lineno}); it must occur once")
            if old.count("\n") != new.count("\n"):
                raise LoaderError(f"{module}.{target}: mutation {old!r} -> {new!r} must keep the line count")
            span = span.replace(old, new)
        text = "".join(lines[:start]) + span + "".join(lines[fn.end_lineno:])
        fake = f"{path}{tag}"
        linecache.cache[fake] = (len(text), None, text.splitlines(keepends=True), fake)
        return text, fake

    return _get(_Loader({module: apply}, tag), module, name)


def _get(loader, module, name):
    mod = loader.module(module)
    *outer, name = name.split(".")  # "outer.inner": a kernel defined inside function `outer`
    for part in outer:
        fn = _function(mod.tree.body, part)
        if fn is None:
            raise LoaderError(f"{module} ({mod.path}) has no function '{part}' around '{name}'")
        mod = _Scope(mod, fn)
    value = mod.resolve(name)
    if value is None:
        jitted = sorted(s.name for s in mod.tree.body if isinstance(s, ast.FunctionDef)
                        and any(_is_jit(d) for d in s.decorator_list))
        raise LoaderError(f"{module} ({mod.path}) has no top-level definition of '{name}'; "
                          f"its @triton.jit functions: {', '.join(jitted) or 'none'}")
    if type(value).__name__ != "JITFunction":
        # A plain def made a kernel by a later `name = triton.jit(name)` (unsloth's style); a wrapper
        # around that (triton.heuristics) is a launch-time decorator, dropped like the others.
        jit = next((s for s in mod.definitions(name) if isinstance(s, ast.Assign) and _is_jit(s.value)), None)
        if jit is not None:
            mod._execute(jit, name)
            value = mod.namespace[name]
    if type(value).__name__ != "JITFunction":
        raise LoaderError(f"{module}.{name} ({mod.path}) is a {type(value).__name__}, not a @triton.jit function")
    return value
