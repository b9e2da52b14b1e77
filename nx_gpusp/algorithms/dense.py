"""networkx.algorithms.shortest_paths.dense: Floyd-Warshall on the dense device matrix.

Every "floyd-warshall" method (nx_gpusp.solvers.apsp: fw-dpx, fw-tiled-shared, fw-tiled,
fw-per-edge, fw-per-edge-shared, fw-per-vertex) is selectable with ``method=``.
Results are lazy two-level mappings over the host matrix (nx_gpusp.results.RowsMap):
``dist[u][v]`` reads one entry, and NetworkX's own ``reconstruct_path`` works on the
predecessor rows as on its dicts.
"""

import networkx as nx
import numpy as np

from ..config import get_config
from ..convert import refuse_hidden_edges
from ..dispatch import networkx_algorithm
from ..graph import CSRGraph
from ..methods import choose
from ..results import MatrixRowMap, PredecessorRowMap, RowsMap
from ..solvers import answers
from ..solvers.apsp.path_sums import floyd_warshall_sums, sums_exact
from ..value_types import int_along_rows, int_arcs
from .common import (as_csr, attribute_weight_can_run, check_reweighted_ints,
                     configured_executor)

__all__ = []


def dense_should_run(arguments):
    G = arguments.get("G")
    if G is None or isinstance(G, CSRGraph):
        return True
    threshold = get_config().should_run_min_nodes_dense
    if len(G) < threshold:
        return f"graph has {len(G)} nodes, fewer than should_run_min_nodes_dense={threshold}"
    return True


_policy = {"can_run": attribute_weight_can_run, "should_run": dense_should_run,
           "doc": "Blocked Floyd-Warshall on the dense matrix on the GPU; a negative cycle "
                  "raises NetworkXUnbounded.",
           "methods": ("floyd-warshall",), "default": "floyd_warshall_method"}


def _floyd_warshall(graph, *, keep_negative_diagonal, predecessors, method, options,
                    order=None):
    """(executor, distances, predecessors or None) on the executor's device; inexact
    float sums joined again as NetworkX's loop over ``order`` (vertex indices; None:
    vertex order) joins them (apsp.path_sums), along the predecessors, which are then
    computed whether asked for or not."""
    refuse_hidden_edges(graph)  # an edge weighing None: NetworkX's raise TypeError or NaN
    cfg = get_config()
    m = choose("floyd-warshall", method or cfg.floyd_warshall_method, graph, negative_ok=True)
    opts = m.check_options(options or {})
    if not graph.path_sums_exact():
        raise NotImplementedError(
            "gpusp: integer path sums could pass what int64 holds (2**62), or, mixed with "
            "float weights, what float64 holds exactly (2**53)")
    check_reweighted_ints(graph)
    if graph.has_negative_weights and not graph.float_sums_finite():
        # -inf + inf is NaN, which NetworkX's comparisons skip and min() keeps
        raise NotImplementedError("gpusp: float path sums could overflow to -inf")
    ex = configured_executor()
    resum = not sums_exact(graph)  # NetworkX's order of additions decides the last bit
    d, p = answers.floyd_warshall(ex, graph, m, options=opts,
                                  keep_negative_diagonal=keep_negative_diagonal,
                                  predecessors=predecessors or resum)
    if resum:
        floyd_warshall_sums(ex, graph, d, p, order)
    return ex, d, p


@networkx_algorithm(**_policy)
def floyd_warshall_numpy(G, nodelist=None, weight="weight", *, method=None, **options):
    graph = as_csr(G, weight)
    if nodelist is not None:
        if not len(nodelist) == graph.n == len(set(nodelist)):
            raise nx.NetworkXError(
                "nodelist must contain every node in G with no repeats."
                "If you wanted a subgraph of G use G.subgraph(nodelist)")
        perm = np.array([graph.index_of(v) if v in graph else -1 for v in nodelist],
                        dtype=np.int64)
        if (perm < 0).any():
            raise nx.NetworkXError("nodelist must contain every node in G with no repeats.")
    ex, d, _ = _floyd_warshall(graph, keep_negative_diagonal=False, predecessors=False,
                               method=method, options=options,
                               order=None if nodelist is None else perm)
    return answers.floyd_warshall_matrix(ex, d, None if nodelist is None else perm)


def _distance_rows(ex, graph, d, ints):
    """{node: row} over the host matrix (rows made when read, narrowed on the device);
    ``ints``: which entries NetworkX holds as ints (value_types.int_along_rows; None:
    the dtype says)."""
    return RowsMap(graph, answers.distance_matrix(ex, d), MatrixRowMap, extra=ints)


def _predecessor_rows(graph, p):
    """{node: {v: predecessor}} of the nodes with at least one predecessor entry
    (``p``: the host predecessor matrix)."""
    return RowsMap(graph, p, PredecessorRowMap, keep=(p >= 0).any(axis=1))


@networkx_algorithm(**_policy)
def floyd_warshall_predecessor_and_distance(G, weight="weight", *, method=None, **options):
    graph = as_csr(G, weight)
    ex, d, p = _floyd_warshall(graph, keep_negative_diagonal=True, predecessors=True,
                               method=method, options=options)
    p, _ = answers.predecessor_matrix(ex, p)
    return _predecessor_rows(graph, p), _distance_rows(ex, graph, d, int_along_rows(graph, p))


@networkx_algorithm(**_policy)
def floyd_warshall(G, weight="weight", *, method=None, **options):
    graph = as_csr(G, weight)
    # ints and floats mixed: NetworkX's number types follow the paths (the predecessors)
    mixed = isinstance(int_arcs(graph, floyd_warshall=True), np.ndarray)
    ex, d, p = _floyd_warshall(graph, keep_negative_diagonal=True, predecessors=mixed,
                               method=method, options=options)
    ints = int_along_rows(graph, answers.predecessor_matrix(ex, p)[0] if mixed else None)
    return _distance_rows(ex, graph, d, ints)
