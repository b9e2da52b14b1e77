"""Locality-based relaxation (Safari & Ebnenasir 2017): method "lbr".

One kernel launch per host iteration; each thread owns ``vertices_per_thread``
consecutive vertices; a flagged vertex starts a depth-first relaxation wave of up to
``k`` hops, and the vertices the wave lowers at depth k are flagged in the other of two
flag arrays (they alternate by iteration parity). The host first launches the kernel
``launches`` times without reading anything back, then loops, reading a changed flag
after each launch, until a launch flags nothing.

``launches`` defaults as in the paper to "typical iteration count / k": the paper takes
the typical count from offline runs of Harish's algorithm; here it is the hop depth of
a breadth-first search from the sources (a lower bound of Harish's iterations, so the
blind launches rarely run idle), computed once on the host.

A wave descends at most ``wave_budget`` times (not in the paper): below a negative
cycle every visit lowers its vertex again, so an unbounded wave grows as
out-degree^k and a launch never returned (k = 32 on a 17-vertex multigraph). A wave out
of budget flags its stack for the next launch, so nothing it lowered is lost, and every
launch ends.

Negative cycles: a launch relaxes, or flags, the out-arcs of every vertex lowered since
they were last relaxed, but a wave cut short is less than a Jacobi round, so the round
bound does not apply; after 16 launches the verdict is delegated once to frontier_sssp
(NetworkXUnbounded, or a proof that the launches end: without a negative cycle every
launch that flags has lowered a distance, and distances take finitely many values).
pred is None: concurrent waves cannot keep a predecessor together with its distance.
"""

import numpy as np

from ...methods import method
from ...ops.base import gather_arcs
from ...ops.lbr import MAX_DEPTH, WAVE_BUDGET
from . import SSSPResult, source_indices
from .bellman_ford import (NegativeCycleGuard, refuse_cycles_before_overflow, round_state,
                           source_flags)

__all__ = ["lbr_sssp", "hop_depth"]


def hop_depth(graph, sources):
    """Number of breadth-first levels below the sources (0: nothing else reachable)."""
    seen = np.zeros(graph.n, dtype=bool)
    level = source_indices(sources)
    seen[level] = True
    depth = -1
    while len(level):
        depth += 1
        _owner, arcs = gather_arcs(graph.indptr, level)
        heads = np.unique(graph.indices[arcs])
        level = heads[~seen[heads]].astype(np.int64)
        seen[level] = True
    return max(depth, 0)


@method(name="lbr", problem="sssp",
        summary="locality-based relaxation: one kernel per iteration, depth-k relaxation "
                "waves, two alternating flag arrays, blind launches before polling",
        paper="Safari & Ebnenasir 2017", negative_weights=True,
        options={"k": (4, f"hops of a relaxation wave (1..{MAX_DEPTH})"),
                 "vertices_per_thread": (2, "consecutive vertices owned by one thread"),
                 "wave_budget": (WAVE_BUDGET, "descents of one relaxation wave before it "
                                              "flags its stack for the next launch"),
                 "launches": (None, "launches before the host starts polling (None: hop depth "
                                    "of a BFS from the sources / k)")})
def lbr_sssp(ex, graph, sources, *, cutoff=None, want_pred=True, k=4, vertices_per_thread=2,
             launches=None, wave_budget=WAVE_BUDGET):
    if not 1 <= k <= MAX_DEPTH:
        raise ValueError(f"gpusp method 'lbr': k must be in 1..{MAX_DEPTH}, got {k}")
    if vertices_per_thread < 1:
        raise ValueError("gpusp method 'lbr': vertices_per_thread must be >= 1")
    if not 1 <= wave_budget < 2**31:
        raise ValueError(f"gpusp method 'lbr': wave_budget must be in 1..2**31-1, got "
                         f"{wave_budget}")
    xp = ex.xp
    ops = ex.ops("lbr")
    n = graph.n
    ex.require_bytes(n * (graph.distance_dtype().itemsize + 2), "locality-based relaxation")
    refuse_cycles_before_overflow(ex, graph, sources)
    g, dist, _pred, srcs, cut = round_state(ex, graph, sources, cutoff)
    if launches is None:
        launches = -(-hop_depth(graph, srcs) // k)
    flags = [source_flags(ex, n, srcs), xp.zeros(n, dtype=np.uint8)]
    changed = xp.zeros(1, dtype=np.int32)
    guard = NegativeCycleGuard(ex, graph, srcs, round_bound=False)
    rounds = 0

    def launch():
        nonlocal rounds
        i = rounds % 2
        ops.relax_locality(g, dist, flags[i], flags[1 - i], k, vertices_per_thread, cut,
                           changed, wave_budget)
        rounds += 1

    for _ in range(min(launches, n)):
        launch()
    while True:
        changed[0] = 0
        launch()
        if not int(changed[0]):
            break
        guard.after_round(rounds)
    guard.finish()
    return SSSPResult(dist=dist, pred=None, sources=srcs.astype(np.int64), executor=ex,
                      stats={"rounds": rounds, "blind_launches": min(launches, n)})
