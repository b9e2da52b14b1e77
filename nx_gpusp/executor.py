"""Execution layer: one solver, two executors.

An :class:`Executor` carries the array module ``xp`` (CuPy on a CUDA device, NumPy
otherwise) and hands out kernel tables (``ex.ops("frontier")``): on CUDA they launch
the ``kernels/*.cu`` kernels compiled once per process through NVRTC; on the CPU they
are the NumPy twins with the same method signatures. Solvers are written once
against this interface.
"""

import functools
import importlib
import os

import numpy as np

from .config import get_config
from .kernel_sources import kernel_dir

__all__ = ["Executor", "get_executor", "cuda_available", "format_bytes"]

@functools.cache
def _cupy():
    try:
        import cupy
    except Exception:  # ImportError, or a CuPy that cannot find CUDA libraries
        return None
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            return None
    except Exception:
        return None
    return cupy


def cuda_available() -> bool:
    """True when CuPy imports and sees at least one CUDA device."""
    return _cupy() is not None


def format_bytes(n: int) -> str:
    if abs(n) < 1024:
        return f"{n} B"
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        n /= 1024
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:.1f} {unit}"


class Executor:
    """Array module plus kernel tables for one device kind ('cuda' or 'cpu')."""

    def __init__(self, name: str):
        if name not in ("cuda", "cpu"):
            raise ValueError(f"nx_gpusp: unknown device {name!r}; use 'auto', 'cuda' or 'cpu'")
        self.name = name
        if name == "cuda":
            cp = _cupy()
            if cp is None:
                raise RuntimeError(
                    "nx_gpusp: device='cuda' but CuPy is not installed or sees no GPU "
                    "(pip install 'nx-gpusp[cuda]'), or set device='cpu'"
                )
            self.xp = cp
        else:
            self.xp = np
        self._ops = {}

    @property
    def is_cuda(self) -> bool:
        return self.name == "cuda"

    def __repr__(self):
        return f"Executor({self.name!r})"

    # -- kernel tables -------------------------------------------------------------
    def ops(self, family: str):
        """The kernel table of one family: ``nx_gpusp.ops.<family>``'s CudaOps or NumpyOps."""
        table = self._ops.get(family)
        if table is None:
            mod = importlib.import_module(f"nx_gpusp.ops.{family}")
            table = mod.CudaOps(self) if self.is_cuda else mod.NumpyOps(self)
            self._ops[family] = table
        return table

    def module(self, filename: str, name_expressions=()):
        """A compiled CUDA module (cached per process and on disk by CuPy)."""
        return _raw_module(filename, tuple(name_expressions))

    # -- memory --------------------------------------------------------------------
    def to_host(self, arr):
        return arr.get() if self.is_cuda else arr

    def asarray(self, arr, dtype=None):
        return self.xp.asarray(arr, dtype=dtype)

    def free_bytes(self) -> int:
        if not self.is_cuda:
            return 1 << 62
        pool = self.xp.get_default_memory_pool()
        free, _total = self.xp.cuda.runtime.memGetInfo()
        return free + pool.free_bytes()

    def require_bytes(self, nbytes: int, what: str) -> None:
        """Raise MemoryError, naming the sizes, when ``nbytes`` cannot fit on the device."""
        if not self.is_cuda:
            return
        free = self.free_bytes()
        if nbytes > free:
            raise MemoryError(
                f"nx_gpusp: {what} needs {format_bytes(nbytes)} of GPU memory but only "
                f"{format_bytes(free)} is free; use a smaller graph, a streaming "
                "function, or device='cpu'"
            )

    def synchronize(self):
        if self.is_cuda:
            self.xp.cuda.get_current_stream().synchronize()


@functools.cache
def _raw_module(filename, name_expressions):
    cp = _cupy()
    folder = kernel_dir()
    code = (folder / filename).read_text()
    extra = tuple(os.environ.get("NX_GPUSP_NVRTC_OPTIONS", "").split())  # e.g. -DNF_PROFILE
    return cp.RawModule(
        code=code,
        options=("-std=c++17", f"-I{folder}") + extra,
        name_expressions=name_expressions or None,
    )


@functools.cache
def _executor(name):
    return Executor(name)


def get_executor(device=None) -> Executor:
    """The executor for ``device`` ('auto', 'cuda', 'cpu'; None reads the config)."""
    if device is None:
        device = get_config().device
    if device == "auto":
        device = "cuda" if cuda_available() else "cpu"
    return _executor(device)
