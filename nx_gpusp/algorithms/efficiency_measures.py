"""networkx.algorithms.efficiency_measures: global_efficiency and local_efficiency, from
per-source sums of 1/d reduced on the device (hop counts: NetworkX's efficiency is
unweighted).

local_efficiency is the mean of the global efficiencies of the subgraphs induced by
each node's neighbours (NetworkX's ``G.subgraph(G[v])``: v itself where it has a
self-loop). Those subgraphs are laid side by side as one block-diagonal graph
(nx_gpusp.solvers.apsp.neighbourhoods), cut into parts of about ``BLOCK_VERTICES``
vertices (a node with more neighbours makes a part alone), and each part's sums come
from one batched search from all its vertices: about sum(deg^2) arcs are built
(each neighbour's row read once per node it neighbours), and each part's search costs
the square of its vertices.
"""

import networkx as nx
import numpy as np

from ..dispatch import networkx_algorithm
from ..solvers.apsp.neighbourhoods import BLOCK_VERTICES, neighbourhood_parts
from .common import as_csr
from .measures import MEASURE, measure_can_run, measure_should_run, statistics

__all__ = []


@networkx_algorithm(can_run=measure_can_run(), should_run=measure_should_run(),
                    **MEASURE)
def global_efficiency(G, *, method=None, **options):
    graph = as_csr(G, None)
    if graph.directed:
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    n = graph.n
    denom = n * (n - 1)
    if denom == 0:
        return 0
    stats = statistics(graph, np.arange(n, dtype=np.int64), ("inverse_sum",), method=method,
                       options=options, what="global_efficiency")
    return sum(stats.rows["inverse_sum"].tolist()) / denom


@networkx_algorithm(can_run=measure_can_run(), should_run=measure_should_run(),
                    **MEASURE)
def local_efficiency(G, *, method=None, **options):
    graph = as_csr(G, None)
    if graph.directed:
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    efficiency = np.zeros(graph.n)
    for centers, blocks, offsets in neighbourhood_parts(graph, BLOCK_VERTICES):
        if blocks.n == 0:
            continue
        sums = statistics(blocks, np.arange(blocks.n, dtype=np.int64), ("inverse_sum",),
                          method=method, options=options, what="local_efficiency")
        total = np.add.reduceat(np.append(sums.rows["inverse_sum"], 0.0), offsets[:-1])
        k = np.diff(offsets).astype(np.float64)
        pairs = k * (k - 1)
        efficiency[centers] = np.where(pairs > 0, total / np.where(pairs > 0, pairs, 1), 0.0)
    return sum(efficiency.tolist()) / graph.n  # ZeroDivisionError for the null graph
