"""Developer probe: the contraction hierarchy under method "phast" built on each device
asked for, per road network: build seconds (the first build of the process on that
device, which loads its kernels, then the median of --repeat more), levels, arcs of the
upward and downward graphs, core size, and whether every device built the same
hierarchy.

Workloads: those of nx_gpusp.bench with integer weights (NY-synthetic, COL, FLA, ...)
and geometric-<n>: datasets.integer_geometric_road(n) (Euclidean weights scaled by 100
and rounded to integers; e.g. geometric-1500000).

Usage: python tools/contraction_probe.py [--workload NY-synthetic --workload FLA]
           [--device cpu --device cuda] [--repeat 1] [--json FILE]
"""

import argparse
import json
import statistics
import time

import numpy as np

from nx_gpusp import bench, datasets
from nx_gpusp.executor import get_executor
from nx_gpusp.solvers.sssp.contraction import CORE_SIZE, contraction_hierarchy


def road(workload):
    """The CSRGraph of ``workload`` (integer weights)."""
    if workload.startswith("geometric-"):
        return datasets.integer_geometric_road(int(workload.split("-", 1)[1]))
    return next(c for c in bench.WORKLOADS[workload] if c.problem == "sssp").build()


def shape(h):
    return {"levels": h.levels, "up_arcs": len(h.up[1]), "down_arcs": len(h.down[1]),
            "core": len(h.core)}


def same(h, other):
    return all(np.array_equal(a, b) for a, b in zip(h.arrays(), other.arrays()))


def probe(workload, devices, repeat):
    graph = road(workload)
    out = {"graph": workload, "n": graph.n, "m": graph.m, "rows": []}
    print(f"{workload}: n={graph.n} m={graph.m}", flush=True)
    built = []
    for device in devices:
        ex = get_executor(device)
        t0 = time.perf_counter()
        contraction_hierarchy(graph, CORE_SIZE, ex=ex)
        first = time.perf_counter() - t0
        times = []
        for _ in range(max(1, repeat)):
            t0 = time.perf_counter()
            h = contraction_hierarchy(graph, CORE_SIZE, ex=ex)
            times.append(time.perf_counter() - t0)
        built.append(h)
        row = {"device": ex.name, "first_build_s": first,
               "build_s": statistics.median(times), **shape(h)}
        out["rows"].append(row)
        print(f"  {ex.name:6s} {row['build_s']:7.2f} s (first {first:.2f} s)  "
              f"{row['levels']} levels, up "
              f"{row['up_arcs']} arcs, down {row['down_arcs']} arcs, core {row['core']}",
              flush=True)
    out["same"] = all(same(built[0], h) for h in built[1:])
    if len(built) > 1:
        print(f"  the same hierarchy on every device: {'yes' if out['same'] else 'NO'}",
              flush=True)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workload", action="append")
    ap.add_argument("--device", action="append")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args(argv)
    results = [probe(wl, args.device or ["cpu"], args.repeat)
               for wl in args.workload or ["NY-synthetic", "FLA"]]
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
