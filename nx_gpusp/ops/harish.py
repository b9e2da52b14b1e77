"""Kernel table for kernels/harish.cu (Harish & Narayanan's two kernels) and its NumPy
twin (the Bellman-Ford round twins: kernel 1 relaxes the flagged vertices from d into
up, kernel 2 is bf_update with prev = d, dist = up, plus up = d)."""

import numpy as np

from . import bellman_ford
from .base import BLOCK, scalar

__all__ = ["CudaOps", "NumpyOps"]


class CudaOps(bellman_ford.CudaOps):
    source = "harish.cu"
    templates = ("harish_kernel1", "harish_kernel2") + bellman_ford.CudaOps.templates

    def kernel1(self, g, d, up, fa, cutoff):
        T = d.dtype
        self.kernel("harish_kernel1", T)((self._grid(g.n, 0),), (BLOCK,), (
            g.indptr, g.indices, g.weights, scalar(g.n, np.int32), d, up, fa,
            scalar(cutoff, T)))

    def kernel2(self, d, up, fa, f):
        n = d.size
        self.kernel("harish_kernel2", d.dtype)((self._grid(n, 0),), (BLOCK,), (
            scalar(n, np.int32), d, up, fa, f))


class NumpyOps(bellman_ford.NumpyOps):
    def kernel1(self, g, d, up, fa, cutoff):
        self.relax(g, d, up, fa, True, cutoff)

    def kernel2(self, d, up, fa, f):
        self.update(d, up, fa, f)
        up[:] = d
