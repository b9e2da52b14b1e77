"""Distances summed as NetworkX sums them, where Floyd-Warshall's sums differ.

Dijkstra and Bellman-Ford add each arc to the distance of its tail, dist[v] = dist[u]
+ w(u, v), from the int 0 at the source: a distance is its path's weights added left to
right. gpusp's Floyd-Warshall joins shorter paths, d[i][j] = d[i][k] + d[k][j], in its
own blocked order (and on Johnson's reweighting where float weights are negative), and
NetworkX's Floyd-Warshall joins them in the order of its loop over k. Float sums in
different orders can differ in the last bit (8 against 7.999999999999999):

- :func:`sums_along_trees` adds the weights again along each row's predecessor tree,
  parents before children, as the searches would along that path (the all-pairs
  length functions answered by Floyd-Warshall);
- :func:`floyd_warshall_sums` joins them again as NetworkX's Floyd-Warshall does: its
  d[i][j] was last lowered in the round of the path's last interior vertex k in the
  order of its loop (node order; floyd_warshall_numpy's nodelist), to d[i][k] +
  d[k][j] of the two parts, each joined the same way, down to single arcs.

Both follow gpusp's paths: where paths tie up to rounding, NetworkX may have summed
another one. :func:`sums_exact`: where every sum is exact, none of this is needed.
"""

import numpy as np

from ...value_types import arc_ids, arc_keys

__all__ = ["sums_exact", "sums_along_trees", "floyd_warshall_sums"]

FLOAT_EXACT = 1 << 53  # float64 holds every integer up to this magnitude


def sums_exact(graph):
    """Whether every path sum is exact in the distance type, so that the order of the
    additions cannot matter: integer weights, or whole-number floats whose path sums
    stay within 2**53."""
    w = graph.weights
    if w.dtype.kind != "f":
        return True
    return bool(np.all(np.floor(w) == w)) and graph.path_bound < FLOAT_EXACT


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
    dev, weights = graph.on(ex), graph.weights_as(ex, dist.dtype)
    keys = arc_keys(xp, dev.indptr, dev.indices)
    for _ in range(graph.n):  # a tree's depth is below n
        ready = ~done & has & xp.take_along_axis(done, parent, axis=1)
        r, c = xp.nonzero(ready)
        if not len(r):
            break
        p = parent[r, c]
        out[r, c] = out[r, p] + weights[arc_ids(xp, dev.indptr, dev.indices, p, c, keys)]
        done[r, c] = True
    return out, pred


def floyd_warshall_sums(ex, graph, d, p, order=None):
    """``d`` (n x n Floyd-Warshall distances on the device) with every entry that has a
    path in ``p`` (its predecessor matrix) joined again as NetworkX's Floyd-Warshall
    joins it, in place; the diagonal and entries without a path keep their values.
    ``order``: the vertex indices in the order of NetworkX's loop over k (host int
    array; None: vertex order; floyd_warshall_numpy's loop follows its nodelist).

    Along row i's predecessor tree, each entry's arc count and last interior vertex k
    in that order are found one tree level at a time; an entry of one arc is the arc's
    weight, one of more is d[i][k] + d[k][j] once both parts are done (parts have
    fewer arcs)."""
    xp = ex.xp
    n = graph.n
    if n == 0:
        return d
    order = ex.asarray(np.arange(n) if order is None else np.asarray(order, dtype=np.int64))
    rank = xp.empty(n, dtype=np.int64)
    rank[order] = xp.arange(n)
    rows = xp.arange(n)[:, None]
    parent = p.astype(np.int64)
    parent[xp.arange(n), xp.arange(n)] = -1  # each row's root: its own vertex
    has = parent >= 0
    safe = xp.where(has, parent, 0)
    top = xp.full((n, n), -1, dtype=np.int64)  # last interior vertex's rank, -1: one arc
    placed = ~has  # entries whose tree level is known (roots and entries without a path)
    first = has & (parent == rows)
    placed |= first
    for _ in range(n):
        ready = ~placed & xp.take_along_axis(placed, safe, axis=1)
        r, c = xp.nonzero(ready)
        if not len(r):
            break
        q = safe[r, c]
        top[r, c] = xp.maximum(top[r, q], rank[q])
        placed[r, c] = True
    dev, weights = graph.on(ex), graph.weights_as(ex, d.dtype)
    r, c = xp.nonzero(first)
    d[r, c] = weights[arc_ids(xp, dev.indptr, dev.indices, r, c)]
    joined = ~(has & ~first & placed)  # what is done: all but the entries to join
    cols = xp.arange(n)[None, :]
    k = order[xp.where(top >= 0, top, 0)]
    for _ in range(n):
        ready = ~joined & xp.take_along_axis(joined, k, axis=1) & joined[k, cols]
        r, c = xp.nonzero(ready)
        if not len(r):
            break
        kk = k[r, c]
        d[r, c] = d[r, kk] + d[kk, c]
        joined[r, c] = True
    return d
