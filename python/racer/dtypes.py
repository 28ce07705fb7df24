"""Element types, spelled as instance files spell them (FORMAT.md), and their NumPy twins."""
from .errors import fail, suggestion

DTYPES = ("f64", "f32", "f16", "bf16", "fp8e4m3", "fp8e5m2", "i64", "i32", "i16", "i8", "u8", "bool")
FLOAT_DTYPES = ("f64", "f32", "f16", "bf16", "fp8e4m3", "fp8e5m2")
_ALIASES = {"float64": "f64", "float32": "f32", "float16": "f16", "bfloat16": "bf16", "int64": "i64",
            "int32": "i32", "int16": "i16", "int8": "i8", "uint8": "u8", "bool_": "bool",
            "float8_e4m3fn": "fp8e4m3", "float8_e5m2": "fp8e5m2", "fp32": "f32", "fp16": "f16", "fp64": "f64"}
# NumPy arrays for witnesses: the nearest NumPy type that holds every value exactly.
NUMPY = {"f64": "float64", "f32": "float32", "f16": "float16", "bf16": "float32", "fp8e4m3": "float32",
         "fp8e5m2": "float32", "i64": "int64", "i32": "int32", "i16": "int16", "i8": "int8", "u8": "uint8",
         "bool": "bool"}


def dtype_name(dtype, loc=None):
    """'f32' for 'f32', numpy.float32, numpy.dtype('float32'), torch.float32, 'float32'."""
    if isinstance(dtype, str):
        name = dtype
    else:
        name = getattr(dtype, "__name__", None) or str(dtype)
        try:
            import numpy as np
            name = np.dtype(dtype).name
        except Exception:
            pass
    name = name.replace("torch.", "")
    name = _ALIASES.get(name, name)
    if name not in DTYPES:
        fail(f"unknown dtype '{dtype}'" + suggestion(name, DTYPES), loc)
    return name
