"""Kernel table for kernels/contraction.cu (the reductions of a contraction round,
solvers/sssp/contraction.py) and its NumPy twin; int64 arrays throughout."""

import numpy as np

from .base import CudaKernelTable, NumpyTwin, scalar

__all__ = ["CudaOps", "NumpyOps"]


class CudaOps(CudaKernelTable):
    source = "contraction.cu"
    plain = ("contraction_scatter_min", "contraction_segment_min")

    def scatter_min(self, target, index, values):
        """target[index[i]] = min(itself, values[i]) for every i, in place."""
        self.launch("contraction_scatter_min", len(index),
                    (target, index, values, scalar(len(index), np.int64)))

    def segment_min(self, values, starts):
        """The minimum of each run values[starts[s]:starts[s + 1]] (the last to the end;
        ``starts`` increasing, from 0)."""
        out = self.cp.empty(len(starts), dtype=np.int64)
        self.launch("contraction_segment_min", len(starts),
                    (values, starts, scalar(len(starts), np.int64),
                     scalar(len(values), np.int64), out))
        return out

    def repeat_index(self, counts, total):
        """0..len(counts)-1, each i repeated counts[i] times (``total``: their sum)."""
        ends = self.cp.cumsum(counts)
        return self.cp.searchsorted(ends, self.cp.arange(total), side="right")


class NumpyOps(NumpyTwin):
    def scatter_min(self, target, index, values):
        np.minimum.at(target, index, values)

    def segment_min(self, values, starts):
        if not len(starts):
            return np.zeros(0, dtype=np.int64)
        return np.minimum.reduceat(values, starts)

    def repeat_index(self, counts, total):
        return np.repeat(np.arange(len(counts), dtype=np.int64), counts)
