"""Developer probe: the distance-order radix sort (kernels/distance_order.cu) against
CuPy's ``flatnonzero`` + stable ``argsort`` on the same device arrays (5% unreached),
CUDA events, median of 20 after one warm-up, and whether the orders agree.

Usage: python tools/distance_order_probe.py   (needs a CUDA GPU)
"""

import statistics

import cupy as cp
import numpy as np

from nx_gpusp.executor import get_executor
from nx_gpusp.graph import distance_inf

CASES = ((264_346, 5_000_000, np.int64), (1_070_376, 30_000_000, np.int64),
         (4_000_000, 100_000, np.int64), (1_070_376, None, np.float64),
         (16_777_216, 40, np.int64))


def cupy_order(dist):
    reached = cp.flatnonzero(cp.not_equal(dist, distance_inf(dist.dtype)))
    return reached[cp.argsort(dist[reached], kind="stable")].astype(np.int32)


def timed(f, x, reps=20):
    result = f(x)
    cp.cuda.Device().synchronize()
    times = []
    for _ in range(reps):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        result = f(x)
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end))
    return statistics.median(times), result


def main():
    ops = get_executor("cuda").ops("distance_order")
    rng = np.random.default_rng(0)
    for n, spread, dtype in CASES:
        d = rng.integers(0, spread, n).astype(dtype) if spread else rng.random(n) * 1e4
        d[rng.random(n) < 0.05] = distance_inf(dtype)
        x = cp.asarray(d)
        ours, a = timed(ops.distance_order, x)
        theirs, b = timed(cupy_order, x)
        print(f"n={n} {np.dtype(dtype).name} range={spread}: ours {ours:.3f} ms, "
              f"CuPy {theirs:.3f} ms, equal {bool((a == b).all())}")


if __name__ == "__main__":
    main()
