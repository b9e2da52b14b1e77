"""Kernel table for kernels/floyd_warshall_dpx.cu (register-tiled blocked Floyd-Warshall
with DPX add-min) and its NumPy twin, which does the same arithmetic in the same
storage types (int16/int32/int64 with a finite INF sentinel, float32, float64)."""

import numpy as np

from .base import CudaKernelTable, NumpyTwin, scalar

__all__ = ["CudaOps", "NumpyOps", "LANES", "tile_of", "kernel_lane", "minplus_shared_bytes"]

# lane -> (storage dtype, INF sentinel, distances per 32/64-bit word, tile side): the
# 32-bit-word lanes keep an 8x8 register micro-tile per thread (128-tiles), the 64-bit
# lanes a 4x4 one (64-tiles), as kernels/floyd_warshall_dpx.cu's Lane structs say.
# "i53" is integer distances held in float64 (exact below 2**53): the f64 kernels, whose
# add and min run at about twice the rate of the int64 lane's two-word arithmetic.
LANES = {
    "s16x2": (np.dtype(np.int16), 0x3FFF, 2, 128),
    "s32": (np.dtype(np.int32), 0x3FFFFFFF, 1, 128),
    "f32": (np.dtype(np.float32), np.inf, 1, 128),
    "i53": (np.dtype(np.float64), np.inf, 1, 64),
    "i64": (np.dtype(np.int64), 0x3FFFFFFFFFFFFFFF, 1, 64),
    "f64": (np.dtype(np.float64), np.inf, 1, 64),
}
KERNEL_LANE = {"i53": "f64"}  # lanes that run another lane's kernels


def kernel_lane(lane):
    """The lane whose kernels ``lane`` runs (kernels/floyd_warshall_dpx.cu's names)."""
    return KERNEL_LANE.get(lane, lane)


def tile_of(lane):
    return LANES[lane][3]


class CudaOps(CudaKernelTable):
    source = "floyd_warshall_dpx.cu"
    min_arch = 80  # cp.async
    templates = ()
    plain = tuple(f"fw_dpx_{k}_{lane}" for k in ("diagonal", "minplus") for lane in LANES
                  if lane not in KERNEL_LANE)

    def _words(self, d, lane):
        """The matrix as the kernel's words, and words per row."""
        w = d.view(np.uint32) if lane == "s16x2" else d
        return w, scalar(w.shape[1], np.int64)

    def fw_dpx_diagonal(self, d, lane, kb):
        """One block closes tile (kb, kb), its threads' micro-tiles in registers."""
        w, ldw = self._words(d, lane)
        self.kernel(f"fw_dpx_diagonal_{kernel_lane(lane)}")((1,), (16, 16), (
            w, ldw, scalar(kb, np.int32)))

    def fw_dpx_minplus(self, d, lane, kb, phase):
        """Phase 2 or 3 through k-block kb; every lane but s16x2 double-buffers its panels
        in dynamic shared memory (minplus_shared_bytes: 68 KiB for s32)."""
        w, ldw = self._words(d, lane)
        nt = d.shape[0] // tile_of(lane)
        grid = (nt, 2) if phase == 2 else (nt, nt)
        shared = minplus_shared_bytes(lane)
        fn = self.kernel_with_shared(f"fw_dpx_minplus_{kernel_lane(lane)}", None, shared)
        fn(grid, (16, 16), (w, ldw, scalar(kb, np.int32), scalar(phase, np.int32)),
           shared_mem=shared)


KC = 32  # k's of a panel chunk (kernels/floyd_warshall_dpx.cu)


def minplus_shared_bytes(lane):
    """Dynamic shared memory of fw_dpx_minplus for ``lane``: two buffers of an A chunk
    (TILE rows of KC distances plus 16 bytes) and a B chunk (KC rows of TILE); none for
    s16x2, whose panels are static (AsyncPanels in the kernel)."""
    if lane == "s16x2":
        return 0
    tile, size = tile_of(lane), LANES[lane][0].itemsize
    return 2 * (tile * (KC + 16 // size) + KC * tile) * size


def _addmin(a, b, c, lane):
    """min(a + b, c) as the lane's instruction computes it (the integer lanes' sentinels
    are small enough that a sum never overflows; float infinities absorb)."""
    with np.errstate(over="ignore"):
        return np.minimum(a + b, c)


def _block(lane, kb):
    """The rows (or columns) of k-block ``kb``."""
    return slice(kb * tile_of(lane), (kb + 1) * tile_of(lane))


class NumpyOps(NumpyTwin):
    def fw_dpx_diagonal(self, d, lane, kb):
        t = _block(lane, kb)
        tile = d[t, t]
        for k in range(tile_of(lane)):
            np.copyto(tile, _addmin(tile[:, k, None], tile[None, k, :], tile, lane))

    def fw_dpx_minplus(self, d, lane, kb, phase):
        """Phase 2: row and column strips of k-block kb times the closed diagonal tile;
        phase 3: every tile through k-block kb (the strips are closed: no change)."""
        t = _block(lane, kb)
        if phase == 2:
            self._strips(d, lane, t)
            return
        a, b = d[:, t].copy(), d[t, :].copy()
        for k in range(tile_of(lane)):
            np.copyto(d, _addmin(a[:, k, None], b[None, k, :], d, lane))

    @staticmethod
    def _strips(d, lane, t):
        diag = d[t, t].copy()
        row, col = d[t, :], d[:, t]
        row_in, col_in = row.copy(), col.copy()
        for k in range(tile_of(lane)):
            np.copyto(row, _addmin(diag[:, k, None], row_in[None, k, :], row, lane))
            np.copyto(col, _addmin(col_in[:, k, None], diag[None, k, :], col, lane))
