"""Developer probe: many sources on road networks. For each workload, the hierarchy's
build (host seconds, once per graph), then, on the same seeded sources (default 256),
distances left on the device (bench.all_pairs_runner, synchronised):

  phast-batched      one batch of up to 256 sources per sweep (ms a batch, ms a source),
                     its sweeps recorded as a CUDA graph (the default), and launched
                     level by level from the host (cuda_graph=False)
  batched-spmm       the all-pairs default before it (ms a batch, ms a source)
  phast, one by one  the single-source method on each source in turn (ms a source)

and whether phast-batched's rows equal single-source phast's on a few sources. Each
time is the median of --repeat runs after a warm-up run (kernels compiled, the
hierarchy on the device) and bench.warm_device with the timed call.

Usage: python tools/batched_phast_probe.py [--workload NY-synthetic --workload FLA]
           [--sources 256] [--repeat 5] [--device cuda] [--json FILE]
"""

import argparse
import json
import statistics
import time

import numpy as np

from nx_gpusp import bench
from nx_gpusp.executor import get_executor
from nx_gpusp.methods import get_method
from nx_gpusp.solvers.sssp.phast import CORE_SIZE, _hierarchy

CHECKED = 4  # sources whose rows are compared with single-source phast's


def timed(run, repeat):
    """(median seconds, last result) of ``repeat`` calls of ``run()``."""
    times, out = [], None
    for _ in range(max(1, repeat)):
        out = None
        t0 = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def probe(ex, workload, count, repeat):
    case = next(c for c in bench.WORKLOADS[workload] if c.problem == "sssp")
    graph = case.build()
    t0 = time.perf_counter()
    h = _hierarchy(graph, CORE_SIZE)
    build = time.perf_counter() - t0
    sources = bench.pick_sources(graph, count)[1:]
    check = sources[:CHECKED]
    out = {"graph": case.label, "n": graph.n, "m": graph.m, "sources": len(sources),
           "device": ex.name, "hierarchy_s": build, "levels": h.levels,
           "core": len(h.core), "rows": []}
    print(f"{case.label}: n={graph.n} m={graph.m}; hierarchy {build:.1f} s, {h.levels} "
          f"levels, core {len(h.core)}; {len(sources)} sources on {ex.name}", flush=True)
    kept = {}
    for label, name, options in (("phast-batched", "phast-batched", {}),
                                 ("phast-batched, launched", "phast-batched",
                                  {"cuda_graph": False}),
                                 ("batched-spmm", "batched-spmm", {})):
        run = bench.all_pairs_runner(get_method("all-pairs", name), graph, ex, keep=check,
                                     options=options)
        run(sources)  # warm-up: compilation, the hierarchy's device copy
        bench.warm_device(ex, work=lambda: run(sources))
        t, (rows, batches) = timed(lambda: run(sources), repeat)
        kept[label] = rows
        row = {"impl": label, "ms": t * 1e3, "batches": batches,
               "ms_per_batch": t * 1e3 / batches, "ms_per_source": t * 1e3 / len(sources)}
        out["rows"].append(row)
        print(f"  {label:24s} {row['ms']:9.3f} ms  {batches} batch(es): "
              f"{row['ms_per_batch']:8.3f} ms a batch, {row['ms_per_source']:.4f} ms a source",
              flush=True)
    single = bench.kernel_runner("sssp", get_method("sssp", "phast"), graph, ex)
    single(sources[0])
    bench.warm_device(ex, work=lambda: single(sources[0]))
    per = []
    results = {}
    for s in sources:
        t0 = time.perf_counter()
        d = single(s)
        per.append(time.perf_counter() - t0)
        if s in check:
            results[s] = ex.to_host(d)
    total = sum(per)
    out["rows"].append({"impl": "phast, one by one", "ms": total * 1e3,
                        "ms_per_source": total * 1e3 / len(sources),
                        "median_ms_per_source": statistics.median(per) * 1e3})
    print(f"  {'phast, one by one':24s} {total * 1e3:9.3f} ms: {total * 1e3 / len(sources):.4f} "
          f"ms a source (median {statistics.median(per) * 1e3:.4f})", flush=True)
    agrees = all(np.array_equal(ex.to_host(rows[s]).astype(np.int64), results[s])
                 for rows in kept.values() for s in check)
    out["agrees"] = agrees
    print(f"  rows of {len(check)} sources equal single-source phast's: "
          f"{'yes' if agrees else 'NO'}", flush=True)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workload", action="append", choices=sorted(bench.WORKLOADS))
    ap.add_argument("--sources", type=int, default=256)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args(argv)
    ex = get_executor(args.device)
    results = [probe(ex, wl, args.sources, args.repeat)
               for wl in args.workload or ["NY-synthetic", "FLA"]]
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
