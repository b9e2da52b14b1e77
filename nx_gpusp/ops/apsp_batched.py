"""Kernel table for kernels/apsp_batched.cu (batched multi-source frontier rounds) and
its NumPy twin. Entries are ids s * n + v into the B x n (row-major) state arrays."""

import numpy as np

from .base import BLOCK, CudaKernelTable, NumpyTwin, gather_arcs, relax_and_append, scalar

__all__ = ["CudaOps", "NumpyOps"]


class CudaOps(CudaKernelTable):
    source = "apsp_batched.cu"
    templates = ("relax_batch_frontier", "record_batch_predecessors", "snapshot_batch_frontier")

    def relax_batch_frontier(self, g, frontier, frontier_dist, size, dist, lowered, round_,
                             next_frontier, next_size, cutoff, block=BLOCK):
        T = dist.dtype
        self.launch("relax_batch_frontier", size, (
            g.indptr, g.indices, g.weights, scalar(g.n, np.int32), frontier, frontier_dist,
            scalar(size, np.int64), dist, lowered, scalar(round_, np.int32), next_frontier,
            next_size, scalar(cutoff, T)), dtype=T, block=block)

    def record_batch_predecessors(self, g, frontier, frontier_dist, size, dist, lowered,
                                  round_, pred, block=BLOCK):
        T = dist.dtype
        self.launch("record_batch_predecessors", size, (
            g.indptr, g.indices, g.weights, scalar(g.n, np.int32), frontier, frontier_dist,
            scalar(size, np.int64), dist, lowered, scalar(round_, np.int32), pred),
            dtype=T, block=block)

    def snapshot_batch_frontier(self, frontier, size, dist, frontier_dist, block=BLOCK):
        self.launch("snapshot_batch_frontier", size,
                    (frontier, scalar(size, np.int64), dist, frontier_dist),
                    dtype=dist.dtype, block=block)


def _frontier_arcs(g, frontier, size):
    """(frontier position, arc id, head entry id) for every arc leaving the frontier."""
    ids = frontier[:size]
    owner, arcs = gather_arcs(g.indptr, ids % g.n)
    heads = ids[owner] - ids[owner] % g.n + g.indices[arcs]
    return owner, arcs, heads


class NumpyOps(NumpyTwin):
    def relax_batch_frontier(self, g, frontier, frontier_dist, size, dist, lowered, round_,
                             next_frontier, next_size, cutoff, block=BLOCK):
        owner, arcs, heads = _frontier_arcs(g, frontier, size)
        cand = frontier_dist[:size][owner] + g.weights[arcs]
        relax_and_append(dist, lowered, round_, heads, cand, cutoff, next_frontier, next_size)

    def record_batch_predecessors(self, g, frontier, frontier_dist, size, dist, lowered,
                                  round_, pred, block=BLOCK):
        owner, arcs, heads = _frontier_arcs(g, frontier, size)
        tight = (lowered[heads] == round_) & (
            frontier_dist[:size][owner] + g.weights[arcs] == dist[heads])
        pred[heads[tight]] = frontier[:size][owner[tight]] % g.n

    def snapshot_batch_frontier(self, frontier, size, dist, frontier_dist, block=BLOCK):
        frontier_dist[:size] = dist[frontier[:size]]
