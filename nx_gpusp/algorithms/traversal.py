"""networkx.algorithms.traversal on the GPU: ``descendants_at_distance``, and the
reachability search that it and ``descendants`` / ``ancestors`` (nx_gpusp.algorithms.dag)
share.

One BFS (a "bfs" method) from the source, on the reverse graph for ``ancestors`` of a
directed graph. The answer is a set of node labels, as NetworkX's.
``descendants_at_distance`` keeps the level ``i`` for which ``i == distance`` (so 1.0,
True or Decimal(1) pick level 1, and anything else, such as a negative number, 1.5,
NaN or a string, gives the empty set).
"""

import numbers

import networkx as nx
import numpy as np

from ..dispatch import networkx_algorithm
from ..graph import distance_inf
from .common import as_csr, label_index
from .unweighted import _policy, run_bfs

__all__ = ["descendants_at_distance", "reachability_search", "reached_labels"]


def reachability_search(G, source, method, options, *, reverse, depth=None):
    """(graph, HostSSSP, source index) of a BFS from ``source`` (levels up to ``depth``);
    NetworkXError for a node not in G (NetworkX's "graph" or "digraph", as its
    neighbour lookup says), TypeError for an unhashable one."""
    graph = as_csr(G, None)
    s = label_index(graph, source)
    if s is None:
        kind = "digraph" if graph.directed else "graph"
        raise nx.NetworkXError(f"The node {source} is not in the {kind}.")
    search = graph.reverse if reverse and graph.directed else graph
    return graph, run_bfs(search, [s], method=method, options=options, depth=depth,
                          want_pred=False), s


def reached_labels(graph, host, but=None):
    """The set of labels the search reached (leaving out the index ``but``)."""
    reached = host.dist != distance_inf(host.dist.dtype)
    if but is not None:
        reached[but] = False
    return set(graph.labels(np.flatnonzero(reached)))


@networkx_algorithm(**_policy)
def descendants_at_distance(G, source, distance, *, method=None, **options):
    graph = as_csr(G, None)
    s = graph.index_of(source)  # None for an unhashable one too: NetworkX's `source in G`
    if s is None:
        raise nx.NetworkXError(f"The node {source} is not in the graph.")
    integral = isinstance(distance, numbers.Integral) and not isinstance(distance, bool)
    # an int needs no level beyond it (a negative one: none but the source's); any other
    # value is found among all the levels, as NetworkX's i == distance finds it
    depth = max(int(distance), 0) if integral else None
    dist = run_bfs(graph, [s], method=method, options=options, depth=depth,
                   want_pred=False).dist
    deepest = int(dist[dist != distance_inf(dist.dtype)].max())
    level = next((i for i in range(deepest + 1) if i == distance), None)
    if level is None:
        return set()
    return set(graph.labels(np.flatnonzero(dist == level)))
