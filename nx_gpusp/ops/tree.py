"""Kernel table for kernels/tree.cu (shortest-path tree from final distances: a strict
tight-arc pass over the out-arcs or the in-arcs, a count of what it leaves, then
tight-arc BFS for that; the transpose CSR the in-arc pass reads; the tight-arc DAG of
NetworkX's predecessor lists) and its NumPy twin."""

import numpy as np

from ..graph import distance_inf
from .base import BLOCK, CudaKernelTable, NumpyTwin, csr_rows, gather_arcs, scalar

__all__ = ["CudaOps", "NumpyOps", "UNCLAIMED", "TREE_TILE"]

# pred value of a vertex no pass has claimed yet: four equal bytes (0xFE), so that a
# byte memset sets it (CuPy's fill is an elementwise launch: ~19 us of host time).
# Below -1, so that the sources' -1 stays apart and a maximum with -1 maps it there.
UNCLAIMED_BYTE = 0xFE
UNCLAIMED = int(np.array([UNCLAIMED_BYTE] * 4, dtype=np.uint8).view(np.int32)[0])
TREE_TILE = 1024  # arcs a block of tight_arc_parents takes at a time (tree.cu)


class CudaOps(CudaKernelTable):
    source = "tree.cu"
    templates = ("tight_arc_parents", "tight_in_arc_parents", "tree_unclaimed",
                 "tight_arc_bfs_claim", "transpose_arcs", "tight_arc_keys")
    plain = ("tree_finish", "in_degree_count", "in_degree_max", "arc_tails", "gather_index",
             "tight_arc_bfs_settle")
    types = (np.int64, np.float64, np.int32)  # int32: the pass on narrowed distances

    def _preds_of_bytes(self, n, byte):
        """int32[n] whose every byte is ``byte`` (a memset, not CuPy's fill launch)."""
        return self.ex.fill_bytes(self.cp.empty(n, dtype=np.int32), byte)

    def unclaimed_preds(self, n):
        """int32[n] set to UNCLAIMED (four UNCLAIMED_BYTE bytes)."""
        return self._preds_of_bytes(n, UNCLAIMED_BYTE)

    def no_preds(self, n):
        """int32[n] set to -1 (four 0xFF bytes)."""
        return self._preds_of_bytes(n, 0xFF)

    def tight_arc_parents(self, g, dist, pred, weights=None):
        """``weights``: the arc weights in ``dist``'s type (default ``g.weights``)."""
        tiles = -(-g.m // TREE_TILE)
        if not tiles:
            return
        self.launch("tight_arc_parents", tiles * BLOCK, (
            g.indptr, g.indices, g.weights if weights is None else weights,
            g.tile_rows(TREE_TILE), dist, scalar(g.m, np.int64), pred), dtype=dist.dtype,
            block=BLOCK)

    def tight_in_arc_parents(self, in_arcs, dist, pred):
        """``in_arcs``: (in_ptr, in_tails, in_weights) in ``dist``'s type
        (DeviceCSR.in_arcs)."""
        in_ptr, in_tails, in_weights = in_arcs
        self.launch("tight_in_arc_parents", dist.size, (
            in_ptr, in_tails, in_weights, dist, scalar(dist.size, np.int32), pred),
            dtype=dist.dtype)

    def max_in_degree(self, g):
        """The most arcs entering one vertex of ``g`` (a DeviceCSR with n > 0)."""
        cp = self.cp
        counts = cp.zeros(g.n, dtype=np.int32)
        most = cp.zeros(1, dtype=np.int32)
        self.launch("in_degree_count", g.m, (g.indices, scalar(g.m, np.int64), counts))
        self.launch("in_degree_max", g.n, (counts, scalar(g.n, np.int32), most),
                    max_blocks=self.resident_blocks("in_degree_max"))
        return int(self.ex.to_host(most)[0])

    def in_arcs(self, g, weights):
        """The transpose CSR of ``g`` (a DeviceCSR with m < 2**31): (in_ptr int64[n+1],
        in_tails int32[m], in_weights[m] of ``weights``' type), rows by head, each row's
        tails ascending."""
        cp, n, m = self.cp, g.n, g.m
        order = self.ex.ops("distance_order").distance_order(g.indices)  # stable by head
        tails = self._arc_tails(g)
        in_ptr = cp.empty(n + 1, dtype=np.int64)
        in_tails = cp.empty(m, dtype=np.int32)
        in_weights = cp.empty(m, dtype=weights.dtype)
        self.launch("transpose_arcs", max(m, n + 1), (
            g.indices, order, tails, weights, scalar(m, np.int64), scalar(n, np.int32),
            in_ptr, in_tails, in_weights), dtype=weights.dtype)
        return in_ptr, in_tails, in_weights

    def tight_arc_dag(self, g, dist, weights):
        """The tight arcs of ``dist`` (both ends reached, dist[u] + w == dist[v]; the
        weights in ``dist``'s type) by head: (counts int32[n] of each head's, their tails
        int32[k] head by head, each head's by non-decreasing tail distance, ties by
        tail), on the device."""
        cp, m = self.cp, g.m
        tails = self._arc_tails(g)
        keys = cp.empty(m, dtype=dist.dtype)
        self.launch("tight_arc_keys", m, (tails, g.indices, weights, dist,
                                          scalar(m, np.int64), keys), dtype=dist.dtype)
        sort = self.ex.ops("distance_order").distance_order  # stable
        by_dist = sort(keys)  # the tight arcs (keys below inf) by tail distance
        del keys
        heads = self._gather(g.indices, by_dist)
        counts = cp.zeros(g.n, dtype=np.int32)
        self.launch("in_degree_count", heads.size, (heads, scalar(heads.size, np.int64),
                                                    counts))
        return counts, self._gather(tails, self._gather(by_dist, sort(heads)))

    def _arc_tails(self, g):
        """int32[m]: each arc's tail."""
        tails = self.cp.empty(g.m, dtype=np.int32)
        self.launch("arc_tails", -(-g.m // TREE_TILE) * BLOCK, (
            g.indptr, g.tile_rows(TREE_TILE), scalar(g.m, np.int64), tails))
        return tails

    def _gather(self, src, idx):
        """src[idx] (int32)."""
        out = self.cp.empty(idx.size, dtype=np.int32)
        self.launch("gather_index", idx.size, (src, idx, scalar(idx.size, np.int64), out))
        return out

    def tree_unclaimed(self, dist, pred, count):
        self.launch("tree_unclaimed", dist.size, (
            dist, pred, scalar(dist.size, np.int32), count), dtype=dist.dtype)

    def tree_finish(self, pred, count, sources):
        """Where count[0] == ``sources``: every UNCLAIMED pred becomes -1; else nothing."""
        self.launch("tree_finish", pred.size, (pred, scalar(pred.size, np.int32), count,
                                               scalar(sources, np.int32)))

    def tight_arc_bfs_step(self, g, dist, frontier, size, pred, next_frontier, next_size):
        """One level of the tight-arc search: each UNCLAIMED v with a tight arc from the
        frontier gets the largest such tail and is appended to next_frontier."""
        self.launch("tight_arc_bfs_claim", size, (
            g.indptr, g.indices, g.weights, dist, frontier, scalar(size, np.int32), pred),
            dtype=dist.dtype)
        self.launch("tight_arc_bfs_settle", size, (
            g.indptr, g.indices, frontier, scalar(size, np.int32), pred, next_frontier,
            next_size))


class NumpyOps(NumpyTwin):
    def no_preds(self, n):
        return np.full(n, -1, dtype=np.int32)

    def unclaimed_preds(self, n):
        return np.full(n, UNCLAIMED, dtype=np.int32)

    def tight_arc_parents(self, g, dist, pred, weights=None):
        """pred[v] = the largest strictly closer tail of a tight arc into v (an atomic
        maximum on the GPU, over pred's negative start)."""
        if not g.m:
            return
        weights = g.weights if weights is None else weights
        tails = csr_rows(g.indptr, np.int32)
        tight = _strictly_tight(dist, tails, g.indices, weights)
        np.maximum.at(pred, g.indices[tight], tails[tight])

    def tight_in_arc_parents(self, in_arcs, dist, pred):
        """pred[v] = the last strictly closer tail of a tight in-arc of v, in in-arc
        order (the largest: rows list tails in ascending order); the others are left as
        they are."""
        in_ptr, in_tails, in_weights = in_arcs
        if not in_tails.size:
            return
        heads = csr_rows(in_ptr)
        tight = _strictly_tight(dist, in_tails, heads, in_weights)
        heads, tails = heads[tight], in_tails[tight]
        last = np.flatnonzero(np.r_[heads[1:] != heads[:-1], True]) if len(heads) else heads
        pred[heads[last]] = tails[last]

    def max_in_degree(self, g):
        return int(np.bincount(g.indices, minlength=g.n).max())

    def in_arcs(self, g, weights):
        order = np.argsort(g.indices, kind="stable")
        tails = csr_rows(g.indptr, np.int32)
        in_ptr = np.zeros(g.n + 1, dtype=np.int64)
        np.cumsum(np.bincount(g.indices, minlength=g.n), out=in_ptr[1:])
        return in_ptr, tails[order], weights[order]

    def tight_arc_dag(self, g, dist, weights):
        tails = csr_rows(g.indptr, np.int32)
        tight = _tight(dist, tails, g.indices, weights)
        tails, heads = tails[tight], g.indices[tight]
        order = np.argsort(dist[tails], kind="stable")  # tails ascend already: ties by tail
        order = order[np.argsort(heads[order], kind="stable")]
        return np.bincount(heads, minlength=g.n).astype(np.int32), tails[order]

    def tree_unclaimed(self, dist, pred, count):
        """count[0] += the reached vertices still UNCLAIMED."""
        count[0] += np.count_nonzero((pred == UNCLAIMED) & (dist != distance_inf(dist.dtype)))

    def tree_finish(self, pred, count, sources):
        if int(count[0]) == sources:
            pred[pred == UNCLAIMED] = -1

    def tight_arc_bfs_step(self, g, dist, frontier, size, pred, next_frontier, next_size):
        tails = frontier[:size].astype(np.int64)
        owner, arcs = gather_arcs(g.indptr, tails)
        heads = g.indices[arcs]
        tight = (pred[heads] == UNCLAIMED) & (dist[tails][owner] + g.weights[arcs] == dist[heads])
        heads, claimant = heads[tight], tails[owner[tight]]
        np.maximum.at(pred, heads, claimant.astype(np.int32))  # the largest claimant
        heads = np.unique(heads)
        k = int(next_size[0])
        next_frontier[k:k + len(heads)] = heads
        next_size[0] = k + len(heads)


def _tight(dist, tails, heads, weights):
    """The arcs (tails[i], heads[i]) of both ends reached whose weight makes up the
    difference (tight_arc_keys' test in tree.cu; du + w wraps for an integer "unreached"
    tail, which the first test masks)."""
    inf = distance_inf(dist.dtype)
    du, dv = dist[tails], dist[heads]
    with np.errstate(over="ignore", invalid="ignore"):
        return (du != inf) & (dv != inf) & (du + weights == dv)


def _strictly_tight(dist, tails, heads, weights):
    """The tight arcs whose tail is strictly closer (the passes' test in tree.cu)."""
    return _tight(dist, tails, heads, weights) & (dist[tails] < dist[heads])
