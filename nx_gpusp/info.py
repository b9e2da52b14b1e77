"""``get_info`` for the ``networkx.backend_info`` entry point.

Static on purpose: NetworkX calls it at the end of its own import, so it imports nothing
heavy (no CuPy, no solvers); the configuration is NetworkX's typed Config.
tests/test_interface.py checks it against the functions the backend really registers.
"""

from .config import OPTIONS, default_config, warm_up_at_import

__all__ = ["get_info", "FUNCTIONS"]

_METHOD_DOC = (
    "method : str, optional (default: nx.config.backends.gpusp.<family>_method = 'auto')",
    "    gpusp algorithm variant (see nx_gpusp.methods; e.g. 'frontier'). "
    "Method options are further keyword arguments.",
)

_SSSP = "Runs on the GPU (CuPy) with NumPy twins on the CPU; results match NetworkX."
_MEASURE = ("Batched SSSP from every source on the GPU (bit-parallel BFS or min-plus SpMM), "
            "each batch reduced on the device to per-source sums, counts and maxima; "
            "precomputed sp/e and attr are left to NetworkX.")
_BFS = ("Breadth-first search on the GPU (direction-optimizing or top-down; all pairs by "
        "multi-source BFS, a bit per source); nodes in level order, by node order within "
        "a level.")
_FW = "Blocked Floyd-Warshall on the dense matrix on the GPU; a negative cycle raises NetworkXUnbounded."

# NetworkX function name -> extra documentation
FUNCTIONS = {
    **{name: _SSSP for name in (
        "single_source_dijkstra", "single_source_dijkstra_path",
        "single_source_dijkstra_path_length", "dijkstra_path", "dijkstra_path_length",
        "multi_source_dijkstra", "multi_source_dijkstra_path",
        "multi_source_dijkstra_path_length", "all_pairs_dijkstra",
        "all_pairs_dijkstra_path", "all_pairs_dijkstra_path_length",
        "single_source_bellman_ford", "single_source_bellman_ford_path",
        "single_source_bellman_ford_path_length", "bellman_ford_path",
        "bellman_ford_path_length", "all_pairs_bellman_ford_path",
        "all_pairs_bellman_ford_path_length", "negative_edge_cycle",
        "shortest_path", "shortest_path_length")},
    **{name: _FW for name in (
        "floyd_warshall", "floyd_warshall_numpy", "floyd_warshall_predecessor_and_distance")},
    "johnson": "Bellman-Ford potentials and batched Dijkstra on the GPU; a negative cycle "
               "raises NetworkXUnbounded.",
    # all-pairs measures: batched SSSP from every source, reduced on the device
    **{name: _MEASURE for name in (
        "closeness_centrality", "harmonic_centrality", "eccentricity", "diameter", "radius",
        "center", "periphery", "barycenter", "average_shortest_path_length", "wiener_index",
        "global_efficiency")},
    **{name: _BFS for name in (
        "single_source_shortest_path", "single_source_shortest_path_length",
        "single_target_shortest_path", "single_target_shortest_path_length",
        "all_pairs_shortest_path", "all_pairs_shortest_path_length",
        "bidirectional_shortest_path", "predecessor", "has_path")},
}

# predecessor lists, negative cycles and all shortest paths (tight-arc DAG)
_TIGHT = ("Predecessor lists are the tight arcs of the final distances (the DAG is built "
          "on the GPU); weight functions are evaluated once per arc for each call.")
FUNCTIONS.update({
    "dijkstra_predecessor_and_distance": _TIGHT,
    "bellman_ford_predecessor_and_distance": _TIGHT,
    "goldberg_radzik": "Shortest-path tree of a GPU Bellman-Ford method; None at the source.",
    "find_negative_cycle": "Frontier Bellman-Ford rounds on the GPU until the predecessor "
                           "graph holds a (negative) cycle; first node repeated at the end.",
    "bidirectional_dijkstra": "One GPU search from the source; the path is the one on its "
                              "shortest-path tree.",
    "all_shortest_paths": _TIGHT + " Paths are walked as they are read.",
    "single_source_all_shortest_paths": _TIGHT + " Paths are walked as they are read.",
    "all_pairs_all_shortest_paths": _TIGHT + " One search per node as it is read; each "
                                    "target's paths are walked when read.",
})

# shortest_path(_length) and the all_shortest_paths family already have NetworkX's own
# `method`; find_negative_cycle has a single GPU algorithm
_NO_METHOD_KW = {"shortest_path", "shortest_path_length", "all_shortest_paths",
                 "single_source_all_shortest_paths", "all_pairs_all_shortest_paths",
                 "find_negative_cycle"}


def get_info():
    config = default_config()
    if warm_up_at_import(config):
        from .executor import start_cuda_warm_up

        start_cuda_warm_up(config.device)
    return {
        "backend_name": "gpusp",
        "project": "nx-gpusp",
        "package": "nx_gpusp",
        "url": "https://example.invalid/nx-gpusp",
        "short_summary": "Shortest paths on NVIDIA GPUs (CUDA via CuPy).",
        "description": "GPU shortest paths: Dijkstra family, Bellman-Ford with negative "
                       "weights, Floyd-Warshall, with every method of the papers selectable.",
        "functions": {
            name: {
                "additional_docs": doc,
                "additional_parameters": {} if name in _NO_METHOD_KW else {
                    _METHOD_DOC[0]: _METHOD_DOC[1]},
            }
            for name, doc in FUNCTIONS.items()
        },
        "default_config": config,
        "config_docs": {name: doc for name, (_default, doc) in OPTIONS.items()},
    }
