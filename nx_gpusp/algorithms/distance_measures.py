"""networkx.algorithms.distance_measures: eccentricity, diameter, radius, center,
periphery and barycenter, from per-source maxima and sums of distances reduced on the
device.

``usebounds=True`` (undirected graphs) asks NetworkX for its bounding search; here
every eccentricity is computed, which gives the same answer, and a disconnected graph
gets the bounding search's error. Precomputed ``sp``/``e`` and ``attr`` (which writes
node attributes) make can_run refuse, so NetworkX handles those calls.
"""

import networkx as nx
import numpy as np

from ..dispatch import networkx_algorithm
from ..graph import distance_inf
from .common import as_csr, check_weights, run_sssp
from .measures import (MEASURE, int_zeros, measure_can_run, measure_should_run,
                       refuse_precomputed, statistics)

__all__ = []

_BOUNDED = {"can_run": measure_can_run("weight", ("e",)), "should_run": measure_should_run(),
            **MEASURE}


def _not_connected(graph):
    if graph.directed:
        return nx.NetworkXError(
            "Found infinite path length because the digraph is not strongly connected")
    return nx.NetworkXError("Found infinite path length because the graph is not connected")


def _eccentricities(graph, nodes, *, method, options):
    """Eccentricities of ``nodes`` (indices), NetworkXError when one misses a vertex
    (after the weights' errors: NetworkX finds a disconnected graph by searching)."""
    check_weights(graph, "dijkstra")
    if len(nodes) == graph.n and not graph.connected:
        raise _not_connected(graph)  # every node is asked: fail before searching
    stats = statistics(graph, nodes, ("max",), method=method, options=options,
                       what="eccentricity")
    ecc = stats.rows["max"]
    if np.any(ecc == distance_inf(ecc.dtype)):
        raise _not_connected(graph)
    return ecc


def _networkx_number(x):
    """An eccentricity (a Python number) with NetworkX's type: NetworkX's is the max of
    a search's distances, the source's int 0 first, and max keeps the first of equal
    values, so an eccentricity of 0 is that int 0 (float weights give 0.0 elsewhere)."""
    return 0 if x == 0 else x


def _all_eccentricities(graph, usebounds, *, method, options):
    """Every node's eccentricity (index order), with the errors of NetworkX's route:
    the bounding search for ``usebounds`` on undirected graphs, else eccentricity."""
    bounding = usebounds is True and not graph.directed
    if graph.n == 0:
        raise ValueError("gpusp: the null graph has no eccentricities (it has no nodes)")
    check_weights(graph, "dijkstra")
    if bounding and not graph.connected:
        raise nx.NetworkXError("Cannot compute metric because graph is not connected.")
    return _eccentricities(graph, np.arange(graph.n, dtype=np.int64), method=method,
                           options=options)


@networkx_algorithm(can_run=measure_can_run("weight", ("sp",)),
                    should_run=measure_should_run("v"), **MEASURE)
def eccentricity(G, v=None, sp=None, weight=None, *, method=None, **options):
    refuse_precomputed(sp=sp)
    graph = as_csr(G, weight)
    nodes = graph.nbunch_indices(v)
    unique = np.array(list(dict.fromkeys(nodes.tolist())), dtype=np.int64)
    if len(unique) == 0:
        return {}
    ecc = int_zeros(_eccentricities(graph, unique, method=method, options=options))
    if v is not None and graph.index_of(v) is not None:  # NetworkX's "v in G"
        return ecc[0]
    return dict(zip(graph.labels(unique), ecc))


@networkx_algorithm(**_BOUNDED)
def diameter(G, e=None, usebounds=False, weight=None, *, method=None, **options):
    refuse_precomputed(e=e)
    graph = as_csr(G, weight)
    return _networkx_number(
        _all_eccentricities(graph, usebounds, method=method, options=options).max().item())


@networkx_algorithm(**_BOUNDED)
def radius(G, e=None, usebounds=False, weight=None, *, method=None, **options):
    refuse_precomputed(e=e)
    graph = as_csr(G, weight)
    return _networkx_number(
        _all_eccentricities(graph, usebounds, method=method, options=options).min().item())


@networkx_algorithm(**_BOUNDED)
def periphery(G, e=None, usebounds=False, weight=None, *, method=None, **options):
    refuse_precomputed(e=e)
    graph = as_csr(G, weight)
    ecc = _all_eccentricities(graph, usebounds, method=method, options=options)
    return graph.labels(np.flatnonzero(ecc == ecc.max()))


@networkx_algorithm(**_BOUNDED)
def center(G, e=None, usebounds=False, weight=None, *, method=None, **options):
    refuse_precomputed(e=e)
    graph = as_csr(G, weight)
    if not (usebounds is True and not graph.directed) and weight is None \
            and not graph.directed and graph.n == 0:
        raise nx.NetworkXPointlessConcept("G has no nodes.")  # NetworkX's tree test
    ecc = _all_eccentricities(graph, usebounds, method=method, options=options)
    # (on trees NetworkX prunes leaves instead: the same nodes, in the same order)
    return graph.labels(np.flatnonzero(ecc == ecc.min()))


def _is_tree(graph):
    return graph.number_of_edges() == graph.n - 1 and graph.connected


def _describe(graph):
    """str(G) of the NetworkX graph ``graph`` was converted from."""
    kind = ("Multi" if graph.multigraph else "") + ("DiGraph" if graph.directed else "Graph")
    name = graph.graph.get("name", "")
    named = f" named {name!r}" if name else ""
    return f"{kind}{named} with {graph.n} nodes and {graph.number_of_edges()} edges"


@networkx_algorithm(can_run=measure_can_run("weight", ("attr", "sp")),
                    should_run=measure_should_run(), **MEASURE)
def barycenter(G, weight=None, attr=None, sp=None, *, method=None, **options):
    refuse_precomputed(attr=attr, sp=sp)
    graph = as_csr(G, weight)
    tree = False
    if weight is None and not graph.directed:  # NetworkX's route to tree.centroid
        if graph.n == 0:
            raise nx.NetworkXPointlessConcept("G has no nodes.")
        tree = _is_tree(graph)
    if graph.n == 0:
        return []
    check_weights(graph, "dijkstra")  # NetworkX finds a disconnected graph by searching
    if not graph.connected:
        raise nx.NetworkXNoPath(
            f"Input graph {_describe(graph)} is disconnected, so every induced subgraph "
            "has infinite barycentricity.")
    sums = statistics(graph, np.arange(graph.n, dtype=np.int64), ("sum",), method=method,
                      options=options, what="barycenter").rows["sum"]
    smallest = min(sums.tolist())
    best = np.flatnonzero(sums == smallest)
    if tree and len(best) == 2:
        # tree.centroid walks from the first node: the centroid nearer to it comes first
        near = run_sssp(graph, [0], family="dijkstra", want_pred=False)
        best = sorted(best.tolist(), key=near.length)
    return graph.labels(best)
