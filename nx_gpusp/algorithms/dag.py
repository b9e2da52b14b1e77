"""networkx.algorithms.dag's reachability on the GPU: ``descendants`` and ``ancestors``,
one BFS from the source (on the reverse graph for the ancestors of a directed graph;
nx_gpusp.algorithms.traversal.reachability_search). The answer is the set of node labels
reached, the source left out even where a cycle leads back to it, as NetworkX's."""

from ..dispatch import networkx_algorithm
from .traversal import reachability_search, reached_labels
from .unweighted import _policy

__all__ = ["descendants", "ancestors"]


@networkx_algorithm(**_policy)
def descendants(G, source, *, method=None, **options):
    graph, host, s = reachability_search(G, source, method, options, reverse=False)
    return reached_labels(graph, host, but=s)


@networkx_algorithm(**_policy)
def ancestors(G, source, *, method=None, **options):
    graph, host, s = reachability_search(G, source, method, options, reverse=True)
    return reached_labels(graph, host, but=s)
