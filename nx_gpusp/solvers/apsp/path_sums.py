"""All-pairs rows summed as NetworkX's searches sum them.

Dijkstra and Bellman-Ford add each arc to the distance of its tail, dist[v] = dist[u]
+ w(u, v), from the int 0 at the source: a distance is its path's weights added left to
right. Floyd-Warshall joins two shorter paths, d[i][j] = d[i][k] + d[k][j], another
order of the same additions, whose float sum can differ in the last bit (8 against
7.999999999999999). :func:`sums_along_trees` adds the weights again along each row's
predecessor tree, parents before children, as the searches would along that path.
"""

import numpy as np

from ...value_types import arc_ids

__all__ = ["sums_along_trees"]


def sums_along_trees(ex, graph, dist, pred, sources):
    """(distances, predecessors) of a batch of rows on the device: row k (``dist[k]``, B
    x n floats) summed again from 0 at ``sources[k]`` along its predecessor tree
    ``pred[k]`` (int32, -1 where none), one tree level at a time; the predecessors with
    -1 at each source (a self-loop's entry there is no tree arc). Entries the tree does
    not reach from the source keep their distance (unreached: inf)."""
    xp = ex.xp
    rows = xp.arange(len(sources))
    src = ex.asarray(np.asarray(sources, dtype=np.int64))
    pred = pred.copy()
    pred[rows, src] = -1
    out = dist.copy()
    out[rows, src] = 0
    done = xp.zeros(dist.shape, dtype=bool)
    done[rows, src] = True
    has = pred >= 0
    parent = xp.where(has, pred, 0)
    dev = graph.on(ex)
    weights = dev.weights.astype(dist.dtype)
    for _ in range(graph.n):  # a tree's depth is below n
        ready = ~done & has & xp.take_along_axis(done, parent, axis=1)
        r, c = xp.nonzero(ready)
        if not len(r):
            break
        p = parent[r, c]
        out[r, c] = out[r, p] + weights[arc_ids(xp, dev.indptr, dev.indices, p, c)]
        done[r, c] = True
    return out, pred
