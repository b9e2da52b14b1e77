"""Developer probe: kernel time of each SSSP method on NY (synthetic weights), graph
already on the device; median over sources. The full side-by-side table is
``python -m nx_gpusp.bench``. Usage: python tools/sssp_probe.py [method ...]"""

import statistics
import sys
import tarfile
import time
from pathlib import Path

import numpy as np

from nx_gpusp.executor import get_executor
from nx_gpusp.graph import CSRGraph
from nx_gpusp.methods import get_method, methods_for

import os

data = Path(os.environ.get("NX_GPUSP_DATA", Path(__file__).resolve().parents[1].parent / "shared" / "data"))
with tarfile.open(data / "dimacs9" / "NY-synthetic-weights.txt.tar.gz") as tf:
    member = tf.getmembers()[0]
    raw = tf.extractfile(member).read().split(b"\n", 2)
n = int(raw[0])
arr = np.array(raw[2].split(), dtype=np.int64).reshape(-1, 3)
g = CSRGraph.from_edge_arrays(n, arr[:, 0], arr[:, 1], arr[:, 2])
ex = get_executor()
g.on(ex)
# arguments: method names, each optionally with options: near-far:block_cap=1,want_pred=1
names = sys.argv[1:] or [m.name for m in methods_for("sssp")]


def parse(spec):
    name, _, opts = spec.partition(":")
    kw = {}
    for item in filter(None, opts.split(",")):
        key, _, val = item.partition("=")
        kw[key] = int(val) if val.lstrip("-").isdigit() else val
    return name, kw

rng = np.random.default_rng(0)
sources = rng.integers(0, n, 7).tolist()
import scipy.sparse as sp
import scipy.sparse.csgraph as cg

A = sp.csr_matrix((g.weights.astype(float), g.indices, g.indptr), shape=(n, n))
t = []
for s in sources[:3]:
    t0 = time.perf_counter(); ref = cg.dijkstra(A, indices=s); t.append(time.perf_counter() - t0)
print(f"{'scipy dijkstra':24s} {statistics.median(t)*1e3:9.2f} ms", flush=True)
for spec in names:
    name, kw = parse(spec)
    want_pred = bool(kw.pop("want_pred", 0))
    solver = get_method("sssp", name).load()
    times, stats = [], None
    try:
        solver(ex, g, [sources[0]], want_pred=want_pred, **kw)  # warm-up (compilation)
        for s in sources:
            ex.synchronize()
            t0 = time.perf_counter()
            r = solver(ex, g, [s], want_pred=want_pred, **kw)
            ex.synchronize()
            times.append(time.perf_counter() - t0)
            stats = r.stats
        ok = np.array_equal(np.where(ex.to_host(r.dist) == np.iinfo(np.int64).max, np.inf,
                                     ex.to_host(r.dist)), cg.dijkstra(A, indices=sources[-1]))
        print(f"{spec:24s} {statistics.median(times)*1e3:9.2f} ms  correct={ok} {stats}", flush=True)
    except Exception as exc:  # report and go on to the next method
        print(f"{spec:24s} FAILED {type(exc).__name__}: {exc}", flush=True)

tiny = CSRGraph.from_edge_arrays(3, [0, 1], [1, 2], [1, 1])
for spec in names[:1]:
    solver = get_method("sssp", parse(spec)[0]).load()
    solver(ex, tiny, [0], want_pred=False)
    t = []
    for _ in range(20):
        t0 = time.perf_counter(); solver(ex, tiny, [0], want_pred=False); ex.synchronize()
        t.append(time.perf_counter() - t0)
    print(f"fixed overhead of {spec} (3-node graph): {statistics.median(t)*1e3:.3f} ms")

if "-DNF_PROFILE" in os.environ.get("NX_GPUSP_NVRTC_OPTIONS", ""):
    import cupy as cp

    table = ex.ops("near_far")
    ptr = table._module.get_global("nf_profile")
    prof = cp.ndarray((4,), dtype=cp.int64, memptr=ptr)
    prof[:] = 0
    r = get_method("sssp", "near-far").load()(ex, g, [sources[0]], want_pred=False)
    ex.synchronize()
    cyc = prof.get()
    rounds = r.stats["rounds"]
    print("near-far block phases, cycles/round (reset, relax, snapshot+carry, adapt):",
          (cyc / rounds).round(0).tolist(), "total ms at 1.98 GHz:", round(cyc.sum() / 1.98e6, 2))
    del CudaOps
