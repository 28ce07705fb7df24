#!/usr/bin/env python3
"""Writes the scale benchmark's instances (issue 20) into a directory: one TOML per row of the
issue's table that bench/scale/kernels.cu covers, at the shapes given by name, e.g.
  python3 bench/scale/gen.py /tmp/scale vector_add:1000000 tiled64:64x64x512 tiled16:128x128x128
(attention:SQxSKVxD and cross_entropy:ROWSxCOLS compile Triton kernels into the directory).
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


TC_KERNELS = HERE.parent.parent / "tests" / "cases" / "kernels" / "tc"
SHARED_TRITON = HERE.parent.parent.parent / "shared" / "corpus" / "triton"


def compile_triton(module_dir, module, kernel, sig, consts, arch, warps, ptx):
    """Compiles `kernel` of the Triton source `module` (in module_dir) without a GPU into the
    file ptx; gives the compiled kernel (its metadata has the shared memory it needs)."""
    import importlib
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    sys.path.insert(0, str(module_dir))
    fn = getattr(importlib.import_module(module), kernel)
    k = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=consts),
                       target=GPUTarget("cuda", arch, 32), options={"num_warps": warps, "num_stages": 1})
    ptx.write_text(k.asm["ptx"])
    return k


def attention(shape, out):
    """Triton flash attention (tests/cases/kernels/tc/tc_triton.py's attn_fwd, sm_80 mma.sync,
    compiled here without a GPU) over SQ queries and SKV keys of head dim D, against one thread
    per query row. BLOCK_M 16 with one warp where SQ is 16, else 32 with four; BLOCK_N 32."""
    sq, skv, d = (int(v) for v in shape.split("x"))
    block_m, warps, block_n = (16, 1, 32) if sq <= 16 else (32, 4, 32)
    sig = {"Q": "*fp16", "Kp": "*fp16", "V": "*fp16", "Out": "*fp32", "SEQ_KV": "constexpr", "D": "constexpr",
           "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "SCALE": "constexpr", "RESCALE": "constexpr"}
    consts = {"SEQ_KV": skv, "D": d, "BLOCK_M": block_m, "BLOCK_N": block_n, "SCALE": 1.0 / d ** 0.5, "RESCALE": True}
    name = f"attention_{sq}x{skv}x{d}"
    ptx = out / f"{name}.sm80.ptx"
    k = compile_triton(TC_KERNELS, "tc_triton", "attn_fwd", sig, consts, 80, warps, ptx)
    return f"""name = "{name}"
about = "flash-attention forward (Triton sm_80 mma.sync, BLOCK_M {block_m}, BLOCK_N {block_n}, {warps} warps), {sq} queries x {skv} keys, head dim {d}, against naive attention (one thread per query row)"
outputs = ["O"]

[tensors]
Q = {{ shape = [{sq}, {d}], dtype = "f16", init = "input" }}
K = {{ shape = [{skv}, {d}], dtype = "f16", init = "input" }}
V = {{ shape = [{skv}, {d}], dtype = "f16", init = "input" }}
O = {{ shape = [{sq}, {d}], dtype = "f32", init = "empty" }}

[[a.launch]]
ptx   = "{ptx}"
entry = "attn_fwd"
shared_bytes = {k.metadata.shared}
grid  = [{sq // block_m}]
block = [{32 * warps}]
args  = [{{ read = "Q" }}, {{ read = "K" }}, {{ read = "V" }}, {{ write = "O" }}, {{ null = true }}, {{ null = true }}]

[[b.launch]]
ptx   = "{HERE}/kernels.sm90.ptx"
entry = "attention_naive"
grid  = [{(sq + 63) // 64}]
block = [{min(sq, 64)}]
args  = [{{ read = "Q" }}, {{ read = "K" }}, {{ read = "V" }}, {{ write = "O" }}, {sq}, {skv}, {d}]
"""


def cross_entropy(shape, out):
    """The shared corpus's Triton cross-entropy (one program per row, the row in one block of
    BLOCK = ncols lanes, 4 warps; compiled here) against one thread per row, labels fixed to
    0, ncols - 1, ncols / 2, ... with the first row's ignored where there are more than two."""
    rows, cols = (int(v) for v in shape.split("x"))
    sig = {"logits": "*fp32", "labels": "*i32", "loss": "*fp32", "ncols": "i32", "ignore_index": "i32", "BLOCK": "constexpr"}
    name = f"cross_entropy_{rows}x{cols}"
    ptx = out / f"{name}.sm90.ptx"
    k = compile_triton(SHARED_TRITON, "kernels", "cross_entropy", sig, {"BLOCK": cols}, 90, 4, ptx)
    labels = [[0, cols - 1, cols // 2][r % 3] for r in range(rows)]
    if rows > 2:
        labels[0] = -100
    return f"""name = "{name}"
about = "cross-entropy over {rows} rows x {cols} classes: Triton (one block per row, 4 warps) against one thread per row"
outputs = ["loss"]

[tensors]
logits = {{ shape = [{rows}, {cols}], dtype = "f32", init = "input", range = [-4, 4] }}
labels = {{ shape = [{rows}], dtype = "i32", init = {{ values = {labels} }} }}
loss = {{ shape = [{rows}], dtype = "f32", init = "empty" }}

[[a.launch]]
ptx   = "{ptx}"
entry = "cross_entropy"
shared_bytes = {k.metadata.shared}
grid  = [{rows}]
block = [128]
args  = [{{ read = "logits" }}, {{ read = "labels" }}, {{ write = "loss" }}, {cols}, -100, {{ null = true }}, {{ null = true }}]

[[b.launch]]
ptx   = "{HERE}/kernels.sm90.ptx"
entry = "cross_entropy_naive"
grid  = [1]
block = [{rows}]
args  = [{{ read = "logits" }}, {{ read = "labels" }}, {{ write = "loss" }}, {rows}, {cols}, -100]
"""


MAKERS = {
    "vector_add": vector_add,
    "tiled16": lambda s: matmul("matmul_tiled16", 16, s),
    "tiled64": lambda s: matmul("matmul_tiled64", 64, s),
    "tiled32": lambda s: matmul("matmul_tiled32", 32, s),
    "triton_dot": lambda s: triton_dot("matmul.sm80.ptx", 16, 1, 1024, s),
    "triton_dot_sm90": lambda s: triton_dot("matmul.sm90.ptx", 16, 1, 1024, s),
    "triton_pipelined": lambda s: triton_dot("matmul_pipelined.sm80.ptx", 64, 4, 16384, s),
}


def main():
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for spec in sys.argv[2:]:
        kind, shape = spec.split(":")
        compiled = {"attention": attention, "cross_entropy": cross_entropy}
        text = compiled[kind](shape, out) if kind in compiled else MAKERS[kind](shape)
        name = text.split('"')[1]
        (out / f"{name}.toml").write_text(text)
        print(out / f"{name}.toml")


if __name__ == "__main__":
    main()
