"""The C reader of adjacency dicts (nx_gpusp/_adjacency.c, optional) against the Python
passes of from_networkx: the same CSR arrays, or "not mine" (None) where the Python
passes must read the graph; and from_networkx's answers and errors either way."""

import math
import os
import shutil
import sysconfig

import networkx as nx
import numpy as np
import pytest

from graphs import graph_cases, random_graph
from nx_gpusp import convert
from nx_gpusp.convert import _read_rows, adjacency, from_networkx, read_rows_in_c

needs_c = pytest.mark.skipif(convert._adjacency is None,
                             reason="the C reader is not built here (no C compiler at install)")
CASES = graph_cases(80, seed=7)


@pytest.mark.skipif(not (shutil.which("cc") or shutil.which("gcc")) or not os.path.exists(
    os.path.join(sysconfig.get_paths()["include"], "Python.h")),
    reason="no C compiler or Python headers here: the C reader is optional")
def test_c_reader_is_built_where_it_can_be():
    """Where the installing machine has a C compiler and Python's headers, the install
    built the C reader (it is optional, so a source that stopped compiling would
    otherwise go unnoticed: every test of it would skip)."""
    assert convert._adjacency is not None


def _python_rows(G, weight):
    adj = adjacency(G)
    return _read_rows(adj, list(adj), weight, 1, G.is_multigraph())


@needs_c
@pytest.mark.parametrize("weight", ["weight", None])
@pytest.mark.parametrize("name,G", CASES, ids=[c[0] for c in CASES])
def test_c_reader_matches_python_passes(name, G, weight):
    """The C reader takes a graph (multigraphs included: an arc's weight is its parallel
    edges' least) exactly when its weights are all Python ints or all Python floats, and
    then its arrays equal the Python passes'."""
    adj = adjacency(G)
    fast = read_rows_in_c(adj, list(adj), weight, G.is_multigraph(), G.is_directed())
    values = [d.get(weight) for _, _, d in G.edges(data=True)] if weight else []
    simple_numbers = (all(type(v) is int for v in values)
                      or all(type(v) is float for v in values))
    assert (fast is not None) == (weight is None or simple_numbers), (name, fast)
    if fast is None:
        return
    indptr, indices, weights, identity, edges, index = fast
    assert edges == G.number_of_edges()
    assert index == (None if identity else {v: i for i, v in enumerate(adj)})
    py = _python_rows(G, weight)
    np.testing.assert_array_equal(indptr, py[0])
    np.testing.assert_array_equal(indices, py[1])
    assert weights.dtype == py[2].dtype
    np.testing.assert_array_equal(weights, py[2])
    assert identity == py[3]


@needs_c
@pytest.mark.parametrize("case", ["missing", "none", "bool", "numpy", "big-int", "mixed",
                                  "fraction"])
def test_c_reader_declines_what_python_reads(case):
    """Weights the C reader does not take: it answers None, and from_networkx gives what
    the Python passes give (defaults, hidden edges, exact types) or their error."""
    G = nx.path_graph(6, create_using=nx.DiGraph)
    nx.set_edge_attributes(G, 2, "weight")
    value = {"missing": None, "none": None, "bool": True, "numpy": np.int64(3),
             "big-int": 2 ** 70, "mixed": 2.5, "fraction": __import__("fractions").Fraction(1, 3)}[case]
    if case == "missing":
        del G[2][3]["weight"]
    else:
        G[2][3]["weight"] = value
    adj = adjacency(G)
    assert read_rows_in_c(adj, list(adj), "weight") is None
    M = nx.MultiDiGraph(G)
    M.add_edge(0, 1, weight=1)  # a parallel edge beside the one that C declines
    adjm = adjacency(M)
    assert read_rows_in_c(adjm, list(adjm), "weight", True) is None
    py = _python_rows_or_error(G)
    fast_off = _without_c(lambda: _python_rows_or_error(G))
    assert type(py) is type(fast_off)
    if isinstance(py, Exception):
        return
    np.testing.assert_array_equal(py.weights, fast_off.weights)
    np.testing.assert_array_equal(py.indices, fast_off.indices)


def _python_rows_or_error(G):
    try:
        return from_networkx(G, "weight")
    except Exception as err:  # noqa: BLE001 (compared by type with the Python passes')
        return err


def _without_c(fn):
    saved = convert._adjacency
    convert._adjacency = None
    try:
        return fn()
    finally:
        convert._adjacency = saved


@pytest.mark.parametrize("bad,error", [(math.nan, ValueError), (math.inf, NotImplementedError),
                                       (-math.inf, NotImplementedError)])
def test_non_finite_float_weights_refused_either_way(bad, error):
    """NaN and infinite float weights: the same exception, naming the edge, with and
    without the C reader."""
    G = random_graph(3, n=12, p=0.4, weights="float")
    u, v = next(iter(G.edges()))
    G[u][v]["weight"] = bad
    for run in (lambda: from_networkx(G, "weight"),
                lambda: _without_c(lambda: from_networkx(G, "weight"))):
        with pytest.raises(error, match=str((u, v)).replace("(", r"\(").replace(")", r"\)")):
            run()


@pytest.mark.parametrize("labels", ["int", "str", "tuple"])
@pytest.mark.parametrize("weights", ["int", "float", "none"])
def test_from_networkx_same_graph_with_and_without_c(labels, weights):
    """from_networkx's CSRGraph is the same with the C reader as without it: arrays,
    node labels, weight type."""
    for seed in range(5):
        G = random_graph(seed, n=30, p=0.2, labels=labels, weights=weights,
                         disconnected=seed % 2 == 1)
        attr = None if weights == "none" else "weight"
        a = from_networkx(G, attr)
        b = _without_c(lambda: from_networkx(G, attr))
        for name in ("indptr", "indices", "weights"):
            x, y = getattr(a, name), getattr(b, name)
            assert x.dtype == y.dtype
            np.testing.assert_array_equal(x, y)
        assert list(a.nodes) == list(b.nodes)


def test_c_reader_labels_0_to_n_minus_1_in_another_order():
    """Integer labels that are not 0..n-1 in order map through the index."""
    G = nx.DiGraph()
    G.add_nodes_from([2, 0, 1])
    G.add_weighted_edges_from([(2, 0, 5), (0, 1, 7), (1, 2, 1)])
    a = from_networkx(G, "weight")
    assert list(a.nodes) == [2, 0, 1]
    np.testing.assert_array_equal(a.indices, [1, 2, 0])
    assert nx.single_source_dijkstra_path_length(G, 2, backend="gpusp") == {2: 0, 0: 5, 1: 12}


@pytest.mark.parametrize("kind", ["int", "float"])
def test_multigraph_arc_weighs_its_least_parallel_edge(kind):
    """A multigraph arc is its parallel edges' least weight (the first of equals, as
    Python's min), read in C and by the Python passes alike; a NaN among them is refused
    either way as the Python passes refuse it."""
    cast = int if kind == "int" else float
    G = nx.MultiDiGraph()
    G.add_edge("a", "b", weight=cast(5))
    G.add_edge("a", "b", weight=cast(3))
    G.add_edge("a", "b", weight=cast(9))
    G.add_edge("b", "c", weight=cast(2))
    G.add_edge("c", "a", weight=cast(7))
    a, b = from_networkx(G, "weight"), _without_c(lambda: from_networkx(G, "weight"))
    np.testing.assert_array_equal(a.weights, [3, 2, 7])
    assert a.weights.dtype == b.weights.dtype == (np.int64 if kind == "int" else np.float64)
    np.testing.assert_array_equal(a.weights, b.weights)
    assert a.number_of_edges() == b.number_of_edges() == 5
    assert nx.single_source_dijkstra_path_length(G, "a", backend="gpusp") == \
        nx.single_source_dijkstra_path_length(G, "a")
    if kind == "float":  # min(2.0, nan) is 2.0 and min(nan, 1.0) is nan, in Python
        G.add_edge("b", "c", weight=math.nan)
        a, b = from_networkx(G, "weight"), _without_c(lambda: from_networkx(G, "weight"))
        np.testing.assert_array_equal(a.weights, b.weights)
        G.add_edge("c", "d", weight=math.nan)
        G.add_edge("c", "d", weight=1.0)
        for run in (lambda: from_networkx(G, "weight"),
                    lambda: _without_c(lambda: from_networkx(G, "weight"))):
            with pytest.raises(ValueError, match="NaN"):
                run()


@needs_c
@pytest.mark.parametrize("labels", [[0, 2, 1, 3], [0, "a", 2, 3], [0, True, 2, 3],
                                    [0, 1, 2.0, 3], [0, 1, 2, 3], [5, 1, 2, 0]])
@pytest.mark.parametrize("weight", ["weight", None])
def test_c_reader_checks_labels_it_presumes_to_be_positions(labels, weight):
    """Where the first label is 0 and the last n-1, the C reader presumes the labels to be
    the positions 0..n-1 and checks each as it reads (a permuted, str, bool or float
    label in between: it reads again with the label index); its arrays equal the
    Python passes' either way."""
    G = nx.DiGraph()
    G.add_nodes_from(labels)
    for i, u in enumerate(labels):
        for v in labels[i + 1:] + labels[:1]:
            if u != v:
                G.add_edge(u, v, weight=3 + i)
    adj = adjacency(G)
    indptr, indices, weights, identity, edges, index = read_rows_in_c(adj, list(adj), weight)
    positions = all(type(v) is int and v == i for i, v in enumerate(labels))
    assert identity == positions
    assert index == (None if positions else {v: i for i, v in enumerate(labels)})
    assert indices.dtype == np.int32 and edges == G.number_of_edges()
    py = _python_rows(G, weight)
    np.testing.assert_array_equal(indptr, py[0])
    np.testing.assert_array_equal(indices, py[1])
    np.testing.assert_array_equal(weights, py[2])
