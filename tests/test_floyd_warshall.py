"""Floyd-Warshall methods against networkx.floyd_warshall(_numpy, _predecessor_and_distance),
and each kernel against its NumPy twin (marker gpu)."""

import math

import networkx as nx
import numpy as np
import pytest

from graphs import assert_valid_path, graph_cases, random_graph
from nx_gpusp.executor import Executor, cuda_available
from nx_gpusp.methods import methods_for

FW_METHODS = sorted(m.name for m in methods_for("floyd-warshall"))
CASES = graph_cases(10, seed=5)


def assert_matrix_equal(got, expected):
    """Integers exactly. Floats to a relative 1e-12: the blocked methods add the same
    arc weights in a different association order than NetworkX's k-loop, so the last
    bits of a sum can differ; a wrong path would be off by at least one arc weight."""
    assert got.shape == expected.shape
    assert np.array_equal(np.isinf(got), np.isinf(expected))
    finite = ~np.isinf(expected)
    np.testing.assert_allclose(got[finite], expected[finite], rtol=1e-12, atol=1e-12)


def assert_dicts_close(got, expected):
    assert set(got) == set(expected)
    for u in expected:
        for v, dist in expected[u].items():
            assert math.isclose(got[u][v], dist, rel_tol=1e-12, abs_tol=1e-12) or \
                got[u][v] == dist, (u, v, got[u][v], dist)


def assert_predecessors_valid(G, pred, dist, expected_pred):
    """Every pair NetworkX has a predecessor for, we have one too, and
    nx.reconstruct_path on our dicts gives a real path of the shortest length."""
    assert {(u, v) for u in expected_pred for v in expected_pred[u]} == \
        {(u, v) for u in pred for v in pred[u]}
    for u in G:
        for v in G:
            if u != v and dist[u][v] != math.inf:
                walk, steps = v, 0
                while walk != u:  # bounded, so a predecessor cycle fails instead of hanging
                    walk, steps = pred[u][walk], steps + 1
                    assert steps < len(G), f"predecessor cycle from {u} to {v}"
                assert_valid_path(G, nx.reconstruct_path(u, v, pred), u, v, dist[u][v])


@pytest.mark.parametrize("method", FW_METHODS)
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_floyd_warshall_numpy(device, method, case):
    _, G = case
    got = nx.floyd_warshall_numpy(G, backend="gpusp", method=method)
    assert_matrix_equal(got, nx.floyd_warshall_numpy(G))


@pytest.mark.parametrize("method", FW_METHODS)
@pytest.mark.parametrize("negative", [False, True])
def test_floyd_warshall_dicts(device, method, negative):
    G = random_graph(11, n=45, p=0.15, negative=negative, zero_fraction=0.2, labels="str")
    assert_dicts_close(nx.floyd_warshall(G, backend="gpusp", method=method), nx.floyd_warshall(G))


@pytest.mark.parametrize("method", FW_METHODS)
@pytest.mark.parametrize("seed, kw", [
    (3, dict(zero_fraction=0.5)),  # zero-weight cycles: ties everywhere
    (4, dict(negative=True, zero_fraction=0.3)),
    (5, dict(directed=False, weights="float", labels="tuple")),
    (6, dict(multigraph=True, disconnected=True)),
])
def test_predecessor_and_distance(device, method, seed, kw):
    G = random_graph(seed, n=40, p=0.2, **kw)
    pred, dist = nx.floyd_warshall_predecessor_and_distance(G, backend="gpusp", method=method)
    expected_pred, expected_dist = nx.floyd_warshall_predecessor_and_distance(G)
    assert_dicts_close(dist, expected_dist)
    assert_predecessors_valid(G, pred, dist, expected_pred)


@pytest.mark.parametrize("method", FW_METHODS)
def test_several_tiles_and_padding(device, method):
    """n = 300 crosses the 32-, 64- and 128-wide tile borders and pads the last tile."""
    G = random_graph(8, n=300, p=0.015, negative=True)
    assert_matrix_equal(nx.floyd_warshall_numpy(G, backend="gpusp", method=method),
                        nx.floyd_warshall_numpy(G))


@pytest.mark.parametrize("lane, weights", [("s16x2", "int"), ("s32", "int"), ("i53", "int"),
                                           ("i64", "int"),
                                           ("f32", "integral float"), ("f64", "float")])
@pytest.mark.parametrize("n", [70, 300])
def test_dpx_lanes(device, lane, weights, n):
    """One tile, and three 128-tiles (five 64-tiles) with padding. The int16 lane holds
    n = 300 only with weights 1..20 (path bound 2 * 299 * 20 < 0x3fff); the float32 lane
    takes float weights that are integers (negative ones too)."""
    negative = weights != "float" and (lane != "s16x2" or n < 100)
    G = random_graph(9, n=n, p=7 / n, weights="float" if weights == "float" else "int",
                     negative=negative)
    if weights == "integral float":
        for _, _, d in G.edges(data=True):
            d["weight"] = float(d["weight"])
        from nx_gpusp.convert import from_networkx
        from nx_gpusp.solvers.apsp.floyd_warshall_dpx import choose_lane

        assert choose_lane(from_networkx(G, "weight")) == "f32"  # what auto picks
    assert_matrix_equal(nx.floyd_warshall_numpy(G, backend="gpusp", method="fw-dpx", lane=lane),
                        nx.floyd_warshall_numpy(G))


def test_dpx_f32_lane_only_where_exact():
    """Float weights with a fraction, or integral ones whose sums pass 2**24, stay in f64."""
    from nx_gpusp.graph import CSRGraph
    from nx_gpusp.solvers.apsp.floyd_warshall_dpx import choose_lane

    def graph(w):
        return CSRGraph.from_edge_arrays(3, [0, 1], [1, 2], np.array(w, dtype=np.float64))

    assert choose_lane(graph([1.0, -2.0])) == "f32"
    assert choose_lane(graph([1.5, 2.0])) == "f64"
    assert choose_lane(graph([2.0 ** 22, 1.0])) == "f32"  # 2 * (n-1) * 2**22 = 2**24
    assert choose_lane(graph([2.0 ** 23, 1.0])) == "f64"  # 2**25 > 2**24
    with pytest.raises(ValueError, match="cannot hold"):
        choose_lane(graph([0.5, 1.0]), "f32")


def test_dpx_lane_must_fit(device):
    G = nx.DiGraph([(0, 1, {"weight": 10_000}), (1, 2, {"weight": 10_000})])
    with pytest.raises(ValueError, match="cannot hold"):
        nx.floyd_warshall_numpy(G, backend="gpusp", method="fw-dpx", lane="s16x2")
    got = nx.floyd_warshall_numpy(G, backend="gpusp", method="fw-dpx")  # auto: s32
    assert_matrix_equal(got, nx.floyd_warshall_numpy(G))


@pytest.mark.parametrize("method", FW_METHODS)
@pytest.mark.parametrize("G", [
    nx.DiGraph([(0, 1, {"weight": 2}), (1, 2, {"weight": -3}), (2, 0, {"weight": 0}),
                (2, 3, {"weight": 1})]),
    nx.DiGraph([(0, 1, {"weight": 1}), (1, 1, {"weight": -1})]),
    nx.Graph([(0, 1, {"weight": 1}), (1, 2, {"weight": -1})]),
], ids=["cycle", "self-loop", "undirected"])
def test_negative_cycle(device, method, G):
    for func in (nx.floyd_warshall_numpy, nx.floyd_warshall,
                 nx.floyd_warshall_predecessor_and_distance):
        with pytest.raises(nx.NetworkXUnbounded):
            func(G, backend="gpusp", method=method)


def test_nodelist(device):
    G = random_graph(2, n=20, p=0.3)
    order = list(G)[::-1]
    assert_matrix_equal(nx.floyd_warshall_numpy(G, nodelist=order, backend="gpusp"),
                        nx.floyd_warshall_numpy(G, nodelist=order))


def test_dense_matrix_too_big_names_bytes(device):
    if device != "cuda":
        pytest.skip("device memory limits exist on the GPU only")
    from nx_gpusp.graph import CSRGraph

    n = 3_000_000  # 3M x 3M int64 matrix: 65 TiB
    graph = CSRGraph.from_edge_arrays(n, [0], [1], [1])
    with pytest.raises(MemoryError, match="TiB"):
        nx.floyd_warshall_numpy(graph, backend="gpusp")


# -- kernels against their twins ---------------------------------------------------------
def _random_distances(rng, n, dtype, inf, density=0.2, high=20):
    d = np.where(rng.random((n, n)) < density, rng.integers(0, high, (n, n)), inf).astype(dtype)
    np.fill_diagonal(d, 0)
    return d


def _both(make):
    """(cuda executor, cpu executor, host input) for a kernel-vs-twin test."""
    return Executor("cuda"), Executor("cpu"), make()


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("dtype", [np.int64, np.float64])
@pytest.mark.parametrize("kernel", ["fw_per_edge", "fw_per_edge_shared", "fw_per_vertex",
                                    "tiled", "blocked"])
def test_bodra_kernels_match_twin(kernel, dtype):
    rng = np.random.default_rng(1)
    inf = np.inf if np.dtype(dtype).kind == "f" else np.iinfo(dtype).max
    gpu, cpu, d0 = _both(lambda: _random_distances(rng, 77, dtype, inf))
    p0 = np.where(d0 != inf, np.arange(77, dtype=np.int32)[:, None], -1).astype(np.int32)
    h0 = Executor("cpu").ops("floyd_warshall").arc_counts(d0)
    results = []
    for ex in (gpu, cpu):
        d, p, h = (ex.asarray(a.copy()) for a in (d0, p0, h0))
        if kernel == "blocked":
            ex.ops("floyd_warshall").blocked_floyd_warshall(d, p, h)
        elif kernel == "tiled":
            for kb in range(3):
                for phase in (1, 2, 3):
                    ex.ops("floyd_warshall_bodra").fw_tiled_phase(phase, d, p, h, kb)
        else:
            for k in (0, 5, 76):
                getattr(ex.ops("floyd_warshall_bodra"), kernel)(d, p, h, k)
        results.append([ex.to_host(a) for a in (d, p, h)])
    (d1, p1, h1), (d2, p2, h2) = results
    np.testing.assert_array_equal(d1, d2)
    np.testing.assert_array_equal(h1, h2)
    if kernel == "blocked":  # another k order: ties may pick another valid predecessor
        for d, p, h in results:
            _assert_valid_predecessors(d0, d, p, h, inf)
    else:  # the same k order as the twin: the same predecessors
        np.testing.assert_array_equal(p1, p2)


def _assert_valid_predecessors(d0, d, p, h, inf):
    """p[i][j] ends a shortest i->j path: d[i][j] = d[i][p] + w(p, j), one arc more."""
    i, j = np.nonzero((p >= 0) & (d != inf) & ~np.eye(len(d), dtype=bool))
    k = p[i, j]
    np.testing.assert_array_equal(d[i, j], d[i, k] + d0[k, j])
    np.testing.assert_array_equal(h[i, j], h[i, k] + 1)


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("lane", ["s16x2", "s32", "f32", "i53", "i64", "f64"])
def test_dpx_kernels_match_twin(lane):
    from nx_gpusp.ops.floyd_warshall_dpx import LANES, tile_of

    dtype, inf = LANES[lane][:2]
    rng = np.random.default_rng(2)
    gpu, cpu, d0 = _both(lambda: _random_distances(rng, 3 * tile_of(lane), dtype, inf,
                                                   density=0.05))
    for kb in range(3):
        for step in ("diagonal", 2, 3):
            out = []
            for ex in (gpu, cpu):
                d = ex.asarray(d0.copy())
                ops = ex.ops("floyd_warshall_dpx")
                if step == "diagonal":
                    ops.fw_dpx_diagonal(d, lane, kb)
                else:
                    ops.fw_dpx_minplus(d, lane, kb, step)
                out.append(ex.to_host(d))
            np.testing.assert_array_equal(out[0], out[1], err_msg=f"kb={kb} step={step}")
            d0 = out[1]


@pytest.mark.parametrize("scale, lane", [(2**31, "i53"), (2**44, "i53"), (2**50, "i64"),
                                         (2**54, "i64"), (2**55, None)])
def test_dpx_auto_lane_past_int32(device, scale, lane):
    """Integer sums past int32: float64 holds them exactly while 2 x the path bound is at
    most 2**53 ("i53", the float64 kernels), beyond that the int64 lane while it is below
    its sentinel 2**62 - 1 (2**54: B ~ 2**60), and past that (2**55: B ~ 2**61, sums still
    exact in int64) the fw-tiled-shared kernels; the answers are NetworkX's ints every
    time, unreachable pairs included, negative arcs too."""
    from nx_gpusp.convert import from_networkx
    from nx_gpusp.solvers.apsp.floyd_warshall_dpx import choose_lane

    G = random_graph(11, n=150, p=0.03, negative=True, disconnected=True)
    for _, _, d in G.edges(data=True):
        d["weight"] = d["weight"] * (scale // 100) + 1
    assert choose_lane(from_networkx(G, "weight")) == lane
    if lane is None:
        with pytest.raises(ValueError, match="No lane holds them; lane='auto' runs the fw-tiled"):
            choose_lane(from_networkx(G, "weight"), "i64")
    got = nx.floyd_warshall(G, backend="gpusp", method="fw-dpx")
    expected = nx.floyd_warshall(G)
    assert {u: dict(row) for u, row in got.items()} == \
        {u: dict(row) for u, row in expected.items()}
    assert all(type(v) is int for row in got.values() for v in row.values()
               if v != float("inf"))


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("dtype", [np.int64, np.float64])
def test_arc_counts_match_twin(dtype):
    rng = np.random.default_rng(5)
    inf = np.inf if np.dtype(dtype).kind == "f" else np.iinfo(dtype).max
    d = _random_distances(rng, 70, dtype, inf)
    got = Executor("cuda").ops("floyd_warshall").arc_counts(Executor("cuda").asarray(d))
    want = Executor("cpu").ops("floyd_warshall").arc_counts(d)
    np.testing.assert_array_equal(Executor("cuda").to_host(got), want)
    assert want.dtype == np.int32 and not np.diagonal(want).any()
