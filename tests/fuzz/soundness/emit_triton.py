"""Triton text of an Impl (telem, tloop), and its launch. Mirrors program.simulate.

Every kernel takes (x, y, z, out, n, S, R, BLOCK: constexpr); compiled, the PTX entry has
x, y, z, out, n, S, R and Triton 3.6's two scratch pointers (passed as { null = true }).
Masked lanes load `other`, a value inside each input's box, so a routine never sees a value
outside its domain even where its result is thrown away.
"""
from expr import triton as tx, f32_literal

PARAMS = "(x, y, z, out, n, S, R, BLOCK: tl.constexpr)"
NEUTRAL = {"sum": "0.0", "max": "-float(\"inf\")", "min": "float(\"inf\")"}
REDUCE = {"sum": "tl.sum", "max": "tl.max", "min": "tl.min"}
NAMES = {"a": "a", "b": "b", "c": "c"}


def comb(red, acc, t):
    if red == "sum": return f"{acc} + {t}"
    return f"{'tl.maximum' if red == 'max' else 'tl.minimum'}({acc}, {t})"


def emit(name, spec, sh, impl):
    """(source text of one @triton.jit function, grid, block)"""
    return (_elem if impl.tmpl == "telem" else _loop)(name, spec, sh, impl)


def _loads(impl, base, ind):
    o = impl.p["other"]
    return "".join(f"{ind}{v} = tl.load({t} + {base}, mask=m, other={f32_literal(o[v])})\n"
                   for v, t in (("a", "x"), ("b", "y"), ("c", "z")))


def _elem(name, spec, sh, impl):
    B = impl.p["BLOCK"]
    live = "n - 1" if impl.bug == "tail" else "n"
    src = (f"@triton.jit\ndef {name}{PARAMS}:\n"
           "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
           f"    m = offs < {live}\n")
    o = impl.p["other"]
    ia = "(offs + 1) % n" if impl.bug == "shift" else "offs"
    src += (f"    a = tl.load(x + {ia}, mask=m, other={f32_literal(o['a'])})\n"
            f"    b = tl.load(y + offs, mask=m, other={f32_literal(o['b'])})\n"
            f"    c = tl.load(z + offs, mask=m, other={f32_literal(o['c'])})\n"
            f"    tl.store(out + offs, {tx(spec.F, NAMES)}, mask=m)\n")
    return src, [-(-sh.n // B)], [32]


def _loop(name, spec, sh, impl):
    B = impl.p["BLOCK"]
    j0 = 1 if impl.bug == "skip_first" else 0
    jn = "n - 1" if impl.bug == "skip_last" else "n"
    row = "(row ^ 1)" if impl.bug == "wrong_row" else "row"
    src = (f"@triton.jit\ndef {name}{PARAMS}:\n    row = tl.program_id(0)\n"
           f"    acc = {NEUTRAL[spec.red]}\n"
           "    for i in range(0, n, BLOCK):\n"
           "        offs = i + tl.arange(0, BLOCK)\n")
    src += f"        m = (offs >= {j0}) & (offs < {jn})\n" if j0 else f"        m = offs < {jn}\n"
    src += _loads(impl, f"{row} * S + offs", "        ")
    t = tx(spec.F, NAMES)
    if impl.bug != "nowhere":
        t = f"tl.where(m, {t}, {NEUTRAL[spec.red]})"
    src += f"        acc = {comb(spec.red, 'acc', f'{REDUCE[spec.red]}({t}, axis=0)')}\n"
    src += f"    tl.store(out + row, {tx(spec.G, {'s': 'acc'})})\n"
    return src, [sh.R], [32]
