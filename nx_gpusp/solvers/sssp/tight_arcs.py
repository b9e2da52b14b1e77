"""The tight-arc DAG of final distances, built on the device: every arc (u, v) with u
reached and dist[u] + w(u, v) == dist[v], grouped by head. Its rows are NetworkX's
predecessor lists (``dijkstra_predecessor_and_distance``,
``bellman_ford_predecessor_and_distance``, ``predecessor``), and its paths from the
source are every shortest path (the ``all_shortest_paths`` family).

Why the tight arcs are exactly NetworkX's lists: NetworkX's Dijkstra appends a tail to
a node's list whenever the tail is settled with an equal candidate and replaces the list
when a candidate is strictly better, so the list that remains holds every reached tail
of a tight arc; its Bellman-Ford (SPFA) does the same from each vertex's last, final
scan; its BFS ``predecessor`` lists the previous level's neighbours, the tight arcs of
unit weights. Tight is tested with the same sum NetworkX compares, so float rounding
keeps the same arcs for the same distances.

One pass over the arcs (kernels/tree.cu ``tight_arc_keys``: each tight arc keyed by its
tail's distance) and two stable sorts (the distance-order radix sort: the tight arcs by
the tail's distance, then by head), so each row lists its tails in non-decreasing
distance, ties in vertex order (the order NetworkX's Dijkstra settles them in, up to its
heap's order among equal distances). Only the DAG, n + 1 offsets and one int32 per tight
arc, crosses to the host. No CuPy routine runs: its sort, search, count and compaction
load or compile modules of their own in each process's first such call.
"""

import numpy as np

__all__ = ["tight_arc_dag"]


def tight_arc_dag(ex, graph, dist):
    """Host (indptr int64[n + 1], tails int32[k]) of the tight-arc DAG of ``dist`` (final
    distances on the executor's device, ``distance_inf`` = unreached), rows by head."""
    n, m = graph.n, graph.m
    indptr = np.zeros(n + 1, dtype=np.int64)
    if m == 0:
        return indptr, np.zeros(0, dtype=np.int32)
    if ex.is_cuda and m >= 2**31:  # the sorts' orders are int32
        raise MemoryError(f"nx_gpusp: the tight-arc DAG of {m} arcs needs int64 arc "
                          "positions, which the device sort does not keep; use "
                          "device='cpu' for predecessor lists of this graph")
    # the arcs' tails, keys, two sorts' keys and values, the gathers
    ex.require_bytes(m * (4 * 8 + dist.dtype.itemsize), "the tight-arc DAG")
    counts, tails = ex.ops("tree").tight_arc_dag(graph.on(ex), dist,
                                                 graph.weights_as(ex, dist.dtype))
    np.cumsum(ex.to_host(counts), out=indptr[1:])
    return indptr, ex.to_host(tails)
