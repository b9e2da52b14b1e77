"""The plan for all-pairs rows on a Dask cluster: compute them on the workers, or here.

Rows that workers in other processes compute must reach the caller through a socket:
measured on 2 H200s, 4 GiB of rows (4,096 sources of a 1M-vertex graph) took 4.98 s
from a 2-process cluster against one GPU's 2.29 s. Workers in the caller's process
(``LocalCluster(processes=False)``, ``nx_gpusp.distributed.local_gpu_client``) hand
rows over by reference and always get the work. For workers in other processes,
nx_gpusp.distributed computes the first shares here, timed, and :func:`rows_here`
decides where the rest goes:

- one device's cost of a call is modelled as ``a + c * sources``: ``a`` a batch's fixed
  cost (a batched method's rounds), ``c`` the cost per source. The first share gives
  ``c`` alone (all its time per source: an upper bound); where even that keeps the rows
  here, they stay. Else half a share more is timed and the two sizes give ``a`` and
  ``c`` (:func:`fitted_cost`);
- here: ``a + c * rest``, one more call; the workers: their busiest thread, every share
  paying ``a + c * share``, plus every row moved here at ``dask_rows_bandwidth`` bytes
  per second (a configuration option, default 1 GB/s: the 2-process cluster above
  moved 0.86 GB/s), without overlap. The rows stay here unless the workers are
  estimated GAIN (1.25) times faster: timings are noisy, and a wrong guess toward the
  workers costs every row's move. Each worker thread is taken to compute as fast as
  this device (its own GPU); CPU workers that share this host's cores do not;
- the cost found on a call whose graph was already on this device (no cold start in
  the timing) is kept with the graph, so that later calls with the same method,
  options and device decide at once, without timing shares (:func:`remember`).

The plan runs where this device is of the workers' kind: CUDA, or the NumPy twin
asked for by name (``device="cpu"``); a caller without a GPU under ``device="auto"``
sends every share to the workers. The decision is logged on the ``nx_gpusp`` logger
when the rows stay here. It changes where the rows are computed, never their values.
"""

import time
import weakref

__all__ = ["GAIN", "rows_here", "fitted_cost", "spread_seconds", "cut", "timed",
           "plan_key", "remembered", "remember"]

_COSTS = weakref.WeakKeyDictionary()  # CSRGraph -> {plan_key: (cost, bytes a row)}
GAIN = 1.25  # the workers' estimate must be this many times shorter than here's


def rows_here(cost, shares, bytes_per_source, bandwidth, threads):
    """True (compute the rows of ``shares``, their sizes, here) unless the workers
    would be GAIN times faster: ``cost`` = (a, c) of one device, ``bandwidth`` in bytes
    per second (0: always here), ``threads`` the workers' threads::

        a + c * sum(shares)  <=  GAIN * (max over threads of sum(a + c * share)
                                         + sum(shares) * bytes_per_source / bandwidth)
    """
    if bandwidth <= 0:
        return True
    return GAIN * spread_seconds(cost, shares, bytes_per_source, bandwidth, threads) >= \
        cost[0] + cost[1] * sum(shares)


def spread_seconds(cost, shares, bytes_per_source, bandwidth, threads):
    """The workers' side of :func:`rows_here`: their busiest thread (shares dealt in
    turn) plus the moves."""
    busy = [0.0] * max(1, threads)
    for i, share in enumerate(shares):
        busy[i % len(busy)] += cost[0] + cost[1] * share
    return max(busy) + sum(shares) * bytes_per_source / max(bandwidth, 1)


def fitted_cost(first, second):
    """(a: seconds a batch costs whatever its size, c: seconds per source), both >= 0,
    from two timed calls (sources, seconds) of different sizes (equal sizes: all per
    source)."""
    (k1, t1), (k2, t2) = first, second
    if k1 == k2:
        return 0.0, (t1 + t2) / max(k1 + k2, 1)
    per_source = max((t1 - t2) / (k1 - k2), 0.0)
    return max(t1 - per_source * k1, 0.0), per_source


def cut(shares, done):
    """``shares`` without their first ``done`` sources (a share cut short stays one)."""
    out = []
    for share in shares:
        skip = min(done, len(share))
        done -= skip
        if skip < len(share):
            out.append(share[skip:])
    return out


def timed(batches, clock):
    """``batches`` (sources, distance rows, predecessor rows or None) yielded as they
    come; the seconds spent producing them, not the reader's, are added to
    ``clock[0]`` and their bytes to ``clock[1]``."""
    while True:
        start = time.perf_counter()
        try:
            batch = next(batches)
        except StopIteration:
            return
        finally:
            clock[0] += time.perf_counter() - start
        clock[1] += sum(a.nbytes for a in batch[1:] if a is not None)
        yield batch


def plan_key(ex, method, options, cutoff, want_pred):
    """What a kept cost holds for: the device, the method and its options, the cutoff
    and whether predecessors are asked."""
    return (ex.name, method.name, repr(sorted(options.items())), cutoff, bool(want_pred))


def remembered(graph, key):
    """(cost, bytes a row) kept for ``graph`` and ``key``, or None."""
    return _COSTS.get(graph, {}).get(key)


def remember(graph, key, cost, row_bytes):
    _COSTS.setdefault(graph, {})[key] = (cost, row_bytes)
