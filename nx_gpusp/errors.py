"""The exception and warning classes gpusp raises itself (the others are NetworkX's and
Python's own, as NetworkX raises them)."""

__all__ = ["DeviceUnavailableError", "DeclinedWarning"]


class DeviceUnavailableError(RuntimeError):
    """``nx.config.backends.gpusp.device`` names a CUDA GPU that this machine does not
    have (CuPy is not installed, cannot load CUDA, or sees no such device)."""


class DeclinedWarning(UserWarning):
    """Automatic dispatch left a call to NetworkX. Shown once per process, for the first
    such call; every decline is also logged (DEBUG) on NetworkX's
    ``networkx.utils.backends`` logger."""
