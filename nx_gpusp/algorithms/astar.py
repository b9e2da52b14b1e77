"""networkx.algorithms.shortest_paths.astar on the GPU, for ``heuristic=None``: A* with
NetworkX's default heuristic (h = 0) is Dijkstra's search, so one Dijkstra search from
the source answers, its path walked back from the target. A heuristic is left to
NetworkX (can_run), as are negative weights (NotImplementedError: NetworkX's A* does not
refuse them, and answers in its own search order).

``cutoff`` as NetworkX's A* reads it: a false one (None, 0) cuts nothing, and a node is
kept while its distance is not above it, so the target is found when its distance is
not above ``cutoff`` (NaN cuts nothing); the source is its own path whatever the cutoff.
"""

import numbers

import networkx as nx

from ..dispatch import networkx_algorithm
from .common import as_csr, run_sssp, sssp_should_run
from .weighted import DIJKSTRA_DOC

__all__ = ["astar_path", "astar_path_length"]


def _can_run(arguments):
    if arguments.get("heuristic") is not None:
        return "a heuristic is NetworkX's to call (gpusp runs A* without one, as Dijkstra)"
    cutoff = arguments.get("cutoff")
    if cutoff is not None and not isinstance(cutoff, numbers.Real):
        return "a cutoff that is no real number is compared by NetworkX's own search"
    return True


_policy = {"can_run": _can_run, "should_run": sssp_should_run,
           "doc": DIJKSTRA_DOC + " heuristic=None only (A* with h = 0 is Dijkstra).",
           "methods": ("sssp",), "default": "dijkstra_method"}


def _search(G, source, target, weight, cutoff, method, options, missing):
    """(HostSSSP, target index) of the search from ``source``, or None when the source
    is the target; ``missing(graph)`` raises for a node not in G."""
    graph = as_csr(G, weight)
    s, t = missing(graph)
    if s == t:
        return None
    if graph.has_negative_weights:
        raise NotImplementedError(
            "gpusp: NetworkX's A* takes negative weights without a check and answers in "
            "its own search order; left to NetworkX")
    host = run_sssp(graph, [s], family="dijkstra", method=method, options=options,
                    want_pred=True)
    if not host.reached(t) or (cutoff and host.length(t) > cutoff):
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    return host, t


@networkx_algorithm(**_policy)
def astar_path(G, source, target, heuristic=None, weight="weight", *, cutoff=None,
               method=None, **options):
    def missing(graph):
        s, t = graph.index_of(source), graph.index_of(target)
        if s is None:
            raise nx.NodeNotFound(f"Source {source} is not in G")
        if t is None:
            raise nx.NodeNotFound(f"Target {target} is not in G")
        return s, t

    found = _search(G, source, target, weight, cutoff, method, options, missing)
    if found is None:
        return [source]
    host, t = found
    return host.path(t)


@networkx_algorithm(**_policy)
def astar_path_length(G, source, target, heuristic=None, weight="weight", *, cutoff=None,
                      method=None, **options):
    def missing(graph):
        s, t = graph.index_of(source), graph.index_of(target)
        if s is None or t is None:
            raise nx.NodeNotFound(f"Either source {source} or target {target} is not in G")
        return s, t

    found = _search(G, source, target, weight, cutoff, method, options, missing)
    if found is None:
        return 0
    host, t = found
    return host.length(t)
