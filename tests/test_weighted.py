"""Dijkstra and Bellman-Ford families against NetworkX on many random graphs, on the
NumPy twin and (marker gpu) on CUDA, through NetworkX's dispatch (backend="gpusp")."""

import networkx as nx
import pytest

from graphs import (assert_lengths_equal, assert_paths_valid, assert_valid_path,
                    graph_cases, random_graph)

CASES = graph_cases(120, seed=7)
NEGATIVE = [(f"neg{i}", random_graph(900 + i, negative=True, n=18, p=0.2,
                                      weights="int" if i % 2 else "float"))
            for i in range(30)]


def _sources(G, k=2):
    return list(G)[:k]


@pytest.mark.parametrize("name,G", CASES, ids=[c[0] for c in CASES])
def test_dijkstra_family(device, name, G):
    for s in _sources(G):
        expected = nx.single_source_dijkstra_path_length(G, s)
        got = nx.single_source_dijkstra_path_length(G, s, backend="gpusp")
        assert_lengths_equal(got, expected)
        assert list(got.values()) == sorted(got.values()), "lengths must be in distance order"
        dist, paths = nx.single_source_dijkstra(G, s, backend="gpusp")
        assert_lengths_equal(dist, expected)
        assert_paths_valid(G, paths, dist, s)
        assert_paths_valid(G, nx.single_source_dijkstra_path(G, s, backend="gpusp"), expected, s)
        for t in list(G)[-3:]:
            if t in expected:
                assert nx.dijkstra_path_length(G, s, t, backend="gpusp") == pytest.approx(expected[t])
                assert_valid_path(G, nx.dijkstra_path(G, s, t, backend="gpusp"), s, t, expected[t])
                length, path = nx.single_source_dijkstra(G, s, t, backend="gpusp")
                assert_valid_path(G, path, s, t, expected[t])
            else:
                with pytest.raises(nx.NetworkXNoPath):
                    nx.dijkstra_path_length(G, s, t, backend="gpusp")
                with pytest.raises(nx.NetworkXNoPath):
                    nx.single_source_dijkstra(G, s, t, backend="gpusp")


@pytest.mark.parametrize("name,G", CASES[:60], ids=[c[0] for c in CASES[:60]])
def test_dijkstra_cutoff_and_multisource(device, name, G):
    s = next(iter(G))
    for cutoff in (0, 3, 7.5, 20):
        assert_lengths_equal(nx.single_source_dijkstra_path_length(G, s, cutoff=cutoff, backend="gpusp"),
                             nx.single_source_dijkstra_path_length(G, s, cutoff=cutoff))
        dist, paths = nx.single_source_dijkstra(G, s, cutoff=cutoff, backend="gpusp")
        assert_lengths_equal(dist, nx.single_source_dijkstra_path_length(G, s, cutoff=cutoff))
        assert_paths_valid(G, paths, dist, s)
    sources = set(list(G)[::3])
    expected = nx.multi_source_dijkstra_path_length(G, sources)
    assert_lengths_equal(nx.multi_source_dijkstra_path_length(G, sources, backend="gpusp"), expected)
    dist, paths = nx.multi_source_dijkstra(G, sources, backend="gpusp")
    assert_lengths_equal(dist, expected)
    for t, p in paths.items():
        assert p[0] in sources
        assert_valid_path(G, p, p[0], t, expected[t])
    # sources as a one-shot iterator: read once, every one of them a source
    # (NetworkX's own `target in sources` test exhausts a generator first, and it
    # returns {}; docs/guide/semantics.md, predecessor lists and negative cycles)
    assert_lengths_equal(nx.multi_source_dijkstra_path_length(
        G, (v for v in sources), backend="gpusp"), expected)
    dist, paths = nx.multi_source_dijkstra(G, iter(sources), backend="gpusp")
    assert_lengths_equal(dist, expected)


@pytest.mark.parametrize("name,G", CASES[::2] + NEGATIVE, ids=[c[0] for c in CASES[::2] + NEGATIVE])
def test_bellman_ford_family(device, name, G):
    for s in _sources(G):
        try:
            expected = nx.single_source_bellman_ford_path_length(G, s)
        except nx.NetworkXUnbounded:
            with pytest.raises(nx.NetworkXUnbounded):
                nx.single_source_bellman_ford_path_length(G, s, backend="gpusp")
            continue
        got = nx.single_source_bellman_ford_path_length(G, s, backend="gpusp")
        assert_lengths_equal(got, expected)
        dist, paths = nx.single_source_bellman_ford(G, s, backend="gpusp")
        assert_lengths_equal(dist, expected)
        assert_paths_valid(G, paths, dist, s)
        assert_paths_valid(G, nx.single_source_bellman_ford_path(G, s, backend="gpusp"), expected, s)
        for t in list(G)[-2:]:
            if t in expected:
                assert nx.bellman_ford_path_length(G, s, t, backend="gpusp") == pytest.approx(expected[t])
                assert_valid_path(G, nx.bellman_ford_path(G, s, t, backend="gpusp"), s, t, expected[t])
            else:
                with pytest.raises(nx.NetworkXNoPath):
                    nx.bellman_ford_path_length(G, s, t, backend="gpusp")
    assert nx.negative_edge_cycle(G, backend="gpusp") == nx.negative_edge_cycle(G)


@pytest.mark.parametrize("seed", range(25))
def test_negative_cycles(device, seed):
    """Random graphs with negative arcs, many with negative cycles: verdicts agree."""
    G = random_graph(5000 + seed, n=12, p=0.25, weights="int")
    for u, v, d in G.edges(data=True):
        d["weight"] -= 8
    for s in _sources(G, 3):
        try:
            expected = nx.single_source_bellman_ford_path_length(G, s)
        except nx.NetworkXUnbounded:
            with pytest.raises(nx.NetworkXUnbounded):
                nx.single_source_bellman_ford_path_length(G, s, backend="gpusp")
            with pytest.raises(nx.NetworkXUnbounded):
                nx.single_source_bellman_ford(G, s, backend="gpusp")
        else:
            assert_lengths_equal(nx.single_source_bellman_ford_path_length(G, s, backend="gpusp"), expected)
    assert nx.negative_edge_cycle(G, backend="gpusp") == nx.negative_edge_cycle(G)


def test_zero_weight_cycles_give_trees(device):
    """Zero-weight cycles everywhere (TNTP-like): predecessor trees stay acyclic."""
    G = nx.DiGraph()
    for i in range(30):
        G.add_edge(i, (i + 1) % 30, weight=0)
        G.add_edge((i + 1) % 30, i, weight=0)
        G.add_edge(i, 100 + i, weight=i % 3)
        G.add_edge(100 + i, i, weight=0)
    for fn in (nx.single_source_dijkstra, nx.single_source_bellman_ford):
        dist, paths = fn(G, 0, backend="gpusp")
        assert_lengths_equal(dist, nx.single_source_dijkstra_path_length(G, 0))
        assert_paths_valid(G, paths, dist, 0)
