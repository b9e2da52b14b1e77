"""Determinism: every method of the registry, run again and again on the same input,
gives the same answer each time, and NetworkX's. Each run converts a fresh copy of the
graph (its first call: conversion, upload and the derived arrays made anew), the graphs
hold self-loops, parallel arcs and zero weights, and a second test runs several
threads, each on a non-blocking stream of its own, on one converted graph. On CUDA
(marker gpu) this is the stress that a race between streams or blocks fails (an
apsp-concurrent run once read a graph whose upload, queued on another stream, was
still in flight); the twin runs it too, fewer times."""

import threading

import networkx as nx
import pytest

from graphs import assert_lengths_equal, assert_paths_valid, plain, random_graph
from nx_gpusp.methods import methods_for

REPEATS = {"cpu": 2, "cuda": 5}


def _graphs():
    """Small graphs with what races and ties feed on: self-loops, parallel arcs, zero
    weights, a second component, and one large enough that its upload takes a while."""
    multi = random_graph(71, n=40, p=0.15, multigraph=True, zero_fraction=0.3)
    for v in list(multi)[:5]:
        multi.add_edge(v, v, weight=2)
    undirected = random_graph(72, n=35, p=0.15, directed=False, multigraph=True,
                              zero_fraction=0.2, disconnected=True, labels="str")
    large = random_graph(73, n=400, p=0.01, zero_fraction=0.1)
    return [("multi", multi), ("undirected", undirected), ("large", large)]


GRAPHS = _graphs()
NEGATIVE = random_graph(74, n=40, p=0.15, negative=True, multigraph=True)


def _copy(G):
    """A fresh graph equal to G (nothing converted cached on it)."""
    return G.copy()


def _sssp_call(method):
    """The NetworkX call that runs ``method`` of the "sssp" problem: lengths and paths."""
    if method.negative_weights:
        return lambda G, s: nx.single_source_bellman_ford(G, s, backend="gpusp",
                                                          method=method.name)
    return lambda G, s: nx.single_source_dijkstra(G, s, backend="gpusp", method=method.name)


def _check_sssp(G, s, got):
    lengths, paths = got
    expected = nx.single_source_bellman_ford_path_length(G, s)
    assert_lengths_equal(lengths, expected)
    assert_paths_valid(G, paths, expected, s)


def _repeat(device, G, call, check):
    """``call`` on fresh copies of G, REPEATS times: every answer the first one, which
    ``check`` accepts."""
    first = None
    for _ in range(REPEATS[device]):
        H = _copy(G)
        got = plain(call(H))
        if first is None:
            check(H, got)
            first = got
        else:
            assert got == first


SSSP = [m for m in methods_for("sssp") if not m.unit_weights_only]


@pytest.mark.parametrize("method", SSSP, ids=[m.name for m in SSSP])
@pytest.mark.parametrize("case", GRAPHS, ids=[c[0] for c in GRAPHS])
def test_sssp_methods_repeat(device, method, case):
    _, G = case
    if method.iterations_per_vertex and G.number_of_nodes() > 100:
        pytest.skip("n rounds or launches per run: the small graphs suffice")
    s = next(iter(G))
    call = _sssp_call(method)
    _repeat(device, G, lambda H: call(H, s), lambda H, got: _check_sssp(H, s, got))


NEGATIVE_SSSP = [m for m in SSSP if m.negative_weights]


@pytest.mark.parametrize("method", NEGATIVE_SSSP, ids=[m.name for m in NEGATIVE_SSSP])
def test_negative_weight_methods_repeat(device, method):
    s = next(iter(NEGATIVE))
    call = _sssp_call(method)
    _repeat(device, NEGATIVE, lambda H: call(H, s), lambda H, got: _check_sssp(H, s, got))


BFS = [m.name for m in methods_for("bfs")]


@pytest.mark.parametrize("method", BFS)
@pytest.mark.parametrize("case", GRAPHS, ids=[c[0] for c in GRAPHS])
def test_bfs_methods_repeat(device, method, case):
    _, G = case
    s = next(iter(G))

    def call(H):
        return (nx.single_source_shortest_path_length(H, s, backend="gpusp", method=method),
                nx.single_source_shortest_path(H, s, backend="gpusp", method=method))

    def check(H, got):
        expected = nx.single_source_shortest_path_length(H, s)
        assert got[0] == expected
        assert_paths_valid(H, got[1], expected, s, weight=None)

    _repeat(device, G, call, check)


ALL_PAIRS = [m for m in methods_for("all-pairs")]


@pytest.mark.parametrize("method", ALL_PAIRS, ids=[m.name for m in ALL_PAIRS])
@pytest.mark.parametrize("case", GRAPHS, ids=[c[0] for c in GRAPHS])
def test_all_pairs_methods_repeat(device, method, case):
    """Weighted rows with paths (where the method takes weights) and hop counts, as the
    reported failures were: apsp-concurrent's unweighted rows on a graph's first call."""
    _, G = case
    if method.iterations_per_vertex and G.number_of_nodes() > 100:
        pytest.skip("n array scans per source thread: the small graphs suffice")

    def call(H):
        hops = dict(nx.all_pairs_shortest_path_length(H, backend="gpusp", method=method.name))
        if method.unit_weights_only:
            return hops
        return hops, dict(nx.all_pairs_dijkstra(H, backend="gpusp", method=method.name))

    def check(H, got):
        hops = got if method.unit_weights_only else got[0]
        assert hops == dict(nx.all_pairs_shortest_path_length(H))
        if method.unit_weights_only:
            return
        expected = dict(nx.all_pairs_dijkstra_path_length(H))
        for s, (lengths, paths) in got[1].items():
            assert_lengths_equal(lengths, expected[s])
            assert_paths_valid(H, paths, expected[s], s)

    _repeat(device, G, call, check)


BETWEENNESS_GRAPHS = [
    ("int", random_graph(75, n=60, p=0.08, weights="int")),
    ("float-undirected", random_graph(76, n=60, p=0.08, directed=False, weights="float",
                                      disconnected=True)),
]


@pytest.mark.parametrize("case", BETWEENNESS_GRAPHS, ids=[c[0] for c in BETWEENNESS_GRAPHS])
def test_weighted_betweenness_repeat(device, case):
    """Weighted vertex and edge betweenness and load (a warp per source over each
    distance row, the arcs' sums over the sources in order): the same floats each run."""
    _, G = case
    subset = list(G)[:10], list(G)[5:40]

    def call(H):
        return (nx.betweenness_centrality(H, weight="weight", backend="gpusp"),
                nx.edge_betweenness_centrality(H, weight="weight", backend="gpusp"),
                nx.edge_betweenness_centrality_subset(H, *subset, weight="weight",
                                                      backend="gpusp"),
                nx.load_centrality(H, weight="weight", backend="gpusp"))

    def check(H, got):
        expected = (nx.betweenness_centrality(H, weight="weight"),
                    nx.edge_betweenness_centrality(H, weight="weight"),
                    nx.edge_betweenness_centrality_subset(H, *subset, weight="weight"),
                    nx.load_centrality(H, weight="weight"))
        for ours, theirs in zip(got, expected):
            assert list(ours) == list(theirs)
            assert all(ours[k] == pytest.approx(theirs[k], rel=1e-9, abs=1e-12)
                       for k in theirs)

    _repeat(device, G, call, check)


FLOYD_WARSHALL = [m.name for m in methods_for("floyd-warshall")]


@pytest.mark.parametrize("method", FLOYD_WARSHALL)
@pytest.mark.parametrize("case", GRAPHS[:2], ids=[c[0] for c in GRAPHS[:2]])
def test_floyd_warshall_methods_repeat(device, method, case):
    _, G = case

    def check(H, got):
        expected = nx.floyd_warshall(H)
        assert {u: dict(row) for u, row in got.items()} == {
            u: dict(row) for u, row in expected.items()}

    _repeat(device, G, lambda H: nx.floyd_warshall(H, backend="gpusp", method=method), check)


THREADED = ["near-far", "frontier", "lbr", "delta-stepping", "phast"]


@pytest.mark.parametrize("method", THREADED)
def test_threads_share_a_converted_graph(device, method):
    """Four threads, each on a non-blocking stream of its own (on CUDA), call on one
    graph converted by none of them yet: every answer NetworkX's."""
    G = _copy(GRAPHS[2][1])
    sources = list(G)[:8]
    expected = {s: nx.single_source_dijkstra_path_length(G, s) for s in sources}

    def call(k, rep):
        s = sources[(k + rep) % len(sources)]
        got = nx.single_source_dijkstra_path_length(G, s, backend="gpusp", method=method)
        return (k, s), plain(got) == expected[s]

    _in_threads(device, call)


def _in_threads(device, call, threads=4):
    """``call(k, rep)`` -> (what was asked, whether the answer was right), REPEATS times
    in each of ``threads`` threads, each on a non-blocking stream of its own on CUDA:
    no call raises and every answer is right."""
    wrong, errors = [], []

    def work(k):
        try:
            with _own_stream(device):
                for rep in range(REPEATS[device]):
                    asked, right = call(k, rep)
                    if not right:
                        wrong.append(asked)
        except Exception as exc:  # noqa: BLE001  (reported by the assertion below)
            errors.append(exc)

    running = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    for t in running:
        t.start()
    for t in running:
        t.join()
    assert not errors
    assert not wrong


def _own_stream(device):
    if device == "cuda":
        import cupy

        return cupy.cuda.Stream(non_blocking=True)
    import contextlib

    return contextlib.nullcontext()


# -- the failures reported of apsp-concurrent on CUDA (first calls of fresh graphs) -------
def _reported_digraph():
    G = nx.DiGraph()
    G.add_nodes_from(["n0", "n1", "n2", "n3"])
    G.add_edges_from([("n0", "n1", {"weight": 10.83}), ("n0", "n0", {"weight": -3.7}),
                      ("n2", "n3", {"weight": 3.7}), ("n3", "n3", {})])
    return G


def _reported_multigraph():
    G = nx.MultiGraph()
    G.add_nodes_from([(0, "0"), (1, "1"), (0, "2"), (1, "3")])
    G.add_edges_from([((1, "1"), (1, "3"), {}), ((1, "1"), (1, "3"), {}),
                      ((1, "1"), (0, "2"), {})])
    return G


def test_apsp_concurrent_hop_counts_on_a_first_call(device):
    for _ in range(REPEATS[device] * 4):
        G = _reported_digraph()
        got = dict(nx.all_pairs_shortest_path_length(G, backend="gpusp",
                                                     method="apsp-concurrent"))
        assert plain(got) == dict(nx.all_pairs_shortest_path_length(G))


def test_apsp_concurrent_global_efficiency_on_a_first_call(device):
    for _ in range(REPEATS[device] * 4):
        G = _reported_multigraph()
        got = nx.global_efficiency(G, backend="gpusp", method="apsp-concurrent")
        assert got == pytest.approx(nx.global_efficiency(G), rel=1e-12)


def test_apsp_concurrent_johnson_paths_on_a_first_call(device):
    for _ in range(REPEATS[device] * 4):
        G = nx.Graph([("n0", "n1", {"weight": 2}), ("n1", "n2", {"weight": 1}),
                      ("n2", "n3", {"weight": 4}), ("n1", "n3", {"weight": 7}),
                      ("n3", "n4", {"weight": 0})])
        got = nx.johnson(G, backend="gpusp", method="apsp-concurrent")
        expected = nx.all_pairs_dijkstra_path_length(G)
        for s, lengths in expected:
            assert_paths_valid(G, got[s], lengths, s)


def test_threads_share_batched_phast(device):
    """Four threads, each on a stream of its own, run phast-batched rows on one graph
    (one working block kept with its hierarchy, taken in turn): NetworkX's rows each
    time."""
    G = _copy(GRAPHS[2][1])
    expected = dict(nx.all_pairs_dijkstra_path_length(G))

    def call(k, _rep):
        got = nx.all_pairs_dijkstra_path_length(G, backend="gpusp", method="phast-batched",
                                                batch=64)
        return k, plain(dict(got)) == expected

    _in_threads(device, call)
