"""Argument handling shared by the NetworkX-facing functions."""

import networkx as nx
import numpy as np

from ..config import get_config
from ..convert import EdgeDataGraph, from_networkx, from_weight_function, refuse_hidden_edges
from ..executor import get_executor
from ..graph import CSRGraph
from ..methods import choose, get_method
from ..solvers import answers
from ..solvers.sssp import cutoff_value, is_real

__all__ = ["configured_executor", "as_csr", "own_weight", "check_weights", "check_reachable_self_loops",
           "node_index", "label_index", "run_sssp", "weight_can_run", "sssp_should_run",
           "sssp_cpu_should_run", "bfs_cpu_should_run", "attribute_weight_can_run",
           "reversed_graph", "all_pairs_should_run", "arc_count", "family_of",
           "check_reweighted_ints", "method_not_supported", "SEARCH_METHODS"]


def configured_executor():
    """The executor of the configured device (nx.config.backends.gpusp.device)."""
    return get_executor(get_config().device)


def as_csr(G, weight="weight"):
    """The CSRGraph to compute on: converted already by the dispatcher, or here when a
    backend function is called directly with a NetworkX graph. ``weight=None`` means
    every arc weighs 1 (NetworkX's unweighted convention); a function ``weight(u, v, d)``
    is evaluated now, for this call only (nx_gpusp.convert.from_weight_function), from
    the NetworkX graph or the dispatcher's EdgeDataGraph."""
    if isinstance(G, EdgeDataGraph):
        G = G.csr(weight)
    elif not isinstance(G, CSRGraph):
        G = from_weight_function(G, weight) if callable(weight) else from_networkx(G, weight)
    elif callable(weight):
        raise NotImplementedError(
            "gpusp: a weight function needs NetworkX's edge data; pass the NetworkX graph "
            "(a CSRGraph holds one weight per arc)")
    elif weight is not None and (not G.weighted or G.weight_attr is not None and
                                 weight != G.weight_attr):
        held = f"the edge attribute {G.weight_attr!r}" if G.weighted else "no edge weights"
        raise ValueError(
            f"gpusp: this CSRGraph holds {held}, not {weight!r}; pass the NetworkX graph, "
            f"or convert it with that attribute (nx_gpusp.convert.from_networkx(G, "
            f"{weight!r}))")
    if weight is None:
        return G.unit_weights
    return G


def own_weight(graph):
    """The ``weight`` argument for which :func:`as_csr` hands back ``graph`` itself: for
    passing a graph already converted for a call's weight to a helper that converts."""
    return (graph.weight_attr or "weight") if graph.weighted else None


def node_index(graph, node, message):
    idx = graph.index_of(node)
    if idx is None:
        raise nx.NodeNotFound(message)
    return idx


def label_index(graph, label):
    """Index of ``label``, or None when it is not a node, found as NetworkX's result
    dicts find it (``dist[target]``, ``target in pred``, ``{source: ...}``): an
    unhashable label raises TypeError there, where ``label in G`` says False."""
    hash(label)
    return graph.index_of(label)


def family_of(method):
    """NetworkX's shortest_path(method=...) accepts gpusp method names too."""
    if method in (None, "dijkstra"):
        return "dijkstra", None
    if method == "bellman-ford":
        return "bellman-ford", None
    from ..methods import get_method

    m = get_method("sssp", method)
    if m is None:
        raise method_not_supported(method, SEARCH_METHODS)
    return ("bellman-ford" if m.negative_weights else "dijkstra"), method


# what NetworkX's `method` takes with a weight in the generic functions, gpusp's names too
SEARCH_METHODS = ("'dijkstra', 'bellman-ford' or a gpusp \"sssp\" method (e.g. "
                  "'near-far'; 'frontier' for negative weights)")


def method_not_supported(method, takes, *, bfs=True):
    """NetworkX's ValueError for a ``method`` the call does not take ("method not
    supported: ..."), saying what it takes (``takes``); ``bfs``: the call takes a gpusp
    breadth-first search method with weight=None, which the message then says."""
    hint = f"use {takes}"
    if bfs and isinstance(method, str) and get_method("bfs", method) is not None:
        hint = (f"gpusp's {method!r} is a breadth-first search method: it needs "
                f"weight=None; with a weight {hint}")
    return ValueError(f"method not supported: {method} ({hint})")


def check_weights(graph, family):
    """The weight errors of the Dijkstra ("dijkstra") or Bellman-Ford family that the
    whole graph decides (a negative cycle counts only where a run reaches it)."""
    if family == "bellman-ford":
        refuse_hidden_edges(graph)
    if family == "dijkstra" and graph.has_negative_weights:
        raise ValueError(
            "Contradictory paths found: negative weights? gpusp's Dijkstra needs "
            f"non-negative weights (minimum is {graph.min_weight}); use Bellman-Ford")
    if not graph.path_sums_exact():
        raise NotImplementedError(
            "gpusp: integer path sums could pass what int64 holds (2**62), or, mixed with "
            "float weights, what float64 holds exactly (2**53)")
    if not graph.float_sums_finite():
        # NetworkX's Dijkstra reports a node reached only through an overflowing sum at
        # distance inf (here inf means "unreached"), and its Bellman-Ford stops lowering
        # at -inf, so that it finds no negative cycle there
        raise NotImplementedError("gpusp: float path sums could overflow to +-inf")


def check_reweighted_ints(graph):
    """Floyd-Warshall's decline where Johnson's reweighting could move an int distance
    (nx_gpusp.graph.CSRGraph.reweighted_ints_exact)."""
    if not graph.reweighted_ints_exact():
        raise NotImplementedError(
            "gpusp: int weights mixed with negative float weights whose sums are so large "
            "that Floyd-Warshall's reweighted sums could not give the int distances "
            "exactly; an all-pairs method (e.g. batched-frontier) can")


def check_reachable_self_loops(graph, sources):
    """NetworkXUnbounded when a negative self-loop is reachable from ``sources`` (only a
    reachable negative cycle makes a Bellman-Ford run unbounded)."""
    if graph.has_negative_self_loop and graph.reachable(sources)[graph.negative_self_loops].any():
        raise nx.NetworkXUnbounded("Negative cycle detected.")


def run_sssp(graph, sources, *, family, method=None, options=None, cutoff=None,
             want_pred=True):
    """Run one single/multi-source computation; sources are indices. Returns HostSSSP.

    ``cutoff`` as NetworkX's Dijkstra reads it: sources stay at 0 whatever it is, NaN
    cuts nothing, and one that is no number raises TypeError where NetworkX compares
    with it (once a source has an arc)."""
    check_weights(graph, family)
    if family == "bellman-ford":
        check_reachable_self_loops(graph, sources)
    if cutoff is not None and not is_real(cutoff):
        if graph.out_degree[np.asarray(sources, dtype=np.int64)].any():
            cutoff_value(cutoff, graph.distance_dtype())  # raises TypeError
        cutoff = None
    cfg = get_config()
    requested = method or (cfg.dijkstra_method if family == "dijkstra"
                           else cfg.bellman_ford_method)
    m = choose("sssp", requested, graph, negative_ok=family == "bellman-ford", cutoff=cutoff)
    opts = m.check_options(options or {})
    return answers.sssp(configured_executor(), graph, m, sources, options=opts, cutoff=cutoff,
                        want_pred=want_pred)


def _weight_arg(arguments):
    return arguments.get("weight", "weight")


def weight_can_run(arguments):
    """Weight functions run on gpusp too (evaluated once per arc for each call)."""
    return True


def reversed_graph(G, graph, weight):
    """The graph a search toward a target runs on, as NetworkX's: ``graph.reverse``
    (``graph`` = as_csr(G, weight)), except that a weight function on a directed G is
    called as NetworkX calls it on ``G.reverse()``: weight(v, u, d) for G's edge (u, v)."""
    if callable(weight) and graph.directed:
        edges = G if isinstance(G, EdgeDataGraph) else EdgeDataGraph(G)
        return as_csr(edges.reversed(), weight)
    return graph.reverse


def attribute_weight_can_run(arguments):
    """For functions that read ``weight`` only as an attribute name (NetworkX's
    Floyd-Warshall family, where a function weighs every edge 1.0): refuse functions."""
    if callable(_weight_arg(arguments)):
        return ("NetworkX's Floyd-Warshall functions read `weight` as an edge attribute "
                "name (a function gives every edge weight 1.0 there); left to NetworkX")
    return True


def arc_count(G):
    """Arcs of a NetworkX graph (an undirected edge twice), kept in its
    ``__networkx_cache__``, which NetworkX clears whenever the graph changes: counting
    them costs O(n), and automatic dispatch asks on every call."""
    cache = getattr(G, "__networkx_cache__", None)
    if cache is not None:
        arcs = cache.get("nx_gpusp_arcs")
        if arcs is not None:
            return arcs
    arcs = sum(map(len, G._adj.values()))
    if cache is not None:
        cache["nx_gpusp_arcs"] = arcs
    return arcs


def sssp_should_run(arguments):
    """Automatic dispatch: single-source calls on graphs with fewer arcs than
    ``should_run_min_edges`` stay on NetworkX."""
    G = arguments.get("G")
    if G is None or isinstance(G, CSRGraph):
        return True
    threshold = get_config().should_run_min_edges
    arcs = arc_count(G)
    if arcs < threshold:
        return f"graph has {arcs} arcs, fewer than should_run_min_edges={threshold}"
    return True


def sssp_cpu_should_run(arguments):
    """Automatic dispatch without a CUDA GPU: the NumPy twins run single-source Dijkstra
    and Bellman-Ford calls without a target or cutoff on graphs of at least
    ``cpu_min_edges`` arcs, where they were measured faster than NetworkX
    (tools/cpu_thresholds.py)."""
    return _cpu_should_run(arguments, "cpu_min_edges")


def bfs_cpu_should_run(arguments):
    """:func:`sssp_cpu_should_run` for breadth-first calls (``cpu_min_edges_bfs``)."""
    return _cpu_should_run(arguments, "cpu_min_edges_bfs")


def _cpu_should_run(arguments, option):
    from ..dispatch import NO_GPU_REASON

    G = arguments.get("G")
    if G is None or isinstance(G, CSRGraph):
        return True
    if arguments.get("source") is None and arguments.get("sources") is None:
        return NO_GPU_REASON
    for key in ("target", "cutoff"):
        if arguments.get(key) is not None:
            return (f"no CUDA GPU here, and with a {key} NetworkX can stop its search "
                    "early, where gpusp's NumPy twins run it whole (slower)")
    threshold = getattr(get_config(), option)
    arcs = arc_count(G)
    if arcs < threshold:
        return (f"no CUDA GPU here, and gpusp's NumPy twins beat NetworkX only from "
                f"{option}={threshold} arcs (this graph: {arcs})")
    return True


def all_pairs_should_run(arguments):
    """Automatic dispatch: all-pairs calls, whose work grows with n * m, stay on NetworkX
    where n * m is below ``should_run_min_all_pairs_work``."""
    G = arguments.get("G")
    if G is None or isinstance(G, CSRGraph):
        return True
    threshold = get_config().should_run_min_all_pairs_work
    work = len(G) * arc_count(G)
    if work < threshold:
        return (f"graph has n * m = {work}, below "
                f"should_run_min_all_pairs_work={threshold}")
    return True

