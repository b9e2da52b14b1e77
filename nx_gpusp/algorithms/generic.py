"""networkx.algorithms.shortest_paths.generic: shortest_path, shortest_path_length,
average_shortest_path_length, has_path, and all_shortest_paths,
single_source_all_shortest_paths and all_pairs_all_shortest_paths.

``method`` keeps NetworkX's meaning ("dijkstra", "bellman-ford"; ``weight=None`` means
unweighted) and also accepts a gpusp method name, which implies Bellman-Ford semantics
for methods that take negative weights and Dijkstra semantics otherwise. With
``weight=None`` the unweighted functions answer (breadth-first search, see
``unweighted``), as in NetworkX; a gpusp "bfs" method name picks their method, an sssp
method name runs that method on unit weights.
"""

import networkx as nx
import numpy as np

from ..dispatch import networkx_algorithm
from ..methods import get_method
from ..results import AllShortestPathsMap, TightArcs, sources_first
from ..solvers.apsp.progress import Progress
from . import unweighted
from .all_pairs import all_pairs_rows
from .common import (SEARCH_METHODS, all_pairs_should_run, as_csr, bfs_cpu_should_run,
                     check_weights, family_of, label_index, method_not_supported,
                     node_index, own_weight, reversed_graph, run_sssp, sssp_cpu_should_run,
                     sssp_should_run, weight_can_run)
from .measures import MEASURE, measure_can_run, measure_should_run, statistics
from .weighted import SSSP_DOC, TIGHT_DOC, tight_arcs

__all__ = []

def _should_run(arguments):
    """All pairs without a source or target, else single-source rules."""
    if arguments.get("source") is None and arguments.get("target") is None:
        return all_pairs_should_run(arguments)
    return sssp_should_run(arguments)


def _cpu_should_run(arguments):
    """Without a CUDA GPU: the breadth-first rule for weight=None, else Dijkstra's."""
    if arguments.get("weight") is None or arguments.get("method") == "unweighted":
        return bfs_cpu_should_run(arguments)
    return sssp_cpu_should_run(arguments)


_policy = {"can_run": weight_can_run, "should_run": _should_run,
           "cpu_should_run": _cpu_should_run}
# NetworkX's own `method` also takes gpusp method names
_GPUSP_NAMES = ("NetworkX's method also takes a gpusp \"sssp\" method name (Bellman-Ford "
                "semantics for methods that take negative weights, Dijkstra's otherwise), "
                "and with weight=None a \"bfs\" method name.")
_generic = {**_policy, "doc": SSSP_DOC + " " + _GPUSP_NAMES, "methods": ("sssp", "bfs")}
_all_paths = {**_generic, "doc": TIGHT_DOC + " Paths are walked as they are read. " + _GPUSP_NAMES}


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


@networkx_algorithm(**{**_policy, "doc": unweighted.BFS_DOC, "methods": ("bfs",),
                       "default": "bfs_method"})
def has_path(G, source, target, *, method=None, **options):
    """True when a breadth-first search from ``source`` reaches ``target`` (it stops
    after the level that does)."""
    graph = as_csr(G, None)
    if source is None or target is None:
        # NetworkX asks shortest_path(G, source, target), which without a source or a
        # target searches from the node given (or none): True once that node is in G
        given = target if source is None else source
        if given is not None:
            node_index(graph, given, f"Source {given} not in G")
        return True
    s = node_index(graph, source, f"Source {source} is not in G")
    t = node_index(graph, target, f"Target {target} is not in G")
    if s == t:
        return True
    host = unweighted.run_bfs(graph, [s], method=method, options=options, target=t,
                              want_pred=False)
    return bool(host.reached(t))


@networkx_algorithm(**_generic)
def shortest_path(G, source=None, target=None, weight=None, method="dijkstra"):
    bfs_method = unweighted.generic_bfs_method(weight, method)
    if bfs_method is not None:
        return unweighted.shortest_path_unweighted(G, source, target, bfs_method)
    graph, family, gpu_method = _resolve(G, weight, method)
    if source is None:
        if target is None:
            return _all_pairs_paths(graph, family, gpu_method)
        t = node_index(graph, target, f"Target {target} not in G")
        host = _single(reversed_graph(G, graph, weight), family, t, gpu_method,
                       want_pred=True)
        return host.paths(reverse=True)
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
    rows = all_pairs_rows(graph, own_weight(graph), family, method=gpu_method, options={},
                          want_pred=True, lengths_only=False)
    return ((v, host.paths()) for v, host in rows)


def _all_pairs_lengths(graph, family, gpu_method):
    rows = all_pairs_rows(graph, own_weight(graph), family, method=gpu_method, options={},
                          want_pred=False, lengths_only=True)
    return ((v, host.lengths()) for v, host in rows)


@networkx_algorithm(**_generic)
def shortest_path_length(G, source=None, target=None, weight=None, method="dijkstra"):
    bfs_method = unweighted.generic_bfs_method(weight, method)
    if bfs_method is not None:
        return unweighted.shortest_path_length_unweighted(G, source, target, bfs_method)
    graph, family, gpu_method = _resolve(G, weight, method)
    if source is None:
        if target is None:
            return _all_pairs_lengths(graph, family, gpu_method)
        t = node_index(graph, target, f"Target {target} not in G")
        return _single(reversed_graph(G, graph, weight), family, t, gpu_method,
                       want_pred=False).lengths()
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



# -- average_shortest_path_length (an all-pairs measure) -------------------------------
_ASPL_FAMILY = {"unweighted": "dijkstra", "dijkstra": "dijkstra", "bellman-ford": "bellman-ford",
                "floyd-warshall": "bellman-ford", "floyd-warshall-numpy": "bellman-ford"}


ASPL_METHODS = ("'unweighted', 'dijkstra', 'bellman-ford', 'floyd-warshall', "
                "'floyd-warshall-numpy' or a gpusp \"all-pairs\" method (e.g. 'batched-spmm')")


def _aspl_plan(method, weight):
    """(weight attribute or None, weight family, all-pairs method or None) of NetworkX's
    ``method`` (any of its names; all take negative weights but "dijkstra") or of a
    gpusp all-pairs method name."""
    from ..methods import get_method

    if method is None:
        method = "unweighted" if weight is None else "dijkstra"
    if method in _ASPL_FAMILY:
        return (None if method == "unweighted" else weight), _ASPL_FAMILY[method], None
    m = get_method("all-pairs", method)
    if m is None:
        raise method_not_supported(method, ASPL_METHODS, bfs=False)
    return weight, ("bellman-ford" if m.negative_weights else "dijkstra"), method


@networkx_algorithm(can_run=measure_can_run(), should_run=measure_should_run(), **MEASURE)
def average_shortest_path_length(G, weight=None, method=None, **options):
    weight, family, gpu_method = _aspl_plan(method, weight)
    graph = as_csr(G, weight)
    n = graph.n
    if n == 0:
        raise nx.NetworkXPointlessConcept(
            "the null graph has no paths, thus there is no average shortest path length")
    if n == 1:
        return 0
    if not graph.connected:
        raise nx.NetworkXError("Graph is not strongly connected." if graph.directed
                               else "Graph is not connected.")
    stats = statistics(graph, np.arange(n, dtype=np.int64), ("sum",), family=family,
                       method=gpu_method, options=options,
                       what="average_shortest_path_length")
    return sum(stats.rows["sum"].tolist()) / (n * (n - 1))


# -- all shortest paths: paths of the tight-arc DAG ---------------------------------------
# NetworkX builds predecessor lists (dijkstra_ / bellman_ford_predecessor_and_distance,
# or predecessor for unweighted searches) and walks them depth first; here the lists are
# the tight-arc DAG of the device's distances (weighted.tight_arcs) and paths are walked
# when read (nx_gpusp.results.TightArcs.paths_to), in NetworkX's order for the same
# lists. Lists name tails by distance, ties in node order, so paths through
# equally distant tails may come in another order than NetworkX's.
class _AllPathsSearch:
    """NetworkX's ``method`` of the all_shortest_paths family, resolved: weight=None or
    "unweighted": breadth-first search (a gpusp "bfs" method name picks the BFS method,
    an "sssp" name runs that method on unit weights; NetworkX ignores the method then);
    "dijkstra", "bellman-ford" or a gpusp "sssp" method name: that family. Raises
    NetworkX's ValueError for other methods; NotImplementedError (weights gpusp cannot
    take) from the checks made here."""

    def __init__(self, G, weight, method, options):
        name = method if isinstance(method, str) else None
        self.options = options
        if weight is None or method == "unweighted":
            self.graph = as_csr(G, None)
            self.bfs = get_method("sssp", name) is None if name else True
            if self.bfs:
                chosen = name if name and get_method("bfs", name) else None
                self.method = chosen
                if chosen:
                    get_method("bfs", chosen).check_options(options)
            else:
                self.method, self.family = name, "dijkstra"
                get_method("sssp", name).check_options(options)
            self.missing = "Source {} not in G"
            return
        if method in ("dijkstra", "bellman-ford"):
            self.family, self.method = method, None
        elif name and get_method("sssp", name) is not None:
            self.family, self.method = family_of(name)
            get_method("sssp", name).check_options(options)
        else:
            raise method_not_supported(method, SEARCH_METHODS)
        self.bfs = False
        self.missing = "Node {} is not found in the graph"
        self.graph = as_csr(G, weight)
        check_weights(self.graph, self.family)  # once, before any search

    def source(self, source):
        return node_index(self.graph, source, self.missing.format(source))

    def arcs(self, s):
        """TightArcs of the search from the vertex index ``s``."""
        if self.bfs:
            host = unweighted.run_bfs(self.graph, [s], method=self.method,
                                      options=self.options, want_pred=False)
            return tight_arcs(self.graph, host)
        if self.family == "bellman-ford" and self.graph.has_negative_self_loop:
            # NetworkX's bellman_ford_predecessor_and_distance checks G's self-loops
            raise nx.NetworkXUnbounded("Negative cycle detected.")
        host = run_sssp(self.graph, [s], family=self.family, method=self.method,
                        options=self.options, want_pred=False)
        if self.family == "bellman-ford" and self.graph.n == 1:
            # ... and returns the source alone on one node (no self-loop's predecessor)
            return TightArcs(self.graph, host.dist, np.zeros(2, dtype=np.int64),
                             np.zeros(0, dtype=np.int32), host.sources)
        return tight_arcs(self.graph, host)


def _deferred(error):
    """A generator that raises ``error`` when first read, where NetworkX's generator
    raises it."""
    raise error
    yield  # never reached: makes this function a generator


def _networkx_errors(compute):
    """compute(), or (None, the error) for NetworkX's own errors, which its generators
    raise when first read; NotImplementedError (gpusp cannot run the call: automatic
    dispatch falls back to NetworkX) is raised now."""
    try:
        return compute(), None
    except NotImplementedError:
        raise
    except (nx.NetworkXException, ValueError) as error:
        return None, error


def _paths_to(arcs, target):
    t = label_index(arcs.graph, target)
    if not arcs.reached(t):
        raise nx.NetworkXNoPath(f"Target {target} cannot be reached from given sources")
    yield from arcs.paths_to(t)


@networkx_algorithm(**_all_paths)
def all_shortest_paths(G, source, target, weight=None, method="dijkstra", **options):
    search = _AllPathsSearch(G, weight, method, options)
    arcs = search.arcs(search.source(source))
    return _paths_to(arcs, target)


def _single_source_arcs(G, source, weight, method, options):
    search = _AllPathsSearch(G, weight, method, options)
    arcs = search.arcs(search.source(source))
    return arcs, sources_first(arcs.dist, arcs.sources)


def _targets_and_paths(arcs, order):
    labels = arcs.graph.labels(order)
    for v, label in zip(order.tolist(), labels):
        yield label, list(arcs.paths_to(v))


@networkx_algorithm(**_all_paths)
def single_source_all_shortest_paths(G, source, weight=None, method="dijkstra", **options):
    """A generator, as NetworkX's: (node, its shortest paths) for the source first, then
    by distance; the search runs when called, NetworkX's errors come when it is read."""
    found, error = _networkx_errors(
        lambda: _single_source_arcs(G, source, weight, method, options))
    if error is not None:
        return _deferred(error)
    return _targets_and_paths(*found)


def _all_pairs_paths_rows(search, labels):
    progress = Progress("all_pairs_all_shortest_paths", len(labels))
    for s, label in enumerate(labels):
        arcs = search.arcs(s)
        yield label, AllShortestPathsMap(arcs, sources_first(arcs.dist, arcs.sources))
        progress.advance(1)


@networkx_algorithm(**{**_all_paths, "should_run": all_pairs_should_run})
def all_pairs_all_shortest_paths(G, weight=None, method="dijkstra", **options):
    """A generator, as NetworkX's: (node, {target: its shortest paths}) in node order,
    one search per node as it is read; each target's paths are walked when read."""
    if len(G) == 0:
        return (row for row in ())  # NetworkX's loop over no node raises nothing
    search, error = _networkx_errors(lambda: _AllPathsSearch(G, weight, method, options))
    if error is not None:
        return _deferred(error)
    return _all_pairs_paths_rows(search, list(search.graph.nodes))
