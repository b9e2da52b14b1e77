"""Lazy results (nx_gpusp.results): the mappings behave as the dicts NetworkX returns
(values, order, types, equality both ways, dict(), pickle, repr, read-only), paths are
valid, and lazy_results=False gives plain dicts."""

import json
import pickle
from collections import defaultdict
from collections.abc import Mapping

import networkx as nx
import numpy as np
import pytest

from graphs import assert_lengths_equal, assert_paths_valid, assert_valid_path, random_graph
from nx_gpusp.executor import Executor, get_executor
from nx_gpusp.graph import CSRGraph, distance_inf
from nx_gpusp.results import (DistanceMap, MatrixRowMap, PathMap, PredecessorRowMap,
                              RowsMap, distance_order, materialize, narrowest_distances,
                              tree_depth)


def _labelled_graph():
    G = random_graph(3, n=25, p=0.15, labels="str", disconnected=True)
    return G, "n0"


def test_lengths_mapping_protocol(device):
    G, s = _labelled_graph()
    expected = nx.single_source_dijkstra_path_length(G, s)
    got = nx.single_source_dijkstra_path_length(G, s, backend="gpusp")
    assert isinstance(got, Mapping) and not isinstance(got, dict)
    assert len(got) == len(expected)
    assert got == expected and expected == got and not (got != expected)
    assert dict(got) == expected and type(dict(got)) is dict
    assert got.copy() == expected and type(got.copy()) is dict
    assert set(got) == set(expected) and list(got.keys()) == list(got)
    assert sorted(got.items()) == sorted(expected.items())
    assert list(got.values()) == sorted(got.values())  # non-decreasing distance order
    for v in G:
        assert (v in got) == (v in expected)
        assert got.get(v, "absent") == expected.get(v, "absent")
    assert "not a node" not in got and got.get("not a node") is None
    with pytest.raises(TypeError):  # unhashable, as with a dict
        [] in got
    with pytest.raises(KeyError):
        got["not a node"]
    unreached = next(v for v in G if v not in expected)
    with pytest.raises(KeyError):
        got[unreached]
    for value in got.values():
        assert type(value) in (int, float)


def test_writes_go_to_a_dict_of_the_result(device):
    """Copy on write: the first write builds the dict, later reads see the writes
    (NetworkX's own shortest_path writes into the results of its inner calls)."""
    G, s = _labelled_graph()
    expected = nx.single_source_dijkstra_path_length(G, s)
    got = nx.single_source_dijkstra_path_length(G, s, backend="gpusp")
    last = list(expected)[-1]
    got[s] = 5
    got["new"] = 1.5
    del got[last]
    expected[s] = 5
    expected["new"] = 1.5
    del expected[last]
    assert got == expected and len(got) == len(expected) and list(got)[-1] == "new"
    assert got.pop("new") == 1.5 and "new" not in got
    got.update({s: 0})
    assert got[s] == 0 and got.setdefault("x", 3) == 3 and got["x"] == 3
    with pytest.raises(KeyError):
        del got["absent"]
    got.clear()
    assert len(got) == 0 and dict(got) == {}
    _, paths = nx.single_source_dijkstra(G, s, backend="gpusp")
    for t in list(paths):
        paths[t] = list(reversed(paths[t]))  # what NetworkX's shortest_path does
    assert all(p[-1] == s for p in paths.values())
    dist = nx.floyd_warshall(G, backend="gpusp")
    dist[s][s] = -1
    assert dist[s][s] == -1 and dist[s]["not a node"] == float("inf")


def test_dict_order_operations(device):
    """reversed(), popitem() (the last item) and |= (in place) as with NetworkX's dicts,
    before and after the mapping is built; MutableMapping's own popitem takes the first."""
    G, s = _labelled_graph()
    expected = nx.single_source_dijkstra_path_length(G, s)
    got = nx.single_source_dijkstra_path_length(G, s, backend="gpusp")
    assert list(reversed(got)) == list(reversed(list(got)))
    rows = nx.floyd_warshall(G, backend="gpusp")
    assert list(reversed(rows)) == list(reversed(list(G)))
    assert list(reversed(rows[s])) == list(reversed(list(G)))
    last = list(got)[-1]
    same = got
    got |= {"new": 7}
    assert got is same and got["new"] == 7 and list(got)[-1] == "new"
    assert got.popitem() == ("new", 7)
    assert got.popitem() == (last, expected[last]) and last not in got
    assert list(reversed(got))[0] == list(got)[-1]
    fresh = nx.single_source_dijkstra_path_length(G, s, backend="gpusp")
    assert fresh.popitem() == (last, expected[last])


def test_lengths_value_types_and_order(device):
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 1, 2), (0, 2, 1), (2, 1, 0), (1, 3, 7)])
    got = nx.single_source_dijkstra_path_length(G, 0, backend="gpusp")
    assert list(got.items()) == [(0, 0), (2, 1), (1, 1), (3, 8)] or \
        list(got.items()) == [(0, 0), (1, 1), (2, 1), (3, 8)]
    assert all(type(v) is int for v in got.values())
    # NetworkX's types: an int along an int path (1 through 2 stays int), else a float
    for u, v, w, types in [(0, 1, 2.5, [int, int, int, int]),
                           (2, 1, 0.5, [int, float, int, float])]:
        G[u][v]["weight"] = w
        G.__networkx_cache__.clear()
        got = nx.single_source_dijkstra_path_length(G, 0, backend="gpusp")
        expected = nx.single_source_dijkstra_path_length(G, 0)
        assert [type(got[v]) for v in range(4)] == [type(expected[v]) for v in range(4)] \
            == types


def test_pickle_repr_and_equality_between_lazy_results(device):
    G, s = _labelled_graph()
    got = nx.single_source_dijkstra_path_length(G, s, backend="gpusp")
    again = nx.single_source_dijkstra_path_length(G, s, backend="gpusp")
    assert got == again
    restored = pickle.loads(pickle.dumps(got))
    assert restored == got and type(restored) is dict
    text = repr(got)
    assert text.startswith("DistanceMap({") and len(text) < 200 and f"{len(got)} items" in text
    small = nx.single_source_dijkstra_path_length(nx.path_graph(3), 0, backend="gpusp")
    assert repr(small) == "DistanceMap({0: 0, 1: 1, 2: 2})"
    assert (small | {7: 7}) == {0: 0, 1: 1, 2: 2, 7: 7}
    assert ({7: 7} | small) == {7: 7, 0: 0, 1: 1, 2: 2}


def test_paths_are_built_when_read(device):
    G, s = _labelled_graph()
    lengths, paths = nx.single_source_dijkstra(G, s, backend="gpusp")
    assert isinstance(paths, PathMap) and len(paths) == len(lengths)
    for t in list(paths)[::3]:
        assert_valid_path(G, paths[t], s, t, lengths[t])
    assert_paths_valid(G, dict(paths), dict(lengths), s)
    assert pickle.loads(pickle.dumps(paths)) == paths
    expected = nx.single_source_dijkstra_path_length(G, s)
    assert_lengths_equal(lengths, expected)


def test_reversed_paths_to_a_target(device):
    G = random_graph(8, n=30, p=0.12, directed=True)
    t = 5
    expected = nx.shortest_path_length(G, target=t, weight="weight")
    paths = nx.shortest_path(G, target=t, weight="weight", backend="gpusp")
    assert set(paths) == set(expected)
    for v, path in paths.items():
        assert_valid_path(G, path, v, t, expected[v])


@pytest.mark.parametrize("labels", ["int", "tuple"])
def test_all_pairs_rows(device, labels):
    G = random_graph(12, n=30, p=0.1, labels=labels, disconnected=True, zero_fraction=0.2)
    expected = dict(nx.all_pairs_dijkstra_path_length(G))
    rows = nx.all_pairs_dijkstra_path_length(G, backend="gpusp")
    got = dict(rows)
    assert list(got) == list(G) and got == expected
    assert all(isinstance(row, DistanceMap) for row in got.values())
    for s, (lengths, paths) in nx.all_pairs_dijkstra(G, backend="gpusp"):
        assert_lengths_equal(lengths, expected[s])
        assert_paths_valid(G, paths, expected[s], s)


def test_floyd_warshall_rows(device):
    G = random_graph(21, n=20, p=0.2, disconnected=True, labels="str")
    pred, dist = nx.floyd_warshall_predecessor_and_distance(G, backend="gpusp")
    epred, edist = nx.floyd_warshall_predecessor_and_distance(G)
    assert isinstance(dist, RowsMap) and set(dist) == set(edist)
    assert set(pred) == set(epred)
    for u in G:
        assert isinstance(dist[u], MatrixRowMap)
        assert dict(dist[u]) == dict(edist[u])
        assert dist[u]["not a node"] == float("inf")  # defaultdict(lambda: inf) rows
        assert "not a node" not in dist[u]
        assert isinstance(dist[u].copy(), defaultdict)
        for v in G:
            if dist[u][v] < float("inf") and u != v:
                path = nx.reconstruct_path(u, v, pred)
                assert_valid_path(G, path, u, v, dist[u][v])
    assert all(isinstance(row, PredecessorRowMap) for row in pred.values())
    assert dist == edist


def test_johnson_rows(device):
    G = random_graph(31, n=25, p=0.15, negative=True)
    expected = nx.johnson(G)
    got = nx.johnson(G, backend="gpusp")
    lengths = dict(nx.all_pairs_bellman_ford_path_length(G))
    assert set(got) == set(expected)
    for s in G:
        assert_paths_valid(G, got[s], lengths[s], s)


def test_lazy_results_off_gives_plain_dicts(device):
    G, s = _labelled_graph()
    with nx.config.backends.gpusp(lazy_results=False):
        lengths, paths = nx.single_source_dijkstra(G, s, backend="gpusp")
        assert type(lengths) is dict and type(paths) is dict
        json.dumps(lengths)
        rows = dict(nx.all_pairs_dijkstra_path_length(G, backend="gpusp"))
        assert all(type(r) is dict for r in rows.values())
        dist = nx.floyd_warshall(G, backend="gpusp")
        assert type(dist) is dict and all(isinstance(r, defaultdict) for r in dist.values())
        johnson = nx.johnson(G, backend="gpusp")
        assert all(type(r) is dict for r in johnson.values())
    assert nx.config.backends.gpusp.lazy_results is True
    assert not isinstance(nx.single_source_dijkstra_path_length(G, s, backend="gpusp"), dict)


def test_materialize_nested():
    graph = CSRGraph.from_edge_arrays(3, [0, 1], [1, 2], [4, 5])
    dist = np.array([0, 4, distance_inf(np.int64)], dtype=np.int64)
    lazy = DistanceMap(graph, dist)
    out = materialize((lazy, [lazy], {"a": lazy}))
    assert out[0] == {0: 0, 1: 4} and type(out[0]) is dict
    assert out[1] == [lazy]  # lists are left as they are
    assert type(out[2]["a"]) is dict
    gen = materialize(x for x in [lazy])
    assert type(next(gen)) is dict


@pytest.mark.parametrize("values,dtype", [
    ([0, 5, 126], np.int8), ([-128, 0, 126], np.int8), ([0, 127], np.int16),
    ([0, 32766], np.int16), ([0, 32767], np.int32), ([-40000, 1], np.int32),
    ([0, 2**31 - 1], np.int64), ([], np.int8)])
def test_narrowest_distances(values, dtype, device):
    ex = get_executor(device)
    inf = distance_inf(np.int64)
    host = np.array(values + [inf], dtype=np.int64)
    for shape in (host.shape, (1, host.size)):
        out = ex.to_host(narrowest_distances(ex, ex.asarray(host.reshape(shape)))).ravel()
        assert out.dtype == dtype
        assert out[-1] == distance_inf(dtype)
        assert out[:-1].tolist() == values
    floats = ex.asarray(np.array([0.5, np.inf]))
    assert narrowest_distances(ex, floats) is floats


def _random_forest(seed, n):
    """A random predecessor forest: long chains and bushy parts, a few roots."""
    rng = np.random.default_rng(seed)
    pred = np.full(n, -1, dtype=np.int32)
    perm = rng.permutation(n)
    for i in range(1, n):
        if rng.random() > 0.002:
            pred[perm[i]] = perm[i - 1] if rng.random() < 0.9 else perm[rng.integers(0, i)]
    return pred


def _walk(pred, v):
    out = [v]
    while pred[out[-1]] >= 0:
        out.append(int(pred[out[-1]]))
    return out[::-1]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("labels", [False, True])
def test_paths_from_checkpoints_equal_walked_paths(seed, labels, monkeypatch):
    """Paths that stop at a checkpoint left by an earlier read are the same paths, in
    both orientations, labelled or not, and while the checkpoint budget runs out."""
    n = 4000
    pred = _random_forest(seed, n)
    nodes = [f"v{i}" for i in range(n)] if labels else None
    graph = CSRGraph.from_edge_arrays(n, [], [], [], nodes=nodes)
    dist = tree_depth(pred).astype(np.int64)
    name = (lambda v: f"v{v}") if labels else (lambda v: v)
    rng = np.random.default_rng(seed)
    reads = rng.choice(n, 400).tolist() + [int(np.argmax(dist))] * 2
    for budget in (None, 3000):
        forward, backward = PathMap(graph, dist, pred), PathMap(graph, dist, pred, reverse=True)
        if budget is not None:
            forward._budget = backward._budget = budget
        for v in reads:
            expected = [name(u) for u in _walk(pred, v)]
            assert forward[name(v)] == expected
            assert backward[name(v)] == expected[::-1]
        assert forward._prefix and backward._prefix
        if budget is not None:
            assert forward._budget <= 0
    assert dict(PathMap(graph, dist, pred)) == {name(v): [name(u) for u in _walk(pred, v)]
                                                for v in np.argsort(dist, kind="stable")}


def test_large_materialised_mapping_reads_from_its_dict():
    n = 70_000
    graph = CSRGraph.from_edge_arrays(n, [], [], [])
    dist = np.arange(n, dtype=np.int64)[::-1].copy()
    m = DistanceMap(graph, dist)
    assert m[5] == n - 6
    d = dict(m)
    assert isinstance(m, DistanceMap) and d == m and list(d)[0] == n - 1
    assert m[5] == n - 6 and m.get(-1) is None and 7 in m and len(m) == n
    with pytest.raises(KeyError):
        m[n]
    assert pickle.loads(pickle.dumps(m)) == d


def test_distance_order():
    inf = distance_inf(np.int64)
    dist = np.array([5, inf, 0, 5, 2, inf, 2], dtype=np.int64)
    order = distance_order(Executor("cpu"), dist)
    assert order.tolist() == [2, 4, 6, 0, 3]
    graph = CSRGraph.from_edge_arrays(7, [], [], [])
    assert list(DistanceMap(graph, dist, order).items()) == [(2, 0), (4, 2), (6, 2), (0, 5), (3, 5)]
    assert list(DistanceMap(graph, dist).items()) == [(2, 0), (4, 2), (6, 2), (0, 5), (3, 5)]


def test_source_indices_is_np_unique():
    from nx_gpusp.graph import source_indices

    rng = np.random.default_rng(7)
    for size in (0, 1, 2, 5, 100):
        values = rng.integers(0, 20, size)
        for dtype in (np.int32, np.int64):
            got = source_indices(values.tolist(), dtype)
            assert got.dtype == dtype and np.array_equal(got, np.unique(values))
