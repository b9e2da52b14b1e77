"""Kernel table for kernels/bfs.cu (breadth-first search levels) and its NumPy twin.

State shared by both: ``levels`` int32 (UNSEEN: not reached), ``parent`` int32 or None
(parents not tracked), two int32 queues of n entries, ``status`` uint64[STATUS] as
documented at the top of bfs.cu. Levels are deterministic, so the twin matches the
kernels exactly in levels, queue contents (as sets: the kernels append in any order)
and status; parents may differ among equally valid ones (a tail one level up).

``block_levels`` runs top-down levels while the frontier's vertices and out-arcs stay
within ``arc_limit`` and writes the whole status; ``top_down_level`` and ``bottom_up_level``
run one level each and add their counts into a status the caller zeroed.
"""

import numpy as np

from .base import BLOCK, CudaKernelTable, NumpyTwin, gather_arcs, scalar

__all__ = ["CudaOps", "NumpyOps", "UNSEEN", "BLOCK_THREADS", "CHUNK", "STATUS",
           "S_SIZE", "S_ARCS", "S_SEEN_IN", "S_FOUND", "S_CHUNKS", "S_LEVEL", "S_PARITY",
           "chunk_capacity"]

UNSEEN = int(np.iinfo(np.int32).max)  # BFS_UNSEEN: the int32 "unreached" level
BLOCK_THREADS = 1024  # BFS_BLOCK: threads of block_levels
CHUNK = 1024  # BFS_CHUNK: arcs of a grid chunk
S_SIZE, S_ARCS, S_SEEN_IN, S_FOUND, S_CHUNKS, S_LEVEL, S_PARITY, STATUS = range(8)


def chunk_capacity(m):
    """Entries of the chunk list a grid top-down level may need: a vertex with d >= CHUNK
    arcs queues ceil(d / CHUNK) <= 2 d / CHUNK chunks."""
    return 2 * int(m) // CHUNK + 1


class CudaOps(CudaKernelTable):
    source = "bfs.cu"
    plain = ("bfs_block_levels", "bfs_top_down", "bfs_top_down_chunks", "bfs_bottom_up")
    templates = ()

    _dummy = None
    _chunk_grid = None

    def _parent(self, parent):
        """(array, track flag): the kernels take a pointer either way."""
        if parent is not None:
            return parent, scalar(1, np.int32)
        if self._dummy is None:
            self._dummy = self.ex.fill_bytes(self.cp.empty(1, dtype=np.int32), 0xFF)
        return self._dummy, scalar(0, np.int32)

    def block_levels(self, g, in_degree, levels, parent, queue_a, queue_b, size, level,
                     stop_level, arc_limit, target, status):
        par, track = self._parent(parent)
        self.kernel("bfs_block_levels")((1,), (BLOCK_THREADS,), (
            g.indptr, g.indices, in_degree, levels, par, track, queue_a, queue_b,
            scalar(size, np.int32), scalar(level, np.int32), scalar(stop_level, np.int32),
            scalar(arc_limit, np.int64), scalar(target, np.int32), status))

    def top_down_level(self, g, in_degree, levels, parent, queue, size, level, next_queue,
                       target, status, chunks):
        par, track = self._parent(parent)
        lvl, tgt = scalar(level, np.int32), scalar(target, np.int32)
        self.launch("bfs_top_down", size, (
            g.indptr, g.indices, in_degree, levels, par, track, queue,
            scalar(size, np.int32), lvl, next_queue, tgt, status, chunks))
        if self._chunk_grid is None:  # a few blocks per multiprocessor, grid-stride
            sms = self.cp.cuda.Device().attributes["MultiProcessorCount"]
            self._chunk_grid = 4 * sms
        self.kernel("bfs_top_down_chunks")((self._chunk_grid,), (BLOCK,), (
            g.indptr, g.indices, in_degree, levels, par, track, lvl, next_queue, tgt, status,
            chunks))

    def bottom_up_level(self, rg, g, in_degree, levels, parent, level, next_queue, target,
                        status):
        par, track = self._parent(parent)
        self.launch("bfs_bottom_up", g.n, (
            rg.indptr, rg.indices, g.indptr, in_degree, levels, par, track,
            scalar(g.n, np.int32), scalar(level, np.int32), next_queue,
            scalar(target, np.int32), status))


def _settle(g, in_degree, levels, parent, tails, heads, level, next_queue, target, status):
    """The twin's discovery: heads (distinct, in discovery order) join level + 1 with the
    given tails as parents; counts go into status."""
    levels[heads] = level + 1
    if parent is not None:
        parent[heads] = tails
    k = int(status[S_SIZE])
    next_queue[k:k + len(heads)] = heads
    status[S_SIZE] = k + len(heads)
    status[S_ARCS] += int((g.indptr[heads + 1] - g.indptr[heads]).sum())
    status[S_SEEN_IN] += int(in_degree[heads].sum())
    if target >= 0 and np.any(heads == target):
        status[S_FOUND] = 1


def _top_down(g, in_degree, levels, parent, frontier, level, next_queue, target, status):
    """One top-down level: each unseen head of an arc leaving ``frontier``, claimed by its
    first arc in CSR order (any claim is valid; the kernels' order is a race)."""
    owner, arcs = gather_arcs(g.indptr, frontier.astype(np.int64))
    heads = g.indices[arcs]
    fresh = levels[heads] == UNSEEN
    heads, first = np.unique(heads[fresh], return_index=True)
    order = np.argsort(first, kind="stable")  # discovery order
    tails = frontier[owner[fresh][first[order]]]
    _settle(g, in_degree, levels, parent, tails, heads[order], level, next_queue, target,
            status)


class NumpyOps(NumpyTwin):
    def block_levels(self, g, in_degree, levels, parent, queue_a, queue_b, size, level,
                     stop_level, arc_limit, target, status):
        cur, nxt, parity, seen_in = queue_a, queue_b, 0, 0
        while True:
            status[:] = 0
            _top_down(g, in_degree, levels, parent, cur[:size], level, nxt, target, status)
            size, seen_in = int(status[S_SIZE]), seen_in + int(status[S_SEEN_IN])
            level, parity = level + 1, parity ^ 1
            cur, nxt = nxt, cur
            if (size == 0 or status[S_FOUND] or level >= stop_level
                    or int(status[S_ARCS]) > arc_limit or size > arc_limit):
                break
        status[S_SEEN_IN], status[S_LEVEL], status[S_PARITY] = seen_in, level, parity

    def top_down_level(self, g, in_degree, levels, parent, queue, size, level, next_queue,
                       target, status, chunks):
        _top_down(g, in_degree, levels, parent, queue[:size], level, next_queue, target,
                  status)

    def bottom_up_level(self, rg, g, in_degree, levels, parent, level, next_queue, target,
                        status):
        """Every unseen vertex with an in-neighbour at ``level``, in vertex order, with
        its first such in-neighbour (reverse CSR order) as parent."""
        unseen = np.flatnonzero(levels == UNSEEN)
        owner, arcs = gather_arcs(rg.indptr, unseen)
        tails = rg.indices[arcs]
        hit = levels[tails] == level
        heads, first = np.unique(unseen[owner[hit]], return_index=True)
        _settle(g, in_degree, levels, parent, tails[hit][first], heads.astype(np.int32),
                level, next_queue, target, status)
