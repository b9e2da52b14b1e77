"""Backend configuration, reachable as ``nx.config.backends.gpusp``.

Every option can also be set by environment variable ``NX_GPUSP_<OPTION>`` (upper
case) before NetworkX is imported.
"""

import os

__all__ = ["DEFAULT_CONFIG", "get_config"]

# option -> (default, description); the description feeds the README and get_info.
OPTIONS = {
    "device": ("auto", "'auto' (CUDA when CuPy sees a GPU, else NumPy), 'cuda' or 'cpu'"),
    "dijkstra_method": ("auto", "default method for the Dijkstra family"),
    "bellman_ford_method": ("auto", "default method for the Bellman-Ford family"),
    "floyd_warshall_method": ("auto", "default method for Floyd-Warshall"),
    "all_pairs_method": ("auto", "default method for batched all-pairs SSSP"),
    "should_run_min_edges": (
        50_000,
        "automatic dispatch (NETWORKX_BACKEND_PRIORITY) leaves single-source calls on "
        "graphs with fewer arcs than this to NetworkX",
    ),
    "should_run_min_nodes_dense": (
        64,
        "automatic dispatch leaves Floyd-Warshall on graphs with fewer nodes to NetworkX",
    ),
}


def _from_env(name, default):
    raw = os.environ.get(f"NX_GPUSP_{name.upper()}")
    if raw is None:
        return default
    return type(default)(raw)


DEFAULT_CONFIG = {name: _from_env(name, default) for name, (default, _) in OPTIONS.items()}


def get_config():
    """The live configuration object (``nx.config.backends.gpusp``).

    Falls back to a plain namespace of defaults when NetworkX did not register the
    backend (e.g. the package is imported from a checkout without being installed).
    """
    import networkx as nx

    try:
        return nx.config.backends.gpusp
    except AttributeError:
        from types import SimpleNamespace

        return SimpleNamespace(**DEFAULT_CONFIG)
