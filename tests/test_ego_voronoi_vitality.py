"""ego_graph, voronoi_cells, local_efficiency and closeness_vitality against NetworkX on
random graphs of every kind (shuffled node orders, odd labels, self-loops, parallel
edges, disconnected parts, int and float weights), through NetworkX's dispatch, on the
NumPy twin and (marker gpu) on CUDA."""

import math
import random

import networkx as nx
import pytest

from graphs import outcome
from nx_gpusp.dispatch import CALLS

GP = {"backend": "gpusp"}


def weighted_graph(seed, classes=(nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph)):
    rng = random.Random(seed)
    cls = rng.choice(classes)
    n = rng.randint(1, 25)
    label = rng.choice([lambda i: i, lambda i: f"s{i}", lambda i: (i, "t")])
    nodes = [label(i) for i in range(n)]
    rng.shuffle(nodes)
    G = cls(name=f"g{seed}")
    for v in nodes:
        G.add_node(v, tag=rng.random())
    kind = rng.choice(["int", "float", "wide"])
    for _ in range(rng.randint(0, 3 * n)):
        w = {"int": rng.randint(0, 5), "float": rng.choice([0.1, 0.2, 0.3, 1.5]),
             "wide": rng.randint(1, 10**6)}[kind]
        G.add_edge(label(rng.randrange(n)), label(rng.randrange(n)), w=w, extra="x")
    return G, nodes


CASES = [weighted_graph(seed) for seed in range(40)]


def _same_graph(got, exp, node_order=True):
    assert type(got) is type(exp) and got.graph == exp.graph
    assert nx.utils.graphs_equal(got, exp)
    assert dict(got.nodes(data=True)) == dict(exp.nodes(data=True))
    if node_order:
        assert list(got.nodes) == list(exp.nodes) and list(got.edges) == list(exp.edges)


@pytest.mark.parametrize("case", range(len(CASES)))
def test_ego_graph(device, case):
    G, nodes = CASES[case]
    before = CALLS.get("ego_graph", 0)
    for n in random.Random(case).sample(nodes, min(2, len(nodes))):
        for radius in (0, 1, 2, 3.5, None):
            for undirected in (False, True):
                for center in (True, False):
                    for distance in (None, "w"):
                        args = (G, n, radius, center, undirected, distance)
                        _same_graph(nx.ego_graph(*args, **GP), nx.ego_graph(*args),
                                    node_order=distance is None)
    assert CALLS.get("ego_graph", 0) > before
    for call in (lambda kw: nx.ego_graph(G, "missing", **kw),
                 lambda kw: nx.ego_graph(G, "missing", distance="w", **kw),
                 lambda kw: nx.ego_graph(G, [1], distance="w", **kw)):
        assert outcome(lambda: call(GP)) == outcome(lambda: call({}))


@pytest.mark.parametrize("case", range(len(CASES)))
def test_voronoi_cells(device, case):
    G, nodes = CASES[case]
    rng = random.Random(case)
    for _ in range(4):
        centers = rng.sample(nodes, min(len(nodes), rng.randint(1, 3)))
        expected = nx.voronoi_cells(G, centers, weight="w")
        try:
            got = nx.voronoi_cells(G, centers, weight="w", **GP)
        except NotImplementedError:  # a node as near to two centers: NetworkX's to answer
            assert nx.voronoi_cells(G, centers, weight="w") == expected
            continue
        assert got == expected and list(got) == list(expected)
    for bad in ([], ["missing"]):
        assert outcome(lambda: nx.voronoi_cells(G, bad, **GP)) == \
            outcome(lambda: nx.voronoi_cells(G, bad))


def test_voronoi_cells_without_ties_match():
    G = nx.path_graph(7)
    assert nx.voronoi_cells(G, {0, 5}, **GP) == nx.voronoi_cells(G, {0, 5}) == \
        {0: {0, 1, 2}, 5: {3, 4, 5, 6}}
    G.add_node("far")
    assert nx.voronoi_cells(G, [5, 0], **GP)["unreachable"] == {"far"}
    with pytest.raises(NotImplementedError):  # node 2 is as near to 0 as to 4
        nx.voronoi_cells(nx.path_graph(5), [0, 4], backend="gpusp")


def _close(a, b):
    if isinstance(a, dict):
        return list(a) == list(b) and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return a == b or math.isclose(a, b, rel_tol=1e-9)


@pytest.mark.parametrize("case", range(0, len(CASES), 2))
def test_local_efficiency_and_closeness_vitality(device, case):
    G, nodes = CASES[case]
    calls = [lambda kw: nx.closeness_vitality(G, **kw),
             lambda kw: nx.closeness_vitality(G, node=nodes[0], **kw),
             lambda kw: nx.closeness_vitality(G, node="missing", **kw)]
    if not G.is_directed():
        calls.append(lambda kw: nx.local_efficiency(G, **kw))
    if not G.is_multigraph():  # parallel edges' minimum: NetworkX's too, but simpler here
        calls.append(lambda kw: nx.closeness_vitality(G, weight="w", **kw))
    for call in calls:
        expected, got = call({}), call(GP)
        assert _close(got, expected), (got, expected)


def test_local_efficiency_in_small_parts(device, monkeypatch):
    """Parts far smaller than a node's neighbourhood (each then a part alone) give the
    same value; the null graph NetworkX's ZeroDivisionError."""
    from nx_gpusp.algorithms import efficiency_measures

    G = nx.gnp_random_graph(120, 0.2, seed=4)
    G.add_edge(3, 3)
    expected = nx.local_efficiency(G)
    assert math.isclose(nx.local_efficiency(G, **GP), expected, rel_tol=1e-9)
    monkeypatch.setattr(efficiency_measures, "BLOCK_VERTICES", 5)
    assert math.isclose(nx.local_efficiency(G, **GP), expected, rel_tol=1e-9)
    assert outcome(lambda: nx.local_efficiency(nx.Graph(), **GP)) == \
        outcome(lambda: nx.local_efficiency(nx.Graph()))
