"""Kernel table for kernels/tree.cu (tight-arc BFS shortest-path tree) and its NumPy twin."""

import numpy as np

from .base import CudaKernelTable, gather_arcs, scalar

__all__ = ["CudaOps", "NumpyOps", "UNCLAIMED"]

UNCLAIMED = -2  # pred value of a vertex no BFS step has claimed yet


class CudaOps(CudaKernelTable):
    source = "tree.cu"
    templates = ("tight_arc_bfs_step",)

    def tight_arc_bfs_step(self, g, dist, frontier, size, pred, next_frontier, next_size):
        self.launch("tight_arc_bfs_step", size, (
            g.indptr, g.indices, g.weights, dist, frontier, scalar(size, np.int32), pred,
            next_frontier, next_size), dtype=dist.dtype)


class NumpyOps:
    def __init__(self, executor):
        self.ex = executor

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
