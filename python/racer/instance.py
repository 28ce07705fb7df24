"""Checking instances written in Python: a subclass of racer.Instance, or racer.case(...)."""
import inspect
import json
import os
import re

from . import _native
from .errors import fail, user_location
from .launch import Launch, program
from .tensors import Tensor


class Instance:
    """Subclass with setup() declaring the tensors (as attributes, or a returned dict), and
    program_a()/program_b() making launches and returning the outputs to compare (a dict name ->
    tensor, a list of tensors, or one tensor). Check it with racer.check(MyInstance)."""

    name = None   # default: the class name in snake_case
    about = ""

    def setup(self):
        raise NotImplementedError

    def program_a(self):
        raise NotImplementedError

    def program_b(self):
        raise NotImplementedError


def _snake(name):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _outputs(result, which, names, loc):
    if result is None:
        fail(f"program_{which} returned nothing; return the outputs to compare, e.g. {{'out': self.out}}", loc)
    if isinstance(result, Tensor):
        result = [result]
    if isinstance(result, dict):
        for key, t in result.items():
            if not isinstance(t, Tensor):
                fail(f"program_{which} returns {key!r}: {t!r}, which is not a tensor", loc)
            if names.get(id(t)) != key:
                fail(f"program_{which} returns tensor '{names.get(id(t), '?')}' under the name '{key}'; "
                     "an output keeps its tensor's name", loc)
        result = list(result.values())
    out = []
    for t in result:
        if not isinstance(t, Tensor):
            fail(f"program_{which} returns {t!r}, which is not a tensor", loc)
        if id(t) not in names:
            fail(f"program_{which} returns a tensor that setup did not declare", loc)
        out.append(names[id(t)])
    return out


class Case:
    """An instance ready to check: named tensors, the launches of programs a and b, the outputs."""

    def __init__(self, name, tensors, a, b, outputs, about="", source=None, loc=None, reference=None):
        self.loc = loc or user_location()
        # Program b given as a reference function (racer.reference): traced, not launched.
        if reference is None and callable(b) and not isinstance(b, (list, tuple)):
            reference, b = b, []
        if reference is not None and not callable(reference):
            fail(f"reference must be a function over arrays, not {type(reference).__name__}", self.loc)
        if reference is not None and b:
            fail("program b is either launches or a reference function, not both", self.loc)
        self.reference = reference
        self.name, self.about, self.source = name, about, source or self.loc[0]
        if not re.fullmatch(r"[a-z0-9_]+", name or ""):
            fail(f"instance name {name!r} must be made of a-z, 0-9 and _", self.loc)
        self.tensors = self._named(tensors)
        self.names = {id(t): n for n, t in self.tensors.items()}
        self.a, self.b = list(a), list(b)
        for which, launches in (("a", self.a), ("b", self.b)):
            if which == "b" and self.reference is not None:
                continue
            if not launches:
                fail(f"program {which} has no launches", self.loc)
            for l in launches:
                if not isinstance(l, Launch):
                    fail(f"program {which} holds {l!r}, which is not a racer.launch(...)", self.loc)
                for t in l.tensors():
                    if id(t) not in self.names:
                        fail(f"a launch of program {which} uses a tensor that is not declared "
                             f"(declared: {', '.join(self.tensors)})", l.loc)
        self.tensor_maps = self._named_maps()
        self.outputs = []
        for o in outputs:
            n = self.names.get(id(o)) if isinstance(o, Tensor) else o
            if n not in self.tensors:
                fail(f"output {o!r} is not a declared tensor (declared: {', '.join(self.tensors)})", self.loc)
            if n in self.outputs:
                fail(f"output '{n}' is listed twice", self.loc)
            self.outputs.append(n)
        if not self.outputs:
            fail("an instance must compare at least one output", self.loc)

    def _named(self, tensors):
        if not isinstance(tensors, dict):
            tensors = {t.name: t for t in tensors}
        named = {}
        for n, t in tensors.items():
            if not isinstance(t, Tensor):
                continue
            if t.name is not None and t.name != n and n is not None:
                fail(f"tensor '{t.name}' is also declared as '{n}'; a tensor has one name", t.loc)
            if n is None:
                fail("a tensor has no name: pass tensors as a dict, or give name=", t.loc)
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", n):
                fail(f"tensor name '{n}' must be letters, digits and _, not starting with a digit", t.loc)
            t.name = n
            named[n] = t
        if not named:
            fail("the instance declares no tensors", self.loc)
        return named

    def _named_maps(self):
        """The tensor maps the launches pass, by name: the one given, else tm_<tensor> (made unique)."""
        maps = {}
        for l in self.a + self.b:
            for m in l.tensor_maps():
                if id(m) in self.names:
                    continue
                name = m.name or f"tm_{self.names[id(m.tensor)]}"
                if name in maps or name in self.tensors:
                    if m.name:
                        fail(f"tensor map name '{name}' is used twice (by a tensor or another map)", m.loc)
                    k = 2
                    while f"{name}_{k}" in maps or f"{name}_{k}" in self.tensors:
                        k += 1
                    name = f"{name}_{k}"
                maps[name] = m
                self.names[id(m)] = name
        return maps

    def _line(self, loc):
        return loc[1] if loc and loc[0] and self.source and os.path.realpath(loc[0]) == os.path.realpath(self.source) else None

    def description(self):
        return {"name": self.name, "about": self.about, "source": self.source or "", "outputs": self.outputs,
                "tensors": [t.describe(self._line(t.loc)) for t in self.tensors.values()],
                "tensor_maps": [m.describe(self.names, self._line(m.loc)) for m in self.tensor_maps.values()],
                "a": [l.describe(self.names, self._line(l.loc)) for l in self.a],
                "b": [l.describe(self.names, self._line(l.loc)) for l in self.b],
                **self._reference_description()}

    def _reference_description(self):
        if self.reference is None:
            return {}
        if not hasattr(self, "_traced"):
            from .reference import trace
            tensors = [t.describe(None) for t in self.tensors.values()]
            self._traced = trace(self.reference, tensors, self.outputs)
        return {"reference": self._traced}

    def check(self, time_limit=60, memory_limit_mb=4096, self_check_points=2, all_cells=False, hazard_points=None,
              progress=None):
        from .result import Result
        from .testing import hazard_points_arg, progress_arg
        desc = self.description()
        raw = _native.call(_native.core().check, json.dumps(desc), float(time_limit), int(memory_limit_mb),
                           int(self_check_points), all_cells=bool(all_cells), hazard_points=hazard_points_arg(hazard_points),
                           progress=progress_arg(progress))
        return Result(self, desc, raw)


def from_class(cls):
    """Builds a Case from a racer.Instance subclass (or an object of one)."""
    obj = cls() if isinstance(cls, type) else cls
    klass = type(obj)
    try:
        source = inspect.getsourcefile(klass)
        line = inspect.getsourcelines(klass)[1]
    except (TypeError, OSError):
        source, line = None, None
    loc = (source, line)
    declared = obj.setup()
    if declared is None:
        declared = {k: v for k, v in vars(obj).items() if isinstance(v, Tensor)}
    elif not isinstance(declared, dict):
        fail("setup must return a dict of name -> tensor, or assign the tensors to self", loc)
    names = {}
    for n, t in declared.items():
        if isinstance(t, Tensor):
            names[id(t)] = t.name if t.name is not None else n
    progs, outs = {}, {}
    # program_b taking parameters (tensors by name) is a reference function, as is a method
    # named `reference`: traced over the tensors rather than launched.
    reference = getattr(obj, "reference", None)
    if not callable(reference):
        reference = None  # a data attribute of that name is the instance's own business
    if reference is None and _takes_parameters(obj.program_b):
        reference = obj.program_b
    for which in "ab":
        if which == "b" and reference is not None:
            progs["b"], outs["b"] = [], outs["a"]
            continue
        with program() as p:
            ret = getattr(obj, f"program_{which}")()
        progs[which] = p.launches
        outs[which] = _outputs(ret, which, names, loc)
    if outs["a"] != outs["b"]:
        fail(f"program_a returns outputs {outs['a']} but program_b returns {outs['b']}; both must return the same", loc)
    name = klass.name or _snake(klass.__name__)
    about = klass.about or (inspect.getdoc(klass) or "").split("\n")[0]
    return Case(name, declared, progs["a"], progs["b"], outs["a"], about=about, source=source, loc=loc,
                reference=reference)


def _takes_parameters(method):
    try:
        return len(inspect.signature(method).parameters) > 0
    except (TypeError, ValueError):
        return False


def case(tensors, program_a, program_b=None, outputs=None, name=None, about="", reference=None):
    """An instance from plain values: tensors as a dict name -> tensor, each program a list of
    launches (or a racer.program block), outputs as names or tensors. Program b may instead be
    a reference function over arrays (program_b=fn or reference=fn, see racer.reference)."""
    loc = user_location()
    if name is None:
        name = "case_" + os.path.splitext(os.path.basename(loc[0] or "python"))[0].lower()
        name = re.sub(r"[^a-z0-9_]", "_", name)
    if outputs is None:
        fail("racer.case needs outputs=", loc)
    return Case(name, tensors, program_a, program_b or [], outputs, about=about, loc=loc, reference=reference)


def check(instance=None, *, tensors=None, program_a=None, program_b=None, outputs=None, name=None, about="",
          reference=None, time_limit=60, memory_limit_mb=4096, self_check_points=2, all_cells=False, hazard_points=None,
          progress=None):
    """Checks an instance: a racer.Instance subclass (or object), a racer.case(...), or the same
    as keywords (program b as launches, or reference= a function over arrays). Returns a
    racer.Result. self_check_points: points at which the symbolic run is checked against the
    bit-exact emulation (0 skips the self-check). all_cells: decide every cell of an output after one
    is refuted (by default one witness per output is enough; the rest are reported as skipped).
    hazard_points: inputs at which the float hazard search runs both programs on the emulator
    (None: the default, 3 and fewer for big kernels; 0: no search; N: N inputs whatever the
    kernel's size, 24 being `racer check --float-hazards`); found in result.float_hazards.
    progress: a callable given, as the check goes (at most ten times a second), a dict with phase
    ("loading", "executing", "self-check", "deciding", "replaying"), program ("a"/"b" while
    executing, else None), thread_instructions, cells_decided and cells_total; an exception it
    raises is raised again when the check returns."""
    if instance is None:
        loc = user_location()
        if tensors is None or program_a is None or (program_b is None and reference is None) or outputs is None:
            fail("racer.check needs an instance, or tensors=, program_a=, program_b= (or reference=) and outputs=", loc)
        if name is None:
            name = re.sub(r"[^a-z0-9_]", "_", "case_" + os.path.splitext(os.path.basename(loc[0] or "python"))[0].lower())
        instance = Case(name, tensors, program_a, program_b or [], outputs, about=about, loc=loc, reference=reference)
    elif isinstance(instance, type) and issubclass(instance, Instance) or isinstance(instance, Instance):
        instance = from_class(instance)
    elif not isinstance(instance, Case):
        fail(f"racer.check takes a racer.Instance subclass or a racer.case(...), not {type(instance).__name__}")
    return instance.check(time_limit, memory_limit_mb, self_check_points, all_cells, hazard_points, progress)
