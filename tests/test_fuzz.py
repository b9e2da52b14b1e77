"""Differential fuzzing against NetworkX: every function gpusp dispatches (enumerated from
nx_gpusp.dispatch.IMPLEMENTATIONS, so a new function is fuzzed without editing this
file) x every method it takes (the methods of its problems in nx_gpusp.methods'
registry, see _problems and _methods; NetworkX's own names where the function has
NetworkX's ``method`` parameter; hop-count-only methods on unweighted calls) on small
random graphs of every kind (directed or not, multigraphs, self-loops, disconnected parts,
graph views;
zero, negative, integer, float, mixed, missing, None-valued (hidden) and huge weights;
node labels that are ints, shifted ints, strings, tuples or a mix, and sources given as
1.0 or True),
compared with NetworkX's own answer: the same values (floats to 1e-9 relative) of the
same number types, the same keys, valid paths of the right length, the same exception
type.

The default run is short, for CI: a few derandomised examples of each method of each
function, then a fixed number with any method. The long run, with many random examples
per function (each drawing its method):

    python -m pytest -m slow tests/test_fuzz.py

(the ``slow`` variant is skipped unless ``-m`` selects it; NX_GPUSP_FUZZ_EXAMPLES sets
its examples per function and device). Both run on every device of the ``device``
fixture.

Where gpusp differs from NetworkX on purpose, ``_allowed`` says so and why.
"""

import inspect
import itertools
import numbers
from collections import Counter
from collections.abc import Mapping
import math
import os
import random
from dataclasses import dataclass, replace
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphs import networkx_function
import nx_gpusp.algorithms  # noqa: F401  (registers every dispatched function)
import nx_gpusp.solvers  # noqa: F401  (registers every method)
from nx_gpusp.dispatch import IMPLEMENTATIONS, can_run
from nx_gpusp.methods import METHODS, get_method, methods_for

FUNCTIONS = sorted(IMPLEMENTATIONS)
SHORT_EXAMPLES = 25
PER_METHOD_EXAMPLES = 4  # the short run: each method of each function
LONG_EXAMPLES = int(os.environ.get("NX_GPUSP_FUZZ_EXAMPLES", "2000"))

# -- graphs --------------------------------------------------------------------------------
FLOATS = [0.0, 0.1, 0.2, 0.3, 0.5, 0.65, 1.25, 2.5, 3.7, 11.8, 1e-10, 1e7]
HUGE = [2**31 - 1, 2**31, 2**53, 2**53 + 1, 2**61, 2**62, 2**63, 2**64, 1e300, 1e308]


def _weights(kind, negative):
    ints = st.integers(-6 if negative else 0, 20)
    floats = st.one_of(st.sampled_from(FLOATS),
                       st.floats(0, 20, allow_nan=False, allow_infinity=False))
    if negative:
        floats = st.one_of(floats, floats.map(lambda x: -x))
    if kind == "int":
        return ints
    if kind == "float":
        return floats
    if kind == "mixed":
        return st.one_of(ints, floats, st.none())  # None: no weight attribute
    if kind == "hidden":  # an attribute valued None: NetworkX's Dijkstra skips the edge
        return st.one_of(ints, ints, floats, st.just(HIDDEN))
    if kind == "huge":
        huge = st.sampled_from(HUGE)
        if negative:
            huge = st.one_of(huge, huge.map(lambda x: -x))
        return st.one_of(ints, huge)
    return st.none()


HIDDEN = "hidden"  # drawn weight: the attribute set to None


LABELS = {
    "int": lambda i: i,
    "shifted": lambda i: i + 10,
    "str": lambda i: f"n{i}",
    "tuple": lambda i: (i % 2, str(i)),
    "mixed": lambda i: i if i % 2 else f"v{i}",
}


@st.composite
def graphs(draw, max_nodes=8):
    directed = draw(st.booleans())
    multigraph = draw(st.booleans())
    n = draw(st.integers(0, max_nodes))
    labels = draw(st.sampled_from(sorted(LABELS)))
    kind = draw(st.sampled_from(["int", "int", "float", "float", "mixed", "none", "huge",
                                 "hidden"]))
    negative = draw(st.booleans())
    cls = {(False, False): nx.Graph, (True, False): nx.DiGraph,
           (False, True): nx.MultiGraph, (True, True): nx.MultiDiGraph}[(directed, multigraph)]
    G = cls()
    label = LABELS[labels]
    G.add_nodes_from(label(i) for i in range(n))
    if n:
        node = st.integers(0, n - 1)
        arcs = draw(st.lists(st.tuples(node, node, _weights(kind, negative)), max_size=3 * n))
        for u, v, w in arcs:
            if w is HIDDEN:  # on a multigraph, beside a parallel edge NetworkX's min()
                w = None if multigraph else w  # fails: kept to simple graphs
            G.add_edge(label(u), label(v),
                       **({} if w is None else {"weight": None if w is HIDDEN else w}))
        if kind == "float" and negative and n >= 2 and draw(st.booleans()):
            # zero-length cycles, which rounding may make negative (NetworkX: unbounded)
            for u, v, w in draw(st.lists(st.tuples(node, node, st.sampled_from(FLOATS)),
                                         max_size=3)):
                G.add_edge(label(u), label(v), weight=w)
                G.add_edge(label(v), label(u), weight=-w)
    return _view(draw, G)


def _tie_free_weight(rng, kind, negative):
    """A weight (None: the attribute missing) of graphs whose shortest paths do not tie up
    to rounding, so that NetworkX's path and gpusp's are the same one and their sums can
    be compared exactly (test_fuzz_exact_sums): multiples of 1000 (a path of k missing
    weights, 1 or 1.0, sums to k modulo 1000, never what an int-only path sums to) and
    floats with random digits that are no whole numbers (paths through different ones
    do not tie)."""
    kind = rng.choice(["int", "float", None]) if kind == "mixed" else kind
    sign = -1 if negative and rng.random() < 0.2 else 1
    if kind == "int":
        return sign * 1000 * rng.randint(0, 20)
    if kind == "float":
        return sign * rng.uniform(0.01, 20)
    return None


@st.composite
def tie_free_graphs(draw, max_nodes=10):
    """Random graphs (directed or not, multigraphs, self-loops, negative weights, views)
    of tie-free weights (_tie_free_weight), their arcs drawn by a seeded generator:
    denser and larger than Hypothesis's shrinking-friendly lists, where sums of several
    float arcs in another order first differ."""
    cls = draw(st.sampled_from([nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph]))
    label = LABELS[draw(st.sampled_from(sorted(LABELS)))]
    kind = draw(st.sampled_from(["int", "float", "float", "mixed", "mixed"]))
    negative = draw(st.integers(0, 4)) == 0
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    n = rng.randint(1, max_nodes)
    G = cls()
    G.add_nodes_from(label(i) for i in range(n))
    for _ in range(rng.randint(n, 3 * n)):
        w = _tie_free_weight(rng, kind, negative)
        G.add_edge(label(rng.randrange(n)), label(rng.randrange(n)),
                   **({} if w is None else {"weight": w}))
    return _view(draw, G)


VIEWS = [None] * 8 + ["subgraph", "edge_subgraph", "restricted_view", "reverse",
                      "to_undirected"]


def _view(draw, G):
    """G, or sometimes a view of it (filtered or joined mappings, which NetworkX
    iterates), remembered in ``fuzz_view`` for the failure report."""
    kind = draw(st.sampled_from(VIEWS))
    if kind in ("reverse", "to_undirected") and not G.is_directed():
        kind = None
    if kind is None:
        return G
    nodes = list(G)
    edges = list(G.edges(keys=True) if G.is_multigraph() else G.edges)
    some_nodes = draw(st.lists(st.sampled_from(nodes), unique=True)) if nodes else []
    some_edges = draw(st.lists(st.sampled_from(edges), unique=True)) if edges else []
    view, args = {
        "subgraph": lambda: (G.subgraph(some_nodes), some_nodes),
        "edge_subgraph": lambda: (G.edge_subgraph(some_edges), some_edges),
        "restricted_view": lambda: (nx.restricted_view(G, some_nodes[:2], some_edges[:2]),
                                    (some_nodes[:2], some_edges[:2])),
        "reverse": lambda: (G.reverse(copy=False), None),
        "to_undirected": lambda: (G.to_undirected(as_view=True), None),
    }[kind]()
    view.fuzz_view = (G, kind, args)
    return view


# -- arguments -----------------------------------------------------------------------------
CUTOFFS = [-1, 0, 0.5, 1, 2.5, 3, 7, 10, 1e18, math.nan, math.inf, -math.inf]


def _node(draw, G):
    """A node of G (as 1.0/True where that label is an int), sometimes a missing one."""
    nodes = list(G)
    if not nodes or draw(st.integers(0, 19)) == 0:
        return draw(st.sampled_from([99, "missing", (5, "x")]))
    v = draw(st.sampled_from(nodes))
    if type(v) is int and draw(st.integers(0, 3)) == 0:
        v = draw(st.sampled_from([float(v)] + ([True] if v == 1 else [])))
    return v


@dataclass
class Call:
    name: str
    args: dict  # NetworkX's arguments (its own method= among them, maybe a gpusp name)
    method: object  # gpusp's method= (None: automatic)
    weight: object = "weight"  # the weight attribute the call reads (None: hop counts)


# -- the methods each function takes ---------------------------------------------------
# the functions that search hop counts (no weight parameter)
UNWEIGHTED = {"single_source_shortest_path", "single_source_shortest_path_length",
              "single_target_shortest_path", "single_target_shortest_path_length",
              "bidirectional_shortest_path", "predecessor", "has_path",
              "all_pairs_shortest_path", "all_pairs_shortest_path_length",
              "global_efficiency", "descendants", "ancestors", "descendants_at_distance",
              "node_connected_component", "local_efficiency", *{
                  "bfs_edges", "bfs_tree", "bfs_predecessors", "bfs_successors", "bfs_layers",
                  "generic_bfs_edges"}}
# results compared item for item, in order (NetworkX's breadth-first order)
ORDERED = {"bfs_edges", "bfs_predecessors", "bfs_successors", "bfs_layers",
           "generic_bfs_edges"}
# the all-pairs measures: batched searches of "all-pairs" methods
MEASURES = {"closeness_centrality", "harmonic_centrality", "eccentricity", "diameter",
            "radius", "center", "periphery", "barycenter", "wiener_index",
            "global_efficiency", "average_shortest_path_length", "local_efficiency",
            "closeness_vitality"}
# Dijkstra's semantics with a weight (gpusp's refuses every negative weight)
DIJKSTRA = {"voronoi_cells", "ego_graph"}
# NetworkX's own names of its `method` parameter (gpusp takes its method names there too)
NETWORKX_METHODS = {
    "average_shortest_path_length": [None, "unweighted", "dijkstra", "bellman-ford",
                                     "floyd-warshall", "floyd-warshall-numpy"],
    **{name: ["dijkstra", "bellman-ford", "unweighted"] for name in (
        "shortest_path", "shortest_path_length", "all_shortest_paths",
        "single_source_all_shortest_paths", "all_pairs_all_shortest_paths")},
}
# functions with Bellman-Ford semantics (negative weights are theirs to take)
NEGATIVE = {"negative_edge_cycle", "goldberg_radzik"}


def _problems(name):
    """The method registry's problems whose methods ``name`` takes (nx_gpusp.methods)."""
    if name in MEASURES or name == "johnson":
        return ["all-pairs"]
    if name in NETWORKX_METHODS:
        return ["sssp", "bfs"]  # a "bfs" name with weight=None only (then NetworkX's too)
    if "floyd_warshall" in name:
        return ["floyd-warshall"]
    if name.startswith("all_pairs"):
        problems = ["all-pairs", "sssp"]
        if name.startswith("all_pairs_shortest_path"):
            problems.append("bfs")
        return problems + (["floyd-warshall"] if name.endswith("length") else [])
    if name in UNWEIGHTED or name == "ego_graph":  # ego_graph: "sssp" ones with a distance
        return ["bfs"]
    return ["sssp"]


def _methods(name, weight):
    """gpusp's method names ``name`` takes (none without a gpusp ``method=``): its
    problems' (see _problems), only those that take negative weights for the Bellman-Ford
    functions, and the unit-weight-only ones only on unweighted calls."""
    negative = "bellman_ford" in name or name in NEGATIVE
    if name not in NETWORKX_METHODS and \
            "method" not in inspect.signature(IMPLEMENTATIONS[name]).parameters:
        return []  # e.g. find_negative_cycle
    return [m.name for p in _problems(name) for m in methods_for(p)
            if (m.negative_weights or not negative or m.problem == "floyd-warshall")
            and (weight is None or not m.unit_weights_only)]


def _networkx_method(method, weight):
    """NetworkX's ``method`` for a call given ``method`` (NetworkX's name or gpusp's): a
    gpusp "sssp" or "all-pairs" method runs NetworkX's family of it (Bellman-Ford where
    it takes negative weights); a "bfs" one with weight=None its unweighted search
    (NetworkX's "dijkstra" with weight=None), and with a weight it is no NetworkX name
    (both raise ValueError)."""
    for problem in ("sssp", "all-pairs"):
        m = get_method(problem, method) if isinstance(method, str) else None
        if m is not None:
            return "bellman-ford" if m.negative_weights else "dijkstra"
    if isinstance(method, str) and get_method("bfs", method) is not None and weight is None:
        return "dijkstra"
    return method


def _nodes(draw, G):
    """A few nodes of G (a missing one now and then)."""
    return [_node(draw, G) for _ in range(draw(st.integers(0, 3)))]


DRAW = object()  # _draw_call's method: drawn (else the method the call names)


def _all_methods(name):
    """Every method name a call of ``name`` can take: NetworkX's own (where its
    ``method`` parameter takes gpusp's too) and gpusp's, unit-weight-only ones included."""
    return list(dict.fromkeys(NETWORKX_METHODS.get(name, [None]) + _methods(name, None)
                              + _methods(name, "weight")))


def _unit_weights_only(method):
    return any(m.unit_weights_only for m in METHODS.values() if m.name == method)


def _integer_weights_only(method):
    return any(m.integer_weights_only for m in METHODS.values() if m.name == method)


def _draw_call(draw, name, G, method=DRAW):
    params = inspect.signature(networkx_function(name).orig_func).parameters
    args = {}
    for p in list(params)[1:]:
        required = params[p].default is inspect.Parameter.empty
        if p == "source":
            args[p] = _node(draw, G) if required or draw(st.booleans()) else None
        elif p == "n":  # node_connected_component's node
            args[p] = _node(draw, G)
        elif p == "target" and name in PATH_GENERATORS:  # a generator of paths to it
            args[p] = _node(draw, G)
        elif p in ("target", "u"):
            args[p] = None if draw(st.booleans()) else _node(draw, G)
        elif p == "v":  # eccentricity: None, a node or a container of nodes
            args[p] = draw(st.sampled_from([None, "node", "nodes"]))
            args[p] = {None: None, "node": lambda: _node(draw, G),
                       "nodes": lambda: _nodes(draw, G)}[args[p]]() if args[p] else None
        elif p in ("node", "wiener_index", "sort_neighbors", "neighbors"):
            args[p] = _node(draw, G) if p == "node" and draw(st.booleans()) else None
        elif p == "depth_limit":
            args[p] = draw(st.sampled_from([None, None, 0, 1, 2, 2.5, -1, math.inf, math.nan]))
        elif p == "radius":
            args[p] = draw(st.sampled_from([0, 1, 1, 2, 1.5, 10, None]))
        elif p in ("reverse", "center", "undirected"):
            args[p] = draw(st.booleans())
        elif p in ("sources", "center_nodes"):
            if not required and draw(st.booleans()):
                args[p] = None
            else:
                k = draw(st.integers(0 if draw(st.integers(0, 19)) == 0 else 1, 3))
                args[p] = {_node(draw, G) for _ in range(k)}
        elif p == "targets":  # betweenness_subset: nodes (a missing one now and then)
            args[p] = _nodes(draw, G)
        elif p == "k" and "betweenness" in name:  # sampled sources (too many: ValueError)
            args[p] = draw(st.one_of(st.none(), st.integers(0, len(G) + 1)))
        elif p == "seed":  # NetworkX draws k sources with it: the same seed, the same draw
            args[p] = draw(st.integers(0, 2**32))
        elif p in ("normalized", "endpoints"):
            args[p] = draw(st.booleans())
        elif p == "nbunch":
            args[p] = None if draw(st.booleans()) else _nodes(draw, G)
        elif p == "cutoff":
            args[p] = draw(st.one_of(st.none(), st.sampled_from(CUTOFFS)))
        elif p == "distance" and name == "descendants_at_distance":  # a level
            args[p] = draw(st.sampled_from([0, 1, 2, 3, 5, -1, 1.0, 1.5, True, None, "a",
                                            math.nan]))
        elif p in ("weight", "distance"):
            args[p] = draw(st.sampled_from(["weight", "weight", "weight", None, "other"]))
        elif p == "heuristic" and name.startswith("astar"):  # a function: NetworkX's
            args[p] = None
        elif p in ("heuristic", "usebounds", "wf_improved"):
            args[p] = draw(st.booleans())
        elif p == "return_seen":
            args[p] = draw(st.sampled_from([None, True, False]))
        elif p == "nodelist":
            args[p] = draw(st.one_of(st.none(), st.permutations(list(G))))
        elif p in ("e", "sp", "attr"):
            continue  # precomputed values and node attributes: left to NetworkX (can_run)
        elif p == "method":  # NetworkX's own method argument
            weight = args.get("weight")
            names = NETWORKX_METHODS[name] + _methods(name, weight)
            args[p] = draw(st.sampled_from(names)) if method is DRAW else method
        elif required:
            pytest.skip(f"{name}: no fuzz adapter for required argument {p!r}")
    if method is not DRAW and _unit_weights_only(method):
        for p in ("weight", "distance"):  # a hop-count method: an unweighted call
            if p in args:
                args[p] = None
    weight = args.get("weight", args.get("distance"))
    if name in UNWEIGHTED:  # descendants_at_distance's distance is a level, no weight
        weight = None
    elif name in NETWORKX_METHODS and name != "shortest_path" and \
            name != "shortest_path_length" and args.get("method") == "unweighted":
        weight = None  # NetworkX's "unweighted" reads no weight (shortest_path refuses it)
    if "method" in params:
        method = None  # NetworkX's method parameter holds it
    elif method is DRAW:
        method = draw(st.sampled_from([None] + _methods(name, weight)))
    return Call(name, args, method, weight)


# -- running -------------------------------------------------------------------------------
# functions whose result is a generator of paths from source to target, and how many of
# its paths are compared (the whole of it can be every simple path of the graph)
PATH_GENERATORS = {"shortest_simple_paths": 12}


def _run(call, G, backend):
    kwargs = dict(call.args)
    if backend == "gpusp":
        kwargs["backend"] = "gpusp"
        if call.method is not None:
            kwargs["method"] = call.method
    else:
        if "method" in kwargs:  # a gpusp method name: NetworkX's equivalent
            kwargs["method"] = _networkx_method(kwargs["method"], call.weight)
        if kwargs.get("usebounds") and (
                any(isinstance(w, float) for w in _weights_used(G, call.weight))
                or getattr(G, "fuzz_view", None) is not None and len(G)):
            # docs/guide/semantics.md (all-pairs measures, usebounds): gpusp computes every eccentricity;
            # NetworkX's bounding search adds and subtracts float distances (its bounds
            # round, and it can loop forever), and on an undirected view of a digraph,
            # whose distances need not be symmetric, it looped forever: NetworkX without
            # it is the reference (not on the null graph, where it raises otherwise)
            kwargs["usebounds"] = False
    try:
        out = networkx_function(call.name)(G, **kwargs)
        if call.name in PATH_GENERATORS:  # errors raise at the first next()
            out = list(itertools.islice(out, PATH_GENERATORS[call.name]))
        elif inspect.isgenerator(out):  # (node, value) pairs, or paths (all_shortest_paths)
            out = list(out) if call.name == "all_shortest_paths" or call.name in ORDERED \
                else dict(out)
        return "ok", out
    except Exception as exc:  # noqa: BLE001  (compared with NetworkX's)
        return "raised", exc


def _weights_used(G, weight):
    """The weight of every arc as the call sees it (parallel edges: the minimum), but
    for the hidden ones (weighing None)."""
    ws = (_arc(G, u, v, weight) for u, nbrs in G.adj.items() for v in nbrs)
    return [w for w in ws if w is not None]


def _hidden(G, weight):
    """Whether an edge weighs None under ``weight`` (an attribute name)."""
    return isinstance(weight, str) and not G.is_multigraph() and \
        any(d.get(weight, 1) is None for _, _, d in G.edges(data=True))


def _declinable(G, call):
    """gpusp may decline (NotImplementedError, so automatic dispatch runs NetworkX):
    weights int64/float64 cannot hold exactly, integer sums that could pass 2**62 (mixed
    with floats: 2**53), float sums that could overflow; of the weights the call reads,
    or of the attribute its ``weight`` argument names, which the dispatcher converts
    even where NetworkX's "unweighted" method then reads none."""
    named = _named_weight(call)
    if (call.name.startswith("astar") or call.name in PATH_GENERATORS) and \
            call.weight is not None and _negative(G, call):
        return True  # NetworkX's A* and Yen take negative weights unchecked: left to it
    if "betweenness" in call.name and _betweenness_declined(G, call):
        return True
    return any(_inexact(G, call, w) or _hidden(G, w) or _asymmetric_view(G, w)
               for w in {call.weight, named} if w is not None) or \
        _reweighting_inexact(G, call)


def _betweenness_declined(G, call):
    """Betweenness left to NetworkX (nx_gpusp.solvers.apsp.brandes.declined_weights):
    edge betweenness of a multigraph; weights (other than all 1) with one <= 0, or a
    float one that a path sum could absorb (w * 2**53 <= (n - 1) * max |w|)."""
    if call.name.startswith("edge") and G.is_multigraph():
        return True
    if call.weight is None:
        return False
    ws = _weights_used(G, call.weight)
    if not ws or all(w == 1 for w in ws):
        return False
    if min(ws) <= 0:
        return True
    bound = max(len(G) - 1, 1) * max(abs(w) for w in ws)
    return any(isinstance(w, float) for w in ws) and min(ws) * 2.0**53 <= bound


def _named_weight(call):
    """The attribute the call's ``weight`` (or a centrality's ``distance``) names;
    descendants_at_distance's ``distance`` is a level."""
    if call.name == "descendants_at_distance":
        return None
    return call.args.get("weight", call.args.get("distance"))


def _asymmetric_view(G, weight):
    """An undirected view of a digraph where an edge weighs differently from each end
    (each reads its own arc): gpusp declines it (docs/guide/semantics.md, Functions)."""
    view = getattr(G, "fuzz_view", None)
    if view is None or view[1] != "to_undirected" or not isinstance(weight, str):
        return False
    adj = G._adj
    def w(u, v):
        d = adj[u][v]
        if G.is_multigraph():
            return sorted(repr(x.get(weight, 1)) for x in d.values())
        return repr(d.get(weight, 1))
    return any(w(u, v) != w(v, u) for u in adj for v in adj[u])


def _reweighting_inexact(G, call):
    """Floyd-Warshall (its functions, or the all-pairs length functions on it) declines
    ints mixed with negative floats whose sums could move an int distance by 1/2 through
    Johnson's reweighting (nx_gpusp.graph.CSRGraph.reweighted_ints_exact)."""
    if "floyd_warshall" not in call.name and not call.name.startswith("all_pairs"):
        return False
    ws = _weights_used(G, call.weight) if call.weight is not None else []
    if not (any(isinstance(w, int) for w in ws) and any(isinstance(w, float) for w in ws)
            and any(w < 0 for w in ws)):
        return False
    n = len(G)
    bound = max(n - 1, 1) * max(abs(w) for w in ws)
    negative = -sum(w for w in ws if w < 0)
    return (n + 2) * (bound + 4 * negative) * 2.0 ** -52 >= 0.5


def _inexact(G, call, weight):
    ws = _weights_used(G, weight)
    if not ws:
        return False
    ints = [w for w in ws if isinstance(w, int)]
    floats = [w for w in ws if isinstance(w, float)]
    nodes = len(G) + (call.name == "negative_edge_cycle")  # with NetworkX's super-source
    hops = max(nodes - 1, 1)
    bound = max(abs(w) for w in ws) * hops
    if floats:  # integer sums mixed with floats: exact below 2**53, as NetworkX's
        return bound * (1 + 2**-16) >= 1.7976931348623157e308 or \
            max((abs(w) for w in ints), default=0) * hops >= 2**53
    return bound >= 2**62


def _negative(G, call):
    return any(w < 0 for w in _weights_used(G, call.weight))


def _dijkstra_family(call):
    """Whether the call searches with Dijkstra's semantics: a Dijkstra function, a
    weighted measure (all but average_shortest_path_length's Bellman-Ford and
    Floyd-Warshall methods), NetworkX's "dijkstra" method with a weight."""
    if call.weight is None:
        return False
    if "method" in call.args:  # NetworkX's own method parameter (shortest_path, ...)
        return _networkx_method(call.args["method"], call.weight) in ("dijkstra", None)
    return "dijkstra" in call.name or call.name in MEASURES or call.name in DIJKSTRA


# -- comparing -----------------------------------------------------------------------------
def _close(a, b, scale=0.0):
    """Equal, floats to 1e-9 relative; ``scale``: the sum of |w| over the graph, whose
    rounding (2**-40 of it) bounds what another order of additions can change (sums of
    weights of very different magnitudes, Floyd-Warshall's blocked order and Johnson's
    potentials)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, float) or isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        if math.isinf(a) or math.isinf(b):
            return a == b
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=max(1e-9, scale * 2**-40))
    return a == b


def _arc(G, u, v, weight):
    data = G[u][v]
    if weight is None:
        return 1
    if G.is_multigraph():
        return min(d.get(weight, 1) for d in data.values())
    return data.get(weight, 1)


def _path_length(G, path, weight):
    total = 0
    for u, v in zip(path, path[1:]):
        assert G.has_edge(u, v), f"{(u, v)} is not an edge (path {path})"
        total = total + _arc(G, u, v, weight)
    return total


# what the lists in a function's result are (other functions' lists are paths)
LISTS = {
    "center": "nodes", "periphery": "nodes", "barycenter": "nodes",
    "predecessor": "predecessors", "dijkstra_predecessor_and_distance": "predecessors",
    "bellman_ford_predecessor_and_distance": "predecessors",
    "all_shortest_paths": "path lists", "single_source_all_shortest_paths": "path lists",
    "all_pairs_all_shortest_paths": "path lists",
    "shortest_simple_paths": "simple paths",
}


class Checker:
    def __init__(self, G, call):
        self.G, self.call, self.weight = G, call, call.weight
        self.lists = LISTS.get(call.name, "paths")
        finite = [abs(w) for w in _weights_used(G, call.weight)
                  if isinstance(w, (int, float)) and math.isfinite(w)]
        self.scale = float(sum(finite))
        # ints and floats mixed (Floyd-Warshall: a missing weight is 1.0). docs/guide/semantics.md
        # (number types): NetworkX's type follows the path it found, which may be
        # another of equally short ones, and the all-pairs measures give floats there
        used = _weights_used(G, call.weight)
        if "floyd_warshall" in call.name:
            used += [1.0 for u, v, d in G.edges(data=True)
                     if call.weight is None or call.weight not in d]
            if G.is_multigraph() and call.weight is not None:  # it reads every parallel
                used += [d[call.weight] for u, v, d in G.edges(data=True)  # edge's type
                         if call.weight in d]
        self.mixed_types = len({type(w) for w in used} & {int, float}) > 1
        # docs/guide/semantics.md (zero-length float cycles): gpusp's Floyd-Warshall never goes round one,
        # NetworkX's in-place sweeps may round it below zero, making a 0 (int) a float
        floyd_warshall = "floyd_warshall" in call.name or \
            call.args.get("method") in ("floyd-warshall", "floyd-warshall-numpy")
        self.rounding_cycles = floyd_warshall and _rounding_ambiguous(G, call)

    def result(self, got, exp, start):
        """The whole result of the call."""
        if self.call.name in ORDERED:  # NetworkX's items in NetworkX's order
            assert got == exp, ("breadth-first order", got, exp)
            return
        if isinstance(exp, nx.Graph):
            self.graph(got, exp)
            return
        special = {"goldberg_radzik": self.tree, "find_negative_cycle": self.cycle}
        if self.call.name in special:
            special[self.call.name](got, exp)
        else:
            self.same(got, exp, self.call.name, start)

    def same(self, got, exp, where="result", start=None):
        """``got`` (gpusp) matches ``exp`` (NetworkX); ``start``: the set of nodes a path
        may begin at (None: paths are checked by their length alone)."""
        if isinstance(exp, np.ndarray):
            assert isinstance(got, np.ndarray) and got.shape == exp.shape, where
            atol = max(1e-9, self.scale * 2**-40)
            assert np.allclose(got, exp, rtol=1e-9, atol=atol, equal_nan=True), \
                (where, got, exp)
            return
        if isinstance(exp, bool):
            assert got is exp, (where, got, exp)
            return
        if isinstance(exp, (int, float)) and not isinstance(exp, bool):
            assert isinstance(got, (int, float)) and _close(got, exp, self.scale), \
                (where, got, exp)
            assert type(got) is type(exp) or self.mixed_types or self.rounding_cycles, \
                ("number types", where, got, exp)
            return
        if isinstance(exp, list):
            assert isinstance(got, list), (where, type(got))
            if self.lists == "nodes":
                assert got == exp or self.rounding_ties(got, exp), (where, got, exp)
            elif self.lists == "predecessors":
                # docs/guide/semantics.md (predecessor lists): every predecessor NetworkX lists, by
                # distance with ties in node order (NetworkX's: its queue's order)
                assert Counter(got) == Counter(exp), (where, got, exp)
            elif self.lists == "simple paths":
                self.simple_paths(got, exp)
            elif self.lists == "path lists":
                # docs/guide/semantics.md (all shortest paths): NetworkX's paths and repeats, in its order
                # for the same predecessor lists (those come in another order)
                assert Counter(map(tuple, got)) == Counter(map(tuple, exp)), \
                    (where, got, exp)
            else:
                self.path(got, exp, where, start)
            return
        if isinstance(exp, tuple):
            assert isinstance(got, tuple) and len(got) == len(exp), (where, got)
            if len(exp) == 2 and isinstance(exp[0], dict) and any(
                    isinstance(v, dict) for v in exp[0].values()):
                self.fw_pred_dist(got, exp)
                return
            for k, (g, e) in enumerate(zip(got, exp)):
                self.same(g, e, f"{where}[{k}]", start)
            if isinstance(exp[0], (int, float)) and isinstance(exp[1], list):
                # (length, path): the path has the reported length
                assert _close(_path_length(self.G, got[1], self.weight), got[0], self.scale), \
                    (where, got)
            return
        if isinstance(exp, dict):
            # docs/guide/semantics.md (Results, unweighted): keys in non-decreasing distance, ties and a
            # BFS level's nodes in node order (NetworkX's: its queue's): not compared
            assert isinstance(got, Mapping), (where, type(got))
            assert set(got) == set(exp), (where, set(got) ^ set(exp))
            for key, value in exp.items():
                inner = start
                if self.call.name in ("johnson",) or self.call.name.startswith("all_pairs") \
                        or (isinstance(value, (dict, tuple)) and start is None):
                    inner = {key}  # all pairs: the outer key is the source
                self.same(got[key], value, f"{where}[{key!r}]", inner)
                if isinstance(value, list) and self.lists == "paths":
                    got_path = got[key]
                    assert got_path[-1] == key or got_path[0] == key, (where, got_path)
            return
        if isinstance(exp, (set, frozenset)):  # descendants, ancestors: node sets
            assert type(got) is type(exp) and got == exp, (where, got, exp)
            return
        raise AssertionError(f"{where}: no comparison for {type(exp).__name__}")

    def path(self, got, exp, where, start):
        """docs/guide/semantics.md (unweighted, predecessor lists): a shortest path, not always the one
        NetworkX picks among equals (tie-breaking; the path bidirectional searches meet
        on): compared by its length."""
        assert isinstance(got, list) and got, (where, got)
        if start is not None:
            assert got[0] in start or got[-1] in start, (where, got, start)
        assert _close(_path_length(self.G, got, self.weight),
                      _path_length(self.G, exp, self.weight), self.scale), (where, got, exp)

    def simple_paths(self, got, exp):
        """docs/guide/semantics.md (k shortest simple paths): as many distinct simple paths
        from the source to the target as NetworkX's, the k-th as long as NetworkX's k-th
        (where paths tie, they may be others of that length, or come in another order)."""
        source, target = self.call.args["source"], self.call.args["target"]
        assert len(got) == len(exp), ("paths", len(got), len(exp))
        assert len(set(map(tuple, got))) == len(got), ("a path came twice", got)
        lengths = []
        for path in got:
            assert isinstance(path, list) and path[0] == source and path[-1] == target, path
            assert len(set(path)) == len(path), ("not simple", path)
            lengths.append(_path_length(self.G, path, self.weight))
        for k, (a, e) in enumerate(zip(lengths, exp)):
            assert _close(a, _path_length(self.G, e, self.weight), self.scale), \
                ("length", k, got, exp)
        assert all(a <= b or _close(a, b, self.scale) for a, b in zip(lengths, lengths[1:])), \
            ("lengths decrease", lengths)

    def tree(self, got, exp):
        """goldberg_radzik's (pred, dist). docs/guide/semantics.md (goldberg_radzik): where several
        shortest-path trees exist a parent may differ from NetworkX's; each is a tail
        of a shortest path's last arc, and the parents lead to the source."""
        (gp, gd), (ep, ed) = got, exp
        self.same(gd, ed, "dist")
        assert isinstance(gp, Mapping) and set(gp) == set(ep), ("pred", set(gp) ^ set(ep))
        for v, parent in ep.items():
            p = gp[v]
            if parent is None:
                assert p is None, ("pred", v, p)
                continue
            assert p in ed and self.G.has_edge(p, v), ("pred", v, p)
            assert _close(gd[p] + _arc(self.G, p, v, self.weight), gd[v], self.scale), \
                ("pred: not on a shortest path", v, p)
            walked = [v]
            while gp[walked[-1]] is not None:
                walked.append(gp[walked[-1]])
                assert len(walked) <= len(ep), ("pred: not a tree", walked)

    def graph(self, got, exp):
        """A graph NetworkX builds (bfs_tree, ego_graph): of its class, with its nodes,
        edges and data; bfs_tree's nodes and edges in its order, ego_graph's nodes in its
        order where found breadth-first (docs/guide/semantics.md: Dijkstra's ties)."""
        assert type(got) is type(exp) and got.graph == exp.graph, ("graph", got, exp)
        assert nx.utils.graphs_equal(got, exp), ("graph", got.edges, exp.edges)
        assert dict(got.nodes(data=True)) == dict(exp.nodes(data=True)), "node data"
        if self.call.name == "bfs_tree" or self.call.args.get("distance") is None:
            assert list(got.nodes) == list(exp.nodes), ("node order", got.nodes, exp.nodes)
            assert list(got.edges) == list(exp.edges), ("edge order", got.edges, exp.edges)

    def rounding_ties(self, got, exp):
        """docs/guide/semantics.md (all-pairs measures): on float weights center, periphery and barycenter
        may differ by nodes whose value (eccentricity, or sum of distances) ties the
        best up to the rounding of sums added in another order."""
        if not any(isinstance(w, float) for w in _weights_used(self.G, self.weight)):
            return False
        if self.call.name == "barycenter":
            value = {v: sum(nx.single_source_dijkstra_path_length(self.G, v,
                                                                  weight=self.weight).values())
                     for v in self.G}
        else:
            value = nx.eccentricity(self.G, weight=self.weight)
        best = value[exp[0]]
        tol = max(1e-9, self.scale * len(self.G) * 2**-40)
        return all(abs(value[v] - best) <= tol for v in set(got) | set(exp))

    def cycle(self, got, exp):
        """find_negative_cycle's cycle. docs/guide/semantics.md (negative cycles): it starts at its first
        node in G's node order (NetworkX's where its queue noticed it), and where
        several negative cycles are reachable it may be another one."""
        assert isinstance(got, list) and len(got) >= 2 and got[0] == got[-1], got
        assert all(self.G.has_edge(u, v) for u, v in zip(got, got[1:])), got
        assert len(set(got[:-1])) == len(got) - 1, ("not a simple cycle", got)
        assert _path_length(self.G, got, self.weight) < 0, ("not negative", got)
        order = {v: i for i, v in enumerate(self.G)}
        assert order[got[0]] == min(order[v] for v in got), ("first node", got)
        source = [v for v in self.G if v == self.call.args["source"]]
        reached = nx.descendants(self.G, source[0]) | set(source)
        assert got[0] in reached, ("not reachable from the source", got)

    def fw_pred_dist(self, got, exp):
        (gp, gd), (_ep, ed) = got, exp
        self.same({u: dict(r) for u, r in gd.items()}, {u: dict(r) for u, r in ed.items()},
                  "dist")
        for u, row in ed.items():
            for v, d in row.items():
                if u == v or math.isinf(d):
                    continue
                path = _reconstruct(u, v, gp)
                assert _close(_path_length(self.G, path, self.weight), d, self.scale), \
                    (u, v, path, d)


def _reconstruct(u, v, pred, limit=None):
    """nx.reconstruct_path, refusing a cyclic predecessor map instead of looping."""
    limit = limit or len(pred) + 2
    path = [v]
    while path[-1] != u:
        path.append(pred[u][path[-1]])
        assert len(path) <= limit + 1, f"cyclic predecessors from {u}: {path[:10]}..."
    return path[::-1]


def _cyclic_predecessors(pred, dist):
    for u, row in dist.items():
        for v, d in row.items():
            if u != v and not math.isinf(d):
                try:
                    _reconstruct(u, v, pred)
                except (AssertionError, KeyError):
                    return True
    return False


def _fw_negative_cycle(G, call, exp):
    """NetworkX's Floyd-Warshall reports a negative cycle as numbers (a negative or NaN
    diagonal, a cyclic predecessor map) and floyd_warshall_numpy ignores negative
    self-loops; gpusp raises NetworkXUnbounded for every negative cycle (and so does
    average_shortest_path_length with NetworkX's Floyd-Warshall methods, where NetworkX
    sums those numbers)."""
    if any((_arc(G, u, u, call.weight) or 0) < 0 for u in G if G.has_edge(u, u)):
        return True
    kind, value = exp
    if kind != "ok":
        return False
    if not isinstance(value, (np.ndarray, tuple, dict)):  # a sum of the distances
        return _exact_negative_cycle(G, call.weight, None, Fraction(0))
    if isinstance(value, np.ndarray):
        diag = np.diagonal(value)
        return bool((diag < 0).any() or np.isnan(diag).any())
    pred, dist = value if isinstance(value, tuple) else (None, value)
    if any(dist[u][u] < 0 or dist[u][u] != dist[u][u] for u in dist):
        return True
    return pred is not None and _cyclic_predecessors(pred, dist)


def _exact_negative_cycle(G, weight, sources, shift):
    """Whether Bellman-Ford in exact arithmetic (every float is a Fraction exactly), with
    every arc weight plus ``shift``, finds a negative cycle reachable from ``sources``
    (None: anywhere)."""
    dist = {v: Fraction(0) for v in (G if sources is None else sources)}
    arcs = [(u, v, Fraction(_arc(G, u, v, weight)) + shift)
            for u, nbrs in G.adj.items() for v in nbrs
            if _arc(G, u, v, weight) is not None]  # hidden arcs: not searched
    for _ in range(len(G) + 1):
        changed = False
        for u, v, w in arcs:
            if u in dist and (v not in dist or dist[u] + w < dist[v]):
                dist[v] = dist[u] + w
                changed = True
        if not changed:
            return False
    return True


def _rounding_ambiguous(G, call):
    """Whether the call's negative-cycle verdict is float rounding's to make: some cycle
    it can reach has an exact weight within rounding error of zero (a nudge of every
    weight by 2**-40 of the largest changes the exact verdict). NetworkX's verdict then
    depends on its order of additions (SPFA from a super-source at distance 1 for
    negative_edge_cycle, a plain loop for Floyd-Warshall), gpusp's on frontier
    Bellman-Ford's: the same for all of gpusp's methods and functions, not always
    NetworkX's."""
    ws = _weights_used(G, call.weight)
    if not any(isinstance(w, float) for w in ws) or not any(w < 0 for w in ws):
        return False
    H, sources = G, None
    if call.args.get("source") is not None:
        sources = [v for v in G if v == call.args["source"]]
    elif call.name.startswith("shortest_path") and call.args.get("target") is not None:
        H = G.reverse(copy=False) if G.is_directed() else G
        sources = [v for v in G if v == call.args["target"]]
    delta = Fraction(max(abs(w) for w in ws)) * Fraction(1, 2**40)
    return _exact_negative_cycle(H, call.weight, sources, -delta) != \
        _exact_negative_cycle(H, call.weight, sources, delta)


def _unbounded_or_not(call, got, exp):
    """The outcomes differ in a negative-cycle verdict: one is NetworkXUnbounded and the
    other not (an answer, or what follows without a cycle, such as NetworkXNoPath);
    find_negative_cycle: a cycle against NetworkXError."""
    if call.name == "find_negative_cycle":
        return got[0] != exp[0]
    if got[0] == exp[0] == "ok":
        return isinstance(got[1], bool) and got[1] != exp[1]  # negative_edge_cycle
    unbounded = [kind == "raised" and isinstance(value, nx.NetworkXUnbounded)
                 for kind, value in (got, exp)]
    return unbounded[0] != unbounded[1]


def _allowed(G, call, got, exp):
    """Why a difference in outcome is gpusp's documented behaviour, or None."""
    gkind, gval = got
    if _unbounded_or_not(call, got, exp) and _rounding_ambiguous(G, call):
        return "a zero-length cycle that rounding may make negative"
    if gkind == "raised" and isinstance(gval, NotImplementedError) and _declinable(G, call):
        return "declined (NetworkX answers under automatic dispatch)"
    if gkind == "raised" and isinstance(gval, NotImplementedError) and \
            can_run(call.name, (G,), call.args) is not True:
        return f"declined by can_run: {can_run(call.name, (G,), call.args)}"
    if gkind == "raised" and isinstance(gval, NotImplementedError) and \
            call.name == "voronoi_cells" and exp[0] == "ok":
        return ("a node as near to two centers: NetworkX's heap order picks one; declined "
                "(NetworkX answers under automatic dispatch)")
    if gkind == "raised" and type(gval) is ValueError and _dijkstra_family(call) \
            and _negative(G, call):
        return "gpusp's Dijkstra refuses every negative weight"
    named = _named_weight(call)
    if gkind == "raised" and type(gval) is ValueError and "needs integer weights" in str(gval) \
            and _integer_weights_only(call.method or call.args.get("method")) \
            and any(not isinstance(w, numbers.Integral)
                    for weight in {call.weight, named} if weight is not None
                    for w in _weights_used(G, weight)):
        return "an integer-weights-only method refuses float weights"
    floyd_warshall = "floyd_warshall" in call.name or \
        call.args.get("method") in ("floyd-warshall", "floyd-warshall-numpy")
    if floyd_warshall and gkind == "raised" and \
            isinstance(gval, nx.NetworkXUnbounded) and _fw_negative_cycle(G, call, exp):
        return "gpusp's Floyd-Warshall refuses negative cycles"
    if call.name == "johnson" and gkind == "raised" and \
            isinstance(gval, nx.NetworkXUnbounded) and exp[0] == "raised" and \
            type(exp[1]) is ValueError and "Contradictory paths" in str(exp[1]) and \
            _exact_negative_cycle(G, call.weight, None, 0):
        return ("NetworkX's johnson misses this negative cycle in its Bellman-Ford and its "
                "Dijkstra then fails (ValueError); gpusp raises NetworkXUnbounded")
    if call.name == "negative_edge_cycle" and gkind == "ok" and exp[0] == "raised" and \
            type(exp[1]) is nx.NetworkXError and "Frozen graph" in str(exp[1]):
        return ("NetworkX's negative_edge_cycle adds a node of its own, which a view "
                "refuses; gpusp answers (docs/guide/semantics.md)")
    networkx_failed = exp[0] == "raised" and (
        type(exp[1]) is AttributeError or
        (type(exp[1]) is nx.NetworkXError and "detected but not found" in str(exp[1])))
    if call.name == "find_negative_cycle" and networkx_failed and gkind == "ok":
        Checker(G, call).cycle(gval, None)  # a valid reachable negative cycle
        return ("NetworkX's find_negative_cycle fails (AttributeError, or NetworkXError "
                "'detected but not found') on a negative self-loop its search noticed "
                "before recording it; gpusp returns a reachable negative cycle")
    return None


def describe(G):
    """A graph as the Python that builds it (for failure reports)."""
    view = getattr(G, "fuzz_view", None)
    if view is not None:
        base, kind, args = view
        call = {"subgraph": f"G.subgraph({args!r})", "edge_subgraph": f"G.edge_subgraph({args!r})",
                "restricted_view": f"nx.restricted_view(G, *{args!r})",
                "reverse": "G.reverse(copy=False)",
                "to_undirected": "G.to_undirected(as_view=True)"}[kind]
        return f"{describe(base)}; G = {call}"
    edges = [(u, v, d) for u, v, d in G.edges(data=True)]
    return f"G = nx.{type(G).__name__}(); G.add_nodes_from({list(G)!r}); " \
           f"G.add_edges_from({edges!r})"


def check(G, call, exact=False):
    """gpusp's outcome of ``call`` on G against NetworkX's; ``exact``: every number of
    the result also equal without tolerance and of the same type (identical)."""
    got = _run(call, G, "gpusp")
    if call.name.startswith("astar") and call.weight is not None and _negative(G, call):
        # NetworkX's A* takes negative weights unchecked and loops forever on a
        # negative cycle; gpusp leaves them to it (docs/guide/semantics.md, Functions)
        assert got[0] == "raised" and isinstance(got[1], (NotImplementedError, nx.NodeNotFound)) \
            or got == ("ok", [call.args["source"]]) or got == ("ok", 0), \
            f"{describe(G)}\n{call}\ngpusp: {got[0]} {got[1]!r} (negative weights)"
        return
    exp = _run(call, G, "networkx")
    try:
        _compare(G, call, got, exp)
        if exact and got[0] == exp[0] == "ok" and not _allowed(G, call, got, exp):
            if call.name == "floyd_warshall_predecessor_and_distance":
                got, exp = ("ok", got[1][1]), ("ok", exp[1][1])  # the distances
            _identical_numbers(got[1], exp[1], call.name)
    except AssertionError as exc:
        raise AssertionError(f"{describe(G)}\n{call}\ngpusp: {got[0]} {got[1]!r}\n"
                             f"NetworkX: {exp[0]} {exp[1]!r}\n{exc}") from None


def _identical_numbers(got, exp, where):
    """Every number of NetworkX's result ``exp`` is in ``got`` with the same value (no
    tolerance) and type; arrays of the same dtype; lists (paths) are left to Checker."""
    if isinstance(exp, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == exp.dtype, (where, got)
        assert np.array_equal(got, exp, equal_nan=True), (where, got, exp)
    elif isinstance(exp, Mapping):
        for key, value in exp.items():
            _identical_numbers(got[key], value, f"{where}[{key!r}]")
    elif isinstance(exp, tuple):
        for k, (a, b) in enumerate(zip(got, exp)):
            _identical_numbers(a, b, f"{where}[{k}]")
    elif isinstance(exp, (int, float)) and not isinstance(exp, bool):
        assert type(got) is type(exp) and (got == exp or got != got and exp != exp), \
            ("not identical", where, got, exp)


def _compare(G, call, got, exp):
    if _allowed(G, call, got, exp):
        return
    if exp[0] == "raised" or got[0] == "raised":
        assert got[0] == exp[0] == "raised" and type(got[1]) is type(exp[1]), "outcomes differ"
        return
    start = None
    for key in ("source", "sources"):
        if call.args.get(key) is not None:
            start = call.args[key] if key == "sources" else {call.args[key]}
    if call.name.startswith("shortest_path") and call.args.get("source") is None \
            and call.args.get("target") is not None:
        start = {call.args["target"]}  # paths from every node to the target
    Checker(G, call).result(got[1], exp[1], start)


# -- the tests -----------------------------------------------------------------------------
def _fuzz(name, examples, derandomize, method=DRAW, exact=False):
    @settings(max_examples=examples, deadline=None, derandomize=derandomize,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                     HealthCheck.function_scoped_fixture,
                                     HealthCheck.data_too_large])
    @given(data=st.data())
    def run(data):
        G = data.draw(tie_free_graphs() if exact else graphs(), label="G")
        call = _draw_call(data.draw, name, G, method)
        data.draw(st.just(call), label="call")
        check(G, call, exact=exact)

    run()


@pytest.mark.parametrize("name", FUNCTIONS)
def test_fuzz(device, name):
    """A few examples of each method the function takes, then any method."""
    for method in _all_methods(name):
        _fuzz(name, PER_METHOD_EXAMPLES, derandomize=True, method=method)
    _fuzz(name, SHORT_EXAMPLES, derandomize=True)


def test_fuzz_covers_every_method():
    """Each registered method is fuzzed through some function, on weights where it takes
    them: the lists above come from the registry, so a method a function stops taking
    (or a new problem no function lists) shows here."""
    weighted = {m for name in FUNCTIONS for m in _methods(name, "weight")}
    unweighted = {m for name in FUNCTIONS for m in _methods(name, None)}
    for m in METHODS.values():
        assert m.name in (unweighted if m.unit_weights_only else weighted), m.name


def _long_run_selected(config):
    expr = config.getoption("markexpr") or ""
    try:
        from _pytest.mark.expression import Expression
    except ImportError:  # pragma: no cover
        return "slow" in expr and "not slow" not in expr

    def selects(marks):
        return Expression.compile(expr).evaluate(lambda mark, **_kw: mark in marks)

    # selected only where -m asks for slow tests ("slow", "slow and not gpu", ...)
    return bool(expr) and selects({"slow"}) and not selects(set())


@pytest.mark.slow
@pytest.mark.parametrize("name", FUNCTIONS)
def test_fuzz_long(request, device, name):
    if not _long_run_selected(request.config):
        pytest.skip("the long fuzz run: python -m pytest -m slow tests/test_fuzz.py")
    _fuzz(name, LONG_EXAMPLES, derandomize=False)


# -- exact sums: the all-pairs lengths and Floyd-Warshall ---------------------------------
# NetworkX's searches add a path's weights left to right, its Floyd-Warshall joins two
# shorter paths per round of its loop: on graphs whose shortest paths do not tie up to
# rounding (tie_free_graphs), gpusp's numbers are NetworkX's exactly, of the same
# types (nx_gpusp.solvers.apsp.path_sums), whichever method answers.
EXACT_FUNCTIONS = ["all_pairs_bellman_ford_path_length", "all_pairs_dijkstra",
                   "all_pairs_dijkstra_path_length", "all_pairs_shortest_path_length",
                   "floyd_warshall", "floyd_warshall_numpy",
                   "floyd_warshall_predecessor_and_distance"]
EXACT_PER_METHOD_EXAMPLES = 3


@pytest.mark.parametrize("name", EXACT_FUNCTIONS)
def test_fuzz_exact_sums(device, name):
    for method in _all_methods(name):
        _fuzz(name, EXACT_PER_METHOD_EXAMPLES, derandomize=True, method=method, exact=True)
    _fuzz(name, SHORT_EXAMPLES, derandomize=True, exact=True)


@pytest.mark.slow
@pytest.mark.parametrize("name", EXACT_FUNCTIONS)
def test_fuzz_exact_sums_long(request, device, name):
    if not _long_run_selected(request.config):
        pytest.skip("the long fuzz run: python -m pytest -m slow tests/test_fuzz.py")
    _fuzz(name, LONG_EXAMPLES, derandomize=False, exact=True)


# -- every Bellman-Ford method, one verdict ------------------------------------------------
NEGATIVE_METHODS = [m.name for m in methods_for("sssp") if m.negative_weights]


def _agree(examples, derandomize):
    """Where NetworkX's verdict is rounding's (see _rounding_ambiguous), every gpusp
    method still gives one: frontier Bellman-Ford's."""
    @settings(max_examples=examples, deadline=None, derandomize=derandomize,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                     HealthCheck.data_too_large])
    @given(G=graphs(), data=st.data())
    def run(G, data):
        if not len(G):
            return
        source = data.draw(st.sampled_from(list(G)), label="source")
        for call in (Call("single_source_bellman_ford", {"source": source, "weight": "weight"},
                          None),
                     Call("negative_edge_cycle", {"weight": "weight"}, None)):
            seen = {}
            for method in NEGATIVE_METHODS:
                kind, value = _run(replace(call, method=method), G, "gpusp")
                seen[method] = type(value).__name__ if kind == "raised" else (
                    value if isinstance(value, bool) else "an answer")
            assert len(set(seen.values())) == 1, f"{describe(G)}\n{call.name}: {seen}"

    run()


def test_fuzz_methods_agree(device):
    _agree(SHORT_EXAMPLES, derandomize=True)


@pytest.mark.slow
def test_fuzz_methods_agree_long(request, device):
    if not _long_run_selected(request.config):
        pytest.skip("the long fuzz run: python -m pytest -m slow tests/test_fuzz.py")
    _agree(LONG_EXAMPLES // 10, derandomize=False)
