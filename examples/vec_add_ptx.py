"""Kernels given as PTX, and the plain-call form of the API (no class).

The same vector add twice: one thread per element (8 CTAs of 128 threads) against a grid-stride
loop with half the threads. Racer proves them equivalent for every input.

    racer check examples/vec_add_ptx.py
"""
import os

import racer

HERE = os.path.dirname(os.path.abspath(__file__))
PTX = os.path.join(HERE, "vec_add.ptx")

x = racer.input((1000,), "f32")
y = racer.input((1000,), "f32")
out = racer.empty((1000,), "f32")

one_per_thread = racer.ptx(PTX, "vec_add")
grid_stride = racer.ptx(PTX, "vec_add_grid_stride")

vec_add = racer.case(
    name="vec_add_ptx",
    tensors={"x": x, "y": y, "out": out},
    program_a=[racer.launch(one_per_thread, grid=8, block=128, args=[racer.read(x), racer.read(y), racer.write(out), 1000])],
    program_b=[racer.launch(grid_stride, grid=2, block=256, args=[racer.read(x), racer.read(y), racer.write(out), 1000])],
    outputs=[out],
)

if __name__ == "__main__":
    result = racer.check(vec_add)
    print(result.report())
