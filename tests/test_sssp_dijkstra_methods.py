"""Every "sssp" method of the registry that takes no negative weights (Crauser/Martin,
dijkstra-reduction, delta-stepping) and the tight-arc tree against NetworkX on random
graphs, per device; and (marker gpu) each of their CUDA kernel tables against its NumPy
twin on the same random inputs."""

import networkx as nx
import numpy as np
import pytest

from graphs import (assert_lengths_equal, assert_tight_tree, assert_same_arrays, run_on_both, assert_paths_valid, graph_cases, path_length,
                    random_graph)
from nx_gpusp.convert import to_networkx
from nx_gpusp.executor import Executor, cuda_available
from nx_gpusp.graph import CSRGraph
from nx_gpusp.methods import methods_for
from nx_gpusp.ops.delta_stepping import NO_BUCKET, bucket_of
from nx_gpusp.ops.dijkstra_reduction import partial_count
from nx_gpusp.ops.tree import UNCLAIMED
from nx_gpusp.results import tree_depth
from nx_gpusp.solvers.sssp import distance_inf
from nx_gpusp.solvers.sssp.tree import shortest_path_tree

# the integer-only ones (phast) have their own tests (tests/test_phast.py): these cases
# hold float weights
METHODS = sorted(m.name for m in methods_for("sssp")
                 if not m.negative_weights and not m.integer_weights_only)
CASES = graph_cases(60, seed=11)
ZERO_HEAVY = [(f"zero{i}", random_graph(500 + i, n=25, p=0.2, zero_fraction=0.7,
                                        directed=bool(i % 2), weights=w))
              for i, w in enumerate(["int", "float", "int", "float"])]


def _huge_int_graph(seed):
    """Integer weights near 2**56: exact only if nothing passes through float64."""
    rng = np.random.default_rng(seed)
    G = nx.DiGraph()
    G.add_nodes_from(range(30))
    for u, v in rng.integers(0, 30, (120, 2)).tolist():
        G.add_edge(u, v, weight=int(rng.integers(1, 1000)) + (1 << 56))
    return G


def test_methods_registered():
    assert METHODS  # the registry is filled (else every test below is parametrised away)


@pytest.mark.parametrize("method", METHODS)
def test_negative_weights_are_refused(device, method):
    G = random_graph(5, n=12, p=0.4, negative=True)
    with pytest.raises(ValueError, match="negative weights"):
        nx.single_source_bellman_ford_path_length(G, 0, backend="gpusp", method=method)


@pytest.mark.parametrize("method", METHODS)
def test_lengths_and_paths(device, method):
    cases = CASES + ZERO_HEAVY + [("huge", _huge_int_graph(1))]
    for _name, G in cases:
        s = next(iter(G))
        expected = nx.single_source_dijkstra_path_length(G, s)
        got = nx.single_source_dijkstra_path_length(G, s, backend="gpusp", method=method)
        assert_lengths_equal(got, expected)
        assert list(got.values()) == sorted(got.values())
        dist, paths = nx.single_source_dijkstra(G, s, backend="gpusp", method=method)
        assert_lengths_equal(dist, expected)
        assert_paths_valid(G, paths, dist, s)
        missing = [t for t in G if t not in expected]
        if missing:
            with pytest.raises(nx.NetworkXNoPath):
                nx.single_source_dijkstra(G, s, missing[0], backend="gpusp", method=method)


@pytest.mark.parametrize("method", METHODS)
def test_cutoff_and_multisource(device, method):
    for _name, G in CASES[:30] + ZERO_HEAVY[:2]:
        s = next(iter(G))
        for cutoff in (0, 4, 7.5):
            expected = nx.single_source_dijkstra_path_length(G, s, cutoff=cutoff)
            assert_lengths_equal(nx.single_source_dijkstra_path_length(
                G, s, cutoff=cutoff, backend="gpusp", method=method), expected)
            dist, paths = nx.single_source_dijkstra(G, s, cutoff=cutoff, backend="gpusp",
                                                    method=method)
            assert_lengths_equal(dist, expected)
            assert_paths_valid(G, paths, dist, s)
        sources = set(list(G)[::4])
        expected = nx.multi_source_dijkstra_path_length(G, sources)
        assert_lengths_equal(nx.multi_source_dijkstra_path_length(
            G, sources, backend="gpusp", method=method), expected)
        dist, paths = nx.multi_source_dijkstra(G, sources, backend="gpusp", method=method)
        assert_lengths_equal(dist, expected)
        for target, path in paths.items():
            assert path[0] in sources and path[-1] == target
            assert all(G.has_edge(u, v) for u, v in zip(path, path[1:]))
            assert path_length(G, path) == pytest.approx(expected[target])


@pytest.mark.parametrize("delta", [0.5, 1, 3, 25, "median", "mean", "max-over-degree"])
def test_delta_stepping_widths(device, delta):
    for _name, G in CASES[:20] + ZERO_HEAVY:
        s = next(iter(G))
        assert_lengths_equal(
            nx.single_source_dijkstra_path_length(G, s, backend="gpusp", method="delta-stepping",
                                                  delta=delta),
            nx.single_source_dijkstra_path_length(G, s))


@pytest.mark.parametrize("method", ["crauser", "martin-pull", "dijkstra-reduction"])
@pytest.mark.parametrize("block_size", [32, 96, 1024])
def test_block_sizes(device, method, block_size):
    for _name, G in CASES[:5]:
        s = next(iter(G))
        assert_lengths_equal(
            nx.single_source_dijkstra_path_length(G, s, backend="gpusp", method=method,
                                                  block_size=block_size),
            nx.single_source_dijkstra_path_length(G, s))


@pytest.mark.parametrize("method,options", [
    ("crauser", {"block_size": 100}), ("dijkstra-reduction", {"block_size": 2048}),
    ("delta-stepping", {"delta": 0}), ("delta-stepping", {"delta": "huge"}),
    ("delta-stepping", {"delta": -1.5})])
def test_bad_options(method, options):
    G = random_graph(3, n=10, p=0.3)
    with pytest.raises(ValueError):
        nx.single_source_dijkstra_path_length(G, 0, backend="gpusp", method=method, **options)


def test_min_out_weight_exact():
    G = CSRGraph.from_edge_arrays(4, [0, 0, 2], [1, 2, 0], [(1 << 60) + 3, (1 << 60) + 1, 5])
    assert G.min_out_weight.tolist() == [(1 << 60) + 1, np.iinfo(np.int64).max, 5,
                                            np.iinfo(np.int64).max]


def test_tile_rows_are_each_tiles_first_row():
    """DeviceCSR.tile_rows (where the tight-arc pass's tiles find their rows): for each
    tile of arcs, the row holding its first arc (not an empty row before it at the same
    offset), then n - 1; cached per tile size."""
    rng = np.random.default_rng(3)
    n, m = 3000, 9000
    src = rng.integers(0, n // 2, m)  # the upper half of the rows empty
    src[rng.random(m) < 0.4] = 5  # one row over several tiles
    graph = CSRGraph.from_edge_arrays(n, src, rng.integers(0, n, m), rng.integers(1, 9, m))
    tails = np.repeat(np.arange(n), np.diff(graph.indptr))
    g = graph.on(Executor("cpu"))
    for tile in (1, 7, 1024, 2 * m):
        rows = g.tile_rows(tile)
        assert rows.dtype == np.int32 and g.tile_rows(tile) is rows
        np.testing.assert_array_equal(rows[:-1], tails[::tile])
        assert rows[-1] == n - 1


@pytest.mark.parametrize("scale", [1, 1 << 40])
@pytest.mark.parametrize("seed", range(3))
def test_tree_of_positive_integer_weights(device, seed, scale):
    """Integer weights of at least 1 (the pass alone builds the tree: no count, no
    breadth-first search): tight arcs only, every reached vertex but the sources
    claimed, -1 at the sources and the unreached vertices, no cycle; path lengths
    within int32 (int32 pass) and past it (int64 pass)."""
    rng = np.random.default_rng(90 + seed)
    n, m = 3000, 9000  # sparse: some vertices unreached
    w = rng.integers(1, 5, m).astype(np.int64) * scale
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    graph = CSRGraph.from_edge_arrays(n, src, dst, w)
    sources = [0, 1, 2]
    G = to_networkx(graph)
    lengths = nx.multi_source_dijkstra_path_length(G, sources)
    assert len(lengths) < n
    dist = np.full(n, distance_inf(np.int64), dtype=np.int64)
    dist[list(lengths)] = list(lengths.values())
    ex = Executor(device)
    pred = ex.to_host(shortest_path_tree(ex, graph, ex.asarray(dist), sources))
    assert_tight_tree(G, dist, pred, sources, set(lengths))
    reached = dist != distance_inf(np.int64)
    assert (pred[reached] >= 0).sum() == reached.sum() - len(sources)
    assert (pred[~reached] == -1).all() and (pred[sources] == -1).all()


def _in_degree_case(seed, hub, directed=True, dtype=np.int64):
    """(graph, NetworkX graph, distances from 0, 1, 2) of a random graph of at most 6
    in-arcs a vertex (0 to 6 random tails each; undirected, up to three edges a vertex
    to v + 1, v + 5 and a random partner), some vertices unreached, or (``hub``) with
    one vertex entered by 200 more arcs (the arc pass then)."""
    rng = np.random.default_rng(seed)
    n = 2500
    if directed:
        dst = np.repeat(np.arange(n), rng.integers(0, 7, n))
        src = rng.integers(0, n, dst.size)
    else:
        v = np.arange(n)
        ends = [(v, (v + 1) % n), (v, (v + 5) % n), (v, rng.permutation(n))]
        keep = [rng.random(n) < p for p in (0.6, 0.6, 0.4)]
        src = np.concatenate([a[k] for (a, _), k in zip(ends, keep)])
        dst = np.concatenate([b[k] for (_, b), k in zip(ends, keep)])
    if hub:
        src = np.concatenate([src, rng.permutation(n)[:200]])
        dst = np.concatenate([dst, np.full(200, 17)])
    w = rng.integers(1 if dtype == np.int64 else 0, 5, src.size).astype(dtype)
    graph = CSRGraph.from_edge_arrays(n, src, dst, w, directed=directed)
    G = to_networkx(graph)
    lengths = nx.multi_source_dijkstra_path_length(G, [0, 1, 2])
    dist = np.full(n, distance_inf(dtype), dtype=dtype)
    dist[list(lengths)] = list(lengths.values())
    return graph, G, dist, set(lengths)


@pytest.mark.parametrize("dtype", [np.int64, np.float64])
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("hub", [False, True])
def test_tree_pass_over_in_or_out_arcs(device, monkeypatch, hub, directed, dtype):
    """The tree's pass reads the in-arcs (the transpose CSR, built once on the device
    and cached; an undirected graph's own arcs) where no vertex has more than
    PULL_MAX_IN_DEGREE of them, else the out-arcs, and either gives a tree of tight
    arcs (zero weights with float: the breadth-first search finishes it); in-arcs that
    would not fit in memory fall back to the out-arcs."""
    from nx_gpusp.ops import tree as tree_ops
    from nx_gpusp.solvers.sssp.tree import PULL_MAX_IN_DEGREE

    graph, G, dist, reached = _in_degree_case(5, hub, directed, dtype)
    ex = Executor(device)
    assert graph.on(ex).max_in_degree == int(np.bincount(graph.indices).max())
    assert (graph.on(ex).max_in_degree > PULL_MAX_IN_DEGREE) == hub
    ops = type(ex.ops("tree"))
    passes = []
    for name in ("tight_arc_parents", "tight_in_arc_parents"):
        def spy(self, *args, _name=name, _fn=getattr(ops, name), **kwargs):
            passes.append(_name)
            return _fn(self, *args, **kwargs)
        monkeypatch.setattr(ops, name, spy)
    pred = ex.to_host(shortest_path_tree(ex, graph, ex.asarray(dist), [0, 1, 2]))
    assert_tight_tree(G, dist, pred, [0, 1, 2], reached)
    assert passes == ["tight_arc_parents" if hub else "tight_in_arc_parents"]
    if not hub:
        assert bool(graph.on(ex).transposed) == directed
        fresh = CSRGraph(graph.indptr, graph.indices, graph.weights, directed=directed)
        fresh.on(ex).weights  # on the device before memory runs short
        device_dist = ex.asarray(dist)
        monkeypatch.setattr(type(ex), "free_bytes", lambda self: 1000)
        assert (fresh.on(ex).in_arcs(dtype) is None) == directed
        pred = ex.to_host(shortest_path_tree(ex, fresh, device_dist, [0, 1, 2]))
        assert_tight_tree(G, dist, pred, [0, 1, 2], reached)
        assert passes[-1] == ("tight_arc_parents" if directed else "tight_in_arc_parents")


@pytest.mark.parametrize("multigraph", [False, True])
def test_in_arcs_are_the_reverse_graph(device, multigraph):
    """DeviceCSR.in_arcs: the transpose CSR, rows by head and tails ascending (as
    CSRGraph.reverse, built on the host), its weights in the type asked for; the
    undirected graph's own arrays."""
    rng = np.random.default_rng(3)
    n, m = 300, 2000
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    G = nx.MultiDiGraph() if multigraph else nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_weighted_edges_from(zip(src.tolist(), dst.tolist(), rng.integers(1, 9, m).tolist()))
    from nx_gpusp.convert import from_networkx
    graph = from_networkx(G, weight="weight")
    rev = graph.reverse
    ex = Executor(device)
    for dtype in (np.int32, np.int64, np.float64):
        in_ptr, in_tails, in_weights = map(ex.to_host, graph.on(ex).in_arcs(dtype))
        np.testing.assert_array_equal(in_ptr, rev.indptr)
        np.testing.assert_array_equal(in_tails, rev.indices)
        assert in_tails.dtype == np.int32 and in_weights.dtype == dtype
        np.testing.assert_array_equal(in_weights, rev.weights.astype(dtype))
    und = from_networkx(G.to_undirected(), weight="weight")
    in_ptr, in_tails, _ = und.on(ex).in_arcs(np.int64)
    assert in_ptr is und.on(ex).indptr and in_tails is und.on(ex).indices


# -- CUDA kernels against their NumPy twins (GPU only) ----------------------------------
@pytest.fixture(scope="module")
def executors():
    return Executor("cuda"), Executor("cpu")


def _bipartite_csr(seed, dtype, n=3000, m=20000):
    """Arcs from even to odd vertices only: relaxing from even vertices never lowers an
    even one, so a kernel launch has one outcome whatever the thread order."""
    rng = np.random.default_rng(seed)
    src = 2 * rng.integers(0, n // 2, m)
    dst = 2 * rng.integers(0, n // 2, m) + 1
    w = rng.integers(0, 40, m) if dtype == np.int64 else rng.uniform(0, 10, m)
    w[rng.random(m) < 0.1] = 0
    return CSRGraph.from_edge_arrays(n, src, dst, w.astype(dtype))


def _distances(rng, n, dtype, reached=0.5):
    d = rng.integers(0, 200, n).astype(dtype)
    d[rng.random(n) > reached] = distance_inf(dtype)
    return d


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
class TestKernelsMatchTwins:
    @pytest.mark.parametrize("dtype", [np.int64, np.float64])
    @pytest.mark.parametrize("seed", range(3))
    @pytest.mark.parametrize("relax", ["relax", "relax_pull", "relax_dense"])
    @pytest.mark.parametrize("block", [96, 256])
    def test_crauser_relax(self, executors, dtype, seed, relax, block):
        graph = _bipartite_csr(seed, dtype, n=600 if relax == "relax_dense" else 3000)
        rng = np.random.default_rng(seed)
        n = graph.n
        dist = _distances(rng, n, dtype)
        even = np.arange(n) % 2 == 0
        frontier = (even & (dist != distance_inf(dtype)) & (rng.random(n) < 0.5)).astype(np.uint8)
        unsettled = (~even & (rng.random(n) < 0.8)).astype(np.uint8)

        def run(ex, frontier, unsettled, dist):
            arcs = {"relax": graph.on, "relax_pull": graph.reverse.on,
                    "relax_dense": graph.dense}[relax](ex)
            getattr(ex.ops("crauser"), relax)(arcs, frontier, unsettled, dist, 150, block=block)

        assert_same_arrays(*run_on_both(executors, run, frontier, unsettled, dist))

    @pytest.mark.parametrize("dtype", [np.int64, np.float64])
    @pytest.mark.parametrize("n", [5000, 300001])
    @pytest.mark.parametrize("general", [True, False])
    @pytest.mark.parametrize("block", [32, 96, 1024])
    def test_crauser_minimum_update(self, executors, dtype, n, general, block):
        graph = _bipartite_csr(n, dtype, n=n)
        rng = np.random.default_rng(n)
        dist = _distances(rng, n, dtype, reached=0.3)
        unsettled = (rng.random(n) < 0.7).astype(np.uint8)

        def run(ex, dist, unsettled, out_weight, frontier, threshold):
            ops = ex.ops("crauser")
            ops.minimum(dist, unsettled, out_weight if general else None, threshold, block=block)
            ops.update(frontier, unsettled, dist, threshold[0].item(), block=block)

        assert_same_arrays(*run_on_both(executors, run, dist, unsettled, graph.min_out_weight,
                                np.zeros(n, np.uint8), np.zeros(1, dtype)))

    @pytest.mark.parametrize("dtype", [np.int64, np.float64])
    @pytest.mark.parametrize("n", [4000, 200001])
    @pytest.mark.parametrize("block", [32, 128, 1024])
    def test_dijkstra_reduction(self, executors, dtype, n, block):
        graph = _bipartite_csr(n, dtype, n=n)
        rng = np.random.default_rng(n)
        dist = _distances(rng, n, dtype, reached=0.2)
        dist[rng.integers(0, n, 50)] = 7  # ties: the smaller vertex id wins on both
        unsettled = (rng.random(n) < 0.9).astype(np.uint8)
        blocks = partial_count(n, block)
        max_degree = int(graph.out_degree.max())

        def run(ex, dist, unsettled, pred, best, partial_dist, partial_vertex):
            ops = ex.ops("dijkstra_reduction")
            for _ in range(5):
                ops.extract_min(dist, unsettled, partial_dist, partial_vertex, best, block=block)
                ops.relax_extracted(graph.on(ex), best, unsettled, dist, pred, 10**6,
                                    max_degree, block=block)

        cuda, twin = run_on_both(executors, run, dist, unsettled, np.full(n, -1, np.int32),
                               np.zeros(1, np.int32), np.zeros(blocks, dtype),
                               np.zeros(blocks, np.int32))
        assert_same_arrays(cuda[:4], twin[:4])  # the partial minima are scratch space

    @pytest.mark.parametrize("dtype", [np.int64, np.float64])
    @pytest.mark.parametrize("seed", range(3))
    def test_delta_stepping(self, executors, dtype, seed):
        graph = _bipartite_csr(seed, dtype)
        rng = np.random.default_rng(seed)
        n = graph.n
        dist = _distances(rng, n, dtype)
        delta = dtype(7)
        even = np.arange(n) % 2 == 0
        bucket = np.full(n, NO_BUCKET, dtype=np.int64)
        held = even & (dist != distance_inf(dtype))
        bucket[held] = bucket_of(dist[held], delta)
        current = int(bucket.min())
        in_r = (held & (rng.random(n) < 0.3)).astype(np.uint8)

        def run(ex, bucket, dist, lowered, in_r, count):
            ops = ex.ops("delta_stepping")
            g = graph.on(ex)
            ops.relax_light(g, bucket, current, dist, delta, lowered, in_r, 10**6)
            ops.assign_buckets(dist, delta, lowered, bucket, current, count)
            ops.relax_heavy(g, dist, delta, lowered, in_r, 10**6)
            ops.assign_buckets(dist, delta, lowered, bucket, current + 1, count)

        assert_same_arrays(*run_on_both(executors, run, bucket, dist, np.zeros(n, np.uint8), in_r,
                                np.zeros(1, np.int32)))

    @pytest.mark.parametrize("dtype", [np.int64, np.float64])
    @pytest.mark.parametrize("seed", range(3))
    @pytest.mark.parametrize("negative", [False, True])
    def test_tree(self, executors, dtype, seed, negative):
        """Either device's tree uses tight arcs only, reaches exactly the reached
        vertices and has no cycle (which vertex claims a tie may differ); zero-weight
        arcs and ties everywhere, negative arcs without negative cycles."""
        rng = np.random.default_rng(seed)
        n, m = 3000, 15000
        w = rng.integers(0, 5, m).astype(dtype)  # many zero-weight arcs and ties
        src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
        if negative:
            h = rng.integers(0, 6, n)
            w = (w + h[src] - h[dst]).astype(dtype)
        graph = CSRGraph.from_edge_arrays(n, src, dst, w)
        sources = [0, 1, 2]
        G = to_networkx(graph)
        lengths = _multi_source_bellman_ford(G, sources)
        dist = np.full(n, distance_inf(dtype), dtype=dtype)
        dist[list(lengths)] = list(lengths.values())
        for ex in executors:
            pred = ex.to_host(shortest_path_tree(ex, graph, ex.asarray(dist), sources))
            assert_tight_tree(G, dist, pred, sources, set(lengths))

    @staticmethod
    def _tree_case(seed, shape):
        """(graph, NetworkX graph, distances from 0) of a random graph: "uniform", or
        "hubs": a few tails own most arcs (rows longer than a pass tile) and most
        vertices have no out-arc (runs of empty rows inside a tile)."""
        rng = np.random.default_rng(50 + seed)
        n, m = 4000, 20000
        w = rng.integers(0, 4, m).astype(np.int64)
        if shape == "hubs":
            src = rng.choice([7, 8, 3999, *rng.integers(0, n, 40)], m)
            src[rng.random(m) < 0.3] = 0  # ~6000 arcs: one row over several tiles
        else:
            src = rng.integers(0, n, m)
        graph = CSRGraph.from_edge_arrays(n, src, rng.integers(0, n, m), w)
        G = to_networkx(graph)
        lengths = nx.single_source_dijkstra_path_length(G, 0)
        dist = np.full(n, distance_inf(np.int64), dtype=np.int64)
        dist[list(lengths)] = list(lengths.values())
        return graph, G, dist

    @pytest.mark.parametrize("shape", ["uniform", "hubs"])
    @pytest.mark.parametrize("seed", range(3))
    def test_tight_arc_parents_matches_twin(self, executors, seed, shape):
        """The strict tight-arc pass: every pointer is a tight arc from a strictly closer
        tail, and both devices resolve the same vertices (the tail chosen may differ)."""
        graph, G, dist = self._tree_case(seed, shape)
        n = graph.n
        resolved = []
        for ex in executors:
            pred = ex.ops("tree").unclaimed_preds(n)
            ex.ops("tree").tight_arc_parents(graph.on(ex), ex.asarray(dist), pred)
            pred = ex.to_host(pred)
            heads = np.flatnonzero(pred >= 0)
            tails = pred[heads]
            assert (dist[tails] < dist[heads]).all()
            assert all(dist[u] + G[u][v]["weight"] == dist[v]
                       for u, v in zip(tails.tolist(), heads.tolist()))
            resolved.append(heads)
        np.testing.assert_array_equal(*resolved)

    @pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float64])
    @pytest.mark.parametrize("directed", [True, False])
    @pytest.mark.parametrize("seed", range(3))
    def test_tight_in_arc_parents_matches_twin(self, executors, seed, directed, dtype):
        """The pass over the in-arcs: the same pointer on both devices (each vertex's
        first strictly closer tail of a tight in-arc, in in-arc order), unclaimed
        vertices left as they were; in-degrees 0 to 6, odd and even (the kernel takes
        two in-arcs at a time), zero weights, unreached vertices, three sources."""
        graph, G, dist, _ = _in_degree_case(20 + seed, False, directed,
                                            np.float64 if dtype == np.float64 else np.int64)
        dist = dist.astype(dtype) if dtype != np.int32 else np.where(
            dist == distance_inf(np.int64), distance_inf(np.int32), dist).astype(np.int32)
        got = []
        for ex in executors:
            pred = ex.ops("tree").unclaimed_preds(graph.n)
            ex.ops("tree").tight_in_arc_parents(graph.on(ex).in_arcs(dtype), ex.asarray(dist),
                                                pred)
            got.append(ex.to_host(pred))
        np.testing.assert_array_equal(*got)
        heads = np.flatnonzero(got[0] >= 0)
        tails = got[0][heads]
        assert heads.size > graph.n // 4
        assert (dist[tails] < dist[heads]).all()
        assert all(dist[u] + G[u][v]["weight"] == dist[v]
                   for u, v in zip(tails.tolist(), heads.tolist()))
        assert (got[0][np.setdiff1d(np.arange(graph.n), heads)] == UNCLAIMED).all()

    @pytest.mark.parametrize("shape", ["random", "hub rows", "in-degree holes", "no arcs"])
    @pytest.mark.parametrize("seed", range(3))
    def test_transpose_matches_twin(self, executors, seed, shape):
        """The device's transpose CSR (in-degree count and maximum, arc tails, the
        stable sort by head, the row offsets) equals the twin's for random directed
        graphs: empty rows, out-rows longer than a tile, runs of vertices without
        in-arcs at both ends and inside, a graph without arcs; three weight types."""
        rng = np.random.default_rng(seed)
        n = int(rng.integers(1, 5000))
        m = 0 if shape == "no arcs" else int(rng.integers(1, 40000))
        src = rng.integers(0, n, m)
        dst = rng.integers(0, n, m)
        if shape == "hub rows":
            src[rng.random(m) < 0.5] = rng.integers(0, 3)
        if shape == "in-degree holes":  # heads only in a few bands of the vertices
            dst = (dst % max(n // 10, 1)) + n // 3
            dst = np.minimum(dst, n - 1)
        graph = CSRGraph.from_edge_arrays(n, src, dst, rng.integers(1, 100, m).astype(np.int64),
                                          directed=True)
        for dtype in (np.int32, np.int64, np.float64):
            got = [[ex.to_host(a) for a in ex.ops("tree").in_arcs(
                        graph.on(ex), graph.weights_as(ex, dtype, if_fits=True))]
                   for ex in executors]
            for device, host in zip(*got):
                np.testing.assert_array_equal(device, host)
                assert device.dtype == host.dtype
        if n:
            most = [ex.ops("tree").max_in_degree(graph.on(ex)) for ex in executors]
            assert most[0] == most[1] == (int(np.bincount(graph.indices, minlength=n).max())
                                          if graph.m else 0)

    @pytest.mark.parametrize("dtype", [np.int64, np.float64])
    @pytest.mark.parametrize("seed", range(3))
    def test_tight_arc_dag_matches_twin(self, executors, seed, dtype):
        """The tight-arc DAG (keys, two radix sorts, gathers, the count by head) is the
        same on both devices: most arcs tight, negative and tied distances, unreached
        vertices, hub rows longer than a tile."""
        rng = np.random.default_rng(seed)
        n, m = int(rng.integers(2, 6000)), int(rng.integers(1, 50000))
        src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
        src[rng.random(m) < 0.1] = 0
        dist = rng.integers(-50, 60, n).astype(dtype)
        if dtype == np.float64:
            dist /= 4
        w = np.where(rng.random(m) < 0.7, dist[dst] - dist[src], rng.integers(-5, 9, m))
        graph = CSRGraph.from_edge_arrays(n, src, dst, w.astype(dtype), directed=True)
        dist[rng.random(n) < 0.2] = distance_inf(dtype)
        got = [[ex.to_host(a) for a in ex.ops("tree").tight_arc_dag(
                    graph.on(ex), ex.asarray(dist), graph.weights_as(ex, dtype))]
               for ex in executors]
        for device, host in zip(*got):
            np.testing.assert_array_equal(device, host)
            assert device.dtype == host.dtype == np.int32
        assert got[0][1].size > m // 4

    @pytest.mark.parametrize("shape", ["uniform", "hubs"])
    def test_tree_unclaimed_matches_twin(self, executors, shape):
        """The count of reached vertices left unclaimed (pointers set at random, some
        vertices unreached) is the same on both devices, and adds to what is there."""
        graph, _, dist = self._tree_case(0, shape)
        rng = np.random.default_rng(7)
        pred = np.where(rng.random(graph.n) < 0.3, UNCLAIMED, rng.integers(-1, graph.n, graph.n))
        expected = 5 + np.count_nonzero((pred == UNCLAIMED) & (dist != distance_inf(np.int64)))
        for ex in executors:
            count = ex.asarray(np.array([5], dtype=np.int32))
            ex.ops("tree").tree_unclaimed(ex.asarray(dist), ex.asarray(pred.astype(np.int32)),
                                          count)
            assert int(ex.to_host(count)[0]) == expected

    @pytest.mark.parametrize("whole", [True, False])
    def test_tree_finish_matches_twin(self, executors, whole):
        """tree_finish maps UNCLAIMED to -1 exactly when the count is the number of
        sources, and leaves every pointer as it was otherwise, on both devices."""
        rng = np.random.default_rng(11)
        n = 5000
        pred = np.where(rng.random(n) < 0.3, UNCLAIMED, rng.integers(-1, n, n)).astype(np.int32)
        expected = pred.copy()
        if whole:
            expected[expected == UNCLAIMED] = -1
        for ex in executors:
            dev = ex.ops("tree").unclaimed_preds(n)
            assert (ex.to_host(dev) == UNCLAIMED).all()
            dev = ex.asarray(pred)
            count = ex.asarray(np.array([3 if whole else 4], dtype=np.int32))
            ex.ops("tree").tree_finish(dev, count, 3)
            np.testing.assert_array_equal(ex.to_host(dev), expected)

    @pytest.mark.parametrize("method", ["near-far", "crauser", "delta-stepping"])
    def test_tree_where_float_rounding_hides_a_weight(self, executors, method):
        """d + w == d for a tiny positive w: the pass leaves the vertex to the search,
        and every path is still a path (a predecessor cycle once raised KeyError)."""
        G = nx.DiGraph()
        G.add_edge("a", "b", weight=1e7)
        G.add_edge("b", "c", weight=1e-10)
        G.add_edge("c", "b", weight=1e-10)
        G.add_edge("c", "d", weight=1e-10)
        for ex in executors:
            with nx.config.backends.gpusp(device=ex.name):
                lengths, paths = nx.single_source_dijkstra(G, "a", backend="gpusp",
                                                           method=method)
                assert dict(paths) == {"a": ["a"], "b": ["a", "b"], "c": ["a", "b", "c"],
                                       "d": ["a", "b", "c", "d"]}
                assert dict(lengths) == nx.single_source_dijkstra_path_length(G, "a")


def _multi_source_bellman_ford(G, sources):
    """NetworkX's lengths from several sources at once (a super-source joined by
    zero-weight arcs; NetworkX has no multi-source Bellman-Ford function)."""
    H = G.copy()
    H.add_edges_from((("super", s) for s in sources), weight=0)
    lengths = nx.single_source_bellman_ford_path_length(H, "super")
    del lengths["super"]
    return lengths


