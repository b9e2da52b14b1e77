"""fw-dpx: register-tiled blocked Floyd-Warshall with Hopper DPX add-min (the default).

Integer distances are stored in the narrowest lane whose finite INF sentinel provably
exceeds twice the bound B = (n-1) * max|w| on every simple-path length (see
kernels/floyd_warshall_dpx.cu): int16 pairs, then int32, else int64. Float weights use
float32 where every weight is an integer and 2 x the bound is at most 2**24 (every sum
exact, so equal to NetworkX's float64 answers), else float64 (inexact float32 sums would
not match NetworkX's). With predecessors the simpler "fw-tiled-shared" kernels run
instead (they track p[i][j]).
"""

import numpy as np

from ...methods import method
from ...ops.floyd_warshall_dpx import LANES, tile_of
from .floyd_warshall import blocked_floyd_warshall, refuse_negative_diagonal
from .potentials import refuse_negative_cycles

__all__ = ["dpx_floyd_warshall", "path_bound", "choose_lane"]

SENTINEL_LANES = ("s16x2", "s32")


def path_bound(graph):
    """B = (n-1) * max|w|: no simple path is longer than B or shorter than -B."""
    if graph.m == 0:
        return 0
    return max(graph.n - 1, 0) * max(abs(graph.min_weight), abs(graph.max_weight))


F32_EXACT = 1 << 24  # float32 holds every integer of magnitude up to 2**24 exactly


def _lane_fits(lane, graph):
    floats = graph.weights.dtype.kind == "f"
    if lane == "f64":
        return floats
    if lane == "f32":  # integral float weights whose sums stay exact in float32
        return (floats and bool(np.all(np.floor(graph.weights) == graph.weights))
                and 2 * path_bound(graph) <= F32_EXACT)
    if floats:
        return False
    return lane == "i64" or 2 * path_bound(graph) < LANES[lane][1]


def choose_lane(graph, requested="auto"):
    if requested == "auto":
        return next(lane for lane in LANES if _lane_fits(lane, graph))
    if requested not in LANES:
        raise ValueError(f"gpusp fw-dpx: lane must be 'auto' or one of {sorted(LANES)}")
    if not _lane_fits(requested, graph):
        raise ValueError(f"gpusp fw-dpx: lane {requested!r} cannot hold this graph's "
                         f"distances exactly (path bound {path_bound(graph)})")
    return requested


def padded_matrix(ex, graph, lane):
    """N x N storage matrix, N = n rounded up to the lane's tile: arc weights, 0 on the real
    diagonal (negative cycles, hence negative self-loops, are refused first), INF
    elsewhere and on the padding."""
    dtype, inf = LANES[lane][:2]
    n, tile = graph.n, tile_of(lane)
    d = graph.dense(ex, dtype, inf=inf, size=-(-n // tile) * tile)
    diag = ex.xp.arange(n)
    d[diag, diag] = 0
    return d


@method(name="fw-dpx", problem="floyd-warshall",
        summary="blocked Floyd-Warshall, register-tiled min-plus phases (128-tiles for 32-bit "
                "distances), DPX add-min on int16x2/int32 distances where the path bound "
                "allows, float32 for integral float weights whose sums stay exact",
        paper="Bodra & Khairnar 2025 tiled variant; Hopper DPX (__viaddmin_s32, __viaddmin_s16x2)",
        negative_weights=True,
        options={"lane": ("auto", "distance storage: 'auto', 's16x2', 's32', 'f32', 'i64' or "
                                  "'f64'")})
def dpx_floyd_warshall(ex, graph, *, keep_negative_diagonal, predecessors, lane="auto"):
    if predecessors:
        return blocked_floyd_warshall(ex, graph, keep_negative_diagonal=keep_negative_diagonal,
                                      predecessors=True)
    lane = choose_lane(graph, lane)
    refuse_negative_cycles(ex, graph)
    d = padded_matrix(ex, graph, lane)
    ops = ex.ops("floyd_warshall_dpx")
    for kb in range(d.shape[0] // tile_of(lane)):
        ops.fw_dpx_diagonal(d, lane, kb)
        ops.fw_dpx_minplus(d, lane, kb, 2)
        ops.fw_dpx_minplus(d, lane, kb, 3)
    d = d[:graph.n, :graph.n]
    if lane in SENTINEL_LANES:
        d = ex.xp.where(d > path_bound(graph), np.iinfo(np.int64).max, d.astype(np.int64))
    elif lane == "f32":
        d = d.astype(np.float64)  # exact: every value is an integer below 2**24 (or inf)
    refuse_negative_diagonal(ex, d)
    return d, None
