"""A chosen method run on a graph, its answer brought to the host: the one place where the
NetworkX-facing functions (nx_gpusp.algorithms, which parse arguments, pick the method
and shape the result) meet device arrays.

- ``sssp`` and ``bfs``: one single- or multi-source search as a HostSSSP (a tree from
  the final distances where the method keeps none, nx_gpusp.solvers.sssp.tree;
  ``sssp_on_device``: the same search left on the device, what benchmarks time);
- ``floyd_warshall`` and the host forms of its matrices (``floyd_warshall_matrix``,
  ``distance_matrix``, ``predecessor_matrix``, ``floyd_warshall_rows``);
- ``tight_arcs``: the tight-arc DAG of a search's final distances;
- ``rows_to_host``: a batch of all-pairs rows, cut and narrowed on the device.
"""

import numpy as np

from ..graph import distance_inf
from ..results import HostSSSP, TightArcs, distance_order, narrowest_distances, to_host
from .apsp.path_sums import sums_along_trees, sums_exact
from .sssp import cutoff_value, mask_beyond_cutoff
from .sssp.bfs import distances_from_levels
from .sssp.bfs_order import visit_order
from .sssp.tight_arcs import tight_arc_dag
from .sssp.tree import shortest_path_tree

__all__ = ["sssp", "sssp_on_device", "bfs", "bfs_visit_order", "floyd_warshall", "floyd_warshall_matrix",
           "distance_matrix", "predecessor_matrix", "floyd_warshall_rows", "fits_floyd_warshall",
           "tight_arcs", "rows_to_host", "HOST_CHUNK_BYTES", "DENSE_FRACTION"]

# Floyd-Warshall's n^3 dense min-plus steps beat ~n*m scattered relaxations from about
# this density on (and its matrix must fit in half the free memory).
DENSE_FRACTION = 1 / 64
HOST_CHUNK_BYTES = 64 << 20  # distance rows copied to the host at a time


def sssp(ex, graph, method, sources, *, options, cutoff=None, want_pred=True):
    """HostSSSP of the "sssp" Method ``method`` (``options`` checked) from ``sources``
    (vertex indices), the predecessors as :func:`sssp_on_device` gives them."""
    result = sssp_on_device(ex, graph, method, sources, options=options, cutoff=cutoff,
                            want_pred=want_pred)
    result.dist = mask_beyond_cutoff(ex, result.dist, result.sources, cutoff)
    return to_host(graph, result)


def sssp_on_device(ex, graph, method, sources, *, options, cutoff=None, want_pred=True):
    """The SSSPResult (device arrays) of :func:`sssp`. Paths come from the tight-arc tree
    of the method's distances (solvers.sssp.tree: among equally short paths the same one
    every run), or from the method's own predecessors where it records them inline and
    deterministically on this graph (near-far's keyed rounds). Other methods' own
    predecessors depend on which thread stores last among equal candidates."""
    own_pred = want_pred and (
        method.inline_predecessors is not None and method.inline_predecessors(graph))
    result = method.solver(ex, graph, sources, cutoff=cutoff, want_pred=own_pred, **options)
    if want_pred and result.pred is None:
        result.pred = shortest_path_tree(ex, graph, result.dist, result.sources,
                                         int32_dist=result.int32_dist)
    return result


def bfs(ex, graph, method, sources, *, options, depth=None, want_pred=True, target=None):
    """HostSSSP (int64 hop counts) of the "bfs" Method ``method`` from ``sources``: levels
    up to ``depth``, stopping after the level that reaches the index ``target``."""
    result = method.solver(ex, graph, sources, cutoff=depth, want_pred=False,
                           target=target, **options)
    order = None
    if ex.is_cuda:  # the level order, sorted on the device (see results.to_host)
        order = ex.to_host(distance_order(ex, result.dist))  # UNSEEN: int32's maximum
    dist = distances_from_levels(ex.to_host(result.dist))  # int32 over the bus
    # parents: the tight-arc tree of the levels (the same every run; a search's own
    # parents are whichever thread claimed a vertex first)
    pred = ex.to_host(shortest_path_tree(ex, graph.unit_weights, result.dist,
                                         result.sources)) if want_pred else None
    return HostSSSP(graph, dist, pred, result.sources, order=order)


def bfs_visit_order(ex, graph, method, first, *, options, depth=None):
    """(order, parent, sizes) of a search of the "bfs" Method ``method`` from the vertex
    indices ``first`` (levels up to ``depth``) in NetworkX's queue order
    (solvers.sssp.bfs_order): host int64 arrays of the reached vertices and of each
    one's parent (-1 for ``first``), and the list of the levels' sizes."""
    first = np.asarray(first, dtype=np.int64)
    result = method.solver(ex, graph, first, cutoff=depth, want_pred=False, target=None,
                           **options)
    order, parent, sizes = visit_order(ex, graph, result.dist, ex.asarray(first))
    return ex.to_host(order), ex.to_host(parent), sizes


def floyd_warshall(ex, graph, method, *, options, keep_negative_diagonal, predecessors):
    """(distance matrix, predecessor matrix or None) of the "floyd-warshall" Method
    ``method``, on the executor's device."""
    return method.solver(ex, graph, keep_negative_diagonal=keep_negative_diagonal,
                         predecessors=predecessors, **options)


def floyd_warshall_matrix(ex, d, perm=None):
    """The host float matrix of ``d`` (floyd_warshall_numpy's answer), rows and columns
    in the order of the vertex indices ``perm`` (None: vertex order); converted and
    permuted on the device, so one n x n transfer carries the final matrix."""
    n = d.shape[0]
    unreached = np.inf if d.dtype.kind == "f" else distance_inf(d.dtype) - 1
    return ex.to_host(ex.ops("array_ops").convert_block(d, n, n, np.float64, bound=unreached,
                                                        over=np.inf, perm=perm))


def distance_matrix(ex, d):
    """The host copy of the distance matrix ``d``, narrowed on the device."""
    return ex.to_host(narrowest_distances(ex, d))


def predecessor_matrix(ex, p):
    """(host predecessor matrix, host mask of the rows with at least one entry)."""
    host = ex.to_host(p)
    return host, (host >= 0).any(axis=1)


def floyd_warshall_rows(ex, graph, method, options, cutoff):
    """(vertex index, HostSSSP) of every row of the "floyd-warshall" Method's lengths, in
    vertex order, copied to the host HOST_CHUNK_BYTES of rows at a time. Inexact float
    sums are summed again along the rows' predecessor trees, as NetworkX's searches
    sum them (apsp.path_sums), and each row keeps its tree (its number types)."""
    resum = not sums_exact(graph)
    d, p = floyd_warshall(ex, graph, method, options=options, keep_negative_diagonal=False,
                          predecessors=resum)
    rows = max(1, HOST_CHUNK_BYTES // max(1, graph.n * d.dtype.itemsize))
    for start in range(0, graph.n, rows):
        block = d[start:start + rows]
        sources = np.arange(start, start + len(block))
        pred = None
        if resum:
            block, pred = sums_along_trees(ex, graph, block, p[start:start + rows], sources)
        dist, pred = rows_to_host(ex, block, pred, cutoff, sources)
        for k, row in enumerate(dist):
            yield start + k, HostSSSP(graph, row, None if pred is None else pred[k],
                                      np.array([start + k]))


def fits_floyd_warshall(ex, graph):
    """Whether Floyd-Warshall should answer the all-pairs lengths of ``graph``: at least
    DENSE_FRACTION * n^2 arcs, and its n x n matrix fits in the free device memory."""
    n = graph.n
    return n > 0 and graph.m >= DENSE_FRACTION * n * n and 16 * n * n <= ex.free_bytes()


def tight_arcs(ex, graph, host):
    """The TightArcs of a HostSSSP's final distances (the DAG built on the device)."""
    indptr, tails = tight_arc_dag(ex, graph, ex.asarray(host.dist))
    return TightArcs(graph, host.dist, indptr, tails, host.sources)


def rows_to_host(ex, dist, pred, cutoff=None, sources=None):
    """Host copies of a batch of rows (B x n, row k searched from ``sources[k]``):
    distances beyond ``cutoff`` marked unreached (each row's source stays at 0, as in
    NetworkX) and narrowed (:func:`narrowest_distances`) on the device first."""
    if cutoff is not None:
        ops = ex.ops("array_ops")
        dist = ops.convert_block(dist, *dist.shape, dist.dtype,
                                 bound=cutoff_value(cutoff, dist.dtype),
                                 over=distance_inf(dist.dtype))
        rows = np.arange(len(sources), dtype=np.int64)
        ops.put(dist, rows * dist.shape[1] + np.asarray(sources, dtype=np.int64), 0)
    dist = ex.to_host(narrowest_distances(ex, dist))
    return dist, None if pred is None else ex.to_host(pred)
