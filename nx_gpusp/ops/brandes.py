"""Kernel table for kernels/brandes.cu (Brandes' path counts and dependencies, many
sources a batch) and its NumPy twin.

Hop counts: flat vertex-major n x width arrays (entry v * width + s): ``dist`` int32
levels (UNSEEN unreached), ``sigma`` / ``delta`` float64, ``npred`` int32 or None.
Weights: flat source-major count x n arrays (entry s * n + v): ``dist`` of the distance
type (distance_inf unreached), ``order`` int32 (each row's reached vertices by
distance, ties in any order: ``row_order``), ``reached`` int64 per source. ``target``
uint8[n] or None, ``arc_sum`` float64[m] or None. ``mode``: BRANDES, SUBSET,
EDGE_SUBSET or LOAD (the share formulas of the .cu file). The forward passes with
``gate_source`` (LOAD) store npred 0 for a vertex with a tight arc from its source.
Each vertex's shares are summed over its arcs in CSR order, and every sum over sources
(``levels_arcs``, ``ordered_arcs``, ``add_in_order``) adds one source after another onto
the total so far, in the kernels as here: the same bits run after run and for any cut of
the sources into batches. The level kernels sum path counts by atomics (exact below
2**53).
"""

import numpy as np

from ..graph import distance_inf
from .base import (MAX_BLOCKS, SHARED_DEFAULT, CudaKernelTable, NumpyTwin, csr_rows,
                   gather_arcs, scalar)

__all__ = ["CudaOps", "NumpyOps", "UNSEEN", "BRANDES", "SUBSET", "EDGE_SUBSET", "LOAD"]

UNSEEN = np.iinfo(np.int32).max
BRANDES, SUBSET, EDGE_SUBSET, LOAD = 0, 1, 2, 3
ORDERED_BLOCK = 128  # a warp per source: 4 sources a block
ROW_ORDER_BLOCK = 1024  # brandes.cu: BRANDES_ORDER_THREADS
ROW_ORDER_SPAN = (SHARED_DEFAULT - 1024) // 4  # a counting sort's buckets, in shared memory


class CudaOps(CudaKernelTable):
    source = "brandes.cu"
    plain = ("brandes_levels_forward", "brandes_levels_backward", "brandes_levels_arcs",
             "brandes_add_in_order")
    templates = ("brandes_row_order", "brandes_ordered_forward", "brandes_ordered_backward",
                 "brandes_ordered_arcs")

    _dummies = None

    def _optional(self, arr, dtype, flag=1):
        """(array, flag): a one-entry placeholder and 0 where ``arr`` is None."""
        if arr is not None:
            return arr, scalar(flag, np.int32)
        if self._dummies is None:
            self._dummies = {}
        key = np.dtype(dtype)
        if key not in self._dummies:
            self._dummies[key] = self.cp.zeros(1, dtype=dtype)
        return self._dummies[key], scalar(0, np.int32)

    def levels_forward(self, g, width, level, dist, sigma, npred, more, gate_source=False):
        npred, track = self._optional(npred, np.int32, 2 if gate_source else 1)
        self.launch("brandes_levels_forward", g.n * width, (
            g.indptr, g.indices, scalar(g.n, np.int32), scalar(width, np.int32),
            scalar(level, np.int32), dist, sigma, npred, track, more))

    def levels_backward(self, g, width, level, dist, sigma, delta, mode, target, npred):
        target, _ = self._optional(target, np.uint8)
        npred, _ = self._optional(npred, np.int32)
        self.launch("brandes_levels_backward", g.n * width, (
            g.indptr, g.indices, scalar(g.n, np.int32), scalar(width, np.int32),
            scalar(level, np.int32), dist, sigma, delta, scalar(mode, np.int32), target,
            npred))

    def levels_arcs(self, g, width, count, dist, sigma, delta, mode, target, npred,
                    arc_sum):
        """arc_sum[arc] += each of the first ``count`` sources' share of the arc, in
        source order (after levels_backward's last level)."""
        target, _ = self._optional(target, np.uint8)
        npred, _ = self._optional(npred, np.int32)
        self.launch("brandes_levels_arcs", g.m, (
            g.indptr, g.indices, scalar(g.n, np.int32), scalar(g.m, np.int64),
            scalar(width, np.int32), scalar(count, np.int32), dist, sigma, delta,
            scalar(mode, np.int32), target, npred, arc_sum))

    def add_in_order(self, block, count, n, row_stride, col_stride, acc):
        """acc[v] += block[s * row_stride + v * col_stride] for s = 0 .. count - 1, in
        that order (float64)."""
        self.launch("brandes_add_in_order", n, (
            block, scalar(count, np.int32), scalar(n, np.int64), scalar(row_stride, np.int64),
            scalar(col_stride, np.int64), acc))

    def row_order(self, count, n, dist, order, reached):
        """Each row's reached vertices by distance into ``order``, their count into
        ``reached``: a counting sort a row (brandes_row_order), or CuPy's argsort of the
        rows where a row's distances crowd into too few buckets."""
        if count == 0:
            return
        overflow = self.cp.zeros(1, dtype=np.int32)
        shared = ROW_ORDER_SPAN * 4
        self.kernel_with_shared("brandes_row_order", dist.dtype, shared)(
            (min(count, MAX_BLOCKS),), (ROW_ORDER_BLOCK,), (
                dist, scalar(n, np.int32), scalar(count, np.int32),
                scalar(ROW_ORDER_SPAN, np.int32), order, reached, overflow),
            shared_mem=shared)
        if int(self.ex.to_host(overflow)[0]):
            rows = dist.reshape(count, n)
            order[:] = self.cp.argsort(rows, axis=1).astype(np.int32).reshape(-1)
            reached[:] = (rows != distance_inf(dist.dtype)).sum(axis=1)

    def ordered_forward(self, rg, rweights, count, sources, dist, order, reached, sigma,
                        npred, gate_source=False):
        npred, track = self._optional(npred, np.int32, 2 if gate_source else 1)
        self.launch("brandes_ordered_forward", count * 32, (
            rg.indptr, rg.indices, rweights, scalar(rg.n, np.int32), scalar(count, np.int32),
            sources, dist, order, reached, sigma, npred, track), dtype=dist.dtype,
            block=ORDERED_BLOCK)

    def ordered_backward(self, g, weights, count, dist, order, reached, sigma, delta, mode,
                         target, npred):
        target, _ = self._optional(target, np.uint8)
        npred, _ = self._optional(npred, np.int32)
        self.launch("brandes_ordered_backward", count * 32, (
            g.indptr, g.indices, weights, scalar(g.n, np.int32), scalar(count, np.int32),
            dist, order, reached, sigma, delta, scalar(mode, np.int32), target, npred),
            dtype=dist.dtype, block=ORDERED_BLOCK)

    def ordered_arcs(self, g, weights, count, dist, sigma, delta, mode, target, npred,
                     arc_sum):
        target, _ = self._optional(target, np.uint8)
        npred, _ = self._optional(npred, np.int32)
        self.launch("brandes_ordered_arcs", g.m, (
            g.indptr, g.indices, weights, scalar(g.n, np.int32), scalar(g.m, np.int64),
            scalar(count, np.int32), dist, sigma, delta, scalar(mode, np.int32), target,
            npred, arc_sum), dtype=dist.dtype)


def _shares(mode, sv, sw, dw, target, npred):
    """brandes.cu's brandes_share, elementwise."""
    if mode == BRANDES:
        return sv * ((1.0 + dw) / sw)
    if mode == SUBSET:
        return np.where(target, sv * ((dw + 1.0) / sw), sv * (dw / sw))
    if mode == LOAD:
        return np.divide(1.0 + dw, npred, out=np.zeros(len(dw)), where=npred > 0)
    return np.where(target, (sv / sw) * (1.0 + dw), dw / npred)


class NumpyOps(NumpyTwin):
    def levels_forward(self, g, width, level, dist, sigma, npred, more, gate_source=False):
        entries = np.flatnonzero(dist == level)
        v, s = np.divmod(entries, width)
        owner, arcs = gather_arcs(g.indptr, v)
        j = g.indices[arcs].astype(np.int64) * width + s[owner]
        ok = (dist[j] == UNSEEN) | (dist[j] == level + 1)
        j, tails = j[ok], entries[owner[ok]]
        dist[j] = level + 1
        np.add.at(sigma, j, sigma[tails])
        if npred is not None and not (gate_source and level == 0):
            np.add.at(npred, j, 1)
        if len(j):
            more[0] = 1

    def levels_backward(self, g, width, level, dist, sigma, delta, mode, target, npred):
        entries = np.flatnonzero(dist == level)
        v, s = np.divmod(entries, width)
        owner, arcs = gather_arcs(g.indptr, v)
        heads = g.indices[arcs].astype(np.int64)
        j = heads * width + s[owner]
        ok = dist[j] == level + 1
        owner, arcs, heads, j = owner[ok], arcs[ok], heads[ok], j[ok]
        c = _shares(mode, sigma[entries[owner]], sigma[j], delta[j],
                    None if target is None else target[heads].astype(bool),
                    None if npred is None else npred[j])
        acc = np.zeros(len(entries))
        np.add.at(acc, owner, c)
        delta[entries] = acc

    def levels_arcs(self, g, width, count, dist, sigma, delta, mode, target, npred,
                    arc_sum):
        tails, heads = csr_rows(g.indptr), g.indices.astype(np.int64)
        for s in range(count):
            i, j = tails * width + s, heads * width + s
            dv = dist[i]
            e = np.flatnonzero((dv != UNSEEN) & (dist[j] == dv + 1))
            i, j = i[e], j[e]
            arc_sum[e] += _shares(mode, sigma[i], sigma[j], delta[j],
                                  None if target is None else target[heads[e]].astype(bool),
                                  None if npred is None else npred[j])

    def add_in_order(self, block, count, n, row_stride, col_stride, acc):
        columns = np.arange(n, dtype=np.int64) * col_stride
        for s in range(count):
            acc += block[s * row_stride + columns]

    def row_order(self, count, n, dist, order, reached):
        rows = dist.reshape(count, n)
        order[:] = np.argsort(rows, axis=1, kind="stable").astype(np.int32).reshape(-1)
        reached[:] = (rows != distance_inf(dist.dtype)).sum(axis=1)

    def ordered_forward(self, rg, rweights, count, sources, dist, order, reached, sigma,
                        npred, gate_source=False):
        n = rg.n
        inf = distance_inf(dist.dtype)
        for p in range(int(reached.max(initial=0))):
            rows = np.flatnonzero(reached > p)
            v = order[rows * n + p].astype(np.int64)
            owner, arcs = gather_arcs(rg.indptr, v)
            base = rows[owner] * n
            du = dist[base + rg.indices[arcs]]
            reached_u = du != inf
            tight = reached_u & (np.where(reached_u, du, 0) + rweights[arcs]
                                 == dist[rows * n + v][owner])
            sv = np.bincount(owner, weights=np.where(tight, sigma[base + rg.indices[arcs]], 0.0),
                             minlength=len(rows))
            k = np.bincount(owner[tight], minlength=len(rows))
            if gate_source:  # a tight arc from the source: npred 0
                from_source = rg.indices[arcs] == sources[rows][owner]
                k[np.unique(owner[tight & from_source])] = 0
            first = v == sources[rows]
            sv[first], k[first] = 1.0, 0
            sigma[rows * n + v] = sv
            if npred is not None:
                npred[rows * n + v] = k

    def ordered_backward(self, g, weights, count, dist, order, reached, sigma, delta, mode,
                         target, npred):
        n = g.n
        for p in range(int(reached.max(initial=0)) - 1, -1, -1):
            rows = np.flatnonzero(reached > p)
            at = rows * n + order[rows * n + p].astype(np.int64)
            v = at - rows * n
            owner, arcs = gather_arcs(g.indptr, v)
            heads = g.indices[arcs].astype(np.int64)
            j = rows[owner] * n + heads
            tight = dist[at][owner] + weights[arcs] == dist[j]
            owner, heads, j = owner[tight], heads[tight], j[tight]
            c = _shares(mode, sigma[at][owner], sigma[j], delta[j],
                        None if target is None else target[heads].astype(bool),
                        None if npred is None else npred[j])
            delta[at] = np.bincount(owner, weights=c, minlength=len(rows))

    def ordered_arcs(self, g, weights, count, dist, sigma, delta, mode, target, npred,
                     arc_sum):
        tails, heads = csr_rows(g.indptr), g.indices.astype(np.int64)
        inf = distance_inf(dist.dtype)
        for row in range(0, count * g.n, g.n):
            dv = dist[row + tails]
            seen = dv != inf
            e = np.flatnonzero(seen & (np.where(seen, dv, 0) + weights == dist[row + heads]))
            w = row + heads[e]
            arc_sum[e] += _shares(mode, sigma[row + tails[e]], sigma[w], delta[w],
                                  None if target is None else target[heads[e]].astype(bool),
                                  None if npred is None else npred[w])
