"""A* without a heuristic (nx_gpusp.algorithms.astar): ``astar_path`` and
``astar_path_length`` against NetworkX on random graphs of every kind, with cutoffs, its
exception types and messages; a heuristic and negative weights are left to NetworkX.
Through NetworkX's dispatch (backend="gpusp"), on the NumPy twin and (marker gpu) on
CUDA."""

import math

import networkx as nx
import pytest

from graphs import assert_same_value, assert_valid_path, graph_cases, outcome
from nx_gpusp.dispatch import CALLS

CASES = graph_cases(40, seed=29)
CUTOFFS = [None, 0, 1, 2.5, 4, 10, -1, math.nan, math.inf, True]
GP = {"backend": "gpusp"}


def _pairs(G):
    nodes = list(G)
    return [(nodes[0], nodes[-1]), (nodes[-1], nodes[0]), (nodes[0], nodes[0]),
            (nodes[len(nodes) // 2], nodes[1])]


@pytest.mark.parametrize("name,G", CASES, ids=[c[0] for c in CASES])
def test_astar_equals_networkx(device, name, G):
    before = CALLS.get("astar_path", 0)
    for s, t in _pairs(G):
        for cutoff in CUTOFFS:
            kw = {"cutoff": cutoff}
            expected = outcome(lambda: nx.astar_path_length(G, s, t, **kw))
            # floats to 1e-12: the device may settle an equally short path whose sum
            # rounds differently
            assert_same_value(outcome(lambda: nx.astar_path_length(G, s, t, **kw, **GP)),
                              expected)
            got = outcome(lambda: nx.astar_path(G, s, t, **kw, **GP))
            if expected[0] == "ok":
                assert got[0] == "ok"
                assert_valid_path(G, got[1], s, t, expected[1])
            else:
                assert got == outcome(lambda: nx.astar_path(G, s, t, **kw))
    assert CALLS.get("astar_path", 0) > before


def test_missing_nodes_raise_as_networkx(device):
    G = nx.path_graph(4)
    for s, t in ((9, 0), (0, 9), ([1], 0), (0, {1: 2})):
        for func in (nx.astar_path, nx.astar_path_length):
            with pytest.raises(nx.NodeNotFound) as theirs:
                func(G, s, t)
            with pytest.raises(nx.NodeNotFound) as got:
                func(G, s, t, **GP)
            assert str(got.value) == str(theirs.value)
    G.remove_edge(1, 2)
    with pytest.raises(nx.NetworkXNoPath, match="Node 3 not reachable from 0"):
        nx.astar_path(G, 0, 3, **GP)


def test_heuristic_and_negative_weights_are_left_to_networkx(device):
    G = nx.DiGraph([(0, 1, {"weight": 2}), (1, 2, {"weight": -1}), (0, 2, {"weight": 2})])
    for func in (nx.astar_path, nx.astar_path_length):
        with pytest.raises(NotImplementedError):
            func(G, 0, 2, **GP)
        with pytest.raises(NotImplementedError):
            func(G, 0, 2, heuristic=lambda u, v: 0, **GP)
        with pytest.raises(NotImplementedError):
            func(G, 0, 2, cutoff="a", **GP)
    G.add_edge(1, 2, weight=1)  # through G's methods: NetworkX's cache is cleared
    assert nx.astar_path(G, 0, 2, **GP) == [0, 2]
    assert nx.astar_path_length(G, 0, 2, weight=lambda u, v, d: d["weight"], **GP) == 2
