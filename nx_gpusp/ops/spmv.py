"""Kernel table for kernels/spmv.cu (min-plus SpMV Bellman-Ford, CSR and ELL) and its
NumPy twin, plus the ELL layout builder."""

import numpy as np

from ..graph import distance_inf
from .base import CudaKernelTable, NumpyTwin, csr_rows, scalar

__all__ = ["CudaOps", "NumpyOps", "ell_layout"]


def ell_layout(indptr, indices, weights):
    """Column-major ELL of a CSR: (cols[width * n] int32, -1 = padding; vals; width)."""
    n = len(indptr) - 1
    lengths = np.diff(indptr)
    width = int(lengths.max()) if n and len(indices) else 0
    cols = np.full(width * n, -1, dtype=np.int32)
    vals = np.zeros(width * n, dtype=weights.dtype)
    rows = csr_rows(indptr)
    slot = np.arange(len(indices), dtype=np.int64) - indptr[rows]
    cols[slot * n + rows] = indices
    vals[slot * n + rows] = weights
    return cols, vals, width


class CudaOps(CudaKernelTable):
    source = "spmv.cu"
    templates = ("spmv_csr_minplus", "spmv_ell_minplus")

    def csr_minplus(self, rg, prev, nxt, pred, track_pred, cutoff, changed):
        T = prev.dtype
        self.launch("spmv_csr_minplus", rg.n, (
            rg.indptr, rg.indices, rg.weights, scalar(rg.n, np.int32), prev, nxt, pred,
            scalar(track_pred, np.int32), scalar(cutoff, T), changed), dtype=T)

    def ell_minplus(self, ell, prev, nxt, pred, track_pred, cutoff, changed):
        T = prev.dtype
        n = prev.size
        self.launch("spmv_ell_minplus", n, (
            ell.cols, ell.weights, scalar(ell.width, np.int32), scalar(n, np.int32), prev,
            nxt, pred, scalar(track_pred, np.int32), scalar(cutoff, T), changed), dtype=T)


class NumpyOps(NumpyTwin):
    def _store(self, rows, tails, cand, prev, nxt, pred, track_pred, cutoff, changed):
        """Row-wise argmin of the candidates (first tail on ties), as the kernels store it."""
        inf = distance_inf(prev.dtype)
        ok = (prev[tails] != inf)
        rows, tails = rows[ok], tails[ok]
        cand = prev[tails] + cand[ok]
        ok = cand <= cutoff
        rows, tails, cand = rows[ok], tails[ok], cand[ok]
        nxt[:] = prev
        order = np.lexsort((cand, rows))
        rows, tails, cand = rows[order], tails[order], cand[order]
        first = np.ones(len(rows), dtype=bool)
        first[1:] = rows[1:] != rows[:-1]
        rows, tails, cand = rows[first], tails[first], cand[first]
        better = cand < prev[rows]
        rows, tails = rows[better], tails[better]
        nxt[rows] = cand[better]
        if len(rows):
            changed[0] = 1
            if track_pred:
                pred[rows] = tails

    def csr_minplus(self, rg, prev, nxt, pred, track_pred, cutoff, changed):
        rows = csr_rows(rg.indptr)
        self._store(rows, rg.indices.astype(np.int64), rg.weights, prev, nxt, pred,
                    track_pred, cutoff, changed)

    def ell_minplus(self, ell, prev, nxt, pred, track_pred, cutoff, changed):
        n = prev.size
        used = np.flatnonzero(ell.cols >= 0)
        self._store(used % n, ell.cols[used].astype(np.int64), ell.weights[used], prev, nxt,
                    pred, track_pred, cutoff, changed)
