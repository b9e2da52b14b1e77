"""The three families against NetworkX on the real graphs of shared/data (rome99, NY,
TNTP, bitcoin-otc with and without potentials, the SuiteSparse and SNAP graphs), on the
twin and (marker gpu) on CUDA. Skipped with a reason when the data folder is missing."""

import networkx as nx
import numpy as np
import pytest

from graphs import assert_lengths_equal, assert_paths_valid, assert_valid_path
from nx_gpusp import datasets
from nx_gpusp.convert import to_networkx

SOURCES = 2



def _sample(items, k, seed=1):
    if len(items) <= k:
        return items
    rng = np.random.default_rng(seed)
    return [items[i] for i in rng.choice(len(items), k, replace=False)]


def _sources(G, k=SOURCES, seed=0):
    nodes = [v for v in G if G.degree(v)]
    rng = np.random.default_rng(seed)
    return [nodes[i] for i in rng.choice(len(nodes), k, replace=False)]


@pytest.mark.parametrize("name,kw,weight", [
    ("rome99", {}, "weight"),
    ("NY-synthetic", {}, "weight"),
    ("SiouxFalls", {}, "free_flow_time"),
    ("Anaheim", {}, "length"),
    ("ChicagoRegional", {}, "free_flow_time"),  # 3,650 zero-weight links
    ("Sydney", {}, "length"),
    ("minnesota", {}, "weight"),
    ("gnutella04", {}, "weight"),
])
def test_dijkstra_and_bellman_ford_on_real_graphs(device, real, name, kw, weight):
    G = real(name, **kw)
    for s in _sources(G):
        expected = nx.single_source_dijkstra_path_length(G, s, weight=weight)
        dist, paths = nx.single_source_dijkstra(G, s, weight=weight, backend="gpusp")
        assert_lengths_equal(dist, expected)
        assert set(paths) == set(dist)
        sample = _sample(list(paths), 1500)  # every path on small graphs
        assert_paths_valid(G, {t: paths[t] for t in sample}, {t: dist[t] for t in sample},
                           s, weight)
        assert_lengths_equal(
            nx.single_source_bellman_ford_path_length(G, s, weight=weight, backend="gpusp"),
            expected)
        t = list(expected)[-1]
        assert_valid_path(G, nx.bellman_ford_path(G, s, t, weight=weight, backend="gpusp"),
                          s, t, expected[t], weight)


def test_bitcoin_otc_negative_cycles(device, real):
    """Raw ratings (-10..10) have negative cycles: NetworkX and gpusp both say so."""
    G = real("bitcoin-otc")
    s = _sources(G, 1)[0]
    with pytest.raises(nx.NetworkXUnbounded):
        nx.single_source_bellman_ford_path_length(G, s)
    with pytest.raises(nx.NetworkXUnbounded):
        nx.single_source_bellman_ford_path_length(G, s, backend="gpusp")
    assert nx.negative_edge_cycle(G, backend="gpusp") is True
    with pytest.raises(ValueError, match="negative"):
        nx.single_source_dijkstra_path_length(G, s, backend="gpusp")


def test_bitcoin_otc_with_potentials(device, real):
    """Ratings shifted to 1..21, then a random potential: negative weights, no negative
    cycle, the same shortest paths; Bellman-Ford agrees with NetworkX."""
    raw = real("bitcoin-otc", as_csr=True)
    shifted = type(raw)(raw.indptr, raw.indices, raw.weights + 11, nodes=raw._nodes,
                        directed=True, weight_attr="weight")
    G = to_networkx(datasets.with_potentials(shifted, seed=3))
    assert min(w for _, _, w in G.edges(data="weight")) < 0
    assert nx.negative_edge_cycle(G, backend="gpusp") is False
    for s in _sources(G):
        expected = nx.single_source_bellman_ford_path_length(G, s)
        dist, paths = nx.single_source_bellman_ford(G, s, backend="gpusp")
        assert_lengths_equal(dist, expected)
        assert_paths_valid(G, paths, dist, s)


@pytest.mark.parametrize("name,weight", [("SiouxFalls", "free_flow_time"),
                                         ("Anaheim", "length")])
def test_floyd_warshall_on_real_graphs(device, real, name, weight):
    G = real(name)
    expected = nx.floyd_warshall_numpy(G, weight=weight)
    np.testing.assert_allclose(nx.floyd_warshall_numpy(G, weight=weight, backend="gpusp"),
                               expected, rtol=1e-12)  # FW association order: see test_floyd_warshall
    pred, dist = nx.floyd_warshall_predecessor_and_distance(G, weight=weight, backend="gpusp")
    nodes = list(G)
    for u in nodes[:5]:
        for v in nodes[-5:]:
            if u != v and dist[u][v] != float("inf"):
                assert_valid_path(G, nx.reconstruct_path(u, v, pred), u, v, dist[u][v], weight)
