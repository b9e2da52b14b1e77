"""Kernel table for kernels/floyd_warshall.cu (blocked Floyd-Warshall) and its NumPy twin."""

import numpy as np

from .base import CudaKernelTable, scalar

__all__ = ["CudaOps", "NumpyOps", "TILE"]

TILE = 32


class CudaOps(CudaKernelTable):
    source = "floyd_warshall.cu"
    templates = ("fw_phase1", "fw_phase2", "fw_phase3")

    def blocked_floyd_warshall(self, d, p=None):
        """In place on the n x n matrix ``d`` (and ``p`` when given)."""
        n = d.shape[0]
        nt = (n + TILE - 1) // TILE
        T = d.dtype
        pp = p if p is not None else np.uintp(0)
        nn = scalar(n, np.int32)
        block = (TILE, TILE)
        for kb in range(nt):
            k = scalar(kb, np.int32)
            self.kernel("fw_phase1", T)((1,), block, (d, pp, nn, k))
            self.kernel("fw_phase2", T)((nt, 2), block, (d, pp, nn, k))
            self.kernel("fw_phase3", T)((nt, nt), block, (d, pp, nn, k))


class NumpyOps:
    def __init__(self, executor):
        self.ex = executor

    def blocked_floyd_warshall(self, d, p=None):
        """Row-vectorised Floyd-Warshall with the kernels' strict-decrease rule."""
        n = d.shape[0]
        inf = np.inf if d.dtype.kind == "f" else np.iinfo(d.dtype).max
        for k in range(n):
            dk_row = d[k, :]
            dk_col = d[:, k]
            finite = (dk_col != inf)[:, None] & (dk_row != inf)[None, :]
            with np.errstate(over="ignore", invalid="ignore"):
                cand = np.where(finite, dk_col[:, None] + dk_row[None, :], inf)
            better = cand < d
            if p is not None:
                p[better] = np.broadcast_to(p[k, :], d.shape)[better]
            np.copyto(d, cand, where=better)
