"""Shared pieces of the kernel tables: the two base classes (CudaKernelTable, launching a
``kernels/<family>.cu``, and NumpyTwin, its host twin), CUDA launch shapes, type names,
host arc gathering."""

import functools
import inspect

import numpy as np

__all__ = ["CUDA_TYPE", "CudaKernelTable", "NumpyTwin", "csr_rows", "gather_arcs",
           "relax_and_append", "scalar"]

# NumPy dtype -> CUDA template argument
CUDA_TYPE = {
    np.dtype(np.int64): "long long",
    np.dtype(np.float64): "double",
    np.dtype(np.int32): "int",
    np.dtype(np.float32): "float",
    np.dtype(np.int16): "short",
    np.dtype(np.int8): "signed char",
    np.dtype(np.uint8): "unsigned char",
    np.dtype(np.uint32): "unsigned int",
    np.dtype(np.uint64): "unsigned long long",
}

BLOCK = 256
MAX_BLOCKS = 65535 * 8
SHARED_DEFAULT = 48 * 1024  # dynamic shared memory a launch gets without opting in


def scalar(value, dtype):
    """A kernel scalar argument of exactly ``dtype`` (CuPy passes by NumPy type)."""
    return np.dtype(dtype).type(value)


class CudaKernelTable:
    """Compiles one ``kernels/<source>`` with every (kernel, type) instantiation it needs."""

    source = None  # e.g. "frontier.cu"
    templates = ()  # kernel names templated on the distance type
    plain = ()  # non-template kernel names
    types = (np.int64, np.float64)
    instances = ()  # further instantiations, spelled out ("name<int, true>")
    min_arch = 75  # the oldest sm the source compiles for (prebuilt cubins start there)

    @classmethod
    def name_expressions(cls):
        """Every kernel the table launches, as NVRTC name expressions."""
        exprs = [f"{k}<{CUDA_TYPE[np.dtype(t)]}>" for k in cls.templates for t in cls.types]
        return tuple(exprs) + tuple(cls.plain) + tuple(cls.instances)

    def __init__(self, executor):
        self.ex = executor
        self.cp = executor.xp
        self._module = executor.module(self.source, self.name_expressions())
        self._cache = {}

    def kernel(self, name, dtype=None):
        key = (name, None if dtype is None else np.dtype(dtype))
        fn = self._cache.get(key)
        if fn is None:
            full = name if dtype is None else f"{name}<{CUDA_TYPE[np.dtype(dtype)]}>"
            fn = self._module.get_function(full)
            self._cache[key] = fn
        return fn

    def resident_blocks(self, name, dtype=None, block=BLOCK):
        """Blocks of ``block`` threads of kernel ``name`` resident on the device at once:
        the driver's occupancy figure (registers, shared memory, the thread limit) times
        the multiprocessors. The grid of a grid-stride kernel whose blocks reduce into a
        few global counters, and the most blocks a cooperative launch may start."""
        key = ("resident", name, None if dtype is None else np.dtype(dtype), block)
        blocks = self._cache.get(key)
        if blocks is None:
            fn = self.kernel(name, dtype).kernel
            per_sm = self.cp.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(
                fn.ptr, block, 0)
            sms = self.cp.cuda.Device().attributes["MultiProcessorCount"]
            blocks = self._cache[key] = max(1, per_sm) * sms
        return blocks

    def kernel_with_shared(self, name, dtype, shared_bytes):
        """The kernel, allowed ``shared_bytes`` of dynamic shared memory (the opt-in, needed
        when dynamic and static shared memory together pass 48 KiB, is set once per
        kernel, not read back on every launch)."""
        fn = self.kernel(name, dtype)
        key = ("shared", name, None if dtype is None else np.dtype(dtype))
        allowed = self._cache.get(key)
        if allowed is None:  # without the opt-in: 48 KiB less the static shared memory
            allowed = SHARED_DEFAULT - fn.shared_size_bytes
        if shared_bytes > allowed:
            fn.max_dynamic_shared_size_bytes = shared_bytes
            allowed = shared_bytes
        self._cache[key] = allowed
        return fn

    def launch(self, name, work_items, args, dtype=None, block=BLOCK, max_blocks=MAX_BLOCKS):
        """Launch a grid-stride kernel over ``work_items`` items."""
        if work_items <= 0:
            return
        grid = min((int(work_items) + block - 1) // block, max_blocks)
        self.kernel(name, dtype)((grid,), (block,), args)


class NumpyTwin:
    """Base of every family's host twin (its ``NumpyOps``): the public methods of the
    family's ``CudaOps``, with the same signatures and the same effect on the arrays
    they are given, in NumPy (tests/test_kernel_tables.py compares the signatures)."""

    def __init__(self, executor):
        self.ex = executor

    def __init_subclass__(cls, **kwargs):
        """Every public method runs with NumPy's overflow warnings off: float sums past
        the maximum become inf, as they do on the GPU (silently there)."""
        super().__init_subclass__(**kwargs)
        for name, fn in list(vars(cls).items()):
            if inspect.isfunction(fn) and not name.startswith("_"):
                setattr(cls, name, _quiet_overflow(fn))


def _quiet_overflow(fn):
    @functools.wraps(fn)
    def run(*args, **kwargs):
        with np.errstate(over="ignore"):
            return fn(*args, **kwargs)

    return run


def csr_rows(indptr, dtype=np.int64):
    """The row of every entry of a CSR with offsets ``indptr`` (an arc's tail; in a
    transpose, its head): the host twin of "a thread per row loops over its entries"."""
    return np.repeat(np.arange(len(indptr) - 1, dtype=dtype), np.diff(indptr))


def gather_arcs(indptr, vertices):
    """All arcs leaving ``vertices``: (position in ``vertices`` of each arc's tail, arc ids).

    The host twin of "one thread per vertex loops over its CSR row".
    """
    starts = indptr[vertices]
    counts = indptr[vertices + 1] - starts
    total = int(counts.sum())
    owner = np.repeat(np.arange(len(vertices)), counts)
    if total == 0:
        return owner, np.zeros(0, dtype=np.int64)
    first = np.cumsum(counts) - counts
    arcs = starts[owner] + (np.arange(total) - first[owner])
    return owner, arcs


def relax_and_append(dist, lowered, round_, heads, cand, cutoff, next_frontier=None,
                     next_size=None):
    """Host twin of "atomic min of each candidate into dist[head]; append every vertex
    lowered in this round once (round stamp in ``lowered``)". Returns the newly
    appended vertices (sorted); appends them at ``next_frontier[next_size[0]:]`` when given.
    """
    keep = (cand <= cutoff) & (cand < dist[heads])
    heads, cand = heads[keep], cand[keep]
    before = dist[heads]
    np.minimum.at(dist, heads, cand)
    lowered_now = np.unique(heads[dist[heads] < before])
    new = lowered_now[lowered[lowered_now] != round_]
    lowered[new] = round_
    if next_frontier is not None:
        k = int(next_size[0])
        next_frontier[k:k + len(new)] = new
        next_size[0] = k + len(new)
    return new
