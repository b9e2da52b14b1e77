"""Kernel table for kernels/dijkstra_reduction.cu (Dijkstra with ExtractMin as a parallel
reduction) and its NumPy twin. ``block`` is the CUDA block size (a multiple of 32)."""

import numpy as np

from ..graph import distance_inf
from .base import BLOCK, CudaKernelTable, NumpyTwin, scalar

__all__ = ["CudaOps", "NumpyOps", "partial_count"]

MAX_PARTIALS = 1024  # blocks of extract_partial = slots of the partial arrays
MAX_RELAX_THREADS = 1 << 16


def partial_count(n, block):
    """Number of blocks (and partial minima) of one ExtractMin over n vertices."""
    return max(1, min((n + block - 1) // block, MAX_PARTIALS))


class CudaOps(CudaKernelTable):
    source = "dijkstra_reduction.cu"
    templates = ("extract_partial", "extract_final", "relax_extracted")

    def extract_min(self, dist, unsettled, partial_dist, partial_vertex, best, block=BLOCK):
        """best[0] = unsettled vertex of smallest finite distance (-1: none); settles it."""
        T = dist.dtype
        n = dist.size
        blocks = partial_count(n, block)
        self.kernel("extract_partial", T)((blocks,), (block,), (
            dist, unsettled, scalar(n, np.int32), partial_dist, partial_vertex))
        self.kernel("extract_final", T)((1,), (block,), (
            partial_dist, partial_vertex, scalar(blocks, np.int32), unsettled, best))

    def relax_extracted(self, g, best, unsettled, dist, pred, cutoff, max_degree, block=BLOCK):
        T = dist.dtype
        self.launch("relax_extracted", min(max_degree, MAX_RELAX_THREADS), (
            g.indptr, g.indices, g.weights, best, unsettled, dist, pred, scalar(cutoff, T)),
            dtype=T, block=block)


class NumpyOps(NumpyTwin):
    def extract_min(self, dist, unsettled, partial_dist, partial_vertex, best, block=BLOCK):
        live = (unsettled != 0) & (dist != distance_inf(dist.dtype))
        if not live.any():
            best[0] = -1
            return
        masked = np.where(live, dist, distance_inf(dist.dtype))
        u = int(np.argmin(masked))
        best[0] = u
        unsettled[u] = 0

    def relax_extracted(self, g, best, unsettled, dist, pred, cutoff, max_degree, block=BLOCK):
        u = int(best[0])
        if u < 0:
            return
        arcs = np.arange(g.indptr[u], g.indptr[u + 1])
        heads = g.indices[arcs]
        cand = dist[u] + g.weights[arcs]
        better = (unsettled[heads] != 0) & (cand <= cutoff) & (cand < dist[heads])
        dist[heads[better]] = cand[better]
        pred[heads[better]] = u
