"""Kernel table for kernels/ms_bfs.cu (multi-source BFS, a bit per source) and its
NumPy twin.

State shared by both: ``frontier``, ``seen`` and ``next_`` uint64[n * words] (entry
v * words + k: sources 64k .. 64k + 63 at vertex v), ``dist`` int64 B x n and ``pred``
int32 B x n or None (parents not tracked), ``counts`` uint64[3] (zeroed by the caller
before ``advance``). A level's bitsets and distances are deterministic, so the twin
matches the kernels exactly in them; parents may differ among equally valid ones.
"""

import numpy as np

from .base import CudaKernelTable, NumpyTwin, gather_arcs, scalar

__all__ = ["CudaOps", "NumpyOps", "ALL_SOURCES", "last_word_mask"]

ALL_SOURCES = np.uint64(0xFFFFFFFFFFFFFFFF)


def last_word_mask(count):
    """The valid bits of the last word of a batch of ``count`` sources."""
    rest = count % 64
    return ALL_SOURCES if rest == 0 else np.uint64((1 << rest) - 1)


class CudaOps(CudaKernelTable):
    source = "ms_bfs.cu"
    plain = ("ms_bfs_top_down", "ms_bfs_bottom_up", "ms_bfs_advance")
    templates = ()

    _dummy = None

    def _pred(self, pred):
        if pred is not None:
            return pred, scalar(1, np.int32)
        if self._dummy is None:
            self._dummy = self.ex.fill_bytes(self.cp.empty(1, dtype=np.int32), 0xFF)
        return self._dummy, scalar(0, np.int32)

    def top_down(self, g, words, frontier, seen, next_, dist, pred, level):
        par, track = self._pred(pred)
        self.launch("ms_bfs_top_down", g.n * words, (
            g.indptr, g.indices, scalar(g.n, np.int32), scalar(words, np.int32), frontier,
            seen, next_, dist, par, track, scalar(level, np.int32)))

    def bottom_up(self, rg, words, last_mask, frontier, seen, next_, dist, pred, level):
        par, track = self._pred(pred)
        self.launch("ms_bfs_bottom_up", rg.n * words, (
            rg.indptr, rg.indices, scalar(rg.n, np.int32), scalar(words, np.int32),
            scalar(last_mask, np.uint64), frontier, seen, next_, dist, par, track,
            scalar(level, np.int32)))

    def advance(self, g, in_degree, words, last_mask, frontier, seen, next_, counts):
        self.launch("ms_bfs_advance", g.n * words, (
            g.indptr, in_degree, scalar(g.n, np.int32), scalar(words, np.int32),
            scalar(last_mask, np.uint64), frontier, seen, next_, counts))


def _source_bits(bits):
    """(row, bit) pairs of the set bits of a uint64 array, row-major."""
    as_bytes = np.ascontiguousarray(bits, dtype="<u8").view(np.uint8).reshape(-1, 8)
    return np.nonzero(np.unpackbits(as_bytes, axis=1, bitorder="little"))


def _join(n, words, tails, heads, k, bits, next_, dist, pred, level):
    """Arcs (tails -> heads) offering source bits ``bits`` (word k) to their heads: OR
    them into next_, and record each (source, head) newly set with the tail of its first
    offering arc (any is valid: the kernels' choice is a race or a lane order)."""
    keep = bits != 0
    tails, heads, k, bits = tails[keep], heads[keep], k[keep], bits[keep]
    entry = heads * words + k
    fresh = bits & ~next_[entry]
    np.bitwise_or.at(next_, entry, bits)
    arc, b = _source_bits(fresh)
    at = (k[arc] * 64 + b) * n + heads[arc]
    at, first = np.unique(at, return_index=True)
    dist.reshape(-1)[at] = level + 1
    if pred is not None:
        pred.reshape(-1)[at] = tails[arc[first]]


class NumpyOps(NumpyTwin):
    def top_down(self, g, words, frontier, seen, next_, dist, pred, level):
        entries = np.flatnonzero(frontier)
        u, k = np.divmod(entries, words)
        owner, arcs = gather_arcs(g.indptr, u)
        heads = g.indices[arcs].astype(np.int64)
        bits = frontier[entries[owner]] & ~seen[heads * words + k[owner]]
        _join(g.n, words, u[owner], heads, k[owner], bits, next_, dist, pred, level)

    def bottom_up(self, rg, words, last_mask, frontier, seen, next_, dist, pred, level):
        full = np.full(len(seen), np.uint64(ALL_SOURCES), dtype=np.uint64)
        full[words - 1::words] = last_mask
        need = full & ~seen
        entries = np.flatnonzero(need)
        v, k = np.divmod(entries, words)
        owner, arcs = gather_arcs(rg.indptr, v)
        tails = rg.indices[arcs].astype(np.int64)
        bits = frontier[tails * words + k[owner]] & need[entries[owner]]
        _join(rg.n, words, tails, v[owner], k[owner], bits, next_, dist, pred, level)

    def advance(self, g, in_degree, words, last_mask, frontier, seen, next_, counts):
        frontier[:] = next_
        seen |= next_
        next_[:] = 0
        full = np.full(len(seen), np.uint64(ALL_SOURCES), dtype=np.uint64)
        full[words - 1::words] = last_mask
        v = np.arange(len(seen)) // words
        active = np.flatnonzero(frontier)
        counts[0] += len(active)
        counts[1] += int((g.indptr[v[active] + 1] - g.indptr[v[active]]).sum())
        counts[2] += int(in_degree[v[seen != full]].sum())
