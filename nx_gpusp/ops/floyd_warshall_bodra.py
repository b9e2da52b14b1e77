"""Kernel table for kernels/floyd_warshall_bodra.cu (Bodra & Khairnar's per-edge,
per-edge-shared, per-vertex and tiled Floyd-Warshall) and its NumPy twin."""

import numpy as np

from .base import CudaKernelTable, NumpyTwin, scalar
from .floyd_warshall import TILE, fw_step

__all__ = ["CudaOps", "NumpyOps", "TILE"]

PER_STEP = ("fw_per_edge", "fw_per_edge_shared", "fw_per_vertex")
TILED = ("fw_tiled_phase1", "fw_tiled_phase2", "fw_tiled_phase3")


class CudaOps(CudaKernelTable):
    source = "floyd_warshall_bodra.cu"
    templates = PER_STEP + TILED

    def _args(self, d, p, h, k):
        null = np.uintp(0)
        return (d, null if p is None else p, null if p is None else h,
                scalar(d.shape[0], np.int32), scalar(k, np.int32))

    def fw_per_edge(self, d, p, h, k):
        n = d.shape[0]
        self.kernel("fw_per_edge", d.dtype)(((n + 15) // 16, (n + 15) // 16), (16, 16),
                                            self._args(d, p, h, k))

    def fw_per_edge_shared(self, d, p, h, k):
        n = d.shape[0]
        self.kernel("fw_per_edge_shared", d.dtype)(((n + 31) // 32, (n + 7) // 8), (32, 8),
                                                   self._args(d, p, h, k))

    def fw_per_vertex(self, d, p, h, k):
        self.launch("fw_per_vertex", d.shape[0], self._args(d, p, h, k), dtype=d.dtype)

    def fw_tiled_phase(self, phase, d, p, h, kb):
        nt = (d.shape[0] + TILE - 1) // TILE
        grid = {1: (1,), 2: (nt, 2), 3: (nt, nt)}[phase]
        self.kernel(TILED[phase - 1], d.dtype)(grid, (TILE, TILE), self._args(d, p, h, kb))


class NumpyOps(NumpyTwin):
    """Each per-k kernel is one vectorised step; the tiled phases relax the same index
    ranges through the same k's as the kernels, in the same phase order."""

    def fw_per_edge(self, d, p, h, k):
        fw_step(d, p, h, k)

    fw_per_edge_shared = fw_per_vertex = fw_per_edge

    def fw_tiled_phase(self, phase, d, p, h, kb):
        block = slice(kb * TILE, min((kb + 1) * TILE, d.shape[0]))
        regions = {1: [(block, block)],
                   2: [(block, slice(None)), (slice(None), block)],
                   3: [(slice(None), slice(None))]}[phase]
        for rows, cols in regions:
            for k in range(block.start, block.stop):
                fw_step(d, p, h, k, rows, cols)
