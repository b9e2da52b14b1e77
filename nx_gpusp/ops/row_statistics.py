"""Kernel table for kernels/row_statistics.cu (the per-source statistics of a block of
int64 distance rows, fused: nx_gpusp.solvers.apsp.measures) and its NumPy twin.

``statistics(dist, columns)``: dist is B x n int64 (``distance_inf`` = unreached; a
view is copied to contiguous rows first),
``columns`` a bool n-vector or None; returns device arrays (reached int64, sum int64,
max int64, inverse_sum float64), one entry per row. The sums must fit int64 (the
caller checks)."""

import numpy as np

from ..graph import distance_inf
from .base import BLOCK, CudaKernelTable, NumpyTwin

__all__ = ["CudaOps", "NumpyOps"]


class CudaOps(CudaKernelTable):
    source = "row_statistics.cu"
    plain = ("row_statistics",)
    templates = ()

    def statistics(self, dist, columns):
        cp = self.cp
        b, n = dist.shape
        reached, sums, maxima = (cp.empty(b, dtype=np.int64) for _ in range(3))
        inverse = cp.empty(b, dtype=np.float64)
        if b:
            mask = columns.view(np.uint8) if columns is not None else None
            # the kernel reads n-entry rows one after another: a view (dijkstra-per-
            # thread's transposed batch, a slice of a wider block) is copied first
            dist = cp.ascontiguousarray(dist)
            self.kernel("row_statistics")((b,), (BLOCK,), (
                dist, np.int64(n), mask if mask is not None else np.uint64(0),
                reached, sums, maxima, inverse))
        return reached, sums, maxima, inverse


class NumpyOps(NumpyTwin):
    def statistics(self, dist, columns):
        inf = distance_inf(np.int64)
        reached = dist != inf
        finite = np.where(reached, dist, 0)
        positive = reached & (dist != 0)
        if columns is not None:
            positive &= columns[None, :]
        with np.errstate(over="ignore", divide="ignore"):
            inverse = np.where(positive, 1.0 / np.where(positive, dist, 1).astype(np.float64),
                               0.0).sum(axis=1)
        lowest = np.iinfo(np.int64).min
        maxima = dist.max(axis=1) if dist.shape[1] else np.full(len(dist), lowest)
        return (reached.sum(axis=1).astype(np.int64), finite.sum(axis=1).astype(np.int64),
                maxima.astype(np.int64), inverse)
