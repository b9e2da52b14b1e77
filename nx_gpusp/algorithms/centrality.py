"""networkx.algorithms.centrality: closeness_centrality and harmonic_centrality, from
all-pairs statistics reduced on the device (distances never reach the host).

Both use distances *to* a node (NetworkX's inward distance on directed graphs): the
searches run from every node of the transpose graph (closeness), or from the smaller
of NetworkX's two node sets (harmonic).
"""

import numpy as np

from ..dispatch import networkx_algorithm
from .common import as_csr, node_index, reversed_graph
from .measures import MEASURE, measure_can_run, measure_should_run, statistics

__all__ = ["closeness_values"]


def closeness_values(reached, totals, n, wf_improved):
    """NetworkX's closeness from each node's reached count (itself included) and sum of
    distances, with its float operations in its order: (r - 1) / total, times
    (r - 1) / (n - 1) when ``wf_improved``; 0.0 where the total is 0 or n == 1."""
    r1 = reached.astype(np.float64) - 1.0
    total = totals.astype(np.float64)
    out = np.zeros(len(reached), dtype=np.float64)
    ok = (total > 0.0) & (n > 1)
    with np.errstate(over="ignore"):  # a subnormal total: inf, as Python's division
        out[ok] = r1[ok] / total[ok]
    if wf_improved and n > 1:
        out[ok] *= r1[ok] / (n - 1)
    return out.tolist()


@networkx_algorithm(can_run=measure_can_run("distance"), should_run=measure_should_run("u"),
                    **MEASURE)
def closeness_centrality(G, u=None, distance=None, wf_improved=True, *, method=None,
                         **options):
    graph = as_csr(G, distance)
    if u is not None:
        message = f"Source {u} is not in G" if distance is None else \
            f"Node {u} not found in graph"
        sources = np.array([node_index(graph, u, message)], dtype=np.int64)
    else:
        sources = np.arange(graph.n, dtype=np.int64)
    if len(sources) == 0:
        return {}
    stats = statistics(reversed_graph(G, graph, distance), sources, ("reached", "sum"),
                       method=method, options=options, what="closeness_centrality")
    values = closeness_values(stats.rows["reached"], stats.rows["sum"], graph.n, wf_improved)
    if u is not None:
        return values[0]
    return dict(zip(graph.nodes, values))


@networkx_algorithm(can_run=measure_can_run("distance"), should_run=measure_should_run(),
                    **MEASURE)
def harmonic_centrality(G, nbunch=None, distance=None, sources=None, *, method=None,
                        **options):
    graph = as_csr(G, distance)
    # NetworkX's keys: a set of the nbunch labels, iterated in that set's order
    keys = set(graph.labels(graph.nbunch_indices(nbunch)))
    targets = np.array([graph.index_of(v) for v in keys], dtype=np.int64)
    origins = np.unique(graph.nbunch_indices(sources))
    value = np.zeros(graph.n)
    if len(targets) and len(origins):
        if len(targets) < len(origins):  # search from the targets on the transpose
            stats = statistics(reversed_graph(G, graph, distance), targets, ("inverse_sum",),
                               method=method, options=options, columns=origins,
                               what="harmonic_centrality")
            value[targets] = stats.rows["inverse_sum"]
        else:  # search from the sources, sum per target
            stats = statistics(graph, origins, ("column_inverse_sum",), method=method,
                               options=options, what="harmonic_centrality")
            value = stats.columns["column_inverse_sum"]
    # NetworkX starts every node at int 0 and adds 1/d > 0 per reaching source
    return {v: x if x > 0 else 0 for v, x in zip(keys, value[targets].tolist())}
