"""Kernel table for kernels/apsp_spmm.cu (batched min-plus SpMM Bellman-Ford over a
vertex-major n x B distance block) and its NumPy twin.

Both take the reverse CSR ``rg`` (in-arcs; weights already in dist's dtype), ``dist``
as an n x B array (B a multiple of ``chunk_width(dtype)``), ``stamp`` as n x chunks
int32 and ``changed`` as a 1-element int32 array set to 1 when a round lowers anything.
"""

import numpy as np

from ..graph import distance_inf
from .base import BLOCK, CudaKernelTable, NumpyTwin, csr_rows, scalar

__all__ = ["CudaOps", "NumpyOps", "chunk_width"]


def chunk_width(dtype):
    """Sources per warp chunk: 32 lanes x one 16-byte vector each."""
    return 32 * (16 // np.dtype(dtype).itemsize)


class CudaOps(CudaKernelTable):
    source = "apsp_spmm.cu"
    templates = ("relax_batch_pull", "tight_batch_predecessors")
    types = (np.int32, np.int64, np.float64)

    def _warps(self, name, rg, dist, extra, block):
        n, width = dist.shape
        chunks = width // chunk_width(dist.dtype)
        self.launch(name, n * chunks * 32, (
            rg.indptr, rg.indices, rg.weights,
            scalar(n, np.int32), scalar(chunks, np.int32), dist) + extra,
            dtype=dist.dtype, block=block)

    def relax_batch_pull(self, rg, dist, stamp, round_, changed, block=BLOCK):
        self._warps("relax_batch_pull", rg, dist,
                    (stamp, scalar(round_, np.int32), changed), block)

    def tight_batch_predecessors(self, rg, dist, pred, block=BLOCK):
        self._warps("tight_batch_predecessors", rg, dist, (pred,), block)


def _tails_and_heads(rg):
    heads = csr_rows(rg.indptr)
    return rg.indices.astype(np.int64), heads


def _candidates(dist, tails, weights, cols):
    """dist[tail, cols] + w with "unreached" absorbing (integer overflow masked)."""
    inf = distance_inf(dist.dtype)
    d = dist[np.ix_(tails, cols)]
    with np.errstate(over="ignore"):
        cand = d + weights.astype(dist.dtype)[:, None]
    return np.where(d == inf, inf, cand)


class NumpyOps(NumpyTwin):
    """Twin: each round pulls, for every (v, chunk) with a tail stamped in the previous
    round, from the distances as they were before the round (the CUDA warps may see
    fresher ones; both converge to the same distances)."""

    def relax_batch_pull(self, rg, dist, stamp, round_, changed, block=BLOCK):
        tails, heads = _tails_and_heads(rg)
        width = chunk_width(dist.dtype)
        before = dist.copy()
        for c in range(stamp.shape[1]):
            arcs = np.flatnonzero(stamp[tails, c] >= round_ - 1)
            if not len(arcs):
                continue
            cols = np.arange(c * width, (c + 1) * width)
            cand = _candidates(before, tails[arcs], rg.weights[arcs], cols)
            block_ = dist[:, cols]
            np.minimum.at(block_, heads[arcs], cand)
            rows = np.flatnonzero((block_ < before[:, cols]).any(axis=1))
            if len(rows):
                dist[:, cols] = block_
                stamp[rows, c] = round_
                changed[0] = 1

    def tight_batch_predecessors(self, rg, dist, pred, block=BLOCK):
        """The first tight in-arc from a strictly closer tail of each (v, source), in
        reverse-CSR order, as the CUDA warps pick it."""
        tails, heads = _tails_and_heads(rg)
        inf, m = distance_inf(dist.dtype), len(tails)
        pred[:] = -1
        has = np.flatnonzero(np.diff(rg.indptr) > 0)
        if not m:
            return
        width = chunk_width(dist.dtype)
        for start in range(0, dist.shape[1], width):
            cols = np.arange(start, start + width)
            dv = dist[np.ix_(heads, cols)]
            cand = _candidates(dist, tails, rg.weights, cols)
            du = dist[np.ix_(tails, cols)]
            first = np.where((dv != inf) & (du < dv) & (cand == dv), np.arange(m)[:, None], m)
            # segments of consecutive in-arc rows; empty rows (no in-arcs) are skipped
            best = np.minimum.reduceat(first, rg.indptr[has], axis=0)
            pred[np.ix_(has, cols)] = np.where(best < m, tails[np.minimum(best, m - 1)], -1)
