"""Kernel table for kernels/lbr.cu (locality-based relaxation) and its NumPy twin."""

import numpy as np

from .base import CudaKernelTable, NumpyTwin, scalar
from .bellman_ford import arc_candidates, relax_min

__all__ = ["CudaOps", "NumpyOps", "MAX_DEPTH", "WAVE_BUDGET"]

MAX_DEPTH = 32  # LBR_MAX_DEPTH in kernels/lbr.cu
WAVE_BUDGET = 1024  # descents of one depth-first wave before it hands its stack on


class CudaOps(CudaKernelTable):
    source = "lbr.cu"
    templates = ("lbr_relax_locality",)

    def relax_locality(self, g, dist, flag_in, flag_out, k, vertices_per_thread, cutoff,
                       changed, budget=WAVE_BUDGET):
        T = dist.dtype
        threads = (g.n + vertices_per_thread - 1) // vertices_per_thread
        self.launch("lbr_relax_locality", threads, (
            g.indptr, g.indices, g.weights, scalar(g.n, np.int32), dist, flag_in, flag_out,
            scalar(k, np.int32), scalar(vertices_per_thread, np.int32), scalar(cutoff, T),
            scalar(budget, np.int32), changed), dtype=T)


class NumpyOps(NumpyTwin):
    """The depth-first waves of all flagged vertices advanced level by level: level j
    relaxes the out-arcs of the vertices lowered at level j - 1 (from their current
    distances); vertices lowered at level k are flagged. Like the kernel, every vertex
    a launch lowers is either relaxed later in the launch or flagged. ``budget`` bounds
    the descents of the waves together (a level's vertices count once each, where the
    kernel's depth-first waves may visit a vertex many times): once a level would pass
    it, its vertices are flagged instead of relaxed, as the kernel flags its stack."""

    def relax_locality(self, g, dist, flag_in, flag_out, k, vertices_per_thread, cutoff,
                       changed, budget=WAVE_BUDGET):
        wave = np.flatnonzero(flag_in)
        flag_in[wave] = 0
        spent = 0
        for depth in range(k):
            if not len(wave):
                return
            if depth and spent + len(wave) > budget:
                break
            spent += len(wave) if depth else 0
            _owner, heads, cand = arc_candidates(g, wave, dist[wave], cutoff)
            wave = relax_min(dist, heads, cand)
        if len(wave):
            flag_out[wave] = 1
            changed[0] = 1
