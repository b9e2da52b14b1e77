"""networkx.algorithms.components on the GPU: ``node_connected_component``, one BFS from
the node (nx_gpusp.algorithms.traversal.reached_labels); the set of node labels of its
component, the node among them, as NetworkX's. Undirected graphs only, as NetworkX's
(NetworkXNotImplemented for a directed one); a node not in G raises KeyError, as
NetworkX's adjacency lookup does."""

import networkx as nx

from ..dispatch import networkx_algorithm
from .common import as_csr, label_index
from .traversal import reached_labels
from .unweighted import _policy, run_bfs

__all__ = ["node_connected_component"]


@networkx_algorithm(**_policy)
def node_connected_component(G, n, *, method=None, **options):
    graph = as_csr(G, None)
    if graph.directed:
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    s = label_index(graph, n)  # TypeError for an unhashable node, as NetworkX's
    if s is None:
        raise KeyError(n)
    host = run_bfs(graph, [s], method=method, options=options, want_pred=False)
    return reached_labels(graph, host)
