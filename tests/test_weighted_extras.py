"""Predecessor lists, Goldberg-Radzik, negative cycles, bidirectional Dijkstra and the
all_shortest_paths family against NetworkX on random graphs of every kind, on the NumPy
twin and (marker gpu) on CUDA, through NetworkX's dispatch (backend="gpusp")."""

import math
import random
from collections import Counter
from itertools import islice

import networkx as nx
import pytest

from graphs import assert_lengths_equal, assert_valid_path, graph_cases, path_length, random_graph
from nx_gpusp.methods import methods_for
from nx_gpusp.results import PredecessorListMap, TreePredecessorMap

CASES = graph_cases(48, seed=17)
# exact float sums (multiples of 1/8): NetworkX's distances and ours agree bit for bit
DYADIC = [(f"dyadic{i}", random_graph(4100 + i, directed=i % 2 == 0, multigraph=i % 3 == 0,
                                      weights="none", labels=("int", "str", "tuple")[i % 3],
                                      disconnected=i % 4 == 0)) for i in range(12)]
for _name, _G in DYADIC:
    _rng = random.Random(len(_G))
    for _u, _v, _d in _G.edges(data=True):
        _d["weight"] = _rng.randint(0, 24) / 8
# negative arcs, no negative cycle (integer weights shifted by a potential); every other
# graph divided by 8, so float sums stay exact and no zero cycle rounds below zero
NEGATIVE = [(f"neg{i}", random_graph(900 + i, negative=True, n=16, p=0.25,
                                      zero_fraction=0.2 * (i % 3 == 0)))
            for i in range(16)]
for _i, (_name, _G) in enumerate(NEGATIVE):
    if _i % 2 == 0:
        for _u, _v, _d in _G.edges(data=True):
            _d["weight"] = _d["weight"] / 8


def _ids(cases):
    return [c[0] for c in cases]


def _weight_function(G, weight="weight"):
    if callable(weight):
        return weight
    if G.is_multigraph():
        return lambda u, v, d: min(a.get(weight, 1) for a in d.values())
    return lambda u, v, d: d.get(weight, 1)


def tight_predecessors(G, dist, weight="weight"):
    """{v: Counter of the tails u of v's tight in-arcs}: u reached and
    dist[u] + w(u, v) == dist[v] (the oracle for NetworkX's predecessor lists)."""
    w = _weight_function(G, weight)
    into = G._pred if G.is_directed() else G._adj
    out = {}
    for v in dist:
        tails = Counter()
        for u, d in into[v].items():
            c = w(u, v, d)
            if u in dist and c is not None and dist[u] + c == dist[v]:
                tails[u] += 1
        out[v] = tails
    return out


def counted(pred):
    return {v: Counter(p) for v, p in pred.items()}


def exact_weights(G, weight="weight"):
    """Integer (or dyadic) weights: sums are exact, so distances match bit for bit."""
    return all(float(d.get(weight, 1)) * 8 == int(float(d.get(weight, 1)) * 8)
               for _, _, d in G.edges(data=True))


def check_pred_and_dist(G, pred, dist, expected_pred, expected_dist, source, weight="weight"):
    assert isinstance(pred, PredecessorListMap) or len(G) == 1
    assert_lengths_equal(dist, expected_dist)
    assert list(pred) == list(dist), "pred and dist share their key order"
    assert next(iter(dist)) == source, "the source comes first, as in NetworkX"
    assert all(type(x) in (int, float) for x in dist.values())
    # every list is exactly the tight in-arcs of gpusp's own distances ...
    assert counted(pred) == tight_predecessors(G, dist, weight)
    # ... and NetworkX's lists where the distances are the same numbers
    if exact_weights(G, weight) or dict(dist) == dict(expected_dist):
        assert counted(pred) == counted(expected_pred)
    for v, tails in pred.items():  # tails by distance
        lengths = [dist[u] for u in tails]
        assert lengths == sorted(lengths)


# -- dijkstra_predecessor_and_distance ---------------------------------------------
@pytest.mark.parametrize("name,G", CASES + DYADIC, ids=_ids(CASES + DYADIC))
def test_dijkstra_predecessor_and_distance(device, name, G):
    for s in list(G)[:2]:
        expected = nx.dijkstra_predecessor_and_distance(G, s)
        pred, dist = nx.dijkstra_predecessor_and_distance(G, s, backend="gpusp")
        check_pred_and_dist(G, pred, dist, *expected, s)


@pytest.mark.parametrize("name,G", CASES[:16] + DYADIC[:6], ids=_ids(CASES[:16] + DYADIC[:6]))
def test_dijkstra_predecessor_cutoffs(device, name, G):
    s = next(iter(G))
    for cutoff in (0, 2, 4.5, 11, 0.0, -1, -0.5, math.inf, math.nan):
        expected = nx.dijkstra_predecessor_and_distance(G, s, cutoff=cutoff)
        pred, dist = nx.dijkstra_predecessor_and_distance(G, s, cutoff=cutoff, backend="gpusp")
        assert_lengths_equal(dist, expected[1])
        if exact_weights(G) or cutoff < 0:
            assert counted(pred) == counted(expected[0]), cutoff
        else:
            assert counted(pred) == tight_predecessors(G, dist), cutoff


def test_dijkstra_predecessor_zero_weights_and_self_loops(device):
    """Zero-weight cycles through the source and zero-weight self-loops: the source's
    own list names them, as NetworkX's does."""
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 1, 0), (1, 0, 0), (0, 0, 0), (1, 2, 3), (0, 2, 3),
                               (2, 2, 5), (2, 3, 0), (3, 2, 0)])
    for fn in (nx.dijkstra_predecessor_and_distance, nx.bellman_ford_predecessor_and_distance):
        pred, dist = fn(G, 0, backend="gpusp")
        assert counted(pred) == counted(fn(G, 0)[0])
        assert dict(dist) == fn(G, 0)[1]
    # cutoff below zero: NetworkX relaxes nothing, not even the zero-weight self-loop
    assert nx.dijkstra_predecessor_and_distance(G, 0, cutoff=-1, backend="gpusp") == \
        nx.dijkstra_predecessor_and_distance(G, 0, cutoff=-1) == ({0: []}, {0: 0})


# -- bellman_ford_predecessor_and_distance / goldberg_radzik ---------------------------
@pytest.mark.parametrize("name,G", CASES[::2] + DYADIC + NEGATIVE,
                         ids=_ids(CASES[::2] + DYADIC + NEGATIVE))
def test_bellman_ford_predecessor_and_distance(device, name, G):
    for s in list(G)[:2]:
        try:
            expected = nx.bellman_ford_predecessor_and_distance(G, s)
        except nx.NetworkXUnbounded:
            with pytest.raises(nx.NetworkXUnbounded):
                nx.bellman_ford_predecessor_and_distance(G, s, backend="gpusp")
            continue
        pred, dist = nx.bellman_ford_predecessor_and_distance(G, s, backend="gpusp")
        check_pred_and_dist(G, pred, dist, *expected, s)
        # target and heuristic change nothing
        t = list(G)[-1]
        again = nx.bellman_ford_predecessor_and_distance(G, s, t, heuristic=True,
                                                         backend="gpusp")
        assert again == (pred, dist)


def check_tree(G, pred, dist, source, weight="weight"):
    assert isinstance(pred, TreePredecessorMap) or len(G) == 1
    assert list(pred) == list(dist) and next(iter(pred)) == source
    assert pred[source] is None
    w = _weight_function(G, weight)
    for v, u in pred.items():
        if v == source:
            continue
        assert u in dist and G.has_edge(u, v), (u, v)
        assert dist[u] + w(u, v, G[u][v]) == dist[v], (u, v)
        # the chain reaches the source without a cycle
        seen, x = {v}, u
        while x != source:
            assert x not in seen
            seen.add(x)
            x = pred[x]


@pytest.mark.parametrize("name,G", CASES[::2] + DYADIC + NEGATIVE,
                         ids=_ids(CASES[::2] + DYADIC + NEGATIVE))
def test_goldberg_radzik(device, name, G):
    for s in list(G)[:2]:
        try:
            expected = nx.goldberg_radzik(G, s)
        except nx.NetworkXUnbounded:
            with pytest.raises(nx.NetworkXUnbounded):
                nx.goldberg_radzik(G, s, backend="gpusp")
            continue
        pred, dist = nx.goldberg_radzik(G, s, backend="gpusp")
        assert_lengths_equal(dist, expected[1])
        assert set(pred) == set(expected[0])
        check_tree(G, pred, dist, s)


@pytest.mark.parametrize("method", sorted(m.name for m in methods_for("sssp")
                                          if m.negative_weights))
def test_bellman_ford_methods(device, method):
    for name, G in NEGATIVE[:6]:
        s = next(iter(G))
        expected = nx.bellman_ford_predecessor_and_distance(G, s)
        pred, dist = nx.bellman_ford_predecessor_and_distance(G, s, backend="gpusp",
                                                              method=method)
        check_pred_and_dist(G, pred, dist, *expected, s)
        pred, dist = nx.goldberg_radzik(G, s, backend="gpusp", method=method)
        check_tree(G, pred, dist, s)


def test_single_node_graphs(device):
    """NetworkX returns the source alone on one node (a zero-weight self-loop included)
    after its negative self-loop check."""
    G = nx.DiGraph()
    G.add_edge("a", "a", weight=0)
    assert nx.bellman_ford_predecessor_and_distance(G, "a", backend="gpusp") == \
        ({"a": []}, {"a": 0}) == nx.bellman_ford_predecessor_and_distance(G, "a")
    assert nx.goldberg_radzik(G, "a", backend="gpusp") == ({"a": None}, {"a": 0})
    assert nx.dijkstra_predecessor_and_distance(G, "a", backend="gpusp") == \
        nx.dijkstra_predecessor_and_distance(G, "a") == ({"a": ["a"]}, {"a": 0})
    G.add_edge("a", "a", weight=-1)
    for fn in (nx.bellman_ford_predecessor_and_distance, nx.goldberg_radzik):
        with pytest.raises(nx.NetworkXUnbounded):
            fn(G, "a", backend="gpusp")
    assert nx.find_negative_cycle(G, "a", backend="gpusp") == ["a", "a"]


# -- find_negative_cycle -----------------------------------------------------------------
def check_cycle(G, cycle, source, weight="weight"):
    assert cycle[0] == cycle[-1] and len(cycle) >= 2
    assert len(set(cycle[:-1])) == len(cycle) - 1, "a simple cycle"
    w = _weight_function(G, weight)
    assert all(G.has_edge(u, v) for u, v in zip(cycle, cycle[1:])), cycle
    assert sum(w(u, v, G[u][v]) for u, v in zip(cycle, cycle[1:])) < 0, cycle
    assert nx.has_path(G, source, cycle[0])
    order = {v: i for i, v in enumerate(G)}
    assert order[cycle[0]] == min(order[v] for v in cycle), "starts at its first node"


@pytest.mark.parametrize("seed", range(30))
def test_find_negative_cycle(device, seed):
    G = random_graph(7000 + seed, n=random.Random(seed).randint(2, 18), p=0.25,
                     weights="int" if seed % 3 else "float", directed=seed % 5 != 0,
                     multigraph=seed % 4 == 0, labels=("int", "str", "tuple")[seed % 3])
    for u, v, d in G.edges(data=True):
        d["weight"] -= 7 if seed % 3 else 4.5
    for s in list(G)[:3]:
        try:
            nx.find_negative_cycle(G, s)
        except nx.NetworkXError as error:
            if "No negative cycles detected." in str(error):
                with pytest.raises(nx.NetworkXError, match="No negative cycles detected."):
                    nx.find_negative_cycle(G, s, backend="gpusp")
                continue
            # NetworkX sometimes detects a cycle it then fails to trace ("Negative cycle
            # is detected but not found"): gpusp returns it
        check_cycle(G, nx.find_negative_cycle(G, s, backend="gpusp"), s)


def test_find_negative_cycle_cases(device):
    G = nx.cycle_graph(5, create_using=nx.DiGraph())
    nx.add_cycle(G, [3, 5, 6, 7, 8, 9])
    G.add_edge(1, 2, weight=-30)
    assert nx.find_negative_cycle(G, 1, backend="gpusp") == [0, 1, 2, 3, 4, 0]
    assert nx.find_negative_cycle(G, 7, backend="gpusp") == [0, 1, 2, 3, 4, 0]
    H = nx.Graph()
    H.add_edge("b", "a", weight=-1)  # an undirected negative edge is a 2-cycle
    assert nx.find_negative_cycle(H, "a", backend="gpusp") == ["b", "a", "b"]
    # zero-weight cycles are not negative; unreachable negative cycles are not found
    Z = nx.DiGraph([(0, 1, {"weight": 0}), (1, 0, {"weight": 0}), (2, 3, {"weight": -1}),
                    (3, 2, {"weight": -1})])
    with pytest.raises(nx.NetworkXError, match="No negative cycles detected."):
        nx.find_negative_cycle(Z, 0, backend="gpusp")
    check_cycle(Z, nx.find_negative_cycle(Z, 3, backend="gpusp"), 3)
    with pytest.raises(nx.NodeNotFound, match="Source 9 not in G"):
        nx.find_negative_cycle(Z, 9, backend="gpusp")
    # a long cycle, found by the check after round n
    L = nx.cycle_graph(300, create_using=nx.DiGraph())
    L.add_edge(299, 0, weight=-300)
    cycle = nx.find_negative_cycle(L, 5, backend="gpusp")
    assert cycle == list(range(300)) + [0]


# -- bidirectional_dijkstra --------------------------------------------------------------
@pytest.mark.parametrize("name,G", CASES + DYADIC, ids=_ids(CASES + DYADIC))
def test_bidirectional_dijkstra(device, name, G):
    nodes = list(G)
    for s, t in [(nodes[0], nodes[-1]), (nodes[-1], nodes[0]), (nodes[0], nodes[0]),
                 (nodes[len(nodes) // 2], nodes[-2 if len(nodes) > 1 else 0])]:
        try:
            length, path = nx.bidirectional_dijkstra(G, s, t)
        except nx.NetworkXNoPath:
            with pytest.raises(nx.NetworkXNoPath, match="No path between"):
                nx.bidirectional_dijkstra(G, s, t, backend="gpusp")
            continue
        got_length, got_path = nx.bidirectional_dijkstra(G, s, t, backend="gpusp")
        assert got_length == pytest.approx(length, rel=1e-12)
        assert_valid_path(G, got_path, s, t, got_length)


def test_bidirectional_dijkstra_cases(device):
    G = nx.MultiGraph()
    G.add_edge("a", "b", weight=10)
    G.add_edge("a", "b", weight=100)
    assert nx.bidirectional_dijkstra(G, "a", "b", backend="gpusp") == (10, ["a", "b"])
    assert nx.bidirectional_dijkstra(G, "a", "a", backend="gpusp") == (0, ["a"])
    with pytest.raises(nx.NodeNotFound, match="Source z is not in G"):
        nx.bidirectional_dijkstra(G, "z", "a", backend="gpusp")
    with pytest.raises(nx.NodeNotFound, match="Target z is not in G"):
        nx.bidirectional_dijkstra(G, "a", "z", backend="gpusp")
    G.add_node("c")
    with pytest.raises(nx.NetworkXNoPath, match="No path between a and c."):
        nx.bidirectional_dijkstra(G, "a", "c", backend="gpusp")
    G.add_edge("b", "c", weight=-1)
    with pytest.raises(ValueError, match="negative"):
        nx.bidirectional_dijkstra(G, "a", "c", backend="gpusp")
    for method in ("near-far", "delta-stepping", "frontier"):
        D = random_graph(5, n=30, p=0.2)
        s, t = 0, 29
        expected = nx.bidirectional_dijkstra(D, s, t)[0] if nx.has_path(D, s, t) else None
        if expected is not None:
            length, path = nx.bidirectional_dijkstra(D, s, t, backend="gpusp", method=method)
            assert length == expected
            assert_valid_path(D, path, s, t, length)


# -- the all_shortest_paths family -----------------------------------------------------
PATH_CASES = graph_cases(36, seed=23, zero_fraction=0.0) + DYADIC[:8]
LIMIT = 3000  # paths compared per target (zero-weight cycles can make many)


def same_paths(got, expected):
    assert Counter(map(tuple, got)) == Counter(map(tuple, expected))


def _methods(G):
    out = [(None, "dijkstra"), ("weight", "dijkstra"), ("weight", "bellman-ford"),
           ("weight", "unweighted")]
    return out


@pytest.mark.parametrize("name,G", PATH_CASES, ids=_ids(PATH_CASES))
def test_all_shortest_paths(device, name, G):
    nodes = list(G)
    for weight, method in _methods(G):
        for s, t in [(nodes[0], nodes[-1]), (nodes[-1], nodes[0]), (nodes[0], nodes[0])]:
            try:
                expected = list(islice(nx.all_shortest_paths(G, s, t, weight, method), LIMIT))
            except nx.NetworkXNoPath:
                got = nx.all_shortest_paths(G, s, t, weight, method, backend="gpusp")
                with pytest.raises(nx.NetworkXNoPath, match="cannot be reached"):
                    next(got)
                continue
            got = list(islice(nx.all_shortest_paths(G, s, t, weight, method, backend="gpusp"),
                              LIMIT))
            if len(expected) < LIMIT:
                same_paths(got, expected)
            w = None if weight is None or method == "unweighted" else weight
            length = path_length(G, expected[0], w) if w else len(expected[0]) - 1
            for p in got:
                assert_valid_path(G, p, s, t, length, w or "no weight attribute")


@pytest.mark.parametrize("name,G", PATH_CASES[::2], ids=_ids(PATH_CASES[::2]))
def test_single_source_all_shortest_paths(device, name, G):
    s = next(iter(G))
    for weight, method in _methods(G):
        expected = dict(nx.single_source_all_shortest_paths(G, s, weight, method))
        got = nx.single_source_all_shortest_paths(G, s, weight, method, backend="gpusp")
        first = next(got)
        assert first[0] == s
        got = dict([first, *got])
        assert set(got) == set(expected)
        for t, paths in expected.items():
            same_paths(got[t], paths)


@pytest.mark.parametrize("name,G", PATH_CASES[:12:3], ids=_ids(PATH_CASES[:12:3]))
def test_all_pairs_all_shortest_paths(device, name, G):
    for weight, method in _methods(G)[:3]:
        expected = dict(nx.all_pairs_all_shortest_paths(G, weight, method))
        got = nx.all_pairs_all_shortest_paths(G, weight, method, backend="gpusp")
        rows = list(got)
        assert [v for v, _ in rows] == list(G), "rows in node order"
        for v, row in rows:
            assert set(row) == set(expected[v])
            for t, paths in expected[v].items():
                same_paths(row[t], paths)


def test_all_shortest_paths_repeats_and_zero_weights(device):
    """NetworkX's walk yields a path again after each predecessor of a source (zero-weight
    cycles through the source); gpusp walks the same lists the same way."""
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 1, 0), (1, 0, 0), (1, 2, 1), (0, 2, 1), (2, 3, 0),
                               (3, 2, 0), (3, 4, 2), (2, 4, 2)])
    for method in ("dijkstra", "bellman-ford"):
        for t in G:
            assert list(nx.all_shortest_paths(G, 0, t, "weight", method, backend="gpusp")) == \
                list(nx.all_shortest_paths(G, 0, t, "weight", method))
        assert dict(nx.single_source_all_shortest_paths(G, 0, "weight", method,
                                                        backend="gpusp")) == \
            dict(nx.single_source_all_shortest_paths(G, 0, "weight", method))


def test_all_shortest_paths_gpusp_methods(device):
    G = random_graph(31, n=25, p=0.2, weights="int")
    s, t = 0, 24
    expected = list(nx.all_shortest_paths(G, s, t, "weight")) if nx.has_path(G, s, t) else []
    for method in ("near-far", "delta-stepping", "frontier", "bf-flag"):
        got = nx.all_shortest_paths(G, s, t, "weight", method, backend="gpusp")
        if expected:
            same_paths(list(got), expected)
    U = random_graph(32, n=25, p=0.15, directed=False)
    for method in ("direction-optimizing", "top-down", "near-far"):
        same_paths(list(nx.all_shortest_paths(U, 0, 24, None, method, backend="gpusp")),
                   list(nx.all_shortest_paths(U, 0, 24)))


def test_all_shortest_paths_errors(device):
    G = nx.path_graph(4)
    G.add_node(9)
    # all_shortest_paths: NetworkX checks the method and the source when called ...
    with pytest.raises(ValueError, match="method not supported: SPAM"):
        nx.all_shortest_paths(G, 0, 3, weight="weight", method="SPAM", backend="gpusp")
    with pytest.raises(ValueError, match="method not supported: None"):
        nx.all_shortest_paths(G, 0, 3, weight="weight", method=None, backend="gpusp")
    with pytest.raises(nx.NodeNotFound, match="Node 7 is not found in the graph"):
        nx.all_shortest_paths(G, 7, 3, weight="weight", backend="gpusp")
    with pytest.raises(nx.NodeNotFound, match="Source 7 not in G"):
        nx.all_shortest_paths(G, 7, 3, backend="gpusp")
    # ... and the target when read
    for target in (9, "absent"):
        paths = nx.all_shortest_paths(G, 0, target, backend="gpusp")
        with pytest.raises(nx.NetworkXNoPath,
                           match=f"Target {target} cannot be reached from given sources"):
            next(paths)
    # weight=None ignores the method, as NetworkX does
    assert list(nx.all_shortest_paths(G, 0, 2, method="SPAM", backend="gpusp")) == [[0, 1, 2]]
    # single_source_all_shortest_paths is a generator: every error comes when read
    for kw, error in [({"weight": "weight", "method": "SPAM"}, ValueError),
                      ({"weight": "weight"}, nx.NodeNotFound), ({}, nx.NodeNotFound)]:
        source = 0 if "method" in kw else 7
        gen = nx.single_source_all_shortest_paths(G, source, backend="gpusp", **kw)
        with pytest.raises(error):
            next(gen)
    gen = nx.all_pairs_all_shortest_paths(G, "weight", "SPAM", backend="gpusp")
    with pytest.raises(ValueError, match="method not supported"):
        next(gen)
    # no node, no search: NetworkX raises nothing, even for the method
    assert list(nx.all_pairs_all_shortest_paths(nx.Graph(), "weight", "SPAM",
                                                backend="gpusp")) == []
    N = nx.DiGraph([(0, 1, {"weight": -1}), (1, 0, {"weight": -1})])
    with pytest.raises(ValueError, match="negative"):
        nx.all_shortest_paths(N, 0, 1, weight="weight", backend="gpusp")
    with pytest.raises(nx.NetworkXUnbounded):
        nx.all_shortest_paths(N, 0, 1, weight="weight", method="bellman-ford", backend="gpusp")
    gen = nx.single_source_all_shortest_paths(N, 0, weight="weight", backend="gpusp")
    with pytest.raises(ValueError, match="negative"):
        next(gen)


# -- errors, laziness, direct calls --------------------------------------------------------
@pytest.mark.parametrize("fn,message", [
    (nx.dijkstra_predecessor_and_distance, "Node 7 is not found in the graph"),
    (nx.bellman_ford_predecessor_and_distance, "Node 7 is not found in the graph"),
    (nx.goldberg_radzik, "Node 7 is not found in the graph"),
    (nx.find_negative_cycle, "Source 7 not in G"),
])
def test_missing_source(device, fn, message):
    G = nx.path_graph(3)
    with pytest.raises(nx.NodeNotFound, match=message):
        fn(G, 7, backend="gpusp")
    with pytest.raises(nx.NodeNotFound):
        fn(G, 7)


def test_negative_weights_and_cycles(device):
    G = nx.DiGraph([(0, 1, {"weight": 2}), (1, 2, {"weight": -1})])
    with pytest.raises(ValueError, match="negative"):
        nx.dijkstra_predecessor_and_distance(G, 0, backend="gpusp")
    G.add_edge(2, 0, weight=-2)
    for fn in (nx.bellman_ford_predecessor_and_distance, nx.goldberg_radzik):
        with pytest.raises(nx.NetworkXUnbounded):
            fn(G, 0, backend="gpusp")
    G.add_edge(5, 5, weight=-1)  # a negative self-loop anywhere, as NetworkX checks
    G.add_edge(2, 0, weight=10)
    for fn in (nx.bellman_ford_predecessor_and_distance, nx.goldberg_radzik):
        with pytest.raises(nx.NetworkXUnbounded):
            fn(G, 0)
        with pytest.raises(nx.NetworkXUnbounded):
            fn(G, 0, backend="gpusp")


def test_plain_dicts_when_not_lazy(device):
    G = random_graph(3, n=15, p=0.3)
    with nx.config.backends.gpusp(lazy_results=False):
        pred, dist = nx.dijkstra_predecessor_and_distance(G, 0, backend="gpusp")
        assert type(pred) is dict and type(dist) is dict
        tree, _ = nx.goldberg_radzik(G, 0, backend="gpusp")
        assert type(tree) is dict
        row = next(nx.all_pairs_all_shortest_paths(G, backend="gpusp"))[1]
        assert type(row) is dict
    assert pred == nx.dijkstra_predecessor_and_distance(G, 0, backend="gpusp")[0]


def test_lazy_reads(device):
    """Reading one entry computes that entry; equality, dict(), repr and pickling work."""
    import pickle

    G = random_graph(4, n=20, p=0.3, labels="str")
    pred, dist = nx.dijkstra_predecessor_and_distance(G, "n0", backend="gpusp")
    expected = nx.dijkstra_predecessor_and_distance(G, "n0")
    v = list(expected[1])[-1]
    assert Counter(pred[v]) == Counter(expected[0][v])
    assert pred.get("absent", "x") == "x" and "absent" not in pred
    with pytest.raises(KeyError):
        pred["absent"]
    assert dict(pickle.loads(pickle.dumps(pred))) == dict(pred)
    assert "PredecessorListMap" in repr(pred)
    row = dict(nx.all_pairs_all_shortest_paths(G, backend="gpusp"))["n0"]
    assert Counter(map(tuple, row[v])) == \
        Counter(map(tuple, nx.all_shortest_paths(G, "n0", v)))


def test_direct_backend_calls():
    """The backend functions take a NetworkX graph directly too."""
    from nx_gpusp.interface import BackendInterface as B

    with nx.config.backends.gpusp(device="cpu"):
        G = random_graph(6, n=12, p=0.3)
        assert B.dijkstra_predecessor_and_distance(G, 0) == \
            nx.dijkstra_predecessor_and_distance(G, 0)
        assert B.bidirectional_dijkstra(G, 0, 0) == (0, [0])
        same_paths(B.all_shortest_paths(G, 0, 3, "weight"),
                   nx.all_shortest_paths(G, 0, 3, "weight")) if nx.has_path(G, 0, 3) else None


# -- real graphs ---------------------------------------------------------------------------

@pytest.mark.parametrize("name,weight", [("rome99", "weight"),
                                         ("ChicagoRegional", "free_flow_time")])
def test_real_graphs(device, real, name, weight):
    """rome99 (integer weights, many ties) and ChicagoRegional (thousands of zero-weight
    links): predecessor lists equal NetworkX's, all shortest paths to sampled targets."""
    G = real(name)
    s = next(v for v in G if G.degree(v))
    expected = nx.dijkstra_predecessor_and_distance(G, s, weight=weight)
    pred, dist = nx.dijkstra_predecessor_and_distance(G, s, weight=weight, backend="gpusp")
    check_pred_and_dist(G, pred, dist, *expected, s, weight)
    targets = list(expected[1])[-3:]
    for t in targets:
        want = list(islice(nx.all_shortest_paths(G, s, t, weight), LIMIT))
        if len(want) < LIMIT:
            same_paths(nx.all_shortest_paths(G, s, t, weight, backend="gpusp"), want)
    length, path = nx.bidirectional_dijkstra(G, s, targets[-1], weight=weight, backend="gpusp")
    assert length == pytest.approx(expected[1][targets[-1]], rel=1e-12)
    assert_valid_path(G, path, s, targets[-1], length, weight)


def test_real_negative_weights(device, real):
    """bitcoin-otc's raw ratings hold negative cycles (a valid one is found); shifted by
    a potential they hold none, and Bellman-Ford's lists equal NetworkX's."""
    from nx_gpusp import datasets
    from nx_gpusp.convert import to_networkx

    G = real("bitcoin-otc")
    s = next(v for v in G if G.out_degree(v))
    check_cycle(G, nx.find_negative_cycle(G, s, backend="gpusp"), s)
    raw = real("bitcoin-otc", as_csr=True)
    shifted = type(raw)(raw.indptr, raw.indices, raw.weights + 11, nodes=raw._nodes,
                        directed=True, weight_attr="weight")
    H = to_networkx(datasets.with_potentials(shifted, seed=3))
    expected = nx.bellman_ford_predecessor_and_distance(H, s)
    check_pred_and_dist(H, *nx.bellman_ford_predecessor_and_distance(H, s, backend="gpusp"),
                        *expected, s)
    pred, dist = nx.goldberg_radzik(H, s, backend="gpusp")
    assert_lengths_equal(dist, expected[1])
    check_tree(H, pred, dist, s)
    with pytest.raises(nx.NetworkXError):
        nx.find_negative_cycle(H, s, backend="gpusp")


# -- the solvers, on each device -----------------------------------------------------------
def test_tight_arc_dag_refuses_int32_overflow_on_the_device(monkeypatch):
    """The device's tight-arc DAG sorts arc positions as int32: a graph of 2**31 arcs
    gets a MemoryError that names the way out, before any array is made."""
    from types import SimpleNamespace

    from nx_gpusp.executor import Executor
    from nx_gpusp.solvers.sssp.tight_arcs import tight_arc_dag

    ex = Executor("cpu")
    monkeypatch.setattr(type(ex), "is_cuda", property(lambda self: True))
    with pytest.raises(MemoryError, match="device='cpu'"):
        tight_arc_dag(ex, SimpleNamespace(n=3, m=2**31), None)


@pytest.mark.parametrize("seed", range(12))
def test_tight_arc_dag_solver(device, seed):
    """tight_arc_dag on the device: exactly the tight in-arcs of each vertex, rows by
    (tail distance, tail index), int and float distances, unreached tails left out."""
    import numpy as np

    from nx_gpusp.convert import from_networkx
    from nx_gpusp.algorithms.common import configured_executor
    from nx_gpusp.graph import distance_inf
    from nx_gpusp.solvers.sssp.tight_arcs import tight_arc_dag

    G = random_graph(300 + seed, n=40, p=0.15, weights="int" if seed % 2 else "none",
                     zero_fraction=0.3, directed=seed % 3 != 0, disconnected=True)
    graph = from_networkx(G, "weight")
    rng = np.random.default_rng(seed)
    dist = rng.integers(0, 6, graph.n).astype(np.int64)
    dist[rng.random(graph.n) < 0.2] = distance_inf(np.int64)
    if seed % 4 == 0:
        dist = np.where(dist == distance_inf(np.int64), np.inf, dist / 2.0)
        graph = type(graph)(graph.indptr, graph.indices, graph.weights / 2.0,
                            directed=graph.directed)
    ex = configured_executor()
    indptr, tails = tight_arc_dag(ex, graph, ex.asarray(dist))
    assert indptr.dtype == np.int64 and tails.dtype == np.int32 and indptr[-1] == len(tails)
    inf = distance_inf(dist.dtype)
    arc_tails = np.repeat(np.arange(graph.n), np.diff(graph.indptr))
    for v in range(graph.n):
        expect = sorted((dist[u], u) for u, h, w in zip(arc_tails, graph.indices, graph.weights)
                        if h == v and dist[u] != inf and dist[v] != inf and dist[u] + w == dist[v])
        assert [(dist[u], u) for u in tails[indptr[v]:indptr[v + 1]]] == expect, v


@pytest.mark.parametrize("seed", range(12))
def test_negative_cycle_solver(device, seed):
    """negative_cycle on the device: a cycle of arcs, negative, reachable, from its
    smallest vertex; None without a reachable negative cycle."""
    import numpy as np

    from nx_gpusp.convert import from_networkx
    from nx_gpusp.algorithms.common import configured_executor
    from nx_gpusp.solvers.sssp.negative_cycle import negative_cycle

    G = random_graph(500 + seed, n=30, p=0.12, weights="int")
    for _, _, d in G.edges(data=True):
        d["weight"] -= 4 + seed % 3
    graph = from_networkx(G, "weight")
    cycle = negative_cycle(configured_executor(), graph, 0)
    try:
        nx.find_negative_cycle(G, 0)
        has_cycle = True
    except nx.NetworkXError as error:
        has_cycle = "No negative cycles" not in str(error)
    assert (cycle is not None) == has_cycle
    if cycle is not None:
        assert cycle[0] == cycle[-1] == min(cycle)
        arcs = {(u, v): w for u, v, w in zip(np.repeat(np.arange(graph.n), np.diff(graph.indptr)),
                                              graph.indices, graph.weights)}
        assert sum(arcs[(u, v)] for u, v in zip(cycle, cycle[1:])) < 0
        assert nx.has_path(G, 0, cycle[0])
