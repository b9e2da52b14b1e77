"""nx_gpusp.distance_matrix against NetworkX and SciPy: random graphs (directed,
undirected, multigraphs, disconnected, zero and negative weights, ties, unreachable
targets), every all-pairs method, targets in any order and repeated, hop counts and
weight functions, NetworkX's exceptions for missing nodes and negative cycles, a real
road graph, CuPy output on the GPU, and dask.array output with a Dask client."""

import networkx as nx
import numpy as np
import pytest
from graphs import graph_cases, random_graph
from scipy.sparse.csgraph import dijkstra

import nx_gpusp
from nx_gpusp.bench import scipy_matrix
from nx_gpusp.executor import cuda_available
from nx_gpusp.methods import methods_for

CASES = graph_cases(14, seed=43)
NEGATIVE = [random_graph(430 + i, directed=True, negative=True, n=20, p=0.2,
                         zero_fraction=0.2 * (i % 2)) for i in range(3)]


def expected_matrix(G, sources, targets, weight="weight"):
    """NetworkX's lengths as a matrix (inf where a target is unreachable)."""
    func = nx.single_source_bellman_ford_path_length
    out = np.full((len(sources), len(targets)), np.inf)
    for i, s in enumerate(sources):
        lengths = func(G, s, weight=weight)
        for j, t in enumerate(targets):
            if t in lengths:
                out[i, j] = lengths[t]
    return out


def assert_matrix(got, expected):
    assert isinstance(got, np.ndarray) and got.dtype == np.float64
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(np.isinf(got), np.isinf(expected))


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_matches_networkx(device, case):
    _, G = case
    nodes = list(G)
    sources = nodes[::2] + nodes[:1]  # a repeat
    targets = nodes[::-3] + nodes[:1]
    assert_matrix(nx_gpusp.distance_matrix(G, sources, targets),
                  expected_matrix(G, sources, targets))
    assert_matrix(nx_gpusp.distance_matrix(G, sources),  # every node, G's order
                  expected_matrix(G, sources, nodes))


@pytest.mark.parametrize("method", sorted(m.name for m in methods_for("all-pairs")
                                           if not m.iterations_per_vertex))
def test_every_method(device, method):
    m = next(x for x in methods_for("all-pairs") if x.name == method)
    for i, (_, G) in enumerate(CASES[:8]):
        weight = "weight"
        if m.unit_weights_only:
            weight = None
        nodes = list(G)
        try:
            got = nx_gpusp.distance_matrix(G, nodes, nodes[::-1], weight=weight,
                                           method=method)
        except ValueError as exc:  # float weights for an integer-only method
            assert m.integer_weights_only or m.unit_weights_only, exc
            continue
        assert_matrix(got, expected_matrix(G, nodes, nodes[::-1], weight=weight))


def test_hop_counts_weight_functions_and_negative_weights(device):
    _, G = CASES[0]
    nodes = list(G)
    assert_matrix(nx_gpusp.distance_matrix(G, nodes, weight=None),
                  expected_matrix(G, nodes, nodes, weight=None))

    def double(u, v, d):
        return 2 * d.get("weight", 1)

    assert_matrix(nx_gpusp.distance_matrix(G, nodes[:3], weight=double),
                  expected_matrix(G, nodes[:3], nodes, weight=double))
    for D in NEGATIVE:
        nodes = list(D)
        assert_matrix(nx_gpusp.distance_matrix(D, nodes[:7], nodes),
                      expected_matrix(D, nodes[:7], nodes))


def test_errors_are_networkx_s(device):
    G = nx.path_graph(4)
    with pytest.raises(nx.NodeNotFound, match="Node 9 not found"):
        nx_gpusp.distance_matrix(G, [0, 9])
    with pytest.raises(nx.NodeNotFound, match="Node x not found"):
        nx_gpusp.distance_matrix(G, [0], ["x"])
    with pytest.raises(nx.NodeNotFound):
        nx_gpusp.distance_matrix(G, [[1, 2]])  # unhashable: not a node
    cyc = nx.DiGraph([(0, 1, {"weight": 1}), (1, 2, {"weight": -3}), (2, 0, {"weight": 1}),
                      (3, 0, {"weight": 1})])
    with pytest.raises(nx.NetworkXUnbounded):
        nx_gpusp.distance_matrix(cyc, [3])
    with pytest.raises(nx.NetworkXUnbounded):  # an undirected negative edge is a cycle
        nx_gpusp.distance_matrix(nx.Graph([(0, 1, {"weight": -1})]), [0])
    with pytest.raises(ValueError, match="array must be"):
        nx_gpusp.distance_matrix(G, [0], array="list")
    with pytest.raises(ValueError, match="unknown all-pairs method"):
        nx_gpusp.distance_matrix(G, [0], method="nope")
    F = nx.path_graph(3)
    nx.set_edge_attributes(F, 0.5, "weight")
    with pytest.raises(ValueError, match="integer weights"):
        nx_gpusp.distance_matrix(F, [0], method="phast-batched")
    with pytest.raises(TypeError, match="unexpected option"):
        nx_gpusp.distance_matrix(G, [0], method="batched-spmm", core_size=3)
    huge = nx.path_graph(3)
    nx.set_edge_attributes(huge, 1 << 60, "weight")
    with pytest.raises(NotImplementedError, match="2\\*\\*53"):
        nx_gpusp.distance_matrix(huge, [0])


def test_empty_and_options(device):
    G = nx.path_graph(5)
    assert nx_gpusp.distance_matrix(G, []).shape == (0, 5)
    assert nx_gpusp.distance_matrix(G, [1], []).shape == (1, 0)
    assert nx_gpusp.distance_matrix(nx.Graph(), []).shape == (0, 0)
    got = nx_gpusp.distance_matrix(G, list(G), method="batched-spmm", batch=2)
    assert_matrix(got, expected_matrix(G, list(G), list(G)))


def test_the_converted_graph_is_kept_until_g_changes(device):
    """A NetworkX graph's conversion (and the hierarchy it holds) is reused by later
    calls, and dropped when G changes through its methods."""
    G = nx.grid_2d_graph(6, 6)
    nx.set_edge_attributes(G, 2, "weight")
    nx_gpusp.distance_matrix(G, [(0, 0)], method="phast-batched")
    first = G.__networkx_cache__["nx_gpusp.distance_matrix"]["weight"]
    assert "_phast_hierarchies" in first.__dict__
    nx_gpusp.distance_matrix(G, [(0, 0)])
    assert G.__networkx_cache__["nx_gpusp.distance_matrix"]["weight"] is first
    G.add_edge((0, 0), (5, 5), weight=1)
    got = nx_gpusp.distance_matrix(G, [(0, 0)], [(5, 5)])
    assert got[0, 0] == 1


def test_real_road_graph_od_matrix(device, real):
    """An origin-destination matrix on rome99 against SciPy."""
    from nx_gpusp.convert import to_networkx

    graph = real("rome99", as_csr=True)
    G = to_networkx(graph)
    rng = np.random.default_rng(1)
    origins = rng.choice(graph.n, 30, replace=False)
    destinations = rng.choice(graph.n, 50, replace=False)
    got = nx_gpusp.distance_matrix(G, graph.labels(origins), graph.labels(destinations))
    full = dijkstra(scipy_matrix(graph), directed=graph.directed, indices=origins)
    assert_matrix(got, full[:, destinations])
    assert_matrix(nx_gpusp.distance_matrix(graph, graph.labels(origins),
                                           graph.labels(destinations),
                                           method="phast-batched"), full[:, destinations])


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
def test_cupy_output():
    import cupy

    cfg = nx.config.backends.gpusp
    old = cfg.device
    cfg.device = "cuda"
    try:
        for _, G in CASES[:6]:
            nodes = list(G)
            got = nx_gpusp.distance_matrix(G, nodes, nodes[::-1], array="cupy")
            assert isinstance(got, cupy.ndarray) and got.dtype == np.float64
            assert_matrix(cupy.asnumpy(got), expected_matrix(G, nodes, nodes[::-1]))
    finally:
        cfg.device = old


def test_cupy_output_needs_the_gpu():
    cfg = nx.config.backends.gpusp
    old = cfg.device
    cfg.device = "cpu"
    try:
        with pytest.raises(ValueError, match="needs the CUDA device"):
            nx_gpusp.distance_matrix(nx.path_graph(3), [0], array="cupy")
    finally:
        cfg.device = old


def test_dask_array_blocks_stay_on_the_workers():
    distributed = pytest.importorskip("distributed")
    import dask.array as da

    cfg = nx.config.backends.gpusp
    old_device, old_client = cfg.device, cfg.dask_client
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        cfg.device, cfg.dask_client = "cpu", client
        try:
            for _, G in CASES[:4]:
                nodes = list(G)
                got = nx_gpusp.distance_matrix(G, nodes, nodes[::-1])
                assert isinstance(got, da.Array)
                assert got.shape == (len(nodes), len(nodes))
                if len(nodes) > 1:
                    assert got.numblocks[0] > 1  # shares of the sources, one per task
                assert_matrix(got.compute(), expected_matrix(G, nodes, nodes[::-1]))
            cyc = nx.DiGraph([(0, 1, {"weight": -2}), (1, 0, {"weight": 1})])
            with pytest.raises(nx.NetworkXUnbounded):
                nx_gpusp.distance_matrix(cyc, [0])
        finally:
            cfg.device, cfg.dask_client = old_device, old_client
