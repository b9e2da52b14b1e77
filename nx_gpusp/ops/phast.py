"""Kernel table for kernels/phast.cu (PHAST's sweeps over a contraction hierarchy and
its core's distance matrix) and its NumPy twin."""

import threading
from collections import OrderedDict

import numpy as np

from ..graph import distance_inf
from .base import BLOCK, CudaKernelTable, NumpyTwin, scalar
from .phast_batched import record_launches

__all__ = ["CudaOps", "NumpyOps", "RECORDED_QUERIES"]

RECORDED_QUERIES = 4  # hierarchies whose recorded sweeps (and working copy) are kept
CORE_ROWS = 64  # core rows a block of phast_core takes (PHAST_CORE_ROWS)


class CudaOps(CudaKernelTable):
    source = "phast.cu"
    templates = ("phast_pull_level", "phast_core_gather", "phast_core")
    types = (np.int64,)  # integer weights only (solvers/sssp/phast.py)

    def pull_level(self, order, begin, end, ptr, tails, weights, dist):
        """dist[order[p]] = min(itself, dist[u] + w) over the in-arcs (ptr, tails,
        weights) of each position p in [begin, end)."""
        self.launch("phast_pull_level", (end - begin) * 32, (
            order, scalar(begin, np.int64), scalar(end, np.int64), ptr, tails, weights,
            dist), dtype=dist.dtype)

    def core(self, core, matrix, dist, scratch):
        """dist[core[j]] = min over i of dist[core[i]] + matrix[i, j] (the values before
        the call; ``scratch``: k entries)."""
        k = len(core)
        self.launch("phast_core_gather", k, (core, scalar(k, np.int32), dist, scratch),
                    dtype=dist.dtype)
        if k:
            self.kernel("phast_core", dist.dtype)(
                (-(-k // BLOCK), -(-k // CORE_ROWS)), (BLOCK,),
                (core, scalar(k, np.int32), matrix, scratch, dist))

    def sweeps(self, level_ptr, order, up, down, core, matrix, scratch, dist):
        """A whole query: pull_level over the upward levels (``level_ptr``: host offsets
        of the contracted levels and then the core's), ``core``, then pull_level over
        the downward levels from the top (``up``, ``down``: (ptr, tails, weights)).

        The launches (~2 a level) are recorded once per hierarchy as a CUDA graph over
        a working copy of ``dist`` kept with it: a query copies ``dist`` in, launches the
        graph (one host call whatever the levels) and copies the result back, all
        queued on the stream. The last RECORDED_QUERIES hierarchies' graphs are kept,
        keyed by their arrays' addresses and level offsets (arrays at the same addresses
        with the same offsets are swept by the same launches)."""
        bounds = tuple(int(x) for x in level_ptr)
        key = (bounds, dist.dtype, dist.size, len(core), order.data.ptr, core.data.ptr,
               matrix.data.ptr, *(a.data.ptr for a in (*up, *down)))
        graphs = self._cache.setdefault("recorded", OrderedDict())
        entry = graphs.get(key)
        if entry is None:
            for name in self.templates:  # loaded now: no module is loaded while capturing
                self.kernel(name, dist.dtype)
            work = self.cp.empty_like(dist)
            work_scratch = self.cp.empty(max(len(core), 1), dtype=dist.dtype)
            graph = record_launches(self.cp, lambda: self._queue_sweeps(
                bounds, order, up, down, core, matrix, work_scratch, work))
            entry = graphs[key] = [work, work_scratch, graph, threading.Lock(), None]
            while len(graphs) > RECORDED_QUERIES:
                graphs.popitem(last=False)
        graphs.move_to_end(key)
        work, _, graph, lock, _ = entry
        with lock:  # one working copy: queries from other streams or threads take turns
            self.ex.after(entry[4])  # on the device, after the last query with it
            work.data.copy_from_device_async(dist.data, dist.nbytes)
            graph.launch()
            dist.data.copy_from_device_async(work.data, dist.nbytes)
            entry[4] = self.ex.mark()

    def _queue_sweeps(self, bounds, order, up, down, core, matrix, scratch, dist):
        pull = self.kernel("phast_pull_level", dist.dtype)
        top = len(bounds) - 2

        def sweep(levels, arcs):
            for lv in levels:
                begin, end = bounds[lv], bounds[lv + 1]
                if end > begin:
                    pull((-(-(end - begin) * 32 // BLOCK),), (BLOCK,),
                         (order, np.int64(begin), np.int64(end), *arcs, dist))

        sweep(range(top + 1), up)
        if len(core):
            self.core(core, matrix, dist, scratch)
        sweep(range(top - 1, -1, -1), down)


class NumpyOps(NumpyTwin):
    def pull_level(self, order, begin, end, ptr, tails, weights, dist):
        lo, hi = int(ptr[begin]), int(ptr[end])
        if hi == lo:
            return
        heads = order[np.repeat(np.arange(begin, end), np.diff(ptr[begin:end + 1]))]
        du = dist[tails[lo:hi]]
        reached = du != distance_inf(dist.dtype)
        np.minimum.at(dist, heads[reached], du[reached] + weights[lo:hi][reached])

    def sweeps(self, level_ptr, order, up, down, core, matrix, scratch, dist):
        bounds = [int(x) for x in level_ptr]
        top = len(bounds) - 2
        for lv in range(top + 1):
            self.pull_level(order, bounds[lv], bounds[lv + 1], *up, dist)
        self.core(core, matrix, dist, scratch)
        for lv in range(top - 1, -1, -1):
            self.pull_level(order, bounds[lv], bounds[lv + 1], *down, dist)

    def core(self, core, matrix, dist, scratch):
        k = len(core)
        if k == 0:
            return
        scratch[:k] = dist[core]
        inf = distance_inf(dist.dtype)
        both = (scratch[:k, None] != inf) & (matrix != inf)
        sums = np.where(both, scratch[:k, None] + np.where(both, matrix, 0), inf)
        dist[core] = np.minimum(scratch[:k], sums.min(axis=0))
