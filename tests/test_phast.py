"""Method "phast" (a contraction hierarchy, then PHAST's sweeps) against NetworkX on
random integer-weighted graphs, with cores from none to the whole graph, and its
refusals; its kernels against their NumPy twins on the GPU."""

import random

import networkx as nx
import numpy as np
import pytest
from graphs import assert_lengths_equal, assert_paths_valid, random_graph, random_level_pulls

from nx_gpusp.convert import from_networkx
from nx_gpusp.executor import Executor, cuda_available
from nx_gpusp.graph import distance_inf
from nx_gpusp.solvers.sssp.phast import contraction_hierarchy

CORES = [0, 1, 4, 2048]  # every vertex contracted, ..., the whole graph a core


def _cases(count, seed):
    out = []
    for i in range(count):
        kind = ["int", "none", "int"][i % 3]
        G = random_graph(seed + i, directed=bool(i % 2), multigraph=i % 5 == 0,
                         weights=kind, zero_fraction=0.3 if i % 4 == 0 else 0.0,
                         labels=["int", "str", "tuple"][i % 3], disconnected=i % 6 == 0)
        out.append(G)
    return out


CASES = _cases(36, 300)


@pytest.mark.parametrize("core_size", CORES)
def test_lengths_and_paths(device, core_size):
    for G in CASES:
        s = next(iter(G), None)
        if s is None:
            continue
        expected = nx.single_source_dijkstra_path_length(G, s)
        got = nx.single_source_dijkstra_path_length(G, s, backend="gpusp", method="phast",
                                                    core_size=core_size)
        assert_lengths_equal(got, expected)
        assert list(got.values()) == sorted(got.values())
        dist, paths = nx.single_source_dijkstra(G, s, backend="gpusp", method="phast",
                                                core_size=core_size)
        assert_lengths_equal(dist, expected)
        assert_paths_valid(G, paths, dist, s)


@pytest.mark.parametrize("core_size", [0, 3])
def test_cutoff_and_multisource(device, core_size):
    for G in CASES[:18]:
        nodes = list(G)
        if not nodes:
            continue
        for cutoff in (0, 5, 12.5):
            assert_lengths_equal(
                nx.single_source_dijkstra_path_length(G, nodes[0], cutoff=cutoff,
                                                      backend="gpusp", method="phast",
                                                      core_size=core_size),
                nx.single_source_dijkstra_path_length(G, nodes[0], cutoff=cutoff))
        sources = set(nodes[::4])
        assert_lengths_equal(
            nx.multi_source_dijkstra_path_length(G, sources, backend="gpusp",
                                                 method="phast", core_size=core_size),
            nx.multi_source_dijkstra_path_length(G, sources))


def test_grid_with_zero_weights_and_self_loops(device):
    """A road-like grid (contracts over many levels) with zero-weight arcs, self-loops
    and huge integer weights (exact in int64, not in float64)."""
    rng = random.Random(5)
    G = nx.grid_2d_graph(14, 14).to_directed()
    for u, v in G.edges:
        G[u][v]["weight"] = rng.choice([0, 1, 3, 10]) + (1 << 54 if rng.random() < 0.1 else 0)
    G.add_edge((0, 0), (0, 0), weight=2)
    for core_size in (0, 10):
        for s in [(0, 0), (7, 3)]:
            expected = nx.single_source_dijkstra_path_length(G, s)
            got = nx.single_source_dijkstra_path_length(G, s, backend="gpusp",
                                                        method="phast", core_size=core_size)
            assert dict(got) == expected


def test_refusals(device):
    G = random_graph(3, n=12, p=0.4, weights="float")
    with pytest.raises(ValueError, match="needs integer weights"):
        nx.single_source_dijkstra_path_length(G, 0, backend="gpusp", method="phast")
    G = random_graph(4, n=12, p=0.4, negative=True)
    with pytest.raises(ValueError, match="negative weights"):
        nx.single_source_bellman_ford_path_length(G, 0, backend="gpusp", method="phast")
    G = random_graph(5, n=12, p=0.4)
    for bad in (-1, 1.5, True, "8", 10**6):
        with pytest.raises(ValueError, match="core_size"):
            nx.single_source_dijkstra_path_length(G, 0, backend="gpusp", method="phast",
                                                  core_size=bad)


def test_solver_refuses_float_weights_whoever_calls_it(device):
    """Not only NetworkX's calls (``choose``): the solver and the benchmarks' runner
    refuse float weights too, before any preprocessing (they were truncated)."""
    from nx_gpusp import bench, datasets
    from nx_gpusp.executor import get_executor
    from nx_gpusp.solvers.sssp.phast import phast_sssp

    graph = datasets.random_geometric_road(300)  # float Euclidean weights
    ex = get_executor(device)
    with pytest.raises(ValueError, match="needs integer weights"):
        phast_sssp(ex, graph, np.array([0]))
    with pytest.raises(ValueError, match="needs integer weights"):
        bench.race_runner("phast", graph, ex)(0)
    assert "_phast_hierarchies" not in graph.__dict__


def test_hierarchy_levels_are_independent_and_arcs_go_between_levels():
    """Each level holds no arc between two of its vertices; every arc of the hierarchy
    joins a vertex to a higher level (upward in-arcs from below, downward from above),
    and the core's matrix is square with zeros on its diagonal."""
    G = nx.grid_2d_graph(9, 9).to_directed()
    for i, (u, v) in enumerate(G.edges):
        G[u][v]["weight"] = 1 + i % 7
    graph = from_networkx(G, "weight")
    h = contraction_hierarchy(graph, core_size=5)
    n = graph.n
    level = np.empty(n, dtype=np.int64)
    for lv in range(h.levels + 1):
        level[h.order[h.level_ptr[lv]:h.level_ptr[lv + 1]]] = lv
    for (ptr, tails, _w), upward in ((h.up, True), (h.down, False)):
        heads = h.order[np.repeat(np.arange(n), np.diff(ptr))]
        assert np.all(level[tails] < level[heads]) if upward else \
            np.all(level[tails] > level[heads])
    assert h.levels > 3 and len(h.core) <= 5
    assert h.matrix.shape == (len(h.core), len(h.core))
    assert np.all(np.diag(h.matrix) == 0)


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
def test_kernels_match_twin():
    """A whole query (the start at several sources, both sweeps' level pulls, the core
    step) and a level pull on its own, CUDA against the NumPy twin, int32 and int64, on
    a random hierarchy by position (random in-arcs per position, heads of several
    segments, some unreached tails)."""
    from nx_gpusp.ops.phast_batched import sweep

    rng = np.random.default_rng(3)
    sizes = [9000, 5000, 3, 40, 1, 700, 6000, 2, 2, 300]  # the last level is the core
    level_ptr = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    n, k = int(level_ptr[-1]), sizes[-1]
    degree = rng.integers(0, 6, n)
    degree[rng.random(n) < 0.01] = 60  # heads of several segments
    ptr, tails, weights = random_level_pulls(rng, zip(level_ptr[:-1], level_ptr[1:]), degree)
    src = np.array([3, 5, 9100, 5, 0, 0], dtype=np.int32)  # 3 sources (one twice), spare room
    for dtype in (np.int32, np.int64):
        dist = rng.integers(0, 10**6, n).astype(dtype)
        dist[rng.random(n) < 0.3] = distance_inf(dtype)
        matrix = rng.integers(0, 1000, (k, k)).astype(dtype)
        matrix[rng.random((k, k)) < 0.2] = distance_inf(dtype)
        results = []
        for ex in (Executor("cuda"), Executor("cpu")):
            ops = ex.ops("phast")
            arcs = sweep(ex, level_ptr, ptr, tails, weights.astype(dtype))
            d = ex.asarray(dist.copy())
            ops.pull_level(arcs, 6, d)  # on the random values
            pulled = ex.to_host(d).copy()
            ops.query(ex.asarray(src), arcs, arcs, ex.asarray(np.arange(n - k, n, dtype=np.int32)),
                      ex.asarray(matrix), ex.xp.empty(k, dtype=dtype), d)
            results.append((pulled, ex.to_host(d)))
        for got, want in zip(*results):
            np.testing.assert_array_equal(got, want)
        assert results[1][1][5] == 0 and (results[1][1] != distance_inf(dtype)).sum() > 3


def test_graph_that_does_not_contract_is_refused(monkeypatch):
    """Where only hubs remain (more arc pairs than PAIR_LIMIT) and they outnumber
    MAX_CORE, the method says so (ValueError naming near-far) instead of building a
    matrix of that size."""
    from nx_gpusp.solvers.sssp import contraction

    monkeypatch.setattr(contraction, "PAIR_LIMIT", 4)
    monkeypatch.setattr(contraction, "MAX_CORE", 5)
    G = nx.complete_graph(12, create_using=nx.DiGraph)
    nx.set_edge_attributes(G, 1, "weight")
    with pytest.raises(ValueError, match="does not contract.*near-far"):
        contraction_hierarchy(from_networkx(G, "weight"), core_size=0)


def test_auto_runs_phast_once_its_hierarchy_is_built(device, monkeypatch):
    """method="auto" (the default) runs near-far until a method="phast" call has built
    the graph's hierarchy (default core size), then PHAST for calls without a cutoff on
    graphs without negative weights; answers stay NetworkX's. A cutoff, another core
    size or a changed graph keep near-far."""
    import dataclasses

    from nx_gpusp.methods import METHODS

    ran = []
    phast = METHODS[("sssp", "phast")]

    def counted(*args, **kwargs):
        ran.append(1)
        return phast.solver(*args, **kwargs)

    monkeypatch.setitem(METHODS, ("sssp", "phast"), dataclasses.replace(phast, solver=counted))
    for i, G in enumerate(_cases(6, 900)):
        nodes = list(G)
        if len(nodes) < 2:
            continue
        s = nodes[0]
        expected = nx.single_source_dijkstra_path_length(G, s)
        assert_lengths_equal(nx.single_source_dijkstra_path_length(G, s, backend="gpusp"),
                             expected)
        nx.single_source_dijkstra_path_length(G, s, backend="gpusp", method="phast",
                                              core_size=3)
        assert_lengths_equal(nx.single_source_dijkstra_path_length(G, s, backend="gpusp"),
                             expected)
        assert len(ran) == 1, "another core size's hierarchy is not the default's"
        nx.single_source_dijkstra_path_length(G, s, backend="gpusp", method="phast")
        del ran[:]
        assert_lengths_equal(nx.single_source_dijkstra_path_length(G, s, backend="gpusp"),
                             expected)
        dist, paths = nx.single_source_dijkstra(G, s, backend="gpusp")
        assert_lengths_equal(dist, expected)
        assert_paths_valid(G, paths, dist, s)
        sources = set(nodes[::3])
        assert_lengths_equal(
            nx.multi_source_dijkstra_path_length(G, sources, backend="gpusp"),
            nx.multi_source_dijkstra_path_length(G, sources))
        assert_lengths_equal(
            nx.single_source_bellman_ford_path_length(G, s, backend="gpusp"), expected)
        assert len(ran) == 4
        assert_lengths_equal(
            nx.single_source_dijkstra_path_length(G, s, cutoff=4, backend="gpusp"),
            nx.single_source_dijkstra_path_length(G, s, cutoff=4))
        assert len(ran) == 4, "a call with a cutoff runs near-far"
        G.add_edge(nodes[0], nodes[1], weight=1)  # clears the converted graph
        assert_lengths_equal(nx.single_source_dijkstra_path_length(G, s, backend="gpusp"),
                             nx.single_source_dijkstra_path_length(G, s))
        assert len(ran) == 4, "a changed graph has no hierarchy"
        del ran[:]
