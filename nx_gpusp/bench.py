"""Side-by-side timings: ``python -m nx_gpusp.bench --workload NAME``.

For every case of a workload it times each registered gpusp method (from
``nx_gpusp.methods.methods_for``), NetworkX and SciPy csgraph (one core) on the same
graph and prints one table:

- kernel: the solver on the graph already on the device, distances only, the device
  synchronised before the clock stops (``time.perf_counter``); NetworkX and SciPy
  rows time their own distance-only call on their own graph format;
- e2e first / e2e cached: the NetworkX call ``backend="gpusp", method=...`` on a
  NetworkX graph, first with NetworkX's conversion cache cleared (conversion, upload,
  solve, result dict), then with the converted graph cached;
- GTEPS: arcs leaving the reached vertices, per second of kernel time (SSSP);
  Gops/s: n**3 min-plus operations per second (Floyd-Warshall);
- x SciPy: SciPy's kernel time over this row's kernel time.

Every figure is the median over the timed sources (one warm-up call first, not
counted); Floyd-Warshall repeats the whole solve ``--repeat`` times. The asv suite in
``asv_benchmarks/`` uses the same workloads and runners.
"""

import argparse
import json
import math
import statistics
import sys
import time
from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from . import datasets
from .convert import to_networkx
from .graph import float_distances
from .executor import get_executor
from .methods import methods_for
from .solvers.sssp import distance_inf

__all__ = ["WORKLOADS", "Case", "PEERS", "kernel_runner", "all_pairs_runner", "peer_runner",
           "peer_skip_reason", "e2e_runner", "reached_arcs", "pick_sources", "median_time",
           "warm_device", "run_case", "main"]

PEERS = ("networkx", "scipy")
NX_MAX_ARCS = 3_000_000  # NetworkX rows are skipped above this many arcs
FW_PEER_MAX_N = {"networkx": 1024, "scipy": 2048}  # O(n^3) on one core: skipped above
# SciPy's johnson (and bellman_ford) run the textbook O(n m) Bellman-Ford: ~3 ns per
# n*m on one core (measured on rome99 with potentials), ~10 minutes a call on NY
SCIPY_BF_MAX_WORK = 10**10


@dataclass(frozen=True)
class Case:
    """One problem on one graph. problem: 'sssp' (non-negative weights, Dijkstra
    functions), 'bellman-ford' (negative weights, no negative cycle) or
    'floyd-warshall'."""

    problem: str
    label: str
    build: object = field(compare=False, repr=False)  # () -> CSRGraph


def _pace(name):
    return lambda: datasets.load(name, as_csr=True, weights=(1, 10))


def _real(name):
    return lambda: datasets.load(name, as_csr=True)


WORKLOADS = {
    "tiny": [
        Case("sssp", "random-pred-500", lambda: datasets.random_predecessors(500)),
        Case("bellman-ford", "random-pred-500+potential",
             lambda: datasets.with_potentials(datasets.random_predecessors(500))),
        Case("floyd-warshall", "dense-96", lambda: datasets.dense_random(96)),
    ],
    "rome99": [Case("sssp", "rome99", _real("rome99"))],
    "NY-synthetic": [Case("sssp", "NY-synthetic", _real("NY-synthetic"))],
    "COL": [Case("sssp", "COL w=1..10", _pace("COL"))],
    "FLA": [Case("sssp", "FLA w=1..10", _pace("FLA"))],
    "random-pred-1M": [Case("sssp", "random-pred-1M",
                            lambda: datasets.random_predecessors(1 << 20))],
    "random-pred-4M": [Case("sssp", "random-pred-4M",
                            lambda: datasets.random_predecessors(1 << 22))],
    "rmat-20": [Case("sssp", "rmat-20", lambda: datasets.rmat(20))],
    "rmat-22": [Case("sssp", "rmat-22", lambda: datasets.rmat(22))],
    "road-6M": [Case("sssp", "geometric-road-6M",
                     lambda: datasets.random_geometric_road(6_000_000))],
    "NY-negative": [Case("bellman-ford", "NY-synthetic+potential",
                         lambda: datasets.with_potentials(_real("NY-synthetic")()))],
    "gnutella04": [Case("sssp", "p2p-Gnutella04", _real("gnutella04"))],
    "tiny-all-pairs": [Case("sssp", "random-pred-150", lambda: datasets.random_predecessors(150))],
    "fw-1024": [Case("floyd-warshall", "dense-1024", lambda: datasets.dense_random(1024))],
    "fw-8192": [Case("floyd-warshall", "dense-8192", lambda: datasets.dense_random(8192))],
}


def methods_of(problem):
    """Registered gpusp methods that solve ``problem`` ('bellman-ford': the sssp
    methods that take negative weights; a problem the registry lacks: none)."""
    from .methods import PROBLEMS

    if problem in ("floyd-warshall", "all-pairs"):
        return methods_for(problem) if problem in PROBLEMS else []
    ms = methods_for("sssp")
    return [m for m in ms if m.negative_weights] if problem == "bellman-ford" else ms


# -- runners: each returns a callable(source) -> host distances (or None) -------------
def kernel_runner(problem, method, graph, ex, options=None, *, want_pred=False,
                  whole_result=False):
    """The solver on the device-resident graph, synchronised; distances stay on the
    device (fetch them with ``ex.to_host`` outside the timed region). ``options``: the
    method's keyword options (e.g. {"lane": "s16x2"} for fw-dpx). Single source:
    ``whole_result`` returns the SSSPResult (its ``stats`` too) instead of the distances."""
    solve = method.load()
    options = method.check_options(options or {})
    graph.on(ex)  # upload outside the timed region
    if problem == "floyd-warshall":
        def run(_source=None):
            d, _ = solve(ex, graph, keep_negative_diagonal=False, predecessors=False,
                         **options)
            ex.synchronize()
            return d
    else:
        def run(source):
            result = solve(ex, graph, [source], want_pred=want_pred, **options)
            ex.synchronize()
            return result if whole_result else result.dist
    return run


def all_pairs_runner(method, graph, ex, keep=()):
    """An "all-pairs" method on a list of sources, distances left on the device,
    synchronised: run(sources) -> ({source: device copy of its row, for the sources
    in ``keep``}, number of batches)."""
    solve, options = method.load(), method.check_options({})
    graph.on(ex)  # upload outside the timed region
    keep = set(keep)

    def run(sources):
        kept, batches = {}, 0
        for batch in solve(ex, graph, np.asarray(sources), want_pred=False, **options):
            batches += 1
            for k, s in enumerate(batch.sources.tolist()):
                if s in keep:
                    kept[s] = batch.dist[k].copy()
        ex.synchronize()
        return kept, batches
    return run


def scipy_matrix(graph):
    import scipy.sparse as sp

    # explicit zero weights stay arcs: csgraph reads the stored entries
    return sp.csr_matrix((graph.weights.astype(np.float64), graph.indices, graph.indptr),
                         shape=(graph.n, graph.n))


def peer_skip_reason(peer, problem, graph):
    """Why ``peer`` is not run on ``graph`` for ``problem`` (None: it is run)."""
    if problem == "floyd-warshall" and graph.n > FW_PEER_MAX_N[peer]:
        return f"{peer} skipped: n={graph.n} > {FW_PEER_MAX_N[peer]} (O(n^3) on one core)"
    if peer == "networkx" and graph.m > NX_MAX_ARCS:
        return f"NetworkX skipped: {graph.m} arcs > {NX_MAX_ARCS}"
    if peer == "scipy" and problem == "bellman-ford" and graph.n * graph.m > SCIPY_BF_MAX_WORK:
        return (f"SciPy skipped: johnson's Bellman-Ford is O(n m), n*m = {graph.n * graph.m:.2g}"
                f" > {SCIPY_BF_MAX_WORK:.0g} (minutes a call)")
    return None


def peer_runner(peer, problem, graph, G=None):
    """NetworkX or SciPy csgraph on its own graph format (built here, not timed)."""
    if peer == "scipy":
        from scipy.sparse import csgraph

        A = scipy_matrix(graph)
        directed = graph.directed
        if problem == "floyd-warshall":
            return lambda _s=None: csgraph.floyd_warshall(A, directed=directed)
        if problem == "bellman-ford":
            return lambda s: csgraph.johnson(A, directed=directed, indices=s)
        return lambda s: csgraph.dijkstra(A, directed=directed, indices=s)
    if peer == "networkx":
        G = to_networkx(graph) if G is None else G
        attr = graph.weight_attr or "weight"
        if problem == "floyd-warshall":
            return lambda _s=None: nx.floyd_warshall_numpy(G, weight=attr, backend="networkx")
        func = (nx.single_source_bellman_ford_path_length if problem == "bellman-ford"
                else nx.single_source_dijkstra_path_length)
        return lambda s: func(G, graph.labels([s])[0], weight=attr, backend="networkx")
    raise ValueError(f"unknown peer {peer!r}; choose one of {PEERS}")


def e2e_runner(problem, method, graph, G, *, cached):
    """The NetworkX call dispatched to gpusp with ``method``; ``cached=False`` clears
    NetworkX's conversion cache first, so conversion and upload are timed too."""
    attr = graph.weight_attr or "weight"
    if problem == "floyd-warshall":
        def call(_s):
            return nx.floyd_warshall_numpy(G, weight=attr, backend="gpusp", method=method.name)
    else:
        func = (nx.single_source_bellman_ford_path_length if problem == "bellman-ford"
                else nx.single_source_dijkstra_path_length)

        def call(s):
            return func(G, graph.labels([s])[0], weight=attr, backend="gpusp",
                        method=method.name)
    if cached:
        return call

    def uncached(s):
        G.__networkx_cache__.clear()
        return call(s)
    return uncached


# -- measuring -----------------------------------------------------------------------
def pick_sources(graph, count, seed=0):
    """``count`` distinct seeded vertices with outgoing arcs (fewer if the graph has
    fewer), plus one more in front for the warm-up."""
    candidates = np.flatnonzero(np.diff(graph.indptr) > 0)
    if len(candidates) == 0:
        candidates = np.arange(graph.n)
    take = min(count + 1, len(candidates))
    return np.random.default_rng(seed).choice(candidates, take, replace=False).tolist()


SLOW_CALL_S = 3.0  # a method whose second call still takes longer is timed once
PER_VERTEX_MAX_N = 300_000  # methods with n host iterations are skipped above this


WARM_S = 0.2  # seconds of GPU load before each implementation is timed


def warm_device(ex, seconds=WARM_S):
    """Keep the GPU busy for ``seconds`` so that its clocks are up before a timing: an
    idle H100 sits at 345 MHz and ramps up under load, so whatever is timed first after
    host work (kernel compilation, graph building, CPU peers, end-to-end calls) would
    otherwise run slower (measured: the same method 2.27 ms first, 1.78 ms after
    another)."""
    if not ex.is_cuda:
        return
    xp = ex.xp
    a = xp.ones((2048, 2048), dtype=np.float32)
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        a = a @ a * np.float32(1 / 2048)
        ex.synchronize()


def median_time(run, sources, *, slow=None, ready=None):
    """Median seconds of ``run(s)`` over ``sources[1:]`` after a warm-up on
    ``sources[0]``; also returns the last result of each source. With ``slow`` (seconds),
    a warm-up longer than that is the only timing: ([its time], [its result]).
    ``ready()``, if given, is called between the warm-up and the timed calls (e.g.
    ``warm_device``: the warm-up may have compiled kernels with the GPU idle)."""
    t0 = time.perf_counter()
    first = run(sources[0])
    warm = time.perf_counter() - t0
    if slow is not None and warm > slow:  # compilation included? call once more
        t0 = time.perf_counter()
        first = run(sources[0])
        warm = time.perf_counter() - t0
        if warm > slow:
            return warm, [warm], [first]
    if ready is not None:
        ready()
    times, results = [], []
    timed = sources[1:] or sources
    for s in timed:
        t0 = time.perf_counter()
        out = run(s)
        times.append(time.perf_counter() - t0)
        results.append(out)
    return statistics.median(times), times, results


def reached_arcs(graph, dist):
    """Arcs leaving the vertices a source reaches (the work of one SSSP)."""
    dist = np.asarray(dist)
    reached = dist != distance_inf(dist.dtype) if dist.dtype.kind != "f" else np.isfinite(dist)
    return int(np.diff(graph.indptr)[reached].sum())


def run_case(case, *, device, n_sources=5, repeat=3, skip_networkx=False, log=print,
             only=None):
    """Time every implementation on ``case``; a dict ready for the table and JSON."""
    ex = get_executor(device)
    nx.config.backends.gpusp.device = ex.name
    t0 = time.perf_counter()
    graph = case.build()
    log(f"# {case.label}: {graph.n} nodes, {graph.m} arcs (built in "
        f"{time.perf_counter() - t0:.1f} s)")
    fw = case.problem == "floyd-warshall"
    sources = [None] * (repeat + 1) if fw else pick_sources(graph, n_sources)
    rows = []
    G = None
    nx_note = None
    if skip_networkx:
        nx_note = "NetworkX skipped (--no-networkx)"
    elif graph.m > NX_MAX_ARCS:
        nx_note = peer_skip_reason("networkx", case.problem, graph)
    else:
        G = to_networkx(graph)

    reference = None  # SciPy distances of the timed sources, for the 'agrees' check
    for peer in ("scipy", "networkx"):
        note = peer_skip_reason(peer, case.problem, graph)
        if peer == "networkx" and G is None:
            note = nx_note
        if note:
            rows.append({"impl": peer, "note": note})
            continue
        med, _, results = median_time(peer_runner(peer, case.problem, graph, G), sources)
        row = {"impl": peer, "kernel_s": med}
        if peer == "scipy":
            reference = [float_distances(r) for r in results]
            if not fw:
                row["arcs"] = [reached_arcs(graph, r) for r in results]
        rows.append(row)

    for method in methods_of(case.problem):
        if only and method.name not in only:
            continue
        row = {"impl": method.name}
        if method.iterations_per_vertex and graph.n > PER_VERTEX_MAX_N:
            rows.append({"impl": method.name, "note": f"skipped: n={graph.n} host iterations "
                                                      f"(> {PER_VERTEX_MAX_N} vertices)"})
            continue
        try:
            med, times, results = median_time(kernel_runner(case.problem, method, graph, ex),
                                              sources, slow=SLOW_CALL_S,
                                              ready=lambda: warm_device(ex))
        except Exception as exc:  # a method that cannot take this graph: say why
            rows.append({"impl": method.name, "note": f"failed: {type(exc).__name__}: {exc}"})
            continue
        row["kernel_s"] = med
        host = [float_distances(ex.to_host(r)) for r in results]
        once = len(times) == 1 and len(sources) > 2
        if once:  # timed on the warm-up source only (compilation included), not checked
            row["note"] = f"one call, {med:.1f} s > {SLOW_CALL_S:.0f} s: not repeated"
        elif reference is not None:
            row["agrees"] = all(np.allclose(h, r, rtol=1e-9, atol=1e-9)
                                for h, r in zip(host, reference))
        if not fw:
            arcs = [reached_arcs(graph, h) for h in host]
            row["gteps"] = statistics.median(a / t for a, t in zip(arcs, times)) / 1e9
        if G is not None and not once:
            e2e_sources = sources[: min(len(sources), 3)]
            row["e2e_first_s"] = median_time(
                e2e_runner(case.problem, method, graph, G, cached=False), e2e_sources)[0]
            row["e2e_cached_s"] = median_time(
                e2e_runner(case.problem, method, graph, G, cached=True), e2e_sources)[0]
        rows.append(row)

    scipy_row = next((r for r in rows if r["impl"] == "scipy" and "kernel_s" in r), None)
    for row in rows:
        if "kernel_s" not in row:
            continue
        if fw:
            row["gops"] = graph.n ** 3 / row["kernel_s"] / 1e9
        elif "gteps" not in row and scipy_row is not None:
            row["gteps"] = statistics.median(scipy_row["arcs"]) / row["kernel_s"] / 1e9
        if scipy_row is not None:
            row["speedup_vs_scipy"] = scipy_row["kernel_s"] / row["kernel_s"]
    for row in rows:
        row.pop("arcs", None)
    return {"problem": case.problem, "graph": case.label, "n": graph.n, "m": graph.m,
            "sources": len(sources) - 1, "device": ex.name, "rows": rows}


# -- output --------------------------------------------------------------------------
def _ms(x):
    return "-" if x is None else f"{x * 1e3:.3f}"


def _num(x, fmt):
    return "-" if x is None else format(x, fmt)


def format_table(result):
    fw = result["problem"] == "floyd-warshall"
    rate = "Gops/s" if fw else "GTEPS"
    head = ["impl", "kernel ms", "e2e first ms", "e2e cached ms", rate, "x SciPy", "agrees",
            "note"]
    lines = [f"{result['problem']} on {result['graph']} ({result['n']} nodes, {result['m']} "
             f"arcs), device={result['device']}, median of {result['sources']} "
             f"{'repeats' if fw else 'sources'}"]
    body = []
    for r in result["rows"]:
        agrees = r.get("agrees")
        body.append([r["impl"], _ms(r.get("kernel_s")), _ms(r.get("e2e_first_s")),
                     _ms(r.get("e2e_cached_s")), _num(r.get("gops" if fw else "gteps"), ".4f"),
                     _num(r.get("speedup_vs_scipy"), ".2f"),
                     "-" if agrees is None else ("yes" if agrees else "NO"), r.get("note", "")])
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    for row in [head, *body]:
        lines.append("  ".join(str(x).ljust(w) for x, w in zip(row, widths)).rstrip())
    return "\n".join(lines)


def plot(results, path):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("nx_gpusp.bench: --plot needs matplotlib (pip install matplotlib)")
    fig, axes = plt.subplots(1, len(results), figsize=(5 * len(results), 4), squeeze=False)
    for ax, res in zip(axes[0], results):
        rows = [r for r in res["rows"] if "kernel_s" in r]
        ax.bar([r["impl"] for r in rows], [r["kernel_s"] * 1e3 for r in rows])
        ax.set_yscale("log")
        ax.set_ylabel("kernel time, ms (median)")
        ax.set_title(f"{res['problem']}: {res['graph']}", fontsize=9)
        ax.tick_params(axis="x", rotation=45)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m nx_gpusp.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workload", action="append", choices=sorted(WORKLOADS),
                        help="workload to run (repeatable; default: tiny)")
    parser.add_argument("--sources", type=int, default=5,
                        help="timed sources per SSSP case (after one warm-up source)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="timed repeats per Floyd-Warshall case")
    parser.add_argument("--device", default="auto", choices=["auto", "cuda", "cpu"])
    parser.add_argument("--no-networkx", action="store_true", help="skip NetworkX rows")
    parser.add_argument("--methods", default="",
                        help="comma list: time only these gpusp methods (default: all)")
    parser.add_argument("--json", metavar="FILE", help="write the results as JSON")
    parser.add_argument("--plot", metavar="FILE.png", help="bar chart (needs matplotlib)")
    args = parser.parse_args(argv)
    nx.config.warnings_to_ignore.add("cache")
    results = []
    for name in args.workload or ["tiny"]:
        for case in WORKLOADS[name]:
            res = run_case(case, device=args.device, n_sources=max(1, args.sources),
                           repeat=max(1, args.repeat), skip_networkx=args.no_networkx,
                          only=set(filter(None, args.methods.split(","))))
            res["workload"] = name
            print(format_table(res), flush=True)
            print()
            results.append(res)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"argv": sys.argv[1:], "results": results}, f, indent=1,
                      default=lambda x: None if isinstance(x, float) and math.isnan(x) else x)
    if args.plot:
        plot(results, args.plot)
    return results


if __name__ == "__main__":
    main()
