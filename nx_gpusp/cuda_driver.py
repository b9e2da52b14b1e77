"""CUDA's start in background threads: the driver and the GPU's primary context, and the
CUDA libraries CuPy's import loads, begun before the first launch needs them.

No NumPy and no CuPy here: NetworkX imports nx_gpusp.interface when a gpusp call is
about to run, and the interface starts the driver before its own imports (NumPy, the
algorithms), so that CUDA's start overlaps them too; the libraries follow with the
conversion (loading them holds the dynamic loader, which NumPy's extension modules
need while they import).
"""

import ctypes
import glob
import importlib.util
import os
import threading

__all__ = ["start_cuda_driver", "WHEEL_LIBRARIES"]

_DRIVER = {}


def start_cuda_driver(device, libraries=True):
    """Start CUDA's driver and the GPU's primary context in a background thread, through
    the driver API: ctypes releases Python's lock while the driver library loads
    (``_dlopen_unlocked``) and ``cuInit`` and ``cuDevicePrimaryCtxRetain`` run (~0.2-0.3
    s on the H100's host), so they overlap what needs the lock before the first launch
    (the backend's imports, converting the graph, importing CuPy), and CuPy's runtime
    then finds the context made (its own start: 0.8 ms instead of ~0.2 s). With
    ``libraries``, a second thread loads the wheels' CUDA libraries that CuPy's import
    loads (``_preload_wheel_libraries``); without, only the driver starts, and a later
    call with ``libraries`` adds them. Each thread once per process; ``device``: the
    configured device ('auto', 'cuda', 'cuda:N', 'cpu'), nothing where it is not CUDA
    or no CUDA driver loads."""
    if not (device == "auto" or device.startswith("cuda")):
        return
    if "thread" not in _DRIVER:
        if importlib.util.find_spec("cupy") is None:  # no CuPy: no launch will need a context
            return
        index = int(device.partition(":")[2] or 0)
        _DRIVER["thread"] = thread = threading.Thread(
            target=_start_driver, args=(index,), name="nx_gpusp-cuda-driver", daemon=True)
        thread.start()
    if libraries and "libraries" not in _DRIVER:
        _DRIVER["libraries"] = thread = threading.Thread(
            target=_preload_wheel_libraries, name="nx_gpusp-cuda-libraries", daemon=True)
        thread.start()


def _start_driver(index):
    try:
        if not _dlopen_unlocked("libcuda.so.1"):  # 92 MB: the conversion goes on meanwhile
            return
        lib = ctypes.CDLL("libcuda.so.1")  # loaded already
        device, context = ctypes.c_int(), ctypes.c_void_p()
        if lib.cuInit(0) == 0 and lib.cuDeviceGet(ctypes.byref(device), index) == 0:
            lib.cuDevicePrimaryCtxRetain(ctypes.byref(context), device)  # kept: CuPy's too
    except (OSError, AttributeError):  # no driver here: CuPy will say so if it is needed
        pass


# The libraries of NVIDIA's CUDA wheels that CuPy's import loads (CuPy 14 with the CUDA
# 13 wheels: cuBLASLt, 0.5 GB, and NVRTC; ~0.1 s of an import of ~0.2-0.3 s on the H100's
# host when CuPy loads them itself, measured beside a load of the same files first)
WHEEL_LIBRARIES = ("libcublasLt.so.*", "libnvrtc.so.*", "libnvrtc-builtins.so.*")


def _dlopen_unlocked(path):
    """Load the shared library ``path`` and keep it loaded, through libc's ``dlopen``: a
    foreign call, during which ctypes releases Python's lock (``ctypes.CDLL`` holds it
    while a library loads: a thread spinning beside it kept 28% of its speed). True
    when it loaded."""
    dlopen = ctypes.CDLL(None).dlopen
    dlopen.restype, dlopen.argtypes = ctypes.c_void_p, (ctypes.c_char_p, ctypes.c_int)
    return bool(dlopen(os.fsencode(path), os.RTLD_NOW | os.RTLD_LOCAL))


def _preload_wheel_libraries():
    """Load WHEEL_LIBRARIES (``_dlopen_unlocked``), so that their loading overlaps the
    conversion instead of CuPy's import. CuPy finds these libraries through
    cuda.pathfinder, which takes a library already loaded first and NVIDIA's wheels
    next: only the wheels' own files are loaded here, and only where one wheel layout
    (site-packages/nvidia/cuXX/lib) holds them, so nothing is loaded that CuPy would
    not load."""
    try:
        spec = importlib.util.find_spec("nvidia")  # a namespace package: nothing runs
        bases = spec.submodule_search_locations if spec is not None else None
        dirs = [d for base in bases or () for d in glob.glob(os.path.join(base, "cu[0-9]*", "lib"))]
        if len(dirs) != 1:
            return
        for pattern in WHEEL_LIBRARIES:
            for path in sorted(glob.glob(os.path.join(dirs[0], pattern))):
                _dlopen_unlocked(path)
    except (ImportError, ValueError, OSError, AttributeError):  # nothing to gain here
        pass
