"""Kernel table for kernels/bellman_ford.cu (Bodra & Khairnar's Bellman-Ford rounds) and
its NumPy twin, plus the host twins of "relax the out-arcs of these vertices" shared by
the other Bellman-Ford families."""

import numpy as np

from ..graph import distance_inf
from .base import BLOCK, CudaKernelTable, NumpyTwin, gather_arcs, scalar

__all__ = ["CudaOps", "NumpyOps", "arc_candidates", "relax_min", "record_tight_arcs"]


class CudaOps(CudaKernelTable):
    source = "bellman_ford.cu"
    templates = ("bf_relax", "bf_record_predecessors", "bf_update")

    def _grid(self, n, blocks):
        """blocks=0: one thread per vertex; else a fixed grid (the strided variant)."""
        if blocks:
            return int(blocks)
        return max(1, (int(n) + BLOCK - 1) // BLOCK)

    def default_blocks(self):
        """Strided variant's grid: 4 blocks per multiprocessor (fewer threads than vertices)."""
        return 4 * self.cp.cuda.Device().attributes["MultiProcessorCount"]

    def relax(self, g, prev, dist, flag, use_flags, cutoff, blocks=0):
        T = dist.dtype
        self.kernel("bf_relax", T)((self._grid(g.n, blocks),), (BLOCK,), (
            g.indptr, g.indices, g.weights, scalar(g.n, np.int32), prev, dist, flag,
            scalar(use_flags, np.int32), scalar(cutoff, T)))

    def record_predecessors(self, g, prev, dist, flag, use_flags, pred, blocks=0):
        T = dist.dtype
        self.kernel("bf_record_predecessors", T)((self._grid(g.n, blocks),), (BLOCK,), (
            g.indptr, g.indices, g.weights, scalar(g.n, np.int32), prev, dist, flag,
            scalar(use_flags, np.int32), pred))

    def update(self, prev, dist, flag, changed, blocks=0):
        n = prev.size
        self.kernel("bf_update", dist.dtype)((self._grid(n, blocks),), (BLOCK,), (
            scalar(n, np.int32), prev, dist, flag, changed))


def arc_candidates(g, tails, tail_dist, cutoff):
    """Arcs leaving ``tails`` (from the values ``tail_dist``) whose candidate
    tail_dist + w is finite and <= cutoff: (position in ``tails``, head, candidate)."""
    reached = tail_dist != distance_inf(tail_dist.dtype)
    tails, tail_dist = tails[reached], tail_dist[reached]
    owner, arcs = gather_arcs(g.indptr, tails.astype(np.int64))
    heads = g.indices[arcs].astype(np.int64)
    cand = tail_dist[owner] + g.weights[arcs]
    keep = cand <= cutoff
    return np.flatnonzero(reached)[owner[keep]], heads[keep], cand[keep]


def relax_min(target, heads, cand):
    """Atomic-minimum twin: target[h] = min(target[h], cand); returns the heads it lowered."""
    heads = np.asarray(heads, dtype=np.int64)
    unique = np.unique(heads)
    before = target[unique].copy()
    np.minimum.at(target, heads, cand)
    return unique[target[unique] < before]


def record_tight_arcs(g, tails, prev, dist, pred):
    """pred[v] = u for the arcs (u, v), u in ``tails``, with prev[u] + w == dist[v] < prev[v]."""
    owner, heads, cand = arc_candidates(g, tails, prev[tails], distance_inf(dist.dtype))
    tight = (dist[heads] < prev[heads]) & (cand == dist[heads])
    pred[heads[tight]] = tails[owner[tight]]


class NumpyOps(NumpyTwin):
    def default_blocks(self):
        return 0

    def _rows(self, n, flag, use_flags):
        return np.flatnonzero(flag) if use_flags else np.arange(n)

    def relax(self, g, prev, dist, flag, use_flags, cutoff, blocks=0):
        rows = self._rows(g.n, flag, use_flags)
        _owner, heads, cand = arc_candidates(g, rows, prev[rows], cutoff)
        relax_min(dist, heads, cand)

    def record_predecessors(self, g, prev, dist, flag, use_flags, pred, blocks=0):
        record_tight_arcs(g, self._rows(g.n, flag, use_flags), prev, dist, pred)

    def update(self, prev, dist, flag, changed, blocks=0):
        lowered = dist < prev
        flag[:] = lowered
        if lowered.any():
            prev[lowered] = dist[lowered]
            changed[0] = 1
