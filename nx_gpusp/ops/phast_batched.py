"""Kernel table for kernels/phast_batched.cu (PHAST's sweeps for a batch of sources, the
batch's distances side by side per vertex) and its NumPy twin.

Both take ``dist`` as a position-major 2-D array (positions of the level order x
``width`` columns, width a multiple of 32), each sweep's in-arcs as a :class:`Sweep`
(made by :func:`sweep`), and the core's distance matrix in dist's dtype
(``distance_inf`` = no path).
"""

from types import SimpleNamespace


import numpy as np

from ..graph import distance_inf
from .base import BLOCK, CudaKernelTable, NumpyTwin, scalar

__all__ = ["CudaOps", "NumpyOps", "CHUNK", "TILE", "SEGMENT", "CORE_STEP_ENTRIES",
           "record_launches", "sweep"]

CHUNK = 256  # columns a warp of phast_batch_pull covers (32 lanes x PB_ITEMS)
TILE = 64  # phast_batch_core's tile (core columns x batch columns)
CORE_STEP_ENTRIES = 1 << 22  # the twin's core product: entries formed at a time
SEGMENT = 8  # in-arcs of one head a warp of phast_batch_pull takes (PB_SEG)


def sweep(ex, level_ptr, ptr, tails, weights):
    """One sweep's in-arcs on ``ex``: ``ptr`` (int64 over positions), ``tails``
    (positions, int32) and ``weights`` (dist's dtype) as device arrays, the host
    ``level_ptr`` (each level's positions), and the arcs cut into segments of at most
    SEGMENT arcs of one head: ``heads`` (int32 positions; ``~p`` where the head p has
    several segments), ``starts`` and ``stops`` (int64 arcs [start, stop)) on the
    device, ``seg_ptr`` (each level's segments) on the host. A head without in-arcs has
    no segment."""
    ptr = np.asarray(ptr, dtype=np.int64)
    bounds = np.asarray(level_ptr, dtype=np.int64)
    counts = -(-np.diff(ptr) // SEGMENT)  # segments of each position
    heads = np.repeat(np.arange(len(counts), dtype=np.int32), counts)
    seg_ptr = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=seg_ptr[1:])
    within = np.arange(len(heads), dtype=np.int64) - seg_ptr[heads]
    starts = ptr[heads] + within * SEGMENT
    stops = np.minimum(starts + SEGMENT, ptr[heads + 1])
    marked = np.where(counts[heads] > 1, ~heads, heads)
    return SimpleNamespace(ptr=ex.asarray(ptr), tails=ex.asarray(tails),
                           weights=ex.asarray(weights), heads=ex.asarray(marked),
                           starts=ex.asarray(starts), stops=ex.asarray(stops),
                           level_ptr=[int(x) for x in bounds],
                           seg_ptr=[int(x) for x in seg_ptr[bounds]])


def record_launches(cp, queue, operands):
    """A function that queues on the current stream, in one host call, the work
    ``queue()`` queues on the current stream, recorded once as a CUDA graph (captured on
    a stream of its own: nothing runs then). The graph holds only the addresses of the
    arrays it reads and writes, so the function keeps ``operands`` (those arrays, or
    objects holding them) alive for as long as it can run: freed, CuPy's pool would hand
    their memory to other arrays. ``queue`` may only launch kernels already loaded and
    copy between device buffers (no allocation, no host synchronisation)."""
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        stream.begin_capture()
        try:
            queue()
        finally:
            graph = stream.end_capture()

    def launch():
        graph.launch()

    launch.operands = operands
    return launch


class _Sweeps:
    def recorded_sweeps(self, up, down, matrix, scratch, dist):
        """A callable that runs ``sweeps`` with these arguments again (the arrays'
        contents may change between calls, not the arrays, which it keeps alive): on
        CUDA one launch of a CUDA graph of the sweeps' kernels, whatever the number of
        levels."""
        return lambda: self.sweeps(up, down, matrix, scratch, dist)

    def sweeps(self, up, down, matrix, scratch, dist):
        """A batch's query: pull_level over the upward levels (the sweeps' level_ptr:
        the contracted levels, then the core's), ``core``, then pull_level over the
        downward levels from the top; every launch queued on the stream without a wait
        between them."""
        top = len(up.level_ptr) - 2
        for lv in range(top + 1):
            self.pull_level(up, lv, dist)
        self.core(up.level_ptr[top], matrix, scratch, dist)
        for lv in range(top - 1, -1, -1):
            self.pull_level(down, lv, dist)


class CudaOps(_Sweeps, CudaKernelTable):
    source = "phast_batched.cu"
    templates = ("phast_batch_pull", "phast_batch_core", "phast_batch_rows",
                 "phast_batch_init")
    types = (np.int32, np.int64)  # integer weights only; int32 where every sum fits

    def pull_level(self, sweep, lv, dist):
        """dist[p] = min(dist[p], dist[u] + w) elementwise over the batch, for every
        position p of level ``lv`` of ``sweep`` and in-arc (u, w) of p in the sweep."""
        begin, end = sweep.seg_ptr[lv], sweep.seg_ptr[lv + 1]
        if end <= begin:
            return
        width = dist.shape[1]
        chunks = -(-width // CHUNK)
        warps = (end - begin) * chunks
        self.kernel("phast_batch_pull", dist.dtype)(
            (-(-warps * 32 // BLOCK),), (BLOCK,),
            (np.int64(begin), np.int64(end), sweep.heads, sweep.starts, sweep.stops,
             sweep.tails, sweep.weights, np.int32(width), np.int32(chunks), dist))

    def core(self, begin, matrix, scratch, dist):
        """The core (positions begin.., k of them): dist[begin + j] = min over i of
        dist[begin + i] + matrix[i, j] elementwise over the batch, from the values
        before the call (copied to ``scratch``, k x width)."""
        k, width = len(matrix), dist.shape[1]
        if k == 0:
            return
        rows = dist[begin:]
        scratch.data.copy_from_device_async(rows.data, rows.nbytes)  # capturable
        self.kernel("phast_batch_core", dist.dtype)(
            (-(-k // TILE), -(-width // TILE)), (16, 16),
            (np.int32(k), np.int32(width), matrix, scratch, rows))

    def recorded_sweeps(self, up, down, matrix, scratch, dist):
        for name in self.templates:  # loaded now: no module is loaded while capturing
            self.kernel(name, dist.dtype)
        return record_launches(self.cp, lambda: self.sweeps(up, down, matrix, scratch, dist),
                               (up, down, matrix, scratch, dist))

    def init(self, source_pos, dist):
        """dist[p, b] = 0 where p = source_pos[b] (int32 positions of the batch's
        sources), every other entry unreached."""
        self.launch("phast_batch_init", dist.size,
                    (np.int64(dist.size), np.int32(dist.shape[1]), source_pos,
                     np.int32(len(source_pos)), dist), dtype=dist.dtype)

    def rows(self, pos, dist, count, out):
        """out[b, v] = dist[pos[v], b] for the first ``count`` columns, as int64
        (``out``: count x n int64; unreached: int64's maximum)."""
        n, width = len(pos), dist.shape[1]
        if n == 0 or count == 0:
            return
        self.kernel("phast_batch_rows", dist.dtype)(
            (-(-n // 32), -(-count // 32)), (32, 8),
            (pos, scalar(n, np.int32), scalar(width, np.int32), scalar(count, np.int32),
             dist, out))


class NumpyOps(_Sweeps, NumpyTwin):
    def pull_level(self, sweep, lv, dist):
        begin, end = sweep.level_ptr[lv], sweep.level_ptr[lv + 1]
        ptr, tails, weights = sweep.ptr, sweep.tails, sweep.weights
        lo, hi = int(ptr[begin]), int(ptr[end])
        if hi == lo:
            return
        counts = np.diff(ptr[begin:end + 1])
        has = np.flatnonzero(counts)
        inf = distance_inf(dist.dtype)
        du = dist[tails[lo:hi]]
        cand = np.where(du == inf, inf, du + weights[lo:hi, None].astype(dist.dtype))
        starts = (ptr[begin:end] - lo)[has]
        heads = begin + has
        dist[heads] = np.minimum(dist[heads], np.minimum.reduceat(cand, starts, axis=0))

    def core(self, begin, matrix, scratch, dist):
        k = len(matrix)
        if k == 0:
            return
        scratch[:k] = dist[begin:]
        inf = distance_inf(dist.dtype)
        best = np.full(dist[begin:].shape, inf, dtype=dist.dtype)
        step = max(1, CORE_STEP_ENTRIES // max(1, k * dist.shape[1]))
        for i in range(0, k, step):
            a = scratch[i:i + step, None, :]  # rows i.., every column of the batch
            d = matrix[i:i + step, :, None]
            both = (a != inf) & (d != inf)
            sums = np.where(both, np.where(both, a, 0) + np.where(both, d, 0), inf)
            best = np.minimum(best, sums.min(axis=0))
        dist[begin:] = best

    def init(self, source_pos, dist):
        dist.fill(distance_inf(dist.dtype))
        dist[source_pos, np.arange(len(source_pos))] = 0

    def rows(self, pos, dist, count, out):
        block = dist[pos, :count].T
        out[:] = np.where(block == distance_inf(dist.dtype), distance_inf(np.int64),
                          block.astype(np.int64))
