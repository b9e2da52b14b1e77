"""Registration, dispatch, conversion and caching."""

import inspect
import os
import subprocess
import sys

import networkx as nx
import pytest

import nx_gpusp.interface as interface
from graphs import networkx_function
from nx_gpusp.convert import from_networkx, to_networkx
from nx_gpusp.dispatch import IMPLEMENTATIONS
from nx_gpusp.info import FUNCTIONS, get_info
from nx_gpusp.methods import PROBLEMS, methods_for


def test_backend_is_registered():
    assert "gpusp" in nx.utils.backends.backends
    assert nx.utils.backends.backend_info["gpusp"]["backend_name"] == "gpusp"
    assert set(nx.config.backends.gpusp) >= {"device", "dijkstra_method", "bellman_ford_method",
                                              "floyd_warshall_method", "should_run_min_edges"}


def test_info_lists_exactly_the_implemented_functions():
    assert set(get_info()["functions"]) == set(FUNCTIONS) == set(IMPLEMENTATIONS)


def _networkx_module(func):
    """The gpusp algorithms module a NetworkX function belongs in: NetworkX's module under
    networkx.algorithms (shortest_paths' modules by their own name, a subpackage such as
    centrality by the package's)."""
    path = func.__module__.removeprefix("networkx.algorithms.").removeprefix("networkx.generators.")
    return path.removeprefix("shortest_paths.").split(".")[0]


@pytest.mark.parametrize("name", sorted(IMPLEMENTATIONS))
def test_signatures_match_networkx(name):
    """Same name, same parameters (names, kinds, defaults, order) as NetworkX, in the
    algorithms module named after NetworkX's; gpusp adds only a keyword-only ``method``
    and ``**options`` for a method's options."""
    func = IMPLEMENTATIONS[name]
    theirs_func = networkx_function(name).orig_func
    assert func.__name__ == theirs_func.__name__ == name
    assert func.__module__ == f"nx_gpusp.algorithms.{_networkx_module(theirs_func)}"
    ours = inspect.signature(func).parameters
    theirs = inspect.signature(theirs_func).parameters
    shared = [p for p in ours.values() if p.name in theirs]
    assert [(p.name, p.kind, p.default) for p in shared] == \
        [(p.name, p.kind, p.default) for p in theirs.values()]
    extra = [p for p in ours.values() if p.name not in theirs]
    assert all(p.kind is p.VAR_KEYWORD or (p.kind is p.KEYWORD_ONLY and p.name == "method"
                                           and p.default is None) for p in extra), extra


@pytest.mark.parametrize("name", sorted(IMPLEMENTATIONS))
def test_methods_are_documented(name):
    """A function that takes a method names its problems in its decorator, and NetworkX's
    help() lists every method of them (and of none other)."""
    func = IMPLEMENTATIONS[name]
    assert bool(func.methods) == ("method" in inspect.signature(func).parameters)
    doc = networkx_function(name).__doc__
    assert func.doc and doc.count("gpusp : ") == 1
    listed = {m.name for problem in func.methods for m in methods_for(problem)}
    for problem in PROBLEMS:
        for m in methods_for(problem):
            assert (f"'{m.name}'" in doc) == (m.name in listed), m.name


def test_negative_weights_tag_only_where_the_function_takes_them():
    """help() tags methods "[negative weights]" only for functions that accept negative
    weights: NetworkX's Dijkstra functions refuse them whatever the method."""
    assert "[negative weights]" not in nx.single_source_dijkstra.__doc__
    assert "[negative weights]" not in nx.all_pairs_dijkstra_path_length.__doc__
    assert "'near-far' [negative weights]" in nx.single_source_bellman_ford.__doc__
    assert "'near-far' [negative weights]" in nx.shortest_path.__doc__


def test_info_data_is_current():
    """nx_gpusp/_info_data.py is what the decorators and the registry render now (after
    adding or changing a function or a method: python tools/gen_info.py)."""
    from nx_gpusp._info_data import FUNCTIONS as generated
    from nx_gpusp.dispatch import function_docs

    assert generated == function_docs(), "not current: run python tools/gen_info.py"


def test_get_info_does_not_import_cupy():
    code = ("import sys, nx_gpusp.info as i; i.get_info(); "
            "print('cupy' in sys.modules, 'nx_gpusp.solvers' in sys.modules, "
            "'nx_gpusp.algorithms' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False", "False"]


def test_priority_env_var_alone_dispatches_to_gpusp():
    """NETWORKX_BACKEND_PRIORITY=gpusp and unchanged NetworkX code: the backend runs
    (counted by nx_gpusp.dispatch.CALLS), and small graphs stay on NetworkX."""
    code = """
import networkx as nx
from nx_gpusp.dispatch import CALLS
G = nx.gnm_random_graph(400, 3000, seed=3, directed=True)
for u, v, d in G.edges(data=True):
    d["weight"] = (u * 7 + v) % 10 + 1
small = nx.path_graph(5)
r = nx.single_source_dijkstra_path_length(G, 0)
big = CALLS.get("single_source_dijkstra_path_length", 0)
nx.single_source_dijkstra_path_length(small, 0)
after_small = CALLS.get("single_source_dijkstra_path_length", 0)
nx.config.backend_priority.algos = []
assert r == nx.single_source_dijkstra_path_length(G, 0)
print(big, after_small)
"""
    env = dict(os.environ, NETWORKX_BACKEND_PRIORITY="gpusp", NX_GPUSP_DEVICE="cpu",
               NX_GPUSP_SHOULD_RUN_MIN_EDGES="1000")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    big, after_small = map(int, out.stdout.split())
    assert big == 1, "the backend did not run under NETWORKX_BACKEND_PRIORITY=gpusp"
    assert after_small == 1, "should_run must leave tiny graphs to NetworkX"


def test_converted_graph_is_cached_until_the_graph_changes(device, monkeypatch):
    calls = []
    real = interface.from_networkx

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(interface, "from_networkx", counting)
    G = nx.gnm_random_graph(50, 200, seed=4)
    a = nx.single_source_dijkstra_path_length(G, 0, backend="gpusp")
    b = nx.single_source_bellman_ford_path_length(G, 0, backend="gpusp")
    assert a == b and len(calls) == 1
    G.add_edge(0, 49, weight=0.5)
    nx.single_source_dijkstra_path_length(G, 0, backend="gpusp")
    assert len(calls) == 2
    nx.single_source_dijkstra_path_length(G, 0, weight="other", backend="gpusp")
    assert len(calls) == 3  # another weight attribute is another conversion


def test_conversion_details():
    G = nx.MultiDiGraph()
    G.add_edge("a", "b", weight=5)
    G.add_edge("a", "b", weight=2)  # parallel: minimum wins
    G.add_edge("b", ("t", 1))  # missing weight: 1
    G.add_node(frozenset({3}))
    g = from_networkx(G, "weight")
    assert g.n == 4 and g.m == 2 and g.weights.dtype.kind == "i"
    assert list(g.nodes) == list(G)
    assert sorted(g.weights.tolist()) == [1, 2]
    assert from_networkx(nx.Graph([(0, 1, {"weight": 1.5})]), "weight").weights.dtype.kind == "f"
    assert from_networkx(G, None).weighted is False


@pytest.mark.parametrize("directed", [True, False])
def test_convert_round_trip(directed):
    G = nx.gnm_random_graph(30, 80, seed=5, directed=directed)
    for u, v, d in G.edges(data=True):
        d["weight"] = u + v
    H = to_networkx(from_networkx(G, "weight"))
    assert H.is_directed() == directed and list(H) == list(G)

    def weighted_edges(X):
        key = tuple if directed else frozenset
        return {(key((u, v)), d["weight"]) for u, v, d in X.edges(data=True)}

    assert weighted_edges(H) == weighted_edges(G)


def test_backend_graph_is_accepted_directly(device):
    g = from_networkx(nx.path_graph(4), "weight")
    assert nx.single_source_dijkstra_path_length(g, 0) == {0: 0, 1: 1, 2: 2, 3: 3}
