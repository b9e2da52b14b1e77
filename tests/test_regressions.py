"""One regression test per bug found by differential fuzzing against NetworkX (see
tests/test_fuzz.py), named after the bug; each runs on the NumPy twin and on CUDA."""

import inspect
import math
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest

from graphs import (assert_identical, assert_lengths_equal, assert_paths_valid,
                    assert_same_value, networkx_function, outcome)
from nx_gpusp.convert import from_networkx
from nx_gpusp.methods import methods_for

SSSP = sorted(m.name for m in methods_for("sssp"))
# the methods that take float weights (phast refuses them: tests/test_phast.py)
FLOAT_SSSP = sorted(m.name for m in methods_for("sssp") if not m.integer_weights_only)
NEGATIVE_SSSP = sorted(m.name for m in methods_for("sssp") if m.negative_weights)
ALL_PAIRS = sorted(m.name for m in methods_for("all-pairs"))
# the all-pairs methods that take weights (the others count hops: unweighted calls only)
WEIGHTED_ALL_PAIRS = sorted(m.name for m in methods_for("all-pairs")
                            if not m.unit_weights_only)
# the weighted ones that take float weights too (phast-batched refuses them:
# tests/test_phast_batched.py)
FLOAT_ALL_PAIRS = sorted(m.name for m in methods_for("all-pairs")
                         if not m.unit_weights_only and not m.integer_weights_only)
NEGATIVE_ALL_PAIRS = sorted(m.name for m in methods_for("all-pairs") if m.negative_weights)
FLOYD_WARSHALL = sorted(m.name for m in methods_for("floyd-warshall"))
GP = {"backend": "gpusp"}


# -- bug 1: a negative cutoff drops the source -------------------------------------------
@pytest.mark.parametrize("method", SSSP)
def test_bug1_negative_cutoff_keeps_the_sources(device, method):
    G = nx.path_graph(3)
    G.add_edge(2, 3, weight=0)
    for cutoff in (-1, -0.5, -math.inf):
        kw = dict(cutoff=cutoff, method=method, **GP)
        assert nx.single_source_dijkstra_path_length(G, 0, **kw) == {0: 0}
        assert nx.single_source_dijkstra(G, 2, **kw) == ({2: 0}, {2: [2]})
        assert nx.single_source_dijkstra_path(G, 2, **kw) == {2: [2]}
        assert nx.multi_source_dijkstra_path_length(G, {0, 3}, **kw) == {0: 0, 3: 0}
        assert nx.multi_source_dijkstra(G, {0, 3}, target=3, **kw) == (0, [3])
        with pytest.raises(nx.NetworkXNoPath):
            nx.single_source_dijkstra(G, 2, target=3, **kw)


@pytest.mark.parametrize("method", ALL_PAIRS + ["frontier", None])
def test_bug1_negative_cutoff_all_pairs(device, method):
    G = nx.path_graph(4)
    for cutoff in (-1, -2.5):
        kw = dict(cutoff=cutoff, method=method, **GP)
        assert dict(nx.all_pairs_dijkstra_path_length(G, **kw)) == {v: {v: 0} for v in G}
        assert dict(nx.all_pairs_dijkstra_path(G, **kw)) == {v: {v: [v]} for v in G}
        assert dict(nx.all_pairs_dijkstra(G, **kw)) == {v: ({v: 0}, {v: [v]}) for v in G}


# -- bug 2: a NaN cutoff (and one that is no number) --------------------------------------
@pytest.mark.parametrize("method", SSSP)
def test_bug2_nan_cutoff_cuts_nothing(device, method):
    for weight in (1, 1.5) if method in FLOAT_SSSP else (1,):
        G = nx.DiGraph([(0, 1, {"weight": weight}), (1, 2, {"weight": weight})])
        expected = nx.single_source_dijkstra_path_length(G, 0, cutoff=math.nan)
        got = nx.single_source_dijkstra_path_length(G, 0, cutoff=math.nan, method=method,
                                                    **GP)
        assert got == expected == {0: 0, 1: weight, 2: 2 * weight}
    expected = dict(nx.all_pairs_dijkstra_path_length(G, cutoff=math.nan))
    assert dict(nx.all_pairs_dijkstra_path_length(G, cutoff=math.nan, **GP)) == expected


@pytest.mark.parametrize("cutoff", ["3", None, 1j, [2]], ids=["str", "None", "complex",
                                                              "list"])
def test_bug2_cutoff_that_is_no_number(device, cutoff):
    G = nx.DiGraph([(0, 1, {"weight": 1})])
    G.add_node(5)
    nx_outcome = outcome(lambda: nx.single_source_dijkstra_path_length(G, 0, cutoff=cutoff))
    gp_outcome = outcome(lambda: nx.single_source_dijkstra_path_length(G, 0, cutoff=cutoff,
                                                                        **GP))
    assert gp_outcome == nx_outcome
    # NetworkX compares with the cutoff only once it relaxes an arc
    assert nx.single_source_dijkstra_path_length(G, 5, cutoff=cutoff, **GP) == {5: 0}


@pytest.mark.parametrize("cutoff", [Fraction(5, 2), Decimal("2.5"), np.float32(2.5),
                                    2**70, -2**70, True])
def test_bug2_exotic_cutoff_numbers(device, cutoff):
    for weight in (1, 0.5, 1.25):
        G = nx.path_graph(6, create_using=nx.DiGraph)
        nx.set_edge_attributes(G, weight, "weight")
        expected = nx.single_source_dijkstra_path_length(G, 0, cutoff=cutoff)
        got = nx.single_source_dijkstra_path_length(G, 0, cutoff=cutoff, **GP)
        assert got == expected


# -- bug 3: a missing target ---------------------------------------------------------------
@pytest.mark.parametrize("weight", [None, "weight"])
@pytest.mark.parametrize("method", ["dijkstra", "bellman-ford"])
def test_bug3_missing_target_no_path_or_not_found(device, weight, method):
    G = nx.path_graph(3)
    for func in (nx.shortest_path, nx.shortest_path_length):
        expected = outcome(lambda: func(G, 0, 99, weight=weight, method=method))
        assert expected[0] == "raised"
        assert outcome(lambda: func(G, 0, 99, weight=weight, method=method, **GP)) == expected
    for func in (nx.dijkstra_path, nx.dijkstra_path_length, nx.bellman_ford_path,
                 nx.bellman_ford_path_length):
        with pytest.raises(nx.NetworkXNoPath):
            func(G, 0, 99, **GP)


def test_bug3_missing_target_after_the_negative_cycle_verdict(device):
    """Bellman-Ford runs before it looks for the target: a negative cycle wins."""
    G = nx.DiGraph([(0, 1, {"weight": 1}), (1, 0, {"weight": -2})])
    for func in (nx.shortest_path, nx.shortest_path_length):
        with pytest.raises(nx.NetworkXUnbounded):
            func(G, 0, 99, weight="weight", method="bellman-ford", **GP)
    with pytest.raises(nx.NetworkXUnbounded):
        nx.bellman_ford_path(G, 0, 99, **GP)


# -- bug 4: an unreachable negative self-loop ----------------------------------------------
@pytest.mark.parametrize("method", NEGATIVE_SSSP)
def test_bug4_unreachable_negative_self_loop(device, method):
    G = nx.DiGraph([(0, 1, {"weight": 1}), (5, 5, {"weight": -1}), (1, 2, {"weight": -3})])
    kw = dict(method=method, **GP)
    assert nx.single_source_bellman_ford_path_length(G, 0, **kw) == {0: 0, 1: 1, 2: -2}
    dist, paths = nx.single_source_bellman_ford(G, 0, **kw)
    assert dist == {0: 0, 1: 1, 2: -2} and paths == {0: [0], 1: [0, 1], 2: [0, 1, 2]}
    assert nx.bellman_ford_path_length(G, 0, 2, **kw) == -2
    assert nx.shortest_path_length(G, 0, 2, weight="weight", method=method, **GP) == -2
    with pytest.raises(nx.NetworkXUnbounded):  # reachable: unbounded
        nx.single_source_bellman_ford_path_length(G, 5, **kw)
    G.add_edge(2, 5, weight=4)
    with pytest.raises(nx.NetworkXUnbounded):
        nx.single_source_bellman_ford_path_length(G, 0, **kw)
    G.remove_edge(2, 5)
    # negative_edge_cycle and the all-pairs functions look at the whole graph
    assert nx.negative_edge_cycle(G, **kw) is True
    with pytest.raises(nx.NetworkXUnbounded):
        dict(nx.all_pairs_bellman_ford_path_length(G, **GP))
    with pytest.raises(nx.NetworkXUnbounded):
        nx.johnson(G, **GP)


def test_bug4_undirected_negative_edge_only_where_reached(device):
    G = nx.Graph([(0, 1, {"weight": 2}), (7, 8, {"weight": -1})])
    assert nx.single_source_bellman_ford_path_length(G, 0, **GP) == {0: 0, 1: 2}
    with pytest.raises(nx.NetworkXUnbounded):
        nx.single_source_bellman_ford_path_length(G, 7, **GP)


@pytest.mark.parametrize("method", NEGATIVE_SSSP + [None])
def test_bug4_predecessor_functions_refuse_every_negative_self_loop(device, method):
    """bellman_ford_predecessor_and_distance and goldberg_radzik check G's self-loops
    before searching, so an unreachable negative one is unbounded there (the other
    Bellman-Ford functions answer: bug 4); once bug 4's fix checked reachable self-loops
    only, these two answered."""
    for cls in (nx.DiGraph, nx.MultiGraph):
        G = cls([(0, 1, {"weight": 1}), (5, 5, {"weight": -1})])
        for func in (nx.bellman_ford_predecessor_and_distance, nx.goldberg_radzik):
            for source in (0, 5):
                with pytest.raises(nx.NetworkXUnbounded):
                    func(G, source)
                with pytest.raises(nx.NetworkXUnbounded):
                    func(G, source, method=method, **GP)
        assert nx.single_source_bellman_ford_path_length(G, 0, method=method, **GP) == \
            nx.single_source_bellman_ford_path_length(G, 0) == {0: 0, 1: 1}


# -- bug 5: narrower distance types on a one-node graph with a huge self-loop --------------
@pytest.mark.parametrize("weight", [2**31, 2**31 - 1, 2**15, 2**24 + 1, 2.0**31, 2**40])
def test_bug5_one_node_huge_self_loop(device, weight):
    G = nx.DiGraph()
    G.add_edge(0, 0, weight=weight)
    assert dict(nx.all_pairs_dijkstra(G, **GP)) == {0: ({0: 0}, {0: [0]})}
    assert nx.johnson(G, **GP) == {0: {0: [0]}}
    assert dict(nx.all_pairs_bellman_ford_path(G, **GP)) == {0: {0: [0]}}
    for method in WEIGHTED_ALL_PAIRS if isinstance(weight, int) else FLOAT_ALL_PAIRS:
        assert dict(nx.all_pairs_dijkstra_path_length(G, method=method, **GP)) == {0: {0: 0}}
    for method in FLOYD_WARSHALL:
        assert nx.floyd_warshall(G, method=method, **GP) == {0: {0: 0}}
        assert nx.floyd_warshall_numpy(G, method=method, **GP).tolist() == [[0.0]]
    for method in SSSP if isinstance(weight, int) else FLOAT_SSSP:
        assert nx.single_source_dijkstra(G, 0, method=method, **GP) == ({0: 0}, {0: [0]})


@pytest.mark.parametrize("weight", [2**31, 2**30 + 1, 2**14 + 1, 2**23 + 1])
def test_bug5_two_nodes_and_a_self_loop_near_a_lane_limit(device, weight):
    """The bound covers self-loops and single arcs as well as simple paths."""
    G = nx.DiGraph([(0, 1, {"weight": 3})])
    G.add_edge(1, 1, weight=weight)
    G.add_edge(1, 0, weight=weight)
    H = nx.DiGraph([(u, v, {"weight": float(d["weight"])}) for u, v, d in G.edges(data=True)])
    for graph in (G, H):
        expected = dict(nx.all_pairs_dijkstra_path_length(graph))
        for method in (WEIGHTED_ALL_PAIRS if graph is G else FLOAT_ALL_PAIRS) + [None]:
            got = dict(nx.all_pairs_dijkstra_path_length(graph, method=method, **GP))
            assert got == expected
        expected_fw = nx.floyd_warshall(graph)
        for method in FLOYD_WARSHALL:
            assert nx.floyd_warshall(graph, method=method, **GP) == expected_fw
        for lane in ("s16x2", "s32", "f32"):
            try:
                got = nx.floyd_warshall(graph, method="fw-dpx", lane=lane, **GP)
            except ValueError as exc:  # the lane says why it cannot hold them
                assert "narrowest lane that can" in str(exc)
            else:
                assert got == expected_fw


# -- hostile inputs ------------------------------------------------------------------------
@pytest.mark.parametrize("weights", [
    [2**63 + 1000, 2**63, 999],  # beyond int64 (numpy made float64 of them)
    [2**63, -2**63 + 5, 1],
    [np.uint64(2**63 + 1), 1, 1],
    [np.uint64(2**63 + 1), 1.5, 1],
    [2**60 + 1, 0.5, 1],  # an int float64 cannot hold, mixed with floats
    [Decimal("1.5"), 2, 1], [Fraction(1, 3), 2, 1],
    [np.float32(0.5), 1.5, 1], [np.longdouble(0.1), 1.0, 1],
    # NumPy's arithmetic: narrow integers wrap, bools add as a logical or, np.uint64
    # beside a signed NumPy integer sums to a float64 (beside a negative: OverflowError)
    [np.int8(100), 1, 2], [np.int16(3), 1, 2], [np.int32(7), 2, 1], [np.uint8(5), 1, 2],
    [np.uint16(5), 1, 2], [np.uint32(5), 1, 2], [np.bool_(True), 1, 2],
    [np.uint64(5), np.int64(3), 1], [np.uint64(5), -3, 1],
], ids=lambda w: "-".join(type(x).__name__ for x in w))
def test_hostile_weights_not_held_exactly_are_declined(device, weights):
    """NotImplementedError (automatic dispatch then runs NetworkX): never a rounded answer."""
    G = nx.DiGraph()
    for (u, v), w in zip([(0, 1), (0, 2), (2, 1)], weights):
        G.add_edge(u, v, weight=w)
    for call in (lambda: nx.single_source_dijkstra(G, 0, 1, **GP),
                 lambda: nx.bellman_ford_path_length(G, 0, 1, **GP),
                 lambda: nx.floyd_warshall_numpy(G, **GP)):
        with pytest.raises(NotImplementedError):
            call()


@pytest.mark.parametrize("weights", [
    [np.uint64(5), 3, 1], [np.uint64(5), np.uint64(2), 1], [np.int64(7), 2, 1.5],
    [np.float64(0.25), 1.5, 2],
    [2**50 + 1, 0.5, 1], [True, 2, 1], [2**61 - 7, 3, 1]])
def test_exact_weights_of_other_types_are_used(device, weights):
    G = nx.DiGraph()
    for (u, v), w in zip([(0, 1), (0, 2), (2, 1)], weights):
        G.add_edge(u, v, weight=w)
    assert nx.single_source_dijkstra(G, 0, **GP) == nx.single_source_dijkstra(G, 0)


def test_hostile_decimal_falls_back_under_automatic_dispatch():
    import subprocess
    import sys

    code = """
from decimal import Decimal
import networkx as nx
G = nx.DiGraph([(0, 1, {"weight": Decimal("1.5")}), (1, 2, {"weight": Decimal("2")})])
print(nx.single_source_dijkstra_path_length(G, 0))
"""
    env = dict(__import__("os").environ, NETWORKX_BACKEND_PRIORITY="gpusp",
               NX_GPUSP_DEVICE="cpu", NX_GPUSP_SHOULD_RUN_MIN_EDGES="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "{0: 0, 1: Decimal('1.5'), 2: Decimal('3.5')}"


@pytest.mark.parametrize("alias", [1.0, True, np.int64(1), np.float64(1.0), Fraction(1)],
                         ids=lambda a: type(a).__name__)
def test_hostile_node_equal_to_an_int_label(device, alias):
    G = nx.path_graph(4)
    assert nx.single_source_dijkstra_path_length(G, alias, **GP) == \
        nx.single_source_dijkstra_path_length(G, alias)
    assert nx.dijkstra_path(G, 3, alias, **GP) == [3, 2, 1]
    assert nx.bellman_ford_path_length(G, alias, 3, **GP) == 2
    assert nx.shortest_path(G, alias, 3, **GP) == [1, 2, 3]
    assert alias not in {2.5, "1"}  # labels that are no node stay missing
    for missing in (2.5, "1", -1, 4, 1 + 1j):
        with pytest.raises(nx.NodeNotFound):
            nx.single_source_dijkstra_path_length(G, missing, **GP)


def test_hostile_weights_near_the_float_maximum(device):
    G = nx.DiGraph([(0, 1, {"weight": 1e308}), (1, 2, {"weight": 1e308}),
                    (0, 3, {"weight": -1e308})])
    # Bellman-Ford stops lowering at -inf: NetworkX's verdict on this negative cycle
    # then depends on its heuristic, so gpusp declines
    H = nx.Graph([(0, 1, {"weight": -1e308})])
    assert nx.negative_edge_cycle(H, heuristic=False) is False
    for call in (lambda: nx.negative_edge_cycle(H, **GP),
                 lambda: nx.single_source_bellman_ford_path_length(G, 0, **GP),
                 lambda: nx.johnson(G, **GP)):
        with pytest.raises(NotImplementedError):
            call()
    # Floyd-Warshall: inf + x is inf as in NetworkX, but -inf + inf is NaN, which NetworkX's
    # comparisons skip: declined where sums could reach -inf
    with pytest.raises(NotImplementedError):
        nx.floyd_warshall_numpy(G, **GP)
    G.remove_edge(0, 3)
    np.testing.assert_array_equal(nx.floyd_warshall_numpy(G, **GP), nx.floyd_warshall_numpy(G))
    assert nx.floyd_warshall(G, **GP) == nx.floyd_warshall(G)
    # Dijkstra reports node 2 at distance inf; gpusp declines, so NetworkX answers
    H = nx.DiGraph([(0, 1, {"weight": 1e308}), (1, 2, {"weight": 1e308})])
    assert nx.dijkstra_path_length(H, 0, 2) == math.inf
    with pytest.raises(NotImplementedError):
        nx.dijkstra_path(H, 0, 2, **GP)


def test_fuzz_find_negative_cycle_declines_float_sums_that_reach_minus_inf(device):
    """The long fuzz run: a self-loop of -1e308 on a 3-node graph. The rounds lowered the
    node to -inf, stopped lowering, and reported no cycle (NetworkXError); NetworkX's
    search returns [0, 0]. find_negative_cycle now declines where float sums could
    reach -inf, as every Bellman-Ford function does; a graph whose simple paths stay
    finite is still answered."""
    G = nx.Graph()
    G.add_nodes_from([0, 1, 2])
    G.add_edge(0, 0, weight=-1e308)
    assert nx.find_negative_cycle(G, 0) == [0, 0]
    for call in (lambda: nx.find_negative_cycle(G, 0, **GP),
                 lambda: nx.single_source_bellman_ford_path_length(G, 0, **GP)):
        with pytest.raises(NotImplementedError) as info:
            call()
        assert "overflow" in str(info.value.__cause__ or info.value)
    H = nx.DiGraph([(0, 1, {"weight": -1.7e308}), (1, 0, {"weight": -1.7e308})])
    assert nx.find_negative_cycle(H, 0, **GP) == nx.find_negative_cycle(H, 0) == [0, 1, 0]


def _none_weight_graphs():
    G = nx.path_graph(5, create_using=nx.DiGraph)
    G[1][2]["weight"] = None
    H = nx.path_graph(6)
    H[2][3]["weight"], H[4][5]["weight"] = None, 2.5
    M = nx.MultiGraph([(0, 1), (1, 2), (2, 3)])
    M[1][2][0]["weight"] = None
    P = nx.MultiDiGraph([(0, 1), (1, 2), (1, 2), (2, 3)])
    P[1][2][0]["weight"] = None  # beside a parallel edge: min() of None and 1 fails
    # (TypeError in NetworkX where its search reaches it; gpusp raises or declines)
    return [G, H, M, P]


DIJKSTRA_AND_UNWEIGHTED = ["single_source_dijkstra_path_length", "single_source_dijkstra",
                           "dijkstra_path", "all_pairs_dijkstra_path_length",
                           "multi_source_dijkstra", "bidirectional_dijkstra",
                           "dijkstra_predecessor_and_distance", "all_shortest_paths",
                           "closeness_centrality", "single_source_shortest_path_length",
                           "all_pairs_shortest_path", "has_path", "predecessor"]


@pytest.mark.parametrize("index", range(4))
def test_an_edge_weighing_none_is_hidden_as_networkx_dijkstra_hides_it(device, index):
    """NetworkX's Dijkstra functions skip an edge whose weight attribute is None (its
    weight function returns None); its Bellman-Ford and Floyd-Warshall functions raise
    TypeError where they meet one (or give NaN). gpusp skips it too (it used to raise
    TypeError), declines the others (NotImplementedError: NetworkX runs them), and an
    unweighted call on the same graph still sees the edge (NetworkX hands it the
    conversion it cached for the weighted one)."""
    from networkx.utils.backends import backend_info

    G = _none_weight_graphs()[index]
    target = list(G)[-1]
    for name in sorted(backend_info["gpusp"]["functions"]):
        func = networkx_function(name)
        params = inspect.signature(func).parameters
        required = {p: v for p, v in (("source", 0), ("target", target), ("sources", [0]))
                    if p in params and params[p].default is inspect.Parameter.empty}
        if "weight" in params:
            variants = [{"weight": "weight"}, {"weight": None}]
        elif "distance" in params:
            variants = [{"distance": "weight"}, {}]
        else:
            variants = [{}]
        for kw in variants:
            expected = outcome(lambda: func(G, **required, **kw))
            got = outcome(lambda: func(G, **required, **kw, **GP))
            if got[0] == expected[0] == "ok":
                assert_same_value(got[1], expected[1], ordered=False)
            elif name in DIJKSTRA_AND_UNWEIGHTED and index < 3:
                assert got == expected, (name, kw)
            else:
                assert got == expected or got == ("raised", NotImplementedError), \
                    (name, kw, got, expected)


def test_hostile_fw_dpx_lane_says_which_lane_fits_and_why(device):
    G = nx.DiGraph([(0, 1, {"weight": 1.5}), (1, 2, {"weight": 3.0})])
    with pytest.raises(ValueError, match=r"lane 's32' cannot hold .* integer lanes hold "
                                         r"integer weights.* narrowest lane that can is 'f64'"):
        nx.floyd_warshall_numpy(G, method="fw-dpx", lane="s32", **GP)
    H = nx.DiGraph()
    H.add_edge(0, 0, weight=2**31)  # one node: the path bound counts the self-loop
    with pytest.raises(ValueError, match=r"lane 's32' .* 4294967296, not below its INF "
                                         r"sentinel .* narrowest lane that can is 'i53'"):
        nx.floyd_warshall_numpy(H, method="fw-dpx", lane="s32", **GP)
    with pytest.raises(ValueError, match=r"'f32' .* whole number"):
        nx.floyd_warshall_numpy(G, method="fw-dpx", lane="f32", **GP)


# -- bug 7: zero-length float cycles that rounding makes negative --------------------------
ROUNDING_CYCLE = [("a", "b", -11.8), ("b", "a", 11.8), ("s", "a", -0.65)]  # -0.65-11.8+11.8 < -0.65


def _rounding_graph():
    return nx.DiGraph([(u, v, {"weight": w}) for u, v, w in ROUNDING_CYCLE])


@pytest.mark.parametrize("method", NEGATIVE_SSSP)
def test_bug7_rounding_cycle_every_bellman_ford_method_agrees(device, method):
    G = _rounding_graph()
    with pytest.raises(nx.NetworkXUnbounded):
        nx.single_source_bellman_ford(G, "s")  # NetworkX's verdict
    kw = dict(method=method, **GP)
    for call in (lambda: nx.single_source_bellman_ford(G, "s", **kw),
                 lambda: nx.single_source_bellman_ford_path(G, "s", **kw),
                 lambda: nx.single_source_bellman_ford_path_length(G, "s", **kw),
                 lambda: nx.bellman_ford_path(G, "s", "b", **kw),
                 lambda: nx.bellman_ford_path_length(G, "s", "b", **kw),
                 lambda: nx.shortest_path(G, "s", weight="weight", method=method, **GP)):
        with pytest.raises(nx.NetworkXUnbounded):
            call()
    assert nx.negative_edge_cycle(G, **kw) is True
    # from "a" the round trip is exact (-11.8 + 11.8 == 0): no cycle, as in NetworkX
    assert nx.single_source_bellman_ford_path_length(G, "a", **kw) == \
        nx.single_source_bellman_ford_path_length(G, "a")


def test_bug7_rounding_cycle_all_pairs_johnson_floyd_warshall(device):
    G = _rounding_graph()
    for method in NEGATIVE_ALL_PAIRS + [None, "frontier"]:
        for func in (nx.all_pairs_bellman_ford_path_length, nx.all_pairs_bellman_ford_path):
            with pytest.raises(nx.NetworkXUnbounded):
                dict(func(G, method=method, **GP))
    with pytest.raises(nx.NetworkXUnbounded):
        nx.johnson(G, **GP)
    for method in FLOYD_WARSHALL:  # Bellman-Ford's verdict, never a cyclic predecessor map
        for func in (nx.floyd_warshall, nx.floyd_warshall_numpy,
                     nx.floyd_warshall_predecessor_and_distance):
            with pytest.raises(nx.NetworkXUnbounded):
                func(G, method=method, **GP)


def test_bug7_negative_edge_cycle_starts_where_networkx_does(device):
    """NetworkX's super-source reaches every node at distance 1, and whether rounding
    makes the cycle negative depends on that start: -3.7 + 0.65 - 0.65 from 1 is exact."""
    G = nx.DiGraph([(0, 2, {"weight": -3.7}), (1, 2, {"weight": 0.65}),
                    (2, 1, {"weight": -0.65})])
    assert nx.negative_edge_cycle(G) is False
    for method in NEGATIVE_SSSP:
        assert nx.negative_edge_cycle(G, method=method, **GP) is False


def _reconstructs(pred, dist, G):
    for u, row in dist.items():
        for v, d in row.items():
            if u != v and d != math.inf:
                path = [v]
                while path[-1] != u:
                    path.append(pred[u][path[-1]])
                    assert len(path) <= len(G) + 1, f"cyclic predecessors {u} -> {v}"
                path.reverse()
                total = sum(G[a][b]["weight"] for a, b in zip(path, path[1:]))
                assert math.isclose(total, d, rel_tol=1e-9, abs_tol=1e-6)


@pytest.mark.parametrize("edges", [
    [(0, 1, 2.5), (1, 0, -2.5), (1, 2, -1e-10), (2, 1, 1e-10)],
    [(0, 4, -0.65), (2, 5, -3.7), (3, 5, -1e7), (4, 5, -0.3), (5, 4, 0.3), (5, 2, 3.7),
     (5, 3, 1e7)],
    [(0, 1, 0.5), (0, 2, 0.1), (1, 0, -0.5), (2, 0, -0.1)],  # NetworkX: d[0][0] = -2.8e-17
], ids=["tiny", "huge", "two-cycles"])
@pytest.mark.parametrize("method", FLOYD_WARSHALL)
def test_bug7_floyd_warshall_sweeps_do_not_go_round_zero_cycles(device, method, edges):
    """Blocked sweeps rounded these zero-length cycles below zero in their own order: a
    negative diagonal, values drifting by 1e-6 relative, cyclic predecessors. They now
    sweep Johnson's non-negative reweighting: Bellman-Ford's verdict (no cycle) and
    NetworkX's values."""
    G = nx.DiGraph([(u, v, {"weight": w}) for u, v, w in edges])
    assert nx.negative_edge_cycle(G, **GP) is False
    expected = nx.floyd_warshall(G)
    pred, dist = nx.floyd_warshall_predecessor_and_distance(G, method=method, **GP)
    got = nx.floyd_warshall(G, method=method, **GP)
    for d in (dist, got):
        for u in G:
            assert d[u][u] == 0
            for v in G:
                assert math.isclose(d[u][v], expected[u][v], rel_tol=1e-9, abs_tol=1e-8)
    _reconstructs(pred, dist, G)
    np.testing.assert_allclose(nx.floyd_warshall_numpy(G, method=method, **GP),
                               nx.floyd_warshall_numpy(G), rtol=1e-9, atol=1e-8)


# -- bug 6: a float weight too small to change a large distance ----------------------------
def test_bug6_absorbed_weight_makes_no_predecessor_cycle(device):
    """d + 1e-10 == d at d = 1e7: both arcs between b and c are tight, and a tight-arc
    tree may point b and c at each other."""
    H = nx.DiGraph([("c", "b", {"weight": 1e-10}), ("b", "c", {"weight": 1e-10}),
                    ("a", "b", {"weight": 1e7})])
    for method in FLOAT_ALL_PAIRS + [None]:
        got = dict(nx.all_pairs_dijkstra(H, method=method, **GP))
        for s, (lengths, paths) in got.items():
            assert_lengths_equal(lengths, nx.single_source_dijkstra_path_length(H, s))
            assert_paths_valid(H, paths, lengths, s)
    assert set(nx.johnson(H, **GP)) == set(H)
    for s, paths in dict(nx.all_pairs_bellman_ford_path(H, **GP)).items():
        assert_paths_valid(H, paths, nx.single_source_bellman_ford_path_length(H, s), s)
    for method in FLOAT_SSSP:
        lengths, paths = nx.single_source_dijkstra(H, "a", method=method, **GP)
        assert_paths_valid(H, paths, lengths, "a")


# -- found by tests/test_fuzz.py -----------------------------------------------------------
@pytest.mark.parametrize("method", NEGATIVE_SSSP + [None])
def test_fuzz_huge_negative_cycle_does_not_overflow_int64(device, method):
    """A negative cycle of weight -2**62 lowered bf-queue's, lbr's and near-far's int64
    sums past -2**63 before their next check: they wrapped and 'converged'."""
    G = nx.Graph([(0, 1, {"weight": -2**61})])  # an undirected negative edge is a cycle
    assert nx.negative_edge_cycle(G) is True
    assert nx.negative_edge_cycle(G, method=method, **GP) is True
    with pytest.raises(nx.NetworkXUnbounded):
        nx.single_source_bellman_ford_path_length(G, 0, method=method, **GP)
    H = nx.DiGraph([(0, 1, {"weight": 2**60}), (1, 2, {"weight": -2**60 - 5}),
                    (2, 0, {"weight": 2**59})])  # no cycle: exact answers
    assert nx.single_source_bellman_ford_path_length(H, 0, method=method, **GP) == \
        nx.single_source_bellman_ford_path_length(H, 0)


def test_fuzz_integers_mixed_with_floats_beyond_2_53_are_declined(device):
    """NetworkX adds the ints exactly (2**53 + 1); float64 cannot."""
    G = nx.Graph([(0, 1, {"weight": 1}), (0, 2, {"weight": 2**53}), (0, 0, {"weight": 0.5})])
    assert nx.single_source_dijkstra_path_length(G, 1)[2] == 2**53 + 1
    for call in (lambda: nx.single_source_dijkstra_path_length(G, 1, **GP),
                 lambda: dict(nx.all_pairs_bellman_ford_path_length(G, **GP)),
                 lambda: nx.floyd_warshall(G, **GP)):
        with pytest.raises(NotImplementedError):
            call()


def _types(x):
    if isinstance(x, Mapping):  # gpusp's lazy mappings too
        return {k: _types(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_types(v) for v in x]
    return (x, type(x).__name__)


TYPE_CASES = {
    "float": [(0, 1, {"weight": 1.5}), (1, 2, {"weight": 2.0}), (2, 3, {"weight": 0.0})],
    "mixed": [(0, 1, {"weight": 1}), (1, 2, {"weight": 2.5}), (0, 3, {"weight": 4}),
              (3, 3, {"weight": 0.5})],
    "missing": [(0, 1, {}), (1, 2, {})],
    "partly-missing": [(0, 1, {"weight": 3}), (1, 2, {}), (0, 2, {"weight": 9})],
    "int": [(0, 1, {"weight": 3}), (1, 2, {"weight": 1})],
    "zero-float-loop": [(0, 0, {"weight": 0.0}), (0, 1, {"weight": 2}), (1, 2, {"weight": 1})],
}


def test_fuzz_mixed_types_never_truncate_a_distance(device):
    """All-pairs rows on graphs mixing ints and floats were typed along a tree of tight
    arcs that missed a vertex (Floyd-Warshall rows round differently): it counted as an
    int path, and 8.987713346856745 came back as int 8."""
    for edges in ([(0, 1, 7.0), (0, 2, 0.9877133468567447), (1, 3, 1)],
                  [(0, 1, 2.00001), (0, 3, 0.1), (1, 2, 2)]):
        G = nx.Graph([(u, v, {"weight": w}) for u, v, w in edges])
        for func in (nx.all_pairs_dijkstra_path_length, nx.all_pairs_bellman_ford_path_length):
            for method in [None, "fw-dpx", "batched-frontier", "frontier"]:
                got = dict(func(G, method=method, **GP))
                for s, row in dict(func(G)).items():
                    assert_lengths_equal(got[s], row)


@pytest.mark.parametrize("case", sorted(TYPE_CASES))
def test_hostile_result_number_types_are_networkx_types(device, case):
    """0 (not 0.0) at the sources of float graphs, 1.0 for Floyd-Warshall's missing
    weights, ints along int paths where ints and floats mix."""
    G = nx.DiGraph(TYPE_CASES[case])
    for func in (nx.single_source_dijkstra, nx.single_source_bellman_ford,
                 nx.single_source_dijkstra_path_length,
                 nx.single_source_bellman_ford_path_length):
        assert _types(func(G, 0, **GP)) == _types(func(G, 0))
    assert _types(nx.dijkstra_path_length(G, 0, 2, **GP)) == \
        _types(nx.dijkstra_path_length(G, 0, 2))
    assert _types(nx.multi_source_dijkstra_path_length(G, {0, 2}, **GP)) == \
        _types(nx.multi_source_dijkstra_path_length(G, {0, 2}))
    for func in (nx.all_pairs_dijkstra, nx.all_pairs_dijkstra_path_length,
                 nx.all_pairs_bellman_ford_path_length):
        assert _types(dict(func(G, **GP))) == _types(dict(func(G)))
    for method in FLOYD_WARSHALL:
        fw = {u: dict(r) for u, r in nx.floyd_warshall(G, method=method, **GP).items()}
        assert _types(fw) == _types({u: dict(r) for u, r in nx.floyd_warshall(G).items()})
        _pred, dist = nx.floyd_warshall_predecessor_and_distance(G, method=method, **GP)
        expected = nx.floyd_warshall_predecessor_and_distance(G)[1]
        assert _types({u: dict(r) for u, r in dist.items()}) == \
            _types({u: dict(r) for u, r in expected.items()})
    H = nx.path_graph(4)  # weight=None: Floyd-Warshall's 1.0, the others' 1
    assert _types(nx.floyd_warshall(H, weight=None, **GP)) == \
        _types(nx.floyd_warshall(H, weight=None))
    assert _types(nx.shortest_path_length(H, 0, **GP)) == _types(nx.shortest_path_length(H, 0))


# -- found by tests/test_fuzz.py on every dispatched function ------------------------------
def test_fuzz_has_path_without_a_source_or_a_target(device):
    """NetworkX's has_path asks shortest_path(G, source, target), which without a source
    or a target answers for every node: True once the node given is in G."""
    G = nx.DiGraph([(0, 1)])
    G.add_node(5)
    for source, target in [(0, None), (None, 1), (None, None), (5, None), (None, 0)]:
        assert nx.has_path(G, source, target, **GP) is nx.has_path(G, source, target) is True
    for source, target in [(99, None), (None, 99)]:
        for kw in ({}, GP):
            with pytest.raises(nx.NodeNotFound):
                nx.has_path(G, source, target, **kw)
    assert nx.has_path(G, 0, 5, **GP) is nx.has_path(G, 0, 5) is False


def test_fuzz_predecessor_functions_carry_networkx_number_types(device):
    """The distances of the *_predecessor_and_distance functions and goldberg_radzik: the
    source's int 0 on float weights, ints along int paths (they came back as floats)."""
    G = nx.DiGraph([(0, 0, {"weight": 0.0}), (0, 1, {"weight": 2}), (1, 2, {"weight": 1.5})])
    for func in (nx.dijkstra_predecessor_and_distance, nx.bellman_ford_predecessor_and_distance,
                 nx.goldberg_radzik):
        assert _types(func(G, 0, **GP)[1]) == _types(func(G, 0)[1]) == \
            {0: (0, "int"), 1: (2, "int"), 2: (3.5, "float")}


def test_fuzz_all_shortest_paths_bellman_ford_reads_its_predecessor_lists(device):
    """NetworkX's all_shortest_paths family with method="bellman-ford" walks
    bellman_ford_predecessor_and_distance's lists: one node is the source alone (a
    zero-weight self-loop gives it no second path), and a negative self-loop anywhere is
    unbounded (gpusp answered both from its own search)."""
    G = nx.Graph([(0, 0, {"weight": 0})])
    kw = {"weight": "weight", "method": "bellman-ford"}
    for backend in ({}, GP):
        assert dict(nx.single_source_all_shortest_paths(G, 0, **kw, **backend)) == {0: [[0]]}
        assert {u: dict(row) for u, row in
                nx.all_pairs_all_shortest_paths(G, **kw, **backend)} == {0: {0: [[0]]}}
        assert list(nx.all_shortest_paths(G, 0, 0, **kw, **backend)) == [[0]]
    G = nx.Graph([(0, 1, {"weight": 1})])
    G.add_edge(5, 5, weight=-1)
    for backend in ({}, GP):
        with pytest.raises(nx.NetworkXUnbounded):
            dict(nx.single_source_all_shortest_paths(G, 0, **kw, **backend))
        with pytest.raises(nx.NetworkXUnbounded):
            list(nx.all_shortest_paths(G, 0, 1, **kw, **backend))
        with pytest.raises(nx.NetworkXUnbounded):
            dict(nx.all_pairs_all_shortest_paths(G, **kw, **backend))


def test_fuzz_distance_measures_refuse_negative_weights_before_connectivity(device):
    """NetworkX's eccentricity family and barycenter find a disconnected graph by
    searching, and its Dijkstra can meet a negative weight first (ValueError); gpusp's
    Dijkstra refuses every negative weight, so that error comes first (it answered
    that the graph was disconnected)."""
    G = nx.Graph([(0, 0, {"weight": -1})])
    G.add_node(1)
    for func in (nx.eccentricity, nx.diameter, nx.radius, nx.center, nx.periphery,
                 nx.barycenter):
        for backend in ({}, GP):
            with pytest.raises(ValueError):
                func(G, weight="weight", **backend)
    for backend in ({}, GP):
        with pytest.raises(ValueError):
            nx.diameter(G, weight="weight", usebounds=True, **backend)


@pytest.mark.parametrize("cls", [nx.Graph, nx.DiGraph])
def test_fuzz_measures_of_zero_distances_carry_networkx_number_types(device, cls):
    """An eccentricity of 0 is the source's int 0 in NetworkX (the max of its distances
    keeps the first of equal ones), and wiener_index of one node its int 0 (halved when
    undirected); float weights gave 0.0."""
    for edges in ([(0, 0, 0.0)], [(0, 1, 0.0), (1, 0, 0.0)], [(0, 1, 0.0), (1, 0, 1.5)]):
        G = cls([(u, v, {"weight": w}) for u, v, w in edges])
        for func in (nx.eccentricity, nx.diameter, nx.radius, nx.wiener_index):
            assert _types(func(G, weight="weight", **GP)) == _types(func(G, weight="weight"))
    G = cls([(0, 0, {"weight": -1})])  # ... after the weights' errors
    for backend in ({}, GP):
        with pytest.raises(ValueError):
            nx.wiener_index(G, weight="weight", **backend)


def test_fuzz_delta_stepping_far_bucket_is_the_kernels(device):
    """d / delta beyond int64 (1e300 / 1e-10, or inf) is bucket NO_BUCKET - 1, as the
    kernel computes it in int64; the twin computed it as a float (2**63), whose cast to
    int64 gave int64's minimum: a bucket before every other (a RuntimeWarning in the
    fuzz run)."""
    from nx_gpusp.ops.delta_stepping import NO_BUCKET, bucket_of

    with np.errstate(all="raise"):
        got = bucket_of(np.array([1.0, 1e300, np.inf, 0.0]), 1e-10)
    assert got.tolist() == [10**10, NO_BUCKET - 1, NO_BUCKET - 1, 0]
    G = nx.DiGraph([(0, 1, {"weight": 1e-10}), (0, 2, {"weight": 1e300}),
                    (2, 3, {"weight": 1.0}), (1, 3, {"weight": 2e300})])
    assert nx.single_source_dijkstra_path_length(G, 0, method="delta-stepping", delta=1e-10,
                                                 **GP) == \
        nx.single_source_dijkstra_path_length(G, 0)


def test_fuzz_harmonic_centrality_of_a_subnormal_distance(device):
    """1/d of a subnormal distance is inf, as NetworkX's Python division gives it; the
    NumPy twin warned of an overflow on the way (a RuntimeWarning in the fuzz run)."""
    G = nx.Graph([(0, 1, {"weight": 5e-324}), (1, 2, {"weight": 1.0})])
    with np.errstate(all="raise"):
        got = nx.harmonic_centrality(G, distance="weight", **GP)
    assert got == nx.harmonic_centrality(G, distance="weight") == {0: math.inf, 1: math.inf,
                                                                    2: 2.0}


@pytest.mark.parametrize("cutoff", [-math.inf, math.nan, -0.5, 1.5, math.inf])
def test_fuzz_batched_bfs_reads_a_weighted_cutoff(device, cutoff):
    """all_pairs_dijkstra* with weight=None on batched-bfs read ``cutoff`` as Dijkstra
    does: -inf keeps the sources (it raised OverflowError in math.floor), NaN cuts
    nothing (it kept the sources alone, the unweighted functions' reading)."""
    G = nx.path_graph(4)
    for func in (nx.all_pairs_dijkstra_path_length, nx.all_pairs_dijkstra_path):
        got = dict(func(G, cutoff=cutoff, weight=None, method="batched-bfs", **GP))
        assert got == dict(func(G, cutoff=cutoff, weight=None))


def test_fuzz_find_negative_cycle_of_a_self_loop_networkx_cannot_walk(device):
    """NetworkX detects the self-loop's cycle and then fails to walk it ("detected but
    not found"); gpusp returns the cycle [0, 0], a negative cycle reachable from 0."""
    G = nx.Graph([(0, 1, {"weight": 0}), (0, 0, {"weight": -2147483647})])
    assert nx.find_negative_cycle(G, 0, **GP) == [0, 0]
    assert nx.find_negative_cycle(G, 1, **GP) == [0, 0]


def test_fuzz_barycenter_float_ties_are_exact_ties(device):
    """Three nodes' distance sums are exactly 4.3; NetworkX's float sums break the tie in
    its order of additions ([1]). gpusp's nodes are barycenters in exact arithmetic
    (docs/guide/semantics.md: float ties of center, periphery and barycenter)."""
    edges = [(0, 1, 0.1), (0, 5, 1.0), (0, 4, 0.0), (1, 3, 2.0), (1, 2, 1.0)]
    G = nx.Graph([(u, v, {"weight": w}) for u, v, w in edges])
    exact = nx.Graph([(u, v, {"weight": Fraction(w)}) for u, v, w in edges])
    got = nx.barycenter(G, weight="weight", **GP)
    assert got and set(got) <= set(nx.barycenter(exact, weight="weight")) == {0, 1, 4}


def test_fuzz_find_negative_cycle_through_a_negative_edge_beside_a_self_loop(device):
    """NetworkX fails ("detected but not found"); gpusp returns a reachable negative
    cycle: the undirected negative edge taken both ways, or the self-loop."""
    G = nx.Graph([("v0", 1, {"weight": -1}), ("v0", "v0", {"weight": -1})])
    cycle = nx.find_negative_cycle(G, "v0", **GP)
    assert cycle in (["v0", 1, "v0"], ["v0", "v0"])


def test_fuzz_floyd_warshall_reweighting_keeps_int_distances_exact(device):
    """Johnson's potentials of -1e300 swallowed the int arc 0 -> 1 (d[0][1] came back 0,
    NetworkX: 1). Floyd-Warshall declines such graphs (ints mixed with negative floats
    whose sums could move an int distance by 1/2), and the all-pairs length functions'
    automatic choice leaves Floyd-Warshall for a batched method, which is exact."""
    G = nx.DiGraph([(0, 1, {"weight": 1}), (2, 0, {"weight": -1e300})])
    for func in (nx.floyd_warshall, nx.floyd_warshall_predecessor_and_distance):
        with pytest.raises(NotImplementedError):
            func(G, **GP)
    with pytest.raises(NotImplementedError):
        dict(nx.all_pairs_bellman_ford_path_length(G, method="fw-tiled-shared", **GP))
    got = dict(nx.all_pairs_bellman_ford_path_length(G, **GP))
    assert got == dict(nx.all_pairs_bellman_ford_path_length(G))
    assert type(got[0][1]) is int
    # mixed weights of a modest range keep Floyd-Warshall, int distances exact and ints
    H = nx.DiGraph([(0, 1, {"weight": 1}), (2, 0, {"weight": -1.5}), (1, 2, {"weight": 3})])
    got = nx.floyd_warshall(H, **GP)
    assert {u: dict(r) for u, r in got.items()} == \
        {u: dict(r) for u, r in nx.floyd_warshall(H).items()}
    assert type(got[0][1]) is int and type(got[2][1]) is float


def test_fuzz_johnson_finds_the_cycle_networkx_misses(device):
    """NetworkX's johnson misses the cycle 2 -> 3 -> 2 (-0.1) beside a -1e-38 arc and its
    Dijkstra raises ValueError; gpusp raises NetworkXUnbounded, as NetworkX does
    without the tiny arc (and as its negative_edge_cycle says)."""
    G = nx.DiGraph([(2, 3, {"weight": 0.0}), (3, 2, {"weight": -0.1}),
                    (4, 3, {"weight": -1.1754943508222875e-38})])
    assert nx.negative_edge_cycle(G) and nx.negative_edge_cycle(G, **GP)
    with pytest.raises(nx.NetworkXUnbounded):
        nx.johnson(G, **GP)


def _views(seed):
    """Graph views of each kind of graph (weights 1..5, seeded): what NetworkX iterates
    through filtered or joined mappings, not dicts."""
    rng = __import__("random").Random(seed)
    views = []
    for directed in (True, False):
        for multi in (False, True):
            G = nx.gnp_random_graph(14, 0.25, seed=seed, directed=directed)
            if multi:
                G = (nx.MultiDiGraph if directed else nx.MultiGraph)(G)
                for u, v in list(G.edges())[:5]:  # parallel edges
                    G.add_edge(u, v)
            edges = list(G.edges(keys=True) if multi else G.edges)
            for e in edges:
                G.edges[e]["weight"] = rng.randint(1, 5)
            views += [G.subgraph(list(G)[::2] + list(G)[1:6]), G.edge_subgraph(edges[::2]),
                      nx.restricted_view(G, [3], edges[:3])]
            if directed:
                views.append(G.reverse(copy=False))
    return views


@pytest.mark.parametrize("seed", range(3))
def test_graph_views_are_read_as_networkx_iterates_them(device, seed):
    """Graph views (subgraph, edge_subgraph, restricted_view, reversed) gave TypeError
    (their rows are no dicts) or ValueError (a multigraph view's row counts neighbours
    whose every edge is filtered out). Every view now answers as NetworkX does."""
    for V in _views(seed):
        s = next(iter(V))
        assert_lengths_equal(nx.single_source_dijkstra_path_length(V, s, **GP),
                             nx.single_source_dijkstra_path_length(V, s))
        assert_lengths_equal(nx.single_source_shortest_path_length(V, s, **GP),
                             nx.single_source_shortest_path_length(V, s))
        got = dict(nx.all_pairs_dijkstra_path_length(V, **GP))
        expected = dict(nx.all_pairs_dijkstra_path_length(V))
        assert list(got) == list(expected)
        for u in expected:
            assert_lengths_equal(got[u], expected[u])
        dist, paths = nx.single_source_dijkstra(V, s, **GP)
        assert_paths_valid(V, paths, nx.single_source_dijkstra_path_length(V, s), s)
        assert nx.floyd_warshall_numpy(V, **GP).tolist() == nx.floyd_warshall_numpy(V).tolist()
        f = (lambda u, v, d: min(x["weight"] for x in d.values())) if V.is_multigraph() \
            else (lambda u, v, d: d["weight"])
        assert_lengths_equal(nx.single_source_dijkstra_path_length(V, s, weight=f, **GP),
                             nx.single_source_dijkstra_path_length(V, s, weight=f))


def test_undirected_view_of_a_digraph_reads_each_direction_as_networkx_does(device):
    """An undirected view of a digraph reads each direction's own arc (u -> v from u,
    v -> u from v): where the two differ gpusp declines (NotImplementedError; automatic
    dispatch runs NetworkX), where they agree it answers."""
    D = nx.DiGraph([(0, 1, {"weight": 1}), (1, 0, {"weight": 5}), (1, 2, {"weight": 2})])
    U = D.to_undirected(as_view=True)
    for weight in ("weight", lambda u, v, d: d["weight"]):
        with pytest.raises(NotImplementedError):
            nx.single_source_dijkstra_path_length(U, 1, weight=weight, **GP)
    assert dict(nx.single_source_shortest_path_length(U, 2, **GP)) == {2: 0, 1: 1, 0: 2}
    D[1][0]["weight"] = 1
    U = D.to_undirected(as_view=True)
    assert dict(nx.single_source_dijkstra_path_length(U, 2, **GP)) == \
        nx.single_source_dijkstra_path_length(U, 2) == {2: 0, 1: 2, 0: 3}
    D[1][2]["weight"] = None  # the one arc 1 -> 2: hidden from both ends
    U = D.to_undirected(as_view=True)
    assert dict(nx.single_source_dijkstra_path_length(U, 2, **GP)) == \
        nx.single_source_dijkstra_path_length(U, 2) == {2: 0}
    D.add_edge(2, 1, weight=2)  # now hidden from 1 only
    U = D.to_undirected(as_view=True)
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra_path_length(U, 2, **GP)


def test_all_pairs_generic_calls_keep_the_calls_weight(device):
    """shortest_path(_length) without source and target passed its converted graph on
    under the name "weight"; once a CSRGraph refused other attribute names than its own,
    a call with weight="other" raised ValueError (found by the long fuzz). Every weight
    name and a weight function give NetworkX's answer."""
    G = nx.Graph([(0, 1, {"other": 3, "weight": 1}), (1, 2, {"other": 1}), (0, 2, {"other": 5})])
    for weight in ("other", "weight", lambda u, v, d: d.get("other", 1)):
        for method in ("dijkstra", "bellman-ford"):
            for func in (nx.shortest_path_length, nx.shortest_path):
                got = {u: dict(r) for u, r in func(G, weight=weight, method=method, **GP)}
                expected = {u: dict(r) for u, r in func(G, weight=weight, method=method)}
                if func is nx.shortest_path_length:
                    assert got == expected
                else:
                    assert {u: set(r) for u, r in got.items()} == \
                        {u: set(r) for u, r in expected.items()}
    assert dict(nx.shortest_path(nx.Graph(), weight="other", method="dijkstra", **GP)) == {}


# -- found by differential fuzzing: Floyd-Warshall's number types, all-pairs sums through
# -- Floyd-Warshall, NumPy integer weights, BFS method names with a weight ----------------
MULTIGRAPH_TYPE_CASES = {
    "missing-then-present": (nx.MultiDiGraph, [(0, 2, {}), (0, 2, {"weight": 951})]),
    "int-then-missing": (nx.MultiDiGraph, [(0, 2, {"weight": 1}), (0, 2, {})]),
    "missing-then-int": (nx.MultiDiGraph, [(0, 2, {}), (0, 2, {"weight": 1})]),
    "float-then-int": (nx.MultiDiGraph, [(0, 1, {"weight": 1.0}), (0, 1, {"weight": 1}),
                                         (1, 2, {"weight": 2}), (2, 0, {})]),
    "undirected": (nx.MultiGraph, [(0, 1, {"weight": 2}), (0, 1, {"weight": 2.0}),
                                   (1, 2, {}), (2, 3, {"weight": 1}), (2, 3, {})]),
}


def _fw_rows(result):
    return {u: dict(row) for u, row in result.items()}


@pytest.mark.parametrize("lazy", [True, False], ids=["lazy", "dicts"])
@pytest.mark.parametrize("case", sorted(MULTIGRAPH_TYPE_CASES))
@pytest.mark.parametrize("method", FLOYD_WARSHALL)
def test_fuzz_floyd_warshall_multigraph_types_follow_its_min(device, method, case, lazy):
    """NetworkX's Floyd-Warshall keeps min(w, kept) parallel edge after edge, a missing
    weight at 1.0: an arc takes the type of the last of its least edges (gpusp answered
    int 1 for {} beside {"weight": 951}); its searches take the first (a missing weight
    at 1)."""
    cls, edges = MULTIGRAPH_TYPE_CASES[case]
    G = cls(edges)
    kw = dict(method=method, **GP)
    with nx.config.backends.gpusp(lazy_results=lazy):
        assert_identical(_fw_rows(nx.floyd_warshall(G, **kw)), _fw_rows(nx.floyd_warshall(G)))
        _pred, dist = nx.floyd_warshall_predecessor_and_distance(G, **kw)
        assert_identical(_fw_rows(dist),
                         _fw_rows(nx.floyd_warshall_predecessor_and_distance(G)[1]))
        assert_identical(nx.floyd_warshall_numpy(G, **kw), nx.floyd_warshall_numpy(G))
        for func in (nx.all_pairs_dijkstra_path_length, nx.all_pairs_bellman_ford_path_length):
            assert_identical(dict(func(G, method=method, **GP)), dict(func(G)))
    if nx.is_strongly_connected(G) if G.is_directed() else nx.is_connected(G):
        assert_identical(
            nx.average_shortest_path_length(G, weight="weight", method="floyd-warshall", **GP),
            nx.average_shortest_path_length(G, weight="weight", method="floyd-warshall"))


ALL_PAIRS_SUM_CASES = {
    # Floyd-Warshall's joined sums: 7.999999999999999 where NetworkX adds 8 alone
    "negative-float-beside-int": (nx.DiGraph, [], [
        ("v0", "v11", {"weight": -5.710143866022585}), ("v22", "v11", {"weight": 8})]),
    "tenths": (nx.MultiDiGraph, [4, 6, 10, 14, 16, 23, 26, 29, 33], [
        (33, 10, {"weight": 0.1}), (23, 4, {"weight": 0.1}), (4, 14, {"weight": 0.3}),
        (29, 6, {}), (26, 16, {"weight": 0.1}), (14, 33, {"weight": 0.3}), (6, 16, {}),
        (29, 23, {}), (10, 26, {"weight": 0.1})]),
    # left to right -6.000000000000001, joined at the middle vertex -6.0
    "negative-path": (nx.DiGraph, [], [(0, 2, {"weight": -0.7}), (2, 1, {"weight": -2.7}),
                                   (1, 3, {"weight": -2.6}), (3, 4, {"weight": 1})]),
}


@pytest.mark.parametrize("case, method", [
    (case, method) for case in sorted(ALL_PAIRS_SUM_CASES) for method in [None] + (
        # "tenths": 29 -> 16 ties, 1 + 1 against seven arcs of 1 and tenths, which
        # Floyd-Warshall's sums may round below 2: its named methods take that path
        [] if case == "tenths" else FLOYD_WARSHALL)])
def test_fuzz_all_pairs_through_floyd_warshall_sum_as_networkx(device, method, case):
    """All-pairs lengths are NetworkX's left-to-right sums along the path, of its types
    (8 not 7.999999999999999, 2 not 1.9999999999999998, -6.000000000000001 not -6):
    method=None no longer answers float weights with Floyd-Warshall on these dense
    graphs, and a named Floyd-Warshall method's rows are summed again along its
    paths."""
    cls, nodes, edges = ALL_PAIRS_SUM_CASES[case]
    G = cls()
    G.add_nodes_from(nodes)
    G.add_edges_from(edges)
    negative = any(d.get("weight", 1) < 0 for *_e, d in G.edges(data=True))
    funcs = [nx.all_pairs_bellman_ford_path_length]
    if not negative:
        funcs.append(nx.all_pairs_dijkstra_path_length)
    for func in funcs:
        assert_identical(dict(func(G, method=method, **GP)), dict(func(G)))
    if not negative:
        func = nx.all_pairs_dijkstra_path_length
        for cutoff in (1, 2.5):
            assert_identical(dict(func(G, cutoff=cutoff, method=method, **GP)),
                             dict(func(G, cutoff=cutoff)))
    if method is None:
        family = "bellman-ford" if negative else "dijkstra"
        assert_identical(dict(nx.shortest_path_length(G, weight="weight", method=family, **GP)),
                         dict(nx.shortest_path_length(G, weight="weight", method=family)))


def test_fuzz_small_numpy_integer_weights_are_left_to_networkx(device):
    """NetworkX sums np.int8 weights in int8 (100 + 100 is -56): gpusp declines them,
    so automatic dispatch answers with NetworkX's own sums."""
    G = nx.DiGraph()
    G.add_edge(0, 1, weight=np.int8(100))
    G.add_edge(1, 2, weight=np.int8(100))
    with pytest.raises(NotImplementedError, match="numpy int8; NetworkX adds such weights"):
        from_networkx(G, "weight")
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra_path_length(G, 0, **GP)
    with pytest.raises(NotImplementedError):
        nx.floyd_warshall(G, **GP)
    expected = nx.single_source_dijkstra_path_length(G, 0)
    assert expected == {0: 0, 1: 100, 2: -56}
    cfg = nx.config.backends.gpusp
    with nx.config(backend_priority=["gpusp"]), cfg(should_run_min_edges=0):
        assert_identical(nx.single_source_dijkstra_path_length(G, 0), expected)


BFS_NAMES = sorted(m.name for m in methods_for("bfs"))
WEIGHTED_CALLS = {
    "shortest_path": lambda G, t, kw: nx.shortest_path(G, 0, t, weight="weight", **kw),
    "shortest_path_length": lambda G, t, kw: nx.shortest_path_length(G, 0, t, weight="weight",
                                                                     **kw),
    "shortest_path-all-pairs": lambda G, t, kw: dict(nx.shortest_path(G, weight="weight", **kw)),
    "all_shortest_paths": lambda G, t, kw: list(nx.all_shortest_paths(G, 0, t, weight="weight",
                                                                      **kw)),
    "single_source_all_shortest_paths": lambda G, t, kw: dict(
        nx.single_source_all_shortest_paths(G, 0, weight="weight", **kw)),
    "all_pairs_all_shortest_paths": lambda G, t, kw: dict(
        nx.all_pairs_all_shortest_paths(G, weight="weight", **kw)),
}


@pytest.mark.parametrize("call", sorted(WEIGHTED_CALLS))
@pytest.mark.parametrize("method", BFS_NAMES)
def test_fuzz_bfs_method_with_a_weight_says_what_to_do(device, method, call):
    """A gpusp breadth-first search method with a weight is no NetworkX method: both raise
    ValueError (NetworkX checks its method before the nodes, so a missing node or no
    path raises it too), gpusp's saying that the method needs weight=None and what a
    weighted call takes."""
    G = nx.DiGraph([(0, 1, {"weight": 2}), (1, 2, {"weight": 1})])
    G.add_node(5)
    for target in (2, 5, 99):  # a path, no path, no such node
        assert outcome(lambda: WEIGHTED_CALLS[call](G, target, {"method": method})) == \
            ("raised", ValueError)
        with pytest.raises(ValueError) as info:
            WEIGHTED_CALLS[call](G, target, dict(method=method, **GP))
        message = str(info.value)
        assert message.startswith(f"method not supported: {method}"), message
        assert "breadth-first search method" in message and "weight=None" in message
        assert "'dijkstra'" in message and "'bellman-ford'" in message
    # with weight=None NetworkX ignores the method; gpusp runs that breadth-first search
    assert nx.shortest_path_length(G, 0, 2, method=method, **GP) == 2


@pytest.mark.parametrize("method", BFS_NAMES)
def test_fuzz_bfs_method_in_a_weighted_function_names_its_kind(device, method):
    """The functions whose ``method`` is gpusp's alone name what a BFS method is for."""
    G = nx.path_graph(3)
    for call in (lambda: nx.dijkstra_path(G, 0, 2, method=method, **GP),
                 lambda: dict(nx.all_pairs_dijkstra_path_length(G, method=method, **GP)),
                 lambda: nx.floyd_warshall(G, method=method, **GP)):
        with pytest.raises(ValueError, match="is a gpusp \"bfs\" method, for unweighted"):
            call()
    with pytest.raises(ValueError, match=f"method not supported: {method} \\(use 'unweighted'"):
        nx.average_shortest_path_length(G, weight="weight", method=method, **GP)


FLOAT_FW_EDGES = [(0, 0, 4.680816806457223), (0, 3, 9.66698098695327),
                  (1, 5, 10.536063022661931), (2, 3, 15.268751893807128),
                  (2, 7, 16.69189817657458), (3, 6, 5.554833242834673),
                  (3, 5, 0.46527899238647563), (4, 6, 16.23673465980984)]


@pytest.mark.parametrize("method", FLOYD_WARSHALL)
def test_fuzz_floyd_warshall_float_sums_are_networkx_loops(device, method):
    """Floyd-Warshall on fractional weights: NetworkX's d[i][j] is d[i][k] + d[k][j] of
    the round of the path's last interior vertex k in its loop's order (node order;
    floyd_warshall_numpy's nodelist), gpusp's blocked sweeps added in another order
    and were off in the last bit (31.458548889... against ...2 more)."""
    G = nx.Graph()
    G.add_nodes_from(range(8))
    G.add_weighted_edges_from(FLOAT_FW_EDGES)
    kw = dict(method=method, **GP)
    assert_identical(_fw_rows(nx.floyd_warshall(G, **kw)), _fw_rows(nx.floyd_warshall(G)))
    assert_identical(_fw_rows(nx.floyd_warshall_predecessor_and_distance(G, **kw)[1]),
                     _fw_rows(nx.floyd_warshall_predecessor_and_distance(G)[1]))
    for nodelist in (None, [0, 1, 2, 4, 5, 6, 3, 7], [7, 6, 5, 4, 3, 2, 1, 0]):
        assert_identical(nx.floyd_warshall_numpy(G, nodelist=nodelist, **kw),
                         nx.floyd_warshall_numpy(G, nodelist=nodelist))
    D = G.to_directed()  # negative arcs: swept on Johnson's reweighting, joined again
    D.add_edge(6, 3, weight=-2.25)
    D.remove_edge(3, 6)
    assert_identical(_fw_rows(nx.floyd_warshall(D, **kw)), _fw_rows(nx.floyd_warshall(D)))
    assert_identical(dict(nx.all_pairs_bellman_ford_path_length(D, method=method, **GP)),
                     dict(nx.all_pairs_bellman_ford_path_length(D)))
