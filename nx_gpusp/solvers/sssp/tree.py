"""A shortest-path tree from final distances, for methods that do not keep valid
predecessors (ties and zero-weight cycles make "any tight arc" unsafe: two vertices at
equal distance joined by zero-weight arcs could point at each other).

Level-synchronous breadth-first search from the sources over tight arcs
(dist[u] + w == dist[v]) on the device (kernels/tree.cu): every vertex on a shortest
path is reachable through tight arcs, and BFS claims each vertex once.
"""

import numpy as np

from ...ops.tree import UNCLAIMED

__all__ = ["shortest_path_tree"]


def shortest_path_tree(ex, graph, dist, sources):
    """int32 predecessor array (on the executor's device) of a tight-arc BFS tree."""
    xp = ex.xp
    ops = ex.ops("tree")
    n = graph.n
    g = graph.on(ex)
    pred = xp.full(n, UNCLAIMED, dtype=np.int32)
    srcs = np.unique(np.asarray(sources, dtype=np.int32))
    frontier = xp.empty(n, dtype=np.int32)
    next_frontier = xp.empty(n, dtype=np.int32)
    next_size = xp.zeros(1, dtype=np.int32)
    frontier[: len(srcs)] = ex.asarray(srcs)
    pred[frontier[: len(srcs)]] = -1
    size = len(srcs)
    while size:
        next_size[0] = 0
        ops.tight_arc_bfs_step(g, dist, frontier, size, pred, next_frontier, next_size)
        size = int(next_size[0])
        frontier, next_frontier = next_frontier, frontier
    return xp.maximum(pred, -1)
