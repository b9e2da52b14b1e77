"""Method "phast-batched" (PHAST's sweeps for a batch of sources over the hierarchy of
"phast") against SciPy and NetworkX on random integer-weighted graphs (directed,
undirected, multigraphs, disconnected, zero weights, ties) with cores from none to
the whole graph and batches from one source up; paths; the all-pairs measures through
it; method="auto"'s choice and cost model; its refusals; a real road graph; its
kernels against their NumPy twins on the GPU."""

import gc
import random

import networkx as nx
import numpy as np
import pytest
from graphs import (assert_lengths_equal, assert_paths_valid, assert_same_value, random_graph,
                    random_level_pulls)
from scipy.sparse.csgraph import dijkstra

from nx_gpusp.bench import scipy_matrix
from nx_gpusp.convert import from_networkx
from nx_gpusp.executor import Executor, cuda_available, get_executor
from nx_gpusp.graph import distance_inf, float_distances
from nx_gpusp.methods import choose, get_method
from nx_gpusp.ops.phast_batched import SEGMENT, sweep
from nx_gpusp.solvers.apsp import phast_batched as pb
from nx_gpusp.solvers.sssp.phast import hierarchy_built

CORES = [0, 3, 2048]  # every vertex contracted, a small core, the whole graph a core
METHOD = "phast-batched"


def _cases(count, seed):
    out = []
    for i in range(count):
        G = random_graph(seed + i, directed=bool(i % 2), multigraph=i % 5 == 0,
                         weights=["int", "none", "int"][i % 3],
                         zero_fraction=0.3 if i % 4 == 0 else 0.0,
                         labels=["int", "str", "tuple"][i % 3], disconnected=i % 3 == 0)
        out.append(G)
    return out


CASES = _cases(24, 700)


def _rows(device, graph, sources, **options):
    """The method's rows of ``sources`` (float64, inf = unreached) and its batches."""
    ex = get_executor(device)
    m = get_method("all-pairs", METHOD)
    batches = list(m.solver(ex, graph, np.asarray(sources, dtype=np.int64), want_pred=False,
                            **m.check_options(options)))
    if not batches:
        return np.zeros((0, graph.n)), batches
    return np.concatenate([float_distances(ex.to_host(b.dist)) for b in batches]), batches


@pytest.mark.parametrize("core_size", CORES)
@pytest.mark.parametrize("batch", [1, 5, None])
def test_rows_match_scipy(device, core_size, batch):
    for G in CASES:
        graph = from_networkx(G, "weight")
        if not graph.n:
            continue
        sources = np.arange(graph.n)[::-1]  # every source, in reverse (order is kept)
        got, batches = _rows(device, graph, sources, core_size=core_size, batch=batch)
        expected = dijkstra(scipy_matrix(graph), directed=graph.directed, indices=sources)
        np.testing.assert_array_equal(got, expected)
        assert np.concatenate([b.sources for b in batches]).tolist() == sources.tolist()
        assert all(b.dist.dtype == np.int64 for b in batches)
        if batch is not None:
            assert all(len(b.sources) <= batch for b in batches)


def test_repeated_sources_and_ties(device):
    """A grid of equal weights (many equally short paths) with zero-weight arcs and
    self-loops, sources repeated within a batch."""
    rng = random.Random(5)
    G = nx.grid_2d_graph(12, 12).to_directed()
    for u, v in G.edges:
        G[u][v]["weight"] = rng.choice([0, 2, 2, 2])
    G.add_edge((0, 0), (0, 0), weight=3)
    graph = from_networkx(G, "weight")
    sources = np.array([0, 5, 5, 143, 0, 77])
    for core_size in (0, 10):
        got, _ = _rows(device, graph, sources, core_size=core_size, batch=4)
        expected = dijkstra(scipy_matrix(graph), directed=True, indices=sources)
        np.testing.assert_array_equal(got, expected)


def test_large_weights_sweep_in_int64(device):
    """Weights past what int32 sums hold: the sweeps keep int64 and stay exact."""
    G = nx.grid_2d_graph(8, 8)
    rng = random.Random(2)
    for u, v in G.edges:
        G[u][v]["weight"] = rng.randint(1, 10) + (1 << 40)
    graph = from_networkx(G, "weight")
    from nx_gpusp.solvers.sssp.phast import _hierarchy

    assert _hierarchy(graph, 4).sweep_dtype() == np.int64
    got, batches = _rows(device, graph, np.arange(graph.n), core_size=4)
    assert all(b.dist.dtype == np.int64 for b in batches)
    for s in (0, 17, 63):  # exact: every distance is below 2**53
        expected = nx.single_source_dijkstra_path_length(G, graph.labels([s])[0])
        assert {label: int(d) for label, d in zip(graph.nodes, got[s])} == expected


@pytest.mark.parametrize("core_size", [0, 3])
def test_all_pairs_functions(device, core_size):
    """The NetworkX all-pairs functions through the method: lengths, and paths (the
    tight-arc trees of the original graph) of the expected lengths."""
    for G in CASES[:12]:
        expected = dict(nx.all_pairs_dijkstra_path_length(G))
        got = dict(nx.all_pairs_dijkstra_path_length(G, backend="gpusp", method=METHOD,
                                                      core_size=core_size))
        assert list(got) == list(expected)
        for s in expected:
            assert_lengths_equal(got[s], expected[s])
        for s, (dist, paths) in nx.all_pairs_dijkstra(G, backend="gpusp", method=METHOD,
                                                      core_size=core_size, batch=3):
            assert_lengths_equal(dist, expected[s])
            assert_paths_valid(G, paths, dist, s)


MEASURES = [
    ("closeness_centrality", {"distance": "weight"}),
    ("closeness_centrality", {"distance": "weight", "wf_improved": False}),
    ("closeness_centrality", {}),
    ("harmonic_centrality", {"distance": "weight"}),
    ("eccentricity", {"weight": "weight"}),
    ("diameter", {"weight": "weight"}),
    ("radius", {"weight": "weight"}),
    ("center", {"weight": "weight"}),
    ("periphery", {"weight": "weight"}),
    ("barycenter", {"weight": "weight"}),
    ("average_shortest_path_length", {"weight": "weight"}),
    ("wiener_index", {"weight": "weight"}),
    ("global_efficiency", {}),
]


def _outcome(call):
    try:
        return "ok", call()
    except Exception as exc:  # noqa: BLE001  (the exception type is what is compared)
        return "raised", type(exc)


@pytest.mark.parametrize("name,kwargs", MEASURES, ids=[f"{n}-{i}" for i, (n, _) in
                                                        enumerate(MEASURES)])
def test_measures_through_the_method(device, name, kwargs):
    """Every all-pairs measure with method="phast-batched" gives NetworkX's value (or
    raises its exception type) on connected and disconnected integer-weighted graphs."""
    func = getattr(nx, name)
    graphs = [nx.connected_watts_strogatz_graph(30, 4, 0.2, seed=s) for s in range(2)]
    graphs.append(nx.disjoint_union(nx.path_graph(5), nx.cycle_graph(6)))
    graphs.append(nx.gnp_random_graph(25, 0.15, seed=4, directed=True))
    for i, G in enumerate(graphs):
        rng = random.Random(i)
        for u, v in G.edges:
            G[u][v]["weight"] = rng.randint(0, 9)
        if name == "global_efficiency" and G.is_directed():
            continue  # NetworkX's is for undirected graphs
        expected = _outcome(lambda: func(G, **kwargs))
        got = _outcome(lambda: func(G, backend="gpusp", method=METHOD, **kwargs))
        assert got[0] == expected[0], (name, i, got, expected)
        if got[0] == "ok":
            assert_same_value(got[1], expected[1], strict_types=False)
        else:
            assert got[1] is expected[1]


def _road(n_side, seed=0):
    """A grid of streets with integer travel times: road-like (4 arcs a vertex)."""
    G = nx.grid_2d_graph(n_side, n_side)
    rng = random.Random(seed)
    for u, v in G.edges:
        G[u][v]["weight"] = rng.randint(1, 9)
    return G


def test_auto_picks_it_where_the_hierarchy_is_held(device):
    """method="auto" runs batched-spmm until the graph holds the default hierarchy (a
    method="phast" call built it), then phast-batched for many-source work; not for
    float or negative weights."""
    graph = from_networkx(_road(10), "weight")
    assert choose("all-pairs", "auto", graph, negative_ok=False, sources=graph.n).name \
        == "batched-spmm"
    get_method("sssp", "phast").solver(get_executor(device), graph, np.array([0]))
    assert hierarchy_built(graph)
    assert choose("all-pairs", "auto", graph, negative_ok=False, sources=graph.n).name \
        == METHOD
    assert choose("all-pairs", "auto", graph, negative_ok=True, sources=5).name == METHOD
    G = _road(10)
    for u, v in G.edges:
        G[u][v]["weight"] = 1.5
    floats = from_networkx(G, "weight")
    floats.__dict__["_phast_hierarchies"] = graph.__dict__["_phast_hierarchies"]
    assert choose("all-pairs", "auto", floats, negative_ok=False, sources=9).name \
        == "batched-spmm"


def test_auto_measure_and_all_pairs_use_it(device):
    """With the hierarchy held by the converted graph, closeness and the all-pairs
    paths under method="auto" run phast-batched (the length functions run Floyd-Warshall
    where its matrix fits, as before) and give NetworkX's answers."""
    import dataclasses

    from nx_gpusp.methods import METHODS

    G = _road(9, seed=3)
    nx.single_source_dijkstra_path_length(G, (0, 0), backend="gpusp", method="phast")
    ran = []
    original = METHODS[("all-pairs", METHOD)]

    def counted(*args, **kwargs):
        ran.append(1)
        yield from original.solver(*args, **kwargs)

    try:
        METHODS[("all-pairs", METHOD)] = dataclasses.replace(original, solver=counted)
        got = nx.closeness_centrality(G, distance="weight", backend="gpusp")
        assert ran, "method='auto' did not run phast-batched"
        assert_same_value(got, nx.closeness_centrality(G, distance="weight"))
        del ran[:]
        expected = dict(nx.all_pairs_dijkstra_path_length(G))
        for s, (dist, paths) in nx.all_pairs_dijkstra(G, backend="gpusp"):
            assert_lengths_equal(dist, expected[s])
            assert_paths_valid(G, paths, dist, s)
        assert ran
    finally:
        METHODS[("all-pairs", METHOD)] = original


def test_cost_model(monkeypatch):
    """build_pays_off: no build below AUTO_MIN_N vertices, on dense graphs, or for few
    sources; a build (and True) for enough sources on a road-like graph; a graph that
    does not contract is remembered and left alone."""
    graph = from_networkx(_road(12), "weight")
    assert not pb.build_pays_off(graph, 10**6)  # below AUTO_MIN_N
    monkeypatch.setattr(pb, "AUTO_MIN_N", 100)
    build = pb.BUILD_S_PER_ARC[pb.build_executor().is_cuda]  # where it builds
    breakeven = build / (pb.SPMM_S_PER_SOURCE_ARC - pb.PHAST_S_PER_SOURCE_ARC)
    assert not pb.build_pays_off(graph, int(breakeven) - 1)
    assert not hierarchy_built(graph)
    assert pb.build_pays_off(graph, int(breakeven) + 1)
    assert hierarchy_built(graph)
    dense = from_networkx(nx.complete_graph(120), None)
    assert not pb.build_pays_off(dense, 10**6)  # not road-like: nothing built
    assert not hierarchy_built(dense)

    from nx_gpusp.solvers.sssp import contraction

    monkeypatch.setattr(contraction, "PAIR_LIMIT", 4)  # as test_phast's refused graph
    monkeypatch.setattr(contraction, "MAX_CORE", 5)
    monkeypatch.setattr(pb, "ROAD_ARCS_PER_VERTEX", 10**6)
    refused = from_networkx(nx.complete_graph(120), "weight")
    assert not pb.build_pays_off(refused, 10**6)
    assert pb._REFUSED in refused.__dict__
    assert choose("all-pairs", "auto", refused, negative_ok=False,
                  sources=10**6).name == "batched-spmm"


def test_refusals(device):
    G = nx.path_graph(4)
    nx.set_edge_attributes(G, 1.5, "weight")
    with pytest.raises(ValueError, match="integer weights"):
        dict(nx.all_pairs_dijkstra_path_length(G, backend="gpusp", method=METHOD))
    D = nx.DiGraph([(0, 1, {"weight": -1}), (1, 2, {"weight": 3})])
    with pytest.raises(ValueError, match="negative weights"):
        dict(nx.all_pairs_bellman_ford_path_length(D, backend="gpusp", method=METHOD))
    with pytest.raises(ValueError, match="negative weights"):
        list(pb.phast_batched(get_executor(device), from_networkx(D, "weight"), [0]))
    with pytest.raises(ValueError, match="core_size"):
        dict(nx.all_pairs_dijkstra_path_length(nx.path_graph(3), backend="gpusp",
                                               method=METHOD, core_size=-1))
    with pytest.raises(TypeError, match="unexpected option"):
        dict(nx.all_pairs_dijkstra_path_length(nx.path_graph(3), backend="gpusp",
                                               method=METHOD, lane="s32"))


def test_real_road_graph(device, real):
    """rome99 (DIMACS road network): sampled sources against SciPy."""
    graph = real("rome99", as_csr=True)
    sources = np.random.default_rng(0).choice(graph.n, 40, replace=False)
    got, _ = _rows(device, graph, sources, batch=32)
    expected = dijkstra(scipy_matrix(graph), directed=graph.directed, indices=sources)
    np.testing.assert_array_equal(got, expected)


def test_sweep_segments():
    """A sweep's segments cover every in-arc once, in order, SEGMENT arcs of one head at
    most, and each level's segments are its heads' (none for a head without in-arcs)."""
    rng = np.random.default_rng(5)
    n, k = 3000, 150
    _, (ptr, tails, weights), _ = _random_hierarchy(rng, n, k, np.int64)
    level_ptr = [0, 7, 1500, n - k, n]
    s = sweep(get_executor("cpu"), level_ptr, ptr, tails, weights)
    heads = np.where(s.heads >= 0, s.heads, ~s.heads)
    arcs = np.concatenate([np.arange(a, b) for a, b in zip(s.starts, s.stops)])
    np.testing.assert_array_equal(arcs, np.arange(ptr[-1]))
    assert np.all((s.stops - s.starts <= SEGMENT) & (s.stops > s.starts))
    assert np.all((ptr[heads] <= s.starts) & (s.stops <= ptr[heads + 1]))
    shared = np.bincount(heads, minlength=n)[heads] > 1
    np.testing.assert_array_equal(s.heads < 0, shared)
    for lv in range(len(level_ptr) - 1):
        mine = heads[s.seg_ptr[lv]:s.seg_ptr[lv + 1]]
        assert np.all((mine >= level_ptr[lv]) & (mine < level_ptr[lv + 1]))
        with_arcs = np.flatnonzero(np.diff(ptr)[level_ptr[lv]:level_ptr[lv + 1]])
        np.testing.assert_array_equal(np.unique(mine) - level_ptr[lv], with_arcs)


def _random_hierarchy(rng, n, k, dtype, inf_share=0.3):
    """Random level pulls: a level's tails lie in other levels, as in a hierarchy (in-
    degrees past a segment's 32 arcs, so that heads span several warps)."""
    levels = ((0, 7), (7, 1500), (1500, n - k), (n - k, n), (n, n))
    ptr, tails, weights = random_level_pulls(rng, levels, rng.integers(0, 100, n))
    weights = weights.astype(dtype)
    matrix = rng.integers(0, 1000, (k, k)).astype(dtype)
    matrix[rng.random((k, k)) < 0.2] = distance_inf(dtype)
    np.fill_diagonal(matrix, 0)
    return levels, (ptr, tails, weights), matrix


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("dtype", [np.int32, np.int64])
@pytest.mark.parametrize("width", [32, 96, 256, 288])
def test_kernels_match_twin(dtype, width):
    """The level pulls, the core's product, the rows' transpose and a batch's start,
    CUDA against the NumPy twin, on random inputs (unreached entries, widths below, at
    and past one warp's 256 columns, a core not a multiple of the tile)."""
    rng = np.random.default_rng(width)
    n, k = 3000, 150
    levels, arcs, matrix = _random_hierarchy(rng, n, k, dtype)
    dist = rng.integers(0, 10**6, (n, width)).astype(dtype)
    dist[rng.random((n, width)) < 0.3] = distance_inf(dtype)
    pos = rng.permutation(n).astype(np.int32)
    count = width - 7
    results = []
    level_ptr = [0, 7, 1500, n - k, n]
    for ex in (Executor("cuda"), Executor("cpu")):
        ops = ex.ops("phast_batched")
        d = ex.asarray(dist.copy())
        arcs_by_level = sweep(ex, level_ptr, *arcs)
        for lv in range(3):
            ops.pull_level(arcs_by_level, lv, d)
        ops.core(n - k, ex.asarray(matrix), ex.xp.empty((k, width), dtype=dtype), d)
        out = ex.xp.empty((count, n), dtype=np.int64)
        ops.rows(ex.asarray(pos), d, count, out)
        results.append((ex.to_host(d), ex.to_host(out)))
        d2 = ex.asarray(dist.copy())
        ops.sweeps(arcs_by_level, arcs_by_level, ex.asarray(matrix),
                   ex.xp.empty((k, width), dtype=dtype), d2)
        results[-1] += (ex.to_host(d2),)
        d3 = ex.asarray(dist.copy())  # the recorded sweeps, run again on new contents
        run = ops.recorded_sweeps(arcs_by_level, arcs_by_level, ex.asarray(matrix),
                                  ex.xp.empty((k, width), dtype=dtype), d3)
        run()
        d3[...] = ex.asarray(dist[::-1].copy())
        run()
        results[-1] += (ex.to_host(d3),)
        d4 = ex.xp.empty((n, width), dtype=dtype)  # a batch's start (a source repeated)
        ops.init(ex.asarray(np.r_[pos[:count - 1], pos[0]].astype(np.int32)), d4)
        results[-1] += (ex.to_host(d4),)
    for a, b in zip(*results):
        np.testing.assert_array_equal(a, b)


def test_workers_get_the_hierarchy():
    """A Dask worker's copy of the graph (nx_gpusp.distributed) carries the hierarchies
    the graph holds, as host arrays that survive pickling, and answers the same."""
    import pickle

    from nx_gpusp.distributed import _worker_copy

    graph = from_networkx(_road(8), "weight")
    assert "_phast_hierarchies" not in _worker_copy(graph).__dict__
    expected, _ = _rows("cpu", graph, np.arange(graph.n), core_size=5)
    get_method("sssp", "phast").solver(get_executor("cpu"), graph, np.array([0]))
    copy = pickle.loads(pickle.dumps(_worker_copy(graph)))
    assert hierarchy_built(copy) and set(copy._phast_hierarchies) == {5, 2048}
    for size, h in copy._phast_hierarchies.items():
        np.testing.assert_array_equal(h.order, graph._phast_hierarchies[size].order)
        assert h._device == {}
    got, _ = _rows("cpu", copy, np.arange(graph.n), core_size=5)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
def test_recorded_sweeps_keep_their_arrays():
    """Sweeps recorded over temporaries (a CUDA graph holds only their addresses) keep
    them: after CuPy's pool has handed out memory of their sizes again, they still
    answer the twin's rows."""
    rng = np.random.default_rng(5)
    n, k, width = 3000, 150, 32
    _, arcs, matrix = _random_hierarchy(rng, n, k, np.int64)
    dist = rng.integers(0, 10**6, (n, width))
    level_ptr = [0, 7, 1500, n - k, n]
    cpu = Executor("cpu")
    want = dist.copy()
    s = sweep(cpu, level_ptr, *arcs)
    cpu.ops("phast_batched").sweeps(s, s, matrix, np.empty((k, width), np.int64), want)
    ex = Executor("cuda")
    s = sweep(ex, level_ptr, *arcs)
    d = ex.asarray(dist)
    run = ex.ops("phast_batched").recorded_sweeps(s, s, ex.asarray(matrix),
                                                  ex.xp.empty((k, width), np.int64), d)
    gc.collect()
    fill = ex.ops("array_ops").full
    others = [fill(size, 7, np.int64) for size in (k * k, k * width) for _ in range(8)]
    run()
    np.testing.assert_array_equal(ex.to_host(d), want)
    assert len(others) == 16


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
def test_recorded_and_launched_sweeps_match_the_twin():
    """On a road-like grid of many levels: the CUDA graph of the sweeps (recorded once,
    reused by a later call), the sweeps launched level by level, and the twin give the
    same rows, and SciPy's."""
    graph = from_networkx(_road(40, seed=7), "weight")
    sources = np.arange(0, graph.n, 5)
    expected = dijkstra(scipy_matrix(graph), directed=graph.directed, indices=sources)
    twin, _ = _rows("cpu", graph, sources, core_size=16, batch=64)
    np.testing.assert_array_equal(twin, expected)
    for cuda_graph in (True, False, True):
        got, _ = _rows("cuda", graph, sources, core_size=16, batch=64, cuda_graph=cuda_graph)
        np.testing.assert_array_equal(got, expected)
    got, _ = _rows("cuda", graph, sources[:7], core_size=16)  # another width
    np.testing.assert_array_equal(got, expected[:7])


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
def test_single_source_recorded_sweeps():
    """Single-source phast's sweeps, recorded once per hierarchy as a CUDA graph over a
    working copy kept with it: queries alternating between several hierarchies, from
    one source and from several, give SciPy's distances."""
    ex = get_executor("cuda")
    phast = get_method("sssp", "phast")
    graphs = [from_networkx(_road(12 + i, seed=i), "weight") for i in range(6)]
    for _ in range(2):
        for graph in graphs:
            for s in (0, graph.n // 2, graph.n - 1):
                got = ex.to_host(phast.solver(ex, graph, np.array([s]), core_size=8).dist)
                expected = dijkstra(scipy_matrix(graph), directed=graph.directed, indices=s)
                np.testing.assert_array_equal(float_distances(got), expected)
            several = np.array([1, graph.n // 3, 1, graph.n - 2])
            got = ex.to_host(phast.solver(ex, graph, several, core_size=8).dist)
            expected = dijkstra(scipy_matrix(graph), directed=graph.directed,
                                indices=several).min(axis=0)
            np.testing.assert_array_equal(float_distances(got), expected)
