"""Single-source shortest-path drivers, one module per method family (each imported at
the end of this file, which registers its methods)."""

from dataclasses import dataclass
from typing import Any

import networkx as nx
import numpy as np

from ...graph import distance_inf  # noqa: F401  (re-exported: solvers import it from here)

__all__ = ["SSSPResult", "distance_inf", "cutoff_value", "init_sources", "check_negative_cycle"]


@dataclass
class SSSPResult:
    """Device arrays of one single-/multi-source run.

    dist: distances (graph's distance dtype; ``distance_inf`` = unreached).
    pred: int32 predecessor of each vertex in a shortest-path tree (-1 at sources and
    unreached vertices), or None when the method does not produce a valid tree (the
    result layer then derives one, see nx_gpusp.solvers.sssp.tree).
    """

    dist: Any
    pred: Any
    sources: np.ndarray
    executor: Any
    stats: dict


def cutoff_value(cutoff, dtype):
    """The largest distance to relax to: inf for no cutoff; integer graphs floor a
    float cutoff (NetworkX skips candidates > cutoff)."""
    if cutoff is None:
        return distance_inf(dtype)
    if np.dtype(dtype).kind == "f":
        return float(cutoff)
    if cutoff >= np.iinfo(np.int64).max:
        return np.iinfo(np.int64).max
    return int(np.floor(cutoff))


def init_sources(ex, n, sources, dtype):
    """dist (inf, 0 at sources) and pred (-1) on the device."""
    xp = ex.xp
    dist = xp.full(n, distance_inf(dtype), dtype=dtype)
    src = ex.asarray(np.asarray(sources, dtype=np.int64))
    dist[src] = 0
    pred = xp.full(n, -1, dtype=np.int32)
    return dist, pred


def check_negative_cycle(ex, pred):
    """Raise NetworkXUnbounded when the predecessor graph has a cycle (= negative cycle)."""
    if ex.ops("paths").has_predecessor_cycle(pred):
        raise nx.NetworkXUnbounded("Negative cycle detected.")


# the method families (after the shared pieces above, which they import)
from . import (bellman_ford, bf_queue, bfs, crauser, delta_stepping,  # noqa: E402, F401
               dijkstra_reduction, frontier, harish, lbr, near_far, spmv)
