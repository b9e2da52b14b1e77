"""shortest_simple_paths (Yen's k shortest loopless paths, nx_gpusp.algorithms.simple_paths)
against NetworkX: through NetworkX's dispatch (backend="gpusp") on random graphs of
every kind, on the NumPy twin and (marker gpu) on CUDA; the spur-search kernels against
their twin on CUDA.

Every path is checked to be a simple path from the source to the target over real
arcs; the k-th path's length is NetworkX's k-th; the paths are NetworkX's themselves
where no two paths tie (random float weights); lengths never decrease."""

import itertools
import math
import random

import networkx as nx
import numpy as np
import pytest

from graphs import graph_cases, path_length, random_graph
from nx_gpusp.dispatch import CALLS
from nx_gpusp.executor import Executor, cuda_available
from nx_gpusp.solvers.yen import k_shortest_simple_paths, spur_searches

GP = {"backend": "gpusp"}
K = 25


def _first(gen, k=K):
    return list(itertools.islice(gen, k))


def _close(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def assert_simple_paths(G, got, expected, source, target, weight):
    """``got`` are as many distinct simple paths from source to target as NetworkX's
    ``expected``, their lengths NetworkX's one for one, never decreasing."""
    assert len(got) == len(expected)
    assert len(set(map(tuple, got))) == len(got), "a path came twice"
    lengths = []
    for path in got:
        assert path[0] == source and path[-1] == target, path
        assert len(set(path)) == len(path), ("not simple", path)
        assert all(G.has_edge(u, v) for u, v in zip(path, path[1:])), path
        lengths.append(path_length(G, path, weight) if weight else len(path) - 1)
    wanted = [path_length(G, p, weight) if weight else len(p) - 1 for p in expected]
    assert all(_close(a, b) for a, b in zip(lengths, wanted)), (lengths, wanted)
    assert all(a <= b or _close(a, b) for a, b in zip(lengths, lengths[1:])), lengths


def _pairs(G):
    nodes = list(G)
    return [(nodes[0], nodes[-1]), (nodes[-1], nodes[0]), (nodes[len(nodes) // 2], nodes[1])]


CASES = [c for c in graph_cases(40, seed=46) if not c[1].is_multigraph()]


@pytest.mark.parametrize("name,G", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("weight", [None, "weight"])
def test_paths_equal_networkx(device, name, G, weight):
    before = CALLS.get("shortest_simple_paths", 0)
    for s, t in _pairs(G):
        try:
            expected = _first(nx.shortest_simple_paths(G, s, t, weight=weight))
        except nx.NetworkXNoPath:
            with pytest.raises(nx.NetworkXNoPath):
                next(nx.shortest_simple_paths(G, s, t, weight=weight, **GP))
            continue
        got = _first(nx.shortest_simple_paths(G, s, t, weight=weight, **GP))
        assert_simple_paths(G, got, expected, s, t, weight)
    assert CALLS.get("shortest_simple_paths", 0) > before


@pytest.mark.parametrize("seed", range(12))
def test_unique_lengths_give_networkx_paths_exactly(device, seed):
    """Random float weights: no two paths tie, so every spur path is the one NetworkX
    finds and the sequence is NetworkX's own."""
    G = random_graph(seed, directed=seed % 2 == 0, n=18, p=0.3, weights="float",
                     labels=["int", "str", "tuple"][seed % 3])
    s, t = _pairs(G)[seed % 3]
    for weight in ("weight", lambda u, v, d: d["weight"] * 2 + 0.25):
        expected = _first(nx.shortest_simple_paths(G, s, t, weight=weight), 40)
        got = _first(nx.shortest_simple_paths(G, s, t, weight=weight, **GP), 40)
        assert got == expected


def test_every_simple_path_when_run_to_the_end(device):
    G = nx.complete_graph(6)
    rng = random.Random(3)
    for u, v in G.edges:
        G[u][v]["weight"] = rng.randint(0, 4)  # zeros and ties
    for weight in (None, "weight"):
        expected = list(nx.shortest_simple_paths(G, 0, 5, weight=weight))
        got = list(nx.shortest_simple_paths(G, 0, 5, weight=weight, **GP))
        assert len(got) == len(expected) == len(list(nx.all_simple_paths(G, 0, 5)))
        assert_simple_paths(G, got, expected, 0, 5, weight)


def test_ties_come_in_a_deterministic_order(device):
    G = nx.grid_2d_graph(4, 4)
    first = _first(nx.shortest_simple_paths(G, (0, 0), (3, 3), **GP), 60)
    again = _first(nx.shortest_simple_paths(G, (0, 0), (3, 3), **GP), 60)
    assert first == again
    assert_simple_paths(G, first, _first(nx.shortest_simple_paths(G, (0, 0), (3, 3)), 60),
                        (0, 0), (3, 3), None)


def test_networkx_docstring_example(device):
    G = nx.cycle_graph(7)
    assert list(nx.shortest_simple_paths(G, 0, 3, **GP)) == [[0, 1, 2, 3], [0, 6, 5, 4, 3]]


def test_source_is_target(device):
    G = nx.path_graph(3)
    for weight in (None, "weight"):
        assert list(nx.shortest_simple_paths(G, 1, 1, weight=weight, **GP)) == \
            list(nx.shortest_simple_paths(G, 1, 1, weight=weight)) == [[1]]


def test_errors_are_networkx_errors_raised_at_first_next(device):
    G = nx.path_graph(4)
    G.add_node(9)
    for s, t, err in ((7, 0, nx.NodeNotFound), (0, 7, nx.NodeNotFound),
                      ([1], 0, nx.NodeNotFound), (0, 9, nx.NetworkXNoPath)):
        for weight in (None, "weight"):
            theirs = nx.shortest_simple_paths(G, s, t, weight=weight)
            ours = nx.shortest_simple_paths(G, s, t, weight=weight, **GP)  # no error yet
            with pytest.raises(err) as expected:
                next(theirs)
            with pytest.raises(err) as got:
                next(ours)
            assert str(got.value) == str(expected.value)
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.shortest_simple_paths(nx.MultiGraph([(0, 1)]), 0, 1, **GP)


def test_hidden_edges_and_weight_functions(device):
    G = random_graph(5, directed=True, n=15, p=0.35, weights="float")
    hide = lambda u, v, d: None if (u + v) % 5 == 0 else d["weight"]  # noqa: E731
    expected = _first(nx.shortest_simple_paths(G, 0, 14, weight=hide))
    assert _first(nx.shortest_simple_paths(G, 0, 14, weight=hide, **GP)) == expected
    for u, v, d in G.edges(data=True):
        if (u + v) % 5 == 0:
            d["weight"] = None  # the attribute None hides the edge too
    assert _first(nx.shortest_simple_paths(G, 0, 14, weight="weight", **GP)) == expected


def test_negative_weights_are_left_to_networkx(device):
    G = nx.DiGraph([(0, 1, {"weight": -1}), (1, 2, {"weight": -1}), (0, 2, {"weight": 1})])
    with pytest.raises(NotImplementedError) as err:
        nx.shortest_simple_paths(G, 0, 2, weight="weight", **GP)
    assert "negative weights" in str(err.value.__cause__ or err.value.__context__)
    # automatic dispatch runs NetworkX's own answer
    with nx.config.backends.gpusp(should_run_min_edges=0):
        assert list(nx.shortest_simple_paths(G, 0, 2, weight="weight")) == \
            [[0, 1, 2], [0, 2]]


def test_spur_searches_in_small_batches_agree(device):
    """Rows split over batches of one or two give every batch's answer unchanged."""
    from nx_gpusp.algorithms.common import as_csr, configured_executor

    G = random_graph(11, directed=False, n=30, p=0.2, weights="int", zero_fraction=0.3)
    graph, ex = as_csr(G, "weight"), configured_executor()
    whole = _first(k_shortest_simple_paths(ex, graph, 0, 29), 30)
    for batch in (1, 2):
        assert _first(k_shortest_simple_paths(ex, graph, 0, 29, batch=batch), 30) == whole
    assert_simple_paths(G, [graph.labels(p) for p in whole],
                        _first(nx.shortest_simple_paths(G, 0, 29, weight="weight"), 30),
                        0, 29, "weight")


@pytest.mark.parametrize("name,weight", [("rome99", "weight"), ("gnutella04", None)])
def test_real_graphs(device, real, name, weight):
    """A road network (weighted) and a peer-to-peer network (hops): the first paths
    between two of their vertices, as NetworkX's."""
    G = real(name)
    nodes = list(G)
    s, t = nodes[0], nodes[len(nodes) // 3]
    expected = _first(nx.shortest_simple_paths(G, s, t, weight=weight), 6)
    got = _first(nx.shortest_simple_paths(G, s, t, weight=weight, **GP), 6)
    assert_simple_paths(G, got, expected, s, t, weight)


# -- the kernels against their twin ---------------------------------------------------
@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("dtype", [np.int64, np.float64])
@pytest.mark.parametrize("seed", range(4))
def test_spur_searches_match_twin(dtype, seed):
    """The spur searches of random rounds: the same lengths and the same paths (the least
    tight tail makes the trees independent of the threads' order)."""
    from nx_gpusp.graph import CSRGraph

    rng = np.random.default_rng(seed)
    n, m = 3000, 15000
    w = rng.integers(0, 6, m) if dtype == np.int64 else rng.uniform(0, 10, m)
    graph = CSRGraph.from_edge_arrays(n, rng.integers(0, n, m), rng.integers(0, n, m), w,
                                      directed=bool(seed % 2))
    prefix = [int(v) for v in dict.fromkeys(rng.integers(0, n, 40).tolist())][:30]
    target = next(v for v in range(n) if v not in prefix)
    banned = [set(rng.integers(0, n, 3).tolist()) for _ in prefix]
    got = {ex: spur_searches(Executor(ex), graph, prefix, target, banned, batch=batch)
           for ex, batch in (("cuda", None), ("cpu", 7))}
    assert got["cuda"] == got["cpu"]
    assert any(r is not None for r in got["cpu"])


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
def test_paths_on_cuda_match_twin():
    G = nx.grid_2d_graph(12, 12)
    rng = random.Random(1)
    for u, v in G.edges:
        G[u][v]["weight"] = rng.randint(1, 3)
    out = {}
    for device in ("cuda", "cpu"):
        with nx.config.backends.gpusp(device=device):
            out[device] = _first(nx.shortest_simple_paths(G, (0, 0), (11, 11), weight="weight",
                                                          **GP), 50)
    assert out["cuda"] == out["cpu"]
