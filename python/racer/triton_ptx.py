"""Compiles one @triton.jit kernel of a Python file to PTX for the C++ side (kernel contracts
bind Triton implementations through it).

  python3 -m racer.triton_ptx --file K.py --kernel NAME --signature '["*fp32", "i32"]' \
      [--constexpr BLOCK=128 ...] [--num-warps 4] [--num-stages 1] [--arch 90]

Prints one JSON object: {"ptx": path in the PTX cache, "entry", "extra_null_params", "block",
"shared"}. On failure prints the reason (Triton's own message included) and exits 3.
"""
import argparse
import importlib.util
import json
import sys

from .errors import RacerError
from .triton_frontend import TritonKernel, is_triton_function


def _value(text):
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m racer.triton_ptx")
    ap.add_argument("--file", required=True)
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--signature", required=True, help="JSON list: the types of the non-constexpr parameters")
    ap.add_argument("--constexpr", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--num-warps", type=int, default=None, help="default 4, or the kernel's constexpr num_warps")
    ap.add_argument("--num-stages", type=int, default=None, help="default 1, or the kernel's constexpr num_stages")
    ap.add_argument("--arch", type=int, default=90)
    a = ap.parse_args(argv)
    try:
        spec = importlib.util.spec_from_file_location("racer_triton_impl", a.file)
        if spec is None:
            raise RacerError(f"{a.file}: not a Python file")
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except FileNotFoundError:
            raise RacerError(f"{a.file}: no such file") from None
        fn = getattr(module, a.kernel, None)
        if not is_triton_function(fn):
            raise RacerError(f"{a.file}: no @triton.jit function named '{a.kernel}'")
        consts = {}
        for c in a.constexpr:
            name, eq, text = c.partition("=")
            if not eq:
                raise RacerError(f"--constexpr {c}: expected NAME=VALUE")
            consts[name] = _value(text)
        kernel = TritonKernel(fn, consts, a.num_warps, a.num_stages, f"sm_{a.arch}", json.loads(a.signature),
                              (a.file, None))
        k = kernel.resolve([], (a.file, None))
    except RacerError as e:
        print(str(e), file=sys.stderr)
        return 3
    print(json.dumps({"ptx": k.ptx, "entry": k.entry, "extra_null_params": k.extra_null_params,
                      "block": k.block[0], "shared": k.shared_bytes}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
