"""Execution layer: one solver, two executors.

An :class:`Executor` carries the array module ``xp`` (CuPy on a CUDA device, NumPy
otherwise) and hands out kernel tables (``ex.ops("frontier")``): on CUDA they launch
the ``kernels/*.cu`` kernels compiled once per process through NVRTC; on the CPU they
are the NumPy twins with the same method signatures. Solvers are written once
against this interface.
"""

import ast
import atexit
import functools
import importlib
import json
import os
import re
import tempfile
import threading

import numpy as np

from .collector import collector_paused
from .cuda_driver import start_cuda_driver
from .kernel_sources import kernel_dir

__all__ = ["Executor", "get_executor", "cuda_available", "format_bytes", "BUILD_OPTIONS",
           "nvrtc_options", "start_cuda_driver", "start_cuda_warm_up"]

# The build options of the CUDA sources, all in one place: further NVRTC options come from
# the environment variable NX_GPUSP_NVRTC_OPTIONS (space-separated, read when a module is
# first compiled), and these are the macros the kernels know. A production build defines
# none of them.
BUILD_OPTIONS = {
    "-DNF_PROFILE": "near_far.cu: the team launches add the clock64 cycles of each round's "
                    "phases (round start; relax and its barrier; predecessors, snapshot, "
                    "carry and their barrier) into the module's __device__ array "
                    "nf_profile[3] (CuPy: RawModule.get_global('nf_profile'))",
}

@functools.cache
def _cupy():
    from .config import get_config

    # the first need of CuPy (a GPU check, an executor): CUDA's driver (started when
    # NetworkX imported the backend, else now) and the wheels' libraries (else started
    # by the conversion) run beside its import and device count, not after them
    start_cuda_driver(get_config().device)
    try:
        with collector_paused():  # CuPy's import: ~0.1-0.2 s, many objects
            import cupy
    except Exception:  # ImportError, or a CuPy that cannot find CUDA libraries
        return None
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            return None
    except Exception:
        return None
    keep_compiler_versions(getattr(cupy.cuda, "compiler", None))
    return cupy


_WARM = {}


def start_cuda_warm_up(device, families=("near_far", "tree", "distance_order")):
    """Import CuPy, create the CUDA context and load the default kernel tables in a
    background thread (once per process), so that they overlap the program's own work
    before its first gpusp call. Python holds one lock for both threads, so what
    overlaps is what the program spends outside Python (reading files, waiting, NumPy);
    a first call that converts its graph at once gains nothing (measured on the H100:
    slower, the two threads taking turns). ``device``: the configured device ('auto',
    'cuda', 'cuda:N', 'cpu'); does nothing where it is not CUDA."""
    if _WARM or not (device == "auto" or device.startswith("cuda")):
        return
    _WARM["thread"] = thread = threading.Thread(
        target=_warm_cuda, args=(device, families), name="nx_gpusp-cuda-warm-up",
        daemon=True)
    thread.start()
    atexit.register(_finish_warm_up)


WARM_UP_EXIT_WAIT = 30.0  # seconds a program's exit waits for the CUDA warm-up at most


def _finish_warm_up():
    """At exit: let the warm-up thread finish (about a second) before the interpreter
    tears CuPy down under it, which can abort the process; a daemon thread still (a
    start that hangs delays the exit by WARM_UP_EXIT_WAIT at most)."""
    thread = _WARM.get("thread")
    if thread is not None:
        thread.join(WARM_UP_EXIT_WAIT)


def _warm_cuda(device, families):
    start_cuda_driver(device)
    try:
        if not cuda_available():
            return
        ex = get_executor("cuda" if device == "auto" else device)
        ex.xp.empty(1)  # creates the context
        import cupyx.scipy.sparse  # noqa: F401  (CuPy's comparison operators import it)
        for family in families:
            ex.ops(family)
    except Exception:  # the call itself will meet and report any failure
        pass


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
        kind, colon, index = name.partition(":")
        if kind not in ("cuda", "cpu") or (colon and (kind != "cuda" or not index.isdigit())):
            raise ValueError(f"nx_gpusp: unknown device {name!r}; use 'auto', 'cuda', "
                             "'cuda:N' or 'cpu'")
        self.name = name
        self.kind = kind
        self.device_id = None
        if kind == "cuda":
            cp = _cupy()
            if cp is None:
                raise RuntimeError(
                    f"nx_gpusp: device={name!r} but CuPy is not installed or sees no GPU "
                    "(pip install 'nx-gpusp[cuda13]'), or set device='cpu'"
                )
            count = cp.cuda.runtime.getDeviceCount()
            self.device_id = int(index) if colon else cp.cuda.runtime.getDevice()
            if self.device_id >= count:
                raise ValueError(f"nx_gpusp: device={name!r}, but CuPy sees {count} GPU(s) "
                                 f"(numbered 0 to {count - 1})")
            self.xp = cp
        else:
            self.xp = np
        self._ops = {}

    @property
    def is_cuda(self) -> bool:
        return self.kind == "cuda"

    def activate(self):
        """Make this executor's GPU the current device of the calling thread (CuPy
        allocates and launches there)."""
        if self.device_id is not None:
            self.xp.cuda.runtime.setDevice(self.device_id)

    def __repr__(self):
        return f"Executor({self.name!r})"

    # -- kernel tables -------------------------------------------------------------
    def ops(self, family: str):
        """The kernel table of one family: ``nx_gpusp.ops.<family>``'s CudaOps or NumpyOps."""
        table = self._ops.get(family)
        if table is None:
            with collector_paused():  # a first use may import CuPy's routines
                mod = importlib.import_module(f"nx_gpusp.ops.{family}")
                table = mod.CudaOps(self) if self.is_cuda else mod.NumpyOps(self)
            self._ops[family] = table
        return table

    def module(self, filename: str, name_expressions=()):
        """A compiled CUDA module (cached per process and device, and on disk by CuPy)."""
        return _raw_module(filename, tuple(name_expressions), self.device_id)

    # -- memory --------------------------------------------------------------------
    def to_host(self, arr):
        return arr.get() if self.is_cuda else arr

    def to_host_async(self, arr, out=None):
        """A function returning a host copy of ``arr`` (contiguous) as the work queued so
        far leaves it: the copy is queued now (into page-locked memory, on the current
        stream) and waited for when the function is called, so work queued in between
        neither changes it nor delays it. ``out``: a page-locked array of ``arr``'s size
        and type to copy into (``pinned_empty``), not read until then."""
        if not self.is_cuda:
            copy = arr.copy()
            return lambda: copy
        cuda = self.xp.cuda
        host = self.pinned_empty(arr.size, arr.dtype) if out is None else out.reshape(-1)
        stream = cuda.get_current_stream()
        cuda.runtime.memcpyAsync(host.ctypes.data, arr.data.ptr, arr.nbytes,
                                 cuda.runtime.memcpyDeviceToHost, stream.ptr)
        done = cuda.Event(block=False, disable_timing=True)
        done.record(stream)

        def wait():
            done.synchronize()
            return host.reshape(arr.shape)

        return wait

    def fill_bytes(self, arr, byte):
        """Every byte of ``arr`` (contiguous) set to ``byte``, returning it: on the GPU a
        memset queued on the current stream (CuPy's ``fill`` launches a kernel, several
        times the host's time)."""
        if self.is_cuda:
            arr.data.memset_async(byte, arr.nbytes)
        else:
            arr.reshape(-1).view(np.uint8)[:] = byte
        return arr

    def pinned_empty(self, size, dtype):
        """A host array of ``size`` ``dtype`` in page-locked memory where the device is a
        GPU (asynchronous copies need it), else a plain one."""
        if not self.is_cuda:
            return np.empty(size, dtype=dtype)
        dtype = np.dtype(dtype)
        return np.frombuffer(self.xp.cuda.alloc_pinned_memory(size * dtype.itemsize), dtype,
                             size)

    def mark(self):
        """Where the current stream's work stands now (an event recorded on it; None on
        the CPU), for ``after``."""
        if not self.is_cuda:
            return None
        cuda = self.xp.cuda
        stream = cuda.get_current_stream()
        event = cuda.Event(block=False, disable_timing=True)
        event.record(stream)
        return event, stream.ptr, threading.get_ident()

    def after(self, mark):
        """Make the current stream's next work wait, on the device, for the work before
        ``mark`` (nothing to wait for on the same stream of the same thread)."""
        if mark is None:
            return
        event, stream_ptr, thread = mark
        stream = self.xp.cuda.get_current_stream()
        if stream.ptr != stream_ptr or thread != threading.get_ident():
            stream.wait_event(event)

    def asarray(self, arr, dtype=None):
        return self.xp.asarray(arr, dtype=dtype)

    def publish(self, value):
        """``value`` (device arrays made on the current stream, to be cached and read by
        later runs) once the work that made them has finished. A cached array is read
        from any stream: apsp-concurrent's and other threads' non-blocking streams do not
        wait for the stream that uploaded it, and read a copy still in flight (wrong
        rows on a graph's first call). Paid once per cached array."""
        if self.is_cuda:
            self.xp.cuda.get_current_stream().synchronize()
        return value

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


_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"\s*$', re.MULTILINE)
_MODULE_LOCK = threading.Lock()


def kernel_source(filename, _seen=None):
    """The text of ``kernels/<filename>`` with its local ``#include "..."`` files inlined
    (each once, as ``#pragma once`` would). CuPy keys its compile cache on the source
    text and the options, not on included files: inlined, a changed header can never
    reuse a stale binary from the cache."""
    seen = set() if _seen is None else _seen
    if filename in seen:
        return ""
    seen.add(filename)
    text = (kernel_dir() / filename).read_text()
    return _INCLUDE.sub(lambda m: kernel_source(m.group(1), seen), text)


def nvrtc_options():
    """The NVRTC options of every CUDA module: C++17, then NX_GPUSP_NVRTC_OPTIONS (e.g.
    ``-DNF_PROFILE``, see BUILD_OPTIONS)."""
    return ("-std=c++17",) + tuple(os.environ.get("NX_GPUSP_NVRTC_OPTIONS", "").split())


# (filename, device) -> "prebuilt" or "nvrtc: <why>": where each loaded module came from
MODULE_ORIGIN = {}


def _prebuilt_module(cp, filename, name_expressions, device_id):
    """The shipped fatbin of ``filename`` where it serves this device and driver, else
    None (the reason logged once and kept in MODULE_ORIGIN)."""
    from . import prebuilt

    manifest = prebuilt.read_manifest()
    entry, reason = None, "this install has no prebuilt kernels"
    if manifest:
        props = cp.cuda.runtime.getDeviceProperties(device_id)
        entry, reason = prebuilt.choose_binary(
            manifest, filename, name_expressions, nvrtc_options(),
            prebuilt.source_hash(filename), (props["major"], props["minor"]),
            cp.cuda.runtime.driverGetVersion())
    if entry is not None:
        try:
            raw = cp.RawModule(path=str(prebuilt.BINARY_DIR / entry["fatbin"]))
            module = prebuilt.PrebuiltModule(raw, entry["symbols"])
            for expr in name_expressions:  # load now: the first launch pays nothing more
                module.get_function(expr)
            MODULE_ORIGIN[filename, device_id] = "prebuilt"
            return module
        except Exception as err:  # a driver that cannot load it (CUDA_ERROR_...)
            reason = f"loading {entry['fatbin']} failed ({err})"
    MODULE_ORIGIN[filename, device_id] = f"nvrtc: {reason}"
    prebuilt.log_fallback(reason)
    return None


@functools.cache
def _raw_module_unlocked(filename, name_expressions, device_id):
    cp = _cupy()
    cp.cuda.runtime.setDevice(device_id)
    module = _prebuilt_module(cp, filename, name_expressions, device_id)
    if module is not None:
        return module
    compiler = cp.cuda.compiler
    restore_compiler_versions(compiler)
    known = set(getattr(compiler, "_empty_file_preprocess_cache", ()))
    module = cp.RawModule(code=kernel_source(filename), options=nvrtc_options(),
                          name_expressions=name_expressions or None)
    module.compile()  # load now (CuPy defers it): the first launch pays nothing more
    save_compiler_versions(compiler, known)
    return module


# CuPy keys its disk cache of binaries on the compiler's version, which it learns by
# compiling an empty program once per process and set of options (14-21 ms on the H100's
# host, inside a process's first call): once for our modules' options and once for
# those of CuPy's own kernels that a call runs (an ``astype`` in near-far's first call).
# What it learned is kept in this file beside that cache and handed back to it in the
# next process. Its keys hold NVRTC's version and the options, so another compiler or
# other options never match a kept entry.
COMPILER_VERSIONS_FILE = "nx_gpusp-compiler-versions.json"


def _versions_path(compiler):
    """COMPILER_VERSIONS_FILE in CuPy's cache folder (CuPy 14 no longer offers
    ``get_cache_dir``: its disk cache reads CUPY_CACHE_DIR itself)."""
    get = getattr(compiler, "get_cache_dir", None)
    folder = get() if get is not None else os.environ.get(
        "CUPY_CACHE_DIR", os.path.expanduser("~/.cupy/kernel_cache"))
    return os.path.join(folder, COMPILER_VERSIONS_FILE)


@functools.cache
def keep_compiler_versions(compiler):
    """At CuPy's import (once per process): give CuPy's compiler module the versions
    kept by earlier processes, and keep at this process's exit whatever it learned
    beyond them (CuPy's own kernels' options included, which no module compile of ours
    sees)."""
    restore_compiler_versions(compiler)
    known = set(getattr(compiler, "_empty_file_preprocess_cache", ()))
    atexit.register(save_compiler_versions, compiler, known)


@functools.cache
def restore_compiler_versions(compiler):
    """Give CuPy's compiler module (``cupy.cuda.compiler``) the versions kept by
    :func:`save_compiler_versions`, once per process; nothing where the file or CuPy's
    in-memory table is missing or unreadable."""
    try:
        table = compiler._empty_file_preprocess_cache
        with open(_versions_path(compiler)) as f:
            kept = json.load(f)
        for key, version in kept.items():
            env = ast.literal_eval(key)
            if isinstance(env, tuple) and isinstance(version, str):
                table.setdefault(env, version)
    except (OSError, ValueError, SyntaxError, TypeError, AttributeError, MemoryError,
            RecursionError):
        pass


def save_compiler_versions(compiler, known):
    """Keep the entries CuPy's compiler learned beyond the keys ``known`` (a module's
    compile with our options) in COMPILER_VERSIONS_FILE, merged with those kept; a
    cache folder that cannot be written keeps nothing."""
    try:
        table = compiler._empty_file_preprocess_cache
        new = {repr(k): v for k, v in table.items() if k not in known and isinstance(v, str)}
        if not new:
            return
        path = _versions_path(compiler)
        try:
            with open(path) as f:
                kept = json.load(f)
            if not isinstance(kept, dict):
                kept = {}
        except (OSError, ValueError):
            kept = {}
        if all(kept.get(k) == v for k, v in new.items()):
            return
        kept.update(new)
        folder = os.path.dirname(path)
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".nx_gpusp-", suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump(kept, f)
        os.replace(tmp, path)  # whole or not at all, beside other processes
    except (OSError, AttributeError, TypeError, ValueError):
        pass


def _raw_module(filename, name_expressions, device_id):
    """A compiled CUDA module, once per process (a lock: a background warm-up thread
    and the caller may ask together) and once per machine (CuPy's disk cache,
    ~/.cupy/kernel_cache or CUPY_CACHE_DIR)."""
    with _MODULE_LOCK:
        return _raw_module_unlocked(filename, name_expressions, device_id)


@functools.cache
def _executor(name):
    return Executor(name)


def get_executor(device) -> Executor:
    """The executor for ``device`` ('auto', 'cuda', 'cuda:N', 'cpu'), its GPU made the
    calling thread's current device. The device comes from the caller (the
    NetworkX-facing functions read it from the configuration)."""
    if device == "auto":
        device = "cuda" if cuda_available() else "cpu"
    ex = _executor(device)
    ex.activate()
    return ex
