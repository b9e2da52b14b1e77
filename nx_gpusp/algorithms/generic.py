"""networkx.algorithms.shortest_paths.generic: shortest_path and shortest_path_length.

``method`` keeps NetworkX's meaning ("dijkstra", "bellman-ford"; ``weight=None`` means
unweighted) and also accepts a gpusp method name, which implies Bellman-Ford semantics
for methods that take negative weights and Dijkstra semantics otherwise.
"""

import networkx as nx

from ..dispatch import networkx_algorithm
from .all_pairs import all_pairs_rows
from .common import (all_pairs_should_run, as_csr, family_of, node_index, run_sssp,
                     sssp_should_run, weight_can_run)

__all__ = []

def _should_run(arguments):
    """All pairs without a source or target, else single-source rules."""
    if arguments.get("source") is None and arguments.get("target") is None:
        return all_pairs_should_run(arguments)
    return sssp_should_run(arguments)


_policy = {"can_run": weight_can_run, "should_run": _should_run}


def _resolve(G, weight, method):
    family, gpu_method = family_of(method)
    graph = as_csr(G, weight)  # weight=None -> unit weights (NetworkX's "unweighted")
    return graph, family, gpu_method


def _single(graph, family, source, gpu_method, *, want_pred):
    return run_sssp(graph, [source], family=family, method=gpu_method, want_pred=want_pred)


@networkx_algorithm(**_policy)
def shortest_path(G, source=None, target=None, weight=None, method="dijkstra"):
    graph, family, gpu_method = _resolve(G, weight, method)
    if source is None:
        if target is None:
            return _all_pairs_paths(graph, family, gpu_method)
        t = node_index(graph, target, f"Target {target} not in G")
        host = _single(graph.reverse, family, t, gpu_method, want_pred=True)
        return host.paths(reverse=True)
    s = node_index(graph, source, f"Source {source} not in G")
    if target is None:
        return _single(graph, family, s, gpu_method, want_pred=True).paths()
    t = node_index(graph, target, f"Target {target} not in G")
    if s == t:
        return [source]
    host = _single(graph, family, s, gpu_method, want_pred=True)
    if not host.reached(t):
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    return host.path(t)


def _all_pairs_paths(graph, family, gpu_method):
    rows = all_pairs_rows(graph, "weight", family, method=gpu_method, options={},
                          want_pred=True, lengths_only=False)
    return ((v, host.paths()) for v, host in rows)


def _all_pairs_lengths(graph, family, gpu_method):
    rows = all_pairs_rows(graph, "weight", family, method=gpu_method, options={},
                          want_pred=False, lengths_only=True)
    return ((v, host.lengths()) for v, host in rows)


@networkx_algorithm(**_policy)
def shortest_path_length(G, source=None, target=None, weight=None, method="dijkstra"):
    graph, family, gpu_method = _resolve(G, weight, method)
    if source is None:
        if target is None:
            return _all_pairs_lengths(graph, family, gpu_method)
        t = node_index(graph, target, f"Target {target} not in G")
        return _single(graph.reverse, family, t, gpu_method, want_pred=False).lengths()
    s = node_index(graph, source, f"Source {source} not in G")
    if target is None:
        return _single(graph, family, s, gpu_method, want_pred=False).lengths()
    t = node_index(graph, target, f"Target {target} not in G")
    if s == t:
        return 0
    host = _single(graph, family, s, gpu_method, want_pred=False)
    if not host.reached(t):
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    return host.length(t)

