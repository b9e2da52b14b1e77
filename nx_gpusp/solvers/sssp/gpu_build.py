"""Where a contraction hierarchy is built: on the GPU once this machine has compiled
what that build needs, else on the host.

The GPU build (contraction.py's rounds on CuPy) takes about a tenth of the host's time
(NY 0.45 s against 6.3 s, FLA 0.8 s against 8.9 s, a 1.5M-vertex road graph 1.5 s, on
an H200), but it runs CuPy's own routines (elementwise kernels, scans, sorts), which
CuPy compiles with NVRTC at first use: about 17 s on a machine whose CuPy kernel cache
(``CUPY_CACHE_DIR``, by default ``~/.cupy/kernel_cache``) is empty, after which they
stay in that cache. So the GPU builds only where a marker file in that cache says a GPU
build completed there (this CuPy, this GPU architecture). Elsewhere the host builds,
and a background thread then compiles those routines with a GPU build of a small
generated road graph and writes the marker, so that later builds, in this process or
another, run on the GPU. ``python -m nx_gpusp compile`` does the same at once.
"""

import logging
import os
import threading
from pathlib import Path

__all__ = ["builder", "gpu_build_ready", "warm_gpu_build"]

logger = logging.getLogger("nx_gpusp")
WARM_UP_VERTICES = 4000  # the generated road graph whose GPU build compiles the routines
_STARTED = set()  # executors whose background warm-up has started (once per process)
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


def _warm_in_background(ex):
    with _LOCK:
        if ex.name in _STARTED:
            return
        _STARTED.add(ex.name)

    def run():
        try:
            ex.activate()  # this thread's current device
            warm_gpu_build(ex)
        except Exception as exc:  # the host keeps building; say why the GPU does not
            logger.info("gpusp: compiling the GPU contraction build failed (%s); "
                        "hierarchies stay built on the host", exc)

    threading.Thread(target=run, name="nx_gpusp-contraction-warm-up", daemon=True).start()


def builder(ex):
    """The executor that builds a hierarchy for queries on ``ex``: ``ex`` itself on the
    host or where its GPU build is ready; else the host's, with the GPU build's
    compilation started in the background."""
    if not ex.is_cuda or gpu_build_ready(ex):
        return ex
    from ...executor import get_executor

    logger.info("gpusp: contraction hierarchy built on the host; CuPy's routines for "
                "the GPU build compile in the background for the next builds")
    _warm_in_background(ex)
    return get_executor("cpu")
