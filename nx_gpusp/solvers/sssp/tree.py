"""A shortest-path tree from final distances, for methods that do not keep valid
predecessors (ties and zero-weight cycles make "any tight arc" unsafe: two vertices at
equal distance joined by zero-weight arcs could point at each other).

Breadth-first search from the sources over tight arcs (dist[u] + w == dist[v]) gives a
tree: every vertex on a shortest path is reachable through tight arcs, and BFS visits
each vertex once.
"""

import numpy as np

from ...ops.base import gather_arcs
from . import distance_inf

__all__ = ["shortest_path_tree"]


def shortest_path_tree(ex, graph, dist, sources):
    """int32 predecessor array (on the executor's device) of a tight-arc BFS tree."""
    d = ex.to_host(dist)
    inf = distance_inf(d.dtype)
    pred = np.full(graph.n, -1, dtype=np.int32)
    seen = np.zeros(graph.n, dtype=bool)
    frontier = np.unique(np.asarray(sources, dtype=np.int64))
    seen[frontier] = True
    while len(frontier):
        owner, arcs = gather_arcs(graph.indptr, frontier)
        heads = graph.indices[arcs].astype(np.int64)
        tails = frontier[owner]
        du = d[tails]
        tight = (du != inf) & ~seen[heads]
        tight[tight] = du[tight] + graph.weights[arcs][tight] == d[heads][tight]
        heads, tails = heads[tight], tails[tight]
        heads, first = np.unique(heads, return_index=True)
        pred[heads] = tails[first]
        seen[heads] = True
        frontier = heads
    return ex.asarray(pred)
