"""The default method, near-far: against NetworkX in both launch shapes, and CUDA
against the NumPy twin round for round (rounds are deterministic)."""

import networkx as nx
import numpy as np
import pytest

from graphs import assert_lengths_equal, assert_paths_valid, graph_cases, random_graph
from nx_gpusp.executor import Executor, cuda_available
from nx_gpusp.graph import CSRGraph
from nx_gpusp.solvers.sssp.near_far import near_far_sssp

CASES = graph_cases(60, seed=21)


SHAPES = {"one-block": dict(block_cap=8192), "multi-block": dict(block_cap=1, dense_fraction=0),
          "dense-hand-over": dict(block_cap=1, dense_fraction=10**9)}


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("name,G", CASES, ids=[c[0] for c in CASES])
def test_near_far_matches_networkx(device, name, G, shape):
    kw = dict(backend="gpusp", method="near-far", **SHAPES[shape])
    s = next(iter(G))
    expected = nx.single_source_dijkstra_path_length(G, s)
    assert_lengths_equal(nx.single_source_dijkstra_path_length(G, s, **kw), expected)
    dist, paths = nx.single_source_dijkstra(G, s, cutoff=8, **kw)
    assert_lengths_equal(dist, nx.single_source_dijkstra_path_length(G, s, cutoff=8))
    assert_paths_valid(G, paths, dist, s)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("seed", range(20))
def test_near_far_negative_weights(device, seed, shape):
    G = random_graph(700 + seed, negative=True, n=20, p=0.2)
    if seed % 4 == 0:
        for _, _, d in G.edges(data=True):
            d["weight"] -= 4  # most of these have negative cycles
    s = next(iter(G))
    kw = dict(backend="gpusp", method="near-far", **SHAPES[shape])
    try:
        expected = nx.single_source_bellman_ford_path_length(G, s)
    except nx.NetworkXUnbounded:
        with pytest.raises(nx.NetworkXUnbounded):
            nx.single_source_bellman_ford(G, s, **kw)
        return
    dist, paths = nx.single_source_bellman_ford(G, s, **kw)
    assert_lengths_equal(dist, expected)
    assert_paths_valid(G, paths, dist, s)


def _random_csr(seed, n, m, kind):
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.integers(0, 20, m) if kind == "int" else rng.uniform(0, 5, m)
    return CSRGraph.from_edge_arrays(n, src, dst, w, directed=bool(seed % 2))


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("block_cap", [8192, 64])
@pytest.mark.parametrize("kind", ["int", "float"])
@pytest.mark.parametrize("seed", range(3))
def test_cuda_matches_twin_round_for_round(seed, kind, block_cap):
    graph = _random_csr(seed, 20000, 80000, kind)
    out = {}
    for ex in (Executor("cuda"), Executor("cpu")):
        r = near_far_sssp(ex, graph, [0, 5], block_cap=block_cap)
        out[ex.name] = ex.to_host(r.dist), ex.to_host(r.pred), r.stats
    (d1, p1, s1), (d2, p2, s2) = out["cuda"], out["cpu"]
    np.testing.assert_array_equal(d1, d2)
    assert s1["rounds"] == s2["rounds"] and s1["near_entries"] == s2["near_entries"], (s1, s2)
    assert s1.get("dense_rounds") == s2.get("dense_rounds"), (s1, s2)
    np.testing.assert_array_equal(p1 >= 0, p2 >= 0)


def test_dense_hand_over_rule(device):
    """Harish's flag rounds take over once the frontier exceeds n / dense_fraction, on
    non-negative weights and unskewed degrees only; the answer is NetworkX's either way."""
    ex = Executor(device)
    uniform = _random_csr(3, 3000, 21000, "int")
    star = CSRGraph.from_edge_arrays(  # one vertex with every arc: skewed degrees
        3000, np.zeros(2999, np.int64), np.arange(1, 3000), np.ones(2999, np.int64))
    negative = _random_csr(4, 3000, 21000, "int")
    negative.weights[::50] = -1
    handed = near_far_sssp(ex, uniform, [0], block_cap=64, dense_fraction=16)
    assert handed.stats["dense_rounds"] > 0
    for graph in (star, negative):
        if graph is negative and graph.has_negative_self_loop:
            continue
        try:
            r = near_far_sssp(ex, graph, [0], block_cap=1, dense_fraction=10**9)
        except nx.NetworkXUnbounded:
            continue
        assert "dense_rounds" not in r.stats
    G = nx.DiGraph()
    tails = np.repeat(np.arange(uniform.n), np.diff(uniform.indptr))
    G.add_weighted_edges_from(zip(tails.tolist(), uniform.indices.tolist(),
                                  uniform.weights.tolist()))
    expected = nx.single_source_dijkstra_path_length(G, 0)
    dist = ex.to_host(handed.dist)
    assert {v: int(dist[v]) for v in expected} == expected
