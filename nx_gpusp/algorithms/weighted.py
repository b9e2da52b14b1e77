"""networkx.algorithms.shortest_paths.weighted on the GPU: the Dijkstra and
Bellman-Ford families, single/multi-source, paths and lengths; the all-pairs generators
and ``johnson`` (rows streamed by nx_gpusp.algorithms.all_pairs)."""

import networkx as nx
import numpy as np

from ..config import get_config
from ..convert import refuse_hidden_edges
from ..dispatch import networkx_algorithm
from ..graph import CSRGraph
from ..methods import choose
from ..results import PredecessorListMap, TreePredecessorMap, sources_first
from ..solvers import answers
from ..solvers.apsp.johnson import reweighted
from ..solvers.sssp.negative_cycle import negative_cycle
from .all_pairs import all_pairs_rows, batched_rows
from .common import (all_pairs_should_run, as_csr, check_weights, configured_executor,
                     label_index, node_index, run_sssp, sssp_cpu_should_run,
                     sssp_should_run, weight_can_run)

__all__ = ["tight_arcs", "predecessors_and_distances"]

_policy = {"can_run": weight_can_run, "should_run": sssp_should_run,
           "cpu_should_run": sssp_cpu_should_run}

# the documentation of the decorators (help() shows it under "Backends")
SSSP_DOC = "Runs on the GPU (CuPy) with NumPy twins on the CPU; results match NetworkX."
DIJKSTRA_DOC = SSSP_DOC + " Negative weights raise ValueError: use a Bellman-Ford function."
BELLMAN_FORD_DOC = (SSSP_DOC + " Negative weights need a method marked [negative weights] "
                    "(the others refuse them, ValueError); a negative cycle raises "
                    "NetworkXUnbounded.")
TIGHT_DOC = ("Predecessor lists are the tight arcs of the final distances (the DAG is built "
             "on the GPU); weight functions are evaluated once per arc for each call.")
_dijkstra = {**_policy, "doc": DIJKSTRA_DOC, "methods": ("sssp",),
             "default": "dijkstra_method"}
_bellman_ford = {**_policy, "doc": BELLMAN_FORD_DOC, "methods": ("sssp",),
                 "default": "bellman_ford_method"}


def _source_indices(graph, sources):
    if not sources:
        raise ValueError("sources must not be empty")
    return [node_index(graph, s, f"Node {s} not found in graph") for s in sources]


def _lengths_and_paths(graph, host, target, no_path_message):
    """(lengths, paths) of every reached node, or (length, path) of ``target``."""
    if target is None:
        return host.lengths(), host.paths()
    t = label_index(graph, target)
    if not host.reached(t):
        raise nx.NetworkXNoPath(no_path_message)
    return host.length(t), host.path(t)


# -- Dijkstra ------------------------------------------------------------------------
@networkx_algorithm(**_dijkstra)
def multi_source_dijkstra(G, sources, target=None, cutoff=None, weight="weight", *,
                          method=None, **options):
    graph = as_csr(G, weight)
    idx = _source_indices(graph, sources)
    if target in sources:
        return (0, [target])
    host = run_sssp(graph, idx, family="dijkstra", method=method, options=options,
                    cutoff=cutoff, want_pred=True)
    return _lengths_and_paths(graph, host, target, f"No path to {target}.")


@networkx_algorithm(**_dijkstra)
def multi_source_dijkstra_path(G, sources, cutoff=None, weight="weight", *, method=None,
                               **options):
    graph = as_csr(G, weight)
    host = run_sssp(graph, _source_indices(graph, sources), family="dijkstra",
                    method=method, options=options, cutoff=cutoff, want_pred=True)
    return host.paths()


@networkx_algorithm(**_dijkstra)
def multi_source_dijkstra_path_length(G, sources, cutoff=None, weight="weight", *,
                                      method=None, **options):
    graph = as_csr(G, weight)
    host = run_sssp(graph, _source_indices(graph, sources), family="dijkstra",
                    method=method, options=options, cutoff=cutoff, want_pred=False)
    return host.lengths()


@networkx_algorithm(**_dijkstra)
def single_source_dijkstra(G, source, target=None, cutoff=None, weight="weight", *,
                           method=None, **options):
    return multi_source_dijkstra.__wrapped__(G, {source}, target, cutoff, weight,
                                             method=method, **options)


@networkx_algorithm(**_dijkstra)
def single_source_dijkstra_path(G, source, cutoff=None, weight="weight", *, method=None,
                                **options):
    return multi_source_dijkstra_path.__wrapped__(G, {source}, cutoff, weight,
                                                  method=method, **options)


@networkx_algorithm(**_dijkstra)
def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight", *,
                                       method=None, **options):
    return multi_source_dijkstra_path_length.__wrapped__(G, {source}, cutoff, weight,
                                                         method=method, **options)


@networkx_algorithm(**_dijkstra)
def dijkstra_path(G, source, target, weight="weight", *, method=None, **options):
    return single_source_dijkstra.__wrapped__(G, source, target, None, weight,
                                              method=method, **options)[1]


@networkx_algorithm(**_dijkstra)
def dijkstra_path_length(G, source, target, weight="weight", *, method=None, **options):
    graph = as_csr(G, weight)
    s = node_index(graph, source, f"Node {source} not found in graph")
    if source == target:
        return 0
    host = run_sssp(graph, [s], family="dijkstra", method=method, options=options,
                    want_pred=False)
    t = label_index(graph, target)
    if not host.reached(t):
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    return host.length(t)


# -- Bellman-Ford --------------------------------------------------------------------
def _bellman_ford_from(graph, i, *, method, options, want_pred):
    return run_sssp(graph, [i], family="bellman-ford", method=method, options=options,
                    want_pred=want_pred)


def _bf_source(graph, source):
    """NetworkX's Bellman-Ford functions key dicts by the source before they look for
    it in G: an unhashable source is a TypeError, a missing one NodeNotFound."""
    s = label_index(graph, source)
    if s is None:
        raise nx.NodeNotFound(f"Source {source} not in G")
    return s


@networkx_algorithm(**_bellman_ford)
def single_source_bellman_ford(G, source, target=None, weight="weight", *, method=None,
                               **options):
    graph = as_csr(G, weight)
    if source == target:
        node_index(graph, source, f"Node {source} is not found in the graph")
        return (0, [source])
    host = _bellman_ford_from(graph, _bf_source(graph, source), method=method,
                              options=options, want_pred=True)
    return _lengths_and_paths(graph, host, target, f"Node {target} not reachable from {source}")


@networkx_algorithm(**_bellman_ford)
def single_source_bellman_ford_path(G, source, weight="weight", *, method=None, **options):
    return single_source_bellman_ford.__wrapped__(G, source, None, weight, method=method,
                                                  **options)[1]


@networkx_algorithm(**_bellman_ford)
def single_source_bellman_ford_path_length(G, source, weight="weight", *, method=None,
                                           **options):
    graph = as_csr(G, weight)
    return _bellman_ford_from(graph, _bf_source(graph, source), method=method,
                              options=options, want_pred=False).lengths()


@networkx_algorithm(**_bellman_ford)
def bellman_ford_path(G, source, target, weight="weight", *, method=None, **options):
    return single_source_bellman_ford.__wrapped__(G, source, target, weight, method=method,
                                                  **options)[1]


@networkx_algorithm(**_bellman_ford)
def bellman_ford_path_length(G, source, target, weight="weight", *, method=None, **options):
    graph = as_csr(G, weight)
    if source == target:
        node_index(graph, source, f"Node {source} not found in graph")
        return 0
    host = _bellman_ford_from(graph, _bf_source(graph, source), method=method,
                              options=options, want_pred=False)
    t = label_index(graph, target)
    if not host.reached(t):
        raise nx.NetworkXNoPath(f"node {target} not reachable from {source}")
    return host.length(t)


def _edge_cycle_can_run(arguments):
    if callable(arguments.get("weight", "weight")):
        return ("NetworkX's negative_edge_cycle also calls the weight function on the "
                "edges of a node it adds to G; left to NetworkX")
    return True


@networkx_algorithm(**{**_bellman_ford, "can_run": _edge_cycle_can_run})
def negative_edge_cycle(G, weight="weight", heuristic=True, *, method=None, **options):
    """True when G has a negative cycle anywhere: Bellman-Ford from NetworkX's added
    super-source (an arc of weight 1 to every node). Integer weights start every node
    at distance 0 instead (the same verdict, exactly); float weights run from the
    super-source itself, whose start values decide, as in NetworkX, whether rounding
    makes a zero-length cycle negative."""
    graph = as_csr(G, weight)
    refuse_hidden_edges(graph)  # NetworkX's search from its added node meets every edge
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


# -- predecessor lists, Goldberg-Radzik, negative cycles, bidirectional Dijkstra --------
# Predecessor lists are the rows of the tight-arc DAG of the final distances, built on
# the device (nx_gpusp.solvers.sssp.tight_arcs): every tail NetworkX's searches append.
# Keys come source first, then by distance (NetworkX's come source first, then in its
# queue's discovery order); lists name their tails by distance, ties in node order.
def tight_arcs(graph, host):
    """The TightArcs of a HostSSSP's final distances."""
    return answers.tight_arcs(configured_executor(), graph, host)


def predecessors_and_distances(graph, host):
    """(pred, dist) mappings of one search: NetworkX's ``*_predecessor_and_distance``."""
    order = sources_first(host.dist, host.sources, host.order)
    return (PredecessorListMap(tight_arcs(graph, host), order),
            host.lengths(order))


@networkx_algorithm(**{**_dijkstra, "doc": TIGHT_DOC + " " + DIJKSTRA_DOC})
def dijkstra_predecessor_and_distance(G, source, cutoff=None, weight="weight", *,
                                      method=None, **options):
    graph = as_csr(G, weight)
    s = node_index(graph, source, f"Node {source} is not found in the graph")
    if cutoff is not None and cutoff != cutoff:
        cutoff = None  # NaN: NetworkX's `length > cutoff` never holds
    host = run_sssp(graph, [s], family="dijkstra", method=method, options=options,
                    cutoff=cutoff, want_pred=False)
    if cutoff is not None and cutoff < 0:
        return {source: []}, {source: 0}  # NetworkX relaxes nothing, keeps the source
    return predecessors_and_distances(graph, host)


def _single_node_bellman_ford(graph, source):
    """(node index, True when G has one node: NetworkX then returns the source alone)
    after NetworkX's checks: the source, then negative self-loops anywhere (these two
    functions refuse one even where the source cannot reach it; the other Bellman-Ford
    functions only a reachable one, run_sssp's check)."""
    s = node_index(graph, source, f"Node {source} is not found in the graph")
    check_weights(graph, "bellman-ford")
    if graph.has_negative_self_loop:
        raise nx.NetworkXUnbounded("Negative cycle detected.")
    return s, graph.n == 1


@networkx_algorithm(**{**_bellman_ford, "doc": TIGHT_DOC + " " + BELLMAN_FORD_DOC})
def bellman_ford_predecessor_and_distance(G, source, target=None, weight="weight",
                                          heuristic=False, *, method=None, **options):
    """``target`` and ``heuristic`` change nothing in NetworkX's answer (the target only
    ends its path building, the heuristic only finds negative cycles sooner)."""
    graph = as_csr(G, weight)
    s, alone = _single_node_bellman_ford(graph, source)
    if alone:
        return {source: []}, {source: 0}
    host = run_sssp(graph, [s], family="bellman-ford", method=method, options=options,
                    want_pred=False)
    return predecessors_and_distances(graph, host)


@networkx_algorithm(**{**_bellman_ford, "doc": (
    "Shortest-path tree of a GPU Bellman-Ford method; None at the source. Where several "
    "trees exist, a parent may differ from NetworkX's (every parent is on a shortest "
    "path). " + BELLMAN_FORD_DOC)})
def goldberg_radzik(G, source, weight="weight", *, method=None, **options):
    """The shortest-path tree of a Bellman-Ford-family method (any "sssp" method that
    takes negative weights; Goldberg and Radzik's own scan order is a sequential one).
    Where several trees exist, a parent may differ from NetworkX's; every parent is on
    a shortest path."""
    graph = as_csr(G, weight)
    s, alone = _single_node_bellman_ford(graph, source)
    if alone:
        return {source: None}, {source: 0}
    host = run_sssp(graph, [s], family="bellman-ford", method=method, options=options,
                    want_pred=True)
    order = sources_first(host.dist, host.sources, host.order)
    return (TreePredecessorMap(graph, host.dist, host.pred, order),
            host.lengths(order))


@networkx_algorithm(**_policy, doc=(
    "Frontier Bellman-Ford rounds on the GPU until the predecessor graph holds a "
    "(negative) cycle; first node repeated at the end. The cycle starts at its first node "
    "in G's node order, and may be another reachable negative cycle than NetworkX's."))
def find_negative_cycle(G, source, weight="weight"):
    """A negative cycle reachable from ``source`` by frontier Bellman-Ford rounds on the
    device (nx_gpusp.solvers.sssp.negative_cycle), first node repeated at the end. Its
    first node is the cycle's first in G's node order (NetworkX's is wherever its queue
    noticed the cycle); where several negative cycles are reachable, it may be another
    of them than NetworkX's."""
    graph = as_csr(G, weight)
    s = _bf_source(graph, source)
    # declined as every Bellman-Ford function declines: past int64, or float sums that
    # could reach -inf, where the rounds stop lowering and leave a cycle unreported
    check_weights(graph, "bellman-ford")
    cycle = None
    if graph.has_negative_weights:
        cycle = negative_cycle(configured_executor(), graph, s)
    if cycle is None:
        raise nx.NetworkXError("No negative cycles detected.")
    return graph.labels(cycle)


@networkx_algorithm(**{**_dijkstra, "doc": (
    "One GPU search from the source; the path is the one on its shortest-path tree "
    "(where several shortest paths exist, it may differ from NetworkX's). " + DIJKSTRA_DOC)})
def bidirectional_dijkstra(G, source, target, weight="weight", *, method=None, **options):
    """One search from ``source`` on the device (any "sssp" method; a GPU search settles
    the whole graph in about the time it settles a part, so a second search from the
    target would only add work). The length is NetworkX's; where several shortest paths
    exist, the path is the one on the search's shortest-path tree, which may differ
    from the one NetworkX's two searches meet on."""
    graph = as_csr(G, weight)
    s = node_index(graph, source, f"Source {source} is not in G")
    t = node_index(graph, target, f"Target {target} is not in G")
    if s == t:
        return (0, [source])
    host = run_sssp(graph, [s], family="dijkstra", method=method, options=options,
                    want_pred=True)
    if not host.reached(t):
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    return host.length(t), host.path(t)


# -- all pairs: generators streamed in source chunks (nx_gpusp.algorithms.all_pairs) -----
_all_pairs_policy = {"can_run": weight_can_run, "should_run": all_pairs_should_run}
ALL_PAIRS_DOC = ("Many sources in flight on the GPU, in batches sized to free device memory; "
                 "rows stream as they are read. 'auto' runs Floyd-Warshall for the lengths "
                 "of dense graphs whose matrix fits, else batched-spmm; with dask_client "
                 "set, the sources are shared among its workers.")
_all_pairs = {**_all_pairs_policy, "default": "all_pairs_method"}
_all_pairs_dijkstra = {**_all_pairs, "doc": ALL_PAIRS_DOC + " " + DIJKSTRA_DOC}
_all_pairs_bellman_ford = {**_all_pairs, "doc": ALL_PAIRS_DOC + " " + BELLMAN_FORD_DOC}
_PATHS = ("all-pairs", "sssp")  # Floyd-Warshall methods answer the length functions only
_LENGTHS = ("all-pairs", "floyd-warshall", "sssp")


@networkx_algorithm(**_all_pairs_dijkstra, methods=_PATHS)
def all_pairs_dijkstra(G, cutoff=None, weight="weight", *, method=None, **options):
    rows = all_pairs_rows(G, weight, "dijkstra", method=method, options=options,
                          cutoff=cutoff, want_pred=True, lengths_only=False)
    return ((v, (host.lengths(), host.paths())) for v, host in rows)


@networkx_algorithm(**_all_pairs_dijkstra, methods=_LENGTHS)
def all_pairs_dijkstra_path_length(G, cutoff=None, weight="weight", *, method=None,
                                   **options):
    rows = all_pairs_rows(G, weight, "dijkstra", method=method, options=options,
                          cutoff=cutoff, want_pred=False, lengths_only=True)
    return ((v, host.lengths()) for v, host in rows)


@networkx_algorithm(**_all_pairs_dijkstra, methods=_PATHS)
def all_pairs_dijkstra_path(G, cutoff=None, weight="weight", *, method=None, **options):
    rows = all_pairs_rows(G, weight, "dijkstra", method=method, options=options,
                          cutoff=cutoff, want_pred=True, lengths_only=False)
    return ((v, host.paths()) for v, host in rows)


@networkx_algorithm(**_all_pairs_bellman_ford, methods=_LENGTHS)
def all_pairs_bellman_ford_path_length(G, weight="weight", *, method=None, **options):
    rows = all_pairs_rows(G, weight, "bellman-ford", method=method, options=options,
                          want_pred=False, lengths_only=True)
    return ((v, host.lengths()) for v, host in rows)


@networkx_algorithm(**_all_pairs_bellman_ford, methods=_PATHS)
def all_pairs_bellman_ford_path(G, weight="weight", *, method=None, **options):
    rows = all_pairs_rows(G, weight, "bellman-ford", method=method, options=options,
                          want_pred=True, lengths_only=False)
    return ((v, host.paths()) for v, host in rows)


@networkx_algorithm(**_all_pairs, methods=("all-pairs",), doc=(
    "Bellman-Ford potentials and batched Dijkstra on the GPU; a negative cycle raises "
    "NetworkXUnbounded."))
def johnson(G, weight="weight", *, method=None, **options):
    graph = as_csr(G, weight)
    check_weights(graph, "bellman-ford")
    ex = configured_executor()
    reweighted_graph = reweighted(ex, graph)  # NetworkXUnbounded on a negative cycle
    m = choose("all-pairs", method or get_config().all_pairs_method, reweighted_graph,
               negative_ok=False)
    m.check_options(options)
    labels = list(graph.nodes)
    rows = batched_rows(ex, reweighted_graph, m, options, None, True)
    return {labels[s]: host.paths() for s, host in rows}
