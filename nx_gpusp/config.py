"""Backend configuration, reachable as ``nx.config.backends.gpusp``.

A typed :class:`networkx.utils.configs.Config`: a value is checked when it is set, so a
typo fails at the assignment with a message naming the option and what it takes. Every
option but ``dask_client`` (a live object) can also be set by the environment variable
``NX_GPUSP_<OPTION>`` (upper case) before NetworkX is imported; a variable that cannot
be read is reported with a warning and the default is kept (NetworkX reads this module
while it is being imported, and an exception here would drop the whole backend).
"""

import os
import re
import warnings

from networkx.utils.configs import Config

__all__ = ["GpuspConfig", "OPTIONS", "DEFAULT_CONFIG", "default_config", "get_config",
           "warm_up_at_import"]

# problem of the method registry that each "<family>_method" option names
METHOD_OPTIONS = {
    "bfs_method": "bfs",
    "dijkstra_method": "sssp",
    "bellman_ford_method": "sssp",
    "floyd_warshall_method": "floyd-warshall",
    "all_pairs_method": "all-pairs",
}

# option -> (default, description); the description feeds get_info and docs/reference/options.md
OPTIONS = {
    "device": ("auto", "'auto' (CUDA when CuPy sees a GPU, else NumPy), 'cuda', "
                       "'cuda:N' (GPU number N) or 'cpu' (the NumPy twins)"),
    "bfs_method": ("auto", "default method of the unweighted (breadth-first) functions"),
    "dijkstra_method": ("auto", "default method of the Dijkstra functions"),
    "bellman_ford_method": ("auto", "default method of the Bellman-Ford functions"),
    "floyd_warshall_method": ("auto", "default Floyd-Warshall method"),
    "all_pairs_method": ("auto", "default method of the all-pairs functions (an "
                                 "all-pairs, Floyd-Warshall or single-source method)"),
    "warm_up": ("auto", "start CUDA (CuPy's import, the context, the default kernels: "
                        "~0.9 s) in a background thread when NetworkX is imported: "
                        "'import', 'off', or 'auto' (when NETWORKX_BACKEND_PRIORITY names "
                        "gpusp)"),
    "lazy_results": (True, "return lazy read-only mappings over the result arrays "
                           "(False: plain dicts, for code that needs isinstance(x, dict) "
                           "or json.dumps)"),
    "should_run_min_edges": (
        50_000,
        "automatic dispatch leaves single-source calls on graphs with fewer arcs than "
        "this to NetworkX"),
    "should_run_min_all_pairs_work": (
        100_000,
        "automatic dispatch leaves all-pairs calls on graphs with n * m below this to "
        "NetworkX (all-pairs work grows with n * m)"),
    "should_run_min_nodes_dense": (
        64,
        "automatic dispatch leaves Floyd-Warshall on graphs with fewer nodes to NetworkX"),
    "hierarchy_cache": (None, "a folder where method 'phast' keeps each contraction "
                              "hierarchy it builds, one file per graph content (nodes, "
                              "edges, weights) and core size, and finds it in later "
                              "processes (None: none kept)"),
    "cpu_min_edges": (
        50_000,
        "without a CUDA GPU (device='auto'): automatic dispatch runs single-source "
        "Dijkstra and Bellman-Ford calls without a target or cutoff on the NumPy twins "
        "from this many arcs (where they were measured faster than NetworkX)"),
    "cpu_min_edges_bfs": (
        200_000,
        "without a CUDA GPU (device='auto'): the same for single-source breadth-first "
        "calls (unweighted)"),
    "dask_client": (None, "a distributed.Client: the all-pairs functions, johnson and the "
                          "all-pairs measures split their sources across its workers "
                          "(None: this process only)"),
    "dask_rows_bandwidth": (
        1_000_000_000,
        "bytes per second at which all-pairs rows reach this process from Dask workers "
        "in other processes: the rows are computed here instead when moving them would "
        "take longer than the workers save (0: always here)"),
}
# options that no environment variable can give (a live object)
NOT_FROM_ENVIRONMENT = ("dask_client",)

_DEVICE = re.compile(r"auto|cpu|cuda(:\d+)?")
WARM_UP = ("auto", "import", "off")
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _check(key, value):
    """``value`` as option ``key`` takes it, or TypeError/ValueError naming the option."""
    default, doc = OPTIONS[key]
    where = f"nx.config.backends.gpusp.{key}"
    if key == "dask_client":
        return _check_client(where, value)
    if key == "hierarchy_cache":
        return _check_folder(where, value)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise TypeError(f"{where} must be True or False, got {value!r}")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{where} must be a non-negative int, got {value!r} ({doc})")
        if value < 0:
            raise ValueError(f"{where} must be a non-negative int, got {value!r} ({doc})")
        return value
    if not isinstance(value, str):
        raise TypeError(f"{where} must be a str, got {value!r}: {doc}")
    if key == "device":
        if not _DEVICE.fullmatch(value):
            raise ValueError(f"{where} must be 'auto', 'cuda', 'cuda:N' or 'cpu', "
                             f"got {value!r}")
        return value
    if key == "warm_up":
        if value not in WARM_UP:
            raise ValueError(f"{where} must be one of {', '.join(map(repr, WARM_UP))}, "
                             f"got {value!r}")
        return value
    if value != "auto":
        _check_method(where, METHOD_OPTIONS[key], key, value)
    return value


def _check_client(where, value):
    """None, or a distributed.Client (distributed is imported only for another value)."""
    if value is None:
        return None
    try:
        from distributed import Client
    except ImportError:
        raise TypeError(f"{where} must be None or a distributed.Client, got {value!r} "
                        "(Dask is not installed: pip install 'nx-gpusp[dask]')") from None
    if not isinstance(value, Client):
        raise TypeError(f"{where} must be None or a distributed.Client, got {value!r} "
                        "(e.g. distributed.Client(LocalCluster()) or "
                        "Client('tcp://scheduler:8786'))")
    return value


def _check_folder(where, value):
    """None, or a folder's path as a str (an empty one: None)."""
    if value is None:
        return None
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value) or None
    raise TypeError(f"{where} must be a folder (str or path) or None, got {value!r}")


def _check_method(where, problem, key, name):
    # the registry, filled by importing the solvers: only for a name other than "auto"
    from . import solvers  # noqa: F401
    from .methods import methods_for

    names = [m.name for m in methods_for(problem)]
    if key == "bellman_ford_method":
        names = [m.name for m in methods_for(problem) if m.negative_weights]
    if key == "all_pairs_method":
        names += [m.name for p in ("floyd-warshall", "sssp") for m in methods_for(p)]
    if name not in names:
        raise ValueError(f"{where}: unknown method {name!r}; choose one of: "
                         + ", ".join(["auto"] + sorted(set(names))))


class GpuspConfig(Config):
    """Configuration of the gpusp backend: ``nx.config.backends.gpusp``.

    Set an option with ``nx.config.backends.gpusp.device = "cpu"``, for a block with
    ``with nx.config.backends.gpusp(device="cpu"): ...``, or before NetworkX is imported
    with the environment variable ``NX_GPUSP_DEVICE=cpu``.
    """

    device: str = "auto"
    bfs_method: str = "auto"
    dijkstra_method: str = "auto"
    bellman_ford_method: str = "auto"
    floyd_warshall_method: str = "auto"
    all_pairs_method: str = "auto"
    warm_up: str = "auto"
    lazy_results: bool = True
    should_run_min_edges: int = 50_000
    should_run_min_all_pairs_work: int = 100_000
    should_run_min_nodes_dense: int = 64
    hierarchy_cache: object = None
    cpu_min_edges: int = 50_000
    cpu_min_edges_bfs: int = 200_000
    dask_client: object = None
    dask_rows_bandwidth: int = 1_000_000_000

    def _on_setattr(self, key, value):
        if key not in OPTIONS:
            raise AttributeError(f"Invalid config name: {key!r}; gpusp's options are "
                                 + ", ".join(OPTIONS))
        return _check(key, value)


def _parse_env(key, raw):
    """The value of ``NX_GPUSP_<KEY>=raw``: bools as 1/0/true/false/yes/no/on/off, ints
    also as 1e5 or 100_000."""
    default = OPTIONS[key][0]
    text = raw.strip()
    if isinstance(default, bool):
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise ValueError(f"expected true or false, got {raw!r}")
    if isinstance(default, int):
        try:
            return int(text.replace("_", ""))
        except ValueError:
            number = float(text)
            if not number.is_integer():
                raise ValueError(f"expected a whole number, got {raw!r}") from None
            return int(number)
    return text


def _from_environment():
    values = {}
    for key in OPTIONS:
        if key in NOT_FROM_ENVIRONMENT:
            continue
        var = f"NX_GPUSP_{key.upper()}"
        raw = os.environ.get(var)
        if raw is None:
            continue
        try:
            values[key] = _check(key, _parse_env(key, raw))
        except (TypeError, ValueError) as err:
            warnings.warn(f"nx_gpusp: ignoring {var}={raw!r} ({err}); using the default "
                          f"{OPTIONS[key][0]!r}", RuntimeWarning, stacklevel=2)
    return values


def default_config():
    """A fresh configuration: the defaults, overridden by NX_GPUSP_* variables."""
    return GpuspConfig(**{**{k: d for k, (d, _) in OPTIONS.items()}, **_from_environment()})


DEFAULT_CONFIG = {k: d for k, (d, _) in OPTIONS.items()}


def warm_up_at_import(cfg):
    """Whether ``cfg`` asks for CUDA's start when NetworkX is imported."""
    if cfg.warm_up == "import":
        return True
    if cfg.warm_up != "auto":
        return False
    priority = ",".join(v for k, v in os.environ.items()
                        if k.startswith("NETWORKX_BACKEND_PRIORITY"))
    return "gpusp" in (x.strip() for x in priority.split(","))


def get_config():
    """The live configuration (``nx.config.backends.gpusp``), or a fresh one when
    NetworkX did not register the backend (the package imported from a checkout that
    is not installed)."""
    import networkx as nx

    try:
        return nx.config.backends.gpusp
    except AttributeError:
        global _UNREGISTERED
        if _UNREGISTERED is None:
            _UNREGISTERED = default_config()
        return _UNREGISTERED


_UNREGISTERED = None
