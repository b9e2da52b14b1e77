"""``nx_gpusp.distance_matrix``: shortest-path distances from a list of sources to a
list of targets as one array (an origin-destination matrix), beyond NetworkX's API.

The rows come from an "all-pairs" method (nx_gpusp.solvers.apsp) in batches sized to
the device; each batch's target columns are taken on the device, turned into float64
(unreachable: inf) and copied into the answer, so no more than one batch of full rows
is ever held. With ``nx.config.backends.gpusp.dask_client`` set, the sources are cut
into shares, each computed by a task on a worker, and the answer is a ``dask.array``
whose blocks stay on the workers until asked for.
"""

import networkx as nx
import numpy as np

from .algorithms.common import as_csr, check_weights, configured_executor
from .config import get_config
from .convert import EdgeDataGraph
from .graph import CSRGraph, float_distances
from .solvers.apsp.measures import measure_method
from .solvers.apsp.potentials import refuse_negative_cycles

__all__ = ["distance_matrix", "matrix_task", "ARRAYS"]

ARRAYS = ("numpy", "cupy")
_CACHE_KEY = "nx_gpusp.distance_matrix"  # G.__networkx_cache__ entry: converted graphs


def distance_matrix(G, sources, targets=None, weight="weight", method="auto", *,
                    array="numpy", **options):
    """Shortest-path distances from each of ``sources`` to each of ``targets``.

    Parameters
    ----------
    G : NetworkX graph (directed or not, multigraphs too), or a graph converted for gpusp
        (``nx_gpusp.convert.from_networkx``).
    sources : iterable of nodes (rows, in this order; repeats allowed).
    targets : iterable of nodes (columns, in this order), or None for every node of G in
        NetworkX's node order (``list(G)``).
    weight : edge attribute name (a missing attribute weighs 1), None for hop counts, or
        a function ``weight(u, v, d)`` as in NetworkX's shortest-path functions.
        Negative weights are allowed (Bellman-Ford methods run then).
    method : "auto" or an all-pairs method of gpusp (``python -m nx_gpusp info``
        lists them: "phast-batched", "batched-spmm", ...). "auto" runs phast-batched on
        road networks with integer weights that hold a contraction hierarchy or where
        building one pays for itself at this many sources (see
        nx_gpusp.solvers.apsp.phast_batched), batched-bfs for hop counts, else
        batched-spmm.
    array : "numpy" (default) or "cupy" (the matrix stays on the GPU).
    **options : the method's options (e.g. ``batch=128``).

    Returns
    -------
    float64 array of shape (len(sources), len(targets)): ``M[i, j]`` is the length of a
    shortest path from ``sources[i]`` to ``targets[j]``, ``inf`` where there is none, 0
    on the diagonal of a source and itself. float64 holds every integer distance below
    2**53 exactly; integer weights whose path sums could pass it are refused
    (NotImplementedError) rather than rounded. With a Dask client configured
    (``nx.config.backends.gpusp.dask_client``), a ``dask.array.Array`` of the same
    shape, one block of rows per task, its blocks NumPy (or CuPy with
    ``array="cupy"``) arrays kept on the workers.

    Raises
    ------
    NodeNotFound : a source or target is not in G.
    NetworkXUnbounded : G has a negative cycle (anywhere, as NetworkX's all-pairs
        functions decide; an undirected edge of negative weight is one).
    ValueError : an unknown method or ``array``, or a method that cannot take these
        weights (e.g. phast-batched with float weights).

    Examples
    --------
    An origin-destination matrix of travel times between a few depots and customers on
    a road network (here a grid of streets, travel time in seconds):

    >>> import networkx as nx
    >>> import nx_gpusp
    >>> G = nx.grid_2d_graph(30, 30)
    >>> nx.set_edge_attributes(G, 45, "seconds")
    >>> depots = [(0, 0), (29, 29)]
    >>> customers = [(5, 7), (20, 3), (29, 0)]
    >>> M = nx_gpusp.distance_matrix(G, depots, customers, weight="seconds")
    >>> M.shape
    (2, 3)
    >>> M[0].tolist()  # from depot (0, 0)
    [540.0, 1035.0, 1305.0]

    The nearest depot of every customer is then ``M.argmin(axis=0)``.
    """
    if array not in ARRAYS:
        raise ValueError(f"gpusp distance_matrix: array must be one of {ARRAYS}, got "
                         f"{array!r}")
    graph = _converted(G, weight)
    rows = _indices(graph, sources)
    cols = None if targets is None else _indices(graph, targets)
    width = graph.n if cols is None else len(cols)
    check_weights(graph, "bellman-ford")
    if graph.distance_dtype().kind == "i" and graph.path_bound >= 1 << 53:
        raise NotImplementedError(
            "gpusp distance_matrix: path sums could pass 2**53, which float64 (the "
            "matrix's type) holds exactly; use NetworkX's functions for exact integers")
    m = measure_method(graph, method or get_config().all_pairs_method, negative_ok=True,
                       sources=len(rows))
    opts = m.check_options(options)
    ex = configured_executor()
    if graph.has_negative_weights and len(rows):
        refuse_negative_cycles(ex, graph)  # NetworkXUnbounded, before any task starts
    from .distributed import active_client

    client = active_client()
    if client is not None and len(rows) and width:
        return _dask_matrix(client, graph, rows, cols, width, m, opts, array)
    return matrix_block(ex, graph, rows, cols, m, opts, array)


def _converted(G, weight):
    """The CSRGraph of G for ``weight``: kept in ``G.__networkx_cache__`` (which NetworkX
    clears when G changes) so that later calls reuse it and what it holds, such as a
    contraction hierarchy; a weight function's values are never kept."""
    if isinstance(G, (CSRGraph, EdgeDataGraph)) or callable(weight):
        return as_csr(G, weight)
    if not isinstance(G, nx.Graph):
        raise nx.NetworkXError(f"gpusp distance_matrix: G must be a NetworkX graph, got "
                               f"{type(G).__name__}")
    cache = getattr(G, "__networkx_cache__", None)
    if cache is None or not nx.config.cache_converted_graphs:
        return as_csr(G, weight)
    kept = cache.setdefault(_CACHE_KEY, {})
    graph = kept.get(weight)
    if graph is None:
        graph = kept[weight] = as_csr(G, weight)
    return graph


def _indices(graph, nodes):
    """Vertex indices of ``nodes`` in order; NodeNotFound for one that is not in G."""
    out = []
    for v in nodes:
        idx = graph.index_of(v)
        if idx is None:
            raise nx.NodeNotFound(f"Node {v} not found in graph")
        out.append(idx)
    return np.array(out, dtype=np.int64)


def matrix_block(ex, graph, rows, cols, method, options, array):
    """The matrix of sources ``rows`` x targets ``cols`` (vertex indices; None: every
    vertex) on ``ex``: float64, NumPy or (``array="cupy"``) CuPy."""
    xp = ex.xp if array == "cupy" else np
    if array == "cupy" and not ex.is_cuda:
        raise ValueError("gpusp distance_matrix: array='cupy' needs the CUDA device "
                         "(nx.config.backends.gpusp.device)")
    width = graph.n if cols is None else len(cols)
    out = xp.empty((len(rows), width), dtype=np.float64)
    if not len(rows) or not width:
        return out
    picked = None if cols is None else ex.asarray(cols)
    done = 0
    for batch in method.solver(ex, graph, rows, cutoff=None, want_pred=False, **options):
        block = batch.dist if picked is None else batch.dist[:, picked]
        block = float_distances(block)
        del batch  # its full rows go before the solver allocates the next batch
        out[done:done + len(block)] = block if xp is not np else ex.to_host(block)
        done += len(block)
    return out


def matrix_task(graph, rows, cols, method, options, array, device):
    """A worker's block of rows (run by Dask on the worker's own device)."""
    from .distributed import _task_device, kept_graph
    from .executor import get_executor

    return matrix_block(get_executor(_task_device(device)), kept_graph(graph), rows, cols,
                        method, options, array)


def _dask_matrix(client, graph, rows, cols, width, method, options, array):
    """A dask.array of row blocks, one task per share of the sources, computed on the
    workers and kept there."""
    import dask.array as da

    from .distributed import (RETRIES, _shares, _threads, scattered_graph, worker_device)

    future = scattered_graph(client, graph)
    device = worker_device(get_config().device)
    shares = _shares(rows, _threads(client))
    k = len(shares)
    tasks = client.map(matrix_task, [future] * k, shares, [cols] * k, [method] * k,
                       [options] * k, [array] * k, [device] * k, retries=RETRIES,
                       pure=False)  # one message to the scheduler for every share
    blocks = []
    for share, task in zip(shares, tasks):
        meta = None
        if array == "cupy":
            import cupy

            meta = cupy.empty((0, 0), dtype=np.float64)
        blocks.append(da.from_delayed(task, shape=(len(share), width), dtype=np.float64,
                                      meta=meta))
    return da.concatenate(blocks, axis=0)
