"""Kernel table for kernels/distance_order.cu (the reached vertices of a search by
non-decreasing distance, ties by index: an LSD radix sort over the bits the range of
distances needs) and its NumPy twin.

The device sort is ours rather than CuPy's ``argsort``: its kernels load with the
others, where CuPy's first sort in a process costs ~40 ms (Thrust's first use) and its
first comparison, ``flatnonzero`` and gather kernels a compiler start of ~20 ms more,
all inside a first call."""

import numpy as np

from ..graph import distance_inf
from .base import BLOCK, CudaKernelTable, NumpyTwin, scalar

__all__ = ["CudaOps", "NumpyOps", "ORDER_TILE"]

ORDER_TILE = BLOCK * 16  # keys a histogram or scatter block takes (distance_order.cu)
RADIX_BITS = 8


class CudaOps(CudaKernelTable):
    source = "distance_order.cu"
    templates = ("order_range", "order_init32", "order_init64")
    types = (np.int64, np.float64, np.int32)
    plain = ("order_histogram<unsigned int>", "order_histogram<unsigned long long>",
             "order_scatter<unsigned int>", "order_scatter<unsigned long long>",
             "order_scan_rows")

    def distance_order(self, dist):
        """int32 vertex indices of the reached vertices (``dist`` not DistTraits' inf),
        by non-decreasing distance, ties in index order (-0.0 equal to 0.0)."""
        cp, n = self.cp, int(dist.size)
        if n == 0:
            return cp.empty(0, dtype=np.int32)
        stats = self.ex.asarray(np.array([np.iinfo(np.uint64).max, 0, 0], dtype=np.uint64))
        self.launch("order_range", n, (dist, scalar(n, np.int64), stats), dtype=dist.dtype,
                    max_blocks=self.resident_blocks("order_range", dist.dtype))
        lo, hi, count = (int(x) for x in self.ex.to_host(stats))
        if count == 0:
            return cp.empty(0, dtype=np.int32)
        span = hi - lo + (count < n)  # the unreached vertices' key, above every reached
        wide = span >= 1 << 32
        ktype = np.uint64 if wide else np.uint32
        keys = [cp.empty(n, dtype=ktype) for _ in range(2)]
        vals = [cp.empty(n, dtype=np.int32) for _ in range(2)]
        self.launch("order_init64" if wide else "order_init32", n, (
            dist, scalar(n, np.int64), scalar(lo, np.uint64), scalar(span, np.uint64),
            keys[0], vals[0]), dtype=dist.dtype)
        tiles = -(-n // ORDER_TILE)
        hist = cp.empty(256 * tiles, dtype=np.uint32)
        totals = cp.empty(256, dtype=np.uint32)
        suffix = "<unsigned long long>" if wide else "<unsigned int>"
        histogram = self.kernel("order_histogram" + suffix)
        scan_rows = self.kernel("order_scan_rows")
        scatter = self.kernel("order_scatter" + suffix)
        passes = -(-max(span.bit_length(), 1) // RADIX_BITS)
        for p in range(passes):
            src, dst = p % 2, (p + 1) % 2
            shift = scalar(p * RADIX_BITS, np.int32)
            histogram((tiles,), (BLOCK,), (keys[src], scalar(n, np.int64), shift, hist,
                                           scalar(tiles, np.int32)))
            scan_rows((256,), (1024,), (hist, scalar(tiles, np.int32), totals))
            scatter((tiles,), (BLOCK,), (keys[src], vals[src], scalar(n, np.int64), shift,
                                         hist, totals, scalar(tiles, np.int32), keys[dst],
                                         vals[dst]))
        return vals[passes % 2][:count]


class NumpyOps(NumpyTwin):
    def distance_order(self, dist):
        reached = np.flatnonzero(dist != distance_inf(dist.dtype))
        # -0.0 + 0.0 is 0.0: the two zeros compare equal, as on the device
        keys = dist[reached] + 0.0 if dist.dtype.kind == "f" else dist[reached]
        return reached[np.argsort(keys, kind="stable")].astype(np.int32)
