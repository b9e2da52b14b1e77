"""Every loop that runs on the device ends, and where it ends early, in NetworkX's
exception: the bound of each, on the twin and on CUDA.

- lbr's depth-first waves: at most ``wave_budget`` descents, then the wave flags its
  stack for the next launch (below a negative cycle an unbounded wave never returned);
- near-far's dense rounds (one cooperative launch): at most dense_round_bound(n)
  rounds, then NetworkXAlgorithmError;
- near-far's team launches: at most 64, 128, ... rounds between negative-cycle tests
  with negative weights, 4n + 64 without (the host launches again);
- the loops whose bound is their structure (a breadth-first level stamps each vertex
  once; the grid barriers of a cooperative launch, whose blocks are all resident) are
  exercised by their own modules' tests.
"""

import time
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from graphs import assert_lengths_equal, random_graph
from nx_gpusp.executor import Executor
from nx_gpusp.graph import CSRGraph
from nx_gpusp.ops.near_far import dense_round_bound
from nx_gpusp.solvers.sssp import distance_inf, init_sources
from nx_gpusp.solvers.sssp.near_far import dense_rounds

GP = {"backend": "gpusp"}
REPRO = Path(__file__).resolve().parents[1].parent / "shared" / "repro"


def _negative_cycle_multigraph(seed):
    """An undirected multigraph with negative edges (each one a negative cycle) among
    many parallel and missing weights, dense enough for deep waves."""
    rng = np.random.default_rng(seed)
    G = nx.MultiGraph()
    G.add_nodes_from(range(17))
    for u, v in rng.integers(0, 17, (230, 2)).tolist():
        data = {} if rng.random() < 0.5 else {"weight": int(rng.integers(-900, 900))}
        G.add_edge(u, v, **data)
    return G


@pytest.mark.parametrize("k", [4, 16, 32])
@pytest.mark.parametrize("seed", range(3))
def test_lbr_deep_waves_under_a_negative_cycle_raise(device, k, seed):
    """Below a negative cycle every visit of a wave lowers its vertex again: k = 32 on a
    17-vertex multigraph never returned before waves had a budget."""
    G = _negative_cycle_multigraph(seed)
    assert nx.negative_edge_cycle(G)
    start = time.perf_counter()
    for call in (nx.goldberg_radzik, nx.single_source_bellman_ford_path_length):
        with pytest.raises(nx.NetworkXUnbounded):
            call(G, 12, weight="weight", method="lbr", k=k, **GP)
    assert time.perf_counter() - start < 60


def test_lbr_reported_hang_raises(device):
    """The reproducer of the reported hang (../shared/repro), run here on the fixture's
    device."""
    path = REPRO / "lbr_k32_negative_cycle_hang.py"
    if not path.is_file():
        pytest.skip(f"reproducer not found at {path}")
    with pytest.raises(nx.NetworkXUnbounded):
        exec(compile(path.read_text(), str(path), "exec"), {})  # noqa: S102


@pytest.mark.parametrize("budget", [1, 3, 50])
@pytest.mark.parametrize("k", [2, 32])
def test_lbr_waves_cut_short_give_networkx_lengths(device, budget, k):
    """Waves out of budget hand their stacks on: the answers stay NetworkX's, with and
    without negative weights (no cycle) and with a cutoff."""
    graphs = [random_graph(800 + i, n=30, p=0.2, negative=i % 2 == 1, multigraph=i % 3 == 0,
                           weights="float" if i % 4 == 2 else "int", zero_fraction=0.2)
              for i in range(6)]
    for G in graphs:
        s = next(iter(G))
        kw = dict(method="lbr", k=k, wave_budget=budget, **GP)
        assert_lengths_equal(nx.single_source_bellman_ford_path_length(G, s, **kw),
                             nx.single_source_bellman_ford_path_length(G, s))
    G = graphs[0]
    assert_lengths_equal(
        nx.single_source_dijkstra_path_length(G, 0, cutoff=9, method="lbr", k=k,
                                              wave_budget=budget, **GP),
        nx.single_source_dijkstra_path_length(G, 0, cutoff=9))


@pytest.mark.parametrize("budget", [0, -1, 2**31])
def test_lbr_wave_budget_is_checked(device, budget):
    G = nx.path_graph(3)
    with pytest.raises(ValueError, match="wave_budget"):
        nx.single_source_bellman_ford_path_length(G, 0, method="lbr", wave_budget=budget,
                                                  **GP)


def test_dense_round_bound():
    assert dense_round_bound(0) == 16
    assert dense_round_bound(1000) == 2016
    assert dense_round_bound(2**31 - 1) == 2**31 - 1


@pytest.mark.parametrize("kind", ["int", "float"])
def test_dense_rounds_end_at_their_bound(device, kind):
    """A path of 200 vertices needs 200 rounds of width 1: with a bound of 5 the rounds
    stop and raise NetworkXAlgorithmError; with the default bound they finish with the
    path's distances."""
    ex = Executor(device)
    n = 200
    w = np.ones(n - 1, np.int64) if kind == "int" else np.full(n - 1, 1.5)
    graph = CSRGraph.from_edge_arrays(n, np.arange(n - 1), np.arange(1, n), w, directed=True)
    dtype = graph.distance_dtype()

    def run(**kw):
        dist, _pred = init_sources(ex, n, [0], dtype)
        flags = ex.xp.zeros(n, dtype=np.uint8)
        flags[0] = 1
        rounds = dense_rounds(ex, graph, dist, flags, distance_inf(dtype), delta=w[0], **kw)
        return rounds, ex.to_host(dist)

    with pytest.raises(nx.NetworkXAlgorithmError, match="bound"):
        run(max_rounds=5)
    rounds, dist = run()
    assert 5 < rounds <= dense_round_bound(n)
    np.testing.assert_array_equal(dist, np.arange(n) * w[0])
