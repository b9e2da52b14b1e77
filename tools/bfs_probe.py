"""Developer probe: kernel time of single-source BFS (the "bfs" methods, with options)
on benchmark workloads, the unit-weight graph already on the device; median over
sources, GTEPS (arcs leaving the reached vertices per second of kernel time, as
``python -m nx_gpusp.bench`` counts them), the last run's level statistics, and a check
of the last source against SciPy's breadth-first distances. For comparison it times
the weighted single-source methods named by --sssp (default: near-far) on the same
graph with its weights, and with --batched N the all-pairs batched-bfs method on N
sources.

Usage: python tools/bfs_probe.py [--workload W]... [--sources N] [--sssp M]...
                                 [--batched N] [spec ...]
  spec: a bfs method, optionally with options, e.g.
  direction-optimizing:alpha=14,block_arcs=16384 (want_pred=1 asks for parents).
  Default workloads: NY-synthetic and rmat-22; default specs: every bfs method.
"""

import argparse
import statistics
import time

import numpy as np
import scipy.sparse.csgraph as cg
from sssp_probe import parse  # tools/ is the script's folder

from nx_gpusp import bench
from nx_gpusp.algorithms.common import configured_executor
from nx_gpusp.graph import float_distances
from nx_gpusp.methods import get_method, methods_for
from nx_gpusp.solvers.sssp.bfs import distances_from_levels


def probe(ex, graph, spec, sources, reference):
    name, kw = parse(spec)
    want_pred = bool(kw.pop("want_pred", 0))
    method = get_method("bfs", name)
    if method is None:
        raise ValueError(f"no bfs method {name!r}")
    solve, options = method.solver, method.check_options(kw)

    def run(source):
        result = solve(ex, graph, [source], want_pred=want_pred, **options)
        ex.synchronize()
        return result

    med, times, results = bench.median_time(run, sources,  # sources[0]: the warm-up
                                            ready=bench.warm_ready(ex))
    dists = [ex.to_host(distances_from_levels(r.dist)) for r in results]
    ok = np.array_equal(float_distances(dists[-1]), reference)
    gteps = statistics.median(bench.reached_arcs(graph, d) / t
                              for d, t in zip(dists, times)) / 1e9
    return med, gteps, ok, results[-1].stats


def sssp_time(ex, graph, name, sources):
    run = bench.kernel_runner("sssp", get_method("sssp", name), graph, ex)
    return bench.median_time(run, sources, ready=bench.warm_ready(ex))[0]


def batched_time(ex, graph, count):
    sources = np.random.default_rng(1).choice(graph.n, min(count, graph.n), replace=False)
    run = bench.all_pairs_runner(get_method("all-pairs", "batched-bfs"), graph, ex)
    run(sources[:64])  # compile and warm up
    bench.warm_device(ex, work=lambda: run(sources[:64]))
    t0 = time.perf_counter()
    _, batches = run(sources)
    return time.perf_counter() - t0, len(sources), batches


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workload", action="append", choices=sorted(bench.WORKLOADS))
    parser.add_argument("--sources", type=int, default=7)
    parser.add_argument("--sssp", action="append", metavar="METHOD",
                        help="weighted sssp method timed on the same graph (default near-far)")
    parser.add_argument("--batched", type=int, default=0, metavar="N",
                        help="also time batched-bfs on N sources")
    parser.add_argument("specs", nargs="*")
    args = parser.parse_args()
    specs = args.specs or [m.name for m in methods_for("bfs")]
    ex = configured_executor()
    for workload in args.workload or ["NY-synthetic", "rmat-22"]:
        weighted = bench.WORKLOADS[workload][0].build()
        graph = weighted.unit_weights
        graph.on(ex)
        sources = bench.pick_sources(graph, args.sources)
        t0 = time.perf_counter()
        reference = cg.shortest_path(bench.scipy_matrix(graph), unweighted=True,
                                     directed=graph.directed, indices=sources[-1])
        print(f"## {workload}: {graph.n} nodes, {graph.m} arcs, "
              f"{'directed' if graph.directed else 'undirected'}; scipy BFS (one source) "
              f"{(time.perf_counter() - t0) * 1e3:.1f} ms", flush=True)
        bfs_ms = {}
        for spec in specs:
            try:
                med, gteps, ok, stats = probe(ex, graph, spec, sources, reference)
                bfs_ms[spec] = med * 1e3
                print(f"bfs {spec:44s} {med * 1e3:9.3f} ms {gteps:8.3f} GTEPS  correct={ok} "
                      f"{stats}", flush=True)
            except Exception as exc:  # report and go on to the next spec
                print(f"bfs {spec:44s} FAILED {type(exc).__name__}: {exc}", flush=True)
        for name in args.sssp or ["near-far"]:
            try:
                ms = sssp_time(ex, weighted, name, sources) * 1e3
                ratios = ", ".join(f"{spec} {t / ms:.2f}x" for spec, t in bfs_ms.items())
                print(f"sssp {name:43s} {ms:9.3f} ms (weighted); bfs time / this: {ratios}",
                      flush=True)
            except Exception as exc:
                print(f"sssp {name:43s} FAILED {type(exc).__name__}: {exc}", flush=True)
        if args.batched:
            try:
                total, count, batches = batched_time(ex, graph, args.batched)
                print(f"all-pairs batched-bfs: {count} sources in {total * 1e3:.1f} ms "
                      f"({total / count * 1e3:.3f} ms a source, {batches} batch(es))",
                      flush=True)
            except Exception as exc:
                print(f"all-pairs batched-bfs FAILED {type(exc).__name__}: {exc}", flush=True)


if __name__ == "__main__":
    main()
