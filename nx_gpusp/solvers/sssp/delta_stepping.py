"""Delta-stepping (Meyer & Sanders) with a per-vertex bucket index array (method
"delta-stepping"; CUDA SSSP paper section 5, papers/README.md section 2).

The host empties the lowest non-empty bucket i: light phases (relax light arcs of the
bucket's members, re-bucket the vertices they lowered) until no vertex re-enters bucket
i, then one heavy phase from R, the vertices removed from bucket i. It is label-correcting:
every lowered vertex is put back in a bucket and relaxes its arcs again, so the result is
exact whatever delta is, zero-weight arcs and float rounding included (a float heavy
candidate that rounds back into bucket i only means bucket i is visited again). The next
bucket is the minimum of the bucket index array.
"""

import numbers

import numpy as np

from ...methods import method
from ...ops.delta_stepping import NO_BUCKET
from . import SSSPResult, cutoff_value, init_sources, source_indices

__all__ = ["delta_stepping_sssp", "bucket_width"]

HEURISTICS = ("median", "mean", "max-over-degree")
DEFAULT_DELTA = "median"


def bucket_width(graph, delta):
    """Delta as a positive value of the distance dtype: a number, or a heuristic of the
    paper (median or mean arc weight, max weight / max out-degree)."""
    if isinstance(delta, str):
        if delta not in HEURISTICS:
            raise ValueError(f"gpusp: delta must be a positive number or one of {HEURISTICS}, "
                             f"got {delta!r}")
        w = graph.weights
        if graph.m == 0:
            value = 1
        elif delta == "median":
            value = float(np.median(w))
        elif delta == "mean":
            value = float(np.mean(w))
        else:
            value = graph.max_weight / max(int(graph.out_degree.max()), 1)
        if value <= 0:  # all-zero (median) weights: any positive width is exact
            positive = w[w > 0]
            value = positive.min().item() if len(positive) else 1
    elif isinstance(delta, numbers.Real) and not isinstance(delta, bool) and delta > 0:
        value = delta
    else:
        raise ValueError(f"gpusp: delta must be a positive number or one of {HEURISTICS}, "
                         f"got {delta!r}")
    if graph.distance_dtype().kind == "f":
        return float(value)
    return max(1, int(np.floor(value)))  # integer weights: w <= floor(delta) iff w <= delta


@method(name="delta-stepping", problem="sssp",
        summary="delta-stepping: light/heavy arcs, per-vertex bucket index array",
        paper="Meyer & Sanders 2003; CUDA SSSP paper (Chinese), section 5",
        options={"delta": (DEFAULT_DELTA, "bucket width: a positive number or a heuristic, "
                                          "'median' (default) or 'mean' arc weight, or "
                                          "'max-over-degree' (max weight / max out-degree)")})
def delta_stepping_sssp(ex, graph, sources, *, cutoff=None, want_pred=True,
                        delta=DEFAULT_DELTA):
    xp = ex.xp
    ops = ex.ops("delta_stepping")
    n = graph.n
    dtype = graph.distance_dtype()
    width = bucket_width(graph, delta)
    ex.require_bytes(n * (dtype.itemsize + 10), "delta-stepping state")
    dist, _ = init_sources(ex, n, sources, dtype)
    cut = cutoff_value(cutoff, dtype)
    g = graph.on(ex)
    bucket = xp.full(n, NO_BUCKET, dtype=np.int64)
    bucket[ex.asarray(np.asarray(sources, dtype=np.int64))] = 0
    lowered = xp.zeros(n, dtype=np.uint8)
    in_r = xp.zeros(n, dtype=np.uint8)
    count = xp.zeros(1, dtype=np.int32)
    buckets = phases = 0
    while True:
        current = int(bucket.min())
        if current == NO_BUCKET:
            break
        buckets += 1
        while True:  # light phases until bucket `current` stays empty
            phases += 1
            count[0] = 0
            ops.relax_light(g, bucket, current, dist, width, lowered, in_r, cut)
            ops.assign_buckets(dist, width, lowered, bucket, current, count)
            if int(count[0]) == 0:
                break
        ops.relax_heavy(g, dist, width, lowered, in_r, cut)
        ops.assign_buckets(dist, width, lowered, bucket, current, count)
    return SSSPResult(dist=dist, pred=None, sources=source_indices(sources),
                      executor=ex, stats={"delta": width, "buckets": buckets,
                                          "light_phases": phases})
