"""Registration, dispatch, conversion and caching."""

import inspect
import os
import subprocess
import sys

import networkx as nx
import pytest

import nx_gpusp.interface as interface
from nx_gpusp.convert import from_networkx, to_networkx
from nx_gpusp.dispatch import IMPLEMENTATIONS
from nx_gpusp.info import FUNCTIONS, get_info


def test_backend_is_registered():
    assert "gpusp" in nx.utils.backends.backends
    assert nx.utils.backends.backend_info["gpusp"]["backend_name"] == "gpusp"
    assert set(nx.config.backends.gpusp) >= {"device", "dijkstra_method", "bellman_ford_method",
                                              "floyd_warshall_method", "should_run_min_edges"}


def test_info_lists_exactly_the_implemented_functions():
    assert set(get_info()["functions"]) == set(FUNCTIONS) == set(IMPLEMENTATIONS)


@pytest.mark.parametrize("name", sorted(IMPLEMENTATIONS))
def test_signatures_match_networkx(name):
    """Same parameters, in the same order, as NetworkX; gpusp adds only keyword-only
    method options."""
    ours = inspect.signature(IMPLEMENTATIONS[name])
    theirs = inspect.signature(getattr(nx, name).orig_func)
    ours_p = [p for p in ours.parameters.values()
              if p.kind not in (p.KEYWORD_ONLY, p.VAR_KEYWORD)]
    theirs_p = list(theirs.parameters.values())
    assert [p.name for p in ours_p] == [p.name for p in theirs_p]
    assert [p.default for p in ours_p] == [p.default for p in theirs_p]


def test_get_info_does_not_import_cupy():
    code = "import sys, nx_gpusp.info as i; i.get_info(); print('cupy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


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
