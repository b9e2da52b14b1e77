"""Device-agnostic drivers: host loops written once against an Executor's ``xp`` and
kernel tables (CUDA kernels on a GPU, NumPy twins on the CPU).

Importing this package registers every method (nx_gpusp.methods): each subpackage
imports its solver modules by name, and each solver function carries its
registration (the ``@method`` decorator)."""

from . import apsp, sssp  # noqa: F401  (registers every method)
