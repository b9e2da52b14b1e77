"""The all-pairs rows behind the all-pairs functions of networkx.algorithms.shortest_paths
(weighted's generators and ``johnson``, generic's and unweighted's all-pairs calls), with
many sources in flight at once.

A method is an "all-pairs" method (nx_gpusp.solvers.apsp: batched-spmm, batched-frontier,
apsp-concurrent, dijkstra-per-thread), a Floyd-Warshall method (length functions only)
or an "sssp" method (one source at a time). ``method="auto"`` runs Floyd-Warshall for
the length functions on dense graphs whose matrix fits and whose path sums are exact
(integers), else batched-spmm (inexact float sums: NetworkX's own, added along the
path in its order). Results
stream in source chunks sized to free device memory. With ``dask_client`` set, the
all-pairs methods' sources are shared among its workers (nx_gpusp.distributed) and
``method="auto"`` always picks one of them.
"""

import numpy as np

from ..config import get_config
from ..distributed import active_client, source_rows
from ..methods import METHODS, choose, get_method
from ..results import HostSSSP
from ..solvers import answers
from ..solvers.apsp.path_sums import sums_exact
from ..solvers.apsp.progress import Progress
from .common import (as_csr, check_reweighted_ints, check_weights, configured_executor,
                     run_sssp)

__all__ = ["all_pairs_rows", "batched_rows"]

def _plan(ex, graph, family, method, *, lengths_only):
    """("floyd-warshall" | "all-pairs" | "sssp", Method or sssp method name)."""
    cfg = get_config()
    requested = method or cfg.all_pairs_method
    if lengths_only and ("floyd-warshall", requested) in METHODS:
        check_reweighted_ints(graph)
        return "floyd-warshall", METHODS[("floyd-warshall", requested)]
    if lengths_only and requested == "auto" and active_client() is None \
            and graph.reweighted_ints_exact() and sums_exact(graph) \
            and answers.fits_floyd_warshall(ex, graph):
        # exact sums only: rows of inexact ones, summed again along Floyd-Warshall's
        # trees (answers.floyd_warshall_rows), take its path where paths tie up to
        # rounding; the searches' own sums decide those ties as NetworkX's do
        return "floyd-warshall", choose("floyd-warshall", cfg.floyd_warshall_method, graph,
                                        negative_ok=True)
    if ("sssp", requested) in METHODS:
        return "sssp", requested
    return "all-pairs", choose("all-pairs", requested, graph,
                               negative_ok=family == "bellman-ford", sources=graph.n)


def batched_rows(ex, graph, m, options, cutoff, want_pred):
    rows = source_rows(ex, graph, m, m.check_options(options), cutoff=cutoff,
                       want_pred=want_pred)
    for sources, dist, pred in rows:
        for k, s in enumerate(sources.tolist()):
            yield s, HostSSSP(graph, dist[k], None if pred is None else pred[k],
                              np.array([s]))


def _single_source_rows(graph, family, method, options, cutoff, want_pred):
    for s in range(graph.n):
        yield s, run_sssp(graph, [s], family=family, method=method, options=options,
                          cutoff=cutoff, want_pred=want_pred)


def all_pairs_rows(G, weight, family, *, method, options, cutoff=None, want_pred,
                   lengths_only):
    """A generator of (label, HostSSSP) for every node in node order, streamed in source
    chunks. Everything that decides whether gpusp can run (weights, method, options) is
    checked now, before the generator is returned: under automatic dispatch a
    NotImplementedError must reach NetworkX while it can still fall back."""
    graph = as_csr(G, weight)
    check_weights(graph, family)
    ex = configured_executor()
    kind, m = _plan(ex, graph, family, method, lengths_only=lengths_only)
    if kind == "floyd-warshall":
        m.check_options(options)
        rows = answers.floyd_warshall_rows(ex, graph, m, m.check_options(options), cutoff)
    elif kind == "all-pairs":
        m.check_options(options)
        rows = batched_rows(ex, graph, m, options, cutoff, want_pred)
    else:
        get_method("sssp", m).check_options(options)
        rows = _single_source_rows(graph, family, m, options, cutoff, want_pred)
    return _labelled(graph, rows, f"all-pairs {family} ({kind})")


def _labelled(graph, rows, what):
    labels = list(graph.nodes)
    progress = Progress(what, graph.n)
    for s, host in rows:
        yield labels[s], host
        progress.advance(1)
