"""Near-far SSSP with adaptive delta (method "near-far", the default): nx-gpusp's own.

Rounds are those of the frontier engine (snapshot relaxation, predecessors only on a
strict decrease: predecessor cycles are negative cycles) restricted to the "near"
entries, those whose snapshot is below the frontier minimum + delta; the others wait
in the frontier while they stay current. On road networks plain frontier
Bellman-Ford relaxes every arc ~20 times (NY: 15.9M arc relaxations for 0.73M arcs);
near-far relaxes each about once, and rounds stay close to the hop depth of the
shortest-path tree. Small frontiers (<= ``block_cap`` entries) run many rounds inside
one single-block launch, synchronised by __syncthreads only; large ones run one
multi-block round per launch. Delta adapts (x2 / /2) towards one near entry per thread.

Negative weights: correct (any processing order converges), NetworkXUnbounded when a
frontier distance falls below -(n-1)*max|w| (impossible without a negative cycle) or
the predecessor graph has a cycle, checked between launches at doubling intervals.
With deferred entries a round bound of n does not hold, so those two tests decide.

Dense hand-over. When the frontier grows past n / ``dense_fraction`` entries (low-
diameter graphs such as the 7-random-predecessor ones), a queue of scattered entries
costs more per round than a flag scan over all vertices, whose CSR reads are in vertex
order: near-far then hands its distances, predecessors and frontier (as flags) to
Harish's flag rounds (solvers.sssp.harish), which finish the run. Only with
non-negative weights, and only where no vertex has more than SKEW_LIMIT times the mean
out-degree: one thread per vertex stalls on skewed degrees (R-MAT), where near-far's
warp-cooperative expansion wins.
"""

from types import SimpleNamespace

import networkx as nx
import numpy as np

from ...methods import Method, register
from ...ops.near_far import CTL_PARITY, CTL_ROUND, CTL_SIZE, CTL_TOTAL_NEAR, buffers
from . import SSSPResult, cutoff_value, check_negative_cycle, distance_inf, init_sources
from .harish import harish_rounds

__all__ = ["near_far_sssp"]

GRID_TARGET = 1 << 17  # near entries per multi-block round that delta aims at
DENSE_FRACTION = 16  # hand over to flag rounds above n / DENSE_FRACTION frontier entries
SKEW_LIMIT = 32  # ... if no out-degree exceeds SKEW_LIMIT x the mean


def _dense_ok(graph, dense_fraction):
    mean = graph.m / max(graph.n, 1)
    return (dense_fraction > 0 and not graph.has_negative_weights
            and graph.max_out_degree <= SKEW_LIMIT * max(mean, 1.0))


def _hand_over(ex, graph, st, host_ctl, sources, cutoff, want_pred, stats):
    """Harish's flag rounds from near-far's state: every frontier entry's vertex flagged
    (an entry is a vertex whose current distance has not been relaxed yet)."""
    current = buffers(st, int(host_ctl[CTL_PARITY]))[0][: int(host_ctl[CTL_SIZE])]
    flags = ex.xp.zeros(graph.n, dtype=np.uint8)
    flags[current] = 1
    result = harish_rounds(ex, graph, sources, flags, cutoff=cutoff, want_pred=want_pred,
                           start=(st.dist, st.pred))
    dense = result.stats["rounds"]
    result.stats = {**stats, "rounds": stats["rounds"] + dense, "dense_rounds": dense}
    return result


def _initial_delta(graph, dtype):
    mean = graph.mean_abs_weight
    if dtype.kind == "f":
        return float(mean) if mean > 0 else 1.0
    return max(1, int(mean))


def near_far_sssp(ex, graph, sources, *, cutoff=None, want_pred=True, delta=None,
                  block_cap=8192, grid_target=GRID_TARGET, dense_fraction=DENSE_FRACTION):
    xp = ex.xp
    ops = ex.ops("near_far")
    g = graph.on(ex)
    n = graph.n
    dtype = graph.distance_dtype()
    inf = distance_inf(dtype)
    ex.require_bytes(n * (3 * dtype.itemsize + 5 * 4), "near-far SSSP state")
    dist, pred = init_sources(ex, n, sources, dtype)
    negative = graph.has_negative_weights
    track_pred = bool(want_pred or negative)
    cut = cutoff_value(cutoff, dtype)
    srcs = np.unique(np.asarray(sources, dtype=np.int32))
    st = SimpleNamespace(
        dist=dist, pred=pred, stamp=xp.full(n, -1, dtype=np.int32),
        fv=xp.empty(max(n, 1), dtype=np.int32), fd=xp.zeros(max(n, 1), dtype=dtype),
        gv=xp.empty(max(n, 1), dtype=np.int32), gd=xp.empty(max(n, 1), dtype=dtype),
        ctl=xp.zeros(8, dtype=np.int32), tctl=xp.zeros(3, dtype=dtype))
    st.fv[: len(srcs)] = ex.asarray(srcs)
    if delta is None:
        step = _initial_delta(graph, dtype)
    else:
        if not delta > 0:
            raise ValueError(f"near-far: delta must be positive, got {delta!r}")
        step = delta if dtype.kind == "f" else max(1, int(delta))
    host_ctl = np.zeros(8, dtype=np.int32)
    host_ctl[CTL_SIZE] = len(srcs)
    host_tctl = np.array([0, step, inf], dtype=dtype)
    st.ctl[:] = ex.asarray(host_ctl)
    st.tctl[:] = ex.asarray(host_tctl)
    lower_bound = -(n - 1) * max(abs(graph.min_weight), abs(graph.max_weight)) if negative else None
    next_check = 64
    max_rounds = next_check if negative else 1 << 30
    launches = 0
    dense = _dense_ok(graph, dense_fraction)
    while host_ctl[CTL_SIZE] > 0:
        size = int(host_ctl[CTL_SIZE])
        if size <= block_cap:
            ops.block_rounds(g, st, block_cap, max_rounds, track_pred, cut)
        else:
            ops.grid_round(g, st, size, int(host_ctl[CTL_PARITY]), track_pred, cut,
                           grid_target)
        launches += 1
        host_ctl = ex.to_host(st.ctl).copy()
        if dense and int(host_ctl[CTL_SIZE]) * dense_fraction > n:
            return _hand_over(ex, graph, st, host_ctl, sources, cutoff, want_pred,
                              _stats(host_ctl, launches))
        if negative and host_ctl[CTL_SIZE] > 0:
            host_tctl = ex.to_host(st.tctl).copy()
            if host_tctl[0] < lower_bound:
                raise nx.NetworkXUnbounded("Negative cycle detected.")
            if host_ctl[CTL_ROUND] >= next_check:
                check_negative_cycle(ex, pred)
                next_check *= 2
                max_rounds = next_check - int(host_ctl[CTL_ROUND])
    return SSSPResult(dist=dist, pred=pred if want_pred else None,
                      sources=srcs.astype(np.int64), executor=ex,
                      stats=_stats(host_ctl, launches))


def _stats(host_ctl, launches):
    return {"rounds": int(host_ctl[CTL_ROUND]), "launches": launches,
            "near_entries": int(host_ctl[CTL_TOTAL_NEAR])}



register(Method(
    name="near-far", problem="sssp", solver="sssp.near_far:near_far_sssp",
    summary="near-far frontier with adaptive delta; many rounds per single-block launch "
            "while the frontier is small, warp-cooperative multi-block rounds when large, "
            "Harish's flag rounds once it holds a large part of an unskewed graph",
    paper="ours (near-far pile of Davidson et al. 2014 on the frontier engine's invariant)",
    negative_weights=True,
    options={"delta": (None, "initial near-far width (default: mean |weight|); adapts"),
             "block_cap": (8192, "largest frontier run by the single-block launch"),
             "grid_target": (GRID_TARGET, "near entries per multi-block round that delta "
                                          "adapts towards"),
             "dense_fraction": (DENSE_FRACTION, "hand over to Harish's flag rounds above "
                                                "n / dense_fraction frontier entries "
                                                "(non-negative weights, unskewed "
                                                "degrees; 0: never)")}))
