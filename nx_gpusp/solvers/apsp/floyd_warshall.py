"""Floyd-Warshall drivers on the dense device matrix: the shared preparation and the
blocked "tiled with shared memory" method."""

import networkx as nx
import numpy as np

from ...methods import method
from .johnson import johnson_reweighting
from .potentials import refuse_negative_cycles

__all__ = ["blocked_floyd_warshall", "prepare_dense", "run_floyd_warshall", "sweep_weights",
           "undo_potentials"]


def prepare_dense(ex, graph, *, keep_negative_diagonal, predecessors, dtype=None):
    """Distance matrix (and predecessor matrix) initialised as NetworkX does.

    ``keep_negative_diagonal``: the diagonal is min(self-loop weight, 0)
    (floyd_warshall_predecessor_and_distance) rather than 0 (floyd_warshall_numpy).
    Predecessors: p[i][j] = i for every arc, self-loops included, else -1.
    """
    ops = ex.ops("array_ops")
    d = graph.dense(ex, dtype)
    n = graph.n
    ops.set_diagonal(d, n, 0, lower_only=keep_negative_diagonal)
    p = None
    if predecessors:
        ex.require_bytes(n * n * 4, f"the {n}x{n} predecessor matrix")
        p = ops.full((n, n), -1, np.int32)
        tails = np.repeat(np.arange(n, dtype=np.int64), np.diff(graph.indptr))
        ops.put(p, tails * n + graph.indices, tails.astype(np.int32))
    return d, p


def refuse_negative_diagonal(ex, d):
    """Backstop: a negative diagonal entry is a negative cycle (NetworkX would return
    order-dependent numbers; we refuse, as its Bellman-Ford does)."""
    if d.shape[0] and bool((ex.to_host(ex.ops("array_ops").diagonal(d, d.shape[0])) < 0).any()):
        raise nx.NetworkXUnbounded("Negative cycle detected.")


def sweep_weights(ex, graph):
    """The graph whose weights a sweep runs on, and the potentials to undo afterwards
    (``undo_potentials``; None: the graph itself). Negative cycles are refused here,
    by Bellman-Ford (NetworkXUnbounded), as every Bellman-Ford function finds them.

    Float weights with negative arcs are swept on Johnson's reweighted, non-negative
    weights w + h(u) - h(v) (h: the Bellman-Ford potentials the refusal computes):
    otherwise a zero-length cycle whose sums the sweep rounds slightly below zero acts
    as a negative cycle (the diagonal turns negative, values drift with every round
    trip, predecessors go round it), in another order of additions than Bellman-Ford's.
    On non-negative weights no sum round a cycle falls below its start."""
    if graph.distance_dtype().kind == "f" and graph.has_negative_weights:
        return johnson_reweighting(ex, graph)
    refuse_negative_cycles(ex, graph)
    return graph, None


def undo_potentials(ex, d, h, n):
    """d[i][j] - h(i) + h(j) on the finite entries of the top-left n x n block, in place."""
    if h is None or not n:
        return
    xp = ex.xp
    h = ex.asarray(h)
    block = d[:n, :n]
    shifted = (block - h[:, None]) + h[None, :]
    xp.copyto(block, xp.where(xp.isinf(block), block, shifted).astype(block.dtype))


def run_floyd_warshall(ex, graph, sweep, *, keep_negative_diagonal, predecessors):
    """Refuse negative cycles, build the matrices, run ``sweep(d, p)`` (the method's
    launches, in place) and return (d, p) (see sweep_weights)."""
    swept, h = sweep_weights(ex, graph)
    d, p = prepare_dense(ex, swept, keep_negative_diagonal=keep_negative_diagonal,
                         predecessors=predecessors)
    sweep(d, p)
    undo_potentials(ex, d, h, graph.n)
    refuse_negative_diagonal(ex, d)
    return d, p


@method(name="fw-tiled-shared", problem="floyd-warshall",
        summary="blocked Floyd-Warshall, 32x32 tiles in shared memory, three phases per k-block",
        paper="Bodra & Khairnar 2025, tiled with shared memory",
        negative_weights=True)
def blocked_floyd_warshall(ex, graph, *, keep_negative_diagonal, predecessors):
    return run_floyd_warshall(ex, graph, ex.ops("floyd_warshall").blocked_floyd_warshall,
                              keep_negative_diagonal=keep_negative_diagonal,
                              predecessors=predecessors)
