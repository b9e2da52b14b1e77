"""nx-gpusp: a NetworkX backend (``backend="gpusp"``) for shortest paths on NVIDIA GPUs.

Importing this package is cheap: CuPy is loaded only when a computation first needs
the GPU. See ``nx_gpusp.interface`` for what NetworkX dispatches to.
"""

__version__ = "0.1.0"
