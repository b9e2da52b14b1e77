"""A negative cycle reachable from a source (NetworkX's ``find_negative_cycle``), found
by the frontier Bellman-Ford rounds of nx_gpusp.solvers.sssp.frontier (kernels/
frontier.cu: snapshot relaxation, predecessors set only on a strict decrease).

With that rule every cycle of the predecessor graph is a negative cycle (proof in
frontier.py), and a reachable negative cycle shows up as one by the end of round n:
a vertex lowered in round r has its predecessor in the frontier of round r, i.e.
lowered in round r - 1 or later, so from a vertex lowered in round n the predecessor
chain passes n vertices that were all lowered at least once, each with a predecessor,
and must repeat one. The rounds therefore test the predecessor graph (pointer jumping)
after rounds 16, 32, 64, ... and after round n; an empty frontier means no reachable
negative cycle.

The cycle is read from the predecessors: pointer jumping leads every vertex whose
chain ends in a cycle onto it; the cycle through the first such vertex is walked on the
host and returned forward (each vertex followed by its successor on the cycle), from
its vertex that comes first in node order, its first vertex repeated at the end.
"""

import numpy as np

from . import cutoff_value, init_sources

__all__ = ["negative_cycle"]

FIRST_CHECK = 16


def negative_cycle(ex, graph, source):
    """Vertex indices [c, ..., c] of a negative cycle reachable from the vertex index
    ``source`` (arcs from each to the next), or None when there is none."""
    xp = ex.xp
    ops = ex.ops("frontier")
    g = graph.on(ex)
    n = graph.n
    dtype = graph.distance_dtype()
    ex.require_bytes(n * (2 * dtype.itemsize + 4 * 4), "frontier Bellman-Ford state")
    dist, pred = init_sources(ex, n, [source], dtype)
    frontier = xp.empty(n, dtype=np.int32)
    next_frontier = xp.empty(n, dtype=np.int32)
    frontier_dist = xp.zeros(n, dtype=dtype)
    next_dist = xp.empty(n, dtype=dtype)
    lowered = xp.full(n, -1, dtype=np.int32)
    next_size = xp.zeros(1, dtype=np.int32)
    frontier[0] = source
    size, rounds, next_check = 1, 0, FIRST_CHECK
    cut = cutoff_value(None, dtype)
    while size:
        rounds += 1
        next_size[0] = 0
        ops.relax_frontier(g, frontier, frontier_dist, size, dist, lowered, rounds,
                           next_frontier, next_size, cut)
        ops.record_predecessors(g, frontier, frontier_dist, size, dist, lowered, rounds, pred)
        size = int(next_size[0])
        ops.snapshot_frontier(next_frontier, size, dist, next_dist)
        frontier, next_frontier = next_frontier, frontier
        frontier_dist, next_dist = next_dist, frontier_dist
        if size and (rounds >= n or rounds >= next_check):
            cycle = predecessor_cycle(ex, pred)
            if cycle is not None:
                return cycle
            if rounds >= n:  # cannot happen (see the module's proof)
                raise RuntimeError("nx_gpusp: round n found no predecessor cycle")
            next_check *= 2
    return None


def predecessor_cycle(ex, pred):
    """A cycle of the predecessor array ``pred`` (-1: none) as forward vertex indices
    [c, ..., c], c the cycle's smallest index; None when ``pred`` is a forest."""
    xp = ex.xp
    n = int(pred.size)
    anc = xp.where(pred < 0, xp.arange(n, dtype=np.int32), pred)
    for _ in range(max(1, n.bit_length() + 1)):  # 2**jumps >= n steps: onto the cycle
        anc = anc[anc]
    members = xp.flatnonzero((pred >= 0) & (pred[anc] >= 0))
    if members.size == 0:
        return None
    start = int(anc[int(members[0])])
    parents = ex.to_host(pred)
    back = [start]  # start, its predecessor, ... around the cycle
    v = int(parents[start])
    while v != start:
        back.append(v)
        v = int(parents[v])
    forward = back[:1] + back[:0:-1]  # each vertex's successor is the one it precedes
    first = forward.index(min(forward))
    forward = forward[first:] + forward[:first]
    return forward + forward[:1]
