"""Harish & Narayanan's GPU SSSP (method "harish"), as described in Safari & Ebnenasir
2017: per host iteration, kernel 1 relaxes the flagged vertices from d into up (atomic
minimum), kernel 2 moves up into d, sets the flags and the host-visible changed flag;
the host loops until nothing changed. Rounds, predecessors (snapshot rule, d being the
snapshot) and the negative-cycle verdict are those of bellman_ford.jacobi_rounds.
"""

from ...methods import method
from .bellman_ford import jacobi_rounds, source_flags

__all__ = ["harish_sssp"]


@method(name="harish", problem="sssp",
        summary="Harish & Narayanan: two kernels per iteration (relax flagged vertices into "
                "up, then update d, flags and a host-visible changed flag)",
        paper="Safari & Ebnenasir 2017 (baseline of Harish & Narayanan)",
        negative_weights=True)
def harish_sssp(ex, graph, sources, *, cutoff=None, want_pred=True):
    ops = ex.ops("harish")
    ex.require_bytes(graph.n * (2 * graph.distance_dtype().itemsize + 4 + 1),
                     "Harish state")
    g = graph.on(ex)
    fa = source_flags(ex, graph.n, sources)

    def iteration(d, up, pred, cut, f):
        ops.kernel1(g, d, up, fa, cut)
        if pred is not None:
            ops.record_predecessors(g, d, up, fa, 1, pred)
        ops.kernel2(d, up, fa, f)
        return d, up

    return jacobi_rounds(ex, graph, sources, iteration, cutoff=cutoff, want_pred=want_pred)
