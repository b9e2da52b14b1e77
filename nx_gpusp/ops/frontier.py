"""Kernel table for kernels/frontier.cu (frontier Bellman-Ford rounds) and its NumPy twin."""

import numpy as np

from .base import CudaKernelTable, NumpyTwin, gather_arcs, relax_and_append, scalar

__all__ = ["CudaOps", "NumpyOps"]


class CudaOps(CudaKernelTable):
    source = "frontier.cu"
    templates = ("relax_frontier", "record_predecessors", "snapshot_frontier")

    def relax_frontier(self, g, frontier, frontier_dist, size, dist, lowered, round_,
                       next_frontier, next_size, cutoff):
        T = dist.dtype
        self.launch("relax_frontier", size, (
            g.indptr, g.indices, g.weights, frontier, frontier_dist, scalar(size, np.int32),
            dist, lowered, scalar(round_, np.int32), next_frontier, next_size,
            scalar(cutoff, T)), dtype=T)

    def record_predecessors(self, g, frontier, frontier_dist, size, dist, lowered, round_, pred):
        T = dist.dtype
        self.launch("record_predecessors", size, (
            g.indptr, g.indices, g.weights, frontier, frontier_dist, scalar(size, np.int32),
            dist, lowered, scalar(round_, np.int32), pred), dtype=T)

    def snapshot_frontier(self, frontier, size, dist, frontier_dist):
        self.launch("snapshot_frontier", size,
                    (frontier, scalar(size, np.int32), dist, frontier_dist), dtype=dist.dtype)


class NumpyOps(NumpyTwin):
    def relax_frontier(self, g, frontier, frontier_dist, size, dist, lowered, round_,
                       next_frontier, next_size, cutoff):
        owner, arcs = gather_arcs(g.indptr, frontier[:size].astype(np.int64))
        heads = g.indices[arcs]
        cand = frontier_dist[:size][owner] + g.weights[arcs]
        relax_and_append(dist, lowered, round_, heads, cand, cutoff, next_frontier, next_size)

    def record_predecessors(self, g, frontier, frontier_dist, size, dist, lowered, round_, pred):
        owner, arcs = gather_arcs(g.indptr, frontier[:size].astype(np.int64))
        heads = g.indices[arcs]
        tight = (lowered[heads] == round_) & (frontier_dist[:size][owner] + g.weights[arcs] == dist[heads])
        pred[heads[tight]] = frontier[:size][owner[tight]]

    def snapshot_frontier(self, frontier, size, dist, frontier_dist):
        frontier_dist[:size] = dist[frontier[:size]]
