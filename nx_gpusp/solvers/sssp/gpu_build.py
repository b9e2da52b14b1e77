"""Where a contraction hierarchy is built: on the GPU once this machine has compiled
what that build needs, else on the host.

The GPU build (contraction.py's rounds on CuPy) takes about a tenth of the host's time
(NY 0.45 s against 6.3 s, FLA 0.8 s against 8.9 s, a 1.5M-vertex road graph 1.5 s, on
an H200), but it runs CuPy's own routines (elementwise kernels, scans, sorts), which
CuPy compiles with NVRTC at first use: about 17 s on a machine whose CuPy kernel cache
(``CUPY_CACHE_DIR``, by default ``~/.cupy/kernel_cache``) is empty, after which they
stay in that cache. So the GPU builds only where a marker file in that cache says a GPU
build completed there (this CuPy, this GPU architecture). Elsewhere the host builds,
and a child process (:func:`warm_child`, started once per process and device, detached:
it outlives a short program) compiles those routines with a GPU build of a small
generated road graph and writes the marker, so that later builds, in this process or
another, run on the GPU. A process, not a thread of the caller: a program that ends
while CuPy compiled in one of its daemon threads could abort at exit (``free():
invalid size``), and one that waited for it would not end for up to half a minute.
``python -m nx_gpusp compile`` does the same at once, in the foreground. Where CuPy
keeps its cache in memory only (``CUPY_CACHE_IN_MEMORY``), another process's
compilation would not reach this one: the host builds, unless the program calls
:func:`warm_gpu_build` itself.
"""

import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

__all__ = ["builder", "gpu_build_ready", "warm_gpu_build", "warm_child", "warm_up_child"]

logger = logging.getLogger("nx_gpusp")
WARM_UP_VERTICES = 4000  # the generated road graph whose GPU build compiles the routines
_CHILDREN = {}  # executor name -> the Popen of its warm-up child, None where it could
# not start (each tried once per process)
CHILD_CODE = ("import sys; from nx_gpusp.solvers.sssp.gpu_build import warm_child; "
              "warm_child(sys.argv[1])")  # the child's program: python -c CHILD_CODE N
_READY = set()  # executors whose warm-up completed in this process
_LOCK = threading.Lock()


def _marker(ex):
    """The marker file of ``ex``'s GPU build in CuPy's kernel cache, or None where that
    cache is not kept on disk."""
    cp = ex.xp
    if os.environ.get("CUPY_CACHE_IN_MEMORY", "0") not in ("", "0"):
        return None
    folder = os.environ.get("CUPY_CACHE_DIR") or os.path.expanduser("~/.cupy/kernel_cache")
    arch = cp.cuda.Device(ex.device_id).compute_capability
    return Path(folder) / f"nx_gpusp-contraction-cupy{cp.__version__}-sm{arch}.ready"


def gpu_build_ready(ex):
    """Whether CuPy's routines of the GPU build are compiled for ``ex`` (a CUDA
    executor): warmed in this process, or the marker is in CuPy's cache."""
    if ex.name in _READY:
        return True
    child = _CHILDREN.get(ex.name)
    if child is not None:
        child.poll()  # reaped once it has ended
    marker = _marker(ex)
    return marker is not None and marker.exists()


def warm_gpu_build(ex):
    """Compile the GPU build's CuPy routines now (a GPU build of a small generated road
    graph) and write the marker."""
    from ...datasets import integer_geometric_road
    from .contraction import contraction_hierarchy

    contraction_hierarchy(integer_geometric_road(WARM_UP_VERTICES), core_size=64, ex=ex)
    _READY.add(ex.name)
    marker = _marker(ex)
    if marker is not None:
        try:
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.touch()
        except OSError:  # a read-only cache: this process still knows
            pass


def warm_child(device_id):
    """The warm-up child's work (``python -c``): :func:`warm_gpu_build` on CUDA device
    ``device_id`` (numbered as in the parent, whose environment it inherits)."""
    from ...executor import get_executor

    warm_gpu_build(get_executor(f"cuda:{int(device_id)}"))


def warm_up_child(ex):
    """The Popen of ``ex``'s warm-up child, or None where none was started."""
    return _CHILDREN.get(ex.name)


def _warm_in_background(ex):
    """Start ``ex``'s warm-up child (tried once per process): whether it started."""
    with _LOCK:
        if ex.name not in _CHILDREN:
            _CHILDREN[ex.name] = _start_child(ex)
        return _CHILDREN[ex.name] is not None


def _start_child(ex):
    """The Popen of ``ex``'s warm-up child, or None (said why) where none starts."""
    if _marker(ex) is None:
        logger.info("gpusp: CuPy's kernel cache is in memory only (CUPY_CACHE_IN_MEMORY): "
                    "hierarchies stay built on the host")
        return None
    package_root = str(Path(__file__).resolve().parents[3])  # the folder of nx_gpusp/
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH"))
                                        if p)
    try:
        return subprocess.Popen(
            [sys.executable, "-c", CHILD_CODE, str(ex.device_id)], env=env,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError as exc:  # the host keeps building; say why the GPU does not
        logger.info("gpusp: could not start compiling the GPU contraction build (%s); "
                    "hierarchies stay built on the host", exc)
        return None


def builder(ex):
    """The executor that builds a hierarchy for queries on ``ex``: ``ex`` itself on the
    host or where its GPU build is ready; else the host's, with the GPU build's
    compilation started in the background."""
    if not ex.is_cuda or gpu_build_ready(ex):
        return ex
    from ...executor import get_executor

    if _warm_in_background(ex):
        logger.info("gpusp: contraction hierarchy built on the host; CuPy's routines for "
                    "the GPU build compile in another process for the next builds")
    return get_executor("cpu")
