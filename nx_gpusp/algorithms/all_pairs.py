"""All-pairs functions of networkx.algorithms.shortest_paths.weighted (generators, as in
NetworkX) and ``johnson``, with many sources in flight at once.

A method is an "all-pairs" method (nx_gpusp.solvers.apsp: batched-spmm, batched-frontier,
apsp-concurrent, dijkstra-per-thread), a Floyd-Warshall method (length functions only)
or an "sssp" method (one source at a time). ``method="auto"`` runs Floyd-Warshall for
the length functions on dense graphs whose matrix fits, else batched-spmm. Results
stream in source chunks sized to free device memory.
"""

import numpy as np

from ..config import get_config
from ..dispatch import networkx_algorithm
from ..executor import get_executor
from ..methods import METHODS, choose, load_all
from ..results import HostSSSP
from ..solvers.apsp.johnson import reweighted
from ..solvers.apsp.progress import Progress
from ..solvers.sssp import cutoff_value, distance_inf
from .common import as_csr, check_weights, run_sssp, sssp_should_run, weight_can_run

__all__ = ["prefer_floyd_warshall"]

_policy = {"can_run": weight_can_run, "should_run": sssp_should_run}

# Floyd-Warshall's n^3 dense min-plus steps beat ~n*m scattered relaxations from about
# this density on (and its matrix must fit in half the free memory).
DENSE_FRACTION = 1 / 64
HOST_CHUNK_BYTES = 64 << 20  # distance rows copied to the host at a time


def prefer_floyd_warshall(ex, graph):
    n = graph.n
    return n > 0 and graph.m >= DENSE_FRACTION * n * n and 16 * n * n <= ex.free_bytes()


def _plan(ex, graph, family, method, *, lengths_only):
    """("floyd-warshall" | "all-pairs" | "sssp", Method or sssp method name)."""
    load_all()
    cfg = get_config()
    requested = method or cfg.all_pairs_method
    if lengths_only and ("floyd-warshall", requested) in METHODS:
        return "floyd-warshall", METHODS[("floyd-warshall", requested)]
    if lengths_only and requested == "auto" and prefer_floyd_warshall(ex, graph):
        return "floyd-warshall", choose("floyd-warshall", cfg.floyd_warshall_method, graph,
                                        negative_ok=True)
    if ("sssp", requested) in METHODS:
        return "sssp", requested
    return "all-pairs", choose("all-pairs", requested, graph,
                               negative_ok=family == "bellman-ford")


def _host(graph, dist, pred, source, cutoff):
    if cutoff is not None:  # as NetworkX: the source stays at 0 whatever the cutoff
        far = dist > cutoff_value(cutoff, dist.dtype)
        far[source] = False
        dist = np.where(far, distance_inf(dist.dtype), dist)
    return HostSSSP(graph, dist, pred, np.array([source]))


def _floyd_warshall_rows(ex, graph, m, options, cutoff):
    d, _ = m.load()(ex, graph, keep_negative_diagonal=False, predecessors=False,
                    **m.check_options(options))
    rows = max(1, HOST_CHUNK_BYTES // max(1, graph.n * d.dtype.itemsize))
    for start in range(0, graph.n, rows):
        block = ex.to_host(d[start:start + rows])
        for k, row in enumerate(block):
            yield start + k, _host(graph, row, None, start + k, cutoff)


def _batched_rows(ex, graph, m, options, cutoff, want_pred):
    batches = m.load()(ex, graph, np.arange(graph.n), cutoff=cutoff, want_pred=want_pred,
                       **m.check_options(options))
    for batch in batches:
        dist = ex.to_host(batch.dist)
        pred = None if batch.pred is None else ex.to_host(batch.pred)
        for k, s in enumerate(batch.sources.tolist()):
            yield s, _host(graph, dist[k], None if pred is None else pred[k], s, cutoff)


def _single_source_rows(graph, family, method, options, cutoff, want_pred):
    for s in range(graph.n):
        yield s, run_sssp(graph, [s], family=family, method=method, options=options,
                          cutoff=cutoff, want_pred=want_pred)


def all_pairs_rows(G, weight, family, *, method, options, cutoff=None, want_pred, lengths_only):
    """(label, HostSSSP) for every node in node order, streamed in source chunks."""
    graph = as_csr(G, weight)
    check_weights(graph, family)
    ex = get_executor()
    kind, m = _plan(ex, graph, family, method, lengths_only=lengths_only)
    if kind == "floyd-warshall":
        rows = _floyd_warshall_rows(ex, graph, m, options, cutoff)
    elif kind == "all-pairs":
        rows = _batched_rows(ex, graph, m, options, cutoff, want_pred)
    else:
        rows = _single_source_rows(graph, family, m, options, cutoff, want_pred)
    labels = list(graph.nodes)
    progress = Progress(f"all-pairs {family} ({kind})", graph.n)
    for s, host in rows:
        yield labels[s], host
        progress.advance(1)


@networkx_algorithm(**_policy)
def all_pairs_dijkstra(G, cutoff=None, weight="weight", *, method=None, **options):
    for v, host in all_pairs_rows(G, weight, "dijkstra", method=method, options=options,
                              cutoff=cutoff, want_pred=True, lengths_only=False):
        yield v, (host.lengths(), host.paths())


@networkx_algorithm(**_policy)
def all_pairs_dijkstra_path_length(G, cutoff=None, weight="weight", *, method=None,
                                   **options):
    for v, host in all_pairs_rows(G, weight, "dijkstra", method=method, options=options,
                              cutoff=cutoff, want_pred=False, lengths_only=True):
        yield v, host.lengths()


@networkx_algorithm(**_policy)
def all_pairs_dijkstra_path(G, cutoff=None, weight="weight", *, method=None, **options):
    for v, host in all_pairs_rows(G, weight, "dijkstra", method=method, options=options,
                              cutoff=cutoff, want_pred=True, lengths_only=False):
        yield v, host.paths()


@networkx_algorithm(**_policy)
def all_pairs_bellman_ford_path_length(G, weight="weight", *, method=None, **options):
    for v, host in all_pairs_rows(G, weight, "bellman-ford", method=method, options=options,
                              want_pred=False, lengths_only=True):
        yield v, host.lengths()


@networkx_algorithm(**_policy)
def all_pairs_bellman_ford_path(G, weight="weight", *, method=None, **options):
    for v, host in all_pairs_rows(G, weight, "bellman-ford", method=method, options=options,
                              want_pred=True, lengths_only=False):
        yield v, host.paths()


@networkx_algorithm(**_policy)
def johnson(G, weight="weight", *, method=None, **options):
    graph = as_csr(G, weight)
    check_weights(graph, "bellman-ford")
    ex = get_executor()
    reweighted_graph = reweighted(ex, graph)  # NetworkXUnbounded on a negative cycle
    m = choose("all-pairs", method or get_config().all_pairs_method, reweighted_graph,
               negative_ok=False)
    labels = list(graph.nodes)
    progress = Progress("johnson", graph.n)
    out = {}
    for s, host in _batched_rows(ex, reweighted_graph, m, options, None, True):
        out[labels[s]] = host.paths()
        progress.advance(1)
    return out
