"""Floyd-Warshall drivers on the dense device matrix: the shared preparation and the
blocked "tiled with shared memory" method."""

import networkx as nx
import numpy as np

from ...methods import method
from .potentials import refuse_negative_cycles

__all__ = ["blocked_floyd_warshall", "prepare_dense", "run_floyd_warshall"]


def prepare_dense(ex, graph, *, keep_negative_diagonal, predecessors, dtype=None):
    """Distance matrix (and predecessor matrix) initialised as NetworkX does.

    ``keep_negative_diagonal``: the diagonal is min(self-loop weight, 0)
    (floyd_warshall_predecessor_and_distance) rather than 0 (floyd_warshall_numpy).
    Predecessors: p[i][j] = i for every arc, self-loops included, else -1.
    """
    xp = ex.xp
    d = graph.dense(ex, dtype)
    n = graph.n
    diag = xp.arange(n)
    if keep_negative_diagonal:
        d[diag, diag] = xp.minimum(d[diag, diag], 0)
    else:
        d[diag, diag] = 0
    p = None
    if predecessors:
        ex.require_bytes(n * n * 4, f"the {n}x{n} predecessor matrix")
        p = xp.full((n, n), -1, dtype=np.int32)
        tails = np.repeat(np.arange(n, dtype=np.int32), np.diff(graph.indptr))
        p[ex.asarray(tails), ex.asarray(graph.indices)] = ex.asarray(tails)
    return d, p


def refuse_negative_diagonal(ex, d):
    """Backstop: a negative diagonal entry is a negative cycle (NetworkX would return
    order-dependent numbers; we refuse, as its Bellman-Ford does)."""
    if d.shape[0] and bool((ex.xp.diagonal(d) < 0).any()):
        raise nx.NetworkXUnbounded("Negative cycle detected.")


def run_floyd_warshall(ex, graph, sweep, *, keep_negative_diagonal, predecessors):
    """Refuse negative cycles, build the matrices, run ``sweep(d, p)`` (the method's
    launches, in place) and return (d, p)."""
    refuse_negative_cycles(ex, graph)
    d, p = prepare_dense(ex, graph, keep_negative_diagonal=keep_negative_diagonal,
                         predecessors=predecessors)
    sweep(d, p)
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
