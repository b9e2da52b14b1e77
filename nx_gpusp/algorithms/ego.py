"""networkx.generators.ego: ``ego_graph``, the subgraph induced by the nodes within
``radius`` of ``n``.

The radius search runs on the GPU: a "bfs" method with ``distance=None`` (hops up to
``radius``, as NetworkX's ``single_source_shortest_path_length``), else an "sssp"
method with the cutoff (NetworkX's ``single_source_dijkstra``), on G or, with
``undirected=True``, on ``G.to_undirected()`` (NetworkX's copy, built as NetworkX
builds it). The result is NetworkX's ``G.subgraph(nodes).copy()`` of the nodes found,
listed in NetworkX's order: a subgraph of fewer than half of G's nodes iterates the
set of them, whose order depends on the order they were added in. The breadth-first
order is NetworkX's exactly (nx_gpusp.solvers.sssp.bfs_order); Dijkstra's nodes come
by distance, ties in node order, where NetworkX's ties follow its heap: the graphs are
equal, node and edge data included, and so is the node order but where tied nodes'
hashes collide in that set.
"""

import networkx as nx

from ..convert import EdgeDataGraph, to_networkx
from ..dispatch import networkx_algorithm
from .traversal import visit_search
from .common import as_csr, label_index, node_index, run_sssp, sssp_should_run, weight_can_run
from .unweighted import bfs_depth

__all__ = ["networkx_graph"]

EGO_DOC = ("The radius search on the GPU (breadth-first, or Dijkstra with a cutoff for "
           "distance=...); the subgraph is NetworkX's G.subgraph(nodes).copy(), node, edge "
           "and graph data included.")


def networkx_graph(G):
    """The NetworkX graph whose parts a function returns: G itself, the one an
    EdgeDataGraph was made from (over its dicts), or a CSRGraph's to_networkx."""
    if isinstance(G, nx.Graph):
        return G
    if isinstance(G, EdgeDataGraph):
        return G.networkx()
    return to_networkx(G)


@networkx_algorithm(can_run=weight_can_run, should_run=sssp_should_run, doc=EGO_DOC,
                    methods=("bfs", "sssp"))
def ego_graph(G, n, radius=1, center=True, undirected=False, distance=None, *,
              method=None, **options):
    """``method``: a "bfs" method with distance=None, an "sssp" method with one."""
    base = networkx_graph(G)
    searched = base.to_undirected() if undirected else G
    graph = as_csr(searched, distance)
    if distance is None:
        s = node_index(graph, n, f"Source {n} is not in G")
        order, _, _ = visit_search(graph, [s], method=method, options=options,
                                   depth=bfs_depth(radius))
        nodes = graph.labels(order)
    else:
        s = label_index(graph, n)
        if s is None:
            raise nx.NodeNotFound(f"Node {n} not found in graph")
        host = run_sssp(graph, [s], family="dijkstra", method=method, options=options,
                        cutoff=radius, want_pred=False)
        nodes = list(host.lengths())
    H = base.subgraph(nodes).copy()
    if not center:
        H.remove_node(n)
    return H
