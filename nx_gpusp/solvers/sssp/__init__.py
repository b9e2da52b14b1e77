"""Single-source shortest-path drivers, one module per method family (each imported at
the end of this file, which registers its methods)."""

import math
import numbers
import sys

import networkx as nx
import numpy as np

# re-exported: the solvers import them from here
from ...graph import distance_inf, source_indices  # noqa: F401

__all__ = ["SSSPResult", "distance_inf", "cutoff_value", "is_real", "mask_beyond_cutoff",
           "init_sources", "check_negative_cycle", "source_indices"]


class SSSPResult:
    """Device arrays of one single-/multi-source run.

    dist: distances (graph's distance dtype; ``distance_inf`` = unreached).
    pred: int32 predecessor of each vertex in a shortest-path tree (-1 at sources and
    unreached vertices), or None when the method does not produce a valid tree (the
    result layer then derives one, see nx_gpusp.solvers.sssp.tree).
    stats: the run's counts (rounds, launches...). ``late_stats``: a function giving
    the counts still on the device, called at the first read of ``stats``, so that a
    solve need not wait for its last launch (the tree's launches queue behind it).
    int32_dist: where the run ended on int32 distances (near-far's dense phase), those:
    ``dist`` narrowed (unreached: the int32 maximum), which the tree's pass reads; or None.
    """

    __slots__ = ("dist", "pred", "sources", "executor", "int32_dist", "_stats", "_late")

    def __init__(self, dist, pred, sources, executor, stats, int32_dist=None,
                 late_stats=None):
        self.dist, self.pred, self.sources, self.executor = dist, pred, sources, executor
        self.int32_dist, self._stats, self._late = int32_dist, stats, late_stats

    @property
    def stats(self):
        if self._late is not None:
            late, self._late = self._late, None
            self._stats = {**self._stats, **late(self._stats)}
        return self._stats

    def __repr__(self):
        return (f"SSSPResult(dist {self.dist.dtype}{self.dist.shape}, "
                f"{len(self.sources)} source(s), pred {'kept' if self.pred is not None else 'none'})")


def cutoff_value(cutoff, dtype):
    """The largest distance to relax to, in the distance dtype's terms: ``d > cutoff``
    exactly when ``d > cutoff_value(cutoff, dtype)`` for every d of that dtype. No
    cutoff, or NaN (NetworkX's ``d > nan`` is always False), is the dtype's inf; integer
    graphs floor the cutoff, float graphs take the largest float not above it (exact
    for Fraction, Decimal and huge ints); values beyond the dtype's range clamp.
    TypeError for a cutoff that is no real number (NetworkX's comparison fails)."""
    if cutoff is None:
        return distance_inf(dtype)
    if not is_real(cutoff):
        raise TypeError(f"cutoff must be a real number or None, got {cutoff!r} "
                        f"({type(cutoff).__name__})")
    if cutoff != cutoff:  # NaN
        return distance_inf(dtype)
    if np.dtype(dtype).kind == "f":
        try:
            value = float(cutoff)
        except OverflowError:
            return np.inf if cutoff > 0 else -np.inf
        if value > cutoff:  # rounded up (exact comparison for ints, Fraction, Decimal)
            value = float(np.nextafter(value, -np.inf))
        return value
    info = np.iinfo(dtype)
    if cutoff >= info.max:
        return int(info.max)
    if cutoff <= info.min:
        return int(info.min)
    return math.floor(cutoff)


def is_real(value):
    """A real number NetworkX can compare distances with (bool, int, float, numpy
    scalars, Fraction, Decimal); not complex, str or None."""
    if isinstance(value, numbers.Real):
        return True
    decimal = sys.modules.get("decimal")  # not imported here: ~2-7 ms of a first call
    return decimal is not None and isinstance(value, decimal.Decimal)


def mask_beyond_cutoff(ex, dist, sources, cutoff):
    """``dist`` with every vertex beyond ``cutoff`` unreached, except the sources (at 0
    whatever the cutoff, as in NetworkX)."""
    if cutoff is None:
        return dist
    ops = ex.ops("array_ops")
    inf = distance_inf(dist.dtype)
    cut = ops.convert_block(dist.reshape(1, -1), 1, dist.size, dist.dtype,
                            bound=cutoff_value(cutoff, dist.dtype), over=inf).reshape(-1)
    return ops.put(cut, np.asarray(sources, dtype=np.int64), 0)  # a source's own distance


def init_sources(ex, n, sources, dtype):
    """dist (inf, 0 at sources) and pred (-1) on the device."""
    ops = ex.ops("array_ops")
    dist = ops.put(ops.full(n, distance_inf(dtype), dtype), np.asarray(sources, dtype=np.int64), 0)
    return dist, ops.full(n, -1, np.int32)


def check_negative_cycle(ex, pred):
    """Raise NetworkXUnbounded when the predecessor graph has a cycle (= negative cycle)."""
    if ex.ops("paths").has_predecessor_cycle(pred):
        raise nx.NetworkXUnbounded("Negative cycle detected.")


# the method families (after the shared pieces above, which they import)
from . import (bellman_ford, bf_queue, bfs, crauser, delta_stepping,  # noqa: E402, F401
               dijkstra_reduction, frontier, harish, lbr, near_far, phast, spmv)
