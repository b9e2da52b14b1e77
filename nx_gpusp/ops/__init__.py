"""Kernel tables: one module per CUDA source family, each with ``CudaOps`` (launches
``kernels/<family>.cu``) and ``NumpyOps`` (its host twin, same method signatures and
the same effect on the arrays it is given)."""

import importlib
import pkgutil

__all__ = ["kernel_tables"]


def kernel_tables():
    """{family: CudaOps class} of every kernel table that compiles a CUDA source."""
    out = {}
    for info in pkgutil.iter_modules(__path__):
        mod = importlib.import_module(f"{__name__}.{info.name}")
        table = getattr(mod, "CudaOps", None)
        if table is not None and getattr(table, "source", None):
            out[info.name] = table
    return out
