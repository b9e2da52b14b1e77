"""Kernel table for kernels/apsp_dijkstra.cu (Bodra & Khairnar's all-pairs Dijkstra, one
thread per source, linear-scan minimum on the adjacency matrix) and its NumPy twin,
which runs the same settle order for all sources at once."""

import numpy as np

from ..graph import distance_inf
from .base import CudaKernelTable, NumpyTwin, scalar

__all__ = ["CudaOps", "NumpyOps"]


class CudaOps(CudaKernelTable):
    source = "apsp_dijkstra.cu"
    templates = ("dijkstra_per_thread",)

    def dijkstra_per_thread(self, w, sources, cutoff, want_pred):
        """(dist, pred or None), B x n, for the B ``sources`` (device int32)."""
        cp = self.cp
        n, b = w.shape[0], int(sources.size)
        dist = cp.empty((n, b), dtype=w.dtype)
        settled = cp.empty((n, b), dtype=np.uint8)
        pred = cp.empty((n, b), dtype=np.int32) if want_pred else None
        self.launch("dijkstra_per_thread", b, (
            w, scalar(n, np.int32), sources, scalar(b, np.int32), scalar(cutoff, w.dtype),
            dist, settled, pred if want_pred else np.uintp(0)), dtype=w.dtype, block=128)
        return dist.T, (pred.T if want_pred else None)


class NumpyOps(NumpyTwin):
    def dijkstra_per_thread(self, w, sources, cutoff, want_pred):
        n, b = w.shape[0], len(sources)
        inf = distance_inf(w.dtype)
        rows = np.arange(b)
        dist = np.full((b, n), inf, dtype=w.dtype)
        settled = np.zeros((b, n), dtype=bool)
        pred = np.full((b, n), -1, dtype=np.int32)
        dist[rows, sources] = 0
        for _ in range(n):
            open_dist = np.where(settled, inf, dist)
            u = np.argmin(open_dist, axis=1)
            best = open_dist[rows, u]
            active = (best != inf) & (best <= cutoff)
            if not active.any():
                break
            r, u, best = rows[active], u[active], best[active]
            settled[r, u] = True
            wu = w[u]
            arc = (wu != inf) & ~settled[r]
            with np.errstate(over="ignore"):
                cand = np.where(arc, best[:, None] + np.where(arc, wu, 0), inf)
            better = arc & (cand < dist[r])
            rr, vv = np.nonzero(better)
            dist[r[rr], vv] = cand[rr, vv]
            pred[r[rr], vv] = u[rr]
        return dist, (pred if want_pred else None)
