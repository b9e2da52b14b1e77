"""Measure the all-pairs claims on this machine's device (or the NumPy twin).

Three sections, each in its own try/except (a failure is printed, the rest still run):

  gnutella  p2p-Gnutella04 (shared/data), all-pairs shortest-path LENGTHS: SciPy
            csgraph.dijkstra (all sources) and floyd_warshall (above n = 2048 an estimate:
            the leading 2048 x 2048 block timed, scaled by n^3); kernel-only time of every
            registered "all-pairs" method (all sources, distances left on the device)
            and of fw-dpx; NetworkX end to end with backend="gpusp":
            dict(all_pairs_dijkstra_path_length) first (conversion) and cached, and
            floyd_warshall_numpy; the host-side floor of building the result dicts.
            Target: <= 0.5 s end to end.
  sources   1,024 sources on the 1M-vertex 7-random-predecessor graph: the default
            all-pairs (batched) method on all of them vs separate calls of the default
            sssp method (timed on a subset, scaled linearly). Target: >= 8x.
  fw        fw-dpx lanes at n = 8192: s16x2 and s32 (and i53, i64) on weights 1, f32 on the
            same weights as floats (1.0), f64 on float weights; ms and min-plus ops/s =
            n^3 / t.

Every time is seconds of wall clock with the device synchronised before the clock stops
(time.perf_counter); medians over the repeats shown in the "runs" column. A run longer
than nx_gpusp.bench.SLOW_CALL_S is not repeated. Device kernels are compiled by a
warm-up before any timed call, except for the e2e "first" call, which runs after the
kernel rows (so its kernels are compiled already) and includes NetworkX's conversion.

Usage: python3 tools/all_pairs_claims.py [--device {auto,cuda,cpu}] [--small]
           [--only {gnutella,sources,fw}]... [--repeat N] [--json FILE]
(needs the package installed, e.g. pip install -e ., for backend="gpusp" dispatch)
"""

import argparse
import json
import statistics
import sys
import time
import traceback

import networkx as nx
import numpy as np

from nx_gpusp import bench, datasets
from nx_gpusp.config import get_config
from nx_gpusp.convert import from_networkx
from nx_gpusp.executor import get_executor
from nx_gpusp.graph import CSRGraph, distance_inf, float_distances
from nx_gpusp.methods import choose, get_method, methods_for
from nx_gpusp.results import HostSSSP
from nx_gpusp.solvers.apsp.floyd_warshall_dpx import choose_lane, path_bound

SECTIONS = ("gnutella", "sources", "fw")

# sizes of the full (GPU) run and of --small (the NumPy twin on a CPU, < 1 min)
SIZES = {
    "full": {"gnutella_nodes": None, "pred_n": None, "sources": 1024, "singles": 128,
             "fw_n": 8192},
    "small": {"gnutella_nodes": 1000, "pred_n": 20_000, "sources": 64, "singles": 16,
              "fw_n": 256},
}
PER_THREAD_MAX_N = 2048  # as asv_benchmarks/bench_all_pairs.py: n scans of n per thread
HOST_FLOOR_ROWS = 1000  # result dicts built for this many rows, scaled to n
CHECK_SOURCES = 20  # e2e dicts compared with SciPy on this many sampled sources
FW_ARCS_PER_NODE = 16  # Floyd-Warshall work is n^3 whatever the density; few arcs keep
# the (timed) scatter of the arcs into the dense matrix small next to the kernel


# -- timing helpers --------------------------------------------------------------------
def timed_runs(run, repeat, *, warm=None):
    """``warm()`` (untimed, if given), then up to ``repeat`` timed ``run()`` calls,
    stopping after one that took longer than bench.SLOW_CALL_S.
    -> (median s, [times], last result)."""
    if warm is not None:
        warm()
    times, out = [], None
    for _ in range(max(1, repeat)):
        out = None  # let the previous result go before the next call
        t0 = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - t0)
        if times[-1] > bench.SLOW_CALL_S:
            break
    return statistics.median(times), times, out


# -- output ----------------------------------------------------------------------------
class Table:
    """Rows printed as they are measured (a crash keeps what was printed) and kept."""

    def __init__(self, title, columns, widths):
        self.columns, self.widths, self.rows = columns, widths, []
        print(f"\n## {title}", flush=True)
        self._line(columns)
        self._line(["-" * w for w in widths])

    def _line(self, cells):
        print("  ".join(str(c).ljust(w) for c, w in zip(cells, self.widths)).rstrip(),
              flush=True)

    def add(self, cells, **record):
        self._line(["-" if c is None else c for c in cells])
        self.rows.append(record)
        return record


def ms(seconds):
    return None if seconds is None else f"{seconds * 1e3:.2f}"


def yes_no(flag):
    return None if flag is None else ("yes" if flag else "NO")


def failed(exc):
    return f"failed: {type(exc).__name__}: {exc}"


# -- 1. p2p-Gnutella04 -------------------------------------------------------------------
def gnutella(ex, size, repeat):
    G = datasets.load("gnutella04")  # the NetworkX reader (the bench's _real reads as_csr)
    note = None
    k = size["gnutella_nodes"]
    if k is not None and k < len(G):
        G = G.subgraph(list(G)[:k]).copy()
        note = f"--small: induced subgraph on the first {k} nodes of p2p-Gnutella04"
        print(note)
    graph = from_networkx(G, "weight")  # what dispatching weight="weight" converts (all 1)
    n = graph.n
    out = {"graph": "p2p-Gnutella04", "n": n, "m": graph.m, "note": note, "rows": []}
    table = Table(f"all-pairs lengths on p2p-Gnutella04 ({n} nodes, {graph.m} arcs, weight "
                  f"1), device={ex.name}",
                  ["what", "ms", "runs", "x SciPy dijkstra", "agrees", "note"],
                  [58, 11, 4, 16, 6, 0])
    out["rows"] = table.rows

    def row(what, t, times, agrees=None, note=None):
        ratio = None if scipy_s is None or not t else scipy_s / t
        return table.add([what, ms(t), len(times) if times else None,
                          None if ratio is None else f"{ratio:.2f}", yes_no(agrees),
                          note or ""],
                         what=what, seconds=t, runs=len(times or []), x_scipy_dijkstra=ratio,
                         agrees=agrees, note=note)

    # d. SciPy (one core), once each
    scipy_s, D = None, None
    try:
        dijkstra = bench.peer_runner("scipy", "sssp", graph)  # indices=None: all sources
        scipy_s, times, D = timed_runs(lambda: dijkstra(None), 1)
        row("scipy csgraph.dijkstra, all sources", scipy_s, times)
    except Exception as exc:
        row("scipy csgraph.dijkstra, all sources", None, None, note=failed(exc))
    try:
        cap = bench.FW_PEER_MAX_N["scipy"]
        if n <= cap:
            t, times, _ = timed_runs(bench.peer_runner("scipy", "floyd-warshall", graph), 1)
            row("scipy csgraph.floyd_warshall", t, times)
        else:  # O(n^3) on one core: minutes; time the leading cap x cap block, scale n^3
            sub = from_networkx(G.subgraph(list(G)[:cap]), "weight")
            t, times, _ = timed_runs(bench.peer_runner("scipy", "floyd-warshall", sub), 1)
            row("scipy csgraph.floyd_warshall (ESTIMATE)", t * (n / cap) ** 3, times,
                note=f"not run at n={n}: {t:.2f} s at n={cap} x (n/{cap})^3")
    except Exception as exc:
        row("scipy csgraph.floyd_warshall", None, None, note=failed(exc))

    # c. kernel only, all sources, distances left on the device
    everyone = np.arange(n)
    for method in methods_for("all-pairs"):
        what = f"kernel {method.name}, all sources"
        if method.iterations_per_vertex and n > PER_THREAD_MAX_N:
            row(what, None, None, note=f"skipped: n={n} > {PER_THREAD_MAX_N} (n array scans "
                                       "of n per source thread)")
            continue
        try:
            run = bench.all_pairs_runner(method, graph, ex)
            t, times, (_, batches) = timed_runs(lambda: run(everyone), repeat,
                                                warm=lambda: run(everyone[:8]))
            row(what, t, times, note=f"{batches} batch(es)")
        except Exception as exc:
            row(what, None, None, note=failed(exc))
    try:
        fw = get_method("floyd-warshall", "fw-dpx")
        lane = choose_lane(graph, fw.check_options({})["lane"])
        t, times, results = bench.median_time(
            bench.kernel_runner("floyd-warshall", fw, graph, ex), [None] * (repeat + 1),
            slow=bench.SLOW_CALL_S)
        agrees = None if D is None else bool(
            np.array_equal(float_distances(ex.to_host(results[-1])), D))
        row(f"kernel fw-dpx (lane {lane}), whole matrix", t, times, agrees,
            note="matrix built from CSR and widened to int64 inside the timing")
        del results
    except Exception as exc:
        row("kernel fw-dpx", None, None, note=failed(exc))

    # a. end to end through NetworkX (after the kernel rows: kernels are compiled)
    labels = list(graph.nodes)
    sample = np.random.default_rng(0).choice(n, min(n, CHECK_SOURCES), replace=False)

    def dicts_agree(result):
        if D is None:
            return None
        for s in sample.tolist():
            reach = np.isfinite(D[s])
            want = dict(zip((labels[j] for j in np.flatnonzero(reach)), D[s][reach].tolist()))
            if result[labels[s]] != want:
                return False
        return len(result) == n

    def all_pairs_call():
        return dict(nx.all_pairs_dijkstra_path_length(G, backend="gpusp"))

    def first_call():
        G.__networkx_cache__.clear()
        return all_pairs_call()

    for what, call in (("e2e dict(all_pairs_dijkstra_path_length) first", first_call),
                       ("e2e dict(all_pairs_dijkstra_path_length) cached", all_pairs_call)):
        try:
            t, times, result = timed_runs(call, repeat)
            entries = sum(map(len, result.values()))
            row(what, t, times, dicts_agree(result),
                note=f"{entries} entries; " + ("conversion + upload included" if "first" in what
                                               else "converted graph cached"))
            del result
        except Exception as exc:
            row(what, None, None, note=failed(exc))

    # b. floyd_warshall_numpy end to end (conversion cached by the calls above)
    try:
        call = lambda: nx.floyd_warshall_numpy(G, backend="gpusp")  # noqa: E731
        t, times, M = timed_runs(call, repeat, warm=call)
        row("e2e floyd_warshall_numpy", t, times,
            None if D is None else bool(np.array_equal(M, D)),
            note="converted graph cached; n x n float64 on the host")
        del M
    except Exception as exc:
        row("e2e floyd_warshall_numpy", None, None, note=failed(exc))

    # the host floor: building the dicts from host rows (HostSSSP.lengths), no device
    if D is not None:
        try:
            rows = min(n, HOST_FLOOR_ROWS)
            block = D[:rows]  # SciPy's rows in the graph's distance dtype (untimed)
            reached = np.isfinite(block)
            dtype = graph.distance_dtype()
            block = np.where(reached, block, 0).astype(dtype)
            block[~reached] = distance_inf(dtype)

            def build():
                for s in range(rows):
                    HostSSSP(graph, block[s], None, np.array([s])).lengths()
            t, times, _ = timed_runs(build, 1)
            row("host floor: HostSSSP(...).lengths() of every row", t * n / rows, times,
                note=(f"timed on {rows} rows, scaled to {n}" if rows < n else "all rows") +
                "; the e2e dicts alone, no device")
        except Exception as exc:
            row("host floor", None, None, note=failed(exc))

    verdicts = {}
    for r in table.rows:
        if r["what"].startswith("e2e") and r["seconds"] is not None:
            verdicts[r["what"]] = {"seconds": r["seconds"], "met": r["seconds"] <= 0.5}
    out["target"] = {"e2e_s_max": 0.5, "e2e": verdicts}
    print("target <= 0.5 s end to end: " + "; ".join(
        f"{what[4:]} {v['seconds']:.3f} s {'met' if v['met'] else 'NOT met'}"
        for what, v in verdicts.items()))
    return out


# -- 2. 1,024 sources on the random-predecessor graph ------------------------------------
def many_sources(ex, size, repeat):
    if size["pred_n"] is None:
        case = bench.WORKLOADS["random-pred-1M"][0]
        label, graph = case.label, case.build()
    else:
        graph = datasets.random_predecessors(size["pred_n"])
        label = f"random-pred-{size['pred_n']} (--small)"
    srcs = bench.pick_sources(graph, size["sources"])  # [warm-up source] + sources
    warm, sources = srcs[0], srcs[1:]
    singles = sources[:size["singles"]]
    check = singles[:4]
    cfg = get_config()
    apm = choose("all-pairs", cfg.all_pairs_method, graph, negative_ok=False)
    ssm = choose("sssp", cfg.dijkstra_method, graph, negative_ok=False)
    table = Table(f"{len(sources)} sources on {label} ({graph.n} nodes, {graph.m} arcs), "
                  f"device={ex.name}",
                  ["what", "ms", "runs", "note"], [58, 11, 4, 0])
    out = {"graph": label, "n": graph.n, "m": graph.m, "sources": len(sources),
           "all_pairs_method": apm.name, "sssp_method": ssm.name, "rows": table.rows}

    run = bench.all_pairs_runner(apm, graph, ex, keep=check)
    ta, times, (kept, batches) = timed_runs(lambda: run(sources), repeat,
                                            warm=lambda: run(srcs[:8]))
    table.add([f"(a) {apm.name} on {len(sources)} sources", ms(ta), len(times),
               f"{batches} batch(es), distances left on the device"],
              what=f"(a) {apm.name}", seconds=ta, runs=len(times), batches=batches)
    one = bench.kernel_runner("sssp", ssm, graph, ex)
    med, times_b, results = bench.median_time(one, [warm] + singles)
    tb = sum(times_b) * len(sources) / len(singles)
    scaled = len(singles) < len(sources)
    table.add([f"(b) {len(sources)} x {ssm.name}, one source per call", ms(tb),
               f"{len(singles)}",
               (f"SCALED: {len(singles)} calls timed ({sum(times_b) * 1e3:.1f} ms) x "
                f"{len(sources)}/{len(singles)}; " if scaled else "") +
               f"median {med * 1e3:.2f} ms a call"],
              what=f"(b) {ssm.name} per source", seconds=tb, runs=len(times_b),
              per_call_median_s=med, timed_calls=len(singles), scaled=scaled)
    by_source = dict(zip(singles, results))
    agrees = all(np.array_equal(ex.to_host(kept[s]), ex.to_host(by_source[s])) for s in check)
    ratio = tb / ta
    out.update(ratio=ratio, target_ratio=8.0, met=ratio >= 8, agrees=agrees,
               checked_sources=len(check))
    print(f"(b)/(a) = {ratio:.2f}x   target >= 8x: {'met' if ratio >= 8 else 'NOT met'};  "
          f"(a) rows == (b) distances on {len(check)} sources: {yes_no(agrees)}")
    return out


# -- 3. Floyd-Warshall lanes -----------------------------------------------------------
def fw_lanes(ex, size, repeat):
    n = size["fw_n"]
    density = min(1.0, FW_ARCS_PER_NODE / n)
    ints = datasets.dense_random(n, density=density, weights=(1, 1))
    small, note16 = ints, None
    while True:  # the int16 lane needs 2 * (n-1) * max|w| below its sentinel
        try:
            choose_lane(small, "s16x2")
            break
        except ValueError:
            if small.n <= 64:
                small = None
                break
            small = datasets.dense_random(small.n // 2, density=density, weights=(1, 1))
    if small is not ints:
        note16 = ("int16 lane cannot hold n=%d (path bound %d); " % (n, path_bound(ints)) +
                  (f"run at n={small.n}" if small is not None else "no n fits"))
        print(note16)
    floats = CSRGraph(ints.indptr, ints.indices,
                      np.random.default_rng(1).uniform(1.0, 2.0, ints.m), directed=True,
                      weight_attr="weight", graph_attrs={"name": f"dense-{n} float"})
    integral = CSRGraph(ints.indptr, ints.indices, ints.weights.astype(np.float64),
                        directed=True, weight_attr="weight",
                        graph_attrs={"name": f"dense-{n} integral float"})
    fw = get_method("floyd-warshall", "fw-dpx")
    table = Table(f"fw-dpx lanes, n={n} ({ints.m} arcs, {density:.4g} density; lane 'auto' "
                  f"picks {choose_lane(ints)} here), device={ex.name}",
                  ["lane", "weights", "ms", "runs", "Gops/s (n^3/t)", "agrees", "note"],
                  [6, 12, 11, 4, 14, 6, 0])
    out = {"n": n, "m": ints.m, "density": density, "rows": table.rows}
    reference = {}
    for lane, graph, weights in (("s32", ints, "int 1"), ("s16x2", small, "int 1"),
                                 ("i53", ints, "int 1"), ("i64", ints, "int 1"),
                                 ("f32", integral, "float 1.0"),
                                 ("f64", floats, "float 1..2")):
        if graph is None:
            table.add([lane, weights, None, None, None, None, note16], lane=lane, note=note16)
            continue
        try:
            run = bench.kernel_runner("floyd-warshall", fw, graph, ex, {"lane": lane})
            t, times, results = bench.median_time(run, [None] * (repeat + 1),
                                                  slow=bench.SLOW_CALL_S)
            d = ex.to_host(results[-1])
            del results
            if graph is ints:
                ref = reference.setdefault(graph.n, d)
                agrees = None if ref is d else bool(np.array_equal(d, ref))
            elif graph is integral and graph.n in reference:
                agrees = bool(np.array_equal(d, float_distances(reference[graph.n])))
            else:
                agrees = None
            gops = graph.n ** 3 / t / 1e9
            note = (note16 if graph is not ints and lane == "s16x2" else
                    "agrees = equal to s32" if agrees is not None else "")
            table.add([lane, weights, ms(t), len(times), f"{gops:.1f}", yes_no(agrees), note],
                      lane=lane, n=graph.n, weights=weights, seconds=t, runs=len(times),
                      gops=gops, agrees=agrees, note=note)
        except Exception as exc:
            table.add([lane, weights, None, None, None, None, failed(exc)], lane=lane,
                      note=failed(exc))
    return out


# -- main ------------------------------------------------------------------------------
def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", default="auto", choices=["auto", "cuda", "cpu"])
    parser.add_argument("--small", action="store_true",
                        help="shrink every size (the NumPy twin on a CPU in < 1 min)")
    parser.add_argument("--only", action="append", choices=SECTIONS,
                        help="section to run (repeatable; default: all)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="timed runs per cheap measurement (median; default 3)")
    parser.add_argument("--json", metavar="FILE", help="write the results as JSON")
    args = parser.parse_args(argv)
    if not hasattr(nx.config.backends, "gpusp"):
        sys.exit("all_pairs_claims: NetworkX does not see the gpusp backend; install the "
                 "package (pip install -e .)")
    ex = get_executor(args.device)
    nx.config.backends.gpusp.device = ex.name
    nx.config.warnings_to_ignore.add("cache")
    size = SIZES["small" if args.small else "full"]
    print(f"device={ex.name}{' (--small sizes)' if args.small else ''}; times are medians "
          f"of up to {args.repeat} runs ('runs' column), device synchronised", flush=True)
    report = {"argv": sys.argv[1:], "device": ex.name, "small": args.small,
              "repeat": args.repeat, "sections": {}}
    start = time.perf_counter()
    for name, func in (("gnutella", gnutella), ("sources", many_sources), ("fw", fw_lanes)):
        if args.only and name not in args.only:
            continue
        t0 = time.perf_counter()
        try:
            result = func(ex, size, args.repeat)
        except Exception as exc:  # report, go on with the other sections
            traceback.print_exc()
            print(f"section {name} {failed(exc)}", flush=True)
            result = {"error": f"{type(exc).__name__}: {exc}"}
        result["wall_s"] = time.perf_counter() - t0
        report["sections"][name] = result
        print(f"[section {name}: {result['wall_s']:.1f} s wall]", flush=True)
    report["wall_s"] = time.perf_counter() - start
    print(f"\ntotal {report['wall_s']:.1f} s wall")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1, default=lambda x: x.item() if hasattr(x, "item")
                      else str(x))
    return report


if __name__ == "__main__":
    main()
