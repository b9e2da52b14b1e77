"""networkx.algorithms.wiener: wiener_index, from per-source sums of distances reduced
on the device (exact for integer weights)."""

import networkx as nx
import numpy as np

from ..dispatch import networkx_algorithm
from .common import as_csr, check_weights
from .measures import MEASURE, measure_can_run, measure_should_run, statistics

__all__ = []


@networkx_algorithm(can_run=measure_can_run(), should_run=measure_should_run(),
                    **MEASURE)
def wiener_index(G, weight=None, *, method=None, **options):
    graph = as_csr(G, weight)
    if graph.n == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    if not graph.connected:
        return float("inf")
    if graph.n == 1:  # NetworkX's sum of the source's int 0 (halved when undirected),
        check_weights(graph, "dijkstra")  # after its search's errors
        return 0 if graph.directed else 0 / 2
    stats = statistics(graph, np.arange(graph.n, dtype=np.int64), ("sum",), method=method,
                       options=options, what="wiener_index")
    total = sum(stats.rows["sum"].tolist())
    # an undirected graph counts each pair twice, as NetworkX's sum over all pairs does
    return total if graph.directed else total / 2
