"""Johnson's algorithm on the GPU: Bellman-Ford potentials h (frontier Bellman-Ford from
a virtual source, NetworkXUnbounded on a negative cycle), then all-pairs Dijkstra on
the reweighted arcs w(u, v) + h(u) - h(v) >= 0 with any "all-pairs" method. Shortest
paths are the same under both weightings (each path's length changes by h(s) - h(t)),
so the predecessor trees answer for the original weights."""

import numpy as np

from ...graph import CSRGraph
from .potentials import bellman_ford_potentials

__all__ = ["reweighted", "johnson_reweighting"]


def reweighted(ex, graph):
    """The graph with Johnson's non-negative weights (``graph`` itself when no arc is
    negative). Float weights are clamped at 0: rounding of w + h(u) - h(v) must not turn
    a zero-weight cycle negative."""
    return johnson_reweighting(ex, graph)[0]


def johnson_reweighting(ex, graph):
    """(reweighted graph, potentials h as a host array, or None when no arc is negative):
    see ``reweighted``."""
    if not graph.has_negative_weights:
        return graph, None
    h = ex.to_host(bellman_ford_potentials(ex, graph))
    tails = np.repeat(np.arange(graph.n), np.diff(graph.indptr))
    w = graph.weights + h[tails] - h[graph.indices]
    if w.dtype.kind == "f":
        w = np.maximum(w, 0.0)
    return CSRGraph(graph.indptr, graph.indices, w, nodes=graph._nodes,
                    directed=graph.directed, multigraph=graph.multigraph,
                    weight_attr=graph.weight_attr), h
