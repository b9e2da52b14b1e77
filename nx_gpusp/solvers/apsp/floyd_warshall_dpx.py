"""fw-dpx: register-tiled blocked Floyd-Warshall with Hopper DPX add-min (the default).

Integer distances are stored in the narrowest lane whose finite INF sentinel provably
exceeds twice the bound B = max(n-1, 1) * max|w| on every simple-path length and every
arc weight (see kernels/floyd_warshall_dpx.cu): int16 pairs, then int32, then "i53"
(integers held in float64, every sum exact while 2 x the bound is at most 2**53), then
int64 (its sentinel 2**62 - 1); a larger bound runs the "fw-tiled-shared" kernels.
Float weights use float32 where every weight is an integer and 2 x the bound is at most
2**24 (every sum exact, so equal to NetworkX's float64 answers), else float64 (inexact
float32 sums would not match NetworkX's); with negative arcs they are swept on Johnson's
reweighting (floyd_warshall.sweep_weights), and the lane is chosen for it. With
predecessors the simpler "fw-tiled-shared" kernels run instead (they track p[i][j]).
"""

import numpy as np

from ...methods import method
from ...ops.floyd_warshall_dpx import LANES, tile_of
from .floyd_warshall import (blocked_floyd_warshall, refuse_negative_diagonal, sweep_weights,
                             undo_potentials)

__all__ = ["dpx_floyd_warshall", "path_bound", "choose_lane", "distances_of_lane"]



def path_bound(graph):
    """B = max(n-1, 1) * max|w| (CSRGraph.path_bound): no simple path is longer than B or
    shorter than -B, and no arc weight (self-loops included) is, so every arc fits
    the lane too."""
    return graph.path_bound


F32_EXACT = 1 << 24  # float32 holds every integer of magnitude up to 2**24 exactly
F64_EXACT = 1 << 53  # float64 likewise up to 2**53


def _lane_check(lane, graph):
    """(fits, reason): whether ``lane`` holds every distance of the graph exactly, and
    why (or why not), in words."""
    floats = graph.weights.dtype.kind == "f"
    twice = 2 * path_bound(graph)
    bound = f"2 x the path bound max(n-1, 1) x max|w| is {twice}"
    if lane == "f64":
        return floats, ("float64, as NetworkX sums float weights" if floats else
                        "it holds float weights and this graph's weights are integers")
    if lane == "f32":
        if not floats:
            return False, "it holds integral float weights and this graph's are integers"
        if not bool(np.all(np.floor(graph.weights) == graph.weights)):
            return False, ("it needs every weight to be a whole number (float32 sums of "
                           "fractional weights differ from NetworkX's float64 sums)")
        if twice > F32_EXACT:
            return False, f"float32 sums are exact only up to 2**24 and {bound}"
        return True, f"whole-number weights and {bound} <= 2**24: float32 sums are exact"
    if floats:
        return False, "integer lanes hold integer weights and this graph's are floats"
    if lane == "i53":
        if twice > F64_EXACT:
            return False, f"float64 sums are exact only up to 2**53 and {bound}"
        return True, f"integer weights and {bound} <= 2**53: float64 sums of them are exact"
    inf = LANES[lane][1]
    if twice < inf:
        return True, f"{bound}, below its INF sentinel {inf}"
    return False, f"{bound}, not below its INF sentinel {inf}"


def _lane_fits(lane, graph):
    return _lane_check(lane, graph)[0]


def choose_lane(graph, requested="auto"):
    """The lane ``requested``, or the narrowest that holds the graph ('auto'); None when
    none does (integer weights with 2 x the bound past int64's sentinel: the caller runs
    the fw-tiled-shared kernels)."""
    auto = next((lane for lane in LANES if _lane_fits(lane, graph)), None)
    if requested == "auto":
        return auto
    if requested not in LANES:
        raise ValueError(f"gpusp fw-dpx: lane must be 'auto' or one of {sorted(LANES)}")
    fits, why = _lane_check(requested, graph)
    if not fits:
        instead = ("no lane holds them; lane='auto' runs the fw-tiled-shared kernels"
                   if auto is None else f"the narrowest lane that can is {auto!r} "
                   f"({_lane_check(auto, graph)[1]}); lane='auto' picks it")
        raise ValueError(f"gpusp fw-dpx: lane {requested!r} cannot hold this graph's "
                         f"distances exactly: {why}. {instead[0].upper()}{instead[1:]}")
    return requested


def padded_matrix(ex, graph, lane):
    """N x N storage matrix, N = n rounded up to the lane's tile: arc weights, 0 on the real
    diagonal (negative cycles, hence negative self-loops, are refused first), INF
    elsewhere and on the padding."""
    dtype, inf = LANES[lane][:2]
    n, tile = graph.n, tile_of(lane)
    d = graph.dense(ex, dtype, inf=inf, size=-(-n // tile) * tile)
    return ex.ops("array_ops").set_diagonal(d, n, 0)


def distances_of_lane(ex, d, n, lane, bound):
    """The n x n distances of the lane's padded matrix ``d`` as int64 (``distance_inf``
    unreached: the sentinel lanes' values above ``bound``, the path bound, and i53's
    inf) or float64 (the float lanes: exact, every f32 value an integer below 2**24 or
    inf), a new contiguous matrix."""
    if lane in ("f32", "f64"):
        return ex.ops("array_ops").convert_block(d, n, n, np.float64, bound=np.inf,
                                                 over=np.inf)
    return ex.ops("array_ops").convert_block(d, n, n, np.int64, bound=bound,
                                             over=np.iinfo(np.int64).max)


@method(name="fw-dpx", problem="floyd-warshall",
        summary="blocked Floyd-Warshall, register-tiled min-plus phases (128-tiles for 32-bit "
                "distances), DPX add-min on int16x2/int32 distances where the path bound "
                "allows, float32 for integral float weights whose sums stay exact",
        paper="Bodra & Khairnar 2025 tiled variant; Hopper DPX (__viaddmin_s32, __viaddmin_s16x2)",
        negative_weights=True,
        options={"lane": ("auto", "distance storage: 'auto', 's16x2', 's32', 'f32', 'i53' "
                                  "(integers in float64), 'i64' or 'f64'")})
def dpx_floyd_warshall(ex, graph, *, keep_negative_diagonal, predecessors, lane="auto"):
    if predecessors:
        if lane != "auto":  # a lane that cannot hold the distances says so here too
            choose_lane(graph, lane)
        return blocked_floyd_warshall(ex, graph, keep_negative_diagonal=keep_negative_diagonal,
                                      predecessors=True)
    swept, h = sweep_weights(ex, graph)  # negative cycles refused
    lane = choose_lane(swept, lane)
    if lane is None:  # integer sums past int64's sentinel: the kernels that saturate
        return blocked_floyd_warshall(ex, graph, keep_negative_diagonal=keep_negative_diagonal,
                                      predecessors=False)
    d = padded_matrix(ex, swept, lane)
    ops = ex.ops("floyd_warshall_dpx")
    for kb in range(d.shape[0] // tile_of(lane)):
        ops.fw_dpx_diagonal(d, lane, kb)
        ops.fw_dpx_minplus(d, lane, kb, 2)
        ops.fw_dpx_minplus(d, lane, kb, 3)
    d = distances_of_lane(ex, d, graph.n, lane, path_bound(swept))
    undo_potentials(ex, d, h, graph.n)
    refuse_negative_diagonal(ex, d)
    return d, None
