"""The default method, near-far: against NetworkX in every launch shape (one-block and
cluster teams, multi-block rounds, the dense hand-over), and CUDA against the NumPy
twin round for round (queue rounds are deterministic)."""

import networkx as nx
import numpy as np
import pytest

from graphs import (assert_lengths_equal, assert_paths_valid, assert_tight_tree, graph_cases,
                    random_graph)
from nx_gpusp.convert import to_networkx
from nx_gpusp.executor import Executor, cuda_available
from nx_gpusp.graph import CSRGraph, float_distances
from nx_gpusp.ops.near_far import CTL_HANDED, CTL_SLOTS
from nx_gpusp.solvers.sssp import distance_inf, init_sources
from nx_gpusp.solvers.sssp.near_far import dense_rounds, near_far_sssp

CASES = graph_cases(60, seed=21)


SHAPES = {"one-block": dict(cluster=1, block_cap=8192), "cluster": dict(cluster=8),
          "multi-block": dict(block_cap=1, dense_fraction=0),
          "dense-hand-over": dict(block_cap=1, dense_fraction=10**9),
          "dense-thresholded": dict(block_cap=1, dense_fraction=10**9, dense_target=4)}


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("name,G", CASES, ids=[c[0] for c in CASES])
def test_near_far_matches_networkx(device, name, G, shape):
    kw = dict(backend="gpusp", method="near-far", **SHAPES[shape])
    s = next(iter(G))
    expected = nx.single_source_dijkstra_path_length(G, s)
    assert_lengths_equal(nx.single_source_dijkstra_path_length(G, s, **kw), expected)
    dist, paths = nx.single_source_dijkstra(G, s, cutoff=8, **kw)
    assert_lengths_equal(dist, nx.single_source_dijkstra_path_length(G, s, cutoff=8))
    assert_paths_valid(G, paths, dist, s)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("seed", range(20))
def test_near_far_negative_weights(device, seed, shape):
    G = random_graph(700 + seed, negative=True, n=20, p=0.2)
    if seed % 4 == 0:
        for _, _, d in G.edges(data=True):
            d["weight"] -= 4  # most of these have negative cycles
    s = next(iter(G))
    kw = dict(backend="gpusp", method="near-far", **SHAPES[shape])
    try:
        expected = nx.single_source_bellman_ford_path_length(G, s)
    except nx.NetworkXUnbounded:
        with pytest.raises(nx.NetworkXUnbounded):
            nx.single_source_bellman_ford(G, s, **kw)
        return
    dist, paths = nx.single_source_bellman_ford(G, s, **kw)
    assert_lengths_equal(dist, expected)
    assert_paths_valid(G, paths, dist, s)


def _random_csr(seed, n, m, kind):
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.integers(0, 20, m) if kind == "int" else rng.uniform(0, 5, m)
    return CSRGraph.from_edge_arrays(n, src, dst, w, directed=bool(seed % 2))


def _dense_rounds_match(graph, sources, delta, executors):
    """dense_rounds to convergence from ``sources`` flagged (target 64, ``delta``) on
    each executor: the distances are equal; returns the first executor's."""
    out = []
    for ex in executors:
        dist, _pred = init_sources(ex, graph.n, sources, graph.distance_dtype())
        flags = ex.xp.zeros(graph.n, dtype=np.uint8)
        flags[ex.asarray(sources)] = 1
        dense_rounds(ex, graph, dist, flags, distance_inf(graph.distance_dtype()),
                     target=64, delta=delta)
        out.append(ex.to_host(dist))
    for other in out[1:]:
        np.testing.assert_array_equal(out[0], other)
    return out[0]


def _solver_runs_match(graph, source, shapes, executors):
    """near_far_sssp from ``source`` with each option set of ``shapes`` on each executor:
    the distances are equal and the first executor's predecessors (where asked for) are
    a tree of tight arcs; yields (options, runs) for the caller's own checks."""
    for kw in shapes:
        runs = [near_far_sssp(ex, graph, [source], **kw) for ex in executors]
        for other in runs[1:]:
            np.testing.assert_array_equal(runs[0].executor.to_host(runs[0].dist),
                                          other.executor.to_host(other.dist))
        if kw["want_pred"]:
            pred, dist = (runs[0].executor.to_host(x) for x in (runs[0].pred, runs[0].dist))
            reached = set(np.flatnonzero(dist != distance_inf(dist.dtype)).tolist())
            assert_tight_tree(to_networkx(graph), dist, pred, [source], reached)
        yield kw, runs


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("cluster", [1, 8])
@pytest.mark.parametrize("block_cap", [8192, 64])
@pytest.mark.parametrize("kind", ["int", "float"])
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("sources", [[0, 5], [3]], ids=["two-sources", "one-source"])
def test_cuda_matches_twin_round_for_round(sources, seed, kind, block_cap, cluster):
    """Near-far rounds (one block or a cluster team) equal the twin's round for round;
    the dense rounds after a hand-over are asynchronous on CUDA, so there only the
    distances they converge to are compared. One source: the state is set up by one
    launch (nf_init); several: the host adds them."""
    graph = _random_csr(seed, 20000, 80000, kind)
    out = {}
    for ex in (Executor("cuda"), Executor("cpu")):
        r = near_far_sssp(ex, graph, sources, block_cap=block_cap, cluster=cluster,
                          dense_fraction=16 if seed else 0)
        pred = None if r.pred is None else ex.to_host(r.pred)
        out[ex.name] = ex.to_host(r.dist), pred, r.stats
    (d1, p1, s1), (d2, p2, s2) = out["cuda"], out["cpu"]
    np.testing.assert_array_equal(d1, d2)
    assert ("dense_rounds" in s1) == ("dense_rounds" in s2) == bool(seed), (s1, s2)
    queue_rounds = [s["rounds"] - s.get("dense_rounds", 0) for s in (s1, s2)]
    assert queue_rounds[0] == queue_rounds[1], (s1, s2)
    assert s1["near_entries"] == s2["near_entries"], (s1, s2)
    assert (p1 is None) == (p2 is None)
    if p1 is not None:
        np.testing.assert_array_equal(p1 >= 0, p2 >= 0)


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("threshold", ["none", "adaptive", "fixed"])
@pytest.mark.parametrize("weights", ["int32", "int64", "float"])
@pytest.mark.parametrize("seed", range(4))
def test_dense_rounds_cuda_matches_twin(seed, weights, threshold):
    """nf_dense_rounds to convergence from random flagged vertices, on int32 distances
    (small weights), int64 (weights too large for int32 sums) and float64, with and
    without a cutoff, with no threshold, an adaptive one (delta starting small) or a fixed
    delta: the kernel's distances equal the twin's."""
    kind = "float" if weights == "float" else "int"
    graph = _random_csr(100 + seed, 5000, 40000, kind)
    if weights == "int64":
        graph.weights *= 10**6
    assert graph.int32_distances == (weights == "int32")
    rng = np.random.default_rng(seed)
    sources = rng.choice(graph.n, 3, replace=False)
    cut = distance_inf(graph.distance_dtype()) if seed % 2 else graph.weights.max() * 3
    out = []
    for ex in (Executor("cuda"), Executor("cpu")):
        dist, _pred = init_sources(ex, graph.n, sources, graph.distance_dtype())
        flags = ex.xp.zeros(graph.n, dtype=np.uint8)
        flags[ex.asarray(sources)] = 1
        kw = {"none": {}, "adaptive": dict(target=64, delta=graph.weights.max() / 8),
              "fixed": dict(target=0, delta=graph.weights.max() * 2)}[threshold]
        rounds = dense_rounds(ex, graph, dist, flags, cut, **kw)
        assert rounds >= 2
        out.append(ex.to_host(dist))
    np.testing.assert_array_equal(out[0], out[1])


@pytest.mark.parametrize("seed", range(2))
def test_dense_rounds_go_and_start(device, seed):
    """The dense rounds a near-far run queues behind its hand-over: with ``go`` (the
    run's ctl) they run only if its CTL_HANDED slot is set (else distances and flags stay
    as they were), and with ``start`` (its tctl) the first round takes the minimum and
    delta there, not the host's (a cutoff of 0 ends the rounds after the first, whose
    bucket base and width stay in the control block); the distances are those of
    passing the two values from the host."""
    from nx_gpusp.ops.near_far import dense_views
    from nx_gpusp.solvers.sssp.near_far import dense_space

    ex = Executor(device)
    graph = _random_csr(300 + seed, 5000, 40000, "int")
    graph.weights[:] = np.maximum(graph.weights, 1)  # no arc within a cutoff of 0
    assert graph.int32_distances
    sources = np.random.default_rng(seed).choice(graph.n, 3, replace=False)
    fmin, delta = 0, int(graph.weights.max()) // 4

    def run(cut=distance_inf(np.int32), **kw):
        dist, _pred = init_sources(ex, graph.n, sources, np.int32)
        flags = ex.xp.zeros(graph.n, dtype=np.uint8)
        flags[ex.asarray(sources)] = 1
        rounds = dense_rounds(ex, graph, dist, flags, cut, target=64, **kw)
        return rounds, ex.to_host(dist), ex.to_host(flags)

    ctl, tctl = ex.ops("near_far").control_block(np.int32)
    ctl[:] = 0
    tctl[0], tctl[1] = fmin, delta
    rounds, dist, flags = run(fmin=fmin, delta=delta, go=ctl)  # CTL_HANDED 0: no rounds
    assert rounds == 0 and flags.sum() == 3
    assert (dist[sources] == 0).all() and (dist == 0).sum() == 3
    ctl[CTL_HANDED] = 1
    want = run(fmin=fmin, delta=delta)
    got = run(fmin=7, delta=1, go=ctl, start=tctl)
    assert got[0] >= 2 and not got[2].any()
    np.testing.assert_array_equal(got[1], want[1])
    space = dense_space(ex, graph, np.int32)
    tctl[0], tctl[1] = 5, 8
    assert run(cut=0, fmin=0, delta=4, go=ctl, start=tctl, space=space)[0] == 1
    first = dense_views(ex.to_host(space.control.block), np.dtype(np.int32))
    assert (first.dbase[0], first.dwidth[0]) == (5, 2)  # start's minimum and delta / 4


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("span", [1, 2, 3, 8])
@pytest.mark.parametrize("weights", ["int32", "int32-keyed", "int64", "float"])
@pytest.mark.parametrize("seed", range(3))
def test_dense_rounds_walk_flags_in_spans(seed, weights, span):
    """On graphs without rows longer than HEAVY_ARCS a dense round's lane takes ``span``
    flags at a time (visit_flagged_arcs; 8 is 4 for 64-bit distances), the warp relaxing
    the taken vertices 32 rows at a time: the distances equal the twin's whatever the
    span, n (5,000) not a multiple of a warp's 32 x span vertices; a keyed run's keys give
    a tree of tight arcs. The size rule (flag_span) picks 1 here, more on the large
    graph of test_dense_spans_chosen_by_size."""
    from nx_gpusp.ops.near_far import flag_span

    kind = "float" if weights == "float" else "int"
    graph = _random_csr(200 + seed, 5000, 40000, kind)
    if weights == "int64":
        graph.weights *= 10**6
    if weights == "int32-keyed":
        graph = _random_csr_weights(200 + seed, 5000, 40000, low=1)
    assert graph.max_out_degree <= 1024
    assert flag_span(graph.n, 8 * -(-graph.n // 256), graph.distance_dtype()) == 1
    rng = np.random.default_rng(seed)
    sources = rng.choice(graph.n, 3, replace=False)
    out = []
    for ex in (Executor("cuda"), Executor("cpu")):
        keys = ex.ops("near_far").unset_keys(graph.n) if weights == "int32-keyed" else None
        dist, pred = init_sources(ex, graph.n, sources, graph.distance_dtype())
        flags = ex.xp.zeros(graph.n, dtype=np.uint8)
        flags[ex.asarray(sources)] = 1
        rounds = dense_rounds(ex, graph, dist, flags, distance_inf(graph.distance_dtype()),
                              target=64, delta=graph.weights.max() / 8, keys=keys,
                              span=span if ex.is_cuda else None)
        assert rounds >= 2
        out.append(ex.to_host(dist))
        if keys is not None:
            ex.ops("near_far").key_predecessors(keys, pred)
            host = out[-1]
            reached = set(np.flatnonzero(host != distance_inf(host.dtype)).tolist())
            assert_tight_tree(to_networkx(graph), host, ex.to_host(pred), sources, reached)
    np.testing.assert_array_equal(out[0], out[1])


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("weights", ["int", "float"])
def test_dense_spans_chosen_by_size(weights):
    """A run handed over on a 2^20-vertex random graph of 7 predecessors a vertex, where
    the size rule walks several flags a lane at a time (on an H100 8 with int32
    distances, 4 with float64): SciPy's distances,
    and predecessors (keys; the tight-arc tree with float weights) along tight arcs from
    strictly closer vertices."""
    from nx_gpusp.datasets import random_predecessors
    from nx_gpusp.ops.near_far import flag_span

    graph = random_predecessors(1 << 20, seed=5)
    if weights == "float":
        graph = CSRGraph(graph.indptr, graph.indices,
                         np.asarray(graph.weights, dtype=np.float64) + 0.25, directed=True)
    ex = Executor("cuda")
    blocks = ex.ops("near_far").resident_blocks("nf_dense_rounds", np.int32)
    assert flag_span(graph.n, 8 * blocks, np.float64 if weights == "float" else np.int32) > 1
    r = near_far_sssp(ex, graph, [0], want_pred=True)
    assert "dense_rounds" in r.stats
    dist = float_distances(ex.to_host(r.dist))
    np.testing.assert_array_equal(dist, _scipy_lengths(graph, 0))
    if r.pred is None:  # float weights: the result layer's tight-arc tree
        from nx_gpusp.solvers.sssp.tree import shortest_path_tree

        r.pred = shortest_path_tree(ex, graph, r.dist, [0], int32_dist=r.int32_dist)
    pred = ex.to_host(r.pred)
    v = np.flatnonzero(np.isfinite(dist))
    v = v[v != 0]
    assert pred[0] == -1 and (pred[v] >= 0).all()
    u = pred[v]
    assert (dist[u] < dist[v]).all()
    ip, ind, w = graph.indptr, graph.indices, np.asarray(graph.weights, dtype=np.float64)
    for x in np.random.default_rng(0).choice(v, 2000, replace=False):
        row = slice(ip[pred[x]], ip[pred[x] + 1])
        assert (dist[pred[x]] + w[row][ind[row] == x]).min() == dist[x]


@pytest.mark.parametrize("weights", ["int", "float"])
@pytest.mark.parametrize("settle", [True, False])
def test_long_rows_wait_until_final(monkeypatch, settle, weights):
    """Dense rounds walk a row longer than HEAVY_ARCS only once its distance is within
    ``settle`` (the least weight, 1, + the mean weight, ~3, / 16) of the least pending
    one: the hub first reached at 50 by a direct arc waits while a two-arc path lowers it
    to 2, so its row is walked once; without the rule (settle None: what dense_space
    gives a graph with no row that long) it is walked at 50 and again at 2.
    The twin's rounds, whose tails are counted; CUDA's equal its distances in
    test_dense_rounds_split_long_rows."""
    from nx_gpusp.ops import near_far as ops_module
    from nx_gpusp.ops.near_far import HEAVY_ARCS
    from nx_gpusp.solvers.sssp import near_far as solver_module

    hub, via, n = 1, 2, HEAVY_ARCS + 10
    leaves = np.arange(3, n)
    src = np.concatenate([[0, 0, via], np.full(len(leaves), hub)])
    dst = np.concatenate([[hub, via, hub], leaves])
    w = np.concatenate([[50, 1, 1], np.full(len(leaves), 3)])
    graph = CSRGraph.from_edge_arrays(n, src, dst, w.astype(float) if weights == "float"
                                      else w, directed=True)
    ex = Executor("cpu")
    space = solver_module.dense_space(ex, graph, graph.distance_dtype())
    assert space.settle == (1 if weights == "int" else 1 + graph.mean_abs_weight / 16) < 2
    if not settle:
        space.settle = None
    walked = []
    gather = ops_module.gather_arcs
    monkeypatch.setattr(ops_module, "gather_arcs",
                        lambda indptr, tails: (walked.extend(np.asarray(tails).tolist()),
                                               gather(indptr, tails))[1])
    dist, _pred = init_sources(ex, n, [0], graph.distance_dtype())
    flags = np.zeros(n, dtype=np.uint8)
    flags[0] = 1
    dense_rounds(ex, graph, dist, flags, distance_inf(graph.distance_dtype()), space=space)
    assert walked.count(hub) == (1 if settle else 2)
    expected = nx.single_source_dijkstra_path_length(to_networkx(graph), 0)
    assert {v: dist[v].item() for v in range(n)} == expected


@pytest.mark.parametrize("weights", ["int", "zero", "float"])
@pytest.mark.parametrize("seed", range(2))
def test_hub_graphs_match_networkx(device, seed, weights):
    """Graphs with rows longer than HEAVY_ARCS (hubs joined to one another and to random
    vertices), which the dense rounds walk only near the least pending distance: lengths
    and paths through NetworkX's API equal NetworkX's, from a hub and from a leaf, handed
    over at once and by the default rule; integer weights 1-255, weights 0-9 (settle 0 +
    mean / 16) and floats; undirected for odd seeds."""
    from nx_gpusp.ops.near_far import HEAVY_ARCS

    rng = np.random.default_rng(40 + seed)
    n, hubs = 3000, 6
    src = np.concatenate([np.repeat(np.arange(hubs), HEAVY_ARCS + 200),
                          rng.integers(hubs, n, 12000)])
    dst = np.concatenate([rng.choice(n, HEAVY_ARCS + 200, replace=False)
                          for _ in range(hubs)] + [rng.integers(0, n, 12000)])
    w = {"int": lambda k: rng.integers(1, 256, k), "zero": lambda k: rng.integers(0, 10, k),
         "float": lambda k: rng.uniform(0.05, 10, k)}[weights](len(src))
    G = nx.Graph() if seed % 2 else nx.DiGraph()
    G.add_weighted_edges_from(zip(src.tolist(), dst.tolist(), w.tolist()))
    for source, kw in ((0, {}), (int(src[-1]), dict(block_cap=1, dense_fraction=10**9))):
        expected = nx.single_source_dijkstra_path_length(G, source)
        run = dict(backend="gpusp", method="near-far", **kw)
        assert_lengths_equal(nx.single_source_dijkstra_path_length(G, source, **run), expected)
        dist, paths = nx.single_source_dijkstra(G, source, **run)
        assert_lengths_equal(dist, expected)
        assert_paths_valid(G, paths, dist, source)


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("weights", ["int32", "int32-zero", "int64", "float"])
@pytest.mark.parametrize("seed", range(3))
def test_dense_rounds_split_long_rows(seed, weights):
    """Rows longer than HEAVY_ARCS go to the grid in chunks (nf_dense_rounds, after a
    grid barrier): hubs of
    HEAVY_ARCS + 1, exactly 2 x HEAVY_CHUNK and 3 x HEAVY_CHUNK + 7 arcs among random
    arcs, from sources that include them; the kernel's distances equal the twin's, which
    walks every row itself, in dense_rounds and in the whole solver (dense and team
    rounds); CUDA's predecessors form a tree of tight arcs. Long rows wait until final
    (test_long_rows_wait_until_final): with zero weights ("int32-zero"), only at the
    least pending distance itself."""
    from nx_gpusp.ops.near_far import HEAVY_ARCS, HEAVY_CHUNK

    rng = np.random.default_rng(seed)
    n = 6000
    hubs = {0: HEAVY_ARCS + 1, 1: 2 * HEAVY_CHUNK, 2: 3 * HEAVY_CHUNK + 7}
    others = rng.integers(3, n, 30000)  # no arc from a hub but its own: exact row lengths
    src = np.concatenate([np.full(k, h) for h, k in hubs.items()] + [others])
    dst = np.concatenate([rng.choice(n, k, replace=False) for k in hubs.values()]
                         + [rng.integers(0, n, len(others))])
    low = 0 if weights == "int32-zero" else 1
    w = rng.integers(low, 30, len(src)) if weights != "float" else rng.uniform(0.1, 5, len(src))
    if weights == "int64":
        w = w * 10**6
    graph = CSRGraph.from_edge_arrays(n, src, dst, w, directed=True)
    assert [int(graph.out_degree[h]) for h in hubs] == list(hubs.values())
    assert graph.min_weight == (0 if weights == "int32-zero" else w.min())
    assert graph.int32_distances == weights.startswith("int32")
    executors = (Executor("cuda"), Executor("cpu"))
    for ex in executors:
        assert (ex.ops("near_far").heavy_rows(graph, graph.distance_dtype()) is None) == \
            (ex.kind == "cpu")
    _dense_rounds_match(graph, [0, 1, 2, int(rng.integers(3, n))], w.max(), executors)
    # the whole solver from the longest row's vertex: handed over at once (block_cap=0),
    # and in team rounds (one block, a cluster; lengths only, inline, and with
    # predecessors), which split long rows over the team
    shapes = [dict(block_cap=0, dense_fraction=10**9, want_pred=False)] + [
        dict(cluster=c, dense_fraction=0, want_pred=p) for c in (1, 8) for p in (False, True)]
    for kw, runs in _solver_runs_match(graph, 2, shapes, executors):
        assert all(("dense_rounds" in r.stats) == (kw["dense_fraction"] > 0) for r in runs), kw


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("weights", ["int32", "int64", "float"])
@pytest.mark.parametrize("seed", range(3))
def test_short_rows_dealt_out_over_lanes(seed, weights):
    """A warp's rows of up to 32 arcs are dealt out over its lanes (visit_short_rows) in
    team, inline, grid and dense rounds: out-degrees drawn from 0, 1, 2, 7, 31, 32 (the
    largest dealt out), 33 (the smallest a warp walks) and 100, so that a warp holds up
    to 32 x 32 arcs (eight batches of 128) and empty lanes; the distances equal the
    twin's in each kind of round, and CUDA's predecessors form a tree of tight arcs."""
    rng = np.random.default_rng(seed)
    n = 8000
    degrees = rng.choice([0, 1, 2, 7, 31, 32, 33, 100], n, p=[.1, .15, .15, .2, .15, .15,
                                                             .05, .05])
    src = np.repeat(np.arange(n), degrees)
    dst = np.concatenate([rng.choice(n, k, replace=False) for k in degrees])
    w = rng.integers(1, 40, len(src)) if weights != "float" else rng.uniform(0.1, 5, len(src))
    if weights == "int64":
        w = w * 10**6
    graph = CSRGraph.from_edge_arrays(n, src, dst, w, directed=True)
    assert np.array_equal(graph.out_degree, degrees)
    assert graph.int32_distances == (weights == "int32")
    source = int(np.flatnonzero(degrees == 32)[0])
    executors = (Executor("cuda"), Executor("cpu"))
    expected = _dense_rounds_match(graph, [source], w.max(), executors)
    shapes = [dict(block_cap=0, dense_fraction=10**9, want_pred=False),  # dense
              dict(block_cap=1, dense_fraction=0, want_pred=False),  # grid rounds
              *(dict(cluster=c, dense_fraction=0, want_pred=p, inline=i)  # team rounds
                for c in (1, 8) for p, i in ((False, True), (False, False), (True, False)))]
    for _kw, runs in _solver_runs_match(graph, source, shapes, executors):
        np.testing.assert_array_equal(runs[0].executor.to_host(runs[0].dist), expected)


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("cluster", [1, 8])
@pytest.mark.parametrize("kind", ["int", "float"])
@pytest.mark.parametrize("seed", range(4))
def test_inline_rounds_cuda_match_twin(seed, kind, cluster):
    """Team rounds with block sub-rounds (inline, lengths only; asynchronous on CUDA):
    the distances equal the twin's and those of rounds without inline."""
    graph = _random_csr(seed, 20000, 30000 + 40000 * seed, kind)
    out = []
    runs = ((Executor("cuda"), True), (Executor("cpu"), True), (Executor("cuda"), False))
    for ex, inline in runs:
        r = near_far_sssp(ex, graph, [seed], want_pred=False, cluster=cluster, inline=inline,
                          dense_fraction=0)
        out.append(ex.to_host(r.dist))
    for other in out[1:]:
        np.testing.assert_array_equal(out[0], other)


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("dtype", [np.int64, np.float64])
@pytest.mark.parametrize("source", [-1, 0, 4999])
def test_setup_kernels_match_twin(source, dtype):
    """nf_init (whole state, every field), nf_narrow and nf_widen on CUDA equal the
    twin's on random inputs, the int32 'unreached' round trip included."""
    from types import SimpleNamespace

    n, rng = 5000, np.random.default_rng(source + 2)
    wide = rng.integers(0, 1 << 20, n).astype(np.int64)
    wide[rng.choice(n, 50, replace=False)] = np.iinfo(np.int64).max
    out = []
    for ex in (Executor("cuda"), Executor("cpu")):
        xp, ops = ex.xp, ex.ops("near_far")
        ctl, tctl = ops.control_block(dtype)
        ctl[:] = 7
        st = SimpleNamespace(**{k: xp.full(n, 7, dtype=t) for k, t in [
            ("dist", dtype), ("pred", np.int32), ("stamp", np.int32), ("fv", np.int32),
            ("fd", dtype)]}, ctl=ctl, tctl=tctl)
        ops.init_state(st, source, dtype(3))
        work, back = xp.empty(n, dtype=np.int32), xp.empty(n, dtype=np.int64)
        ops.narrow(ex.asarray(wide), work)
        ops.widen(work, back)
        out.append([ex.to_host(a) for a in (*vars(st).values(), work, back)])
    for a, b in zip(*out):
        np.testing.assert_array_equal(a, b)
    dist, _pred, _stamp, fv, _fd, ctl, tctl, work, back = out[0]
    assert ctl[0] == (source >= 0) and (source < 0 or (dist[source] == 0 and fv[0] == source))
    assert not ctl[:CTL_SLOTS][1:].any() and tctl[1] == 3
    np.testing.assert_array_equal(back, wide)  # every value fits int32 or is unreached


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("size, wide, parity", [(0, 0, 0), (312, 0, 0), (313, 0, 1),
                                                (5, 1, 1), (4999, 0, 1), (2, 0, 0)])
def test_hand_over_matches_twin(size, wide, parity):
    """nf_hand_over: the verdict (more than n / dense_fraction entries, or a wide
    frontier) and the flags of the frontier's vertices, from the buffer that ctl's parity
    names, on CUDA as in the twin; dense_fraction 16 on 5,000 vertices: 313 entries
    hand over, 312 do not; at n + 1 (the solver's largest) any entry does."""
    from types import SimpleNamespace

    n, rng = 5000, np.random.default_rng(size + 7 * parity)
    fv, gv = (rng.permutation(n).astype(np.int32) for _ in range(2))
    out = []
    for ex in (Executor("cuda"), Executor("cpu")):
        xp, ops = ex.xp, ex.ops("near_far")
        ctl, tctl = ops.control_block(np.int32)
        ctl[:] = 0
        ctl[CTL_HANDED] = 7
        ctl[0], ctl[3], ctl[8] = size, parity, wide
        st = SimpleNamespace(dist=xp.zeros(n, dtype=np.int32), fv=ex.asarray(fv),
                             gv=ex.asarray(gv), fd=xp.zeros(n, dtype=np.int32),
                             gd=xp.zeros(n, dtype=np.int32), ctl=ctl, tctl=tctl)
        flags = xp.zeros(n, dtype=np.uint8)
        ops.hand_over(st, 16 if size != 2 else n + 1, flags)
        out.append((ex.to_host(ctl)[:CTL_SLOTS].copy(), ex.to_host(flags).copy()))
    (ctl_gpu, flags_gpu), (ctl_cpu, flags_cpu) = out
    np.testing.assert_array_equal(ctl_gpu, ctl_cpu)
    np.testing.assert_array_equal(flags_gpu, flags_cpu)
    handed = bool(wide) or size * 16 > n or size == 2
    assert ctl_gpu[CTL_HANDED] == handed
    entries = (gv if parity else fv)[:size]
    assert flags_gpu.sum() == (size if handed else 0)
    assert not handed or flags_gpu[entries].all()


@pytest.mark.parametrize("scale", [1, 10**7])
def test_dense_hand_over_wide_weights(device, scale):
    """The hand-over on int64 distances (sums beyond int32) and int32 ones, paths
    included, against NetworkX."""
    graph = _random_csr(7, 2000, 16000, "int")
    graph.weights *= scale
    assert graph.int32_distances == (scale == 1)
    G = to_networkx(graph)
    kw = dict(backend="gpusp", method="near-far", block_cap=1, dense_fraction=10**9)
    dist, paths = nx.single_source_dijkstra(G, 0, **kw)
    assert_lengths_equal(dist, nx.single_source_dijkstra_path_length(G, 0))
    assert_paths_valid(G, paths, dist, 0)


def test_cluster_option_checked(device):
    """A team of any other size than one block or a cluster is refused, on every device."""
    graph = _random_csr(5, 200, 800, "int")
    with pytest.raises(ValueError, match="cluster must be 1 or 8"):
        near_far_sssp(Executor(device), graph, [0], cluster=4)


def test_hand_over_reads_the_host_once_a_launch(device, monkeypatch):
    """A handed-over run reads ctl and tctl in one copy after each launch (after a team
    launch, a copy queued ahead of the dense rounds that its verdict starts) and returns
    without waiting for its rounds (their count is read when the stats are); every
    distance fits int32, so the whole run is on int32 distances (no copy to narrow or
    widen), and the tree of its distances (a NetworkX call's paths) reads them and is a
    tight tree."""
    from nx_gpusp.methods import get_method
    from nx_gpusp.solvers.answers import sssp_on_device

    ex = Executor(device)
    graph = _random_csr(3, 3000, 21000, "int")
    graph.on(ex).max_in_degree  # read once a graph (the tree's choice of pass), not a call
    reads = []
    to_host, to_host_async = ex.to_host, ex.to_host_async
    monkeypatch.setattr(ex, "to_host", lambda arr: reads.append(arr.size) or to_host(arr))
    monkeypatch.setattr(ex, "to_host_async",
                        lambda arr, **kw: reads.append(arr.size) or to_host_async(arr, **kw))
    result = sssp_on_device(ex, graph, get_method("sssp", "near-far"), [0],
                            options={"block_cap": 64}, want_pred=True)
    launch_reads, tree_reads = reads[:-1], reads[-1:]
    assert result.dist.dtype == np.int32 and result.int32_dist is None
    assert tree_reads == [1]  # the tree's count (zero-weight arcs: it is counted)
    monkeypatch.undo()
    assert result.stats["dense_rounds"] > 0
    assert len(launch_reads) == result.stats["launches"], (reads, result.stats)
    G = to_networkx(graph)
    lengths = nx.single_source_dijkstra_path_length(G, 0)
    dist, pred = ex.to_host(result.dist), ex.to_host(result.pred)
    assert {v: int(dist[v]) for v in lengths} == lengths
    unreached = np.setdiff1d(np.arange(graph.n), list(lengths))
    assert (dist[unreached] == np.iinfo(np.int32).max).all()
    assert_tight_tree(G, dist, pred, [0], set(lengths))


@pytest.mark.parametrize("target", [-1, 2.5, "many", True])
def test_dense_target_option_checked(device, target):
    """dense_target is a non-negative integer, refused otherwise on every device."""
    graph = _random_csr(5, 200, 800, "int")
    with pytest.raises(ValueError, match="dense_target must be a non-negative integer"):
        near_far_sssp(Executor(device), graph, [0], dense_target=target)


def _scipy_lengths(graph, sources):
    """SciPy's Dijkstra distances from ``sources`` (rows; inf where unreached)."""
    from scipy.sparse.csgraph import dijkstra

    from nx_gpusp.bench import scipy_matrix

    return dijkstra(scipy_matrix(graph), directed=True, indices=sources)


def test_runs_in_turn_reuse_the_graphs_working_arrays(device):
    """One graph's runs take its kept working arrays in turn (DeviceCSR.scratch): runs
    that hand over, runs that do not, keyed runs, runs with a cutoff, several sources and
    a dense_fraction of 0, one after another, each gives SciPy's distances."""
    ex = Executor(device)
    graph = _random_csr(6, 4000, 40000, "int")
    graph.weights[:] = np.maximum(graph.weights, 1)
    ref = _scipy_lengths(graph, np.arange(6))
    handed = set()
    runs = [dict(sources=[0]), dict(sources=[1], dense_fraction=0), dict(sources=[2], cutoff=15),
            dict(sources=[3], want_pred=True), dict(sources=[4, 5]), dict(sources=[0], block_cap=8)]
    for _ in range(2):
        for kw in runs:
            kw = dict(kw)
            sources = kw.pop("sources")
            result = near_far_sssp(ex, graph, sources, **{"want_pred": False, **kw})
            got = float_distances(ex.to_host(result.dist))
            want = ref[sources].min(axis=0)
            if "cutoff" in kw:
                want[want > kw["cutoff"]] = np.inf
            np.testing.assert_array_equal(got, want, err_msg=str((sources, kw)))
            if result.stats.get("dense_rounds"):
                handed.add(str(kw))
    assert len(handed) >= 3, handed  # most of them were handed over to dense rounds


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
def test_threads_on_their_own_streams_share_a_graph():
    """Runs from four threads, each on a stream of its own, on one device graph (whose
    kept working arrays they take in turn, each waiting on the device for the last run
    with them) give SciPy's distances."""
    import threading

    import cupy

    ex = Executor("cuda")
    graph = _random_csr(8, 20000, 160000, "int")
    ref = _scipy_lengths(graph, np.arange(8))
    assert near_far_sssp(ex, graph, [0], want_pred=False).stats["dense_rounds"] > 0
    wrong = []

    def work(k):
        with cupy.cuda.Stream(non_blocking=True) as stream:
            for rep in range(6):
                s = (k + rep) % 8
                dist = near_far_sssp(ex, graph, [s], want_pred=False).dist
                got = float_distances(cupy.asnumpy(dist, stream=stream))
                if not np.array_equal(got, ref[s]):
                    wrong.append((k, s))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not wrong


def test_dense_hand_over_rule(device):
    """Dense rounds take over once the frontier exceeds n / dense_fraction entries or m /
    dense_fraction out-arcs, with non-negative weights only (skewed degrees included:
    long rows are expanded by a warp); the answer is NetworkX's either way."""
    ex = Executor(device)
    uniform = _random_csr(3, 3000, 21000, "int")
    star = CSRGraph.from_edge_arrays(  # 0 -> 1 -> every other vertex: skewed degrees
        3000, np.r_[0, np.ones(2998, np.int64)], np.r_[1, np.arange(2, 3000)],
        np.ones(2999, np.int64))
    negative = _random_csr(4, 3000, 21000, "int")
    negative.weights[::50] = -1
    handed = near_far_sssp(ex, uniform, [0], block_cap=64, dense_fraction=16)
    assert handed.stats["dense_rounds"] > 0
    if not negative.has_negative_self_loop:
        try:
            r = near_far_sssp(ex, negative, [0], block_cap=1, dense_fraction=10**9)
            assert "dense_rounds" not in r.stats
        except nx.NetworkXUnbounded:
            pass
    # block_cap=0: a grid round reaches 1, then dense rounds expand its 2,998 arcs
    skewed = near_far_sssp(ex, star, [0], block_cap=0, dense_fraction=10**9)
    assert skewed.stats["dense_rounds"] > 0
    assert ex.to_host(skewed.dist).tolist() == [0, 1] + [2] * 2998
    # a wave of hubs: 100 entries (n / 500) holding 50,000 of the 50,100 arcs: the team
    # stops on the arcs and dense rounds take over from 100 entries
    hubs = CSRGraph.from_edge_arrays(
        50101, np.r_[np.zeros(100, np.int64), np.repeat(np.arange(1, 101), 500)],
        np.arange(1, 50101), np.ones(50100, np.int64))
    wave = near_far_sssp(ex, hubs, [0], dense_fraction=16)
    assert wave.stats["dense_rounds"] > 0 and wave.stats["near_entries"] == 1, wave.stats
    assert ex.to_host(wave.dist).tolist() == [0] + [1] * 100 + [2] * 50000
    assert "dense_rounds" not in near_far_sssp(ex, hubs, [0], dense_fraction=0).stats
    expected = nx.single_source_dijkstra_path_length(to_networkx(uniform), 0)
    dist = ex.to_host(handed.dist)
    assert {v: int(dist[v]) for v in expected} == expected


@pytest.mark.parametrize("method", ["near-far", "delta-stepping", "phast", "dijkstra-reduction"])
@pytest.mark.parametrize("directed", [True, False])
def test_sources_without_out_arcs(device, method, directed):
    """From vertices without out-arcs (an isolated vertex; a sink of a directed graph)
    nothing else is reached: near-far returns its initial state without a launch and the
    tree is all -1 without a pass; NetworkX's answer and its exceptions either way."""
    from nx_gpusp.methods import get_method
    from nx_gpusp.solvers.answers import sssp_on_device

    G = random_graph(41, n=30, p=0.15, directed=directed)
    G.add_node("lone")
    sink = "sink"
    G.add_edge(0, sink, weight=3)
    kw = dict(backend="gpusp", method=method)
    sinks = ["lone", sink] if directed else ["lone"]
    for s in sinks:
        dist, paths = nx.single_source_dijkstra(G, s, **kw)
        assert dist == {s: 0} and paths == {s: [s]}
        assert nx.single_source_dijkstra_path_length(G, s, cutoff=0, **kw) == {s: 0}
        with pytest.raises(nx.NetworkXNoPath):
            nx.dijkstra_path(G, s, 0, **kw)
    dist, paths = nx.multi_source_dijkstra(G, set(sinks), **kw)
    assert dist == {s: 0 for s in sinks} and paths == {s: [s] for s in sinks}
    assert nx.multi_source_dijkstra_path_length(G, set(sinks) | {0}, **kw) == \
        nx.multi_source_dijkstra_path_length(G, set(sinks) | {0})
    if method == "near-far":
        with pytest.raises(ValueError, match="delta must be positive"):
            nx.single_source_dijkstra(G, "lone", delta=-1, **kw)
        rng = np.random.default_rng(5)
        src, dst = rng.integers(0, 199, 800), rng.integers(0, 200, 800)  # 199: no out-arc
        graph = CSRGraph.from_edge_arrays(200, src, dst, rng.integers(0, 20, 800))
        ex = Executor(device)
        result = sssp_on_device(ex, graph, get_method("sssp", "near-far"), [199],
                                options={}, want_pred=True)
        assert result.stats["launches"] == 0
        dist = ex.to_host(result.dist)
        assert dist[199] == 0 and (dist[:199] == distance_inf(dist.dtype)).all()
        assert (ex.to_host(result.pred) == -1).all()


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("kind", ["int", "float"])
@pytest.mark.parametrize("inline_cap,inline_arcs", [(2048, 1024), (2048, 16), (2048, 1),
                                                    (64, 16), (1, 1024)])
def test_inline_limits_keep_the_answer(monkeypatch, kind, inline_cap, inline_arcs):
    """The team's inline sub-rounds on a graph with rows past HEAVY_ARCS (the _heavy
    kernels): rows longer than ``inline_arcs`` go to the frontier instead of the block's
    queue, and a sub-round of more than ``inline_cap`` entries spills to it; the
    distances equal the twin's (which relaxes every row inline) from a hub and from a
    vertex of degree 1, in a one-block team and a cluster."""
    from nx_gpusp.datasets import rmat
    from nx_gpusp.ops.near_far import HEAVY_ARCS
    from nx_gpusp.solvers.sssp import near_far as nf

    graph = rmat(13, seed=4)
    if kind == "float":
        graph = CSRGraph(graph.indptr, graph.indices, graph.weights * 0.37, directed=False)
    assert graph.max_out_degree > HEAVY_ARCS
    monkeypatch.setattr(nf, "INLINE_CAP", inline_cap)
    monkeypatch.setattr(nf, "INLINE_ARCS", inline_arcs)
    hub = int(np.argmax(graph.out_degree))
    leaf = int(np.flatnonzero(graph.out_degree == 1)[0])
    executors = (Executor("cuda"), Executor("cpu"))
    shapes = [dict(cluster=c, dense_fraction=0, want_pred=False) for c in (1, 8)]
    for source in (hub, leaf):  # each shape's CUDA distances asserted equal to the twin's
        list(_solver_runs_match(graph, source, shapes, executors))
    with pytest.raises(ValueError, match="inline_cap must be in"):
        monkeypatch.setattr(nf, "INLINE_CAP", 4096)
        near_far_sssp(executors[0], graph, [hub], want_pred=False)


# ---- keyed rounds: paths at the price of lengths --------------------------------------

def _hub_csr(seed, n=5000, low=1, directed=True):
    """Rows past HEAVY_ARCS (three hubs) among random arcs, integer weights low..39."""
    from nx_gpusp.ops.near_far import HEAVY_ARCS

    rng = np.random.default_rng(seed)
    src = np.concatenate([np.repeat(np.arange(3), HEAVY_ARCS + 300), rng.integers(0, n, 25000)])
    dst = np.concatenate([rng.choice(n, HEAVY_ARCS + 300, replace=False) for _ in range(3)]
                         + [rng.integers(0, n, 25000)])
    return CSRGraph.from_edge_arrays(n, src, dst, rng.integers(low, 40, len(src)),
                                     directed=directed)


# dense_fraction=1: an int32 run (the dense rounds allowed) that is never handed over
KEYED_SHAPES = {"default": {}, "team": dict(dense_fraction=1),
                "one-block": dict(cluster=1, dense_fraction=1),
                "no-inline": dict(inline=False, dense_fraction=1),
                "grid": dict(block_cap=1, dense_fraction=1),
                "dense": dict(block_cap=0, dense_fraction=10**9),
                "dense-unthresholded": dict(block_cap=0, dense_fraction=10**9, dense_target=0)}


@pytest.mark.parametrize("shape", KEYED_SHAPES)
@pytest.mark.parametrize("seed", range(4))
def test_keyed_rounds_give_a_tight_tree(device, seed, shape):
    """Where every weight is an integer of at least 1 and every distance fits int32, a
    run that wants its own predecessors records (distance, tail) keys in every round that lowers a
    distance (team, inline, grid, dense) and its predecessors come from them: a tree of
    tight arcs over exactly the reached vertices, its distances NetworkX's; one source
    and two, with and without a cutoff, hub graphs (rows split over the grid) and
    random ones, directed and undirected."""
    from nx_gpusp.solvers.sssp.near_far import _keyable

    ex = Executor(device)
    graph = _hub_csr(seed, directed=bool(seed % 2)) if seed < 2 else \
        _random_csr_weights(seed, 20000, 90000, low=1)
    assert _keyable(graph)
    G = to_networkx(graph)
    for sources, cutoff in (([3], None), ([3, 4000], None), ([5], 60)):
        r = near_far_sssp(ex, graph, sources, cutoff=cutoff, **KEYED_SHAPES[shape])
        dist, pred = ex.to_host(r.dist), ex.to_host(r.pred)
        assert dist.dtype == np.int32
        if shape not in ("default", "one-block"):  # those two may hand over or not
            assert ("dense_rounds" in r.stats) == shape.startswith("dense"), r.stats
        assert shape != "grid" or r.stats["launches"] > 1, r.stats
        expected = nx.multi_source_dijkstra_path_length(G, sources, cutoff=cutoff)
        reached = set(np.flatnonzero(dist != distance_inf(dist.dtype)).tolist())
        assert reached == set(expected)
        assert all(dist[v] == d for v, d in expected.items())
        assert_tight_tree(G, dist, pred, sources, reached)


def _random_csr_weights(seed, n, m, low):
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    return CSRGraph.from_edge_arrays(n, src, dst, rng.integers(low, 12, m),
                                     directed=bool(seed % 2))


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("shape", KEYED_SHAPES)
@pytest.mark.parametrize("seed", range(3))
def test_keyed_cuda_matches_twin(seed, shape):
    """The keyed kernels (every round's ``<int, true>`` instantiation) against the twin:
    equal distances, and on both a tree of tight arcs (the tails may differ: equally
    short paths race on the GPU)."""
    graph = _hub_csr(10 + seed, directed=bool(seed % 2))
    executors = (Executor("cuda"), Executor("cpu"))
    shapes = [dict(want_pred=True, **KEYED_SHAPES[shape])]
    for _kw, runs in _solver_runs_match(graph, 1, shapes, executors):
        pred = runs[1].executor.to_host(runs[1].pred)
        dist = runs[1].executor.to_host(runs[1].dist)
        reached = set(np.flatnonzero(dist != distance_inf(dist.dtype)).tolist())
        assert_tight_tree(to_networkx(graph), dist, pred, [1], reached)


@pytest.mark.parametrize("low,arcs,keyed", [(1, 40000, True), (0, 40000, False),
                                             (1, 12000, False)])
def test_paths_skip_the_tree_pass_where_keyed(device, monkeypatch, low, arcs, keyed):
    """single_source_dijkstra through NetworkX's API takes a keyed run's predecessors
    (no tight-arc pass after the rounds) on a graph of KEYED_DEGREE or more arcs a
    vertex; a graph with a zero weight is not keyed (a tail may be as far as its head),
    nor one of fewer arcs a vertex: those get the tight-arc tree of their distances. The
    paths are valid either way."""
    from nx_gpusp.solvers.sssp.near_far import KEYED_DEGREE

    import nx_gpusp.solvers.answers as answers

    calls = []
    tree = answers.shortest_path_tree
    monkeypatch.setattr(answers, "shortest_path_tree",
                        lambda *a, **k: calls.append(1) or tree(*a, **k))
    graph = _random_csr_weights(1, 3000, arcs, low)
    assert (graph.m >= KEYED_DEGREE * graph.n) == (arcs > 12000)
    G = to_networkx(graph)
    dist, paths = nx.single_source_dijkstra(G, 0, backend="gpusp", method="near-far")
    assert_lengths_equal(dist, nx.single_source_dijkstra_path_length(G, 0))
    assert_paths_valid(G, paths, dist, 0)
    assert bool(calls) != keyed


def test_keys_in_the_twin_keep_the_least_candidate():
    """_record_keys: of the candidates that would lower a head, the least (distance,
    tail) pair is kept, and none that would not lower it is."""
    from nx_gpusp.ops.near_far import NO_KEY, _record_keys

    keys = np.full(4, NO_KEY, dtype=np.uint64)
    dist = np.array([0, 9, 5, 7], dtype=np.int32)
    heads = np.array([1, 1, 1, 2, 3])
    cand = np.array([8, 6, 6, 5, 9], dtype=np.int32)
    tails = np.array([0, 3, 2, 0, 1])
    _record_keys(keys, dist, heads, cand, tails, np.int32(100))
    assert keys[1] == (6 << 32 | 2)
    assert keys[2] == keys[3] == keys[0] == NO_KEY
    pred = np.empty(4, dtype=np.int32)
    Executor("cpu").ops("near_far").key_predecessors(keys, pred)
    assert pred.tolist() == [-1, 2, -1, -1]
