"""The BFS solvers (bfs methods, batched-bfs) against SciPy's breadth-first distances on
random CSR graphs, per device: levels, BFS trees, multiple sources, cutoff, early exit
at a target, weights refused; and (marker gpu) the kernels of bfs.cu and ms_bfs.cu
against their NumPy twins on the same random states."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

from nx_gpusp import datasets
from nx_gpusp.executor import Executor, cuda_available, get_executor
from nx_gpusp.graph import CSRGraph
from nx_gpusp.methods import AUTO, get_method, methods_for
from nx_gpusp.ops.bfs import (CHUNK, S_ARCS, S_FOUND, S_LEVEL, S_PARITY, S_SEEN_IN, S_SIZE,
                              STATUS, UNSEEN, chunk_capacity)
from nx_gpusp.ops.ms_bfs import last_word_mask
from nx_gpusp.solvers.apsp.batched_bfs import MultiSourceBFS
from nx_gpusp.solvers.sssp import distance_inf
from nx_gpusp.solvers.sssp.bfs import BFSRun, depth_limit, distances_from_levels

INF = distance_inf(np.int64)
BFS_METHODS = sorted(m.name for m in methods_for("bfs"))
# every bfs method of the registry, plus option settings that change the control flow
SINGLE = [(m, {}) for m in BFS_METHODS] + [
    ("top-down", {"block_arcs": 0}), ("top-down", {"block_arcs": 40}),
    ("direction-optimizing", {"block_arcs": 0}),
    ("direction-optimizing", {"block_arcs": 0, "alpha": 10**9, "beta": 1}),
    ("direction-optimizing", {"alpha": 1, "beta": 10**9})]
SINGLE_IDS = [f"{m}-{o}" for m, o in SINGLE]


def _graph(seed, n=400, m=2400, directed=True, hubs=(), weighted=False):
    """A random graph with optional hubs (vertex, arcs) to exercise the warp, block and
    chunk tiers, some isolated vertices and self-loops."""
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    for hub, arcs in hubs:
        src = np.r_[src, np.full(arcs, hub)]
        dst = np.r_[dst, rng.integers(0, n, arcs)]
        src = np.r_[src, rng.integers(0, n, arcs // 4)]  # and into it
        dst = np.r_[dst, np.full(arcs // 4, hub)]
    isolated = rng.choice(n, n // 20, replace=False)
    keep = ~(np.isin(src, isolated) | np.isin(dst, isolated))
    w = rng.integers(1, 9, keep.sum()) if weighted else None
    return CSRGraph.from_edge_arrays(n, src[keep], dst[keep], w, directed=directed)


GRAPHS = [_graph(1), _graph(2, directed=False), _graph(3, n=3000, m=9000),
          _graph(4, n=2500, m=8000, hubs=[(7, 3000), (8, 200), (9, 40)]),
          _graph(5, n=50, m=40), CSRGraph.from_edge_arrays(1, [], []),
          datasets.road_grid(30, 40).unit_weights, datasets.rmat(11).unit_weights]


def _reference_rows(graph, sources):
    """SciPy's hop distances from each source (int64 rows, INF unreached)."""
    A = sp.csr_matrix((np.ones(graph.m), graph.indices, graph.indptr), shape=(graph.n,) * 2)
    d = np.atleast_2d(csgraph.shortest_path(A, unweighted=True, indices=sources,
                                            directed=True))
    out = np.full(d.shape, INF, dtype=np.int64)
    out[np.isfinite(d)] = d[np.isfinite(d)]
    return out


def _reference(graph, sources):
    """Hop distances from the nearest of ``sources``."""
    return _reference_rows(graph, sources).min(axis=0)


def _check_tree(graph, dist, parent, sources):
    """parent[v] is a tail one level up with an arc to v, for every reached non-source."""
    reached = np.flatnonzero(dist != INF)
    others = np.setdiff1d(reached, sources)
    assert np.all(parent[np.setdiff1d(np.arange(graph.n), others)] == -1)
    p = parent[others]
    assert np.all(dist[p] == dist[others] - 1)
    assert _are_arcs(graph, p, others)


def _check_trees(graph, dist, pred, sources):
    """_check_tree for every row of a batch (row k searched from sources[k])."""
    rows, cols = np.nonzero(dist != INF)
    inner = cols != np.asarray(sources)[rows]
    assert np.all(pred[dist == INF] == -1) and np.all(pred[rows[~inner], cols[~inner]] == -1)
    rows, cols = rows[inner], cols[inner]
    tails = pred[rows, cols]
    assert np.all(dist[rows, tails] == dist[rows, cols] - 1)
    assert _are_arcs(graph, tails, cols)


def _are_arcs(graph, tails, heads):
    keys = graph.__dict__.get("_test_arc_keys")
    if keys is None:  # CSR rows are sorted by tail then head: so are the keys
        keys = np.repeat(np.arange(graph.n, dtype=np.int64), graph.out_degree) * graph.n \
            + graph.indices
        graph.__dict__["_test_arc_keys"] = keys
    want = np.asarray(tails, dtype=np.int64) * graph.n + heads
    at = np.minimum(np.searchsorted(keys, want), max(len(keys) - 1, 0))
    return len(want) == 0 or bool(np.all(keys[at] == want))


def _executor(device):
    return get_executor(device)


def test_methods_registered():
    assert BFS_METHODS  # the registry is filled (else the tests are parametrised away)
    assert AUTO["bfs"](None, False) == "direction-optimizing"
    assert get_method("all-pairs", "batched-bfs").unit_weights_only
    assert all(m.unit_weights_only for m in methods_for("bfs"))


@pytest.mark.parametrize("method,options", SINGLE, ids=SINGLE_IDS)
def test_single_source_levels_and_tree(device, method, options):
    ex = _executor(device)
    solve = get_method("bfs", method).solver
    for graph in GRAPHS:
        rng = np.random.default_rng(graph.n)
        for sources in ([0], [graph.n - 1], rng.choice(graph.n, min(4, graph.n)).tolist()):
            r = solve(ex, graph, sources, **options)
            dist = ex.to_host(distances_from_levels(r.dist))
            np.testing.assert_array_equal(dist, _reference(graph, sources))
            _check_tree(graph, dist, ex.to_host(r.pred), np.unique(sources))
            assert r.stats["levels"] == dist[dist != INF].max() + 1  # the last expands nothing


@pytest.mark.parametrize("method,options", SINGLE, ids=SINGLE_IDS)
def test_cutoff_and_target(device, method, options):
    ex = _executor(device)
    solve = get_method("bfs", method).solver
    for graph in GRAPHS[:5] + GRAPHS[6:]:
        full = _reference(graph, [0])
        for cutoff in (0, 1, 2.7, 5, -3, 10**15):
            r = solve(ex, graph, [0], cutoff=cutoff, want_pred=False, **options)
            assert r.pred is None
            dist = ex.to_host(distances_from_levels(r.dist))
            depth = depth_limit(cutoff)
            np.testing.assert_array_equal(dist, full if depth is None else
                                          np.where(full <= depth, full, INF))
        reached = np.flatnonzero(full != INF)
        for t in reached[np.linspace(0, len(reached) - 1, 6).astype(int)].tolist():
            r = solve(ex, graph, [0], target=t, **options)
            dist = ex.to_host(distances_from_levels(r.dist))
            assert dist[t] == full[t]
            assert dist[dist != INF].max() == full[t]  # stopped after the target's level
            _check_tree(graph, dist, ex.to_host(r.pred), [0])


def test_direction_optimizing_goes_bottom_up_and_back(device):
    """On R-MAT the frontier's arcs pass m_u / alpha: bottom-up levels run, then the
    shrinking frontier returns to top-down; on a road grid it never leaves top-down."""
    ex = _executor(device)
    solve = get_method("bfs", "direction-optimizing").solver
    rmat = datasets.rmat(13).unit_weights
    r = solve(ex, rmat, [int(np.argmax(rmat.out_degree))], block_arcs=0)
    assert r.stats["bottom_up_levels"] >= 1 and r.stats["top_down_levels"] >= 2
    road = datasets.road_grid(40, 40).unit_weights
    r = solve(ex, road, [0])
    assert r.stats["bottom_up_levels"] == 0 and r.stats["block_launches"] == 1
    assert r.stats["block_levels"] == r.stats["levels"] == 79  # corner to corner: 78 hops


@pytest.mark.parametrize("method", BFS_METHODS)
def test_single_source_refuses_weights(device, method):
    graph = _graph(1, weighted=True)
    with pytest.raises(ValueError, match="hop counts"):
        get_method("bfs", method).solver(_executor(device), graph, [0])
    ones = CSRGraph(graph.indptr, graph.indices, np.ones(graph.m, dtype=np.int64))
    get_method("bfs", method).solver(_executor(device), ones, [0])  # all weights 1: fine


@pytest.mark.parametrize("options", [{}, {"direction": "top-down"}, {"direction": "bottom-up"},
                                     {"batch": 7}, {"batch": 64}, {"batch": 65}, {"alpha": 1}],
                         ids=repr)
def test_batched_bfs_rows(device, options):
    ex = _executor(device)
    solve = get_method("all-pairs", "batched-bfs").solver
    for graph in GRAPHS:
        rng = np.random.default_rng(7)
        sources = rng.integers(0, graph.n, min(130, 3 * graph.n))
        expected = _reference_rows(graph, sources)
        rows, pos = 0, 0
        for batch in solve(ex, graph, sources, **options):
            assert np.array_equal(batch.sources, sources[pos:pos + len(batch.sources)])
            dist, pred = ex.to_host(batch.dist), ex.to_host(batch.pred)
            np.testing.assert_array_equal(dist, expected[pos:pos + len(batch.sources)])
            _check_trees(graph, dist, pred, batch.sources)
            pos += len(batch.sources)
            rows += 1
        assert pos == len(sources)
        if options.get("batch") == 64:
            assert rows == -(-len(sources) // 64)
        elif not options:
            assert rows == 1  # the twin's batch holds them all


def test_batched_bfs_cutoff_and_no_pred(device):
    ex = _executor(device)
    solve = get_method("all-pairs", "batched-bfs").solver
    graph = GRAPHS[6]
    sources = np.arange(0, graph.n, 7)
    full = _reference_rows(graph, sources)
    for cutoff in (0, 3, 4.5):
        got = [b for b in solve(ex, graph, sources, cutoff=cutoff, want_pred=False)]
        assert all(b.pred is None for b in got)
        np.testing.assert_array_equal(np.vstack([ex.to_host(b.dist) for b in got]),
                                      np.where(full <= depth_limit(cutoff), full, INF))


def test_batched_bfs_refuses_weights(device):
    solve = get_method("all-pairs", "batched-bfs").solver
    with pytest.raises(ValueError, match="'batched-bfs' computes hop counts"):
        next(solve(_executor(device), _graph(2, weighted=True), [0, 1]))


# -- CUDA kernels against their twins -------------------------------------------------
def needs_gpu(test):
    return pytest.mark.gpu(pytest.mark.skipif(not cuda_available(),
                                              reason="no CUDA GPU (CuPy) here")(test))


@pytest.fixture(scope="module")
def executors():
    return Executor("cuda"), Executor("cpu")


KERNEL_GRAPHS = [_graph(11, n=4000, m=30000, hubs=[(3, 5000), (4, 1500), (5, 700), (6, 90)]),
                 _graph(12, n=5000, m=20000, directed=False, hubs=[(1, 3000), (2, 300)]),
                 datasets.rmat(12).unit_weights]


def _state_at(graph, source, level):
    """A twin run's state after ``level`` top-down grid levels: (levels, parent, frontier
    queue, size), or None if the search ends before."""
    run = BFSRun(Executor("cpu"), graph, [source], cutoff=None, want_pred=True, target=None,
                 block_arcs=0)
    while run.level < level:
        if not run.more():
            return None
        run.grid_level(bottom_up=False)
    return (run.levels.copy(), run.parent.copy(), run.queues[run.cur][:run.size].copy(),
            run.size)


def _levels_match(graph, results, level):
    """Twin and CUDA agree on levels; each parent is a frontier vertex with an arc."""
    (l1, p1, q1, s1), (l2, p2, q2, s2) = results
    np.testing.assert_array_equal(l1, l2)
    np.testing.assert_array_equal(np.sort(q1), np.sort(q2))
    np.testing.assert_array_equal(s1[[S_SIZE, S_ARCS, S_SEEN_IN, S_FOUND]],
                                  s2[[S_SIZE, S_ARCS, S_SEEN_IN, S_FOUND]])
    new = np.flatnonzero(l1 == level + 1)
    for p in (p1, p2):
        assert np.all(l1[p[new]] == level)
        assert _are_arcs(graph, p[new], new)


@needs_gpu
@pytest.mark.parametrize("gi", range(len(KERNEL_GRAPHS)))
@pytest.mark.parametrize("level", [0, 1, 2, 3])
@pytest.mark.parametrize("bottom_up", [False, True])
@pytest.mark.parametrize("with_parent", [True, False])
@pytest.mark.parametrize("seed", range(2))
def test_grid_level_matches_twin(executors, gi, level, bottom_up, with_parent, seed):
    graph = KERNEL_GRAPHS[gi]
    source = int(np.random.default_rng(seed).integers(graph.n))
    state = _state_at(graph, source, level)
    if state is None:
        pytest.skip("search ended before this level")
    levels0, parent0, queue0, size = state
    target = int(np.flatnonzero(levels0 == UNSEEN)[seed]) if seed else -1
    out = []
    for ex in executors:
        g, rg = graph.on(ex), graph.reverse.on(ex)
        lv, par = ex.asarray(levels0.copy()), ex.asarray(parent0.copy())
        queue, nxt = ex.asarray(np.r_[queue0, np.zeros(graph.n - size, np.int32)]), \
            ex.asarray(np.full(graph.n, -5, np.int32))
        status = ex.asarray(np.zeros(STATUS, np.uint64))
        ops = ex.ops("bfs")
        indeg = graph.on_device(ex, "in_degree")
        p = par if with_parent else None
        if bottom_up:
            ops.bottom_up_level(rg, g, indeg, lv, p, level, nxt, target, status)
        else:
            chunks = ex.xp.zeros(chunk_capacity(graph.m), dtype=np.int64)
            ops.top_down_level(g, indeg, lv, p, queue, size, level, nxt, target, status, chunks)
        st = ex.to_host(status)
        k = int(st[S_SIZE])
        out.append((ex.to_host(lv), ex.to_host(par), ex.to_host(nxt)[:k], st))
    if with_parent:
        _levels_match(graph, out, level)
    else:
        np.testing.assert_array_equal(out[0][0], out[1][0])
        assert np.all(out[0][1] == parent0)  # untouched
    if target >= 0:
        assert out[0][3][S_FOUND] == (out[0][0][target] == level + 1)


@needs_gpu
@pytest.mark.parametrize("gi", range(len(KERNEL_GRAPHS)))
@pytest.mark.parametrize("arc_limit,stop_level", [(10**12, 10**6), (2000, 10**6), (0, 10**6),
                                                  (10**12, 2)])
@pytest.mark.parametrize("seed", range(3))
def test_block_levels_match_twin(executors, gi, arc_limit, stop_level, seed):
    graph = KERNEL_GRAPHS[gi]
    rng = np.random.default_rng(seed)
    source = int(rng.integers(graph.n))
    full = _reference(graph, [source])
    target = int(rng.choice(np.flatnonzero(full != INF))) if seed == 2 else -1
    out = []
    for ex in executors:
        g = graph.on(ex)
        levels = ex.asarray(np.where(np.arange(graph.n) == source, 0, UNSEEN).astype(np.int32))
        parent = ex.asarray(np.full(graph.n, -1, np.int32))
        qa = ex.asarray(np.r_[np.int32(source), np.zeros(graph.n - 1, np.int32)])
        qb = ex.asarray(np.zeros(graph.n, np.int32))
        status = ex.asarray(np.zeros(STATUS, np.uint64))
        ex.ops("bfs").block_levels(g, graph.on_device(ex, "in_degree"), levels, parent, qa, qb,
                                   1, 0, stop_level, arc_limit, target, status)
        st = ex.to_host(status)
        queue = ex.to_host(qb if st[S_PARITY] else qa)[:int(st[S_SIZE])]
        out.append((ex.to_host(levels), ex.to_host(parent), queue, st))
    (l1, p1, q1, s1), (l2, p2, q2, s2) = out
    np.testing.assert_array_equal(l1, l2)
    np.testing.assert_array_equal(np.sort(q1), np.sort(q2))
    fields = [S_SIZE, S_ARCS, S_SEEN_IN, S_FOUND, S_LEVEL, S_PARITY]
    np.testing.assert_array_equal(s1[fields], s2[fields])
    dist = distances_from_levels(l1)
    np.testing.assert_array_equal(dist, np.where(full <= s1[S_LEVEL], full, INF))
    for p in (p1, p2):
        _check_tree(graph, dist, p, [source])


def _ms_state(graph, sources, levels):
    """A twin multi-source run after ``levels`` levels (arrays on the host)."""
    run = MultiSourceBFS(Executor("cpu"), graph, sources, cutoff=None, want_pred=True,
                         alpha=4, direction="top-down")
    for _ in range(levels):
        run.ops.top_down(run.g, run.words, run.frontier, run.seen, run.next, run.dist,
                         run.pred, run.level)
        run.level += 1
        run.advance()
    return run


@needs_gpu
@pytest.mark.parametrize("gi", range(len(KERNEL_GRAPHS)))
@pytest.mark.parametrize("count", [1, 64, 100, 200])
@pytest.mark.parametrize("level", [0, 1, 2])
@pytest.mark.parametrize("op", ["top_down", "bottom_up"])
def test_ms_bfs_level_matches_twin(executors, gi, count, level, op):
    graph = KERNEL_GRAPHS[gi]
    sources = np.random.default_rng(count).integers(0, graph.n, count)
    run = _ms_state(graph, sources, level)
    words, mask = run.words, last_word_mask(count)
    out = []
    for ex in executors:
        f, s, nx_, d, p = (ex.asarray(a.copy()) for a in
                           (run.frontier, run.seen, run.next, run.dist, run.pred))
        ops = ex.ops("ms_bfs")
        if op == "top_down":
            ops.top_down(graph.on(ex), words, f, s, nx_, d, p, level)
        else:
            ops.bottom_up(graph.reverse.on(ex), words, mask, f, s, nx_, d, p, level)
        counts = ex.xp.zeros(3, dtype=np.uint64)
        ops.advance(graph.on(ex), graph.on_device(ex, "in_degree"), words, mask, f, s, nx_,
                    counts)
        out.append([ex.to_host(a) for a in (f, s, nx_, d, p, counts)])
    for a, b in zip(out[0][:4], out[1][:4]):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(out[0][5], out[1][5])
    dist = out[0][3]
    for pred in (out[0][4], out[1][4]):  # each new (source, vertex): a tail one level up
        rows, cols = np.nonzero(dist == level + 1)
        tails = pred[rows, cols]
        assert np.all(dist[rows, tails] == level)
        assert _are_arcs(graph, tails, cols)


def test_chunk_capacity_bounds_every_frontier():
    for degrees in ([CHUNK] * 7, [CHUNK + 1] * 5, [5 * CHUNK - 1, 2 * CHUNK, 3]):
        need = sum(-(-d // CHUNK) for d in degrees if d >= CHUNK)
        assert need <= chunk_capacity(sum(degrees))
