"""Kernel table for kernels/crauser.cu (Crauser-based GPU Dijkstra: relax, minimum,
update) and its NumPy twin. ``block`` is the CUDA block size (a multiple of 32); the
twin ignores it."""

import numpy as np

from ..graph import distance_inf
from .base import BLOCK, CudaKernelTable, NumpyTwin, gather_arcs, scalar

__all__ = ["CudaOps", "NumpyOps"]

REDUCTION_BLOCKS = 1024  # grid cap of the minimum kernels: one atomic min per block


class CudaOps(CudaKernelTable):
    source = "crauser.cu"
    templates = ("relax", "relax_pull", "relax_dense", "minimum_general", "minimum_distance",
                 "update")

    def relax(self, g, frontier, unsettled, dist, cutoff, block=BLOCK):
        T = dist.dtype
        self.launch("relax", g.n, (g.indptr, g.indices, g.weights, frontier, unsettled,
                                   scalar(g.n, np.int32), dist, scalar(cutoff, T)),
                    dtype=T, block=block)

    def relax_pull(self, rg, frontier, unsettled, dist, cutoff, block=BLOCK):
        T = dist.dtype
        self.launch("relax_pull", rg.n, (rg.indptr, rg.indices, rg.weights, frontier,
                                         unsettled, scalar(rg.n, np.int32), dist,
                                         scalar(cutoff, T)),
                    dtype=T, block=block)

    def relax_dense(self, matrix, frontier, unsettled, dist, cutoff, block=BLOCK):
        T = dist.dtype
        n = dist.size
        self.launch("relax_dense", n, (matrix, frontier, unsettled, scalar(n, np.int32), dist,
                                       scalar(cutoff, T)),
                    dtype=T, block=block)

    def minimum(self, dist, unsettled, out_weight, threshold, block=BLOCK):
        """threshold[0] = min over unsettled u of dist[u] (+ out_weight[u] when given)."""
        T = dist.dtype
        n = dist.size
        threshold.fill(distance_inf(T))
        work = min(n, block * REDUCTION_BLOCKS)
        nn = scalar(n, np.int32)
        if out_weight is None:
            self.launch("minimum_distance", work, (dist, unsettled, nn, threshold),
                        dtype=T, block=block)
        else:
            self.launch("minimum_general", work, (dist, out_weight, unsettled, nn, threshold),
                        dtype=T, block=block)

    def update(self, frontier, unsettled, dist, threshold, block=BLOCK):
        T = dist.dtype
        n = dist.size
        self.launch("update", n, (frontier, unsettled, dist, scalar(n, np.int32),
                                  scalar(threshold, T)),
                    dtype=T, block=block)


class NumpyOps(NumpyTwin):
    def relax(self, g, frontier, unsettled, dist, cutoff, block=BLOCK):
        tails = np.flatnonzero(frontier)
        owner, arcs = gather_arcs(g.indptr, tails)
        heads = g.indices[arcs]
        cand = dist[tails][owner] + g.weights[arcs]
        keep = (unsettled[heads] != 0) & (cand <= cutoff)
        np.minimum.at(dist, heads[keep], cand[keep])

    def relax_pull(self, rg, frontier, unsettled, dist, cutoff, block=BLOCK):
        heads = np.flatnonzero(unsettled)
        owner, arcs = gather_arcs(rg.indptr, heads)
        tails = rg.indices[arcs]
        keep = frontier[tails] != 0
        cand = dist[tails[keep]] + rg.weights[arcs[keep]]
        heads = heads[owner[keep]]
        ok = cand <= cutoff
        np.minimum.at(dist, heads[ok], cand[ok])

    def relax_dense(self, matrix, frontier, unsettled, dist, cutoff, block=BLOCK):
        tails = np.flatnonzero(frontier)
        heads = np.flatnonzero(unsettled)
        if len(tails) == 0 or len(heads) == 0:
            return
        w = matrix[np.ix_(tails, heads)]
        arc = w != distance_inf(w.dtype)
        cand = np.where(arc, dist[tails][:, None] + np.where(arc, w, 0), 0)
        arc &= cand <= cutoff
        best = np.where(arc, cand, distance_inf(dist.dtype)).min(axis=0)
        dist[heads] = np.minimum(dist[heads], best)

    def minimum(self, dist, unsettled, out_weight, threshold, block=BLOCK):
        inf = distance_inf(dist.dtype)
        u = np.flatnonzero(unsettled)
        d = dist[u]
        if out_weight is not None:
            w = out_weight[u]
            d = np.where((d == inf) | (w == inf), inf, d + np.where(w == inf, 0, w))
        threshold[0] = d.min() if len(d) else inf

    def update(self, frontier, unsettled, dist, threshold, block=BLOCK):
        settle = (unsettled != 0) & (dist <= threshold)
        frontier[:] = settle
        unsettled[settle] = 0
