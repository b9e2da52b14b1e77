"""networkx.algorithms.shortest_paths.unweighted on the GPU: breadth-first search.

Single sources run a "bfs" method (``method="auto"``: direction-optimizing, which stays
top-down on graphs whose frontier never grows large); the all-pairs generators run the
"batched-bfs" all-pairs method (a bit per source) by default, or any other all-pairs
method, or a "bfs" method one source after another. Unreached nodes are left out, as
NetworkX does.

Cutoffs follow NetworkX exactly: the length and path functions expand level L while
``cutoff > L``, so they keep the levels up to ceil(cutoff) (the source always);
``predecessor`` stops after level L once ``cutoff and cutoff <= L``, so a false cutoff
(None, 0) means none and any other keeps at least level 1.

Order: NetworkX returns nodes in its queue's discovery order. gpusp returns them level
by level as NetworkX does (non-decreasing hop count), and within a level in the graph's
node order; NetworkX's order inside a level follows the adjacency order of the level
before, which a parallel search does not keep. ``predecessor``'s lists name the
predecessors in node order. Paths are shortest paths, not always the ones NetworkX picks
among equally short ones.
"""

import math
from itertools import islice

import networkx as nx

from ..config import get_config
from ..dispatch import networkx_algorithm
from ..methods import choose, get_method
from ..solvers import answers
from ..solvers.apsp.progress import Progress
from ..solvers.sssp.bfs import level_predecessors
from .all_pairs import all_pairs_rows
from .common import (all_pairs_should_run, as_csr, bfs_cpu_should_run, configured_executor,
                     label_index, node_index, sssp_should_run, weight_can_run)

__all__ = ["run_bfs", "bfs_depth", "generic_bfs_method", "shortest_path_unweighted",
           "shortest_path_length_unweighted"]

BFS_DOC = ("Breadth-first search on the GPU (direction-optimizing or top-down; all pairs "
           "by multi-source BFS, a bit per source); nodes in level order, by node order "
           "within a level.")
_policy = {"can_run": weight_can_run, "should_run": sssp_should_run,
           "cpu_should_run": bfs_cpu_should_run, "doc": BFS_DOC,
           "methods": ("bfs",), "default": "bfs_method"}
# all pairs: "batched-bfs" by default, a "bfs" method source after source, or any
# all-pairs method (Floyd-Warshall ones for the lengths) on unit weights
_all_pairs_policy = {"can_run": weight_can_run, "should_run": all_pairs_should_run,
                     "doc": BFS_DOC, "default": "batched-bfs"}


def bfs_depth(cutoff):
    """The deepest level NetworkX's unweighted functions keep for ``cutoff`` (None: all):
    they expand level L while ``cutoff > L``, i.e. keep L <= ceil(cutoff), at least 0."""
    if cutoff is None or cutoff == math.inf:
        return None
    if cutoff != cutoff or cutoff == -math.inf:  # NaN compares false: the source alone
        return 0
    return max(0, math.ceil(cutoff))  # TypeError for a non-number, as NetworkX's compare


def _predecessor_depth(cutoff):
    """predecessor's deepest level: NetworkX breaks after level L when ``cutoff and
    cutoff <= L``."""
    if not cutoff or cutoff != cutoff or cutoff == math.inf:
        return None
    if cutoff == -math.inf:
        return 1
    return max(1, math.ceil(cutoff))


def run_bfs(graph, sources, *, method=None, options=None, depth=None, want_pred=True,
            target=None):
    """One BFS from source indices (levels up to ``depth``; stops after the level that
    reaches the index ``target``). Returns HostSSSP with int64 distances."""
    m = choose("bfs", method or get_config().bfs_method, graph, negative_ok=False)
    opts = m.check_options(options or {})
    return answers.bfs(configured_executor(), graph, m, sources, options=opts, depth=depth,
                       want_pred=want_pred, target=target)


def _reversed_paths(host):
    """Paths of a search on the reverse graph, turned to end at its source (lazily)."""
    return host.paths(reverse=True)


def _source(graph, source, message):
    return node_index(graph, source, message.format(source))


# -- single source / single target ---------------------------------------------------
@networkx_algorithm(**_policy)
def single_source_shortest_path_length(G, source, cutoff=None, *, method=None, **options):
    graph = as_csr(G, None)
    s = _source(graph, source, "Source {} is not in G")
    return run_bfs(graph, [s], method=method, options=options, depth=bfs_depth(cutoff),
                   want_pred=False).lengths()


@networkx_algorithm(**_policy)
def single_source_shortest_path(G, source, cutoff=None, *, method=None, **options):
    graph = as_csr(G, None)
    s = _source(graph, source, "Source {} not in G")
    return run_bfs(graph, [s], method=method, options=options,
                   depth=bfs_depth(cutoff)).paths()


@networkx_algorithm(**_policy)
def single_target_shortest_path_length(G, target, cutoff=None, *, method=None, **options):
    graph = as_csr(G, None)
    t = _source(graph, target, "Target {} is not in G")
    return run_bfs(graph.reverse, [t], method=method, options=options,
                   depth=bfs_depth(cutoff), want_pred=False).lengths()


@networkx_algorithm(**_policy)
def single_target_shortest_path(G, target, cutoff=None, *, method=None, **options):
    graph = as_csr(G, None)
    t = _source(graph, target, "Target {} not in G")
    return _reversed_paths(run_bfs(graph.reverse, [t], method=method, options=options,
                                   depth=bfs_depth(cutoff)))


# -- all pairs -----------------------------------------------------------------------
def _all_pairs_rows(G, cutoff, method, options, *, want_pred):
    """A generator of (node, HostSSSP) for every node in node order, its arguments
    checked now (see all_pairs_rows). ``method``: an all-pairs method (default
    "batched-bfs"), or a "bfs" method run one source after another."""
    graph = as_csr(G, None)
    depth = bfs_depth(cutoff)
    name = "batched-bfs" if method in (None, "auto") else method
    if isinstance(name, str) and get_method("bfs", name) is not None:
        get_method("bfs", name).check_options(options)
        return _bfs_rows(graph, name, options, depth, want_pred)
    return all_pairs_rows(graph, None, "dijkstra", method=name, options=options,
                          cutoff=depth, want_pred=want_pred, lengths_only=not want_pred)


def _bfs_rows(graph, name, options, depth, want_pred):
    labels = list(graph.nodes)
    progress = Progress(f"all-pairs BFS ({name})", graph.n)
    for s in range(graph.n):
        yield labels[s], run_bfs(graph, [s], method=name, options=options, depth=depth,
                                 want_pred=want_pred)
        progress.advance(1)


@networkx_algorithm(**_all_pairs_policy, methods=("all-pairs", "bfs", "floyd-warshall", "sssp"))
def all_pairs_shortest_path_length(G, cutoff=None, *, method=None, **options):
    rows = _all_pairs_rows(G, cutoff, method, options, want_pred=False)
    return ((v, host.lengths()) for v, host in rows)


@networkx_algorithm(**_all_pairs_policy, methods=("all-pairs", "bfs", "sssp"))
def all_pairs_shortest_path(G, cutoff=None, *, method=None, **options):
    rows = _all_pairs_rows(G, cutoff, method, options, want_pred=True)
    return ((v, host.paths()) for v, host in rows)


# -- one pair ------------------------------------------------------------------------
def _pair(graph, source, target):
    s = _source(graph, source, "Source {} is not in G")
    t = _source(graph, target, "Target {} is not in G")
    return s, t


@networkx_algorithm(**_policy)
def bidirectional_shortest_path(G, source, target, *, method=None, **options):
    """A shortest path by one BFS from ``source`` that stops after the level reaching
    ``target`` (a search from both ends would save vertices, not levels)."""
    graph = as_csr(G, None)
    s, t = _pair(graph, source, target)
    if s == t:
        return [source]
    host = run_bfs(graph, [s], method=method, options=options, target=t)
    if not host.reached(t):
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    return host.path(t)


@networkx_algorithm(**_policy)
def predecessor(G, source, target=None, cutoff=None, return_seen=None, *, method=None,
                **options):
    graph = as_csr(G, None)
    s = _source(graph, source, "Source {} not in G")
    host = run_bfs(graph, [s], method=method, options=options,
                   depth=_predecessor_depth(cutoff), want_pred=False)
    if target is not None:
        t = label_index(graph, target)
        if not host.reached(t):
            return ([], -1) if return_seen else []
        _, _, tails = level_predecessors(graph, host.dist, t)
        preds = graph.labels(tails)
        return (preds, host.length(t)) if return_seen else preds
    order, counts, tails = level_predecessors(graph, host.dist)
    tail_labels = iter(graph.labels(tails))
    pred = {v: list(islice(tail_labels, c))
            for v, c in zip(graph.labels(order), counts.tolist())}
    return (pred, host.lengths()) if return_seen else pred


# -- shortest_path / shortest_path_length with weight=None ---------------------------
def generic_bfs_method(weight, method):
    """The bfs method of shortest_path(_length) called with ``weight=None`` (NetworkX then
    ignores its "dijkstra" / "bellman-ford": "auto"; a gpusp bfs method name: that
    method), or None when the call is not a BFS (a weight, or an sssp method name)."""
    if weight is not None or not isinstance(method, (str, type(None))):
        return None
    if method in (None, "dijkstra", "bellman-ford"):
        return "auto"
    return method if get_method("bfs", method) is not None else None


def shortest_path_unweighted(G, source, target, method):
    if source is None:
        if target is None:
            return all_pairs_shortest_path.__wrapped__(G, method=method)
        return single_target_shortest_path.__wrapped__(G, target, method=method)
    if target is None:
        return single_source_shortest_path.__wrapped__(G, source, method=method)
    return bidirectional_shortest_path.__wrapped__(G, source, target, method=method)


def shortest_path_length_unweighted(G, source, target, method):
    if source is None:
        if target is None:
            return all_pairs_shortest_path_length.__wrapped__(G, method=method)
        return single_target_shortest_path_length.__wrapped__(G, target, method=method)
    if target is None:
        return single_source_shortest_path_length.__wrapped__(G, source, method=method)
    graph = as_csr(G, None)
    s, t = _pair(graph, source, target)
    if s == t:
        return 0
    host = run_bfs(graph, [s], method=method, target=t, want_pred=False)
    if not host.reached(t):
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    return host.length(t)
