"""networkx.algorithms.efficiency_measures: global_efficiency, from per-source sums of
1/d reduced on the device (hop counts: NetworkX's efficiency is unweighted)."""

import networkx as nx
import numpy as np

from ..dispatch import networkx_algorithm
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
