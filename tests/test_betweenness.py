"""betweenness_centrality, edge_betweenness_centrality, their subset variants and
load_centrality against NetworkX on random graphs of every kind (directed or not,
multigraphs, self-loops, disconnected parts, odd labels; unweighted, int and float
weights), with k sampled as NetworkX samples it, load's v and cutoff, batches split
small, real graphs, NetworkX's exceptions and the declined calls; and (marker gpu) the
kernels of brandes.cu against their NumPy twins."""

import math
import random

import networkx as nx
import numpy as np
import pytest

from nx_gpusp.executor import Executor, cuda_available
from nx_gpusp.graph import CSRGraph, distance_inf
from nx_gpusp.ops.brandes import BRANDES, EDGE_SUBSET, LOAD, SUBSET, UNSEEN
from nx_gpusp.solvers.apsp import brandes

NODE_KWARGS = [{}, {"normalized": False}, {"endpoints": True},
               {"endpoints": True, "normalized": False}]


def assert_same(got, exp):
    """Same keys in the same order, floats to 1e-9 relative (NaN where NetworkX's)."""
    assert list(got) == list(exp)
    for key, value in exp.items():
        g = got[key]
        assert type(g) is type(value), (key, g, value)
        assert (math.isnan(g) and math.isnan(value)) or \
            math.isclose(g, value, rel_tol=1e-9, abs_tol=1e-12), (key, g, value)


def both(name, G, *args, **kwargs):
    ours = getattr(nx, name)(G, *args, backend="gpusp", **kwargs)
    theirs = getattr(nx, name)(G, *args, **kwargs)
    assert_same(ours, theirs)
    return ours


def random_graph(seed, *, directed, multigraph=False, weights="int", n=None):
    rng = random.Random(seed)
    n = rng.randint(1, 30) if n is None else n
    cls = {(False, False): nx.Graph, (True, False): nx.DiGraph,
           (False, True): nx.MultiGraph, (True, True): nx.MultiDiGraph}[directed, multigraph]
    G = cls()
    labels = [("t", i) if i % 3 == 0 else f"s{i}" if i % 3 == 1 else i for i in range(n)]
    rng.shuffle(labels)
    G.add_nodes_from(labels)
    for _ in range(rng.randint(0, 3 * n)):
        u, v = rng.choice(labels), rng.choice(labels)
        w = {"int": rng.randint(1, 4), "float": rng.choice([0.5, 1.25, 2.0, 3.7]) *
             rng.randint(1, 3), "random": rng.uniform(0.1, 5.0), "ones": 1}[weights]
        G.add_edge(u, v, weight=w)
    return G


CASES = [(seed, directed, multigraph, weights)
         for seed in range(4) for directed in (False, True) for multigraph in (False, True)
         for weights in ("int", "float", "random", "ones")]


@pytest.mark.parametrize("seed,directed,multigraph,weights", CASES)
def test_random_graphs(device, seed, directed, multigraph, weights):
    G = random_graph(seed, directed=directed, multigraph=multigraph, weights=weights)
    rng = random.Random(seed)
    for weight in (None, "weight"):
        for kw in NODE_KWARGS:
            both("betweenness_centrality", G, weight=weight, **kw)
            k = rng.randint(1, len(G))
            both("betweenness_centrality", G, k=k, seed=seed, weight=weight, **kw)
        sources = [rng.choice(list(G)) for _ in range(4)]  # repeats count twice
        targets = rng.sample(list(G), min(5, len(G)))
        for normalized in (False, True):
            both("betweenness_centrality_subset", G, sources, targets, weight=weight,
                 normalized=normalized)
            if not multigraph:
                both("edge_betweenness_centrality", G, weight=weight, normalized=normalized)
                both("edge_betweenness_centrality", G, k=rng.randint(1, len(G)), seed=seed,
                     weight=weight, normalized=normalized)
                both("edge_betweenness_centrality_subset", G, sources, targets,
                     weight=weight, normalized=normalized)


def test_sample_matches_networkx_draw(device):
    """The same seed draws the same sources: an int, or a Random in the same state."""
    G = nx.gnm_random_graph(40, 120, seed=3)
    for seed in (0, 1, 42):
        both("betweenness_centrality", G, k=7, seed=seed)
    ours = nx.betweenness_centrality(G, k=7, seed=random.Random(9), backend="gpusp")
    assert_same(ours, nx.betweenness_centrality(G, k=7, seed=random.Random(9)))
    # k == n: every node, no draw (NetworkX's shortcut), and k = 1: NaN at the source
    both("betweenness_centrality", G, k=len(G), seed=5)
    both("betweenness_centrality", G, k=1, seed=5)


def test_known_values(device):
    """NetworkX's documented examples (the 3-path)."""
    G = nx.path_graph(3)
    assert nx.betweenness_centrality(G, normalized=False, backend="gpusp") == \
        {0: 0.0, 1: 1.0, 2: 0.0}
    assert nx.betweenness_centrality(G, k=2, normalized=False, endpoints=True, seed=42,
                                     backend="gpusp") == {0: 2.25, 1: 3.0, 2: 2.25}
    assert nx.edge_betweenness_centrality(G, normalized=False, backend="gpusp") == \
        {(0, 1): 2.0, (1, 2): 2.0}


@pytest.mark.parametrize("weights", ["ones", "random"])
def test_batches(device, monkeypatch, weights):
    """Sources split into batches of 3 sum as one batch does."""
    G = random_graph(11, directed=True, weights=weights, n=40)
    monkeypatch.setattr(brandes, "batch_size", lambda ex, graph, count, *a, **k: 3)
    both("betweenness_centrality", G, weight="weight", endpoints=True)
    both("edge_betweenness_centrality", G, weight="weight")
    both("edge_betweenness_centrality_subset", G, list(G)[:7], list(G)[3:20],
         weight="weight")


def test_empty_and_tiny(device):
    for G in (nx.Graph(), nx.DiGraph(), nx.empty_graph(1), nx.empty_graph(2),
              nx.Graph([(0, 0)])):
        both("betweenness_centrality", G)
        both("betweenness_centrality", G, endpoints=True)
        both("edge_betweenness_centrality", G)
        both("betweenness_centrality_subset", G, list(G), list(G))


@pytest.mark.parametrize("name,args,kwargs,error", [
    ("betweenness_centrality", (), {"k": 11, "seed": 1}, ValueError),  # k > n
    ("betweenness_centrality", (), {"k": 0, "seed": 1}, ZeroDivisionError),
    ("edge_betweenness_centrality", (), {"k": -1, "seed": 1}, ValueError),
    ("betweenness_centrality_subset", ([0, 99], [1]), {}, KeyError),  # a missing source
    ("betweenness_centrality_subset", ([0], [[1]]), {}, TypeError),  # unhashable target
])
def test_errors_as_networkx(device, name, args, kwargs, error):
    G = nx.path_graph(10)
    for backend in ("gpusp", "networkx"):
        with pytest.raises(error):
            getattr(nx, name)(G, *args, backend=backend, **kwargs)


@pytest.mark.parametrize("edges", [
    [(0, 1, 0), (1, 2, 1)],  # a zero weight: NetworkX's counts follow its search order
    [(0, 1, -1), (1, 2, 2)],  # negative
    [(0, 1, 1e-300), (1, 2, 1.0), (2, 3, 1e300)],  # a float a sum absorbs
])
def test_declined_weights(device, edges):
    G = nx.DiGraph()
    G.add_weighted_edges_from(edges)
    for name in ("betweenness_centrality", "edge_betweenness_centrality"):
        with pytest.raises(NotImplementedError):
            getattr(nx, name)(G, weight="weight", backend="gpusp")
    both("betweenness_centrality", G)  # unweighted calls run


def test_multigraph_edges_declined(device):
    G = nx.MultiGraph([(0, 1), (0, 1), (1, 2)])
    with pytest.raises(NotImplementedError):
        nx.edge_betweenness_centrality(G, backend="gpusp")
    both("betweenness_centrality", G)


def test_weight_function(device):
    G = random_graph(5, directed=True, weights="int", n=20)
    def w(u, v, d):
        return d["weight"] * 2 + 1
    both("betweenness_centrality", G, weight=w)
    both("edge_betweenness_centrality", G, weight=w)


def test_real_graphs(device, real):
    G = real("SiouxFalls")
    weight = next(iter(G.edges(data=True)))[2]
    attr = "weight" if "weight" in weight else next(iter(weight))
    both("betweenness_centrality", G, weight=attr)
    both("edge_betweenness_centrality", G, weight=attr, normalized=False)
    R = real("rome99")
    both("betweenness_centrality", R, k=40, seed=1, weight="weight")
    both("edge_betweenness_centrality", R, k=40, seed=2)
    S = real("gnutella04")
    both("betweenness_centrality", S, k=50, seed=3, endpoints=True)
    both("betweenness_centrality_subset", S, list(S)[:30], list(S)[::7])


# -- load_centrality -------------------------------------------------------------------
LOAD_CUTOFFS = [None, 0, 1, 2, 2.5, 0.5, -1, True, math.inf, math.nan, -math.inf]


def load_both(G, **kwargs):
    """load_centrality on gpusp and on NetworkX: the same dict (or, with v, float)."""
    ours = nx.load_centrality(G, backend="gpusp", **kwargs)
    theirs = nx.load_centrality(G, **kwargs)
    if kwargs.get("v") is not None:
        assert type(ours) is type(theirs) is float, (ours, theirs)
        assert math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=1e-12), (ours, theirs)
    else:
        assert_same(ours, theirs)
    return ours


def int_labelled(seed, **kw):
    """random_graph relabelled by integers (NetworkX sorts load's nodes by label)."""
    G = random_graph(seed, **kw)
    return nx.relabel_nodes(G, {v: i * 7 % 101 for i, v in enumerate(G)})


@pytest.mark.parametrize("seed,directed,multigraph,weights", CASES)
def test_load_random_graphs(device, seed, directed, multigraph, weights):
    G = int_labelled(seed, directed=directed, multigraph=multigraph, weights=weights)
    rng = random.Random(seed)
    for weight in (None, "weight"):
        for cutoff in LOAD_CUTOFFS + [rng.uniform(0, 6)]:
            load_both(G, weight=weight, cutoff=cutoff, normalized=rng.random() < 0.5)
        for normalized in (True, False):
            load_both(G, weight=weight, normalized=normalized)
            load_both(G, v=rng.choice(list(G)), weight=weight, normalized=normalized,
                      cutoff=rng.choice(LOAD_CUTOFFS))
        load_both(G, v=-5, weight=weight)  # not a node: 0.0


@pytest.mark.parametrize("labels", [
    lambda i: f"n{i:02}", lambda i: (i % 3, f"x{i}"), lambda i: float(i) / 2,
    lambda i: (i % 2, (i, "a")) if i % 3 else (i % 2,), lambda i: np.int64(i) if i % 2 else i])
def test_load_labels(device, labels):
    """Labels of one ordered kind (strings, tuples position by position, numbers) run."""
    G = nx.relabel_nodes(random_graph(3, directed=True, n=25), {
        v: labels(i) for i, v in enumerate(random_graph(3, directed=True, n=25))})
    load_both(G)
    load_both(G, weight="weight", cutoff=4)
    load_both(G, v=next(iter(G)), weight="weight")


def test_load_source_among_predecessors(device):
    """A node with a shortest arc from the source hands its load to none of its
    predecessors (NetworkX's loop stops at the source, first in the list): from s, b's
    predecessors are s and a, and a gets nothing (its load stays 0)."""
    G = nx.DiGraph()
    G.add_weighted_edges_from([("s", "a", 1), ("a", "b", 1), ("s", "b", 2), ("b", "c", 1),
                               ("a", "c", 3), ("c", "d", 2), ("b", "d", 3)])
    got = load_both(G, weight="weight", normalized=False)
    assert got == {"s": 0.0, "a": 0.0, "b": 4.0, "c": 1.0, "d": 0.0}
    load_both(G, normalized=False)
    load_both(G, weight="weight", cutoff=3)


def test_load_known_values(device):
    """NetworkX's test values: a 3-path, and the Krackhardt kite's loads."""
    assert nx.load_centrality(nx.path_graph(3), normalized=False, backend="gpusp") == \
        {0: 0.0, 1: 2.0, 2: 0.0}
    assert nx.load_centrality(nx.path_graph(3), v=1, backend="gpusp") == 1.0
    load_both(nx.krackhardt_kite_graph())
    load_both(nx.florentine_families_graph())
    load_both(nx.les_miserables_graph(), weight="weight")


@pytest.mark.parametrize("weights", ["ones", "random"])
def test_load_batches(device, monkeypatch, weights):
    """Sources split into batches of 3 sum as one batch does."""
    G = int_labelled(11, directed=True, weights=weights, n=40)
    monkeypatch.setattr(brandes, "batch_size", lambda ex, graph, count, *a, **k: 3)
    load_both(G, weight="weight")
    load_both(G, weight="weight", cutoff=2, normalized=False)


def test_load_empty_and_tiny(device):
    for G in (nx.Graph(), nx.DiGraph(), nx.empty_graph(1), nx.empty_graph(2),
              nx.Graph([(0, 0)]), nx.path_graph(3, create_using=nx.DiGraph)):
        for normalized in (True, False):
            load_both(G, normalized=normalized)
            load_both(G, normalized=normalized, v=0)
    assert nx.load_centrality(nx.Graph(), v=[1], backend="gpusp") == 0.0  # no lookup


def test_load_errors_and_declines(device):
    G = nx.path_graph(6)
    for backend in ("gpusp", "networkx"):
        with pytest.raises(TypeError):  # an unhashable v: NetworkX's ``v in load``
            nx.load_centrality(G, v=[1], backend=backend)
    mixed = nx.Graph([(0, "a"), (0, 1)])  # 1 and "a" at one distance: NetworkX's TypeError
    with pytest.raises(TypeError):
        nx.load_centrality(mixed)
    for H, kw in [(mixed, {}), (nx.Graph([(0, 1, {"weight": 0})]), {"weight": "weight"}),
                  (nx.Graph([(0, 1, {"weight": -1})]), {"weight": "weight"}),
                  (G, {"cutoff": "2"}), (nx.Graph([(object(), 1)]), {})]:
        with pytest.raises(NotImplementedError):
            nx.load_centrality(H, backend="gpusp", **kw)


def test_load_weight_function(device):
    G = int_labelled(5, directed=True, weights="int", n=20)
    def w(u, v, d):
        return d["weight"] * 2 + 1
    load_both(G, weight=w)
    load_both(G, weight=w, cutoff=6)


def test_load_real_graph(device, real):
    G = real("SiouxFalls")
    attr = next(iter(next(iter(G.edges(data=True)))[2]))
    load_both(G, weight=attr)
    load_both(G, cutoff=3)


# -- kernels against their twins (marker gpu) -------------------------------------------
def needs_gpu(test):
    return pytest.mark.gpu(pytest.mark.skipif(not cuda_available(),
                                              reason="no CUDA GPU (CuPy) here")(test))


def _csr(seed, n=3000, m=20000, directed=True, weights=False):
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    hub = np.full(2000, 5)  # a vertex of many arcs
    src, dst = np.r_[src, hub], np.r_[dst, rng.integers(0, n, 2000)]
    w = rng.integers(1, 6, len(src)) if weights else None
    return CSRGraph.from_edge_arrays(n, src, dst, w, directed=directed)


@pytest.fixture(scope="module")
def executors():
    return Executor("cuda"), Executor("cpu")


@needs_gpu
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("mode", [BRANDES, SUBSET, EDGE_SUBSET, LOAD])
@pytest.mark.parametrize("directed", [True, False])
def test_levels_kernels_match_twin(executors, seed, mode, directed):
    """A whole batch of levels, forward then backward, then the arc sums and the vertex
    sums in source order, on CUDA and on the twin: the same levels, path counts and
    npred exactly (LOAD: none counted from the source), dependencies and sums to
    rounding (the backward kernel may fuse a share's product into its sum)."""
    graph = _csr(seed, directed=directed)
    rng = np.random.default_rng(seed)
    count, width = 45, 64
    sources = rng.integers(0, graph.n, count)
    target = rng.random(graph.n) < 0.3
    out = []
    for ex in executors:
        xp, ops = ex.xp, ex.ops("brandes")
        g = graph.on(ex)
        at = ex.asarray(sources * width + np.arange(count))
        dist = xp.full(graph.n * width, UNSEEN, dtype=np.int32)
        sigma, delta = xp.zeros(graph.n * width), xp.zeros(graph.n * width)
        npred = xp.zeros(graph.n * width, dtype=np.int32)
        arcs = xp.zeros(graph.m)
        dist[at], sigma[at] = 0, 1.0
        more, level = xp.zeros(1, dtype=np.int32), 0
        while True:
            more[:] = 0
            ops.levels_forward(g, width, level, dist, sigma, npred, more,
                               gate_source=mode == LOAD)
            if not int(ex.to_host(more)[0]):
                break
            level += 1
        for lv in range(level, -1, -1):
            ops.levels_backward(g, width, lv, dist, sigma, delta, mode,
                                ex.asarray(target.astype(np.uint8)), npred)
        ops.levels_arcs(g, width, count, dist, sigma, delta, mode,
                        ex.asarray(target.astype(np.uint8)), npred, arcs)
        vertex = xp.zeros(graph.n)
        ops.add_in_order(delta, count, graph.n, 1, width, vertex)
        out.append([ex.to_host(a) for a in (dist, sigma, npred, delta, arcs, vertex)])
    (d1, s1, p1, e1, a1, v1), (d2, s2, p2, e2, a2, v2) = out
    np.testing.assert_array_equal(d1, d2)
    np.testing.assert_array_equal(s1, s2)
    np.testing.assert_array_equal(p1, p2)
    np.testing.assert_allclose(e1, e2, rtol=1e-12)
    np.testing.assert_allclose(a1, a2, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(v1, v2, rtol=1e-12, atol=1e-9)
    if mode == LOAD:  # the sources' out-neighbours (level 1) hand on nothing
        assert not p1[d1 == 1].any() and p1[(d1 > 1) & (d1 != UNSEEN)].all()


def _sums_by_batch(ex, graph, sources, batches, monkeypatch, **kw):
    """Dependencies of ``sources`` computed in batches of each size of ``batches``."""
    import nx_gpusp.solvers.apsp.brandes as brandes

    out = []
    for b in batches:
        monkeypatch.setattr(brandes, "batch_size",
                            lambda ex, graph, count, entry, what, requested=None, b=b: b)
        out.append(brandes.dependencies(ex, graph, sources, **kw))
    return out


def _same_bits(parts):
    for got in parts[1:]:
        np.testing.assert_array_equal(got.vertex, parts[0].vertex)
        np.testing.assert_array_equal(got.arcs, parts[0].arcs)
        np.testing.assert_array_equal(got.reached, parts[0].reached)


@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("mode", [BRANDES, EDGE_SUBSET])
def test_sums_do_not_depend_on_the_batches(monkeypatch, weights, mode):
    """Vertex and arc sums add one source after another onto the total so far: the
    same bits whatever the batches' sizes (which follow the free device memory)."""
    graph = _csr(4, n=400, m=3000, weights=weights)
    sources = np.arange(0, 400, 3)
    targets = np.random.default_rng(4).random(graph.n) < 0.3
    _same_bits(_sums_by_batch(Executor("cpu"), graph, sources, (32, 64, 1000), monkeypatch,
                              mode=mode, targets=targets, arcs=True))


@needs_gpu
@pytest.mark.parametrize("weights", [False, True])
def test_sums_do_not_depend_on_the_batches_on_gpu(monkeypatch, weights):
    """The same on CUDA, each batch size twice: the same bits every time."""
    graph = _csr(5, n=2000, m=16000, weights=weights)
    sources = np.arange(0, 2000, 5)
    _same_bits(_sums_by_batch(Executor("cuda"), graph, sources, (32, 96, 96, 400, 400),
                              monkeypatch, arcs=True))


def _grid(side, weights, seed):
    """An undirected side x side grid: weights "2" (all 2), "12" (1 or 2), "half" (0.5
    or 1.0) or "float" (uniform): distance ties by the hundred, rows whose windows of
    independent vertices run far past 32."""
    rng = np.random.default_rng(seed)
    ids = np.arange(side * side).reshape(side, side)
    src = np.r_[ids[:, :-1].ravel(), ids[:-1, :].ravel()]
    dst = np.r_[ids[:, 1:].ravel(), ids[1:, :].ravel()]
    w = {"2": np.full(len(src), 2), "12": rng.integers(1, 3, len(src)),
         "half": rng.choice([0.5, 1.0], len(src)),
         "float": rng.uniform(0.5, 2.0, len(src))}[weights]
    return CSRGraph.from_edge_arrays(side * side, src, dst, w, directed=False)


ORDERED_GRAPHS = {
    "random": lambda seed: _csr(seed, n=800, m=5000, weights=True),
    "random-float": lambda seed: CSRGraph.from_edge_arrays(
        800, *np.random.default_rng(seed).integers(0, 800, (2, 5000)),
        np.random.default_rng(seed + 9).uniform(0.1, 5.0, 5000)),
    "grid-2": lambda seed: _grid(50, "2", seed),
    "grid-12": lambda seed: _grid(50, "12", seed),
    "grid-half": lambda seed: _grid(50, "half", seed),
    "grid-float": lambda seed: _grid(50, "float", seed),
    # integer distances spanning more values than the buckets: scaled, then sorted
    "wide": lambda seed: CSRGraph.from_edge_arrays(
        800, *np.random.default_rng(seed).integers(0, 800, (2, 5000)),
        np.random.default_rng(seed + 9).integers(1, 10 ** 6, 5000)),
    # one far vertex: the rest crowd into the first bucket, the argsort of the rows
    "skewed": lambda seed: _far_vertex(seed, 10 ** 9),
    "skewed-float": lambda seed: _far_vertex(seed, 1e9 + 0.5),
}


def _far_vertex(seed, far):
    """A random digraph of 800 vertices and a vertex 801st that only ``far`` reaches."""
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, 800, (2, 5000))
    w = rng.integers(1, 6, 5000).astype(type(far))
    return CSRGraph.from_edge_arrays(801, np.r_[src, 0, 800], np.r_[dst, 800, 1],
                                     np.r_[w, far, 1].astype(type(far)))


def _ordered_passes(ex, graph, sources, dist, mode, target):
    """row_order, the two walks and the arc sums of one batch on ``ex``: host arrays."""
    ops, xp = ex.ops("brandes"), ex.xp
    count, n = len(sources), graph.n
    dd = ex.asarray(dist.reshape(-1))
    order = xp.empty(count * n, dtype=np.int32)
    reached = xp.empty(count, dtype=np.int64)
    ops.row_order(count, n, dd, order, reached)
    sigma, delta = xp.zeros(count * n), xp.zeros(count * n)
    npred = xp.zeros(count * n, dtype=np.int32)
    arcs = xp.zeros(graph.m)
    dtype = dist.dtype
    ops.ordered_forward(graph.reverse.on(ex), graph.reverse.weights_as(ex, dtype), count,
                        ex.asarray(sources), dd, order, reached, sigma, npred,
                        gate_source=mode == LOAD)
    ops.ordered_backward(graph.on(ex), graph.weights_as(ex, dtype), count, dd, order,
                         reached, sigma, delta, mode, ex.asarray(target), npred)
    ops.ordered_arcs(graph.on(ex), graph.weights_as(ex, dtype), count, dd, sigma, delta,
                     mode, ex.asarray(target), npred, arcs)
    return [ex.to_host(a) for a in (order, reached, sigma, npred, delta, arcs)]


@needs_gpu
@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("mode", [BRANDES, SUBSET, EDGE_SUBSET, LOAD])
@pytest.mark.parametrize("kind", list(ORDERED_GRAPHS))
def test_ordered_kernels_match_twin(executors, seed, mode, kind):
    """The weighted passes (row order, a warp per source over it, the arc sums) on CUDA
    and on the twin, from the same distances: each row's reached vertices in an order
    of the same distances (ties may differ), the same path counts and npred exactly,
    dependencies and arc sums to rounding."""
    from scipy.sparse import csgraph, csr_matrix

    graph = ORDERED_GRAPHS[kind](seed)
    rng = np.random.default_rng(seed)
    count = 37
    sources = rng.integers(0, graph.n, count)
    sources[0] = 0  # a grid's corner: the longest rows of ties
    A = csr_matrix((graph.weights.astype(float), graph.indices, graph.indptr),
                   shape=(graph.n, graph.n))
    d = csgraph.dijkstra(A, indices=sources)
    dtype = graph.distance_dtype()
    inf = distance_inf(dtype)
    dist = np.where(np.isinf(d), 0, d).astype(dtype)
    dist[np.isinf(d)] = inf
    target = (rng.random(graph.n) < 0.3).astype(np.uint8)
    (o1, r1, s1, p1, e1, a1), (o2, r2, s2, p2, e2, a2) = (
        _ordered_passes(ex, graph, sources, dist, mode, target) for ex in executors)
    np.testing.assert_array_equal(r1, r2)
    for k in range(count):
        row1, row2 = o1[k * graph.n:][:r1[k]], o2[k * graph.n:][:r2[k]]
        np.testing.assert_array_equal(np.sort(row1), np.sort(row2))
        np.testing.assert_array_equal(dist[k][row1], dist[k][row2])  # sorted, both
    np.testing.assert_array_equal(s1, s2)
    np.testing.assert_array_equal(p1, p2)
    np.testing.assert_allclose(e1, e2, rtol=1e-12)
    np.testing.assert_allclose(a1, a2, rtol=1e-12, atol=1e-9)
    if kind.startswith("grid"):  # the corner's row: runs of equal distances past 32
        assert np.bincount(np.unique(dist[0], return_inverse=True)[1]).max() > 32 or \
            kind == "grid-float"


@needs_gpu
def test_ordered_arcs_repeat(executors):
    """Edge betweenness sums of a batch, run after run on CUDA: the same bits."""
    graph = _grid(40, "half", 3)
    from scipy.sparse import csgraph, csr_matrix

    A = csr_matrix((graph.weights, graph.indices, graph.indptr), shape=(graph.n, graph.n))
    sources = np.arange(0, graph.n, 7)
    dist = csgraph.dijkstra(A, indices=sources)
    target = np.ones(graph.n, dtype=np.uint8)
    runs = [_ordered_passes(executors[0], graph, sources, dist, BRANDES, target)
            for _ in range(3)]
    for run in runs[1:]:
        for got, first in zip(run[2:], runs[0][2:]):
            np.testing.assert_array_equal(got, first)


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("weights", ["2", "12", "half", "float"])
def test_grid_ties_on_gpu(weights):
    """Grids of many equal distances, on CUDA against NetworkX: vertex and edge
    betweenness, and the subset variants."""
    graph = _grid(20, weights, 5)
    G = nx.Graph()
    G.add_nodes_from(range(graph.n))
    tails = np.repeat(np.arange(graph.n), np.diff(graph.indptr))
    G.add_weighted_edges_from((int(u), int(v), w.item()) for u, v, w in
                              zip(tails, graph.indices, graph.weights) if u < v)
    cfg = nx.config.backends.gpusp
    old, cfg.device = cfg.device, "cuda"
    try:
        both("betweenness_centrality", G, weight="weight")
        both("betweenness_centrality", G, weight="weight", endpoints=True, normalized=False)
        both("edge_betweenness_centrality", G, weight="weight")
        both("betweenness_centrality_subset", G, list(G)[:30], list(G)[::3], weight="weight")
        both("edge_betweenness_centrality_subset", G, list(G)[:30], list(G)[::3],
             weight="weight")
        both("load_centrality", G, weight="weight")
        both("load_centrality", G, weight="weight", cutoff=7.5, normalized=False)
        both("load_centrality", G)
        both("load_centrality", G, cutoff=3)
    finally:
        cfg.device = old


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
def test_rmat_sample_on_gpu():
    """R-MAT scale 12, k = 300, unweighted and weighted, on CUDA against NetworkX."""
    from nx_gpusp import datasets
    from nx_gpusp.convert import to_networkx

    G = to_networkx(datasets.rmat(12))
    cfg = nx.config.backends.gpusp
    old, cfg.device = cfg.device, "cuda"
    try:
        both("betweenness_centrality", G, k=300, seed=1)
        both("betweenness_centrality", G, k=100, seed=2, weight="weight")
        H = G.subgraph(list(G)[:600])
        both("load_centrality", H)
        both("load_centrality", H, weight="weight", cutoff=40)
    finally:
        cfg.device = old
