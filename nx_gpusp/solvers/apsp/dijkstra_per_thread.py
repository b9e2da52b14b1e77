"""dijkstra-per-thread: Bodra & Khairnar 2025's all-pairs Dijkstra, one GPU thread per
source running the O(n^2) array-scan Dijkstra on the adjacency matrix. Needs the dense
n x n matrix and does O(n^2) work per thread: a baseline for small graphs."""

import numpy as np

from ...methods import method
from ..sssp import cutoff_value
from . import SourceBatch, batch_size

__all__ = ["dijkstra_per_thread"]


@method(name="dijkstra-per-thread", problem="all-pairs",
        summary="one thread per source, O(n) array-scan Dijkstra on the adjacency matrix "
                "(small graphs)",
        paper="Bodra & Khairnar 2025, all-pairs Dijkstra",
        iterations_per_vertex=True)
def dijkstra_per_thread(ex, graph, sources, *, cutoff=None, want_pred=True):
    dtype = graph.distance_dtype()
    w = graph.dense(ex, dtype)  # self-loops stay on the diagonal: harmless, w >= 0
    cut = cutoff_value(cutoff, dtype)
    sources = np.asarray(sources, dtype=np.int64)
    b = batch_size(ex, graph, len(sources), dtype.itemsize + 1 + 4, "Dijkstra arrays")
    ops = ex.ops("apsp_dijkstra")
    for start in range(0, len(sources), b):
        chunk = sources[start:start + b]
        dist, pred = ops.dijkstra_per_thread(w, ex.asarray(chunk.astype(np.int32)), cut, want_pred)
        yield SourceBatch(chunk, dist, pred)
