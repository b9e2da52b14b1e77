"""Breadth-first search: hop distances and BFS trees (problem "bfs", the engine of
NetworkX's unweighted functions).

A run is level-synchronous (kernels/bfs.cu). Levels with few frontier arcs run inside
ONE launch of a single block (``block_levels``: level after level with block barriers,
no host round trip, which is what road-like graphs of hundreds of levels need); a
larger frontier runs one level per grid launch, after which the host reads the level's
counts (vertices found, their out-arcs and in-arcs).

- ``top-down``: every level expands the frontier queue (Merrill, Garland & Grimshaw
  2012: thread, warp and block gathering of each frontier vertex's arcs).
- ``direction-optimizing`` (Beamer, Asanovic & Patterson, SC 2012): a level runs
  bottom-up (each unseen vertex scans its in-arcs for a frontier vertex, stopping at the
  first) once the frontier's out-arcs m_f exceed the unexplored vertices' in-arcs m_u
  divided by ``alpha``, and returns to top-down when the frontier shrinks below n /
  ``beta`` vertices. On a graph whose frontier never grows large (road networks) it
  never leaves top-down, so it is what ``method="auto"`` runs: the choice is made
  level by level from what the frontier does, not from the graph's name or shape
  (a graph with no more than ``block_arcs`` arcs runs whole in the single block).
  Bottom-up reads the reverse CSR (``CSRGraph.reverse``, built once per graph when a
  directed graph first needs it).

Every solver takes ``target`` (an index, or None): the run stops after the level that
reaches it. ``cutoff`` bounds the levels (hops <= floor(cutoff); sources are level 0).
Distances are int32 levels on the device (``UNSEEN`` = unreached);
``distances_from_levels`` widens them to the int64 distances (``distance_inf``) that
results use.
"""

import math

import numpy as np

from ...methods import method
from ...ops.bfs import (S_ARCS, S_FOUND, S_LEVEL, S_PARITY, S_SEEN_IN, S_SIZE, STATUS,
                        UNSEEN, chunk_capacity)
from . import SSSPResult, distance_inf, source_indices

__all__ = ["top_down_bfs", "direction_optimizing_bfs", "distances_from_levels",
           "depth_limit", "require_unit_weights", "level_predecessors", "BFSRun",
           "BLOCK_ARCS", "ALPHA", "BETA"]

# Frontier out-arcs (and vertices) up to which the single-block launch runs levels:
# about the work of 16 block passes of 1024 threads, which costs what a grid level's
# launch and host read cost (a choice from the kernels' shape, to be confirmed on the
# device).
BLOCK_ARCS = 16384
ALPHA, BETA = 14, 24  # Beamer et al.'s published switching parameters
NO_LIMIT = int(np.iinfo(np.int32).max) - 1


def depth_limit(cutoff):
    """The deepest level a ``cutoff`` keeps, read as the weighted functions read it
    (``d > cutoff`` is cut): None for no cutoff or NaN (nothing compares above NaN),
    else floor(cutoff) but at least 0 (the sources; -inf too). The unweighted functions
    pass their own depth (nx_gpusp.algorithms.unweighted.bfs_depth)."""
    if cutoff is None:
        return None
    cutoff = float(cutoff)
    if math.isnan(cutoff):
        return None
    if cutoff < 0:
        return 0
    if cutoff >= NO_LIMIT:
        return None
    return max(0, math.floor(cutoff))


def require_unit_weights(graph, method):
    """ValueError unless every arc weighs 1 (or the graph is unweighted)."""
    if graph.weighted and graph.m and not graph.min_weight == 1 == graph.max_weight:
        raise ValueError(
            f"gpusp method {method!r} computes hop counts (every arc weight 1), but this "
            f"graph's weights range from {graph.min_weight} to {graph.max_weight}; use the "
            "unweighted functions (weight=None) or a weighted method")


def distances_from_levels(levels):
    """int64 distances (distance_inf where unreached) from int32 levels (NumPy or CuPy)."""
    dist = levels.astype(np.int64)
    dist[levels == UNSEEN] = distance_inf(np.int64)
    return dist


def level_predecessors(graph, dist, v=None):
    """Every predecessor on a shortest path (a tail one level up: NetworkX's
    ``predecessor``), from host int64 distances: (order, counts, tails) with the reached
    vertices by level then index, how many predecessors each has, and their
    predecessors grouped in that order (each group by index). With ``v`` (reached):
    the same for v alone."""
    inf = distance_inf(np.int64)
    if v is not None:
        arcs = np.flatnonzero(graph.indices == v)
        tails = np.searchsorted(graph.indptr, arcs, side="right") - 1
        tails = tails[dist[tails] == dist[v] - 1]
        return np.array([v]), np.array([len(tails)]), tails
    reached = np.flatnonzero(dist != inf)
    order = reached[np.argsort(dist[reached], kind="stable")]
    rank = np.zeros(graph.n, dtype=np.int64)
    rank[order] = np.arange(len(order))
    tails = np.repeat(np.arange(graph.n, dtype=np.int64), graph.out_degree)
    heads = graph.indices.astype(np.int64)
    from_reached = dist[tails] != inf
    tight = from_reached & (dist[heads] == np.where(from_reached, dist[tails], 0) + 1)
    tails, ranks = tails[tight], rank[heads[tight]]
    tails = tails[np.lexsort((tails, ranks))]
    return order, np.bincount(ranks, minlength=len(order)), tails


class BFSRun:
    """The state of one run: levels, parents, two queues, the status words, and the
    host's copy of the last counts."""

    def __init__(self, ex, graph, sources, *, cutoff, want_pred, target, block_arcs):
        xp = ex.xp
        n = graph.n
        self.ex, self.graph, self.ops = ex, graph, ex.ops("bfs")
        self.g = graph.on(ex)
        ex.require_bytes(n * (4 * 4) + STATUS * 8, "BFS levels, parents and queues")
        self.in_degree = graph.on_device(ex, "in_degree")
        self.sources = source_indices(sources, np.int32)
        arrays = ex.ops("array_ops")
        self.levels = arrays.full(n, UNSEEN, np.int32)
        self.parent = arrays.full(n, -1, np.int32) if want_pred else None
        self.queues = [xp.empty(max(n, 1), dtype=np.int32) for _ in range(2)]
        self.status = xp.zeros(STATUS, dtype=np.uint64)
        self.chunks = None  # allocated by the first grid top-down level
        arrays.put(self.levels, self.sources.astype(np.int64), 0)
        arrays.put(self.queues[0], np.arange(len(self.sources)), self.sources)  # no CuPy kernel
        self.cur = 0  # the queue that holds the frontier
        self.size = len(self.sources)
        self.level = 0
        self.stop = depth_limit(cutoff)
        self.target = -1 if target is None else int(target)
        self.found = self.target in self.sources.tolist()
        self.block_arcs = int(block_arcs)
        self.arcs = int(graph.out_degree[self.sources].sum())  # m_f of the frontier
        self.unexplored = graph.m - int(graph.in_degree[self.sources].sum())  # m_u
        self.stats = {"levels": 0, "block_launches": 0, "block_levels": 0,
                      "top_down_levels": 0, "bottom_up_levels": 0}

    def more(self):
        return self.size > 0 and not self.found and (self.stop is None
                                                     or self.level < self.stop)

    def _read(self):
        st = [int(x) for x in self.ex.to_host(self.status).tolist()]
        self.size, self.arcs, self.found = st[S_SIZE], st[S_ARCS], bool(st[S_FOUND])
        self.unexplored -= st[S_SEEN_IN]
        return st

    def small(self):
        """The frontier is the single block's (vertices and out-arcs <= block_arcs)."""
        return self.arcs <= self.block_arcs and self.size <= self.block_arcs

    def block_levels(self, arc_limit):
        """Top-down levels in one single-block launch, until the frontier's vertices or
        out-arcs pass ``arc_limit`` (or it empties, the target is found, the cutoff is
        hit)."""
        stop = NO_LIMIT if self.stop is None else self.stop
        self.ops.block_levels(self.g, self.in_degree, self.levels, self.parent,
                              self.queues[self.cur], self.queues[1 - self.cur], self.size,
                              self.level, stop, arc_limit, self.target, self.status)
        st = self._read()
        self.stats["block_launches"] += 1
        self.stats["block_levels"] += st[S_LEVEL] - self.level
        self.level = st[S_LEVEL]
        self.cur ^= st[S_PARITY]

    def grid_level(self, bottom_up):
        """One level over the whole grid, top-down or bottom-up."""
        ops, g, nxt = self.ops, self.g, self.queues[1 - self.cur]
        self.status[:] = 0
        if bottom_up:
            rg = self.graph.reverse.on(self.ex)
            ops.bottom_up_level(rg, g, self.in_degree, self.levels, self.parent, self.level,
                                nxt, self.target, self.status)
            self.stats["bottom_up_levels"] += 1
        else:
            if self.chunks is None:
                self.chunks = self.ex.xp.empty(chunk_capacity(self.graph.m), dtype=np.int64)
            ops.top_down_level(g, self.in_degree, self.levels, self.parent,
                               self.queues[self.cur], self.size, self.level, nxt,
                               self.target, self.status, self.chunks)
            self.stats["top_down_levels"] += 1
        self._read()
        self.level += 1
        self.cur ^= 1

    def result(self):
        self.stats["levels"] = self.level
        return SSSPResult(dist=self.levels, pred=self.parent,
                          sources=self.sources.astype(np.int64), executor=self.ex,
                          stats=self.stats)


def _check(graph, name, block_arcs):
    require_unit_weights(graph, name)
    if int(block_arcs) < 0:
        raise ValueError(f"gpusp {name}: block_arcs must be >= 0, got {block_arcs}")


@method(name="top-down", problem="bfs",
        summary="frontier-queue BFS: levels with few frontier arcs in one single-block launch, "
                "larger ones one grid launch a level (thread/warp/block arc gathering)",
        paper="Merrill, Garland & Grimshaw 2012, Scalable GPU Graph Traversal (queue, gathering)",
        unit_weights_only=True,
        options={"block_arcs": (BLOCK_ARCS, "frontier out-arcs up to which one block runs the "
                                            "levels without returning to the host")})
def top_down_bfs(ex, graph, sources, *, cutoff=None, want_pred=True, target=None,
                 block_arcs=BLOCK_ARCS):
    _check(graph, "top-down", block_arcs)
    run = BFSRun(ex, graph, sources, cutoff=cutoff, want_pred=want_pred, target=target,
                 block_arcs=block_arcs)
    while run.more():
        if run.small():
            run.block_levels(run.block_arcs)
        else:
            run.grid_level(bottom_up=False)
    return run.result()


@method(name="direction-optimizing", problem="bfs",
        summary="top-down levels while the frontier is small, bottom-up levels (unseen vertices "
                "look for a frontier in-neighbour) while its arcs exceed the unexplored "
                "in-arcs / alpha",
        paper="Beamer, Asanovic & Patterson, SC 2012, Direction-Optimizing Breadth-First Search",
        unit_weights_only=True,
        options={"block_arcs": (BLOCK_ARCS, "frontier out-arcs up to which one block runs the "
                                            "levels without returning to the host"),
                 "alpha": (ALPHA, "go bottom-up when frontier out-arcs > unexplored in-arcs / "
                                  "alpha"),
                 "beta": (BETA, "back to top-down when the frontier shrinks below n / beta "
                                "vertices")})
def direction_optimizing_bfs(ex, graph, sources, *, cutoff=None, want_pred=True,
                             target=None, block_arcs=BLOCK_ARCS, alpha=ALPHA, beta=BETA):
    _check(graph, "direction-optimizing", block_arcs)
    if not alpha > 0 or not beta > 0:
        raise ValueError(f"gpusp direction-optimizing: alpha and beta must be > 0, got "
                         f"alpha={alpha}, beta={beta}")
    run = BFSRun(ex, graph, sources, cutoff=cutoff, want_pred=want_pred, target=target,
                 block_arcs=block_arcs)
    n = graph.n
    bottom_up, previous = False, 0
    while run.more():
        if bottom_up:
            # Beamer's return to top-down: the frontier shrinks and is below n / beta
            if run.size < previous and run.size * beta < n:
                bottom_up = False
        elif run.arcs * alpha > run.unexplored:
            bottom_up = True
        if not bottom_up and run.small():
            # the single block runs top-down levels until the frontier's arcs pass what
            # top-down should take (m_u / alpha, as it is now) or the block's share; a
            # graph with no more arcs than that share runs whole in the block
            whole = graph.m <= run.block_arcs
            run.block_levels(run.block_arcs if whole else
                             min(run.block_arcs, run.unexplored // alpha))
            continue
        previous = run.size
        run.grid_level(bottom_up)
    return run.result()
