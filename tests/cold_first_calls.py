"""The first calls of a machine whose CuPy kernel cache is empty: one table for
tests/test_cold_first_call.py (each call alone in a fresh process, checking that nothing
is compiled) and tools/cold_first_call.sh (the calls of TIMED timed in one process, the
figures of docs/performance.md).

Imports nothing at import time: the tool loads this table before its first timed call,
whose time includes CuPy's import and CUDA's start."""

# name: (graph, the call with backend="gpusp" put at "{}", how to compare with NetworkX)
CALLS = {
    "single_source_dijkstra_path_length(NY, 0)":
        ("NY", "nx.single_source_dijkstra_path_length(G, 0{})", "dict"),
    "single_source_bellman_ford_path_length(NY, 0)":
        ("NY", "nx.single_source_bellman_ford_path_length(G, 0{})", "dict"),
    "floyd_warshall_numpy(path_graph(500))":
        ("path500", "nx.floyd_warshall_numpy(G{})", "matrix"),
    "closeness_centrality(path_graph(500))":
        ("path500", "nx.closeness_centrality(G{})", "floats"),
    "dijkstra_path(NY, 0, 1000)": ("NY", "nx.dijkstra_path(G, 0, 1000{})", "path"),
    "single_source_shortest_path_length(NY, 0)":
        ("NY", "nx.single_source_shortest_path_length(G, 0{})", "dict"),
    "dijkstra_path_length(NY, 0, 1000)":
        ("NY", "nx.dijkstra_path_length(G, 0, 1000{})", "value"),
    "single_source_dijkstra_path_length(NY, 0, cutoff=5000)":
        ("NY", "nx.single_source_dijkstra_path_length(G, 0, cutoff=5000{})", "dict"),
    "all_pairs_shortest_path_length(path_graph(300))":
        ("path300", "dict(nx.all_pairs_shortest_path_length(G{}))", "rows"),
    "floyd_warshall_predecessor_and_distance(path_graph(200))":
        ("path200", "nx.floyd_warshall_predecessor_and_distance(G{})", "fw"),
    "diameter(path_graph(500))": ("path500", "nx.diameter(G{})", "value"),
}

# the calls tools/cold_first_call.sh times, in this order, in one process
TIMED = ("single_source_dijkstra_path_length(NY, 0)",
         "single_source_bellman_ford_path_length(NY, 0)",
         "floyd_warshall_numpy(path_graph(500))",
         "closeness_centrality(path_graph(500))")


def load_graph(graph):
    """'NY' (nx_gpusp.datasets) or 'path<n>' (nx.path_graph(n))."""
    import networkx as nx

    if graph == "NY":
        import nx_gpusp.datasets

        return nx_gpusp.datasets.load("NY")
    return nx.path_graph(int(graph[len("path"):]))


def gpusp_call(name):
    """The source of CALLS[name] with backend="gpusp", to eval with nx and G bound."""
    return CALLS[name][1].format(', backend="gpusp"')
