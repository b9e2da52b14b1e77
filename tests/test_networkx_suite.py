"""NetworkX's own shortest-path, all-pairs measure, reachability and simple-path tests, run
through the backend, with a guard that the backend really ran (a dispatch counter written by the
nx_gpusp.testing plugin)."""

import json
import os
import re
import subprocess
import sys

import pytest

# Functions that NetworkX's suite must have sent to gpusp at least once.
MUST_RUN = {
    "single_source_dijkstra", "single_source_dijkstra_path_length", "dijkstra_path",
    "dijkstra_path_length", "single_source_bellman_ford",
    "single_source_bellman_ford_path_length", "bellman_ford_path_length",
    "negative_edge_cycle", "floyd_warshall", "floyd_warshall_numpy",
    "floyd_warshall_predecessor_and_distance", "shortest_path", "shortest_path_length",
    "average_shortest_path_length",
    # unweighted (breadth-first search)
    "single_source_shortest_path", "single_source_shortest_path_length",
    "single_target_shortest_path", "single_target_shortest_path_length",
    "all_pairs_shortest_path", "all_pairs_shortest_path_length",
    "bidirectional_shortest_path", "predecessor", "has_path",
    # predecessor lists, negative cycles, all shortest paths
    "bidirectional_dijkstra", "dijkstra_predecessor_and_distance",
    "bellman_ford_predecessor_and_distance", "goldberg_radzik", "find_negative_cycle",
    "all_shortest_paths", "single_source_all_shortest_paths", "all_pairs_all_shortest_paths",
    "astar_path", "astar_path_length",
}


# NetworkX's tests of the all-pairs measures (and the functions each must send to gpusp)
MEASURE_MODULES = [
    "networkx.algorithms.centrality.tests.test_closeness_centrality",
    "networkx.algorithms.centrality.tests.test_harmonic_centrality",
    "networkx.algorithms.tests.test_distance_measures",
    "networkx.algorithms.tests.test_efficiency",
    "networkx.algorithms.tests.test_wiener",
    "networkx.algorithms.tests.test_vitality",
    "networkx.algorithms.centrality.tests.test_betweenness_centrality",
    "networkx.algorithms.centrality.tests.test_betweenness_centrality_subset",
    "networkx.algorithms.centrality.tests.test_load_centrality",
]
# NetworkX's tests of the DAG functions, breadth-first search and connected components
# (reachability)
REACHABILITY_MODULES = [
    "networkx.algorithms.tests.test_dag",
    "networkx.algorithms.traversal.tests.test_bfs",
    "networkx.algorithms.components.tests.test_connected",
    "networkx.generators.tests.test_ego",
    "networkx.algorithms.tests.test_voronoi",
]
REACHABILITY_MUST_RUN = {"descendants", "ancestors", "descendants_at_distance",
                         "node_connected_component", "bfs_edges", "bfs_tree",
                         "bfs_predecessors", "bfs_successors", "bfs_layers",
                         "ego_graph", "voronoi_cells"}  # NetworkX calls generic_bfs_edges itself
MEASURES_MUST_RUN = {
    "closeness_centrality", "harmonic_centrality", "eccentricity", "diameter", "radius",
    "center", "periphery", "barycenter", "wiener_index", "global_efficiency",
    "local_efficiency", "closeness_vitality",
    "betweenness_centrality", "edge_betweenness_centrality", "betweenness_centrality_subset",
    "edge_betweenness_centrality_subset", "newman_betweenness_centrality",
}


def run_networkx_tests(tmp_path, device, modules):
    """NetworkX's tests in ``modules`` through the backend on ``device``: (pytest's
    summary line, {function: calls into gpusp})."""
    from nx_gpusp.executor import cuda_available

    if device == "cuda" and not cuda_available():
        pytest.skip("no CUDA GPU (CuPy) here")
    log = tmp_path / "calls.json"
    env = dict(os.environ, NETWORKX_TEST_BACKEND="gpusp", NETWORKX_FALLBACK_TO_NX="True",
               NX_GPUSP_DISPATCH_LOG=str(log), NX_GPUSP_DEVICE=device)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--pyargs", *modules,
         "-q", "-p", "no:cacheprovider", "-p", "nx_gpusp.testing"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    summary = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else proc.stderr[-2000:]
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
    assert " passed" in summary and not re.search(r"\b\d+ (failed|error)", summary), summary
    return summary, json.loads(log.read_text())


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=pytest.mark.gpu)])
def test_networkx_shortest_path_suite_through_backend(tmp_path, device):
    summary, calls = run_networkx_tests(tmp_path, device, ["networkx.algorithms.shortest_paths"])
    missing = MUST_RUN - {name for name, count in calls.items() if count > 0}
    assert not missing, f"backend never ran: {sorted(missing)} ({summary})"
    assert sum(calls.values()) > 200, calls


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=pytest.mark.gpu)])
def test_networkx_measure_suites_through_backend(tmp_path, device):
    summary, calls = run_networkx_tests(tmp_path, device, MEASURE_MODULES)
    missing = MEASURES_MUST_RUN - {name for name, count in calls.items() if count > 0}
    assert not missing, f"backend never ran: {sorted(missing)} ({summary})"
    assert sum(calls.values()) > 1000, calls


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=pytest.mark.gpu)])
def test_networkx_reachability_suites_through_backend(tmp_path, device):
    summary, calls = run_networkx_tests(tmp_path, device, REACHABILITY_MODULES)
    missing = REACHABILITY_MUST_RUN - {name for name, count in calls.items() if count > 0}
    assert not missing, f"backend never ran: {sorted(missing)} ({summary})"


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=pytest.mark.gpu)])
def test_networkx_simple_paths_suite_through_backend(tmp_path, device):
    summary, calls = run_networkx_tests(tmp_path, device,
                                        ["networkx.algorithms.tests.test_simple_paths"])
    assert calls.get("shortest_simple_paths", 0) > 10, (calls, summary)
