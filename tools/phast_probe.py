"""Developer probe: method "phast" beside near-far (the default) on the race's road
workloads: its preprocessing (host seconds, once per graph), then host wall time around
the synchronised solve on the device-resident graph, source 0 (median of --repeat) and
the median over the race's 10 seeded sources, lengths and with paths (the tight-arc
tree), and whether the distances equal near-far's.

Usage: python tools/phast_probe.py [--workload NY-synthetic --workload FLA] [--repeat 5]
"""

import argparse
import statistics
import time

import numpy as np

from nx_gpusp import bench
from nx_gpusp.executor import get_executor
from nx_gpusp.methods import get_method
from nx_gpusp.solvers.answers import sssp_on_device
from nx_gpusp.solvers.sssp.phast import CORE_SIZE, _hierarchy


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workload", action="append")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--device", default="cuda")
    args = ap.parse_args(argv)
    ex = get_executor(args.device)
    for wl in args.workload or ["NY-synthetic", "FLA"]:
        case = next(c for c in bench.WORKLOADS[wl] if c.problem == "sssp")
        graph = case.build()
        graph.on(ex)
        graph.on(ex).weights  # noqa: B018  (uploaded outside the timed region)
        t0 = time.perf_counter()
        h = _hierarchy(graph, CORE_SIZE)
        prep = time.perf_counter() - t0
        h.on(ex)
        print(f"{case.label}: n={graph.n} m={graph.m}; preprocessing {prep:.1f} s, "
              f"{h.levels} levels, core {len(h.core)}, {len(h.up[1])} up and "
              f"{len(h.down[1])} down arcs", flush=True)
        sources = bench.race_sources(graph, 10)
        for name in ("phast", "near-far"):
            m = get_method("sssp", name)
            for paths in (False, True):
                def run(s):
                    r = sssp_on_device(ex, graph, m, [s], options=m.check_options({}),
                                       want_pred=paths)
                    ex.synchronize()
                    return r
                run(0)
                bench.warm_device(ex, work=lambda: run(0))
                src0 = []
                for _ in range(args.repeat):
                    t = time.perf_counter(); run(0); src0.append(time.perf_counter() - t)
                many = []
                for s in sources:
                    t = time.perf_counter(); run(s); many.append(time.perf_counter() - t)
                print(f"  {name:9s} {'paths  ' if paths else 'lengths'} src0 "
                      f"{statistics.median(src0) * 1e3:7.3f} ms   10-src "
                      f"{statistics.median(many) * 1e3:7.3f} ms", flush=True)
        for s in [0] + list(sources[:3]):
            a = ex.to_host(run_method(ex, graph, "phast", s).dist)
            b = ex.to_host(run_method(ex, graph, "near-far", s).dist)
            print(f"  source {s}: phast == near-far: {bool(np.array_equal(a, b))}")


def run_method(ex, graph, name, s):
    m = get_method("sssp", name)
    return sssp_on_device(ex, graph, m, [s], options=m.check_options({}), want_pred=False)


if __name__ == "__main__":
    main()
