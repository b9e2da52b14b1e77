"""networkx.algorithms.traversal on the GPU: ``descendants_at_distance``, the reachability
search that it and ``descendants`` / ``ancestors`` (nx_gpusp.algorithms.dag) share, and
breadth-first traversal in NetworkX's order: ``bfs_edges``, ``bfs_tree``,
``bfs_predecessors``, ``bfs_successors``, ``bfs_layers`` and ``generic_bfs_edges``.

One BFS (a "bfs" method) from the source, on the reverse graph for ``ancestors`` of a
directed graph. The answer is a set of node labels, as NetworkX's.
``descendants_at_distance`` keeps the level ``i`` for which ``i == distance`` (so 1.0,
True or Decimal(1) pick level 1, and anything else, such as a negative number, 1.5,
NaN or a string, gives the empty set).

A "bfs" method finds the levels; one pass a level then puts the reached nodes in
NetworkX's queue order (nx_gpusp.solvers.sssp.bfs_order): a node's parent is the first
node of the level above, in that level's order, with an arc to it, and a level is
ordered by its parents' positions, then by the arcs' positions in their rows. So the
edges, layers and trees are NetworkX's, in its order. The generators are generators as
NetworkX's are: nothing runs, and no error is raised, before the first item is asked
for; then the whole search runs at once.

``reverse=True`` on a directed graph searches the in-arcs: NetworkX lists a node's
predecessors in the order their edges were added, gpusp's reverse CSR in node order,
so a digraph whose in-neighbour rows are in another order is left to NetworkX (found
once per graph, kept in its cache; a CSRGraph passed directly is searched in node
order). ``sort_neighbors`` (any function), and a ``neighbors`` of
``generic_bfs_edges`` other than G's own ``neighbors``, ``successors`` or
``predecessors``, are left to NetworkX.
"""

import numbers

import networkx as nx
import numpy as np

from ..config import get_config
from ..convert import EdgeDataGraph, predecessors_in_node_order
from ..dispatch import networkx_algorithm
from ..graph import distance_inf
from ..methods import choose
from ..solvers import answers
from .common import as_csr, bfs_cpu_should_run, configured_executor, label_index, sssp_should_run
from .unweighted import _policy, bfs_depth, run_bfs

__all__ = ["descendants_at_distance", "reachability_search", "reached_labels",
           "bfs_visit", "visit_search"]


def reachability_search(G, source, method, options, *, reverse, depth=None):
    """(graph, HostSSSP, source index) of a BFS from ``source`` (levels up to ``depth``);
    NetworkXError for a node not in G (NetworkX's "graph" or "digraph", as its
    neighbour lookup says), TypeError for an unhashable one."""
    graph = as_csr(G, None)
    s = label_index(graph, source)
    if s is None:
        kind = "digraph" if graph.directed else "graph"
        raise nx.NetworkXError(f"The node {source} is not in the {kind}.")
    search = graph.reverse if reverse and graph.directed else graph
    return graph, run_bfs(search, [s], method=method, options=options, depth=depth,
                          want_pred=False), s


def reached_labels(graph, host, but=None):
    """The set of labels the search reached (leaving out the index ``but``)."""
    reached = host.dist != distance_inf(host.dist.dtype)
    if but is not None:
        reached[but] = False
    return set(graph.labels(np.flatnonzero(reached)))


@networkx_algorithm(**_policy)
def descendants_at_distance(G, source, distance, *, method=None, **options):
    graph = as_csr(G, None)
    s = graph.index_of(source)  # None for an unhashable one too: NetworkX's `source in G`
    if s is None:
        raise nx.NetworkXError(f"The node {source} is not in the graph.")
    integral = isinstance(distance, numbers.Integral) and not isinstance(distance, bool)
    # an int needs no level beyond it (a negative one: none but the source's); any other
    # value is found among all the levels, as NetworkX's i == distance finds it
    depth = max(int(distance), 0) if integral else None
    dist = run_bfs(graph, [s], method=method, options=options, depth=depth,
                   want_pred=False).dist
    deepest = int(dist[dist != distance_inf(dist.dtype)].max())
    level = next((i for i in range(deepest + 1) if i == distance), None)
    if level is None:
        return set()
    return set(graph.labels(np.flatnonzero(dist == level)))


# -- breadth-first traversal in NetworkX's order ------------------------------

BFS_ORDER_DOC = (
    "Levels by a breadth-first search on the GPU, then NetworkX's queue order from "
    "them, one pass a level: the same edges, layers and trees as NetworkX, in its order. "
    "sort_neighbors, a generic_bfs_edges neighbors other than G.neighbors, "
    "G.successors or G.predecessors, and reverse=True on a digraph whose in-neighbours "
    "were added out of node order are left to NetworkX.")
SORT_NEIGHBORS = "sort_neighbors (a function NetworkX calls on each row) is left to NetworkX"
NEIGHBORS = ("a neighbors function other than G.neighbors, G.successors or "
             "G.predecessors is left to NetworkX")
UNORDERED_PREDECESSORS = (
    "reverse=True on a digraph whose predecessors were added out of node order: NetworkX "
    "visits them in the order added; left to NetworkX")


def _neighbors_direction(G, neighbors):
    """"forward" or "reverse" for generic_bfs_edges' ``neighbors`` (None, or G's own
    ``neighbors``/``successors``/``predecessors``; on a NetworkX G, G's), else None."""
    if neighbors is None:
        return "forward"
    owner, func = getattr(neighbors, "__self__", None), getattr(neighbors, "__func__", None)
    name = getattr(func, "__name__", None)
    if not isinstance(owner, nx.Graph) or getattr(type(owner), name, None) is not func:
        return None
    if isinstance(G, nx.Graph) and owner is not G:
        return None
    if name in ("neighbors", "successors"):
        return "forward"
    return "reverse" if name == "predecessors" else None


def _unordered_predecessors(G, reverse):
    """Whether a reverse search of G (a NetworkX digraph or its edge data) would meet
    predecessors out of node order."""
    return reverse and isinstance(G, (nx.Graph, EdgeDataGraph)) and G.is_directed() \
        and not predecessors_in_node_order(G)


def _can_run(arguments):
    if arguments.get("sort_neighbors") is not None:
        return SORT_NEIGHBORS
    G = arguments.get("G")
    reverse = bool(arguments.get("reverse"))
    if "neighbors" in arguments:
        direction = _neighbors_direction(G, arguments["neighbors"])
        if direction is None:
            return NEIGHBORS
        reverse = direction == "reverse"
    if _unordered_predecessors(G, reverse):
        return UNORDERED_PREDECESSORS
    return True


def _cpu_should_run(arguments):
    if arguments.get("depth_limit") is not None:
        return ("no CUDA GPU here, and with a depth_limit NetworkX can stop its search "
                "early, where gpusp's NumPy twins run it whole (slower)")
    return bfs_cpu_should_run(arguments)


_order_policy = {"can_run": _can_run, "should_run": sssp_should_run,
           "cpu_should_run": _cpu_should_run, "doc": BFS_ORDER_DOC, "methods": ("bfs",),
           "default": "bfs_method"}


def _decline(G, reverse=False, sort_neighbors=None):
    """The declines of a direct call (under dispatch, can_run says them first)."""
    if sort_neighbors is not None:
        raise NotImplementedError(f"gpusp: {SORT_NEIGHBORS}")
    if _unordered_predecessors(G, reverse):
        raise NotImplementedError(f"gpusp: {UNORDERED_PREDECESSORS}")


def visit_search(graph, first, *, method=None, options=None, depth=None):
    """(order, parent, sizes) of a search of ``graph`` from the vertex indices ``first``
    (in that order) in NetworkX's queue order (answers.bfs_visit_order)."""
    m = choose("bfs", method or get_config().bfs_method, graph, negative_ok=False)
    opts = m.check_options(options or {})
    return answers.bfs_visit_order(configured_executor(), graph, m, first, options=opts,
                                   depth=depth)


def bfs_visit(G, source, reverse, depth_limit, method, options):
    """(graph, order, parent, sizes) of NetworkX's breadth-first search from ``source``
    (``reverse``: along in-arcs) up to ``depth_limit`` (NetworkX's: None for every
    level); its errors: TypeError for an unhashable source, NetworkXError for a missing
    one (saying "graph" or "digraph" as G.neighbors or G.predecessors does)."""
    graph = as_csr(G, None)
    s = label_index(graph, source)
    if s is None:
        kind = "digraph" if graph.directed else "graph"
        raise nx.NetworkXError(f"The node {source} is not in the {kind}.")
    depth = bfs_depth(depth_limit)
    search = graph.reverse if reverse and graph.directed else graph
    order, parent, sizes = visit_search(search, [s], method=method, options=options,
                                        depth=depth)
    return graph, order, parent, sizes


def _edges(G, source, reverse, depth_limit, method, options):
    graph, order, parent, _ = bfs_visit(G, source, reverse, depth_limit, method, options)
    return zip(graph.labels(parent[1:]), graph.labels(order[1:]))


def _edge_generator(G, source, reverse, depth_limit, method, options):
    yield from _edges(G, source, reverse, depth_limit, method, options)


@networkx_algorithm(**_order_policy)
def bfs_edges(G, source, reverse=False, depth_limit=None, sort_neighbors=None, *,
              method=None, **options):
    _decline(G, reverse, sort_neighbors)
    return _edge_generator(G, source, reverse, depth_limit, method, options)


@networkx_algorithm(**_order_policy)
def bfs_tree(G, source, reverse=False, depth_limit=None, sort_neighbors=None, *,
             method=None, **options):
    _decline(G, reverse, sort_neighbors)
    T = nx.DiGraph()
    T.add_node(source)
    T.add_edges_from(_edge_generator(G, source, reverse, depth_limit, method, options))
    return T


@networkx_algorithm(**_order_policy)
def bfs_predecessors(G, source, depth_limit=None, sort_neighbors=None, *, method=None,
                     **options):
    _decline(G, False, sort_neighbors)

    def generate():
        for parent, child in _edges(G, source, False, depth_limit, method, options):
            yield child, parent

    return generate()


@networkx_algorithm(**_order_policy)
def bfs_successors(G, source, depth_limit=None, sort_neighbors=None, *, method=None,
                   **options):
    _decline(G, False, sort_neighbors)

    def generate():
        graph, order, parent, _ = bfs_visit(G, source, False, depth_limit, method, options)
        parents, children = parent[1:], graph.labels(order[1:])
        if not children:
            yield source, []
            return
        # a parent's children are consecutive (NetworkX's queue takes a parent's row at
        # once); NetworkX names the first group by the source as given
        starts = np.flatnonzero(np.diff(parents) != 0) + 1
        bounds = [0, *starts.tolist(), len(children)]
        names = [source] + graph.labels(parents[starts])
        for name, lo, hi in zip(names, bounds, bounds[1:]):
            yield name, children[lo:hi]

    return generate()


@networkx_algorithm(**_order_policy)
def bfs_layers(G, sources, *, method=None, **options):
    def generate(sources):
        graph = as_csr(G, None)
        if graph.index_of(sources) is not None:  # NetworkX's `sources in G`
            sources = [sources]
        current = list(set(sources))
        first = []
        for node in current:
            i = graph.index_of(node)
            if i is None:
                raise nx.NetworkXError(f"The node {node} is not in the graph.")
            first.append(i)
        if not current:
            return
        order, _, sizes = visit_search(graph, first, method=method, options=options)
        yield current
        labels = graph.labels(order[sizes[0]:])
        start = 0
        for size in sizes[1:]:
            yield labels[start:start + size]
            start += size

    return generate(sources)


@networkx_algorithm(**_order_policy)
def generic_bfs_edges(G, source, neighbors=None, depth_limit=None, *, method=None,
                      **options):
    direction = _neighbors_direction(G, neighbors)
    if direction is None:
        raise NotImplementedError(f"gpusp: {NEIGHBORS}")
    reverse = direction == "reverse"
    _decline(G, reverse)
    return _edge_generator(G, source, reverse, depth_limit, method, options)
