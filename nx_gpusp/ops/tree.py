"""Kernel table for kernels/tree.cu (shortest-path tree from final distances: a strict
tight-arc pass, then tight-arc BFS for what it leaves) and its NumPy twin."""

import numpy as np

from ..graph import distance_inf
from .base import BLOCK, CudaKernelTable, NumpyTwin, gather_arcs, scalar

__all__ = ["CudaOps", "NumpyOps", "UNCLAIMED"]

UNCLAIMED = -2  # pred value of a vertex no pass has claimed yet


class CudaOps(CudaKernelTable):
    source = "tree.cu"
    templates = ("tight_arc_parents", "tight_arc_bfs_step")

    def tight_arc_parents(self, g, dist, pred):
        self.launch("tight_arc_parents", g.n * 32, (
            g.indptr, g.indices, g.weights, dist, scalar(g.n, np.int32), pred),
            dtype=dist.dtype, block=BLOCK)

    def tight_arc_bfs_step(self, g, dist, frontier, size, pred, next_frontier, next_size):
        self.launch("tight_arc_bfs_step", size, (
            g.indptr, g.indices, g.weights, dist, frontier, scalar(size, np.int32), pred,
            next_frontier, next_size), dtype=dist.dtype)


class NumpyOps(NumpyTwin):
    def tight_arc_parents(self, g, dist, pred):
        """pred[v] = the last strictly closer tail of a tight arc into v, in arc order
        (the CUDA warps store any of them)."""
        if not g.m:
            return
        inf = distance_inf(dist.dtype)
        tails = np.repeat(np.arange(g.n), np.diff(g.indptr))
        du, dv = dist[tails], dist[g.indices]
        with np.errstate(over="ignore", invalid="ignore"):
            tight = (du != inf) & (dv != inf) & (du < dv) & (du + g.weights == dv)
        pred[g.indices[tight]] = tails[tight]

    def tight_arc_bfs_step(self, g, dist, frontier, size, pred, next_frontier, next_size):
        tails = frontier[:size].astype(np.int64)
        owner, arcs = gather_arcs(g.indptr, tails)
        heads = g.indices[arcs]
        tight = (pred[heads] == UNCLAIMED) & (dist[tails][owner] + g.weights[arcs] == dist[heads])
        heads, first = np.unique(heads[tight], return_index=True)
        pred[heads] = tails[owner[tight]][first]
        k = int(next_size[0])
        next_frontier[k:k + len(heads)] = heads
        next_size[0] = k + len(heads)
