"""Racer from Python: checking whether two GPU kernels compute the same function.

    import racer

    class VecAdd(racer.Instance):
        def setup(self):
            self.x = racer.input((1000,), "f32")
            self.out = racer.empty((1000,), "f32")
        def program_a(self):
            racer.launch(racer.cuda("add.cu", "add"), grid=8, block=128,
                         args=[racer.read(self.x), racer.write(self.out), 1000])
            return {"out": self.out}
        ...

    result = racer.check(VecAdd)
    assert result.equivalent, result.report()
"""
from . import _native

_native.extend_package_path(__path__)

from .errors import RacerError  # noqa: E402
from .instance import Case, Instance, case, check  # noqa: E402
from .kernels import Kernel, cuda, ptx  # noqa: E402
from .launch import Launch, launch, program  # noqa: E402
from .tensors import Tensor, TensorMap, empty, full, input, read, readwrite, scalar, tensor_map, values, write, zeros  # noqa: E402
from .testing import assert_equivalent  # noqa: E402
from .triton_frontend import triton  # noqa: E402

__all__ = ["RacerError", "Case", "Instance", "case", "check", "Kernel", "cuda", "ptx", "Launch", "launch",
           "program", "Tensor", "TensorMap", "tensor_map", "empty", "full", "input", "read", "readwrite", "scalar", "values", "write",
           "zeros", "triton", "assert_equivalent"]
