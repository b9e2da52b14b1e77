"""Voronoi cells of a multi-source search: each vertex's nearest source, and whether
that source is the only one at that distance.

The nearest source of a vertex is the root of its path in the search's shortest-path
tree (found by pointer jumping: log(depth) gathers). It is the only nearest one unless
a tight arc (dist[t] + w == dist[h]) enters a vertex h, no source, from a vertex of
another cell: then two sources reach h by shortest paths, and which one a sequential
Dijkstra keeps depends on its heap's order. With float weights an arc within rounding
of tight counts as tight.
"""

import numpy as np

from ...graph import distance_inf

__all__ = ["nearest_sources"]

# float slack, relative to the distance, under which an arc counts as tight
FLOAT_TIE = 1e-12


def nearest_sources(graph, dist, pred, sources):
    """(owner, ambiguous): host int64 index of each vertex's nearest source (-1 where
    unreached) from host distances and an int predecessor tree of a search from the
    vertex indices ``sources``; whether some vertex has two nearest sources."""
    n = graph.n
    root = np.where(pred >= 0, pred, np.arange(n)).astype(np.int64)
    while True:
        jumped = root[root]
        if np.array_equal(jumped, root):
            break
        root = jumped
    reached = dist != distance_inf(dist.dtype)
    owner = np.where(reached, root, -1)
    is_source = np.zeros(n, dtype=bool)
    is_source[np.asarray(sources, dtype=np.int64)] = True
    tails = np.repeat(np.arange(n, dtype=np.int64), np.diff(graph.indptr))
    heads = graph.indices.astype(np.int64)
    arcs = reached[tails] & ~is_source[heads] & (owner[tails] != owner[heads])
    t, h, w = tails[arcs], heads[arcs], graph.weights[arcs]
    through = dist[t] + w
    if dist.dtype.kind == "f" or w.dtype.kind == "f":
        tight = np.abs(through - dist[h]) <= FLOAT_TIE * np.abs(dist[h])
    else:
        tight = through == dist[h]
    return owner, bool(tight.any())
