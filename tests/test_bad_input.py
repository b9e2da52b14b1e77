"""Bad input: NetworkX's exception types, clear messages, no crash, hang or leak."""

import inspect
import math

import networkx as nx
import numpy as np
import pytest

from graphs import networkx_function, outcome
from nx_gpusp.algorithms.common import configured_executor
from nx_gpusp.executor import Executor, cuda_available, get_executor

SSSP_SOURCE_FUNCS = [
    nx.single_source_dijkstra, nx.single_source_dijkstra_path,
    nx.single_source_dijkstra_path_length, nx.single_source_bellman_ford,
    nx.single_source_bellman_ford_path, nx.single_source_bellman_ford_path_length,
]


def _graph():
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 1, 3), (1, 2, 4), (0, 2, 10), (2, 3, 1)])
    return G


@pytest.mark.parametrize("func", SSSP_SOURCE_FUNCS, ids=lambda f: f.__name__)
def test_missing_source(device, func):
    with pytest.raises(nx.NodeNotFound):
        func(_graph(), 99, backend="gpusp")
    with pytest.raises(nx.NodeNotFound):
        func(nx.DiGraph(), 0, backend="gpusp")


@pytest.mark.parametrize("func", [nx.dijkstra_path, nx.dijkstra_path_length,
                                  nx.bellman_ford_path, nx.bellman_ford_path_length,
                                  nx.shortest_path, nx.shortest_path_length],
                         ids=lambda f: f.__name__)
def test_missing_source_with_target(device, func):
    with pytest.raises(nx.NodeNotFound):
        func(_graph(), 99, 1, backend="gpusp")


@pytest.mark.parametrize("name", sorted(
    n for n in nx.utils.backends.backend_info["gpusp"]["functions"]
    if {"source", "target", "sources"} & set(inspect.signature(networkx_function(n)).parameters)))
def test_unhashable_sources_and_targets(device, name):
    """Where NetworkX keys a dict by the label (``dist[target]``, ``{source: ...}``) an
    unhashable one is a TypeError; where it asks ``label in G`` first, NodeNotFound.
    Every function taking a source, target or sources, with each kind of bad label."""
    func, G = networkx_function(name), nx.path_graph(4, create_using=nx.DiGraph)
    params = inspect.signature(func).parameters
    required = {p: v for p, v in (("source", 0), ("target", 3), ("sources", [0]))
                if p in params and params[p].default is inspect.Parameter.empty}
    for param in {"source", "target", "sources"} & set(params):
        for bad in ([1], {1: 2}, set(), [0, [1]]):
            kwargs = {**required, param: bad}
            expected = outcome(lambda: func(G, **kwargs))
            assert outcome(lambda: func(G, **kwargs, backend="gpusp")) == expected, \
                (param, bad, expected)


def test_missing_or_unreachable_target(device):
    G = _graph()
    G.add_node(7)
    for func in (nx.dijkstra_path, nx.dijkstra_path_length, nx.bellman_ford_path,
                 nx.bellman_ford_path_length):
        with pytest.raises(nx.NetworkXNoPath):
            func(G, 0, 7, backend="gpusp")
        with pytest.raises(nx.NetworkXNoPath):  # NetworkX: a missing target is unreachable
            func(G, 0, 99, backend="gpusp")
    with pytest.raises(nx.NodeNotFound):
        nx.shortest_path(G, 0, 99, weight="weight", backend="gpusp")


def test_empty_sources(device):
    with pytest.raises(ValueError, match="sources must not be empty"):
        nx.multi_source_dijkstra_path_length(_graph(), set(), backend="gpusp")


def test_negative_weight_under_dijkstra(device):
    G = _graph()
    G[1][2]["weight"] = -1
    for func in (nx.single_source_dijkstra_path_length, nx.single_source_dijkstra):
        with pytest.raises(ValueError, match="negative"):
            func(G, 0, backend="gpusp")
    with pytest.raises(ValueError, match="negative"):
        nx.dijkstra_path_length(G, 0, 3, backend="gpusp")
    assert nx.bellman_ford_path_length(G, 0, 3, backend="gpusp") == 3


def test_negative_cycles(device):
    G = _graph()
    G.add_edge(3, 1, weight=-6)
    for func in (nx.single_source_bellman_ford, nx.single_source_bellman_ford_path_length):
        with pytest.raises(nx.NetworkXUnbounded):
            func(G, 0, backend="gpusp")
    with pytest.raises(nx.NetworkXUnbounded):
        nx.bellman_ford_path_length(G, 0, 2, backend="gpusp")
    for func in (nx.floyd_warshall, nx.floyd_warshall_numpy,
                 nx.floyd_warshall_predecessor_and_distance):
        with pytest.raises(nx.NetworkXUnbounded):
            func(G, backend="gpusp")
    assert nx.negative_edge_cycle(G, backend="gpusp") is True
    # a frozen graph: NetworkX adds and removes a node of its own, so it raises
    # NetworkXError ("Frozen graph can't be modified"); gpusp only reads the graph
    assert nx.negative_edge_cycle(nx.freeze(G.copy()), backend="gpusp") is True
    assert nx.negative_edge_cycle(nx.freeze(nx.DiGraph([(0, 1, {"weight": -1})])),
                                  backend="gpusp") is False
    H = nx.Graph([(0, 1, {"weight": -1})])  # undirected negative edge = negative cycle
    with pytest.raises(nx.NetworkXUnbounded):
        nx.single_source_bellman_ford_path_length(H, 0, backend="gpusp")
    loop = nx.DiGraph([(0, 0, {"weight": -1})])
    with pytest.raises(nx.NetworkXUnbounded):
        nx.single_source_bellman_ford_path_length(loop, 0, backend="gpusp")


def test_long_negative_cycle_is_found_quickly(device):
    """A 3000-vertex negative cycle: the pointer-jumping test finds it long before n rounds."""
    n = 3000
    G = nx.DiGraph()
    nx.add_path(G, range(n), weight=1)
    G.add_edge(n - 1, 0, weight=-n)
    with pytest.raises(nx.NetworkXUnbounded):
        nx.single_source_bellman_ford_path_length(G, 0, backend="gpusp")


@pytest.mark.parametrize("value,exc", [(math.nan, ValueError), ("3", TypeError),
                                       (1 + 2j, TypeError)])
def test_bad_weight_values(device, value, exc):
    """(A None weight hides its edge, as in NetworkX's Dijkstra functions: see
    test_regressions.py::test_an_edge_weighing_none_is_hidden_as_networkx_dijkstra_hides_it)"""
    G = _graph()
    G[1][2]["weight"] = value
    with pytest.raises(exc, match=r"\(1, 2\)"):
        nx.single_source_dijkstra_path_length(G, 0, backend="gpusp")
    H = _graph()
    H[1][2]["weight"] = value
    with pytest.raises(exc):
        nx.floyd_warshall_numpy(H, backend="gpusp")


def test_unsupported_weights_fall_back_or_say_so(device):
    """Infinite weights, and weight functions that hide an edge from Bellman-Ford:
    NotImplementedError with backend='gpusp'; automatic dispatch falls back to NetworkX
    and gets its answer."""
    G = _graph()
    G[1][2]["weight"] = math.inf
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra_path_length(G, 0, backend="gpusp")
    with pytest.raises(NotImplementedError):
        nx.single_source_bellman_ford_path_length(
            _graph(), 0, weight=lambda u, v, d: None if (u, v) == (1, 2) else 1,
            backend="gpusp")


def test_empty_graphs(device):
    assert nx.floyd_warshall(nx.Graph(), backend="gpusp") == {}
    assert nx.floyd_warshall_numpy(nx.Graph(), backend="gpusp").shape == (0, 0)
    assert nx.negative_edge_cycle(nx.DiGraph(), backend="gpusp") is False
    single = nx.Graph()
    single.add_node("a")
    assert nx.single_source_dijkstra(single, "a", backend="gpusp") == ({"a": 0}, {"a": ["a"]})
    assert nx.single_source_bellman_ford_path_length(single, "a", backend="gpusp") == {"a": 0}


def test_unknown_method_and_option(device):
    G = _graph()
    with pytest.raises(ValueError, match="unknown sssp method"):
        nx.single_source_dijkstra_path_length(G, 0, backend="gpusp", method="nope")
    with pytest.raises(TypeError, match="unexpected option"):
        nx.single_source_dijkstra_path_length(G, 0, backend="gpusp", method="frontier", k=3)
    with pytest.raises(ValueError, match="unknown floyd-warshall method"):
        nx.floyd_warshall(G, backend="gpusp", method="nope")


def test_nodelist_errors(device):
    G = _graph()
    with pytest.raises(nx.NetworkXError):
        nx.floyd_warshall_numpy(G, nodelist=[0, 1], backend="gpusp")
    with pytest.raises(nx.NetworkXError):
        nx.floyd_warshall_numpy(G, nodelist=[0, 1, 2, 2], backend="gpusp")


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
def test_too_large_for_gpu_memory_names_bytes_and_leaks_nothing(monkeypatch):
    import cupy

    nx.config.backends.gpusp.device = "cuda"
    try:
        ex = configured_executor()
        pool = cupy.get_default_memory_pool()
        G = nx.gnm_random_graph(3000, 20000, seed=1, directed=True)
        nx.single_source_dijkstra_path_length(G, 0, backend="gpusp")  # warm: CSR cached
        G2 = nx.gnm_random_graph(3000, 20000, seed=2, directed=True)
        used = pool.used_bytes()
        monkeypatch.setattr(Executor, "free_bytes", lambda self: 1000)
        with pytest.raises(MemoryError, match=r"needs .*(KiB|MiB).* but only"):
            nx.single_source_dijkstra_path_length(G2, 0, backend="gpusp")
        with pytest.raises(MemoryError, match=r"3\d{3}x3\d{3} .*matrix needs .* but only"):
            nx.floyd_warshall_numpy(G, backend="gpusp")
        assert pool.used_bytes() == used
        monkeypatch.undo()
        H = nx.DiGraph([(0, 1, {"weight": -2}), (1, 0, {"weight": 1})])
        for attempt in range(2):  # the first call also caches H's device CSR
            if attempt:
                used = pool.used_bytes()
            with pytest.raises(nx.NetworkXUnbounded):  # errors mid-run free their buffers
                nx.single_source_bellman_ford_path_length(H, 0, backend="gpusp")
        assert pool.used_bytes() == used
        assert ex.is_cuda
    finally:
        nx.config.backends.gpusp.device = "auto"


def test_device_config_validation():
    with pytest.raises(ValueError, match="unknown device"):
        Executor("tpu")
    assert isinstance(get_executor("cpu").xp.zeros(1), np.ndarray)


def test_a_csrgraph_answers_only_for_its_own_weight_attribute(device):
    """A CSRGraph converted for one edge attribute (or none) used to answer a call that
    names another with its own weights (or hop counts): a wrong answer; it now raises
    ValueError saying what to pass. Its own attribute, and hop counts (weight=None),
    still answer."""
    from nx_gpusp.convert import from_networkx

    G = nx.DiGraph([(0, 1, {"weight": 2, "cost": 5}), (1, 2, {"weight": 3, "cost": 1})])
    g = from_networkx(G, "weight")
    assert dict(nx.single_source_dijkstra_path_length(g, 0)) == {0: 0, 1: 2, 2: 5}
    assert dict(nx.single_source_dijkstra_path_length(g, 0, weight=None)) == {0: 0, 1: 1, 2: 2}
    for call in (lambda: nx.single_source_dijkstra_path_length(g, 0, weight="cost"),
                 lambda: nx.floyd_warshall(g, weight="cost"),
                 lambda: dict(nx.all_pairs_bellman_ford_path_length(g, weight="cost"))):
        with pytest.raises(ValueError, match="'cost'"):
            call()
    assert dict(nx.single_source_dijkstra_path_length(from_networkx(G, "cost"), 0,
                                                      weight="cost")) == {0: 0, 1: 5, 2: 6}
    hops = from_networkx(G)  # weight=None: no weights held
    assert dict(nx.single_source_shortest_path_length(hops, 0)) == {0: 0, 1: 1, 2: 2}
    with pytest.raises(ValueError, match="no edge weights"):
        nx.single_source_dijkstra_path_length(hops, 0)
