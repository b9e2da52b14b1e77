"""networkx.algorithms.shortest_paths.generic: shortest_path and shortest_path_length.

``method`` keeps NetworkX's meaning ("dijkstra", "bellman-ford"; ``weight=None`` means
unweighted) and also accepts a gpusp method name, which implies Bellman-Ford semantics
for methods that take negative weights and Dijkstra semantics otherwise.
"""

import networkx as nx

from ..dispatch import networkx_algorithm
from .all_pairs import all_pairs_rows
from .common import (as_csr, family_of, node_index, run_sssp, sssp_should_run,
                     weight_can_run)

__all__ = []

_policy = {"can_run": weight_can_run, "should_run": sssp_should_run}


def _resolve(G, weight, method):
    family, gpu_method = family_of(method)
    graph = as_csr(G, weight)  # weight=None -> unit weights (NetworkX's "unweighted")
    return graph, family, gpu_method


def _target(graph, target, *, missing_is_no_path):
    """Index of ``target``; None (no path, once the run is done) or NodeNotFound when it
    is not a node."""
    t = graph.index_of(target)
    if t is None and not missing_is_no_path:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    return t


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
        return {v: p[::-1] for v, p in host.paths().items()}
    s = node_index(graph, source, f"Source {source} not in G")
    if target is None:
        return _single(graph, family, s, gpu_method, want_pred=True).paths()
    # NetworkX: bidirectional searches (unweighted, Dijkstra) refuse a missing target;
    # Bellman-Ford runs first and finds no path to it
    t = _target(graph, target, missing_is_no_path=weight is not None and
                family == "bellman-ford")
    if s == t:
        return [source]
    host = _single(graph, family, s, gpu_method, want_pred=True)
    if not host.reached(t):
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    return host.path(t)


def _all_pairs_paths(graph, family, gpu_method):
    for v, host in all_pairs_rows(graph, "weight", family, method=gpu_method, options={},
                                  want_pred=True, lengths_only=False):
        yield v, host.paths()


def _all_pairs_lengths(graph, family, gpu_method):
    for v, host in all_pairs_rows(graph, "weight", family, method=gpu_method, options={},
                                  want_pred=False, lengths_only=True):
        yield v, host.lengths()


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
    # NetworkX: the unweighted bidirectional search refuses a missing target; Dijkstra
    # and Bellman-Ford path lengths run first and find no path to it
    t = _target(graph, target, missing_is_no_path=weight is not None)
    if s == t:
        return 0
    host = _single(graph, family, s, gpu_method, want_pred=False)
    if not host.reached(t):
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    return host.length(t)

