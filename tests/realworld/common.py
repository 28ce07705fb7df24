"""What every real-world instance shares: the library loader, the references, and the expected verdict.

An instance is a racer.Instance subclass of Row (or Mutation) in a file of instances/. program_a
launches the library kernel, read from the installed package by tests/realworld/library.py;
program_b launches the naive reference of reference/. `expect` is the verdict the instance must get.
"""
import os

import racer

from library import kernel  # noqa: F401  (re-exported for the instance files)

HERE = os.path.dirname(os.path.abspath(__file__))


def ref(file, entry):
    """A reference kernel: an entry of a CUDA file of reference/ (lowered by nvcc, cached by Racer)."""
    return racer.cuda(os.path.join(HERE, "reference", file), entry)


class Row(racer.Instance):
    """A library kernel against its reference: must be proved equivalent."""
    abstract = True
    expect = "equivalent"


class Mutation(racer.Instance):
    """A library kernel with a deliberate bug (library.kernel(..., mutate=...)): must be refuted."""
    abstract = True
    expect = "inequivalent"


def cdiv(a, b):
    """triton.cdiv, as the libraries' host code computes grids."""
    return (a + b - 1) // b


def next_power_of_2(x):
    """triton.next_power_of_2, as the libraries' host code picks block sizes."""
    p = 1
    while p < x:
        p *= 2
    return p
