"""Batched all-pairs SSSP and Johnson against NetworkX (and scipy.sparse.csgraph), and
the batched kernels against their NumPy twins (marker gpu)."""

import logging

import networkx as nx
import numpy as np
import pytest

from graphs import assert_lengths_equal, assert_paths_valid, graph_cases, random_graph
from nx_gpusp.executor import Executor, cuda_available
from nx_gpusp.methods import methods_for

# every weighted all-pairs method of the registry (batched-bfs, unit weights only, is
# checked with the unweighted functions; the integer-only ones, phast-batched, have
# their own tests, tests/test_phast_batched.py: these cases hold float weights), the
# automatic choice, and a single-source method run one source at a time; Floyd-Warshall
# methods answer the length functions
ALL_PAIRS = sorted(m.name for m in methods_for("all-pairs")
                   if not m.unit_weights_only and not m.integer_weights_only)
INTEGER_ALL_PAIRS = sorted(m.name for m in methods_for("all-pairs") if m.integer_weights_only)
NEGATIVE_ALL_PAIRS = sorted(m.name for m in methods_for("all-pairs") if m.negative_weights)
FLOYD_WARSHALL = sorted(m.name for m in methods_for("floyd-warshall"))
METHODS = ALL_PAIRS + [None, "frontier"]
NEGATIVE_METHODS = NEGATIVE_ALL_PAIRS + [None, "frontier"]
CASES = graph_cases(8, seed=11)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_all_pairs_dijkstra(device, method, case):
    _, G = case
    expected = dict(nx.all_pairs_dijkstra_path_length(G))
    got = dict(nx.all_pairs_dijkstra_path_length(G, backend="gpusp", method=method))
    assert list(got) == list(G)
    for s in G:
        assert_lengths_equal(got[s], expected[s])
    both = dict(nx.all_pairs_dijkstra(G, backend="gpusp", method=method))
    paths = dict(nx.all_pairs_dijkstra_path(G, backend="gpusp", method=method))
    for s in G:
        assert_lengths_equal(both[s][0], expected[s])
        assert_paths_valid(G, both[s][1], expected[s], s)
        assert_paths_valid(G, paths[s], expected[s], s)


@pytest.mark.parametrize("method", METHODS + FLOYD_WARSHALL + INTEGER_ALL_PAIRS)
def test_all_pairs_dijkstra_cutoff(device, method):  # integer weights
    G = random_graph(4, n=35, p=0.2, zero_fraction=0.2)
    for cutoff in (0, 7, 12.5):
        expected = dict(nx.all_pairs_dijkstra_path_length(G, cutoff=cutoff))
        got = dict(nx.all_pairs_dijkstra_path_length(G, cutoff=cutoff, backend="gpusp",
                                                     method=method))
        assert got == expected
        if method not in FLOYD_WARSHALL:
            paths = dict(nx.all_pairs_dijkstra_path(G, cutoff=cutoff, backend="gpusp",
                                                    method=method))
            for s in G:
                assert_paths_valid(G, paths[s], expected[s], s)


@pytest.mark.parametrize("method", NEGATIVE_METHODS + FLOYD_WARSHALL)
@pytest.mark.parametrize("seed", [1, 2])
def test_all_pairs_bellman_ford_negative(device, method, seed):
    G = random_graph(seed, n=35, p=0.15, negative=True, zero_fraction=0.3)
    expected = dict(nx.all_pairs_bellman_ford_path_length(G))
    got = dict(nx.all_pairs_bellman_ford_path_length(G, backend="gpusp", method=method))
    assert got == expected
    if method not in FLOYD_WARSHALL:
        paths = dict(nx.all_pairs_bellman_ford_path(G, backend="gpusp", method=method))
        for s in G:
            assert_paths_valid(G, paths[s], expected[s], s)


@pytest.mark.parametrize("method", sorted(set(m.name for m in methods_for("all-pairs"))
                                          - set(NEGATIVE_ALL_PAIRS)))
def test_methods_without_negative_weights_refuse_them(device, method):
    G = random_graph(1, n=10, p=0.5, negative=True)
    with pytest.raises(ValueError):
        dict(nx.all_pairs_bellman_ford_path_length(G, backend="gpusp", method=method))
    with pytest.raises(ValueError, match="negative weights"):
        dict(nx.all_pairs_dijkstra_path_length(G, backend="gpusp", method=method))


NEGATIVE_CYCLE = nx.DiGraph([(0, 1, {"weight": 2}), (1, 2, {"weight": -3}),
                             (2, 0, {"weight": 0}), (3, 0, {"weight": 1})])


@pytest.mark.parametrize("method", NEGATIVE_METHODS)
def test_negative_cycle(device, method):
    for func in (nx.all_pairs_bellman_ford_path_length, nx.all_pairs_bellman_ford_path):
        with pytest.raises(nx.NetworkXUnbounded):
            dict(func(NEGATIVE_CYCLE, backend="gpusp", method=method))
    if method not in (None, "frontier"):
        with pytest.raises(nx.NetworkXUnbounded):
            nx.johnson(NEGATIVE_CYCLE, backend="gpusp", method=method)


@pytest.mark.parametrize("method", ALL_PAIRS + [None])
@pytest.mark.parametrize("kw", [dict(negative=True, zero_fraction=0.3),
                                dict(negative=True, weights="float"),
                                dict(directed=False, labels="str", disconnected=True)],
                         ids=["int", "float", "undirected"])
def test_johnson(device, method, kw):
    G = random_graph(7, n=30, p=0.2, **kw)
    expected = nx.johnson(G)
    lengths = dict(nx.all_pairs_bellman_ford_path_length(G))
    got = nx.johnson(G, backend="gpusp", method=method)
    assert set(got) == set(expected)
    for s in G:
        assert set(got[s]) == set(expected[s])
        assert_paths_valid(G, got[s], lengths[s], s)


@pytest.mark.parametrize("method, options", [("batched-frontier", {"batch": 3}),
                                             ("batched-spmm", {"batch": 3}),
                                             ("apsp-concurrent", {"streams": 3, "block_size": 32})])
def test_chunked_sources(device, method, options):
    """Sources split into several chunks (and streams) give the same answers."""
    G = random_graph(5, n=25, p=0.2, zero_fraction=0.3)
    expected = dict(nx.all_pairs_dijkstra_path_length(G))
    paths = dict(nx.all_pairs_dijkstra_path(G, backend="gpusp", method=method, **options))
    for s in G:
        assert_paths_valid(G, paths[s], expected[s], s)


def test_matches_scipy_csgraph(device):
    from scipy.sparse.csgraph import shortest_path

    G = random_graph(12, n=60, p=0.05, weights="float")
    expected = shortest_path(nx.to_scipy_sparse_array(G, nodelist=list(G)), method="D")
    got = dict(nx.all_pairs_dijkstra_path_length(G, backend="gpusp", method="batched-frontier"))
    for i, s in enumerate(G):
        row = np.array([got[s].get(t, np.inf) for t in G])
        np.testing.assert_allclose(row, expected[i], rtol=1e-12)


def test_progress_is_logged(device, caplog, monkeypatch):
    import nx_gpusp.solvers.apsp.progress as progress

    monkeypatch.setattr(progress, "tqdm_available", lambda: False)  # log lines, not a bar
    G = random_graph(3, n=20, p=0.2)
    with caplog.at_level(logging.INFO, logger="nx_gpusp"):
        dict(nx.all_pairs_dijkstra_path_length(G, backend="gpusp", method="batched-frontier"))
    assert any("20/20 sources done" in r.getMessage() for r in caplog.records)


def test_generator_streams_lazily(device):
    """The first rows arrive before later chunks are computed (batch of 2)."""
    G = random_graph(6, n=30, p=0.2)
    gen = nx.all_pairs_dijkstra_path(G, backend="gpusp", method="batched-frontier", batch=2)
    first = next(gen)
    assert first[0] == next(iter(G))
    gen.close()


# -- kernels against their twins ---------------------------------------------------------
@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("weights", ["int", "float"])
def test_batched_frontier_matches_twin(weights):
    from nx_gpusp.convert import from_networkx
    from nx_gpusp.solvers.apsp.batched import FrontierBatch

    G = random_graph(9, n=200, p=0.03, weights=weights, zero_fraction=0.3)
    graph = from_networkx(G, "weight")
    out = []
    for ex in (Executor("cuda"), Executor("cpu")):
        batch = FrontierBatch(ex, graph, np.arange(0, 200, 7), cutoff=None, want_pred=True).run()
        out.append((ex.to_host(batch.dist), ex.to_host(batch.pred)))
    (dg, pg), (dc, pc) = out
    np.testing.assert_array_equal(dg, dc)
    # predecessors may differ between equally short arcs (atomic order): both must be tight
    tails = np.repeat(np.arange(graph.n), np.diff(graph.indptr))
    w = {(int(u), int(v)): x for u, v, x in zip(tails, graph.indices, graph.weights)}
    for dist, pred in ((dg, pg), (dc, pc)):
        r, v = np.nonzero(pred >= 0)
        u = pred[r, v]
        np.testing.assert_allclose(dist[r, v], dist[r, u] + [w[(a, b)] for a, b in zip(u, v)])


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("dtype", [np.int64, np.float64])
def test_dijkstra_per_thread_matches_twin(dtype):
    rng = np.random.default_rng(4)
    n = 90
    inf = np.inf if np.dtype(dtype).kind == "f" else np.iinfo(dtype).max
    w0 = np.where(rng.random((n, n)) < 0.08, rng.integers(0, 9, (n, n)), inf).astype(dtype)
    sources = np.arange(0, n, 3, dtype=np.int32)
    out = []
    for ex in (Executor("cuda"), Executor("cpu")):
        dist, pred = ex.ops("apsp_dijkstra").dijkstra_per_thread(
            ex.asarray(w0), ex.asarray(sources), inf, True)
        out.append((ex.to_host(dist), ex.to_host(pred)))
    np.testing.assert_array_equal(out[0][0], out[1][0])
    np.testing.assert_array_equal(out[0][1], out[1][1])


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("weights, scale, lane", [("int", 1, np.int32), ("int", 10**8, np.int64),
                                                  ("float", 1, np.float64)])
def test_batched_spmm_matches_twin(weights, scale, lane):
    """Converged distances and tight-arc predecessors of the CUDA rounds equal the twin's,
    on several chunks of sources (300 sources: 3 int32 chunks, 5 of the 64-bit ones)."""
    from types import SimpleNamespace

    from nx_gpusp.convert import from_networkx
    from nx_gpusp.solvers.apsp.spmm import SpmmBatch, storage_dtype

    G = random_graph(9, n=300, p=0.02, weights=weights)
    for _, _, d in G.edges(data=True):
        d["weight"] = d["weight"] * scale + 1  # positive: predecessors from tight arcs
    graph = from_networkx(G, "weight")
    assert storage_dtype(graph) == lane
    out = []
    for ex in (Executor("cuda"), Executor("cpu")):
        rg = graph.reverse.on(ex)
        arcs = SimpleNamespace(indptr=rg.indptr, indices=rg.indices, n=rg.n,
                               weights=rg.weights.astype(lane))
        run = SpmmBatch(ex, graph, arcs, np.arange(graph.n), np.dtype(lane))
        run.run()
        batch = run.result(want_pred=True)
        out.append((ex.to_host(batch.dist), ex.to_host(batch.pred), run.rounds))
    (dg, pg, _), (dc, pc, rounds) = out
    np.testing.assert_array_equal(dg, dc)
    np.testing.assert_array_equal(pg, pc)
    assert rounds > 4 and (pc >= 0).sum() > graph.n


@pytest.mark.parametrize("rows, cols, limit", [(7, 5, 1), (7, 5, 6), (7, 5, 35), (3, 0, 4)])
def test_mark_unreached_in_slices(rows, cols, limit, monkeypatch):
    """mark_unreached sets ``value`` where the source holds "unreached", whatever the
    number of rows a slice covers (MASK_ENTRIES, here a few entries)."""
    from nx_gpusp import graph as graph_module

    rng = np.random.default_rng(rows * cols + limit)
    d = rng.integers(0, 9, (rows, cols)).astype(np.int32)
    d[rng.random((rows, cols)) < 0.3] = np.iinfo(np.int32).max
    expected = d.astype(np.int64)
    expected[d == np.iinfo(np.int32).max] = np.iinfo(np.int64).max
    monkeypatch.setattr(graph_module, "MASK_ENTRIES", limit)
    got = graph_module.mark_unreached(d.astype(np.int64), d, np.iinfo(np.int64).max)
    np.testing.assert_array_equal(got, expected)
    floats = graph_module.float_distances(d)
    np.testing.assert_array_equal(floats, np.where(d == np.iinfo(np.int32).max, np.inf, d))


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
def test_batched_spmm_block_past_two_to_the_31_entries():
    """A batch of batched-spmm whose B x n rows pass 2**31 entries (int32 storage widened
    to int64; what a large device's batch holds on a graph of 10**5 vertices): CuPy's
    mask assignment would overflow, the rows are NetworkX's."""
    from nx_gpusp.convert import from_networkx
    from nx_gpusp.solvers.apsp.spmm import batched_spmm, storage_dtype

    ex = Executor("cuda")
    n, b = 1 << 17, (1 << 14) + 64  # b * n > 2**31
    if ex.free_bytes() < 40 * (1 << 30):
        pytest.skip("fewer than 40 GiB of free device memory")
    G = nx.gnm_random_graph(n, 3 * n, seed=5, directed=True)
    G.remove_edges_from([(u, v) for u, v in G.edges if u == 0 or v == 0])  # 0 unreached
    rng = np.random.default_rng(5)
    for _, _, d in G.edges(data=True):
        d["weight"] = int(rng.integers(1, 10))
    graph = from_networkx(G, "weight")
    assert storage_dtype(graph) == np.int32
    sources = np.arange(1, b + 1, dtype=np.int64)
    (batch,) = batched_spmm(ex, graph, sources, want_pred=False, batch=b)
    assert batch.dist.shape == (b, n) and batch.dist.size > (1 << 31)
    for k in (0, b // 2, b - 1):
        want = nx.single_source_dijkstra_path_length(G, int(sources[k]))
        row = ex.to_host(batch.dist[k])
        reached = row != np.iinfo(np.int64).max
        assert dict(zip(np.flatnonzero(reached).tolist(), row[reached].tolist())) == want
        assert not reached[0]
