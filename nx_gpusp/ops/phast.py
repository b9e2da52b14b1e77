"""Kernel table for kernels/phast.cu (PHAST's sweeps for one query over a contraction
hierarchy and its core's distance matrix) and its NumPy twin.

Both take ``dist`` by position in the level order (1-D, the core's k positions last),
each sweep's in-arcs as an ops.phast_batched.Sweep (segments of one head), and the
core's distance matrix in dist's dtype (``distance_inf`` = no path)."""

import numpy as np

from ..graph import distance_inf
from .base import BLOCK, CudaKernelTable, NumpyTwin, scalar
from .phast_batched import record_launches

__all__ = ["CudaOps", "NumpyOps", "CORE_ROWS"]

CORE_ROWS = 64  # core rows a block of phast_core takes (PHAST_CORE_ROWS)


class _Sweeps:
    def query(self, src, up, down, core_pos, matrix, scratch, dist):
        """A whole query: ``dist`` unreached but 0 at the sources' positions
        src[1 .. src[0]] (int32), the upward levels (``up.level_ptr``: the contracted
        levels, then the core's), the core step over the positions ``core_pos``, then
        the downward levels from the top; every launch queued on the stream without a
        wait."""
        self.start(src, dist)
        top = len(up.level_ptr) - 2
        for lv in range(top + 1):
            self.pull_level(up, lv, dist)
        self.core(core_pos, matrix, dist, scratch)
        for lv in range(top - 1, -1, -1):
            self.pull_level(down, lv, dist)

    def recorded_query(self, src, up, down, core_pos, matrix, scratch, dist):
        """A callable that runs ``query`` with these arguments again (the arrays'
        contents may change between calls, not the arrays, which it keeps alive)."""
        return lambda: self.query(src, up, down, core_pos, matrix, scratch, dist)


class CudaOps(_Sweeps, CudaKernelTable):
    source = "phast.cu"
    templates = ("phast_sources", "phast_pull_segments", "phast_core_gather", "phast_core")
    types = (np.int32, np.int64)  # integer weights only; int32 where every sum fits

    def start(self, src, dist):
        """dist unreached, but 0 at the positions src[1 .. src[0]] (int32; at most
        len(src) - 1 of them)."""
        self.ex.ops("array_ops").fill(dist, distance_inf(dist.dtype))
        self.launch("phast_sources", max(len(src) - 1, 1), (src, dist), dtype=dist.dtype)

    def pull_level(self, sweep, lv, dist):
        """dist[p] = min(dist[p], dist[u] + w) for every position p of level ``lv`` and
        in-arc (u, w) of p in ``sweep``: one thread a segment of p's in-arcs."""
        begin, end = sweep.seg_ptr[lv], sweep.seg_ptr[lv + 1]
        if end > begin:
            self.kernel("phast_pull_segments", dist.dtype)(
                (-(-(end - begin) // BLOCK),), (BLOCK,),
                (np.int64(begin), np.int64(end), sweep.heads, sweep.starts, sweep.stops,
                 sweep.tails, sweep.weights, dist))

    def core(self, core, matrix, dist, scratch):
        """dist[core[j]] = min over i of dist[core[i]] + matrix[i, j] (the values before
        the call; ``scratch``: k entries)."""
        k = len(core)
        if k == 0:
            return
        self.launch("phast_core_gather", k, (core, scalar(k, np.int32), dist, scratch),
                    dtype=dist.dtype)
        self.kernel("phast_core", dist.dtype)(
            (-(-k // BLOCK), -(-k // CORE_ROWS)), (BLOCK,),
            (core, scalar(k, np.int32), matrix, scratch, dist))

    def recorded_query(self, src, up, down, core_pos, matrix, scratch, dist):
        """On CUDA one launch of a CUDA graph of the query's kernels (recorded now),
        whatever the number of levels."""
        for name in self.templates:  # loaded now: no module is loaded while capturing
            self.kernel(name, dist.dtype)
        self.ex.ops("array_ops")
        return record_launches(
            self.cp, lambda: self.query(src, up, down, core_pos, matrix, scratch, dist),
            (src, up, down, core_pos, matrix, scratch, dist))


class NumpyOps(_Sweeps, NumpyTwin):
    def start(self, src, dist):
        dist.fill(distance_inf(dist.dtype))
        dist[src[1:1 + int(src[0])]] = 0

    def pull_level(self, sweep, lv, dist):
        # the batched sweep's twin on one column (a view of dist)
        self.ex.ops("phast_batched").pull_level(sweep, lv, dist.reshape(-1, 1))

    def core(self, core, matrix, dist, scratch):
        k = len(core)
        if k == 0:
            return
        scratch[:k] = dist[core]
        inf = distance_inf(dist.dtype)
        both = (scratch[:k, None] != inf) & (matrix != inf)
        sums = np.where(both, scratch[:k, None] + np.where(both, matrix, 0), inf)
        dist[core] = np.minimum(scratch[:k], sums.min(axis=0))
