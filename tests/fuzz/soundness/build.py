"""Compile a batch of pairs and write one checking instance per pair.

nvcc starts slowly, so all CUDA kernels of a batch go into one .cu and one nvcc run
(`nvcc -ptx -arch=sm_90 -O3 -lineinfo`, the flags of tests/cases); the module is then split into
one small PTX file per pair (the pair's two entries plus the module-level declarations they use),
so that each instance, and a regression copied from it, stands alone. Triton kernels of a batch
are written to one .py and compiled in-process without a GPU (Triton 3.6, sm_90, 1 warp), one
PTX module per kernel, as tests/cases/kernels/build_triton_ptx.py does.
"""
import importlib.util
import os
import re
import shutil
import subprocess

import emit_cuda
import emit_triton

NVCC = os.environ.get("NVCC", shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
TRITON_HEAD = ("import triton\nimport triton.language as tl\n"
               "from triton.language.extra import libdevice\n\n")


def kernel_name(pair, side):
    return f"{'k' if getattr(pair, side).impl.lang == 'cuda' else 't'}{pair.idx:06d}{side}"


def emit_side(pair, side):
    s = getattr(pair, side)
    mod = emit_cuda if s.impl.lang == "cuda" else emit_triton
    return mod.emit(kernel_name(pair, side), s.spec, pair.shape, s.impl)


# ---------------------------------------------------------------- PTX splitting

def split_ptx(text):
    """(module-level lines, {entry name: its text}) of an nvcc PTX module."""
    top, funcs = [], {}
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        m = re.match(r"\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+(\w+)", lines[i])
        if not m:
            top.append(lines[i])
            i += 1
            continue
        start, depth, seen = i, 0, False
        while i < len(lines):
            depth += lines[i].count("{") - lines[i].count("}")
            seen = seen or "{" in lines[i]
            i += 1
            if seen and depth == 0:
                break
        funcs[m.group(1)] = "".join(lines[start:i])
    return top, funcs


def module_for(top, bodies):
    """A module with the given entries and only the module-level declarations they name."""
    used = "".join(bodies)
    keep = []
    for line in top:
        m = re.match(r"\s*(?:\.extern\s+|\.visible\s+)?\.(?:shared|global|const)\b.*?\b([A-Za-z_$][\w$]*)\s*(?:\[|;|=)", line)
        if m and m.group(1) not in used:
            continue
        keep.append(line)
    return "".join(keep) + "\n" + "\n".join(bodies)


# ---------------------------------------------------------------- instances

def toml_instance(pair, files, launches):
    sh = pair.shape
    elem = pair.a.spec.kind == "elem"
    shape = f"[{sh.n}]" if elem else f"[{sh.R}, {sh.S}]"
    oshape = f"[{sh.n}]" if elem else f"[{sh.R}]"
    about = (f"soundness fuzzer seed {pair.seed} pair {pair.idx}: {pair.label}; "
             f"A {pair.a.impl.text()} {pair.a.spec.text()}; B {pair.b.impl.text()} {pair.b.spec.text()}; "
             f"how {','.join(pair.how) or 'kernel shape only'}")
    lines = [f'name = "{pair.name}"', f"about = {toml_str(about)}", 'outputs = ["out"]', "", "[tensors]"]
    for v, t in (("a", "x"), ("b", "y"), ("c", "z")):
        lo, hi = sh.box[v]
        lines.append(f'{t} = {{ shape = {shape}, dtype = "f32", init = "input", range = [{lo!r}, {hi!r}] }}')
    lines.append(f'out = {{ shape = {oshape}, dtype = "f32", init = "zeros" }}')
    for side in ("a", "b"):
        s = getattr(pair, side)
        grid, block = launches[side]
        acc = "readwrite" if s.impl.tmpl == "atomic" else "write"
        args = f'{{ read = "x" }}, {{ read = "y" }}, {{ read = "z" }}, {{ {acc} = "out" }}, {sh.n}, {sh.S}, {sh.R}'
        if s.impl.lang == "triton":
            args += ", { null = true }, { null = true }"
        lines += ["", f"[[{side}.launch]]", f'ptx = "{files[side]}"', f'entry = "{kernel_name(pair, side)}"',
                  f"grid = {grid}", f"block = {block}", f"args = [{args}]"]
    lines += ["", "[expect]", f'verdict = "{pair.label}"', "diagnostics = []", f'category = "{pair.category}"', ""]
    return "\n".join(lines)


def toml_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ---------------------------------------------------------------- the batch

def build_batch(pairs, bdir):
    """Compiles the batch's kernels into bdir and writes p<idx>.toml per pair.
    Returns {idx: error text} for pairs that could not be built (nvcc or Triton refused them)."""
    os.makedirs(bdir, exist_ok=True)
    errors = {}
    cuda_src, tri_src, launches = {}, {}, {}
    for p in pairs:
        launches[p.idx] = {}
        for side in ("a", "b"):
            src, grid, block = emit_side(p, side)
            launches[p.idx][side] = (grid, block)
            (cuda_src if getattr(p, side).impl.lang == "cuda" else tri_src)[(p.idx, side)] = src
    ptx_of = {}
    if cuda_src:
        ptx_of.update(_compile_cuda(cuda_src, bdir, errors))
    if tri_src:
        blocks = {(p.idx, s): getattr(p, s).impl.p["BLOCK"] for p in pairs for s in ("a", "b")
                  if getattr(p, s).impl.lang == "triton"}
        ptx_of.update(_compile_triton(tri_src, blocks, bdir, errors))
    top, funcs = split_ptx(open(os.path.join(bdir, "batch.ptx")).read()) if cuda_src and os.path.exists(
        os.path.join(bdir, "batch.ptx")) else ([], {})
    for p in pairs:
        if p.idx in errors:
            continue
        files = {}
        cuda_bodies = [funcs[kernel_name(p, s)] for s in ("a", "b")
                       if getattr(p, s).impl.lang == "cuda" and kernel_name(p, s) in funcs]
        for side in ("a", "b"):
            if getattr(p, side).impl.lang == "cuda":
                files[side] = f"p{p.idx:06d}.cu.ptx"
            else:
                files[side] = f"p{p.idx:06d}.{side}.tri.ptx"
        if cuda_bodies:
            with open(os.path.join(bdir, f"p{p.idx:06d}.cu.ptx"), "w") as f:
                f.write(module_for(top, cuda_bodies))
        for side in ("a", "b"):
            if (p.idx, side) in ptx_of:
                with open(os.path.join(bdir, files[side]), "w") as f:
                    f.write(ptx_of[(p.idx, side)])
        with open(os.path.join(bdir, f"p{p.idx:06d}.toml"), "w") as f:
            f.write(toml_instance(p, files, launches[p.idx]))
    return errors


def _nvcc(cu, ptx):
    r = subprocess.run([NVCC, "-ptx", "-arch=sm_90", "-O3", "-lineinfo", cu, "-o", ptx],
                       capture_output=True, text=True)
    return r.returncode == 0, r.stderr


def _compile_cuda(srcs, bdir, errors):
    cu = os.path.join(bdir, "batch.cu")
    with open(cu, "w") as f:
        f.write("// generated by tests/fuzz/soundness (one batch of pairs)\n\n" + "\n".join(srcs.values()))
    ok, err = _nvcc(cu, os.path.join(bdir, "batch.ptx"))
    if ok:
        return {}
    # isolate the pair that nvcc refuses, keep the rest
    good = {}
    for key, src in srcs.items():
        one = os.path.join(bdir, f"one_{key[0]}{key[1]}.cu")
        with open(one, "w") as f:
            f.write(src)
        ok1, err1 = _nvcc(one, one + ".ptx")
        if ok1:
            good[key] = src
        else:
            errors[key[0]] = "nvcc: " + err1.strip().splitlines()[0] if err1.strip() else "nvcc failed"
    with open(cu, "w") as f:
        f.write("\n".join(s for k, s in good.items() if k[0] not in errors))
    ok, err = _nvcc(cu, os.path.join(bdir, "batch.ptx"))
    if not ok:
        for key in srcs:
            errors.setdefault(key[0], "nvcc: " + err.strip()[:200])
    return {}


def _compile_triton(srcs, blocks, bdir, errors):
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    path = os.path.join(bdir, "batch_triton.py")
    with open(path, "w") as f:
        f.write(TRITON_HEAD + "\n\n".join(srcs.values()))
    spec = importlib.util.spec_from_file_location(f"fz_tri_{abs(hash(bdir))}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    sig = {"x": "*fp32", "y": "*fp32", "z": "*fp32", "out": "*fp32", "n": "i32", "S": "i32", "R": "i32"}
    out = {}
    for (idx, side), src in srcs.items():
        name = re.search(r"def (\w+)\(", src).group(1)
        try:
            fn = getattr(mod, name)
            B = blocks[(idx, side)]
            k = triton.compile(ASTSource(fn=fn, signature=sig, constexprs={"BLOCK": B}),
                               target=GPUTarget("cuda", 90, 32), options={"num_warps": 1, "num_stages": 1})
            ptx = k.asm["ptx"].replace('"' + os.path.abspath(bdir) + "/", '"')
            out[(idx, side)] = ptx
        except Exception as e:  # noqa: BLE001 - any compile failure drops just this pair
            errors[idx] = f"triton: {type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"
    return out

