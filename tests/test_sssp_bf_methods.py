"""Every "sssp" method of the registry that takes negative weights (frontier, near-far,
harish, bf-vertex/-strided/-flag, bf-queue, spmv-csr/-ell, lbr) against NetworkX on
random graphs, per device: non-negative, negative and negative-cycle inputs, cutoffs,
several sources; and (marker gpu) each of the Bellman-Ford family's CUDA kernel tables
against its NumPy twin on the same random inputs."""

import networkx as nx
import numpy as np
import pytest

from graphs import (assert_lengths_equal, assert_paths_valid, assert_same_arrays, graph_cases,
                    random_graph, run_on_both)
from nx_gpusp.executor import Executor, cuda_available
from nx_gpusp.graph import CSRGraph
from nx_gpusp.methods import methods_for
from nx_gpusp.ops.spmv import ell_layout
from nx_gpusp.solvers.sssp import distance_inf

METHODS = sorted(m.name for m in methods_for("sssp") if m.negative_weights)
# every method, plus the option settings that change its control flow
VARIANTS = [(m, {}) for m in METHODS] + [
    ("bf-vertex", {"early_exit": True}),
    ("bf-strided", {"blocks": 1}),
    ("bf-queue", {"slf": True}),
    ("bf-queue", {"lll": True}),
    ("bf-queue", {"slf": True, "lll": True}),
    ("lbr", {"k": 1, "vertices_per_thread": 3}),
    ("lbr", {"k": 2, "launches": 0}),
    ("lbr", {"launches": 50}),
]
IDS = [m + "".join(f"-{k}={v}" for k, v in o.items()) for m, o in VARIANTS]
CASES = graph_cases(50, seed=23)
NEGATIVE = [random_graph(900 + i, negative=True, n=18 + i % 7, zero_fraction=0.2 * (i % 2),
                         weights="float" if i % 3 == 0 else "int",
                         multigraph=i % 4 == 1, disconnected=i % 5 == 2)
            for i in range(16)]


def _with_negative_cycle(seed, *, reachable=True):
    """A random directed graph plus a negative cycle, reachable from node 0 or not."""
    G = random_graph(seed, n=15, p=0.2)
    base = G.number_of_nodes()
    cycle = [base, base + 1, base + 2]
    nx.add_cycle(G, cycle, weight=-1)
    G[base + 2][base]["weight"] = 1  # cycle weight -1
    if reachable:
        G.add_edge(0, base, weight=3)
    return G


def test_methods_registered():
    assert METHODS  # the registry is filled (else every test below is parametrised away)


@pytest.mark.parametrize(("method", "options"), VARIANTS, ids=IDS)
def test_lengths_and_paths(device, method, options):
    for _name, G in CASES + [("neg", G) for G in NEGATIVE]:
        s = next(iter(G))
        expected = nx.single_source_bellman_ford_path_length(G, s)
        got = nx.single_source_bellman_ford_path_length(G, s, backend="gpusp", method=method,
                                                       **options)
        assert_lengths_equal(got, expected)
        dist, paths = nx.single_source_bellman_ford(G, s, backend="gpusp", method=method,
                                                    **options)
        assert_lengths_equal(dist, expected)
        assert_paths_valid(G, paths, dist, s)


@pytest.mark.parametrize(("method", "options"), VARIANTS, ids=IDS)
def test_negative_cycles(device, method, options):
    undirected = random_graph(31, directed=False, n=12, p=0.3)
    u, v = next(iter(undirected.edges()))
    undirected[u][v]["weight"] = -2
    for G in (undirected, _with_negative_cycle(1), _with_negative_cycle(2)):
        with pytest.raises(nx.NetworkXUnbounded):
            nx.single_source_bellman_ford_path_length(G, u if G is undirected else 0,
                                                      backend="gpusp", method=method,
                                                      **options)
    G = _with_negative_cycle(3, reachable=False)  # unreachable: answered normally
    assert_lengths_equal(nx.single_source_bellman_ford_path_length(
        G, 0, backend="gpusp", method=method, **options),
        nx.single_source_bellman_ford_path_length(G, 0))
    assert nx.negative_edge_cycle(G, backend="gpusp", method=method, **options)
    assert not nx.negative_edge_cycle(NEGATIVE[0], backend="gpusp", method=method, **options)


@pytest.mark.parametrize(("method", "options"), VARIANTS, ids=IDS)
def test_dijkstra_cutoff_and_sources(device, method, options):
    for _name, G in CASES[:12]:
        s = next(iter(G))
        for cutoff in (0, 5, 8.5):
            expected = nx.single_source_dijkstra_path_length(G, s, cutoff=cutoff)
            assert_lengths_equal(nx.single_source_dijkstra_path_length(
                G, s, cutoff=cutoff, backend="gpusp", method=method, **options), expected)
            dist, paths = nx.single_source_dijkstra(G, s, cutoff=cutoff, backend="gpusp",
                                                    method=method, **options)
            assert_lengths_equal(dist, expected)
            assert_paths_valid(G, paths, dist, s)
        sources = set(list(G)[::3])
        assert_lengths_equal(nx.multi_source_dijkstra_path_length(
            G, sources, backend="gpusp", method=method, **options),
            nx.multi_source_dijkstra_path_length(G, sources))


def test_queue_heuristics_report_relaxations():
    from nx_gpusp.convert import from_networkx
    from nx_gpusp.solvers.sssp.bf_queue import bf_queue_sssp

    graph = from_networkx(random_graph(5, n=200, p=0.05, weights="float"), "weight")
    ex = Executor("cpu")
    runs = {(slf, lll): bf_queue_sssp(ex, graph, [0], slf=slf, lll=lll)
            for slf in (False, True) for lll in (False, True)}
    for res in runs.values():
        np.testing.assert_array_equal(res.dist, runs[False, False].dist)
        assert res.stats["relaxations"] >= graph.out_degree[res.dist != np.inf].sum()
    assert runs[True, True].stats["relaxations"] < runs[False, False].stats["relaxations"]


def test_ell_layout_and_refusal(monkeypatch):
    G = random_graph(8, n=20, p=0.2)
    from nx_gpusp.convert import from_networkx
    from nx_gpusp.solvers.sssp import spmv

    graph = from_networkx(G, "weight")
    rev = graph.reverse
    cols, vals, width = ell_layout(rev.indptr, rev.indices, rev.weights)
    n = graph.n
    assert width == rev.out_degree.max()
    for v in range(n):
        row = cols[v::n]
        arcs = row[row >= 0]
        assert list(arcs) == list(rev.indices[rev.indptr[v]:rev.indptr[v + 1]])
        assert (row[len(arcs):] == -1).all()
        np.testing.assert_array_equal(vals[v::n][: len(arcs)],
                                      rev.weights[rev.indptr[v]:rev.indptr[v + 1]])
    ex = Executor("cpu")

    def refuse(nbytes, what):
        raise MemoryError(what)

    monkeypatch.setattr(ex, "require_bytes", refuse)
    with pytest.raises(MemoryError, match="ELL"):
        spmv.spmv_ell_sssp(ex, from_networkx(G, "weight"), [0])


@pytest.mark.parametrize("options", [{"k": 0}, {"k": 33}, {"vertices_per_thread": 0}])
def test_bad_lbr_options(options):
    with pytest.raises(ValueError):
        nx.single_source_bellman_ford_path_length(nx.path_graph(3), 0, backend="gpusp",
                                                  method="lbr", **options)


# -- CUDA kernels against their NumPy twins (GPU only) ----------------------------------
@pytest.fixture(scope="module")
def executors():
    return Executor("cuda"), Executor("cpu")


def _random_csr(rng, dtype, n=2000, m=12000):
    """Weights and distances from a wide range, so ties (where the kernels may pick any
    tight predecessor) are unlikely."""
    w = rng.integers(1, 10**9, m) if dtype == np.int64 else rng.uniform(0.1, 1e3, m)
    return CSRGraph.from_edge_arrays(n, rng.integers(0, n, m), rng.integers(0, n, m),
                                     w.astype(dtype))


def _forest(rng, dtype, n=3000):
    """A random forest (every vertex has at most one in-arc) and its roots: relaxing from
    several vertices at once offers each head one candidate, so a launch has one outcome
    whatever the thread order."""
    parent = np.array([rng.integers(0, v) if v and rng.random() < 0.97 else -1
                       for v in range(n)])
    child = np.flatnonzero(parent >= 0)
    w = rng.integers(0, 50, len(child)) if dtype == np.int64 else rng.uniform(0, 5, len(child))
    graph = CSRGraph.from_edge_arrays(n, parent[child], child, w.astype(dtype))
    return graph, np.flatnonzero(parent < 0)


def _distances(rng, n, dtype, reached=0.6):
    d = (rng.integers(0, 10**12, n) if dtype == np.int64 else rng.uniform(0, 1e6, n))
    d = d.astype(dtype)
    d[rng.random(n) > reached] = distance_inf(dtype)
    return d


DTYPES = [np.int64, np.float64]


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
class TestKernelsMatchTwins:
    @pytest.mark.parametrize("dtype", DTYPES)
    @pytest.mark.parametrize("seed", range(2))
    @pytest.mark.parametrize(("family", "use_flags", "blocks"),
                             [("bellman_ford", 0, 0), ("bellman_ford", 0, 3),
                              ("bellman_ford", 1, 7), ("harish", 1, 0)])
    def test_bellman_ford_round(self, executors, dtype, seed, family, use_flags, blocks):
        rng = np.random.default_rng(seed)
        graph = _random_csr(rng, dtype)
        n = graph.n
        prev = _distances(rng, n, dtype)
        flag = (rng.random(n) < 0.3).astype(np.uint8)
        cutoff = np.iinfo(np.int64).max if dtype == np.int64 else 8e5

        def run(ex, prev, dist, flag, pred, changed):
            ops, g = ex.ops(family), graph.on(ex)
            if family == "harish":
                ops.kernel1(g, prev, dist, flag, cutoff)
                ops.record_predecessors(g, prev, dist, flag, 1, pred)
                ops.kernel2(prev, dist, flag, changed)
            else:
                ops.relax(g, prev, dist, flag, use_flags, cutoff, blocks)
                ops.record_predecessors(g, prev, dist, flag, use_flags, pred, blocks)
                ops.update(prev, dist, flag, changed, blocks)

        cuda, twin = run_on_both(executors, run, prev, prev.copy(), flag,
                               np.full(n, -1, np.int32), np.zeros(1, np.int32))
        assert_same_arrays(cuda, twin)
        assert twin[4][0] == 1

    @pytest.mark.parametrize("dtype", DTYPES)
    @pytest.mark.parametrize("seed", range(2))
    @pytest.mark.parametrize("fmt", ["csr", "ell"])
    def test_spmv(self, executors, dtype, seed, fmt):
        rng = np.random.default_rng(seed)
        graph = _random_csr(rng, dtype)
        n = graph.n
        prev = _distances(rng, n, dtype)
        cutoff = distance_inf(dtype)

        def run(ex, prev, nxt, pred, changed):
            from nx_gpusp.solvers.sssp.spmv import ell_on

            ops = ex.ops("spmv")
            if fmt == "csr":
                ops.csr_minplus(graph.reverse.on(ex), prev, nxt, pred, 1, cutoff, changed)
            else:
                ops.ell_minplus(ell_on(ex, graph), prev, nxt, pred, 1, cutoff, changed)

        cuda, twin = run_on_both(executors, run, prev, prev.copy(), np.full(n, -1, np.int32),
                               np.zeros(1, np.int32))
        assert_same_arrays(cuda, twin)

    @pytest.mark.parametrize("dtype", DTYPES)
    @pytest.mark.parametrize("seed", range(3))
    @pytest.mark.parametrize("slf", [0, 1])
    def test_queue_relax_batch(self, executors, dtype, seed, slf):
        """A forest, batch vertices at distance 0: nothing in the batch is lowered and each
        head gets one candidate, so the launch has one outcome (up to queue order)."""
        rng = np.random.default_rng(seed)
        graph, _roots = _forest(rng, dtype)
        n = graph.n
        batch = rng.permutation(n)[:600].astype(np.int32)
        dist = _distances(rng, n, dtype)
        dist[batch] = 0
        in_queue = np.zeros(n, np.int32)
        waiting = rng.permutation(np.setdiff1d(np.arange(n), batch))[:200].astype(np.int32)
        in_queue[waiting] = 1
        queue = np.zeros(n, np.int32)
        queue[(np.arange(len(waiting)) - 50) % n] = waiting
        counters = np.array([-50, len(waiting) - 50], np.int64)
        ref = 20.0

        def run(ex, batch, dist, in_queue, queue, counters, relaxations):
            ex.ops("bf_queue").relax_batch(graph.on(ex), batch, dist, in_queue, queue,
                                           counters, slf, ref, distance_inf(dtype),
                                           relaxations)

        cuda, twin = run_on_both(executors, run, batch, dist, in_queue, queue, counters,
                               np.zeros(1, np.uint64))
        assert_same_arrays([cuda[i] for i in (0, 1, 2, 4, 5)], [twin[i] for i in (0, 1, 2, 4, 5)])
        head, tail = twin[4]
        assert head < -50 if slf else head == -50
        for lo, hi in [(head, -50), (len(waiting) - 50, tail)]:  # front and back pushes
            slots = np.arange(lo, hi) % n
            assert sorted(cuda[3][slots]) == sorted(twin[3][slots])
        np.testing.assert_array_equal(cuda[3][np.arange(-50, len(waiting) - 50) % n], waiting)

    @pytest.mark.parametrize("dtype", DTYPES)
    @pytest.mark.parametrize("seed", range(3))
    @pytest.mark.parametrize(("k", "vpt"), [(1, 1), (3, 2), (5, 3)])
    def test_lbr_wave(self, executors, dtype, seed, k, vpt):
        """A forest flagged at its roots: every wave has one outcome."""
        rng = np.random.default_rng(seed)
        graph, roots = _forest(rng, dtype)
        n = graph.n
        dist = np.full(n, distance_inf(dtype), dtype)
        dist[roots] = rng.integers(0, 100, len(roots)).astype(dtype)
        flag_in = np.zeros(n, np.uint8)
        flag_in[roots] = 1

        def run(ex, dist, flag_in, flag_out, changed):
            ex.ops("lbr").relax_locality(graph.on(ex), dist, flag_in, flag_out, k, vpt,
                                         distance_inf(dtype), changed)

        cuda, twin = run_on_both(executors, run, dist, flag_in, np.zeros(n, np.uint8),
                               np.zeros(1, np.int32))
        assert_same_arrays(cuda, twin)
        assert not twin[1].any()
