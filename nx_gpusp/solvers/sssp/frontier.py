"""Frontier Bellman-Ford with snapshot relaxation (method "frontier").

Each round relaxes the arcs of the vertices lowered in the previous round, from their
distance at the end of that round (the snapshot), and gives a vertex a new
predecessor only in a round that strictly lowers it, to a tail whose snapshot plus
the arc weight equals the new distance. Then every predecessor cycle has negative
weight: for the arc of the cycle set last, its head was strictly lowered in that round,
so the next arc's snapshot of that head exceeds the head's current distance, and
summing d[head] >= snapshot[tail] + w around the cycle gives w(cycle) < 0. Without
negative cycles the predecessors therefore form a shortest-path tree, zero-weight
cycles included; with one, the rounds never end and the periodic pointer-jumping test
(or, as a backstop, round n) raises NetworkXUnbounded.

Float weights: a cycle whose exact length is zero can still lower a distance once
rounding makes it negative (-0.65 - 11.8 + 11.8 == -0.6500000000000004), after which the
run may converge with that cycle in the predecessor graph. NetworkX's Bellman-Ford
calls such a cycle negative (an improvement went all the way round it), so with float
weights and negative arcs the predecessor graph is also tested when the run ends: this
is the verdict every Bellman-Ford method of gpusp gives (the methods that keep no
predecessors ask this one, see bellman_ford.NegativeCycleGuard).

Works for any weights; the Dijkstra functions call it with non-negative weights and an
optional cutoff (arcs whose candidate exceeds it are not relaxed: with non-negative
weights nothing beyond the cutoff can lead back under it).
"""

import numpy as np

from ...methods import method
from . import SSSPResult, cutoff_value, check_negative_cycle, init_sources, source_indices

__all__ = ["frontier_sssp"]


@method(name="frontier", problem="sssp",
        summary="frontier Bellman-Ford: compacted frontier list, snapshot relaxation, "
                "predecessor tree and negative-cycle test on the device",
        paper="CUDA SSSP paper (Bellman-Ford work queue); Crauser paper's frontier-list proposal",
        negative_weights=True)
def frontier_sssp(ex, graph, sources, *, cutoff=None, want_pred=True):
    xp = ex.xp
    ops = ex.ops("frontier")
    g = graph.on(ex)
    n = graph.n
    dtype = graph.distance_dtype()
    ex.require_bytes(n * (2 * dtype.itemsize + 4 * 4), "frontier Bellman-Ford state")
    dist, pred = init_sources(ex, n, sources, dtype)
    negative = graph.has_negative_weights
    track_pred = want_pred or negative
    cut = cutoff_value(cutoff, dtype)

    frontier = xp.empty(n, dtype=np.int32)
    next_frontier = xp.empty(n, dtype=np.int32)
    frontier_dist = xp.zeros(n, dtype=dtype)
    next_dist = xp.empty(n, dtype=dtype)
    lowered = ex.ops("array_ops").full(n, -1, np.int32)
    next_size = xp.zeros(1, dtype=np.int32)
    srcs = source_indices(sources, np.int32)
    frontier[: len(srcs)] = ex.asarray(srcs)
    size = len(srcs)
    rounds = 0
    next_check = 16
    while size:
        rounds += 1
        if rounds > n:  # backstop: n rounds without convergence
            if negative:
                check_negative_cycle(ex, pred)
            from networkx import NetworkXUnbounded

            raise NetworkXUnbounded("Negative cycle detected.")
        next_size[0] = 0
        ops.relax_frontier(g, frontier, frontier_dist, size, dist, lowered, rounds,
                           next_frontier, next_size, cut)
        if track_pred:
            ops.record_predecessors(g, frontier, frontier_dist, size, dist, lowered, rounds, pred)
        size = int(next_size[0])
        ops.snapshot_frontier(next_frontier, size, dist, next_dist)
        frontier, next_frontier = next_frontier, frontier
        frontier_dist, next_dist = next_dist, frontier_dist
        if negative and rounds >= next_check:
            check_negative_cycle(ex, pred)
            next_check *= 2
    if negative and dtype.kind == "f":
        check_negative_cycle(ex, pred)  # a rounding cycle that converged (see above)
    return SSSPResult(dist=dist, pred=pred if want_pred else None, sources=srcs.astype(np.int64),
                      executor=ex, stats={"rounds": rounds})
