"""shortest_path / shortest_path_length in every source/target/method combination."""

import networkx as nx
import pytest

from graphs import assert_lengths_equal, assert_valid_path, graph_cases

CASES = graph_cases(40, seed=11)


@pytest.mark.parametrize("name,G", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("method", ["dijkstra", "bellman-ford"])
@pytest.mark.parametrize("weight", ["weight", None])
def test_shortest_path_and_length(device, name, G, method, weight):
    nodes = list(G)
    s, t = nodes[0], nodes[-1]
    kw = dict(weight=weight, method=method)
    expected = nx.shortest_path_length(G, s, **kw)
    assert_lengths_equal(nx.shortest_path_length(G, s, backend="gpusp", **kw), expected)
    paths = nx.shortest_path(G, s, backend="gpusp", **kw)
    for v, p in paths.items():
        assert_valid_path(G, p, s, v, expected[v], weight or "__unit__")
    to_t = nx.shortest_path_length(G, target=t, **kw)
    assert_lengths_equal(nx.shortest_path_length(G, target=t, backend="gpusp", **kw), to_t)
    for v, p in nx.shortest_path(G, target=t, backend="gpusp", **kw).items():
        assert_valid_path(G, p, v, t, to_t[v], weight or "__unit__")
    if t in expected:
        assert nx.shortest_path_length(G, s, t, backend="gpusp", **kw) == pytest.approx(expected[t])
        assert_valid_path(G, nx.shortest_path(G, s, t, backend="gpusp", **kw), s, t, expected[t],
                          weight or "__unit__")
    else:
        with pytest.raises(nx.NetworkXNoPath):
            nx.shortest_path(G, s, t, backend="gpusp", **kw)
    all_expected = dict(nx.shortest_path_length(G, **kw))
    all_got = dict(nx.shortest_path_length(G, backend="gpusp", **kw))
    assert all_got.keys() == all_expected.keys()
    for u in all_expected:
        assert_lengths_equal(all_got[u], all_expected[u])
    for u, paths in nx.shortest_path(G, backend="gpusp", **kw):
        for v, p in paths.items():
            assert_valid_path(G, p, u, v, all_expected[u][v], weight or "__unit__")


def test_gpusp_method_name_in_shortest_path(device):
    G = nx.DiGraph([(0, 1, {"weight": 2}), (1, 2, {"weight": -1}), (0, 2, {"weight": 5})])
    assert nx.shortest_path_length(G, 0, 2, weight="weight", method="frontier", backend="gpusp") == 1
    with pytest.raises(ValueError, match="method not supported"):
        nx.shortest_path_length(G, 0, 2, weight="weight", method="nope", backend="gpusp")
