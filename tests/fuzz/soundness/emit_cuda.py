"""CUDA C++ text of an Impl, and its launch. Mirrors program.simulate line for line.

Every kernel has the same parameters, so every instance passes the same argument list:
  (const float* x, const float* y, const float* z, float* out, int n, int S, int R)
"""
from expr import cuda as cx

HEAD = ("extern \"C\" __global__ void {name}(const float* __restrict__ x, const float* __restrict__ y, "
        "const float* __restrict__ z, float* __restrict__ out, int n, int S, int R) {{\n")
NEG_INF = "__int_as_float(0xff800000)"
POS_INF = "__int_as_float(0x7f800000)"
INIT = {"sum": "0.0f", "prod": "1.0f", "max": NEG_INF, "min": POS_INF}
NAMES = {"a": "a", "b": "b", "c": "c"}


def comb(red, acc, t):
    if red == "sum": return f"{acc} + ({t})"
    if red == "prod": return f"{acc} * ({t})"
    return f"{'fmaxf' if red == 'max' else 'fminf'}({acc}, {t})"


def _loads(base, j, ind="    "):
    return (f"{ind}float a = x[{base} + {j}], b = y[{base} + {j}], c = z[{base} + {j}];\n"
            f"{ind}(void)a; (void)b; (void)c;\n")


def _bounds(impl):
    j0 = "1" if impl.bug == "skip_first" else "0"
    jn = "n - 1" if impl.bug == "skip_last" else "n"
    return j0, jn


def _rr(impl):
    return "(row ^ 1)" if impl.bug == "wrong_row" else "row"


def _step(spec, acc, ind, branchy):
    """acc op= F; as an if/else on the data when F is a select and the author wrote it so."""
    F = spec.F
    if branchy and F.op == "where":
        l, r, t, f = (cx(a, NAMES) for a in F.args)
        return (f"{ind}if ({l} {F.cmp} {r}) {acc} = {comb(spec.red, acc, t)};\n"
                f"{ind}else {acc} = {comb(spec.red, acc, f)};\n")
    return f"{ind}{acc} = {comb(spec.red, acc, cx(F, NAMES))};\n"


def emit(name, spec, sh, impl):
    """(source text, grid, block)"""
    return {"elem": _elem, "loop": _loop, "warp": _warp, "smem": _smem, "atomic": _atomic}[impl.tmpl](
        name, spec, sh, impl)


def _elem(name, spec, sh, impl):
    B = impl.p["B"]
    live = "n - 1" if impl.bug == "tail" else "n"
    ia = "(i + 1) % n" if impl.bug == "shift" else "i"
    body = (f"    float a = x[{ia}], b = y[i], c = z[i];\n    (void)a; (void)b; (void)c;\n"
            f"    out[i] = {cx(spec.F, NAMES)};\n")
    src = HEAD.format(name=name)
    if impl.p.get("gridstride"):
        grid = max(1, min(2, -(-sh.n // B)))
        src += f"  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < {live}; i += gridDim.x * blockDim.x) {{\n"
    else:
        grid = -(-sh.n // B)
        src += f"  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < {live}) {{\n"
    return src + body + "  }\n}\n", [grid], [B]


def _loop(name, spec, sh, impl):
    T = impl.p["T"]
    j0, jn = _bounds(impl)
    p = impl.p
    src = HEAD.format(name=name)
    src += f"  int row = blockIdx.x * blockDim.x + threadIdx.x;\n  if (row >= R) return;\n"
    src += f"  int base = {_rr(impl)} * S;\n"
    unroll = {"rolled": "#pragma unroll 1\n", "unroll4": "#pragma unroll 4\n"}.get(p.get("unroll"), "")
    if p.get("split2"):  # two accumulators, even and odd cells, combined at the end
        cell = lambda j, acc: ("    {\n" + _loads("base", j, "      ")
                               + _step(spec, acc, "      ", p.get("branchy")) + "    }\n")
        src += f"  float acc = {INIT[spec.red]}, acc1 = {INIT[spec.red]};\n  int j = {j0};\n"
        src += unroll + f"  for (; j + 1 < {jn}; j += 2) {{\n" + cell("j", "acc") + cell("j + 1", "acc1")
        src += f"  }}\n  if (j < {jn}) {{\n" + cell("j", "acc") + "  }\n"
        src += f"  acc = {comb(spec.red, 'acc', 'acc1')};\n"
    else:
        src += f"  float acc = {INIT[spec.red]};\n" + unroll
        if p.get("order") == "bwd":
            src += f"  for (int j = {jn} - 1; j >= {j0}; --j) {{\n"
        else:
            src += f"  for (int j = {j0}; j < {jn}; ++j) {{\n"
        src += _loads("base", "j") + _step(spec, "acc", "    ", p.get("branchy")) + "  }\n"
    src += f"  out[row] = {cx(spec.G, {'s': 'acc'})};\n}}\n"
    return src, [-(-sh.R // T)], [T]


def _warp(name, spec, sh, impl):
    rpb = impl.p["rows_per_block"]
    j0, jn = _bounds(impl)
    src = HEAD.format(name=name)
    src += ("  int lane = threadIdx.x & 31;\n"
            f"  int row = blockIdx.x * {rpb} + (threadIdx.x >> 5);\n"
            "  if (row >= R) return;  // the whole warp leaves together\n"
            f"  int base = {_rr(impl)} * S;\n  float acc = {INIT[spec.red]};\n"
            f"  for (int j = {j0} + lane; j < {jn}; j += 32) {{\n")
    src += _loads("base", "j") + _step(spec, "acc", "    ", impl.p.get("branchy")) + "  }\n"
    fn = "__shfl_xor_sync" if impl.p["shfl"] == "xor" else "__shfl_down_sync"
    for o in impl.p["offsets"]:
        src += f"  acc = {comb(spec.red, 'acc', f'{fn}(0xffffffffu, acc, {o})')};\n"
    src += f"  if (lane == 0) out[row] = {cx(spec.G, {'s': 'acc'})};\n}}\n"
    return src, [-(-sh.R // rpb)], [32 * rpb]


def _smem(name, spec, sh, impl):
    BT = impl.p["BT"]
    j0, jn = _bounds(impl)
    src = HEAD.format(name=name)
    src += (f"  __shared__ float sh[{BT}];\n  int t = threadIdx.x, row = blockIdx.x;\n"
            f"  int base = {_rr(impl)} * S;\n  float acc = {INIT[spec.red]};\n"
            f"  for (int j = {j0} + t; j < {jn}; j += {BT}) {{\n")
    src += _loads("base", "j") + _step(spec, "acc", "    ", impl.p.get("branchy")) + "  }\n"
    src += ("  sh[t] = acc;\n  __syncthreads();\n"
            f"  for (int st = {impl.p['start']}; st > {impl.p['stop']}; st >>= 1) {{\n"
            f"    if (t < st) sh[t] = {comb(spec.red, 'sh[t]', 'sh[t + st]')};\n"
            "    __syncthreads();\n  }\n")
    src += f"  if (t == 0) out[row] = {cx(spec.G, {'s': 'sh[0]'})};\n}}\n"
    return src, [sh.R], [BT]


def _atomic(name, spec, sh, impl):
    B = impl.p["B"]
    j0, jn = _bounds(impl)
    src = HEAD.format(name=name)
    src += ("  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i >= R * n) return;\n"
            "  int row = i / n, j = i % n;\n"
            f"  if (j < {j0} || j >= {jn}) return;\n  int base = {_rr(impl)} * S;\n")
    src += _loads("base", "j", "  ") + f"  atomicAdd(&out[row], {cx(spec.F, NAMES)});\n}}\n"
    return src, [-(-(sh.R * sh.n) // B)], [B]
