"""Kernel table for kernels/yen.cu (one round of Yen's spur searches as a batched
frontier) and its NumPy twin. Entries are ids r * n + v into the B x n (row-major)
state arrays; row r keeps the heads v with root_pos[v] > limit[r]."""

import numpy as np

from .base import BLOCK, CudaKernelTable, NumpyTwin, gather_arcs, relax_and_append, scalar

__all__ = ["CudaOps", "NumpyOps", "OFF_PATH", "NO_TAIL_YET"]

OFF_PATH = np.iinfo(np.int32).max  # root_pos of a vertex off the round's path
NO_TAIL_YET = np.iinfo(np.int32).max  # kernels/yen.cu's pred of an entry lowered this round


class CudaOps(CudaKernelTable):
    source = "yen.cu"
    templates = ("relax_spur_frontier", "record_spur_predecessors")
    plain = ("walk_spur_paths",)

    def relax_spur_frontier(self, g, frontier, frontier_dist, size, root_pos, limit, bound,
                            dist, lowered, round_, pred, next_frontier, next_size,
                            block=BLOCK):
        self.launch("relax_spur_frontier", size, (
            g.indptr, g.indices, g.weights, scalar(g.n, np.int32), frontier, frontier_dist,
            scalar(size, np.int64), root_pos, limit, bound, dist, lowered,
            scalar(round_, np.int32), pred, next_frontier, next_size),
            dtype=dist.dtype, block=block)

    def record_spur_predecessors(self, g, frontier, frontier_dist, size, root_pos, limit,
                                 dist, lowered, round_, pred, block=BLOCK):
        self.launch("record_spur_predecessors", size, (
            g.indptr, g.indices, g.weights, scalar(g.n, np.int32), frontier, frontier_dist,
            scalar(size, np.int64), root_pos, limit, dist, lowered, scalar(round_, np.int32),
            pred), dtype=dist.dtype, block=block)

    def walk_spur_paths(self, pred, n, rows, target, out, length):
        self.launch("walk_spur_paths", rows, (
            pred, scalar(n, np.int32), scalar(rows, np.int32), scalar(target, np.int32), out,
            length))


def _spur_arcs(g, frontier, size, root_pos, limit):
    """(frontier position, arc id, head entry id, tail vertex) of every arc leaving the
    frontier whose head the entry's row keeps."""
    ids = frontier[:size]
    tails = ids % g.n
    owner, arcs = gather_arcs(g.indptr, tails)
    rows = ids[owner] // g.n
    heads = g.indices[arcs]
    keep = root_pos[heads] > limit[rows]
    owner, arcs = owner[keep], arcs[keep]
    return owner, arcs, rows[keep] * g.n + heads[keep], tails[owner]


class NumpyOps(NumpyTwin):
    def relax_spur_frontier(self, g, frontier, frontier_dist, size, root_pos, limit, bound,
                            dist, lowered, round_, pred, next_frontier, next_size,
                            block=BLOCK):
        owner, arcs, heads, _ = _spur_arcs(g, frontier, size, root_pos, limit)
        cand = frontier_dist[:size][owner] + g.weights[arcs]
        keep = cand <= bound[heads // g.n]
        start = int(next_size[0])
        relax_and_append(dist, lowered, round_, heads[keep], cand[keep], dist.dtype.type(
            np.inf if dist.dtype.kind == "f" else np.iinfo(dist.dtype).max), next_frontier,
            next_size)
        pred[next_frontier[start:int(next_size[0])]] = NO_TAIL_YET

    def record_spur_predecessors(self, g, frontier, frontier_dist, size, root_pos, limit,
                                 dist, lowered, round_, pred, block=BLOCK):
        owner, arcs, heads, tails = _spur_arcs(g, frontier, size, root_pos, limit)
        tight = (lowered[heads] == round_) & (
            frontier_dist[:size][owner] + g.weights[arcs] == dist[heads])
        np.minimum.at(pred, heads[tight], tails[tight].astype(np.int32))

    def walk_spur_paths(self, pred, n, rows, target, out, length):
        for r in range(rows):
            base, v, k = r * n, target, 0
            if pred[base + target] >= 0:
                while v >= 0 and k < n:
                    out[base + k] = v
                    k += 1
                    v = int(pred[base + v])
            length[r] = k
