"""Kernel table for kernels/delta_stepping.cu (delta-stepping with a bucket index array)
and its NumPy twin."""

import numpy as np

from .base import CudaKernelTable, NumpyTwin, gather_arcs, scalar

__all__ = ["CudaOps", "NumpyOps", "NO_BUCKET"]

NO_BUCKET = np.iinfo(np.int64).max


class CudaOps(CudaKernelTable):
    source = "delta_stepping.cu"
    templates = ("relax_light", "relax_heavy", "assign_buckets")

    def relax_light(self, g, bucket, current, dist, delta, lowered, in_r, cutoff):
        T = dist.dtype
        self.launch("relax_light", g.n, (
            g.indptr, g.indices, g.weights, scalar(g.n, np.int32), bucket,
            scalar(current, np.int64), dist, scalar(delta, T), lowered, in_r,
            scalar(cutoff, T)), dtype=T)

    def relax_heavy(self, g, dist, delta, lowered, in_r, cutoff):
        T = dist.dtype
        self.launch("relax_heavy", g.n, (
            g.indptr, g.indices, g.weights, scalar(g.n, np.int32), dist, scalar(delta, T),
            lowered, in_r, scalar(cutoff, T)), dtype=T)

    def assign_buckets(self, dist, delta, lowered, bucket, current, count):
        T = dist.dtype
        n = dist.size
        self.launch("assign_buckets", n, (
            scalar(n, np.int32), dist, scalar(delta, T), lowered, bucket,
            scalar(current, np.int64), count), dtype=T)


class NumpyOps(NumpyTwin):
    def relax_light(self, g, bucket, current, dist, delta, lowered, in_r, cutoff):
        members = np.flatnonzero(bucket == current)
        bucket[members] = NO_BUCKET
        in_r[members] = 1
        _relax_arcs(g, members, dist, delta, True, lowered, cutoff)

    def relax_heavy(self, g, dist, delta, lowered, in_r, cutoff):
        members = np.flatnonzero(in_r)
        in_r[members] = 0
        _relax_arcs(g, members, dist, delta, False, lowered, cutoff)

    def assign_buckets(self, dist, delta, lowered, bucket, current, count):
        v = np.flatnonzero(lowered)
        lowered[v] = 0
        b = bucket_of(dist[v], delta)
        bucket[v] = b
        count[0] += int(np.count_nonzero(b == current))


def bucket_of(d, delta):
    """floor(d / delta) as int64, as the kernel computes it."""
    if d.dtype.kind == "f":
        with np.errstate(over="ignore"):  # d / delta may pass the float maximum: inf
            q = np.floor(d / delta)
        far = ~(q < 9.0e18)
        b = np.where(far, 0.0, q).astype(np.int64)
        b[far] = NO_BUCKET - 1  # in int64: as a float it is 2**63, which int64 cannot hold
        return b
    return d // delta


def _relax_arcs(g, tails, dist, delta, light, lowered, cutoff):
    owner, arcs = gather_arcs(g.indptr, tails)
    w = g.weights[arcs]
    keep = (w <= delta) == light
    heads = g.indices[arcs[keep]]
    cand = dist[tails[owner[keep]]] + w[keep]
    ok = (cand <= cutoff) & (cand < dist[heads])
    heads, cand = heads[ok], cand[ok]
    np.minimum.at(dist, heads, cand)
    lowered[heads] = 1
