"""All-pairs drivers: dense Floyd-Warshall, batched SSSP, Johnson.

An all-pairs SSSP method ("all-pairs" problem) is a generator
``solver(ex, graph, sources, *, cutoff, want_pred, **options)`` yielding
:class:`SourceBatch` chunks in source order, each sized to what the device can hold,
so that callers stream results instead of holding n x n of them. The method modules are
imported at the end of this file, which registers their methods.
"""

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["SourceBatch", "batch_size", "BATCH_OPTION", "CPU_BATCH_ENTRIES"]

# the NumPy twins' working set per batch (source x vertex entries)
CPU_BATCH_ENTRIES = 1 << 21
# the "batch" option of the batched methods (sources per batch; see batch_size)
BATCH_OPTION = {"batch": (None, "sources per batch (default: as many as free memory holds)")}


@dataclass
class SourceBatch:
    """Results for consecutive sources: dist (B x n, distance dtype, distance_inf =
    unreached) and pred (B x n int32 shortest-path trees, -1 at roots, or None), on the
    executor's device; sources are host int64 vertex indices."""

    sources: np.ndarray
    dist: Any
    pred: Any


def batch_size(ex, graph, count, entry_bytes, what, requested=None):
    """Sources per batch: ``requested``, else as many as half the free device memory holds
    at ``entry_bytes`` per (source, vertex) entry; at most ``count``."""
    if requested is not None:
        return max(1, min(count, int(requested)))
    row = max(graph.n, 1) * entry_bytes
    if ex.is_cuda:
        ex.require_bytes(row, f"one source's {what}")
        fit = ex.free_bytes() // 2 // row
    else:
        fit = CPU_BATCH_ENTRIES // max(graph.n, 1)
    return max(1, min(count, fit))


# the methods (after the shared pieces above, which they import)
from . import (batched, batched_bfs, concurrent, dijkstra_per_thread,  # noqa: E402, F401
               floyd_warshall, floyd_warshall_bodra, floyd_warshall_dpx, phast_batched,
               spmm)
