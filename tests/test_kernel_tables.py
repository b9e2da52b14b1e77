"""Every kernel table's CUDA launcher (CudaOps) and NumPy twin (NumpyOps) offer the same
public methods with the same signatures (no GPU needed: the classes are compared, not
run; tests/test_kernels_gpu.py and the gpu-marked tests run both)."""

import importlib
import inspect
import pkgutil

import pytest

import nx_gpusp.ops as ops
from nx_gpusp.ops.base import CudaKernelTable, NumpyTwin

FAMILIES = sorted(info.name for info in pkgutil.iter_modules(ops.__path__)
                  if info.name != "base")


def _operations(cls, base):
    """{name: signature} of the public methods ``cls`` adds to ``base``."""
    return {name: inspect.signature(getattr(cls, name)) for name in dir(cls)
            if not name.startswith("_") and name not in dir(base)
            and callable(getattr(cls, name))}


def test_every_family_has_both_tables():
    assert FAMILIES
    for family in FAMILIES:
        module = importlib.import_module(f"nx_gpusp.ops.{family}")
        assert issubclass(module.CudaOps, CudaKernelTable), family
        assert issubclass(module.NumpyOps, NumpyTwin), family
        assert module.CudaOps.source == f"{family}.cu", family


@pytest.mark.parametrize("family", FAMILIES)
def test_twin_has_the_cuda_table_signatures(family):
    module = importlib.import_module(f"nx_gpusp.ops.{family}")
    cuda = _operations(module.CudaOps, CudaKernelTable)
    twin = _operations(module.NumpyOps, NumpyTwin)
    assert cuda, family
    assert sorted(cuda) == sorted(twin)
    for name, signature in cuda.items():
        assert str(signature) == str(twin[name]), f"{family}.{name}"
