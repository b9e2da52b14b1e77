"""networkx.algorithms.simple_paths on the GPU: ``shortest_simple_paths``, Yen's k
shortest loopless paths with each round's spur searches as one batch on the device
(nx_gpusp.solvers.yen).

As NetworkX's, the result is a generator of lists of node labels, shortest first; a
missing source or target (NodeNotFound) and a target out of reach (NetworkXNoPath) raise
at the first ``next()``. ``weight=None`` counts hops; a weight (attribute name or
function; a function's None hides the edge) must not be negative: NetworkX's searches
take negative weights without a check, so such graphs are left to NetworkX.
"""

import networkx as nx

from ..dispatch import networkx_algorithm
from ..solvers.yen import k_shortest_simple_paths
from .common import as_csr, check_weights, configured_executor, sssp_should_run, weight_can_run

__all__ = ["shortest_simple_paths"]

SIMPLE_PATHS_DOC = (
    "Yen's algorithm as NetworkX runs it (its candidate order and its tie-break among "
    "equally long candidates: first found, first yielded), with each round's spur "
    "searches as one batch on the GPU (a row per spur, its root path removed). The "
    "lengths of the k-th paths are NetworkX's, and so are the paths wherever shortest "
    "spur paths are unique (e.g. random float weights); where several spur paths are "
    "equally short, gpusp takes a deterministic one that may differ from the one "
    "NetworkX's bidirectional search meets on, so later paths of equal length may come "
    "in another order. Negative weights are left to NetworkX.")


@networkx_algorithm(can_run=weight_can_run, should_run=sssp_should_run,
                    doc=SIMPLE_PATHS_DOC)
def shortest_simple_paths(G, source, target, weight=None):
    if G.is_multigraph():
        raise nx.NetworkXNotImplemented("not implemented for multigraph type")
    graph = as_csr(G, weight)
    if graph.has_negative_weights:
        raise NotImplementedError(
            "gpusp: NetworkX's shortest_simple_paths takes negative weights without a "
            "check and answers in its own search order; left to NetworkX")
    check_weights(graph, "dijkstra")  # sums past what the distance type holds exactly
    return _labelled_paths(graph, source, target)


def _labelled_paths(graph, source, target):
    s, t = graph.index_of(source), graph.index_of(target)
    if s is None:
        raise nx.NodeNotFound(f"source node {source} not in graph")
    if t is None:
        raise nx.NodeNotFound(f"target node {target} not in graph")
    paths = k_shortest_simple_paths(configured_executor(), graph, s, t)
    first = next(paths, None)
    if first is None:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    yield graph.labels(first)
    for path in paths:
        yield graph.labels(path)
