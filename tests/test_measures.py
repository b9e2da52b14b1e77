"""The all-pairs measures (closeness, harmonic, eccentricity and its kin, barycenter,
average shortest-path length, Wiener index, global efficiency) against NetworkX on
random graphs of every kind, their exceptions, the per-batch reduction and its
combination, and the device reductions against the twin (marker gpu)."""

import logging
import math
import random

import networkx as nx
import numpy as np
import pytest

from graphs import assert_same_value, graph_cases, random_graph
from nx_gpusp.convert import from_networkx
from nx_gpusp.executor import Executor, cuda_available
from nx_gpusp.methods import METHODS, Method, get_method, methods_for

CASES = graph_cases(24, seed=17)
ALL_PAIRS = sorted(m.name for m in methods_for("all-pairs"))


# -- comparing with NetworkX ---------------------------------------------------------
def outcome(func, *args, **kwargs):
    try:
        return True, func(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001  (the exception is the answer compared)
        return False, exc


def check(name, G, *args, strict_types=True, **kwargs):
    """NetworkX's ``name`` and gpusp's give the same value, or the same exception type
    (and, for NetworkXError, the same message)."""
    func = getattr(nx, name)
    ok_nx, expected = outcome(func, G, *args, **kwargs)
    ok_gp, got = outcome(func, G, *args, backend="gpusp", **kwargs)
    if not ok_nx:
        assert not ok_gp, f"NetworkX raised {expected!r}, gpusp returned {got!r}"
        assert type(got) is type(expected), (got, expected)
        if type(expected) is nx.NetworkXError:
            assert str(got) == str(expected)
        return expected
    assert ok_gp, f"gpusp raised {got!r}, NetworkX returned {expected!r}"
    assert_same_value(got, expected, strict_types)
    return expected


def _strict(case_id):
    # mixed int/float weights: the CSR holds float64, NetworkX keeps int path sums int
    return "weights=mixed" not in case_id


def _sample(G, k, seed):
    nodes = list(G)
    return random.Random(seed).sample(nodes, min(k, len(nodes)))


# -- random graphs of every kind -----------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_closeness_centrality(device, case):
    cid, G = case
    strict = _strict(cid)
    check("closeness_centrality", G)
    check("closeness_centrality", G, wf_improved=False)
    check("closeness_centrality", G, distance="weight", strict_types=strict)
    u = _sample(G, 1, 1)[0]
    check("closeness_centrality", G, u=u)
    check("closeness_centrality", G, u=u, distance="weight", wf_improved=False,
          strict_types=strict)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_harmonic_centrality(device, case):
    cid, G = case
    strict = _strict(cid)
    few, some = _sample(G, 3, 2), _sample(G, 8, 3)
    check("harmonic_centrality", G)
    check("harmonic_centrality", G, distance="weight", strict_types=strict)
    check("harmonic_centrality", G, nbunch=few)  # searches from the targets
    check("harmonic_centrality", G, sources=few, distance="weight", strict_types=strict)
    check("harmonic_centrality", G, nbunch=some, sources=few)
    check("harmonic_centrality", G, nbunch=few, sources=some, distance="weight",
          strict_types=strict)
    check("harmonic_centrality", G, nbunch=[], sources=few)
    check("harmonic_centrality", G, nbunch=few, sources=[])


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_eccentricity_family(device, case):
    cid, G = case
    strict = _strict(cid)
    check("eccentricity", G)
    check("eccentricity", G, weight="weight", strict_types=strict)
    check("eccentricity", G, v=_sample(G, 1, 4)[0])
    check("eccentricity", G, v=_sample(G, 4, 5) + ["not a node"], weight="weight",
          strict_types=strict)
    for name in ("diameter", "radius", "center", "periphery"):
        check(name, G)
        check(name, G, weight="weight", strict_types=strict)
        check(name, G, usebounds=True)
        if G.is_directed() or not G or not nx.is_connected(G):
            check(name, G, weight="weight", usebounds=True, strict_types=strict)
        else:
            # NetworkX's bounding search can loop forever on float weights; its answer,
            # where it ends, is the one without bounds
            assert_same_value(getattr(nx, name)(G, weight="weight", usebounds=True,
                                                backend="gpusp"),
                              getattr(nx, name)(G, weight="weight"), strict)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_sums_of_distances(device, case):
    """barycenter, average_shortest_path_length, wiener_index and global_efficiency."""
    cid, G = case
    strict = _strict(cid)
    check("barycenter", G)
    check("barycenter", G, weight="weight")
    check("average_shortest_path_length", G)
    for method in ("dijkstra", "bellman-ford", "floyd-warshall", "floyd-warshall-numpy"):
        check("average_shortest_path_length", G, weight="weight", method=method)
    check("average_shortest_path_length", G, weight="weight", method="unweighted")
    check("wiener_index", G)
    check("wiener_index", G, weight="weight", strict_types=strict)
    if not G.is_directed():
        check("global_efficiency", G)


def _strongly_connected(seed, negative=False, **kw):
    """A random digraph with a Hamiltonian cycle added; ``negative``: every weight
    shifted by random potentials (w + h(u) - h(v)), so negative arcs but no negative
    cycle."""
    G = random_graph(seed, n=18, p=0.15, **kw)
    nodes = list(G)
    for u, v in zip(nodes, nodes[1:] + nodes[:1]):
        G.add_edge(u, v, weight=5)
    if negative:
        rng = random.Random(seed)
        h = {v: rng.randint(-15, 15) for v in nodes}
        for u, v, d in G.edges(data=True):
            if u != v:
                d["weight"] = d.get("weight", 1) + h[u] - h[v]
    return G


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_negative_weights(device, seed):
    G = _strongly_connected(seed, negative=True, zero_fraction=0.2)
    assert min(w for *_, w in G.edges(data="weight")) < 0
    check("average_shortest_path_length", G, weight="weight", method="bellman-ford")
    check("average_shortest_path_length", G, weight="weight", method="floyd-warshall")
    # the Dijkstra-based measures refuse negative weights (NetworkX may answer wrongly)
    for name, kw in (("closeness_centrality", {"distance": "weight"}),
                     ("eccentricity", {"weight": "weight"}),
                     ("wiener_index", {"weight": "weight"}),
                     ("average_shortest_path_length", {"weight": "weight"})):
        with pytest.raises(ValueError, match="negative"):
            getattr(nx, name)(G, backend="gpusp", **kw)


def test_negative_cycle(device):
    """NetworkXUnbounded, as NetworkX's Bellman-Ford raises (its Floyd-Warshall returns
    a number that depends on the order of the relaxations instead)."""
    G = _strongly_connected(4)
    G.add_edge(0, 1, weight=-50)
    G.add_edge(1, 0, weight=-50)
    check("average_shortest_path_length", G, weight="weight", method="bellman-ford")
    with pytest.raises(nx.NetworkXUnbounded):
        nx.average_shortest_path_length(G, weight="weight", method="floyd-warshall",
                                        backend="gpusp")


def test_trees(device):
    """Trees take NetworkX's tree routes (tree.center, tree.centroid): same answers and
    the same order, whichever node comes first."""
    for seed in range(12):
        T = nx.random_labeled_tree(random.Random(seed).randint(1, 14), seed=seed)
        order = list(T)
        random.Random(seed).shuffle(order)
        H = nx.Graph()
        H.add_nodes_from(order)
        H.add_edges_from(T.edges)
        for G in (T, H):
            check("barycenter", G)
            check("center", G)
        M = nx.MultiGraph(H)
        if M.number_of_edges():
            M.add_edge(*next(iter(H.edges)))  # a parallel edge: no longer a tree
            check("barycenter", M)
    check("barycenter", nx.path_graph(["a", "b", "c", "d"]))
    check("barycenter", nx.Graph([("d", "c"), ("c", "b"), ("b", "a")]))


def test_small_graphs(device):
    for G in (nx.Graph(), nx.DiGraph(), nx.MultiGraph()):
        for name in ("closeness_centrality", "harmonic_centrality", "eccentricity",
                     "diameter", "radius", "center", "periphery", "barycenter",
                     "average_shortest_path_length", "wiener_index"):
            check(name, G)
        check("center", G, usebounds=True)
        check("barycenter", G, weight="weight")
    one, loop = nx.Graph(), nx.DiGraph([(0, 0)])
    one.add_node("x")
    two = nx.DiGraph()
    two.add_nodes_from([0, 1])
    for G in (one, loop, two):
        for name in ("closeness_centrality", "harmonic_centrality", "eccentricity",
                     "diameter", "radius", "center", "periphery", "barycenter",
                     "average_shortest_path_length", "wiener_index"):
            check(name, G)
    check("global_efficiency", nx.Graph())
    check("global_efficiency", one)
    check("global_efficiency", nx.empty_graph(3))


# -- exceptions and arguments ----------------------------------------------------------
def test_bad_arguments(device):
    G = nx.path_graph(5)
    D = nx.DiGraph([(0, 1), (1, 2)])
    check("closeness_centrality", G, u=99)
    check("closeness_centrality", G, u=99, distance="weight")
    for v in (99, [[1]], ["x", 1, 1, 2], "ab", (0, 1)):
        check("eccentricity", G, v=v)
    for nbunch in (99, [[1]], ["x", 1]):
        check("harmonic_centrality", G, nbunch=nbunch)
        check("harmonic_centrality", G, sources=nbunch)
    check("average_shortest_path_length", G, method="nope")
    check("average_shortest_path_length", D)
    check("barycenter", D)
    check("eccentricity", D)
    check("diameter", nx.Graph([(0, 1), (2, 3)]), usebounds=True)
    check("wiener_index", D)
    bad = nx.path_graph(4)
    bad[1][2]["weight"] = "far"
    # TypeError, naming the edge here (a fresh graph each: NetworkX remembers a failed
    # conversion of a graph and answers NotImplementedError the next time)
    for name in ("eccentricity", "wiener_index", "barycenter"):
        check(name, bad.copy(), weight="weight")
    check("closeness_centrality", bad.copy(), distance="weight")
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.global_efficiency(D, backend="gpusp")
    with pytest.raises(ValueError, match="unknown all-pairs method 'nope'"):
        nx.closeness_centrality(G, backend="gpusp", method="nope")
    with pytest.raises(TypeError, match="unexpected option"):
        nx.diameter(G, backend="gpusp", method="batched-spmm", bogus=1)


def test_barycenter_disconnected_message(device):
    G = nx.Graph([(0, 1), (2, 3)])
    with pytest.raises(nx.NetworkXNoPath) as ours:
        nx.barycenter(G, backend="gpusp")
    with pytest.raises(nx.NetworkXNoPath) as theirs:
        nx.barycenter(G)
    assert str(ours.value) == str(theirs.value)


def test_direct_calls_with_networkx_graphs(device):
    """The backend functions accept NetworkX graphs and refuse what NetworkX must do."""
    from nx_gpusp import interface

    B = interface.BackendInterface
    G = nx.cycle_graph(6)
    assert B.diameter(G) == 3
    assert B.closeness_centrality(G) == nx.closeness_centrality(G)
    with pytest.raises(nx.NetworkXNotImplemented):
        B.global_efficiency(nx.DiGraph(G))
    with pytest.raises(NotImplementedError, match="precomputed eccentricities"):
        B.diameter(G, e={0: 1})
    with pytest.raises(NotImplementedError, match="node attributes"):
        B.barycenter(G, attr="b")


def test_can_run_refusals_fall_back_to_networkx(device):
    """A weight function through a Floyd-Warshall method, precomputed sp/e and
    barycenter's attr: can_run says why, so an explicit backend call raises
    NotImplementedError and automatic dispatch runs NetworkX."""
    from nx_gpusp import interface
    from nx_gpusp.dispatch import CALLS

    G = nx.cycle_graph(7)
    e = nx.eccentricity(G)
    sp = dict(nx.shortest_path_length(G))
    refused = [("diameter", {"e": e}), ("center", {"e": e}), ("eccentricity", {"sp": sp}),
               ("barycenter", {"sp": sp}), ("barycenter", {"attr": "bary"}),
               ("average_shortest_path_length",
                {"weight": lambda u, v, d: 2, "method": "floyd-warshall"})]
    for name, kw in refused:
        reason = interface.BackendInterface.can_run(name, (G,), kw)
        assert isinstance(reason, str) and reason, (name, reason)
        with pytest.raises(NotImplementedError):
            getattr(nx, name)(G, backend="gpusp", **kw)
    cfg = nx.config
    old = list(cfg.backend_priority.algos)
    settings = cfg.backends.gpusp(should_run_min_all_pairs_work=0, device="cpu")
    cfg.backend_priority.algos = ["gpusp"]
    try:
        with settings:
            names = {name for name, _ in refused}
            before = {name: CALLS.get(name, 0) for name in names | {"diameter"}}
            for name, kw in refused:
                H = G.copy()
                expected = getattr(nx, name).orig_func(G.copy(), **kw)
                assert getattr(nx, name)(H, **kw) == expected
                if "attr" in kw:  # and NetworkX wrote the attribute on the graph
                    assert len(nx.get_node_attributes(H, "bary")) == len(G)
            # NetworkX answered every one of them (its inner calls may still come to gpusp)
            assert {name: CALLS.get(name, 0) for name in names} == {n: before[n] for n in names}
            nx.diameter(G)
            assert CALLS["diameter"] == before.get("diameter", 0) + 1
    finally:
        cfg.backend_priority.algos = old


def test_should_run_policy():
    from nx_gpusp.dispatch import IMPLEMENTATIONS

    small, big = nx.path_graph(10), nx.gnm_random_graph(300, 1500, seed=1)
    cfg = nx.config.backends.gpusp
    assert cfg.should_run_min_all_pairs_work > 10 * 18
    for name in ("closeness_centrality", "diameter", "average_shortest_path_length"):
        policy = IMPLEMENTATIONS[name].should_run
        assert isinstance(policy({"G": small}), str)
        assert policy({"G": big}) is True
        assert policy({"G": from_networkx(small)}) is True
    # one source (closeness of u, eccentricity of v): only the arcs of one search count
    assert isinstance(IMPLEMENTATIONS["closeness_centrality"].should_run(
        {"G": big, "u": 0}), str)
    assert isinstance(IMPLEMENTATIONS["eccentricity"].should_run({"G": big, "v": 0}), str)


# -- methods, batches and the reduction ------------------------------------------------
@pytest.mark.parametrize("method", ALL_PAIRS)
def test_every_all_pairs_method(device, method):
    G = random_graph(21, n=30, p=0.12, zero_fraction=0.2, disconnected=True)
    S = _strongly_connected(5)
    weight = None if get_method("all-pairs", method).unit_weights_only else "weight"
    for name, graph, kw in (("closeness_centrality", G, {"distance": weight}),
                            ("harmonic_centrality", G, {}),
                            ("eccentricity", S, {"weight": weight}),
                            ("average_shortest_path_length", S, {"weight": weight})):
        expected = getattr(nx, name)(graph, **kw)
        got = getattr(nx, name)(graph, backend="gpusp", method=method, **kw)
        assert_same_value(got, expected)


def test_batches_and_row_slices(device, monkeypatch):
    """Several device batches (batch=4) and reductions in row slices of a few entries
    give the same answers."""
    import nx_gpusp.solvers.apsp.measures as measures

    monkeypatch.setattr(measures, "REDUCE_ENTRIES", 50)
    G = random_graph(8, n=33, p=0.1, weights="float", disconnected=True)
    S = _strongly_connected(6)
    for method in ("batched-spmm", "batched-frontier"):
        assert_same_value(nx.closeness_centrality(G, distance="weight", backend="gpusp",
                                                  method=method, batch=4),
                          nx.closeness_centrality(G, distance="weight"))
        assert_same_value(nx.harmonic_centrality(G, backend="gpusp", method=method, batch=4),
                          nx.harmonic_centrality(G))
        assert_same_value(nx.wiener_index(S, weight="weight", backend="gpusp",
                                          method=method, batch=4),
                          nx.wiener_index(S, weight="weight"))
    # integer weights (the fused row statistics): the column sums of harmonic centrality
    # (fewer sources than nodes asked for) are still reduced in row slices (their
    # float64 temporaries are a slice's size)
    rows = []
    inverse = measures._inverse
    monkeypatch.setattr(measures, "_inverse",
                        lambda xp, d, mask: rows.append(d.shape[0]) or inverse(xp, d, mask))
    H = random_graph(9, n=33, p=0.1, weights="int", disconnected=True)
    few = list(H)[:12]
    assert_same_value(nx.harmonic_centrality(H, distance="weight", sources=few,
                                             backend="gpusp", method="batched-spmm", batch=8),
                      nx.harmonic_centrality(H, distance="weight", sources=few))
    assert rows and max(rows) <= max(1, 50 // 33)


def test_batched_bfs_is_chosen_for_unweighted_graphs(monkeypatch):
    """An all-pairs method named "batched-bfs" (when registered) runs the unweighted
    measures; weighted ones stay on batched-spmm."""
    from nx_gpusp.solvers.apsp.batched import batched_frontier
    from nx_gpusp.solvers.apsp.measures import measure_method

    stand_in = Method(name="batched-bfs", problem="all-pairs", solver=batched_frontier,
                      summary="stand-in")
    monkeypatch.setitem(METHODS, ("all-pairs", "batched-bfs"), stand_in)
    G = from_networkx(random_graph(2, n=12), "weight")
    assert measure_method(G.unit_weights).name == "batched-bfs"
    assert measure_method(G).name == "batched-spmm"
    assert measure_method(G.unit_weights, "batched-frontier").name == "batched-frontier"


def _parts(ex, graph, measure, batch):
    from nx_gpusp.solvers.apsp.measures import iter_partials

    return list(iter_partials(ex, graph, np.arange(graph.n), measure,
                              {"method": "batched-spmm", "method_options": {"batch": batch}}))


def test_parts_are_whole_batches_in_order(monkeypatch):
    """iter_partials hands on whole batches of at least PART_SOURCES sources (the last
    part excepted), one batch always queued beyond the part: batches of 4, parts of 3
    batches, equal to the reduction of every batch at once."""
    import nx_gpusp.solvers.apsp.measures as measures

    graph = from_networkx(random_graph(4, n=33, p=0.1, weights="int", disconnected=True),
                          "weight")
    measure = ("reached", "sum", "max", "inverse_sum", "column_inverse_sum")
    ex = Executor("cpu")
    monkeypatch.setattr(measures, "PART_SOURCES", 1 << 20)
    (whole,) = _parts(ex, graph, measure, 4)
    monkeypatch.setattr(measures, "PART_SOURCES", 10)
    parts = _parts(ex, graph, measure, 4)
    sizes = [len(p.sources) for p in parts]
    assert len(sizes) >= 3 and set(sizes[:-1]) == {12} and sum(sizes) == graph.n, sizes
    _partial_equal(measures.combine(parts), whole)


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
def test_parts_queued_on_cuda_match_twin(monkeypatch):
    """Many batches whose statistics are copied to the host asynchronously (the host
    queues the next batch before reading them), CUDA against the twin, twice: the same
    integer statistics in the same order."""
    import nx_gpusp.solvers.apsp.measures as measures

    monkeypatch.setattr(measures, "PART_SOURCES", 40)
    graph = from_networkx(random_graph(6, n=400, p=0.01, weights="int", zero_fraction=0.1,
                                       disconnected=True), "weight")
    measure = ("reached", "sum", "max", "inverse_sum")
    twin = measures.combine(_parts(Executor("cpu"), graph, measure, 8))
    for _ in range(2):
        parts = _parts(Executor("cuda"), graph, measure, 8)
        assert len(parts) > 5
        _partial_equal(measures.combine(parts), twin)


def _partial_equal(a, b):
    """Integer statistics equal, float ones to rounding (summation order)."""
    np.testing.assert_array_equal(a.sources, b.sources)
    assert set(a.rows) == set(b.rows) and set(a.columns) == set(b.columns)
    for name in a.rows:
        x, y = a.rows[name], b.rows[name]
        if x.dtype.kind == "f":
            np.testing.assert_allclose(x, y, rtol=1e-12)
        else:
            assert x.tolist() == y.tolist(), name
    for name in a.columns:
        np.testing.assert_allclose(a.columns[name], b.columns[name], rtol=1e-12)


def test_reduce_batch_shares_combine_to_one_run(device):
    """The distributed shape: reduce_batch on shares of the sources, then combine,
    equals one run over all of them."""
    from nx_gpusp.algorithms.common import configured_executor
    from nx_gpusp.solvers.apsp.measures import combine, reduce_batch

    ex = configured_executor()
    graph = from_networkx(random_graph(3, n=40, p=0.1, weights="float", disconnected=True),
                          "weight")
    measure = ("reached", "sum", "max", "inverse_sum", "column_inverse_sum")
    options = {"method": "batched-spmm", "method_options": {"batch": 5},
               "columns": np.arange(0, graph.n, 3)}
    sources = np.arange(graph.n)
    whole = reduce_batch(ex, graph, sources, measure, options)
    shares = [reduce_batch(ex, graph, share, measure, options)
              for share in np.array_split(sources, 4)]
    _partial_equal(combine(shares), whole)
    # the reference: SciPy's distances, reduced on the host
    from scipy.sparse.csgraph import dijkstra

    import scipy.sparse as sp

    A = sp.csr_array((graph.weights, graph.indices, graph.indptr), shape=(graph.n, graph.n))
    D = dijkstra(A)
    finite = np.isfinite(D)
    np.testing.assert_array_equal(whole.rows["reached"], finite.sum(axis=1))
    np.testing.assert_allclose(whole.rows["sum"], np.where(finite, D, 0).sum(axis=1))
    np.testing.assert_array_equal(whole.rows["max"], D.max(axis=1))
    inv = np.where(finite & (D != 0), 1 / np.where(D == 0, 1, D), 0)
    np.testing.assert_allclose(whole.rows["inverse_sum"], inv[:, ::3].sum(axis=1))
    np.testing.assert_allclose(whole.columns["column_inverse_sum"], inv.sum(axis=0))


def test_large_integer_sums_are_exact(device):
    """Row sums beyond int64 (n x path bound >= 2**63) are summed in 32-bit halves and
    stay exact, as NetworkX's Python ints are."""
    rng = random.Random(7)
    G = nx.cycle_graph(20, create_using=nx.DiGraph)
    for u, v in G.edges:
        G[u][v]["weight"] = (1 << 57) + rng.randint(0, 1 << 40)
    G.add_edge(3, 11, weight=(1 << 56) + 12345)
    expected = nx.wiener_index(G, weight="weight")
    assert expected >= 1 << 63
    assert nx.wiener_index(G, weight="weight", backend="gpusp") == expected
    check("average_shortest_path_length", G, weight="weight")
    check("barycenter", nx.Graph(G), weight="weight")
    check("closeness_centrality", G, distance="weight")


def test_progress_is_logged(device, caplog, monkeypatch):
    import nx_gpusp.solvers.apsp.progress as progress

    monkeypatch.setattr(progress, "tqdm_available", lambda: False)  # log lines, not a bar
    G = random_graph(3, n=20, p=0.2)
    with caplog.at_level(logging.INFO, logger="nx_gpusp"):
        nx.closeness_centrality(G, backend="gpusp", batch=5)
    assert any("closeness_centrality: 20/20 sources done" in r.getMessage()
               for r in caplog.records)


# -- real graphs -----------------------------------------------------------------------

def test_gnutella04_sample(device, real):
    """p2p-Gnutella04 (directed, not strongly connected): closeness of single nodes,
    harmonic centrality and eccentricity of a sample, against NetworkX."""
    G = real("gnutella04")
    sample = _sample(G, 6, 11)
    for u in sample[:3]:
        assert_same_value(nx.closeness_centrality(G, u=u, backend="gpusp"),
                          nx.closeness_centrality(G, u=u))
    assert_same_value(nx.harmonic_centrality(G, nbunch=sample, backend="gpusp"),
                      nx.harmonic_centrality(G, nbunch=sample))
    check("eccentricity", G, v=sample)


def test_rome99_sample(device, real):
    """rome99 (directed road graph, weighted): weighted eccentricity and closeness of a
    sample against NetworkX."""
    G = real("rome99")
    sample = _sample(G, 5, 12)
    check("eccentricity", G, v=sample, weight="weight")
    check("eccentricity", G, v=sample)
    for u in sample[:2]:
        assert_same_value(nx.closeness_centrality(G, u=u, distance="weight", backend="gpusp"),
                          nx.closeness_centrality(G, u=u, distance="weight"))


@pytest.mark.gpu
@pytest.mark.slow
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
def test_whole_real_graphs_against_scipy(real):
    """Whole-graph closeness (Gnutella04, unweighted) and weighted eccentricities
    (rome99) on CUDA against SciPy's csgraph, reduced on the host in row chunks (the
    twin would take minutes here; its samples are tested above)."""
    import scipy.sparse as sp
    from scipy.sparse.csgraph import shortest_path

    cfg = nx.config.backends.gpusp
    old, cfg.device = cfg.device, "cuda"
    try:
        G = real("gnutella04")
        graph = from_networkx(G, None)
        R = sp.csr_array((np.ones(graph.m), graph.indices, graph.indptr),
                         shape=(graph.n, graph.n)).T.tocsr()  # inward distances
        reached, total = [], []
        for rows in np.array_split(np.arange(graph.n), 16):
            D = shortest_path(R, unweighted=True, indices=rows)
            finite = np.isfinite(D)
            reached.append(finite.sum(axis=1))
            total.append(np.where(finite, D, 0).sum(axis=1))
        reached, total = np.concatenate(reached), np.concatenate(total)
        n = graph.n
        expected = np.where(total > 0, (reached - 1) / np.where(total > 0, total, 1)
                            * (reached - 1) / (n - 1), 0.0)
        got = nx.closeness_centrality(G, backend="gpusp")
        np.testing.assert_allclose([got[v] for v in G], expected, rtol=1e-12)

        G = real("rome99")
        graph = from_networkx(G, "weight")
        A = sp.csr_array((graph.weights, graph.indices, graph.indptr), shape=(graph.n, graph.n))
        ecc = np.concatenate([shortest_path(A, method="D", indices=rows).max(axis=1)
                              for rows in np.array_split(np.arange(graph.n), 8)])
        got = nx.eccentricity(G, weight="weight", backend="gpusp")
        np.testing.assert_array_equal([got[v] for v in G], ecc)
        assert nx.diameter(G, weight="weight", backend="gpusp") == ecc.max()
    finally:
        cfg.device = old


# -- the reductions on CUDA against the twin -----------------------------------------
@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("weights", ["int", "float", "huge"])
def test_reductions_match_twin(weights):
    from nx_gpusp.solvers.apsp import SourceBatch
    from nx_gpusp.solvers.apsp.measures import reduce_source_batch

    G = random_graph(9, n=150, p=0.03, weights="float" if weights == "float" else "int",
                     zero_fraction=0.2, disconnected=True)
    if weights == "huge":
        for _, _, d in G.edges(data=True):
            d["weight"] = d["weight"] << 50  # n x path bound > 2**63: summed in halves
    graph = from_networkx(G, "weight")
    sources = np.arange(0, graph.n, 2)
    measure = ("reached", "sum", "max", "inverse_sum", "column_inverse_sum")
    twin = Executor("cpu")
    method = METHODS[("all-pairs", "batched-frontier")].solver
    batch = next(method(twin, graph, sources, want_pred=False))
    out = []
    for ex in (Executor("cuda"), twin):
        cols = ex.asarray(np.arange(graph.n) % 3 == 0)
        dev_batch = SourceBatch(batch.sources, ex.asarray(batch.dist), None)
        out.append(reduce_source_batch(ex, graph, dev_batch, measure, cols))
    _partial_equal(*out)


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("shape", [(1, 1), (7, 1000), (256, 70001), (3, 0)])
def test_row_statistics_kernel_matches_twin(shape):
    """The fused row statistics, CUDA against the NumPy twin on random int64 rows
    (unreached, zero and negative entries, with and without a column mask, rows of a
    block and of a transposed view); run twice
    on CUDA, the same float sums."""
    rng = np.random.default_rng(shape[1])
    dist = rng.integers(-5, 10**9, shape, dtype=np.int64)
    dist[rng.random(shape) < 0.2] = np.iinfo(np.int64).max
    dist[rng.random(shape) < 0.05] = 0
    columns = rng.random(shape[1]) < 0.5
    for mask, transposed in ((None, False), (columns, False), (columns, True)):
        got = []
        for ex in (Executor("cuda"), Executor("cuda"), Executor("cpu")):
            # a transposed view (dijkstra-per-thread's rows) as well as a block's rows
            rows = ex.asarray(dist.T.copy()).T if transposed else ex.asarray(dist)
            found = ex.ops("row_statistics").statistics(
                rows, None if mask is None else ex.asarray(mask))
            got.append([ex.to_host(x) for x in found])
        for a, b in zip(got[0], got[1]):
            np.testing.assert_array_equal(a, b)
        for a, b in zip(got[0][:3], got[2][:3]):
            np.testing.assert_array_equal(a, b)
        np.testing.assert_allclose(got[0][3], got[2][3], rtol=1e-12)
