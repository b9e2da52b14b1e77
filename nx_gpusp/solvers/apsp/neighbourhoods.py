"""The subgraphs induced by nodes' neighbourhoods, side by side as block-diagonal graphs
(what local_efficiency searches, Latora & Marchiori 2001).

Node v's block holds the heads of v's row (NetworkX's ``G[v]``, v itself where it has
a self-loop) in row order and the arcs among them. A block vertex (v, u) has the arcs
(u, w) of u's row whose head w is in v's row: found by one sorted search of the keys
(v, w) among the keys (v, u) of the block vertices. Built on the host with NumPy.
"""

import numpy as np

from ...graph import CSRGraph

__all__ = ["neighbourhood_parts", "neighbourhood_blocks", "BLOCK_VERTICES"]

# block vertices per part: a part's batched search fills (vertices)^2 distances
BLOCK_VERTICES = 4096


def _expand(indptr, rows):
    """(arc indices of ``rows`` concatenated in order, the position in ``rows`` of each)."""
    starts = indptr[rows]
    degree = indptr[rows + 1] - starts
    owner = np.repeat(np.arange(len(rows), dtype=np.int64), degree)
    first = np.cumsum(degree) - degree
    return starts[owner] + (np.arange(len(owner), dtype=np.int64) - first[owner]), owner


def neighbourhood_blocks(graph, centers):
    """(CSRGraph of the blocks of ``centers`` side by side, int64 offsets: block k holds
    vertices offsets[k]:offsets[k + 1])."""
    n = graph.n
    arcs, block = _expand(graph.indptr, centers)
    members = graph.indices[arcs].astype(np.int64)
    offsets = np.zeros(len(centers) + 1, dtype=np.int64)
    np.cumsum(np.diff(graph.indptr)[centers], out=offsets[1:])
    keys = block * n + members
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    inner, tail = _expand(graph.indptr, members)
    query = block[tail] * n + graph.indices[inner].astype(np.int64)
    at = np.minimum(np.searchsorted(sorted_keys, query), max(len(sorted_keys) - 1, 0))
    found = sorted_keys[at] == query if len(sorted_keys) else np.zeros(0, dtype=bool)
    blocks = CSRGraph.from_edge_arrays(len(members), tail[found], order[at[found]],
                                       directed=True)
    return blocks, offsets


def neighbourhood_parts(graph, budget=BLOCK_VERTICES):
    """(centers, blocks, offsets) for every node, in parts of consecutive nodes whose
    blocks hold about ``budget`` vertices in all (a larger block makes a part alone)."""
    degree = np.diff(graph.indptr)
    start = 0
    while start < graph.n:
        ends = np.cumsum(degree[start:])
        stop = start + max(1, int(np.searchsorted(ends, budget, side="right")))
        centers = np.arange(start, stop, dtype=np.int64)
        blocks, offsets = neighbourhood_blocks(graph, centers)
        yield centers, blocks, offsets
        start = stop
