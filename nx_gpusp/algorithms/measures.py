"""What the all-pairs measure functions (centrality, distance_measures, efficiency,
wiener, generic's average_shortest_path_length) share: their can_run and should_run
policies, and the call that returns per-source statistics reduced on the device
(nx_gpusp.solvers.apsp.measures), on the workers of ``dask_client`` when one is set
(nx_gpusp.distributed), whole or part by part."""

import numpy as np

from ..config import get_config
from ..distributed import statistics_parts as parts_of_statistics
from ..graph import CSRGraph
from ..solvers.apsp.measures import combine, measure_method
from .common import arc_count, check_weights, configured_executor

__all__ = ["measure_can_run", "measure_should_run", "statistics", "statistics_parts",
           "int_zeros", "refuse_precomputed", "MEASURE"]

# the documentation part of the measures' decorators
MEASURE = {"doc": "Batched SSSP from every source on the GPU (bit-parallel BFS or min-plus "
                  "SpMM), each batch reduced on the device to per-source sums, counts and "
                  "maxima; precomputed sp/e and attr are left to NetworkX. 'auto' runs "
                  "batched-bfs on unweighted graphs, else batched-spmm.",
           "methods": ("all-pairs",), "default": "all_pairs_method"}

FLOYD_WARSHALL_WEIGHT_FUNCTION = (
    "NetworkX's Floyd-Warshall methods read `weight` as an edge attribute name (a "
    "function gives every edge weight 1.0 there); left to NetworkX")
PRECOMPUTED = {
    "sp": "sp (precomputed shortest-path lengths) is read by NetworkX",
    "e": "e (precomputed eccentricities) is read by NetworkX",
    "attr": "attr writes node attributes on the NetworkX graph",
}


def measure_can_run(weight="weight", precomputed=()):
    """can_run: refuse the ``precomputed`` arguments (names in PRECOMPUTED) when given,
    and a weight function (parameter ``weight``) through a Floyd-Warshall ``method``
    (NetworkX reads it as an attribute name there), so NetworkX runs those calls."""

    def can_run(arguments):
        if callable(arguments.get(weight)) and \
                arguments.get("method") in ("floyd-warshall", "floyd-warshall-numpy"):
            return FLOYD_WARSHALL_WEIGHT_FUNCTION
        for name in precomputed:
            if arguments.get(name) is not None:
                return PRECOMPUTED[name]
        return True

    return can_run


def refuse_precomputed(**given):
    """The same refusal for a direct call of the backend function."""
    for name, value in given.items():
        if value is not None:
            raise NotImplementedError(f"gpusp: {PRECOMPUTED[name]}")


def measure_should_run(node=None):
    """should_run: leave graphs to NetworkX where its work, one search per source
    (one source when argument ``node`` names a node of G), visits fewer arcs in all
    than ``should_run_min_all_pairs_work`` (the all-pairs functions' rule)."""

    def should_run(arguments):
        G = arguments.get("G")
        if G is None or isinstance(G, CSRGraph):
            return True
        arcs = arc_count(G)
        single = node is not None and arguments.get(node) is not None
        try:
            single = single and arguments[node] in G
        except TypeError:
            single = False
        sources = 1 if single else len(G)
        threshold = get_config().should_run_min_all_pairs_work
        if sources * arcs < threshold:
            return (f"{sources} searches over {arcs} arcs visit fewer arcs than "
                    f"should_run_min_all_pairs_work={threshold}")
        return True

    return should_run


def statistics(graph, sources, measure, *, what, family="dijkstra", method=None,
               options=None, columns=None):
    """The statistics ``measure`` (names in nx_gpusp.solvers.apsp.measures) of the rows
    of ``sources`` (vertex indices), as one Partial of host arrays. ``family``: the
    weights accepted ("dijkstra": non-negative, "bellman-ford": negative too);
    ``method``: an all-pairs method name (None: nx.config.backends.gpusp.all_pairs_method)."""
    return combine(statistics_parts(graph, sources, measure, what=what, family=family,
                                    method=method, options=options, columns=columns))


def statistics_parts(graph, sources, measure, *, what, family="dijkstra", method=None,
                     options=None, columns=None):
    """:func:`statistics` one Partial at a time, in the order of ``sources``, as each is
    ready (nx_gpusp.distributed.statistics_parts): a caller that turns each into its
    answer works while Dask's workers compute the next. The weights and the method are
    checked here, before the first part is asked for."""
    check_weights(graph, family)
    m = measure_method(graph, method or get_config().all_pairs_method,
                       negative_ok=family == "bellman-ford", sources=len(sources))
    opts = {"method": m.name, "method_options": m.check_options(options or {}),
            "columns": columns}
    return parts_of_statistics(configured_executor(), graph, sources, measure, opts,
                               what=what)


def int_zeros(values):
    """``values`` (a NumPy array) as a list with each 0 as NetworkX's int 0: its
    per-node sums and maxima start from int 0, which stays where nothing was added
    (harmonic centrality) or no larger distance found (eccentricity)."""
    out = values.tolist()
    for i in np.flatnonzero(values == 0).tolist():
        out[i] = 0
    return out
