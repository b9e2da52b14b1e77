"""nx-gpusp: a NetworkX backend (``backend="gpusp"``) for shortest paths on NVIDIA GPUs.

Importing this package is cheap: CuPy is loaded only when a computation first needs
the GPU. NetworkX is imported first, since its own import reads this backend's
configuration (nx_gpusp.info, nx_gpusp.config). See ``nx_gpusp.interface`` for what NetworkX dispatches to.
"""

try:  # first: NetworkX's own import loads gpusp's info and config
    import networkx  # noqa: F401
except ImportError:  # nx_gpusp.kernel_sources alone needs no NetworkX
    pass

__version__ = "0.1.0"

from .errors import DeclinedWarning, DeviceUnavailableError  # noqa: E402

__all__ = ["DeclinedWarning", "DeviceUnavailableError", "warm_up"]


def __getattr__(name):
    """``nx_gpusp.distance_matrix`` (nx_gpusp.distance_matrices), imported when first
    used: importing the package stays cheap."""
    if name == "distance_matrix":
        from .distance_matrices import distance_matrix

        return distance_matrix
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def warm_up():
    """Start CUDA now, in a background thread: CuPy's import, the context and the
    default kernels (about a second) then overlap whatever the program does next, such
    as building its graph, instead of delaying the first gpusp call."""
    from .config import get_config
    from .executor import start_cuda_warm_up

    start_cuda_warm_up(get_config().device)
