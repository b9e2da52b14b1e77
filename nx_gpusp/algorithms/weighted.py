"""networkx.algorithms.shortest_paths.weighted on the GPU: the Dijkstra and
Bellman-Ford families, single/multi-source, paths and lengths."""

import networkx as nx
import numpy as np

from ..dispatch import networkx_algorithm
from ..graph import CSRGraph
from .common import as_csr, node_index, run_sssp, sssp_should_run, weight_can_run

__all__ = []

_policy = {"can_run": weight_can_run, "should_run": sssp_should_run}


def _source_indices(graph, sources):
    if not sources:
        raise ValueError("sources must not be empty")
    return [node_index(graph, s, f"Node {s} not found in graph") for s in sources]


def _lengths_and_paths(graph, host, target, no_path_message):
    """(lengths, paths) of every reached node, or (length, path) of ``target``."""
    if target is None:
        return host.lengths(), host.paths()
    t = graph.index_of(target)
    if not host.reached(t):
        raise nx.NetworkXNoPath(no_path_message)
    return host.length(t), host.path(t)


# -- Dijkstra ------------------------------------------------------------------------
@networkx_algorithm(**_policy)
def multi_source_dijkstra(G, sources, target=None, cutoff=None, weight="weight", *,
                          method=None, **options):
    graph = as_csr(G, weight)
    idx = _source_indices(graph, sources)
    if target in sources:
        return (0, [target])
    host = run_sssp(graph, idx, family="dijkstra", method=method, options=options,
                    cutoff=cutoff, want_pred=True)
    return _lengths_and_paths(graph, host, target, f"No path to {target}.")


@networkx_algorithm(**_policy)
def multi_source_dijkstra_path(G, sources, cutoff=None, weight="weight", *, method=None,
                               **options):
    graph = as_csr(G, weight)
    host = run_sssp(graph, _source_indices(graph, sources), family="dijkstra",
                    method=method, options=options, cutoff=cutoff, want_pred=True)
    return host.paths()


@networkx_algorithm(**_policy)
def multi_source_dijkstra_path_length(G, sources, cutoff=None, weight="weight", *,
                                      method=None, **options):
    graph = as_csr(G, weight)
    host = run_sssp(graph, _source_indices(graph, sources), family="dijkstra",
                    method=method, options=options, cutoff=cutoff, want_pred=False)
    return host.lengths()


@networkx_algorithm(**_policy)
def single_source_dijkstra(G, source, target=None, cutoff=None, weight="weight", *,
                           method=None, **options):
    return multi_source_dijkstra.__wrapped__(G, {source}, target, cutoff, weight,
                                             method=method, **options)


@networkx_algorithm(**_policy)
def single_source_dijkstra_path(G, source, cutoff=None, weight="weight", *, method=None,
                                **options):
    return multi_source_dijkstra_path.__wrapped__(G, {source}, cutoff, weight,
                                                  method=method, **options)


@networkx_algorithm(**_policy)
def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight", *,
                                       method=None, **options):
    return multi_source_dijkstra_path_length.__wrapped__(G, {source}, cutoff, weight,
                                                         method=method, **options)


@networkx_algorithm(**_policy)
def dijkstra_path(G, source, target, weight="weight", *, method=None, **options):
    return single_source_dijkstra.__wrapped__(G, source, target, None, weight,
                                              method=method, **options)[1]


@networkx_algorithm(**_policy)
def dijkstra_path_length(G, source, target, weight="weight", *, method=None, **options):
    graph = as_csr(G, weight)
    s = node_index(graph, source, f"Node {source} not found in graph")
    if source == target:
        return 0
    host = run_sssp(graph, [s], family="dijkstra", method=method, options=options,
                    want_pred=False)
    t = graph.index_of(target)
    if not host.reached(t):
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    return host.length(t)


# -- Bellman-Ford --------------------------------------------------------------------
def _bellman_ford_from(graph, i, *, method, options, want_pred):
    return run_sssp(graph, [i], family="bellman-ford", method=method, options=options,
                    want_pred=want_pred)


def _bf_source(graph, source):
    return node_index(graph, source, f"Source {source} not in G")


@networkx_algorithm(**_policy)
def single_source_bellman_ford(G, source, target=None, weight="weight", *, method=None,
                               **options):
    graph = as_csr(G, weight)
    if source == target:
        node_index(graph, source, f"Node {source} is not found in the graph")
        return (0, [source])
    host = _bellman_ford_from(graph, _bf_source(graph, source), method=method,
                              options=options, want_pred=True)
    return _lengths_and_paths(graph, host, target, f"Node {target} not reachable from {source}")


@networkx_algorithm(**_policy)
def single_source_bellman_ford_path(G, source, weight="weight", *, method=None, **options):
    return single_source_bellman_ford.__wrapped__(G, source, None, weight, method=method,
                                                  **options)[1]


@networkx_algorithm(**_policy)
def single_source_bellman_ford_path_length(G, source, weight="weight", *, method=None,
                                           **options):
    graph = as_csr(G, weight)
    return _bellman_ford_from(graph, _bf_source(graph, source), method=method,
                              options=options, want_pred=False).lengths()


@networkx_algorithm(**_policy)
def bellman_ford_path(G, source, target, weight="weight", *, method=None, **options):
    return single_source_bellman_ford.__wrapped__(G, source, target, weight, method=method,
                                                  **options)[1]


@networkx_algorithm(**_policy)
def bellman_ford_path_length(G, source, target, weight="weight", *, method=None, **options):
    graph = as_csr(G, weight)
    if source == target:
        node_index(graph, source, f"Node {source} not found in graph")
        return 0
    host = _bellman_ford_from(graph, _bf_source(graph, source), method=method,
                              options=options, want_pred=False)
    t = graph.index_of(target)
    if not host.reached(t):
        raise nx.NetworkXNoPath(f"node {target} not reachable from {source}")
    return host.length(t)


@networkx_algorithm(**_policy)
def negative_edge_cycle(G, weight="weight", heuristic=True, *, method=None, **options):
    """True when G has a negative cycle anywhere: Bellman-Ford from NetworkX's added
    super-source (an arc of weight 1 to every node). Integer weights start every node
    at distance 0 instead (the same verdict, exactly); float weights run from the
    super-source itself, whose start values decide, as in NetworkX, whether rounding
    makes a zero-length cycle negative."""
    graph = as_csr(G, weight)
    if graph.m == 0 or not graph.has_negative_weights:
        return False
    if graph.distance_dtype().kind == "f":
        graph, sources = _with_super_source(graph), [graph.n]
    else:
        sources = list(range(graph.n))
    try:
        run_sssp(graph, sources, family="bellman-ford", method=method, options=options,
                 want_pred=False)
    except nx.NetworkXUnbounded:
        return True
    return False


def _with_super_source(graph):
    """The graph (as indices) plus vertex n with an arc of weight 1 to every vertex."""
    n = graph.n
    return CSRGraph(np.append(graph.indptr, graph.m + n),
                    np.concatenate([graph.indices, np.arange(n, dtype=np.int32)]),
                    np.concatenate([graph.weights, np.ones(n, dtype=graph.weights.dtype)]))
