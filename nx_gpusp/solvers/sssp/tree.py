"""A shortest-path tree from final distances, for methods that keep no predecessors
(Crauser, Martin, delta-stepping, near-far's lengths-only rounds) or whose own would
not be a tree.

With non-negative weights, one pass over the arcs (kernels/tree.cu
``tight_arc_parents``) gives every vertex a tight in-arc from a strictly closer vertex.
Where no vertex has more than PULL_MAX_IN_DEGREE in-arcs the pass reads the transpose
CSR instead (``tight_in_arc_parents``; DeviceCSR.in_arcs: the graph itself when
undirected, else built on the device at the first such pass and cached with it): a
thread a vertex stops at its first tight in-arc, so it gathers the distances of about
half the arcs' tails, where the arc pass gathers every arc's head's. H100, the pass
alone by CUDA events, median of 21: random-pred 4M 0.39 -> 0.28 ms, random-pred 1M
0.093 -> 0.069, NY 0.016 -> 0.011, FLA 0.026 -> 0.019. A vertex's in-arcs are one
thread's loop and a warp waits for its longest: a hub's (R-MAT 20: 1.9-5 ms against
the arc pass's 0.26) keeps the arc pass, and so do graphs of 16 or 24 in-arcs a vertex
(paths as a NetworkX call gets them, random-pred 2M with 16 predecessors and float
weights: 1.78 -> 1.94 ms; 1M with 24: 1.31 -> 1.44), where random-pred 4M with 7 gained
(1.92 -> 1.80 ms, paths over lengths 1.25 -> 1.17) and 4M with 5 (2.13 -> 2.00).
The transpose comes from the tree kernels and the distance-order sort, not CuPy's
sort, search and count, which load or compile modules of their own in every process:
a fresh process's first paths call on random-pred 1M (after a lengths call) took
348 ms with those and 8.4 ms with ours, against 4.75 ms with the arc pass alone (H100,
median of 5 processes); later calls do not build it again.
With integer weights of at least 1 it claims every reached vertex but the sources, so
it runs alone on predecessors set to -1: nothing is counted and the host waits for
nothing.
Vertices whose tight in-arcs all come from equally distant ones (zero-weight arcs, or a
float weight too small to change the sum) are claimed afterwards by breadth-first
search over tight arcs from every claimed vertex; that runs only when some are left.
No cycle can form: along every pointer the distance does not grow (w >= 0, and float
rounding is monotone), the pass's pointers strictly lower it, and the search's pointers
lower the search level.

With negative weights a tight arc may lead to a closer vertex, so a pass pointer and a
search pointer could close a cycle: the search alone then runs, from the sources, and
its levels keep the tree acyclic.
"""

import numpy as np

from ...graph import distance_inf, source_indices
from ...ops.tree import UNCLAIMED

__all__ = ["shortest_path_tree", "row_trees", "complete_trees"]

# the pass reads the in-arcs where no vertex has more than this many (see the notes)
PULL_MAX_IN_DEGREE = 8
# the search's claims (BFS_CLAIM(u) = UNCLAIMED - 1 - u in tree.cu) fit int32 up to this n
BFS_CLAIMS = UNCLAIMED - 1 + 2**31 + 1


def shortest_path_tree(ex, graph, dist, sources, *, int32_dist=None):
    """int32 predecessor array (on the executor's device) of a shortest-path tree of the
    final distances ``dist`` from ``sources`` (vertex indices), -1 at the sources and
    the unreached vertices. ``int32_dist``: ``dist`` narrowed to int32 where the solver
    kept such a copy (SSSPResult.int32_dist), read instead of narrowing again."""
    xp = ex.xp
    ops = ex.ops("tree")
    srcs = source_indices(sources)
    if not graph.has_out_arcs(srcs):  # the sources alone are reached: no pass
        return ops.no_preds(graph.n)
    if graph.integer_weights_at_least_one:
        # integer weights of at least 1: the last arc of a shortest path into a reached
        # vertex other than a source comes from a strictly closer tail, so the pass
        # claims every such vertex; it runs alone on -1 everywhere (no count, no host
        # read, no pass mapping UNCLAIMED to -1)
        pred = ops.no_preds(graph.n)
        _tight_arc_pass(ex, ops, graph, dist, pred, int32_dist, count=False)
        return pred
    pred = ops.unclaimed_preds(graph.n)
    if not graph.has_negative_weights:
        # the pass never claims a source (no tail is strictly closer than distance 0), so
        # the count of reached vertices it leaves includes every source: the tree is
        # whole when that count is the number of sources, and tree_finish, queued behind
        # the count, has then set -1 where no pointer is; the host only reads the count
        count = _tight_arc_pass(ex, ops, graph, dist, pred, int32_dist)
        ops.tree_finish(pred, count, len(srcs))
        if int(ex.to_host(count)[0]) == len(srcs):
            return pred
    pred[ex.asarray(srcs)] = -1
    _claim_by_bfs(ex, ops, graph.on_as(ex, dist.dtype), dist, pred,
                  dist != distance_inf(dist.dtype))
    return xp.maximum(pred, -1, out=pred)


def _tight_arc_pass(ex, ops, graph, dist, pred, int32_dist=None, *, count=True):
    """The strict tight-arc pass, and (``count``) a device count (int32[1]) of the
    reached vertices it leaves UNCLAIMED (sources included).
    Over the in-arcs (a thread a vertex, stopping at its first tight in-arc) where no
    vertex has more than PULL_MAX_IN_DEGREE of them, else over the out-arcs (see the
    module's notes).
    Where every path length fits int32 the pass reads int32 distances and weights (the
    weights' copy is cached on the device graph, as near-far keeps it; the distances as
    an int32 run left them, or ``int32_dist`` where the solver kept such a copy): half
    the bytes streamed and gathered."""
    g = graph.on(ex)
    weights = None
    if dist.dtype == np.int32:  # an int32 run's distances (near-far's, where they fit)
        weights = graph.weights_as(ex, np.int32)
    elif dist.dtype == np.int64 and graph.int32_distances:
        weights = graph.weights_as(ex, np.int32, if_fits=True)
        if weights is not None:
            if int32_dist is None:
                int32_dist = ex.xp.empty(dist.size, dtype=np.int32)
                ex.ops("near_far").narrow(dist, int32_dist)  # unreached: the int32 maximum
            dist = int32_dist
    in_arcs = g.in_arcs(dist.dtype) if 0 < g.max_in_degree <= PULL_MAX_IN_DEGREE else None
    if in_arcs is not None:
        ops.tight_in_arc_parents(in_arcs, dist, pred)
    else:
        ops.tight_arc_parents(g, dist, pred, weights)
    if not count:
        return None
    unclaimed = ex.xp.zeros(1, dtype=np.int32)
    ops.tree_unclaimed(dist, pred, unclaimed)
    return unclaimed


def _claim_by_bfs(ex, ops, g, dist, pred, reached):
    """Tight-arc BFS from every claimed vertex until no unclaimed one is reachable."""
    if g.n > BFS_CLAIMS:
        raise MemoryError(f"gpusp: the tight-arc search of a shortest-path tree takes at most "
                          f"{BFS_CLAIMS} vertices (its claims share int32 with the "
                          f"predecessors); this graph has {g.n}")
    xp = ex.xp
    frontier = xp.flatnonzero(reached & (pred != UNCLAIMED)).astype(np.int32)
    size = int(frontier.size)
    frontier = xp.concatenate([frontier, xp.empty(g.n - size, dtype=np.int32)])
    next_frontier = xp.empty(g.n, dtype=np.int32)
    next_size = xp.zeros(1, dtype=np.int32)
    while size:
        next_size[0] = 0
        ops.tight_arc_bfs_step(g, dist, frontier, size, pred, next_frontier, next_size)
        size = int(next_size[0])
        frontier, next_frontier = next_frontier, frontier


def row_trees(ex, graph, dist, sources):
    """The B x n int32 predecessors (on the device) of a batch's rows (``dist``: B x n,
    row k searched from ``sources[k]``; any layout: dijkstra-per-thread's is a transposed
    view, and the kernels read a row contiguous): each row's shortest_path_tree."""
    pred = ex.xp.empty(dist.shape, dtype=np.int32)
    for k, s in enumerate(np.asarray(sources, dtype=np.int64).tolist()):
        pred[k] = shortest_path_tree(ex, graph, ex.xp.ascontiguousarray(dist[k]), [s])
    return pred


def complete_trees(ex, graph, dist, pred, sources):
    """Rows of a batch (``dist``, ``pred``: B x n on the device, row k searched from
    ``sources[k]``) in which a reached vertex other than the source has no predecessor
    get the tree of their distances instead (a pass that takes only strictly closer
    tails leaves such vertices where float rounding made a positive weight vanish)."""
    xp = ex.xp
    missing = (dist != distance_inf(dist.dtype)) & (pred < 0)
    rows = xp.arange(len(sources))
    missing[rows, ex.asarray(np.asarray(sources, dtype=np.int64))] = False
    for k in ex.to_host(xp.flatnonzero(missing.any(axis=1))).tolist():
        pred[k] = shortest_path_tree(ex, graph, dist[k], [sources[k]])
