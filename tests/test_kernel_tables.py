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


def test_conditional_compilation_is_a_documented_build_option():
    """The CUDA sources compile one way in production: every macro they test is the
    architecture or a build option documented in nx_gpusp.executor.BUILD_OPTIONS (set
    through NX_GPUSP_NVRTC_OPTIONS), never an undocumented experiment switch."""
    import re

    from nx_gpusp.executor import BUILD_OPTIONS
    from nx_gpusp.kernel_sources import kernel_names, read_kernel

    documented = {option.removeprefix("-D") for option in BUILD_OPTIONS}
    tested = set()
    for name in kernel_names():
        for line in read_kernel(name).splitlines():
            match = re.match(r"\s*#\s*(ifdef|ifndef|if|elif)\b(.*)", line)
            if match:
                tested |= set(re.findall(r"[A-Za-z_]\w*", match.group(2).split("//")[0]))
    assert tested - {"defined", "__CUDA_ARCH__"} <= documented, tested


def test_kernel_tables_import_without_networkx():
    """The wheel's kernel build lists the tables' name expressions in an environment
    that has NumPy only."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['networkx'] = None\n"
            "from nx_gpusp.prebuilt import kernel_modules\n"
            "assert len(kernel_modules()) > 20\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
