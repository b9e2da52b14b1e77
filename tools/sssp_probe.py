"""Developer probe: kernel time of SSSP methods (with options) on benchmark workloads,
graph already on the device; median over sources, with each run's statistics (rounds,
launches) and a check against SciPy. The full side-by-side table is
``python -m nx_gpusp.bench``.

Usage: python tools/sssp_probe.py [--workload W]... [--sources N] [spec ...]
  spec: a method name, optionally with options, e.g. near-far:grid_target=524288,block_cap=1
  (want_pred=1 asks for predecessors). Default workload NY-synthetic, default specs: every
  sssp method. With NX_GPUSP_NVRTC_OPTIONS=-DNF_PROFILE (a build option, see
  nx_gpusp.executor.BUILD_OPTIONS), near-far's team-launch phases are also profiled
  (cycles per round).
"""

import argparse
import time

import numpy as np
import scipy.sparse.csgraph as cg

from nx_gpusp import bench
from nx_gpusp.algorithms.common import configured_executor
from nx_gpusp.executor import nvrtc_options
from nx_gpusp.graph import float_distances
from nx_gpusp.methods import get_method, methods_for


def parse(spec):
    name, _, opts = spec.partition(":")
    kw = {}
    for item in filter(None, opts.split(",")):
        key, _, val = item.partition("=")
        kw[key] = int(val) if val.lstrip("-").isdigit() else val
    return name, kw


def probe(ex, graph, spec, sources, reference):
    name, kw = parse(spec)
    want_pred = bool(kw.pop("want_pred", 0))
    run = bench.kernel_runner("sssp", get_method("sssp", name), graph, ex, kw,
                              want_pred=want_pred, whole_result=True)
    med, _, results = bench.median_time(run, sources,  # sources[0]: the warm-up
                                        ready=bench.warm_ready(ex))
    r = results[-1]
    ok = np.array_equal(float_distances(ex.to_host(r.dist)), reference)
    return med, ok, r.stats


def nf_profile(ex, graph, source):
    import cupy as cp

    ptr = ex.ops("near_far")._module.get_global("nf_profile")
    prof = cp.ndarray((3,), dtype=cp.int64, memptr=ptr)
    prof[:] = 0
    r = get_method("sssp", "near-far").solver(ex, graph, [source], want_pred=False)
    ex.synchronize()
    cyc = prof.get()
    print("near-far team phases, cycles/round (round start, relax + barrier, "
          "predecessors + snapshot + carry + barrier):",
          (cyc / r.stats["rounds"]).round(0).tolist(),
          "total ms at 1.98 GHz:", round(cyc.sum() / 1.98e6, 2))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workload", action="append", choices=sorted(bench.WORKLOADS))
    parser.add_argument("--sources", type=int, default=7)
    parser.add_argument("specs", nargs="*")
    args = parser.parse_args()
    specs = args.specs or [m.name for m in methods_for("sssp")]
    ex = configured_executor()
    for workload in args.workload or ["NY-synthetic"]:
        graph = bench.WORKLOADS[workload][0].build()
        graph.on(ex)
        sources = bench.pick_sources(graph, args.sources)
        A = bench.scipy_matrix(graph)
        t0 = time.perf_counter()
        reference = cg.dijkstra(A, indices=sources[-1])
        print(f"## {workload}: {graph.n} nodes, {graph.m} arcs; scipy dijkstra (one source) "
              f"{(time.perf_counter() - t0) * 1e3:.1f} ms", flush=True)
        for spec in specs:
            try:
                med, ok, stats = probe(ex, graph, spec, sources, reference)
                print(f"{spec:44s} {med * 1e3:9.2f} ms  correct={ok} {stats}", flush=True)
            except Exception as exc:  # report and go on to the next spec
                print(f"{spec:44s} FAILED {type(exc).__name__}: {exc}", flush=True)
        if "-DNF_PROFILE" in nvrtc_options():
            nf_profile(ex, graph, sources[1])


if __name__ == "__main__":
    main()
