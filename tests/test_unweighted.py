"""NetworkX's unweighted shortest-path functions (and has_path, shortest_path* with
weight=None) through gpusp against NetworkX itself, on random graphs of every kind
(weights are ignored: these functions count hops), with every BFS method, cutoff edge
cases, NetworkX's exceptions, and the real graphs (NY, p2p-Gnutella04)."""

import math
from itertools import islice

import networkx as nx
import numpy as np
import pytest

from graphs import assert_valid_path, graph_cases, random_graph
from nx_gpusp.methods import methods_for

CASES = graph_cases(40, seed=17)
# every BFS method, and options that force grid levels and bottom-up levels on small graphs
BFS_METHODS = [
    pytest.param(None, {}, id="auto"),
    *(pytest.param(m.name, {}, id=m.name) for m in methods_for("bfs")),
    pytest.param("top-down", {"block_arcs": 0}, id="top-down-grid-levels"),
    pytest.param("direction-optimizing", {"block_arcs": 0, "alpha": 10**9, "beta": 1},
                 id="bottom-up-levels"),
]
# every all-pairs method (on unit weights), every bfs method one source after another,
# and batched-bfs's options that change its control flow
ALL_PAIRS_METHODS = [
    pytest.param(None, {}, id="auto"),
    *(pytest.param(m.name, {}, id=m.name) for m in methods_for("all-pairs")),
    *(pytest.param(m.name, {}, id=f"{m.name}-each-source") for m in methods_for("bfs")),
    pytest.param("batched-bfs", {"direction": "top-down"}, id="batched-bfs-top-down"),
    pytest.param("batched-bfs", {"direction": "bottom-up", "batch": 3},
                 id="batched-bfs-bottom-up-batch3"),
    pytest.param("batched-bfs", {"batch": 70}, id="batched-bfs-batch70"),
]
CUTOFFS = [None, 0, 1, 2, 2.5, 0.5, -1, -0.5, True, 10**12, math.inf, -math.inf, math.nan]
UNIT = "__unit__"  # an attribute no edge has: every edge weighs 1 in the path checks


def _gp(**kw):
    return dict(backend="gpusp", **kw)


def _assert_level_order(G, lengths):
    """Keys level by level, and in G's node order within a level."""
    pos = {v: i for i, v in enumerate(G)}
    assert list(lengths) == sorted(lengths, key=lambda v: (lengths[v], pos[v]))


def _assert_paths(G, paths, lengths, *, to_target=None):
    """Same keys as lengths; each path real and of the expected hop count, from the
    source (or, with to_target, to the target)."""
    assert set(paths) == set(lengths)
    for v, p in paths.items():
        if to_target is None:
            assert_valid_path(G, p, p[0], v, lengths[v], UNIT)
        else:
            assert_valid_path(G, p, v, to_target, lengths[v], UNIT)


def _reversed(G):
    return G.reverse(copy=False) if G.is_directed() else G


@pytest.mark.parametrize("method,options", BFS_METHODS)
@pytest.mark.parametrize("name,G", CASES, ids=[c[0] for c in CASES])
def test_single_source_and_target(device, name, G, method, options):
    kw = _gp(method=method, **options)
    nodes = list(G)
    for s in dict.fromkeys((nodes[0], nodes[len(nodes) // 2])):
        expected = nx.single_source_shortest_path_length(G, s)
        got = nx.single_source_shortest_path_length(G, s, **kw)
        assert got == expected
        _assert_level_order(G, got)
        paths = nx.single_source_shortest_path(G, s, **kw)
        assert list(paths) == list(got)
        _assert_paths(G, paths, expected)
        to_s = nx.single_target_shortest_path_length(G, s)
        got = nx.single_target_shortest_path_length(G, s, **kw)
        assert got == to_s
        _assert_level_order(G, got)
        _assert_paths(G, nx.single_target_shortest_path(G, s, **kw), to_s, to_target=s)
        # every predecessor on a shortest path, as NetworkX lists them (order aside)
        pred, seen = nx.predecessor(G, s, return_seen=True)
        got_pred, got_seen = nx.predecessor(G, s, return_seen=True, **kw)
        assert got_seen == seen and list(got_pred) == list(got_seen)
        assert {v: sorted(map(nodes.index, p)) for v, p in got_pred.items()} == \
               {v: sorted(map(nodes.index, p)) for v, p in pred.items()}
        assert nx.predecessor(G, s, **kw) == got_pred
        for t in nodes[-3:]:
            assert (nx.predecessor(G, s, t, return_seen=True, **kw)[1]
                    == nx.predecessor(G, s, t, return_seen=True)[1])
            assert sorted(map(nodes.index, nx.predecessor(G, s, t, **kw))) == \
                   sorted(map(nodes.index, nx.predecessor(G, s, t)))
            if t in expected:
                path = nx.bidirectional_shortest_path(G, s, t, **kw)
                assert_valid_path(G, path, s, t, expected[t], UNIT)
                assert nx.has_path(G, s, t, **kw) is True
            else:
                with pytest.raises(nx.NetworkXNoPath):
                    nx.bidirectional_shortest_path(G, s, t, **kw)
                assert nx.has_path(G, s, t, **kw) is False


@pytest.mark.parametrize("name,G", CASES[:20], ids=[c[0] for c in CASES[:20]])
def test_generic_with_weight_none(device, name, G):
    """shortest_path(_length) with weight=None (NetworkX's unweighted branch) whatever
    NetworkX method is named, and with a gpusp bfs method name."""
    nodes = list(G)
    s, t = nodes[0], nodes[-1]
    for method in ("dijkstra", "bellman-ford", "top-down"):
        kw = _gp(method=method)
        expected = nx.shortest_path_length(G, s)
        assert nx.shortest_path_length(G, s, **kw) == expected
        _assert_paths(G, nx.shortest_path(G, s, **kw), expected)
        to_t = nx.shortest_path_length(G, target=t)
        assert nx.shortest_path_length(G, target=t, **kw) == to_t
        _assert_paths(G, nx.shortest_path(G, target=t, **kw), to_t, to_target=t)
        if t in expected:
            assert nx.shortest_path_length(G, s, t, **kw) == expected[t]
            assert_valid_path(G, nx.shortest_path(G, s, t, **kw), s, t, expected[t], UNIT)
        else:
            with pytest.raises(nx.NetworkXNoPath):
                nx.shortest_path(G, s, t, **kw)
            with pytest.raises(nx.NetworkXNoPath):
                nx.shortest_path_length(G, s, t, **kw)
        assert dict(nx.shortest_path_length(G, **kw)) == dict(nx.shortest_path_length(G))
        for u, paths in nx.shortest_path(G, **kw):
            _assert_paths(G, paths, nx.single_source_shortest_path_length(G, u))


@pytest.mark.parametrize("method,options", ALL_PAIRS_METHODS)
@pytest.mark.parametrize("name,G", CASES[:12], ids=[c[0] for c in CASES[:12]])
def test_all_pairs(device, name, G, method, options):
    kw = _gp(method=method, **options)
    expected = dict(nx.all_pairs_shortest_path_length(G))
    got = list(nx.all_pairs_shortest_path_length(G, **kw))
    assert [v for v, _ in got] == list(G)
    for v, lengths in got:
        assert lengths == expected[v]
        _assert_level_order(G, lengths)
    for v, paths in nx.all_pairs_shortest_path(G, **kw):
        assert list(paths) == list(dict(got)[v])
        _assert_paths(G, paths, expected[v])


@pytest.mark.parametrize("cutoff", CUTOFFS, ids=repr)
def test_cutoff_semantics(device, cutoff):
    """NetworkX keeps the levels L with cutoff > L - 1 (ceil for fractions, the source
    alone for negative or NaN cutoffs); predecessor stops after level L once
    ``cutoff and cutoff <= L``."""
    for _name, G in CASES[:10] + [("path", nx.path_graph(8)),
                                  ("dicycle", nx.cycle_graph(9, create_using=nx.DiGraph))]:
        s = next(iter(G))
        for func in (nx.single_source_shortest_path_length, nx.single_target_shortest_path_length):
            assert func(G, s, cutoff=cutoff, backend="gpusp") == func(G, s, cutoff=cutoff)
        got = nx.single_source_shortest_path(G, s, cutoff=cutoff, backend="gpusp")
        _assert_paths(G, got, nx.single_source_shortest_path_length(G, s, cutoff=cutoff))
        got = nx.single_target_shortest_path(G, s, cutoff=cutoff, backend="gpusp")
        _assert_paths(G, got, nx.single_target_shortest_path_length(G, s, cutoff=cutoff),
                      to_target=s)
        assert (dict(nx.all_pairs_shortest_path_length(G, cutoff=cutoff, backend="gpusp"))
                == dict(nx.all_pairs_shortest_path_length(G, cutoff=cutoff)))
        for v, paths in nx.all_pairs_shortest_path(G, cutoff=cutoff, backend="gpusp"):
            _assert_paths(G, paths, nx.single_source_shortest_path_length(G, v, cutoff=cutoff))
        pred, seen = nx.predecessor(G, s, cutoff=cutoff, return_seen=True)
        got_pred, got_seen = nx.predecessor(G, s, cutoff=cutoff, return_seen=True,
                                            backend="gpusp")
        assert got_seen == seen
        assert {v: set(p) for v, p in got_pred.items()} == {v: set(p) for v, p in pred.items()}
        t = list(G)[-1]
        assert (nx.predecessor(G, s, t, cutoff=cutoff, return_seen=True, backend="gpusp")[1]
                == nx.predecessor(G, s, t, cutoff=cutoff, return_seen=True)[1])


def test_cutoff_of_the_wrong_type():
    G = nx.path_graph(4)
    for func in (nx.single_source_shortest_path_length, nx.single_source_shortest_path,
                 nx.single_target_shortest_path, nx.single_target_shortest_path_length):
        with pytest.raises(TypeError):
            func(G, 0, cutoff=nx.path_graph(4))
        with pytest.raises(TypeError):
            func(G, 0, cutoff="2", backend="gpusp")
    with pytest.raises(TypeError):
        nx.predecessor(G, 0, cutoff="2", backend="gpusp")


def test_missing_nodes_and_no_path(device):
    G = nx.DiGraph([(0, 1), (1, 2)])
    G.add_node(3)
    for func, message in [
            (nx.single_source_shortest_path_length, "Source 9 is not in G"),
            (nx.single_source_shortest_path, "Source 9 not in G"),
            (nx.single_target_shortest_path_length, "Target 9 is not in G"),
            (nx.single_target_shortest_path, "Target 9 not in G"),
            (nx.predecessor, "Source 9 not in G")]:
        with pytest.raises(nx.NodeNotFound, match=message):
            func(G, 9)  # NetworkX's own message ...
        with pytest.raises(nx.NodeNotFound, match=message):
            func(G, 9, backend="gpusp")  # ... is gpusp's
    for func in (nx.bidirectional_shortest_path, nx.has_path, nx.shortest_path,
                 nx.shortest_path_length):
        for s, t, message in [(9, 0, "Source 9 is not in G"), (0, 9, "Target 9 is not in G"),
                              (9, 9, "Source 9 is not in G")]:
            with pytest.raises(nx.NodeNotFound, match=message):
                func(G, s, t)
            with pytest.raises(nx.NodeNotFound, match=message):
                func(G, s, t, backend="gpusp")
    with pytest.raises(nx.NodeNotFound):
        nx.shortest_path(G, 9, backend="gpusp")
    with pytest.raises(nx.NodeNotFound):
        nx.shortest_path_length(G, target=9, backend="gpusp")
    for func in (nx.bidirectional_shortest_path, nx.shortest_path, nx.shortest_path_length):
        with pytest.raises(nx.NetworkXNoPath, match="No path between 2 and 0."):
            func(G, 2, 0, backend="gpusp")
    assert nx.has_path(G, 2, 0, backend="gpusp") is False
    assert nx.has_path(G, 3, 3, backend="gpusp") is True
    assert nx.bidirectional_shortest_path(G, 3, 3, backend="gpusp") == [3]
    assert nx.shortest_path_length(G, 3, 3, backend="gpusp") == 0
    # predecessor's target that is unreachable or not a node: [] (and level -1)
    for t in (0, 3, 9):
        assert nx.predecessor(G, 1, t, backend="gpusp") == nx.predecessor(G, 1, t) == []
        assert nx.predecessor(G, 1, t, return_seen=True, backend="gpusp") == ([], -1)
    assert nx.predecessor(G, 0, 0, return_seen=True, backend="gpusp") == ([], 0)
    with pytest.raises(nx.NodeNotFound):  # an unhashable label is no node either
        nx.single_source_shortest_path_length(G, [0], backend="gpusp")


def test_all_pairs_generators_are_lazy(device):
    """Rows come in node order as the generator runs; a bad argument is refused at the
    call, before a generator exists (so automatic dispatch can still fall back)."""
    G = random_graph(5, n=30, p=0.1, labels="str")
    gen = nx.all_pairs_shortest_path_length(G, backend="gpusp", method="batched-bfs", batch=4)
    first = list(islice(gen, 5))
    assert [v for v, _ in first] == list(G)[:5]
    with pytest.raises(ValueError, match="unknown all-pairs method 'nope'"):
        nx.all_pairs_shortest_path_length(G, backend="gpusp", method="nope")
    with pytest.raises(TypeError, match="unexpected option"):
        nx.all_pairs_shortest_path(G, backend="gpusp", method="top-down", bogus=1)


def test_method_errors(device):
    G = nx.path_graph(5)
    with pytest.raises(ValueError, match="unknown bfs method 'near-far'"):
        nx.single_source_shortest_path_length(G, 0, backend="gpusp", method="near-far")
    with pytest.raises(TypeError, match="unexpected option"):
        nx.single_source_shortest_path_length(G, 0, backend="gpusp", method="top-down",
                                              alpha=3)
    with pytest.raises(ValueError, match="block_arcs"):
        nx.has_path(G, 0, 4, backend="gpusp", method="top-down", block_arcs=-1)
    with pytest.raises(ValueError, match="alpha and beta"):
        nx.predecessor(G, 0, backend="gpusp", method="direction-optimizing", alpha=0)
    with pytest.raises(ValueError, match="direction"):
        dict(nx.all_pairs_shortest_path_length(G, backend="gpusp", method="batched-bfs",
                                               direction="sideways"))
    with pytest.raises(ValueError, match="method not supported"):
        nx.shortest_path(G, 0, weight=None, method="nope", backend="gpusp")
    # an sssp method name with weight=None runs that method on unit weights
    assert nx.shortest_path_length(G, 0, 4, method="frontier", backend="gpusp") == 4


def test_batched_bfs_refuses_weights_other_than_one(device):
    G = random_graph(2, n=20, p=0.3, weights="int")
    with pytest.raises(ValueError, match="batched-bfs.*hop counts"):
        dict(nx.all_pairs_dijkstra_path_length(G, backend="gpusp", method="batched-bfs"))
    ones = nx.DiGraph(G)
    nx.set_edge_attributes(ones, 1, "weight")  # weight 1 everywhere: hop counts are right
    assert (dict(nx.all_pairs_dijkstra_path_length(ones, backend="gpusp", method="batched-bfs"))
            == dict(nx.all_pairs_shortest_path_length(G)))


def test_dispatch_counts_the_calls():
    from nx_gpusp.dispatch import CALLS

    G = nx.cycle_graph(6)
    before = dict(CALLS)
    nx.has_path(G, 0, 3, backend="gpusp")
    nx.shortest_path(G, 0, 3, backend="gpusp")
    assert CALLS["has_path"] == before.get("has_path", 0) + 1
    assert CALLS["shortest_path"] == before.get("shortest_path", 0) + 1
    # the inner BFS call is not counted again as a separate dispatch
    assert CALLS.get("bidirectional_shortest_path", 0) == before.get(
        "bidirectional_shortest_path", 0)


# -- real graphs ---------------------------------------------------------------------
@pytest.mark.parametrize("name", ["NY-synthetic", "gnutella04"])
def test_real_graphs(device, real, name):
    G = real(name)
    rng = np.random.default_rng(3)
    nodes = list(G)
    s = nodes[rng.integers(len(nodes))]
    expected = nx.single_source_shortest_path_length(G, s)
    for method in ("top-down", "direction-optimizing"):
        got = nx.single_source_shortest_path_length(G, s, backend="gpusp", method=method)
        assert got == expected
        _assert_level_order(G, got)
    # NY's BFS tree is ~500 levels deep: its whole path dict is n x depth labels, so
    # paths are checked up to 40 levels there, and to sampled targets one by one
    cutoff = 40 if name == "NY-synthetic" else None
    _assert_paths(G, nx.single_source_shortest_path(G, s, cutoff=cutoff, backend="gpusp"),
                  nx.single_source_shortest_path_length(G, s, cutoff=cutoff))
    for t in [nodes[i] for i in rng.choice(len(nodes), 20, replace=False)]:
        if t in expected:
            assert_valid_path(G, nx.bidirectional_shortest_path(G, s, t, backend="gpusp"), s,
                              t, expected[t], UNIT)
    if name == "NY-synthetic":  # the rest as on every random graph: the small one suffices
        return
    assert nx.single_target_shortest_path_length(G, s, backend="gpusp") == \
        nx.single_target_shortest_path_length(G, s)
    pred = nx.predecessor(G, s, backend="gpusp")
    assert {v: set(p) for v, p in pred.items()} == \
           {v: set(p) for v, p in nx.predecessor(G, s).items()}


def test_gnutella_all_pairs_rows(device, real):
    """The first batches of the streamed all-pairs lengths (batched-bfs) against NetworkX."""
    G = real("gnutella04")
    rows = islice(nx.all_pairs_shortest_path_length(G, backend="gpusp", batch=128), 200)
    for v, lengths in rows:
        assert lengths == nx.single_source_shortest_path_length(G, v)
