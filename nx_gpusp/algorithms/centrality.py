"""networkx.algorithms.centrality: closeness_centrality and harmonic_centrality, from
all-pairs statistics reduced on the device (distances never reach the host), the
betweenness family (betweenness and betweenness_subset) and load centrality
(NetworkX's load_centrality, dispatched as newman_betweenness_centrality).

Closeness and harmonic centrality use distances *to* a node (NetworkX's inward distance
on directed graphs): the searches run from every node of the transpose graph
(closeness), or from the nodes asked for on the transpose (harmonic; from its sources
where they are fewer, or as many with a weight function on a directed graph, which
NetworkX then calls forward), their per-source statistics turned into NetworkX's dict
part by part as they come back.

Betweenness: Brandes' dependencies of a batch of sources summed on the device
(nx_gpusp.solvers.apsp.brandes), then NetworkX's rescaling on the host, with its float
operations. NetworkX's choices kept: the sampled sources of ``k``
(``seed.sample(list(G), k)``, the same draw for the same seed), keys in ``list(G)``
order, edges in ``G.edges()`` order and orientation (an undirected edge sums the shares
of both its arcs).

Load: the same passes in mode LOAD (nx_gpusp.solvers.apsp.brandes), each source's load
summed on the device, NetworkX's 1 / ((n - 1)(n - 2)) on the host. NetworkX sorts each
source's reached nodes by (distance, node), so where two labels it cannot compare lie at
the same distance it raises TypeError: graphs whose labels may not all compare are left
to it.
"""

import math

import networkx as nx
import numpy as np

from ..config import get_config
from ..dispatch import networkx_algorithm
from ..graph import CSRGraph
from ..distributed import source_dependencies
from ..solvers.apsp.brandes import EDGE_SUBSET, LOAD, SUBSET, declined_weights
from ..value_types import arc_ids
from .common import (arc_count, as_csr, check_weights, configured_executor, label_index,
                     node_index, reversed_graph)
from .measures import (MEASURE, int_zeros, measure_can_run, measure_should_run,
                       statistics, statistics_parts)

__all__ = ["closeness_values", "rescale"]


def closeness_values(reached, totals, n, wf_improved):
    """NetworkX's closeness from each node's reached count (itself included) and sum of
    distances, with its float operations in its order: (r - 1) / total, times
    (r - 1) / (n - 1) when ``wf_improved``; 0.0 where the total is 0 or n == 1."""
    r1 = reached.astype(np.float64) - 1.0
    total = totals.astype(np.float64)
    out = np.zeros(len(reached), dtype=np.float64)
    if n > 1:
        ok = total > 0.0
        with np.errstate(over="ignore"):  # a subnormal total: inf, as Python's division
            np.divide(r1, total, out=out, where=ok)
        if wf_improved:
            np.multiply(out, r1 / (n - 1), out=out, where=ok)
    return out.tolist()


@networkx_algorithm(can_run=measure_can_run("distance"), should_run=measure_should_run("u"),
                    **MEASURE)
def closeness_centrality(G, u=None, distance=None, wf_improved=True, *, method=None,
                         **options):
    graph = as_csr(G, distance)
    if u is not None:
        message = f"Source {u} is not in G" if distance is None else \
            f"Node {u} not found in graph"
        sources = np.array([node_index(graph, u, message)], dtype=np.int64)
    else:
        sources = np.arange(graph.n, dtype=np.int64)
    if len(sources) == 0:
        return {}

    def values_of(part):
        return closeness_values(part.rows["reached"], part.rows["sum"], graph.n,
                                wf_improved)

    parts = statistics_parts(reversed_graph(G, graph, distance), sources, ("reached", "sum"),
                             method=method, options=options, what="closeness_centrality")
    if u is not None:
        (part,) = parts  # one source: one part
        return values_of(part)[0]
    return _by_parts(parts, graph.nodes, values_of)


@networkx_algorithm(can_run=measure_can_run("distance"), should_run=measure_should_run(),
                    **MEASURE)
def harmonic_centrality(G, nbunch=None, distance=None, sources=None, *, method=None,
                        **options):
    graph = as_csr(G, distance)
    # NetworkX's keys: a set of the nbunch labels, iterated in that set's order
    keys = list(set(graph.nodes if nbunch is None else
                    graph.labels(graph.nbunch_indices(nbunch))))
    targets = graph.indices_of_nodes(keys)
    everyone = sources is None
    origins = np.arange(graph.n, dtype=np.int64) if everyone else \
        np.unique(graph.nbunch_indices(sources))
    if not len(targets) or not len(origins):
        return dict.fromkeys(keys, 0)
    # NetworkX searches the transpose for fewer targets than sources, else forward: the
    # same distances either way, but for a weight function on a directed graph, which it
    # calls as f(v, u, d) on the transpose
    transposed = len(targets) < len(origins) or (
        len(targets) == len(origins) and not (callable(distance) and graph.directed))
    if transposed:  # from the targets on the transpose (the fused row statistics)
        parts = statistics_parts(reversed_graph(G, graph, distance), targets,
                                 ("inverse_sum",), method=method, options=options,
                                 columns=None if everyone else origins,
                                 what="harmonic_centrality")
        return _by_parts(parts, keys, lambda part: int_zeros(part.rows["inverse_sum"]))
    # fewer sources: search from them, sum per target (sums of 1/d > 0: 0 where none)
    stats = statistics(graph, origins, ("column_inverse_sum",), method=method,
                       options=options, what="harmonic_centrality")
    return dict(zip(keys, int_zeros(stats.columns["column_inverse_sum"][targets])))


def _by_parts(parts, labels, values_of):
    """NetworkX's dict {label: value}: ``labels`` in the order of the Partials'
    sources, each part turned into its values (``values_of``, a list) as it comes back
    (Dask: while the workers compute the next)."""
    out, done = {}, 0
    for part in parts:
        values = values_of(part)
        out.update(zip(labels[done:done + len(values)], values))
        done += len(values)
    return out


# -- betweenness ----------------------------------------------------------------------

DOC = ("Brandes' algorithm on the GPU, many sources a batch: BFS levels (unweighted) or "
       "distances of an all-pairs method sorted per source (weighted) give the path "
       "counts, the dependencies are accumulated backward and summed over the sources on "
       "the device; NetworkX's rescaling follows on the host. Weighted calls with a "
       "weight <= 0, or float weights small enough that a sum could absorb one, and edge "
       "betweenness of multigraphs are left to NetworkX.")
MULTIGRAPH_EDGES = ("edge betweenness of a multigraph splits each pair's value among its "
                    "parallel edges of least weight, which gpusp's graph does not keep; "
                    "left to NetworkX")


def rescale(values, n, *, normalized, directed, endpoints=True, sampled=None):
    """NetworkX's ``_rescale`` of an array of values (nodes or edges), with its float
    operations: ``sampled`` (host bool mask over ``values``, or None) marks the entries
    of sampled sources; ``k`` is its count when sampling. Returns a new array."""
    k = None if sampled is None else sampled[1]
    N = n if endpoints else n - 1
    if N < 2:
        return values
    K_source = N if k is None else k
    if k is None or endpoints:
        if normalized:
            scale = 1 / (K_source * (N - 1))
        else:
            correction = 1 if directed else 2
            scale = N / (K_source * correction)
        return values * scale if scale != 1 else values
    if normalized:
        scale_source = 1 / ((K_source - 1) * (N - 1)) if K_source > 1 else math.nan
        scale_nonsource = 1 / (K_source * (N - 1))
    else:
        correction = 1 if directed else 2
        scale_source = N / ((K_source - 1) * correction) if K_source > 1 else math.nan
        scale_nonsource = N / (K_source * correction)
    return np.where(sampled[0], values * scale_source, values * scale_nonsource)


def multigraph_edges_can_run(arguments):
    G = arguments.get("G")
    if G is not None and G.is_multigraph():
        return MULTIGRAPH_EDGES
    return True


def betweenness_should_run(arguments):
    """Automatic dispatch: NetworkX keeps calls whose searches (one per source) visit
    fewer arcs in all than ``should_run_min_all_pairs_work``."""
    G = arguments.get("G")
    if G is None or isinstance(G, CSRGraph):
        return True
    sources = arguments.get("sources")
    k = arguments.get("k")
    try:
        count = len(sources) if sources is not None else (len(G) if k is None else int(k))
    except TypeError:
        count = len(G)
    arcs = arc_count(G)
    threshold = get_config().should_run_min_all_pairs_work
    if count * arcs < threshold:
        return (f"{count} searches over {arcs} arcs visit fewer arcs than "
                f"should_run_min_all_pairs_work={threshold}")
    return True


def _graph(G, weight, *, edges=False):
    graph = as_csr(G, weight)
    if edges and graph.multigraph:
        raise NotImplementedError(f"gpusp: {MULTIGRAPH_EDGES}")
    if weight is not None:
        if getattr(graph, "hidden_edge", None) is not None:
            raise NotImplementedError(
                f"gpusp: edge {graph.hidden_edge} weighs None (NetworkX adds it to a "
                "distance and raises TypeError); left to NetworkX")
        reason = declined_weights(graph)
        if reason is not None:
            raise NotImplementedError(f"gpusp: {reason}; left to NetworkX")
        check_weights(graph, "dijkstra")
    return graph


def _sample(graph, k, seed):
    """NetworkX's sources for ``k``: ``seed.sample(list(G), k)`` with the seed turned
    into a Random as its ``py_random_state`` does (vertex indices, in sample order)."""
    rng = nx.utils.create_py_random_state(seed)
    return graph.indices_of_nodes(rng.sample(list(graph.nodes), k))


def _run(graph, sources, **kw):
    """Brandes' sums of ``sources``: on the Dask workers where a client is set."""
    return source_dependencies(configured_executor(), graph, sources,
                               method=get_config().all_pairs_method, **kw)


def _edge_values(graph, arc_sums):
    """(edge keys in G.edges() order, their values): a directed graph's arcs in CSR
    (adjacency) order; an undirected graph's arcs (u, v) with v not before u, each with
    the shares of both its arcs."""
    tails = np.repeat(np.arange(graph.n, dtype=np.int64), np.diff(graph.indptr))
    heads = graph.indices.astype(np.int64)
    if graph.directed:
        keep = np.arange(graph.m)
        values = arc_sums
    else:
        keep = np.flatnonzero(heads >= tails)
        values = arc_sums[keep]
        back = arc_ids(np, graph.indptr, graph.indices, heads[keep], tails[keep])
        values = np.where(heads[keep] != tails[keep], values + arc_sums[back], values)
    keys = list(zip(graph.labels(tails[keep]), graph.labels(heads[keep])))
    return keys, values


def _sources_of(graph, sources):
    """NetworkX's loop over ``sources``: every entry a node (KeyError otherwise, as its
    searches raise at G[s]), repeats counted again."""
    out = []
    for s in sources:
        idx = label_index(graph, s)
        if idx is None:
            raise KeyError(s)
        out.append(idx)
    return np.array(out, dtype=np.int64)


def _targets_of(graph, targets):
    mask = np.zeros(graph.n, dtype=bool)
    for t in set(targets):
        idx = graph.index_of(t)
        if idx is not None:
            mask[idx] = True
    return mask


@networkx_algorithm(can_run=None, should_run=betweenness_should_run, doc=DOC)
def betweenness_centrality(G, k=None, normalized=True, weight=None, endpoints=False,
                           seed=None):
    graph = _graph(G, weight)
    n = graph.n
    if k == n:
        k = None
    sources = np.arange(n, dtype=np.int64) if k is None else _sample(graph, k, seed)
    dep = _run(graph, sources)
    values = dep.vertex
    if endpoints:
        values = values + dep.reached + np.bincount(
            sources, weights=dep.source_reached - 1, minlength=n)
    sampled = None
    if k is not None:
        mask = np.zeros(n, dtype=bool)
        mask[sources] = True
        sampled = (mask, len(sources))
    values = rescale(values, n, normalized=normalized, directed=graph.directed,
                     endpoints=endpoints, sampled=sampled)
    return dict(zip(graph.nodes, values.tolist()))


@networkx_algorithm(can_run=multigraph_edges_can_run, should_run=betweenness_should_run, doc=DOC)
def edge_betweenness_centrality(G, k=None, normalized=True, weight=None, seed=None):
    graph = _graph(G, weight, edges=True)
    n = graph.n
    sources = np.arange(n, dtype=np.int64) if k is None else _sample(graph, k, seed)
    dep = _run(graph, sources, arcs=True)
    keys, values = _edge_values(graph, dep.arcs)
    sampled = None if k is None else (None, len(sources))
    values = rescale(values, n, normalized=normalized, directed=graph.directed,
                     sampled=sampled)
    return dict(zip(keys, values.tolist()))


@networkx_algorithm(can_run=None, should_run=betweenness_should_run, doc=DOC)
def betweenness_centrality_subset(G, sources, targets, normalized=False, weight=None):
    graph = _graph(G, weight)
    origins = _sources_of(graph, sources)
    dep = _run(graph, origins, mode=SUBSET, targets=_targets_of(graph, targets))
    values = rescale(dep.vertex, graph.n, normalized=normalized, directed=graph.directed,
                     endpoints=False)
    return dict(zip(graph.nodes, values.tolist()))


@networkx_algorithm(can_run=multigraph_edges_can_run, should_run=betweenness_should_run, doc=DOC)
def edge_betweenness_centrality_subset(G, sources, targets, normalized=False, weight=None):
    graph = _graph(G, weight, edges=True)
    origins = _sources_of(graph, sources)
    dep = _run(graph, origins, mode=EDGE_SUBSET, targets=_targets_of(graph, targets),
               arcs=True)
    keys, values = _edge_values(graph, dep.arcs)
    values = rescale(values, graph.n, normalized=normalized, directed=graph.directed)
    return dict(zip(keys, values.tolist()))


# -- load -----------------------------------------------------------------------------

LOAD_DOC = ("Newman's load on Brandes' machinery, many sources a batch: BFS levels "
            "(unweighted) or distances of an all-pairs method sorted per source "
            "(weighted); each reached node hands 1 plus the load it received in equal "
            "parts to its shortest-path predecessors, except a node with a shortest arc "
            "from the source, which hands on nothing (as NetworkX's loop, which stops at "
            "the source); the loads are summed over the sources on the device. Weighted "
            "calls with a weight <= 0, or float weights small enough that a sum could "
            "absorb one, are left to NetworkX; so is edge_load_centrality.")
_NUMBERS = (int, float, np.integer, np.floating)  # bool is an int


def _label_order(x):
    """The class of labels ``x`` compares with: "number", "str", "bytes", a tuple of
    its items' classes, or None (unknown)."""
    if isinstance(x, str):
        return "str"
    if isinstance(x, bytes):
        return "bytes"
    if isinstance(x, _NUMBERS):
        return "number"
    if type(x) is tuple:
        return tuple(_label_order(item) for item in x)
    return None


def _merged_order(a, b):
    """The class of labels of class ``a`` or ``b``, or None where two may not compare
    (tuples compare item by item: each position needs one class)."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        items = []
        for i in range(max(len(a), len(b))):
            x = _merged_order(a[i], b[i]) if i < len(a) and i < len(b) else \
                (a[i] if i < len(a) else b[i])
            if x is None:
                return None
            items.append(x)
        return tuple(items)
    return a if a == b and a is not None and not isinstance(a, tuple) else None


def labels_compare(nodes):
    """Whether any two of ``nodes`` compare with ``<`` (numbers, strings, bytes, tuples
    of those position by position), as NetworkX's sort of (distance, node) pairs needs."""
    types = set(map(type, nodes))
    if types <= {int, bool, float} or types in ({str}, {bytes}):
        return True
    order = "empty"
    for x in nodes:
        c = _label_order(x)
        if c is None:
            return False
        if not isinstance(c, tuple):
            order = c if order in ("empty", c) else None
        else:
            order = c if order == "empty" else (
                _merged_order(order, c) if isinstance(order, tuple) else None)
        if order is None:
            return False
    return True


LABELS_DECLINED = ("node labels that may not compare (NetworkX sorts nodes of equal "
                   "distance by label, a TypeError where two do not)")


def load_can_run(arguments):
    """Load left to NetworkX: a ``cutoff`` that is no real number, node labels that may
    not compare."""
    cutoff = arguments.get("cutoff")
    if cutoff is not None and not isinstance(cutoff, _NUMBERS):
        return f"cutoff {cutoff!r} is no real number"
    G = arguments.get("G")
    if G is not None and not labels_compare(G.nodes if isinstance(G, CSRGraph) else G):
        return LABELS_DECLINED
    return True


def _load_cutoff(cutoff, weight):
    """NetworkX's ``cutoff`` as a distance bound (None: none). Unweighted, its BFS
    (``predecessor``) stops after the first level L >= 1 with ``cutoff <= L`` where
    ``cutoff`` is truthy; weighted, its Dijkstra keeps distances <= cutoff."""
    if cutoff is None:
        return None
    if not isinstance(cutoff, _NUMBERS):
        raise NotImplementedError(f"gpusp: cutoff {cutoff!r} is no real number; left to "
                                  "NetworkX")
    cutoff = int(cutoff) if isinstance(cutoff, (int, np.integer)) else float(cutoff)
    if weight is not None:
        return cutoff
    if not cutoff or math.isnan(cutoff) or cutoff == math.inf:
        return None
    return 1 if cutoff <= 1 else math.ceil(cutoff)


@networkx_algorithm(name="newman_betweenness_centrality", can_run=load_can_run,
                    should_run=betweenness_should_run, doc=LOAD_DOC)
def newman_betweenness_centrality(G, v=None, cutoff=None, normalized=True, weight=None):
    graph = _graph(G, weight)
    n = graph.n
    if v is not None and n == 0:
        return 0.0
    idx = None if v is None else label_index(graph, v)  # unhashable: TypeError
    bound = _load_cutoff(cutoff, weight)
    if not labels_compare(graph.nodes):
        raise NotImplementedError(f"gpusp: {LABELS_DECLINED}; left to NetworkX")
    dep = _run(graph, np.arange(n, dtype=np.int64), mode=LOAD, cutoff=bound)
    values = dep.vertex
    if normalized and n > 2:
        values = values * (1.0 / ((n - 1) * (n - 2)))
    if v is not None:
        return 0.0 if idx is None else float(values[idx])
    return dict(zip(graph.nodes, values.tolist()))
