"""Where the CUDA sources (kernels/*.cu) are, installed or in a source checkout.

Imports nothing heavy: the wheel test loads every source through this module in a
fresh virtual environment that has only nx-gpusp installed.
"""

import importlib.util
from pathlib import Path

__all__ = ["kernel_dir", "kernel_names", "read_kernel"]


def kernel_dir() -> Path:
    """The folder holding the ``.cu``/``.cuh`` files.

    Installed, they are the data-only package ``nx_gpusp.cuda_sources`` (the top-level
    ``kernels/`` folder mapped into the wheel); in a plain source checkout on
    ``sys.path`` that package is not importable and ``kernels/`` beside the package is used.
    """
    installed = Path(__file__).resolve().parent / "cuda_sources"
    candidates = [installed]
    try:  # an editable install maps the package onto kernels/ through its finder
        spec = importlib.util.find_spec("nx_gpusp.cuda_sources")
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        candidates += [Path(p) for p in spec.submodule_search_locations]
    for folder in candidates:
        if folder.is_dir() and any(folder.glob("*.cu")):
            return folder
    folder = Path(__file__).resolve().parent.parent / "kernels"
    if not folder.is_dir():
        raise FileNotFoundError(
            "nx_gpusp: CUDA sources not found (neither the installed package "
            f"nx_gpusp.cuda_sources nor {folder})"
        )
    return folder


def kernel_names() -> list[str]:
    """Names of every CUDA source file shipped with the package."""
    return sorted(p.name for p in kernel_dir().iterdir() if p.suffix in (".cu", ".cuh"))


def read_kernel(name: str) -> str:
    """Text of one CUDA source file, e.g. ``read_kernel("bellman_ford.cu")``."""
    return (kernel_dir() / name).read_text()
