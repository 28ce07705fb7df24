#!/usr/bin/env python3
"""Writes the scale benchmark's instances (issue 20) into a directory: one TOML per row of the
issue's table that bench/scale/kernels.cu covers, at the shapes given by name, e.g.
  python3 bench/scale/gen.py /tmp/scale vector_add:1000000 tiled64:64x64x512 tiled16:128x128x128
Each instance checks a kernel against its naive counterpart, all inputs in [-1, 1]."""
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent


def vector_add(n):
    n = int(n)
    grid_a = (n + 255) // 256
    grid_b = min(grid_a, 1024)
    return f"""name = "vector_add_{n}"
about = "c = a + b over {n} elements: one element per thread against a grid-stride loop"
outputs = ["c"]

[tensors]
a = {{ shape = [{n}], dtype = "f32", init = "input", range = [-1, 1] }}
b = {{ shape = [{n}], dtype = "f32", init = "input", range = [-1, 1] }}
c = {{ shape = [{n}], dtype = "f32", init = "empty" }}

[[a.launch]]
ptx   = "{HERE}/kernels.sm90.ptx"
entry = "vector_add"
grid  = [{grid_a}]
block = [256]
args  = [{{ read = "a" }}, {{ read = "b" }}, {{ write = "c" }}, {n}]

[[b.launch]]
ptx   = "{HERE}/kernels.sm90.ptx"
entry = "vector_add_strided"
grid  = [{grid_b}]
block = [256]
args  = [{{ read = "a" }}, {{ read = "b" }}, {{ write = "c" }}, {n}]
"""


def matmul(entry, tile, shape):
    m, n, k = (int(v) for v in shape.split("x"))
    return f"""name = "{entry}_{m}x{n}x{k}"
about = "C = A B, {m} x {n} x {k}: {entry} against one thread per cell"
outputs = ["C"]

[tensors]
A = {{ shape = [{m}, {k}], dtype = "f32", init = "input", range = [-1, 1] }}
B = {{ shape = [{k}, {n}], dtype = "f32", init = "input", range = [-1, 1] }}
C = {{ shape = [{m}, {n}], dtype = "f32", init = "empty" }}

[[a.launch]]
ptx   = "{HERE}/kernels.sm90.ptx"
entry = "{entry}"
grid  = [{n // tile}, {m // tile}]
block = [16, 16]
args  = [{{ read = "A" }}, {{ read = "B" }}, {{ write = "C" }}, {m}, {n}, {k}]

[[b.launch]]
ptx   = "{HERE}/kernels.sm90.ptx"
entry = "matmul_naive"
grid  = [{(n + 15) // 16}, {(m + 15) // 16}]
block = [16, 16]
args  = [{{ read = "A" }}, {{ read = "B" }}, {{ write = "C" }}, {m}, {n}, {k}]
"""


CORPUS_PTX = HERE.parent.parent.parent / "shared" / "corpus" / "ptx"


def triton_dot(ptx, tile, warps, shared_bytes, shape):
    m, n, k = (int(v) for v in shape.split("x"))
    stem = ptx.split(".")[0]
    return f"""name = "triton_{stem}_{m}x{n}x{k}"
about = "C = A B in f16 with f32 accumulation, {m} x {n} x {k}: Triton tl.dot ({ptx}, {tile} x {tile} tiles) against one thread per cell"
outputs = ["C"]

[tensors]
A = {{ shape = [{m}, {k}], dtype = "f16", init = "input" }}
B = {{ shape = [{k}, {n}], dtype = "f16", init = "input" }}
C = {{ shape = [{m}, {n}], dtype = "f32", init = "empty" }}

[[a.launch]]
ptx   = "{CORPUS_PTX}/triton/{ptx}"
entry = "matmul"
grid  = [{m // tile}, {n // tile}]
block = [{32 * warps}]
shared_bytes = {shared_bytes}
args  = [{{ read = "A" }}, {{ read = "B" }}, {{ write = "C" }}, {m}, {n}, {k}, {{ null = true }}, {{ null = true }}]

[[b.launch]]
ptx   = "{CORPUS_PTX}/cuda/matmul.sm90.ptx"
entry = "matmul_half_ref"
grid  = [{(n + 15) // 16}, {(m + 15) // 16}]
block = [16, 16]
args  = [{{ read = "A" }}, {{ read = "B" }}, {{ write = "C" }}, {m}, {n}, {k}]
"""


MAKERS = {
    "vector_add": vector_add,
    "tiled16": lambda s: matmul("matmul_tiled16", 16, s),
    "tiled64": lambda s: matmul("matmul_tiled64", 64, s),
    "triton_dot": lambda s: triton_dot("matmul.sm80.ptx", 16, 1, 1024, s),
    "triton_dot_sm90": lambda s: triton_dot("matmul.sm90.ptx", 16, 1, 1024, s),
    "triton_pipelined": lambda s: triton_dot("matmul_pipelined.sm80.ptx", 64, 4, 16384, s),
}


def main():
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for spec in sys.argv[2:]:
        kind, shape = spec.split(":")
        text = MAKERS[kind](shape)
        name = text.split('"')[1]
        (out / f"{name}.toml").write_text(text)
        print(out / f"{name}.toml")


if __name__ == "__main__":
    main()
