"""All-pairs functions of networkx.algorithms.shortest_paths.weighted (generators, as in
NetworkX): one source at a time through the single-source machinery."""

from ..dispatch import networkx_algorithm
from .common import as_csr, run_sssp, sssp_should_run, weight_can_run

__all__ = []

_policy = {"can_run": weight_can_run, "should_run": sssp_should_run}


def _all_pairs(G, weight, shape, **kwargs):
    """(node, shape(graph, index)) for every node, one source at a time."""
    graph = as_csr(G, weight)
    for i, v in enumerate(graph.nodes):
        yield v, shape(graph, i, **kwargs)


def _dijkstra_from(graph, i, *, cutoff, method, options, want_pred):
    return run_sssp(graph, [i], family="dijkstra", method=method, options=options,
                    cutoff=cutoff, want_pred=want_pred)


@networkx_algorithm(**_policy)
def all_pairs_dijkstra(G, cutoff=None, weight="weight", *, method=None, **options):
    for v, host in _all_pairs(G, weight, _dijkstra_from, cutoff=cutoff, method=method,
                              options=options, want_pred=True):
        yield v, (host.lengths(), host.paths())


@networkx_algorithm(**_policy)
def all_pairs_dijkstra_path_length(G, cutoff=None, weight="weight", *, method=None,
                                   **options):
    for v, host in _all_pairs(G, weight, _dijkstra_from, cutoff=cutoff, method=method,
                              options=options, want_pred=False):
        yield v, host.lengths()


@networkx_algorithm(**_policy)
def all_pairs_dijkstra_path(G, cutoff=None, weight="weight", *, method=None, **options):
    for v, host in _all_pairs(G, weight, _dijkstra_from, cutoff=cutoff, method=method,
                              options=options, want_pred=True):
        yield v, host.paths()


def _bellman_ford_from(graph, i, *, method, options, want_pred):
    return run_sssp(graph, [i], family="bellman-ford", method=method, options=options,
                    want_pred=want_pred)



@networkx_algorithm(**_policy)
def all_pairs_bellman_ford_path_length(G, weight="weight", *, method=None, **options):
    for v, host in _all_pairs(G, weight, _bellman_ford_from, method=method, options=options,
                              want_pred=False):
        yield v, host.lengths()


@networkx_algorithm(**_policy)
def all_pairs_bellman_ford_path(G, weight="weight", *, method=None, **options):
    for v, host in _all_pairs(G, weight, _bellman_ford_from, method=method, options=options,
                              want_pred=True):
        yield v, host.paths()


