"""Kernel table for kernels/paths.cu (predecessor-graph cycle test) and its NumPy twin."""

import numpy as np

from .base import CudaKernelTable, NumpyTwin, scalar

__all__ = ["CudaOps", "NumpyOps"]


def _jumps(n):
    return max(1, int(n).bit_length() + 1)


class CudaOps(CudaKernelTable):
    source = "paths.cu"
    plain = ("init_ancestors", "pointer_jump", "find_cycle_members")
    templates = ()

    def has_predecessor_cycle(self, pred):
        cp = self.cp
        n = int(pred.size)
        nn = scalar(n, np.int32)
        anc = cp.empty(n, dtype=np.int32)
        tmp = cp.empty_like(anc)
        self.launch("init_ancestors", n, (pred, nn, anc))
        for _ in range(_jumps(n)):
            self.launch("pointer_jump", n, (anc, nn, tmp))
            anc, tmp = tmp, anc
        flag = cp.zeros(1, dtype=np.int32)
        self.launch("find_cycle_members", n, (anc, pred, nn, flag))
        return bool(int(flag[0]))


class NumpyOps(NumpyTwin):
    def has_predecessor_cycle(self, pred):
        n = pred.size
        anc = np.where(pred < 0, np.arange(n, dtype=np.int32), pred)
        for _ in range(_jumps(n)):
            anc = anc[anc]
        return bool(np.any((pred >= 0) & (pred[anc] >= 0)))
