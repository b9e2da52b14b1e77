"""All-pairs measures reduced on the device: per-source statistics of batched SSSP.

Closeness, harmonic centrality, eccentricity, Wiener index, efficiency and the average
shortest-path length need, for every source, a few numbers about its row of distances,
never the row itself. An "all-pairs" method (nx_gpusp.solvers.apsp) yields B x n
distance blocks on the device; each block is reduced there to per-source statistics
(int64 rows whose sums fit int64 in one fused pass, nx_gpusp.ops.row_statistics; other
rows and the column statistic with ``xp`` reductions: CuPy on a GPU, NumPy on the
twin), and only those small arrays are copied to the host:

=====================  =====  ==============================================================
statistic              shape  value
=====================  =====  ==============================================================
``reached``            B      vertices the source reaches (itself included)
``sum``                B      sum of the finite distances (exact for integer distances)
``max``                B      largest distance, ``distance_inf`` when a vertex is unreached
``inverse_sum``        B      sum of 1/d over reached vertices at d != 0 (in ``columns``
                              only, when given)
``column_inverse_sum`` n      per target vertex, sum of 1/d over the sources reaching it
                              at d != 0
=====================  =====  ==============================================================

The work splits by sources: :func:`reduce_batch` is a pure function of (graph, sources,
measure, options) returning a :class:`Partial` of host arrays, and :func:`combine`
merges partials (row statistics concatenated in the given order, column statistics
summed), so shares of the sources can run anywhere (one device, or one per worker) and
meet in one ``combine``.
"""

from dataclasses import dataclass, field

import numpy as np

from ...graph import distance_inf
from ...methods import choose, get_method
from .floyd_warshall_dpx import path_bound

__all__ = ["ROW_STATISTICS", "COLUMN_STATISTICS", "Partial", "measure_method",
           "reduce_source_batch", "queue_source_batch", "iter_partials", "reduce_batch",
           "combine", "PART_SOURCES"]

ROW_STATISTICS = ("reached", "sum", "max", "inverse_sum")
COLUMN_STATISTICS = ("column_inverse_sum",)
# entries of the B x n block reduced at a time (bounds the reductions' temporaries)
REDUCE_ENTRIES = 1 << 25
PART_SOURCES = 16384  # sources of the batches whose statistics iter_partials hands on
# at once (the host waits for a part's copies once, not once a batch)
INT64_LIMIT = 1 << 63
LOW_BITS = 32


@dataclass
class Partial:
    """Statistics of some sources, on the host: ``rows[name]`` has one entry per source
    (in ``sources`` order), ``columns[name]`` one per vertex (summed over the sources)."""

    sources: np.ndarray
    rows: dict = field(default_factory=dict)
    columns: dict = field(default_factory=dict)


def measure_method(graph, requested=None, *, negative_ok=False, sources=None):
    """The all-pairs Method for a measure over ``sources`` sources (a count):
    ``requested`` (a name; None or "auto" picks), else the bit-parallel "batched-bfs" on
    unweighted graphs where it is registered, else choose("all-pairs", "auto")
    (batched-spmm, or phast-batched on road networks with a hierarchy or enough sources
    to repay building one: methods._auto_all_pairs)."""
    if requested in (None, "auto") and not graph.weighted:
        bfs = get_method("all-pairs", "batched-bfs")
        if bfs is not None:
            return bfs
    return choose("all-pairs", requested, graph, negative_ok=negative_ok, sources=sources)


def _check_measure(measure):
    unknown = set(measure) - set(ROW_STATISTICS) - set(COLUMN_STATISTICS)
    if unknown:
        raise ValueError(f"gpusp: unknown statistic(s) {sorted(unknown)}; choose from "
                         f"{ROW_STATISTICS + COLUMN_STATISTICS}")


def _sum_fits_int64(graph, dtype):
    """True for float distances, and for integer ones when no row sum (n distances of
    at most the path bound) can overflow int64."""
    return np.dtype(dtype).kind == "f" or graph.n * max(path_bound(graph), 1) < INT64_LIMIT


def _row_sums(ex, dist, reached, fits_int64):
    """Row sums of the finite distances: float64 or int64, or (too large for int64) an
    object array of Python ints from the high and low 32-bit halves summed apart."""
    xp = ex.xp
    finite = xp.where(reached, dist, 0)
    if finite.dtype.kind == "f":
        return ex.to_host(finite.sum(axis=1))
    finite = finite.astype(np.int64, copy=False)
    if fits_int64:
        return ex.to_host(finite.sum(axis=1))
    high = ex.to_host((finite >> LOW_BITS).sum(axis=1))  # |high| < 2**31: sums fit
    low = ex.to_host((finite & ((1 << LOW_BITS) - 1)).sum(axis=1))
    return np.array([h * (1 << LOW_BITS) + lo for h, lo in zip(high.tolist(), low.tolist())],
                    dtype=object)


def _inverse(xp, dist, mask):
    """1/d where ``mask``, 0 elsewhere (float64; no division by zero or by "inf"). 1/d of
    a subnormal d is inf, as in Python (NumPy's overflow warning is silenced)."""
    with np.errstate(over="ignore"):
        return xp.where(mask, 1.0 / xp.where(mask, dist, 1).astype(np.float64), 0.0)


def reduce_source_batch(ex, graph, batch, measure, columns=None):
    """The statistics ``measure`` of one SourceBatch, reduced on its device in row
    slices of at most REDUCE_ENTRIES entries; a Partial of host arrays.
    ``columns``: device bool n-vector restricting ``inverse_sum`` (None: every vertex)."""
    return queue_source_batch(ex, graph, batch, measure, columns)()


def queue_source_batch(ex, graph, batch, measure, columns=None):
    """:func:`reduce_source_batch` queued: a function returning its Partial. The fused
    statistics (integer rows) are copied to the host asynchronously, so the host can
    queue the next batch before this one has finished; the other paths copy at once."""
    xp = ex.xp
    dist = batch.dist
    b, n = len(batch.sources), graph.n
    inf = distance_inf(dist.dtype)
    fits_int64 = _sum_fits_int64(graph, dist.dtype)
    rows = {name: [] for name in measure if name in ROW_STATISTICS}
    cols = {name: None for name in measure if name in COLUMN_STATISTICS}
    # integer rows whose sums fit int64: every row statistic in one pass
    # (ops/row_statistics, no temporaries: one call for the whole batch on CUDA)
    fused = np.dtype(dist.dtype) == np.int64 and fits_int64
    # (column statistics form float64 temporaries of the slice: always in slices)
    step = b if fused and ex.is_cuda and not cols else max(1, REDUCE_ENTRIES // max(n, 1))
    for start in range(0, b, step):
        d = dist[start:start + step]
        if fused:
            found = ex.ops("row_statistics").statistics(d, columns)
            for name, value in zip(ROW_STATISTICS, found):
                if name in rows:
                    rows[name].append(ex.to_host_async(value))
        if fused and not cols:
            continue
        reached = d != inf
        if not fused:
            if "reached" in rows:
                rows["reached"].append(ex.to_host(reached.sum(axis=1)))
            if "sum" in rows:
                rows["sum"].append(_row_sums(ex, d, reached, fits_int64))
            if "max" in rows:
                rows["max"].append(ex.to_host(d.max(axis=1)))
        positive = reached & (d != 0)
        if "inverse_sum" in rows and not fused:
            mask = positive if columns is None else positive & columns[None, :]
            rows["inverse_sum"].append(ex.to_host(_inverse(xp, d, mask).sum(axis=1)))
        if "column_inverse_sum" in cols:
            part = _inverse(xp, d, positive).sum(axis=0)
            acc = cols["column_inverse_sum"]
            cols["column_inverse_sum"] = part if acc is None else acc + part
    sources = np.asarray(batch.sources, dtype=np.int64)

    def finish():
        out_rows = {name: np.concatenate([p() if callable(p) else p for p in parts])
                    if parts else np.zeros(0) for name, parts in rows.items()}
        out_cols = {name: ex.to_host(acc) if acc is not None else np.zeros(n)
                    for name, acc in cols.items()}
        return Partial(sources, out_rows, out_cols)

    return finish


def iter_partials(ex, graph, sources, measure, options):
    """Partials of ``sources`` (host vertex indices) in their order, each of whole
    device batches, about PART_SOURCES sources: a batch's statistics reach the host
    while the next batch runs (queue_source_batch), so the device does not wait for
    the host between batches.

    options: "method" (an all-pairs method name), "method_options" (its options),
    "columns" (host vertex indices that ``inverse_sum`` counts; absent or None: all).
    """
    _check_measure(measure)
    method = get_method("all-pairs", options["method"])
    if method is None:
        raise ValueError(f"gpusp: unknown all-pairs method {options['method']!r}")
    columns = options.get("columns")
    if columns is not None:
        mask = np.zeros(graph.n, dtype=bool)
        mask[np.asarray(columns, dtype=np.int64)] = True
        columns = ex.asarray(mask)
    batches = method.solver(ex, graph, np.asarray(sources, dtype=np.int64), cutoff=None,
                            want_pred=False,
                            **method.check_options(options.get("method_options") or {}))
    queued = []  # (sources, finish) of the batches queued and not yet handed on
    for batch in batches:
        queued.append((len(batch.sources), queue_source_batch(ex, graph, batch, measure,
                                                              columns)))
        del batch  # free its B x n distances before the solver allocates the next batch
        if sum(size for size, _ in queued[:-1]) >= PART_SOURCES:
            done, queued = queued[:-1], queued[-1:]  # the last batch runs meanwhile
            yield combine([finish() for _, finish in done])
    if queued:
        yield combine([finish() for _, finish in queued])


def combine(partials):
    """Merge Partials: row statistics concatenated (in the order given), column
    statistics summed."""
    partials = list(partials)
    if not partials:
        raise ValueError("gpusp: nothing to combine (no sources)")
    first = partials[0]
    rows = {name: np.concatenate([p.rows[name] for p in partials]) for name in first.rows}
    columns = {name: sum(p.columns[name] for p in partials) for name in first.columns}
    return Partial(np.concatenate([p.sources for p in partials]), rows, columns)


def reduce_batch(ex, graph, sources, measure, options):
    """The statistics ``measure`` of ``sources``, as one Partial of host arrays: a pure
    function of its arguments (one device's share of a distributed run)."""
    return combine(iter_partials(ex, graph, sources, measure, options))

