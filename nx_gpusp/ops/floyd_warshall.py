"""Kernel table for kernels/floyd_warshall.cu (blocked Floyd-Warshall) and its NumPy twin."""

import numpy as np

from ..graph import distance_inf
from .base import CudaKernelTable, NumpyTwin, scalar

__all__ = ["CudaOps", "NumpyOps", "TILE", "fw_step"]

TILE = 32


class CudaOps(CudaKernelTable):
    source = "floyd_warshall.cu"
    templates = ("fw_phase1", "fw_phase2", "fw_phase3", "fw_arc_counts")

    def arc_counts(self, d):
        """Initial int32 arc counts h of the paths in the n x n ``d``: 1 per arc, 0 on
        the diagonal and where there is no path."""
        n = d.shape[0]
        h = self.cp.empty((n, n), dtype=np.int32)
        self.launch("fw_arc_counts", n * n, (d, scalar(n, np.int64), h), dtype=d.dtype)
        return h

    def blocked_floyd_warshall(self, d, p=None, h=None):
        """In place on the n x n matrix ``d`` (and ``p`` when given; ``h``: the arc
        counts, made from ``d`` when not given)."""
        n = d.shape[0]
        nt = (n + TILE - 1) // TILE
        T = d.dtype
        if p is not None and h is None:
            h = self.arc_counts(d)
        pp = p if p is not None else np.uintp(0)
        hh = h if p is not None else np.uintp(0)
        nn = scalar(n, np.int32)
        block = (TILE, TILE)
        for kb in range(nt):
            k = scalar(kb, np.int32)
            self.kernel("fw_phase1", T)((1,), block, (d, pp, hh, nn, k))
            self.kernel("fw_phase2", T)((nt, 2), block, (d, pp, hh, nn, k))
            self.kernel("fw_phase3", T)((nt, nt), block, (d, pp, hh, nn, k))


def fw_step(d, p, h, k, rows=slice(None), cols=slice(None)):
    """One Floyd-Warshall step through vertex ``k`` on d[rows, cols] (slices: views),
    with the kernels' rule: a strict decrease of (distance, arcs h) when ``p`` is
    tracked (of the distance alone otherwise), then p[i][j] = p[k][j]; INF absorbs."""
    inf = distance_inf(d.dtype)
    dik, dkj = d[rows, k], d[k, cols]
    finite = (dik != inf)[:, None] & (dkj != inf)[None, :]
    with np.errstate(over="ignore", invalid="ignore"):
        cand = np.where(finite, dik[:, None] + dkj[None, :], inf)
    block = d[rows, cols]
    better = cand < block
    if p is not None:
        hc = h[rows, k][:, None] + h[k, cols][None, :]
        hblock = h[rows, cols]
        better |= finite & (cand == block) & (hc < hblock)
        p[rows, cols][better] = np.broadcast_to(p[k, cols], block.shape)[better]
        np.copyto(hblock, hc, where=better)
    np.copyto(block, cand, where=better)


class NumpyOps(NumpyTwin):
    def arc_counts(self, d):
        h = (d != distance_inf(d.dtype)).astype(np.int32)
        np.fill_diagonal(h, 0)
        return h

    def blocked_floyd_warshall(self, d, p=None, h=None):
        """Row-vectorised Floyd-Warshall with the kernels' rule."""
        if p is not None and h is None:
            h = self.arc_counts(d)
        for k in range(d.shape[0]):
            fw_step(d, p, h, k)
