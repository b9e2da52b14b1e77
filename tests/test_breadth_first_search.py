"""networkx.algorithms.traversal.breadth_first_search (nx_gpusp.algorithms.traversal):
bfs_edges, bfs_tree, bfs_predecessors, bfs_successors,
bfs_layers and generic_bfs_edges give NetworkX's items in NetworkX's order on random
graphs of every kind (nodes and edges added in shuffled orders, odd labels,
self-loops, parallel edges), with every "bfs" method, through NetworkX's dispatch, on
the NumPy twin and (marker gpu) on CUDA; its errors, raised when NetworkX's are (at
the first item of a generator); its declines."""

import math
import random
from decimal import Decimal

import networkx as nx
import pytest

from graphs import outcome
from nx_gpusp.dispatch import CALLS
from nx_gpusp.methods import methods_for

GP = {"backend": "gpusp"}
DEPTHS = [None, 0, 1, 2, 2.5, -1, math.inf, math.nan, True, Decimal(1)]
BFS_METHODS = [m.name for m in methods_for("bfs")]


def shuffled_graph(seed):
    """A random graph whose nodes and edges are added in shuffled orders (so rows, and
    a digraph's predecessor rows, are in no particular order), with self-loops and
    parallel edges, labelled by ints, strings or tuples."""
    rng = random.Random(seed)
    cls = rng.choice([nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph])
    n = rng.randint(1, 40)
    label = rng.choice([lambda i: i, lambda i: f"s{i}", lambda i: (i % 3, str(i))])
    nodes = [label(i) for i in range(n)]
    rng.shuffle(nodes)
    G = cls()
    G.add_nodes_from(nodes)
    for _ in range(rng.randint(0, 3 * n)):
        G.add_edge(label(rng.randrange(n)), label(rng.randrange(n)))
    return G, nodes


CASES = [shuffled_graph(seed) for seed in range(60)]
IDS = [f"{type(G).__name__}-{i}" for i, (G, _) in enumerate(CASES)]


def _same(call):
    """call(kwargs) through gpusp equals NetworkX's, items and order."""
    expected = outcome(lambda: call({}))
    assert outcome(lambda: call(GP)) == expected
    return expected


@pytest.mark.parametrize("case", range(len(CASES)), ids=IDS)
def test_order_equals_networkx(device, case):
    G, nodes = CASES[case]
    rng = random.Random(case)
    before = CALLS.get("bfs_edges", 0)
    for source in rng.sample(nodes, min(3, len(nodes))):
        for depth in DEPTHS:
            _same(lambda kw: list(nx.bfs_edges(G, source, depth_limit=depth, **kw)))
            _same(lambda kw: list(nx.generic_bfs_edges(G, source, depth_limit=depth, **kw)))
        for f in (nx.bfs_predecessors, nx.bfs_successors):
            _same(lambda kw: list(f(G, source, depth_limit=2, **kw)))
            _same(lambda kw: list(f(G, source, **kw)))
        T = nx.bfs_tree(G, source, **GP)
        expected = nx.bfs_tree(G, source)
        assert type(T) is nx.DiGraph
        assert list(T.nodes) == list(expected.nodes) and list(T.edges) == list(expected.edges)
        sources = rng.sample(nodes, min(rng.randint(1, 4), len(nodes)))
        _same(lambda kw: list(nx.bfs_layers(G, sources, **kw)))
        _same(lambda kw: list(nx.bfs_layers(G, source, **kw)))
    assert CALLS.get("bfs_edges", 0) > before


@pytest.mark.parametrize("method", BFS_METHODS)
def test_every_method_and_reverse(device, method):
    """Every "bfs" method gives the order; reverse=True follows predecessors, here added
    in node order (a digraph built from its edges in node order)."""
    for seed in range(12):
        G = nx.gnp_random_graph(60, 0.06, seed=seed, directed=seed % 2 == 0)
        for source in (0, 7):
            for reverse in (False, True):
                got = list(nx.bfs_edges(G, source, reverse=reverse, method=method, **GP))
                assert got == list(nx.bfs_edges(G, source, reverse=reverse))
            if G.is_directed():
                got = list(nx.generic_bfs_edges(G, source, G.predecessors, **GP))
                assert got == list(nx.generic_bfs_edges(G, source, G.predecessors))
        layers = list(nx.bfs_layers(G, [0, 5, 9], method=method, **GP))
        assert layers == list(nx.bfs_layers(G, [0, 5, 9]))


def test_errors_as_networkx_and_lazily(device):
    """Missing sources: NetworkXError, saying "graph" or "digraph" as NetworkX does;
    unhashable ones TypeError; a depth_limit that is no number TypeError; all at the
    first item, as NetworkX's generators raise them."""
    for G in (nx.path_graph(3), nx.path_graph(3, create_using=nx.DiGraph),
              nx.MultiDiGraph([(0, 1)])):
        for source in (9, "x", [1]):
            for call in (lambda kw: list(nx.bfs_edges(G, source, **kw)),
                         lambda kw: list(nx.bfs_edges(G, source, reverse=True, **kw)),
                         lambda kw: list(nx.bfs_edges(G, source, depth_limit=0, **kw)),
                         lambda kw: list(nx.bfs_successors(G, source, **kw)),
                         lambda kw: list(nx.bfs_predecessors(G, source, **kw)),
                         lambda kw: nx.bfs_tree(G, source, **kw),
                         lambda kw: list(nx.bfs_layers(G, [0, source], **kw)),
                         lambda kw: list(nx.generic_bfs_edges(G, source, **kw))):
                assert _same(call)[0] == "raised"
                if not isinstance(source, list):
                    with pytest.raises(nx.NetworkXError) as got:
                        call(GP)
                    with pytest.raises(nx.NetworkXError) as theirs:
                        call({})
                    assert str(got.value) == str(theirs.value)
        assert _same(lambda kw: list(nx.bfs_edges(G, 0, depth_limit="a", **kw)))[0] == "raised"
        assert _same(lambda kw: list(nx.bfs_layers(G, 99, **kw)))[0] == "raised"
        gen = nx.bfs_edges(G, 99, **GP)  # nothing raised before the first item
        with pytest.raises(nx.NetworkXError):
            next(gen)
    G = nx.path_graph(3)
    assert list(nx.bfs_successors(G, 0, depth_limit=0, **GP)) == [(0, [])]
    assert list(nx.bfs_successors(G, 0.0, **GP)) == list(nx.bfs_successors(G, 0.0))
    assert list(nx.bfs_layers(G, [], **GP)) == []


def test_declines_leave_networkx_to_answer():
    """sort_neighbors, other neighbors functions and predecessors added out of node order
    are declined (can_run); a direct call raises NotImplementedError."""
    from nx_gpusp import algorithms

    module = algorithms.traversal
    G = nx.DiGraph()
    G.add_nodes_from(range(4))
    G.add_edges_from([(2, 0), (1, 0), (0, 3)])  # 0's predecessors: 2 before 1
    assert list(nx.bfs_edges(G, 0, reverse=True)) == [(0, 2), (0, 1)]
    for call in (lambda: module.bfs_edges(G, 0, reverse=True),
                 lambda: module.bfs_edges(G, 0, sort_neighbors=sorted),
                 lambda: module.generic_bfs_edges(G, 0, lambda v: iter(G[v])),
                 lambda: module.bfs_tree(G, 0, sort_neighbors=sorted)):
        with pytest.raises(NotImplementedError):
            call()
    from nx_gpusp.dispatch import can_run

    assert can_run("bfs_edges", (G, 0), {"reverse": True}) is not True
    assert can_run("bfs_edges", (G, 0), {}) is True
    assert can_run("generic_bfs_edges", (G, 0, G.predecessors), {}) is not True
    assert can_run("generic_bfs_edges", (G, 0, G.successors), {}) is True
    assert can_run("generic_bfs_edges", (G, 0, nx.DiGraph(G).neighbors), {}) is not True
    H = nx.DiGraph([(2, 0), (1, 0), (0, 3)])  # 2 before 1 in node order too
    assert list(module.bfs_edges(H, 0, reverse=True)) == list(nx.bfs_edges(H, 0, reverse=True))


@pytest.mark.parametrize("name", ["rome99", "gnutella04"])
def test_real_graphs(device, real, name):
    G = real(name)
    source = next(iter(G))
    assert list(nx.bfs_edges(G, source, **GP)) == list(nx.bfs_edges(G, source))
    assert list(nx.bfs_layers(G, source, **GP)) == list(nx.bfs_layers(G, source))


@pytest.mark.gpu
@pytest.mark.skipif("not __import__('nx_gpusp.executor').executor.cuda_available()",
                    reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("seed", range(6))
def test_visit_order_cuda_equals_twin(seed):
    """The ordering pass (solvers.sssp.bfs_order) on CUDA arrays gives the twin's order
    and parents, from one source and from several, on graphs of many levels too."""
    import numpy as np

    from nx_gpusp.executor import get_executor
    from nx_gpusp.convert import from_networkx
    from nx_gpusp.methods import get_method
    from nx_gpusp.solvers import answers

    rng = random.Random(seed)
    G = nx.gnp_random_graph(rng.randint(50, 3000), rng.choice([0.002, 0.01]), seed=seed,
                           directed=seed % 2 == 0)
    if seed % 3 == 0:
        G = nx.grid_2d_graph(40, 60)  # ~100 levels
    graph = from_networkx(G)
    first = rng.sample(range(graph.n), 3)
    for name in BFS_METHODS:
        m = get_method("bfs", name)
        for sources in (first[:1], first):
            out = [answers.bfs_visit_order(get_executor(device), graph, m, sources,
                                           options={}) for device in ("cpu", "cuda")]
            (o1, p1, s1), (o2, p2, s2) = out
            assert np.array_equal(o1, o2) and np.array_equal(p1, p2) and s1 == s2
