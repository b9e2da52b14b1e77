"""Reachability (nx_gpusp.algorithms.dag, .traversal and .components): ``descendants``,
``ancestors``, ``descendants_at_distance`` and ``node_connected_component`` against NetworkX on random graphs of every kind (and
graph views), with its exception types for missing and unhashable sources, through
NetworkX's dispatch (backend="gpusp"), on the NumPy twin and (marker gpu) on CUDA."""

from decimal import Decimal
import math

import networkx as nx
import pytest

from graphs import graph_cases, outcome
from nx_gpusp.dispatch import CALLS

CASES = graph_cases(40, seed=23)
DISTANCES = [0, 1, 2, 3, 7, 10**9, -1, 1.0, 2.5, True, False, None, "a", math.nan,
             Decimal(2), 2 + 0j]
GP = {"backend": "gpusp"}


def _sources(G):
    nodes = list(G)
    return nodes[:2] + nodes[-1:]


@pytest.mark.parametrize("name,G", CASES, ids=[c[0] for c in CASES])
def test_reachability_equals_networkx(device, name, G):
    before = CALLS.get("descendants", 0)
    for s in _sources(G):
        for func in (nx.descendants, nx.ancestors):
            got = func(G, s, **GP)
            assert type(got) is set and got == func(G, s), (func.__name__, s)
        for d in DISTANCES:
            got = nx.descendants_at_distance(G, s, d, **GP)
            assert type(got) is set and got == nx.descendants_at_distance(G, s, d), (s, d)
        expected = outcome(lambda: nx.node_connected_component(G, s))
        got = outcome(lambda: nx.node_connected_component(G, s, **GP))
        assert got == expected and (expected[0] == "ok") == (not G.is_directed())
    assert CALLS.get("descendants", 0) > before


def test_cycles_and_self_loops_leave_the_source_out(device):
    G = nx.DiGraph([(0, 1), (1, 2), (2, 0), (0, 0), (3, 0)])
    assert nx.descendants(G, 0, **GP) == nx.descendants(G, 0) == {1, 2}
    assert nx.ancestors(G, 0, **GP) == nx.ancestors(G, 0) == {1, 2, 3}
    assert nx.descendants_at_distance(G, 0, 0, **GP) == {0}
    assert nx.descendants_at_distance(G, 3, 3, **GP) == nx.descendants_at_distance(G, 3, 3) \
        == {2}
    H = G.subgraph([0, 1, 2])  # a view
    assert nx.ancestors(H, 0, **GP) == nx.ancestors(H, 0) == {1, 2}


@pytest.mark.parametrize("G", [nx.path_graph(3), nx.path_graph(3, create_using=nx.DiGraph),
                               nx.MultiDiGraph([(0, 1)])], ids=["graph", "digraph", "multi"])
def test_missing_and_unhashable_sources_raise_as_networkx(device, G):
    """NetworkXError naming the node ("graph" or "digraph" as NetworkX says), TypeError
    for an unhashable one, except descendants_at_distance, whose `source not in G` says
    NetworkXError for both."""
    for source in (9, "x", [1], {1: 2}):
        for call in (lambda kw: nx.descendants(G, source, **kw),
                     lambda kw: nx.ancestors(G, source, **kw),
                     lambda kw: nx.descendants_at_distance(G, source, 1, **kw),
                     lambda kw: nx.descendants_at_distance(G, source, -1, **kw),
                     lambda kw: nx.descendants_at_distance(G, source, "a", **kw)):
            expected = outcome(lambda: call({}))
            assert expected[0] == "raised"
            assert outcome(lambda: call(GP)) == expected, source
            if expected[1] is nx.NetworkXError:
                with pytest.raises(nx.NetworkXError) as got:
                    call(GP)
                with pytest.raises(nx.NetworkXError) as theirs:
                    call({})
                assert str(got.value) == str(theirs.value)


def test_node_connected_component_raises_as_networkx(device):
    G = nx.Graph([(0, 1), (2, 3)])
    assert nx.node_connected_component(G, 2, **GP) == {2, 3}
    with pytest.raises(KeyError):
        nx.node_connected_component(G, 9, **GP)
    with pytest.raises(TypeError):
        nx.node_connected_component(G, [1], **GP)
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.node_connected_component(nx.DiGraph([(0, 1)]), 0, **GP)
