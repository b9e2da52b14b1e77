"""Kernel table for kernels/bf_queue.cu (work-queue Bellman-Ford, one batch per launch)
and its NumPy twin."""

import numpy as np

from .base import CudaKernelTable, NumpyTwin, scalar
from .bellman_ford import arc_candidates, relax_min

__all__ = ["CudaOps", "NumpyOps"]


class CudaOps(CudaKernelTable):
    source = "bf_queue.cu"
    templates = ("queue_relax_batch",)

    def relax_batch(self, g, batch, dist, in_queue, queue, counters, slf, slf_ref, cutoff,
                    relaxations):
        T = dist.dtype
        size = int(batch.size)
        self.launch("queue_relax_batch", size, (
            g.indptr, g.indices, g.weights, batch, scalar(size, np.int32), dist, in_queue,
            queue, scalar(g.n, np.int32), counters, scalar(slf, np.int32),
            scalar(slf_ref, np.float64), scalar(cutoff, T), relaxations), dtype=T)


class NumpyOps(NumpyTwin):
    def relax_batch(self, g, batch, dist, in_queue, queue, counters, slf, slf_ref, cutoff,
                    relaxations):
        batch = batch.astype(np.int64)
        relaxations[0] += np.uint64(int((g.indptr[batch + 1] - g.indptr[batch]).sum()))
        _owner, heads, cand = arc_candidates(g, batch, dist[batch], cutoff)
        lowered = relax_min(dist, heads, cand)
        new = lowered[in_queue[lowered] == 0]
        in_queue[new] = 1
        front = (dist[new] < slf_ref) if slf else np.zeros(len(new), dtype=bool)
        n = g.n
        head, tail = int(counters[0]), int(counters[1])
        k = int(front.sum())
        queue[(head - k + np.arange(k)) % n] = new[front]
        back = new[~front]
        queue[(tail + np.arange(len(back))) % n] = back
        counters[0], counters[1] = head - k, tail + len(back)
