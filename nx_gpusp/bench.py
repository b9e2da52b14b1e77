"""Side-by-side timings: ``python -m nx_gpusp.bench --workload NAME`` (or ``--group``).

For every case of a workload it times each registered gpusp method (from
``nx_gpusp.methods.methods_for``), NetworkX and SciPy csgraph (one core) on the same
graph and prints one table:

- kernel: the solver on the graph already on the device, distances only, the device
  synchronised before the clock stops (``time.perf_counter``); NetworkX and SciPy
  rows time their own distance-only call on their own graph format;
- e2e first / e2e cached: the NetworkX call ``backend="gpusp", method=...`` on a
  NetworkX graph, first with NetworkX's conversion cache cleared (conversion, upload,
  solve, result), then with the converted graph cached;
- GTEPS: arcs leaving the reached vertices, per second of kernel time (SSSP);
  Gops/s: n**3 min-plus operations per second (Floyd-Warshall);
- x SciPy: SciPy's kernel time over this row's kernel time.

Every figure is the median over the timed sources (one warm-up call first, not
counted); Floyd-Warshall repeats the whole solve ``--repeat`` times.

Groups print one table each, every row in one run:

- ``--group calls``: what a NetworkX user runs, through NetworkX's public API, beside
  NetworkX and SciPy: a cached ``single_source_dijkstra_path_length`` call + ``len`` +
  1,000 lookups of random nodes; a cached ``single_source_dijkstra`` + reading 1,000
  random paths; the full ``dict()`` of each result; on Gnutella04
  ``dict(all_pairs_dijkstra_path_length(G))`` and ``floyd_warshall_numpy``; on NY the
  first call in a fresh process that has imported NetworkX only (the backend's
  import and the conversion included, kernels in CuPy's cache), and the first
  ``single_source_dijkstra_path`` and ``dijkstra_predecessor_and_distance`` calls
  after it in a fresh process.
- ``--group race``: the default method (``auto``), ``harish`` and SciPy per graph,
  from source 0 and the median over 10 seeded sources, distances only and with
  predecessors (paths: the predecessors a NetworkX call gets, on the device).

The asv suite in ``asv_benchmarks/`` uses the same workloads and runners. Progress
lines go to stderr; tables to stdout.
"""

import argparse
import itertools
import json
import math
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from . import datasets, solvers  # noqa: F401  (solvers: registers every method)
from .convert import to_networkx
from .executor import get_executor
from .graph import distance_inf, float_distances
from .methods import AUTO, get_method, methods_for
from .solvers import answers
from .solvers.sssp.phast import CORE_SIZE

__all__ = ["WORKLOADS", "GROUPS", "Case", "PEERS", "kernel_runner", "all_pairs_runner",
           "peer_runner", "peer_skip_reason", "e2e_runner", "user_graph", "call_runner",
           "call_skip_reason", "calls_of", "first_call_seconds", "followup_call_seconds",
           "write_first_call_graph",
           "race_runner", "race_sources", "race_times", "reached_arcs", "pick_sources",
           "median_time", "warm_device", "run_case", "run_calls", "run_race", "main"]

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
    data: tuple = field(default=(), compare=False)  # data sets (nx_gpusp.datasets) it reads


def _pace(problem, label, name):
    return Case(problem, label, lambda: datasets.load(name, as_csr=True, weights=(1, 10)),
                data=(name,))


def _real(problem, label, name):
    return Case(problem, label, lambda: datasets.load(name, as_csr=True), data=(name,))


WORKLOADS = {
    "tiny": [
        Case("sssp", "random-pred-500", lambda: datasets.random_predecessors(500)),
        Case("bellman-ford", "random-pred-500+potential",
             lambda: datasets.with_potentials(datasets.random_predecessors(500))),
        Case("floyd-warshall", "dense-96", lambda: datasets.dense_random(96)),
    ],
    "rome99": [_real("sssp", "rome99", "rome99")],
    "NY-synthetic": [_real("sssp", "NY-synthetic", "NY-synthetic")],
    "COL": [_pace("sssp", "COL w=1..10", "COL")],
    "FLA": [_pace("sssp", "FLA w=1..10", "FLA")],
    "random-pred-1M": [Case("sssp", "random-pred-1M",
                            lambda: datasets.random_predecessors(1 << 20))],
    "random-pred-4M": [Case("sssp", "random-pred-4M",
                            lambda: datasets.random_predecessors(1 << 22))],
    "rmat-20": [Case("sssp", "rmat-20", lambda: datasets.rmat(20))],
    "rmat-22": [Case("sssp", "rmat-22", lambda: datasets.rmat(22))],
    "road-6M": [Case("sssp", "geometric-road-6M",
                     lambda: datasets.random_geometric_road(6_000_000))],
    "NY-negative": [Case("bellman-ford", "NY-synthetic+potential",
                         lambda: datasets.with_potentials(
                             datasets.load("NY-synthetic", as_csr=True)),
                         data=("NY-synthetic",))],
    "gnutella04": [_real("sssp", "p2p-Gnutella04", "gnutella04")],
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
                  whole_result=False, as_called=False):
    """The solver on the device-resident graph, synchronised; distances stay on the
    device (fetch them with ``ex.to_host`` outside the timed region). ``options``: the
    method's keyword options (e.g. {"lane": "s16x2"} for fw-dpx). Single source:
    ``whole_result`` returns the SSSPResult (its ``stats`` too) instead of the distances;
    ``want_pred`` asks the solver for its own predecessors, or, ``as_called``, for the
    predecessors a NetworkX call gets (solvers.answers.sssp_on_device: near-far's keyed
    rounds on graphs of KEYED_DEGREE or more arcs a vertex, else its lengths-only rounds
    and the tight-arc tree of its distances)."""
    solve = method.solver
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
            if as_called:
                result = answers.sssp_on_device(ex, graph, method, [source], options=options,
                                                want_pred=want_pred)
            else:
                result = solve(ex, graph, [source], want_pred=want_pred, **options)
            ex.synchronize()
            return result if whole_result else result.dist
    return run


def all_pairs_runner(method, graph, ex, keep=(), options=None):
    """An "all-pairs" method on a list of sources, distances left on the device,
    synchronised: run(sources) -> ({source: device copy of its row, for the sources
    in ``keep``}, number of batches). ``options``: the method's (default: its defaults)."""
    solve, options = method.solver, method.check_options(options or {})
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


def warm_device(ex, seconds=WARM_S, work=None):
    """Keep the GPU busy for ``seconds`` so that its clocks are up before a timing: an
    idle H100 sits at 345 MHz and ramps up under load, so whatever is timed first after
    host work (kernel compilation, graph building, CPU peers, end-to-end calls) would
    otherwise run slower (measured: the same method 2.27 ms first, 1.78 ms after
    another). ``work``: the call about to be timed, repeated for those seconds; without
    it, matrix products. The products leave the next milliseconds slow (H100, near-far
    on random-pred 4M: the first call after 0.2 s of them 1.92 ms, the next four
    1.63-1.70, against 1.57 after 0.2 s of the call itself; random-pred 1M 0.85 against
    0.74), so every harness warms with the call it times."""
    if not ex.is_cuda:
        return
    end = time.perf_counter() + seconds
    if work is not None:
        while time.perf_counter() < end:
            work()
        return
    xp = ex.xp
    a = xp.ones((2048, 2048), dtype=np.float32)
    while time.perf_counter() < end:
        a = a @ a * np.float32(1 / 2048)
        ex.synchronize()


def warm_ready(ex):
    """``ready`` for median_time and race_times: warm_device with the call about to be
    timed."""
    return lambda work: warm_device(ex, work=work)


_T0 = time.perf_counter()


def progress(message):
    """One progress line on stderr (seconds since the run started), so a long row
    shows what it is doing; the tables go to stdout."""
    print(f"[{time.perf_counter() - _T0:7.1f} s] {message}", file=sys.stderr, flush=True)


def median_time(run, sources, *, slow=None, ready=None):
    """Median seconds of ``run(s)`` over ``sources[1:]`` after a warm-up on
    ``sources[0]``; also returns the last result of each source. With ``slow`` (seconds),
    a warm-up longer than that is the only timing: ([its time], [its result]).
    ``ready(work)``, if given, is called between the warm-up and the timed calls with
    ``work`` a call of ``run`` (e.g. ``warm_device(ex, work=work)``: the warm-up may have
    compiled kernels with the GPU idle)."""
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
        ready(lambda: run(sources[0]))
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
             only=None, workload=None):
    """Time every implementation on ``case`` (of the workload named ``workload``); a dict
    ready for the table and JSON."""
    ex = get_executor(device)
    nx.config.backends.gpusp.device = ex.name
    graph = _build(case, log)
    fw = case.problem == "floyd-warshall"
    sources = [None] * (repeat + 1) if fw else pick_sources(graph, n_sources)
    G, nx_note = _networkx_graph(graph, case.problem, skip_networkx)
    rows, reference = _peer_rows(case, graph, G, nx_note, sources)
    for method in methods_of(case.problem):
        if only and method.name not in only:
            continue
        progress(f"{case.label}: {method.name}")
        rows.append(_method_row(case, method, graph, ex, sources, reference, G, workload))
    _add_rates(rows, graph, fw)
    return {"problem": case.problem, "graph": case.label, "n": graph.n, "m": graph.m,
            "sources": len(sources) - 1, "device": ex.name, "rows": rows}


def _networkx_graph(graph, problem, skip_networkx):
    """(NetworkX graph of ``graph``, None) to time NetworkX on, or (None, why not)."""
    if skip_networkx:
        return None, "NetworkX skipped (--no-networkx)"
    if graph.m > NX_MAX_ARCS:
        return None, peer_skip_reason("networkx", problem, graph)
    return to_networkx(graph), None


def _peer_rows(case, graph, G, nx_note, sources):
    """Rows of SciPy and NetworkX, and SciPy's distances of the timed sources (the
    reference of the 'agrees' check; None when SciPy was skipped)."""
    rows, reference = [], None
    for peer in ("scipy", "networkx"):
        note = peer_skip_reason(peer, case.problem, graph)
        if peer == "networkx" and G is None:
            note = nx_note
        if note:
            rows.append({"impl": peer, "note": note})
            continue
        progress(f"{case.label}: {peer}")
        med, _, results = median_time(peer_runner(peer, case.problem, graph, G), sources)
        row = {"impl": peer, "kernel_s": med}
        if peer == "scipy":
            reference = [float_distances(r) for r in results]
            if case.problem != "floyd-warshall":
                row["arcs"] = [reached_arcs(graph, r) for r in results]
        rows.append(row)
    return rows, reference


def _method_row(case, method, graph, ex, sources, reference, G, workload=None):
    """The row of one gpusp method: kernel time, agreement with SciPy, GTEPS, and the
    end-to-end NetworkX calls (first and cached) when a NetworkX graph is given."""
    if method.iterations_per_vertex and graph.n > PER_VERTEX_MAX_N:
        return {"impl": method.name, "note": f"skipped: n={graph.n} host iterations "
                                             f"(> {PER_VERTEX_MAX_N} vertices)"}
    reason = preprocessing_skip_reason(method, graph, workload)
    if reason:
        return {"impl": method.name, "note": reason}
    try:
        med, times, results = median_time(kernel_runner(case.problem, method, graph, ex),
                                          sources, slow=SLOW_CALL_S,
                                          ready=warm_ready(ex))
    except Exception as exc:  # a method that cannot take this graph: say why
        return {"impl": method.name, "note": f"failed: {type(exc).__name__}: {exc}"}
    row = {"impl": method.name, "kernel_s": med}
    host = [float_distances(ex.to_host(r)) for r in results]
    once = len(times) == 1 and len(sources) > 2
    if once:  # timed on the warm-up source only (compilation included), not checked
        row["note"] = f"one call, {med:.1f} s > {SLOW_CALL_S:.0f} s: not repeated"
    elif reference is not None:
        row["agrees"] = all(np.allclose(h, r, rtol=1e-9, atol=1e-9)
                            for h, r in zip(host, reference))
    if case.problem != "floyd-warshall":
        arcs = [reached_arcs(graph, h) for h in host]
        row["gteps"] = statistics.median(a / t for a, t in zip(arcs, times)) / 1e9
    if G is not None and not once:
        e2e_sources = sources[: min(len(sources), 3)]
        row["e2e_first_s"] = median_time(
            e2e_runner(case.problem, method, graph, G, cached=False), e2e_sources)[0]
        row["e2e_cached_s"] = median_time(
            e2e_runner(case.problem, method, graph, G, cached=True), e2e_sources)[0]
    return row


def _add_rates(rows, graph, fw):
    """GOPS (Floyd-Warshall) or GTEPS (from SciPy's reached arcs where a row has none),
    and the speed-up over SciPy, of every timed row; SciPy's arc counts are dropped."""
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


def _build(case, log=print):
    progress(f"{case.label}: building the graph")
    t0 = time.perf_counter()
    graph = case.build()
    log(f"# {case.label}: {graph.n} nodes, {graph.m} arcs (built in "
        f"{time.perf_counter() - t0:.1f} s)")
    return graph


# -- what a NetworkX user runs: public calls, beside NetworkX and SciPy ---------------
LOOKUPS = 1000  # random nodes looked up, or whose paths are read, after a call
# NetworkX's single_source_dijkstra builds every path as a list: 46.6 s on FLA
NX_PATHS_MAX_ARCS = 1_000_000
NX_ALL_PAIRS_MAX_N = 2000  # NetworkX all-pairs Dijkstra: minutes above this
SSSP_CALLS = ("lengths", "paths", "lengths-dict", "lengths-copy", "paths-dict")
CALL_TITLES = {
    "lengths": "single_source_dijkstra_path_length, cached, + len + 1,000 lookups",
    "paths": "single_source_dijkstra, cached, + reading 1,000 paths",
    "lengths-dict": "single_source_dijkstra_path_length, cached, + dict(result)",
    "lengths-copy": "single_source_dijkstra_path_length, cached, + result.copy() (a dict "
                    "built once)",
    "paths-dict": "single_source_dijkstra, cached, + dict(lengths), dict(paths)",
    "all-pairs-dict": "dict(all_pairs_dijkstra_path_length(G)), cached",
    "floyd-warshall-numpy": "floyd_warshall_numpy(G), cached",
    "betweenness-k": "betweenness_centrality(G, k=min(1000, n), seed=0), hop counts, "
                     "cached",
    "betweenness-weighted": "betweenness_centrality(G, weight=...), exact (every source), "
                            "cached",
    "first-call": "single_source_dijkstra_path_length, first call in a fresh process "
                  "(NetworkX imported; the backend's import and the conversion "
                  "included, kernels in CuPy's cache)",
    "first-call-cold": "the same first call with an empty CuPy kernel cache (a new "
                       "machine: each process its own empty CUPY_CACHE_DIR; the "
                       "package's prebuilt kernels load, CuPy compiles what it must)",
    "first-call-auto": "the same first call dispatched by NETWORKX_BACKEND_PRIORITY=gpusp "
                       "(no backend=; CuPy's import and CUDA's start begin at NetworkX's "
                       "import, beside the program's loading of its graph)",
    "first-paths-call": "single_source_dijkstra_path, its first call in a fresh process "
                        "after a first lengths call (what paths add to a program's start)",
    "first-predecessors-call": "dijkstra_predecessor_and_distance, its first call in a "
                               "fresh process after a first lengths call",
    "simple-paths": "the first 10 of shortest_simple_paths(G, source, target), cached "
                    "(Yen's k shortest loopless paths)",
}
# the follow-up calls' functions and what the child reads of each answer
FOLLOWUP_CALLS = {
    "first-paths-call": ("single_source_dijkstra_path", "out[label]"),
    "first-predecessors-call": ("dijkstra_predecessor_and_distance", "out[0][label]"),
}
FIRST_CALLS = ("first-call", "first-call-cold", "first-call-auto") + tuple(FOLLOWUP_CALLS)
CALL_IMPLS = ("gpusp", "networkx", "scipy")
FIRST_CALL_WORKLOADS = ("NY-synthetic", "tiny")  # first-call rows (a fresh process each)
ALL_PAIRS_CALL_WORKLOADS = ("gnutella04", "tiny-all-pairs")
# simple-paths rows: a round of Yen's algorithm is a spur search per vertex of a path,
# and NetworkX's take seconds a round on the road networks' paths of hundreds of hops
SIMPLE_PATHS_CALL_WORKLOADS = ("tiny", "rome99", "gnutella04")
SIMPLE_PATHS_K = 10
BETWEENNESS_CALLS = ("betweenness-k", "betweenness-weighted")
BETWEENNESS_K = 1000
# NetworkX's Brandes: about a microsecond per arc and source; above this many arc visits
# (sources x arcs) its row takes minutes
NX_BETWEENNESS_MAX_WORK = 300_000_000


def calls_of(workload, case):
    """The public calls timed on ``case`` of ``workload`` (``--group calls``)."""
    if case.problem == "floyd-warshall":
        return ("floyd-warshall-numpy",)
    if case.problem != "sssp":
        return ()
    simple = ("simple-paths",) if workload in SIMPLE_PATHS_CALL_WORKLOADS else ()
    if workload in ALL_PAIRS_CALL_WORKLOADS:
        return ("all-pairs-dict", "floyd-warshall-numpy") + BETWEENNESS_CALLS + simple
    first = FIRST_CALLS if workload in FIRST_CALL_WORKLOADS else ()
    return SSSP_CALLS + first + simple


def user_graph(graph):
    """What a user's call runs on: a NetworkX graph of ``graph`` (NetworkX caches its
    conversion on the first call), or, above NX_MAX_ARCS arcs, where a NetworkX graph
    takes minutes and tens of GB to build, the converted graph itself (a CSRGraph is
    a gpusp backend graph: NetworkX dispatches a call on it to gpusp, as it does a
    cached call)."""
    return to_networkx(graph) if graph.m <= NX_MAX_ARCS else graph


def lookup_targets(graph, count=LOOKUPS, seed=1):
    """``count`` seeded random vertex indices (with repeats), the nodes a user reads."""
    return np.random.default_rng(seed).integers(0, graph.n, count).tolist()


def call_skip_reason(impl, call, graph, G=None):
    """Why ``impl`` does not run ``call`` on ``graph`` (None: it runs)."""
    if impl == "networkx":
        if G is not None and not isinstance(G, nx.Graph):
            return f"NetworkX skipped: {graph.m} arcs > {NX_MAX_ARCS} (no NetworkX graph)"
        if call == "floyd-warshall-numpy":
            return peer_skip_reason("networkx", "floyd-warshall", graph)
        if call == "all-pairs-dict" and graph.n > NX_ALL_PAIRS_MAX_N:
            return f"NetworkX skipped: all pairs on {graph.n} > {NX_ALL_PAIRS_MAX_N} nodes"
        if call in FIRST_CALLS:
            return "NetworkX converts nothing: its first call is its cached call"
        if call in BETWEENNESS_CALLS:
            sources = min(BETWEENNESS_K, graph.n) if call == "betweenness-k" else graph.n
            if sources * graph.m > NX_BETWEENNESS_MAX_WORK:
                return (f"NetworkX skipped: {sources} sources x {graph.m} arcs > "
                        f"{NX_BETWEENNESS_MAX_WORK} arc visits")
            return None
        if call in ("paths", "paths-dict") and graph.m > NX_PATHS_MAX_ARCS:
            return (f"NetworkX skipped: every path built, {graph.m} arcs > "
                    f"{NX_PATHS_MAX_ARCS}")
        return peer_skip_reason("networkx", "sssp", graph)
    if impl == "scipy":
        if call == "simple-paths":
            return "SciPy has no k shortest simple paths"
        if call in ("lengths-dict", "lengths-copy", "paths-dict") + FIRST_CALLS:
            return "SciPy returns arrays: no dict, no NetworkX call"
        if call == "floyd-warshall-numpy":
            return peer_skip_reason("scipy", "floyd-warshall", graph)
        if call in BETWEENNESS_CALLS:
            return "SciPy has no betweenness"
    return None


def _scipy_path(pred, source, target):
    path = [target]
    while path[-1] != source:
        path.append(int(pred[path[-1]]))
    path.reverse()
    return path


def call_runner(call, impl, graph, G, source=None, targets=()):
    """A callable() making ``call`` (CALL_TITLES) with ``impl``: 'gpusp' or 'networkx'
    through NetworkX's public API on ``G`` (``backend=`` set), 'scipy' the same
    question on SciPy csgraph's arrays (index lookups, paths walked through its
    predecessor array). It returns a count, so nothing is optimised away; it works
    whatever mapping type a call returns."""
    attr = graph.weight_attr or "weight"
    if impl == "scipy":
        from scipy.sparse import csgraph

        A, directed = scipy_matrix(graph), graph.directed
        if call == "lengths":
            def run():
                d = csgraph.dijkstra(A, directed=directed, indices=source)
                return len(d) + sum(1 for t in targets if d[t] != np.inf)
        elif call == "paths":
            def run():
                d, pred = csgraph.dijkstra(A, directed=directed, indices=source,
                                           return_predecessors=True)
                return sum(len(_scipy_path(pred, source, t)) for t in targets
                           if d[t] != np.inf)
        elif call == "all-pairs-dict":
            def run():  # the n x n matrix: SciPy has no per-source rows to build
                return csgraph.dijkstra(A, directed=directed).shape[0]
        elif call == "floyd-warshall-numpy":
            def run():
                return csgraph.floyd_warshall(A, directed=directed).shape[0]
        else:
            raise ValueError(f"SciPy has no {call!r} row")
        return run

    backend = {"gpusp": "gpusp", "networkx": "networkx"}[impl]
    kw = {"weight": attr, "backend": backend}
    if call in SSSP_CALLS:
        label = graph.labels([source])[0]
        nodes = graph.labels(targets)
    if call == "lengths":
        def run():
            d = nx.single_source_dijkstra_path_length(G, label, **kw)
            get = d.get
            return len(d) + sum(1 for v in nodes if get(v) is not None)
    elif call == "paths":
        def run():
            _, paths = nx.single_source_dijkstra(G, label, **kw)
            get = paths.get
            return sum(len(p) for p in map(get, nodes) if p is not None)
    elif call == "lengths-dict":
        def run():
            return len(dict(nx.single_source_dijkstra_path_length(G, label, **kw)))
    elif call == "lengths-copy":
        def run():
            return len(nx.single_source_dijkstra_path_length(G, label, **kw).copy())
    elif call == "paths-dict":
        def run():
            lengths, paths = nx.single_source_dijkstra(G, label, **kw)
            return len(dict(lengths)) + len(dict(paths))
    elif call == "all-pairs-dict":
        def run():
            return len(dict(nx.all_pairs_dijkstra_path_length(G, **kw)))
    elif call == "floyd-warshall-numpy":
        def run():
            return nx.floyd_warshall_numpy(G, **kw).shape[0]
    elif call == "simple-paths":
        reached = graph.reachable([source])  # the first looked-up node the source reaches
        t = next((t for t in targets if reached[t] and t != source), source)
        label, target = graph.labels([source, t])

        def run():
            paths = nx.shortest_simple_paths(G, label, target, **kw)
            return sum(len(p) for p in itertools.islice(paths, SIMPLE_PATHS_K))
    elif call == "betweenness-k":
        def run():
            return len(nx.betweenness_centrality(G, k=min(BETWEENNESS_K, graph.n), seed=0,
                                                 backend=backend))
    elif call == "betweenness-weighted":
        def run():
            return len(nx.betweenness_centrality(G, **kw))
    else:
        raise ValueError(f"unknown call {call!r}; choose one of {sorted(CALL_TITLES)}")
    return run


# A fresh interpreter's first gpusp call, as a user's program makes it: NetworkX imported,
# the graph loaded (not timed), nx_gpusp not imported yet (the call imports the backend,
# or, with NETWORKX_BACKEND_PRIORITY=gpusp, NetworkX's import did). Prints the call's
# seconds, then the program's from before NetworkX's import to the answer.
FIRST_CALL_CHILD = """import time
start = time.perf_counter()
import pickle
import networkx as nx
nx.config.warnings_to_ignore.add("cache")
with open({path!r}, "rb") as f:
    G, label, attr = pickle.load(f)
t0 = time.perf_counter()
nx.single_source_dijkstra_path_length(G, label, weight=attr{backend})
end = time.perf_counter()
print(end - t0, end - start)
"""

# A fresh interpreter's first call of one function after its first gpusp call (a lengths
# call): what that function adds to a program's start (a module it loads, an array it
# builds once a graph). Prints that function's first call's seconds, then its second's.
FOLLOWUP_CHILD = """import time
import pickle
import networkx as nx
nx.config.warnings_to_ignore.add("cache")
with open({path!r}, "rb") as f:
    G, label, attr = pickle.load(f)
nx.single_source_dijkstra_path_length(G, label, weight=attr, backend="gpusp")
times = []
for _ in range(2):
    t0 = time.perf_counter()
    out = nx.{function}(G, label, weight=attr, backend="gpusp")
    {read}
    times.append(time.perf_counter() - t0)
print(*times)
"""


def write_first_call_graph(graph, source, path):
    """Pickle (NetworkX graph of ``graph``, the label of vertex ``source``, the weight
    attribute) to ``path``: what a first-call child loads before its timer."""
    with open(path, "wb") as f:
        pickle.dump((to_networkx(graph), graph.labels([source])[0],
                     graph.weight_attr or "weight"), f, protocol=pickle.HIGHEST_PROTOCOL)


def first_call_seconds(workload, device, source, repeat=3, timeout=600, graph=None, *,
                       auto=False, program=False, cold=False):
    """Seconds of the first gpusp call in each of ``repeat`` fresh interpreters that
    have imported NetworkX and loaded the workload's NetworkX graph (from a pickle
    written here; not timed). Timed: the backend's import, the CUDA context,
    conversion, upload, kernel loading, solve and result. ``auto``: the call names no
    backend and NETWORKX_BACKEND_PRIORITY=gpusp dispatches it (CuPy's import and CUDA's
    start then begin at NetworkX's import). ``program``: the time from before
    NetworkX's import to the answer instead. ``graph``: the workload's CSRGraph if
    already built. Run one call in this process first so that the kernels are in
    CuPy's on-disk cache, as on a user's second run; ``cold``: each process gets an
    empty CuPy cache of its own instead, as on a machine that never ran gpusp. ``device`` 'cuda' (or 'cuda:0')
    runs the child with gpusp's default configuration (device 'auto', which finds that
    GPU), as a new user's program runs; another device is set as NX_GPUSP_DEVICE."""
    backend = "" if auto else ', backend="gpusp"'
    outs = _fresh_processes(workload, device, source, repeat, timeout, graph, auto,
                            lambda path: FIRST_CALL_CHILD.format(path=path, backend=backend),
                            cold=cold)
    times = [float(out.split()[-1 if program else -2]) for out in outs]
    return statistics.median(times), times


def followup_call_seconds(workload, device, source, call, repeat=3, timeout=600,
                          graph=None):
    """Seconds of the first call of FOLLOWUP_CALLS[``call``]'s function in each of
    ``repeat`` fresh interpreters, after their first gpusp call (a lengths call on the
    same graph and source, not timed), as first_call_seconds runs them; returns (the
    median, the first calls' times, the second calls' times)."""
    function, read = FOLLOWUP_CALLS[call]
    outs = _fresh_processes(workload, device, source, repeat, timeout, graph, False,
                            lambda path: FOLLOWUP_CHILD.format(path=path, function=function,
                                                               read=read))
    first, second = zip(*([float(x) for x in out.split()[-2:]] for out in outs))
    return statistics.median(first), list(first), list(second)


def _fresh_processes(workload, device, source, repeat, timeout, graph, auto, child, *,
                     cold=False):
    """The stdout of ``repeat`` fresh interpreters running ``child(path)``, the code of
    a program that loads the workload's NetworkX graph from the pickle at ``path``
    (first_call_seconds: the environment, the device, ``cold``)."""
    if graph is None:
        graph = next(c for c in WORKLOADS[workload] if c.problem == "sssp").build()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("NETWORKX_BACKEND_PRIORITY") and k != "NX_GPUSP_DEVICE"}
    if device not in ("cuda", "cuda:0"):  # the first GPU: the default device ('auto')
        env["NX_GPUSP_DEVICE"] = device
    if auto:
        env["NETWORKX_BACKEND_PRIORITY"] = "gpusp"
    outs = []
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "graph.pickle")
        write_first_call_graph(graph, source, path)
        code = child(path)
        for k in range(repeat):
            if cold:  # an empty CuPy kernel cache for each process
                env["CUPY_CACHE_DIR"] = os.path.join(folder, f"cupy-cache-{k}")
            out = subprocess.run([sys.executable, "-c", code],
                                 env=env, capture_output=True, text=True, timeout=timeout)
            if out.returncode:
                raise RuntimeError(f"first-call process failed:\n{out.stderr[-2000:]}")
            outs.append(out.stdout)
    return outs


def run_calls(workload, case, *, device, repeat=3, skip_networkx=False, log=print):
    """``--group calls`` on one case: a result per call, rows gpusp / NetworkX / SciPy
    (``kernel_s``: the call's median seconds over ``repeat`` calls after a warm-up,
    which also fills NetworkX's conversion cache)."""
    calls = calls_of(workload, case)
    if not calls:
        return []
    ex = get_executor(device)
    nx.config.backends.gpusp.device = ex.name
    graph = _build(case, log)
    G = user_graph(graph)
    source = pick_sources(graph, 1)[0]
    targets = lookup_targets(graph)
    results = []
    for call in calls:
        rows = []
        for impl in CALL_IMPLS:
            if impl == "networkx" and skip_networkx:
                rows.append({"impl": impl, "note": "NetworkX skipped (--no-networkx)"})
                continue
            note = call_skip_reason(impl, call, graph, G)
            if note:
                rows.append({"impl": impl, "note": note})
                continue
            progress(f"{case.label}: {call}: {impl}")
            if call in ("first-call", "first-call-cold", "first-call-auto"):
                med, times = first_call_seconds(workload, ex.name, source, repeat,
                                                graph=graph, auto=call == "first-call-auto",
                                                cold=call == "first-call-cold")
            elif call in FOLLOWUP_CALLS:
                med, times, _ = followup_call_seconds(workload, ex.name, source, call,
                                                      repeat, graph=graph)
            else:
                run = call_runner(call, impl, graph, G, source, targets)
                med, times, _ = median_time(lambda _s: run(), [None] * (repeat + 1),
                                            slow=SLOW_CALL_S)
            row = {"impl": impl, "kernel_s": med}
            if len(times) == 1 and repeat > 1:
                row["note"] = f"one call, {med:.1f} s > {SLOW_CALL_S:.0f} s: not repeated"
            rows.append(row)
        results.append({"problem": "call", "call": call, "title": CALL_TITLES[call],
                        "graph": case.label, "n": graph.n, "m": graph.m,
                        "sources": repeat, "device": ex.name, "rows": rows})
    return results


# -- the kernel race: auto beside harish and SciPy, source 0 and 10 sources -----------
RACE_WORKLOADS = ("NY-synthetic", "FLA", "random-pred-1M", "random-pred-4M", "rmat-20",
                  "rmat-22")
RACE_IMPLS = ("auto", "harish", "scipy")
# road networks, where the race also runs method "phast" (a preprocessed hierarchy; on
# graphs that do not contract it refuses, after tens of seconds on the random ones).
# Not road-6M: its Euclidean weights are floats, which phast refuses (integer only).
ROAD_WORKLOADS = ("NY-synthetic", "COL", "FLA")
RACE_SOURCES = 10


def preprocessing_skip_reason(method, graph, workload):
    """Why the benchmarks do not run ``method`` on ``workload`` (None: they do): phast
    and phast-batched only where their hierarchy contracts the graph (road networks) or
    the whole graph is its core; elsewhere they refuse after tens of seconds of
    preprocessing."""
    if method.name in ("phast", "phast-batched") and workload not in ROAD_WORKLOADS \
            and graph.n > CORE_SIZE:
        return (f"{method.name} skipped: not one of the road workloads with integer weights "
                "(its hierarchy would not contract the others, or it refuses their float "
                "weights)")
    return None


def race_impls(workload):
    """The race's rows on ``workload``: RACE_IMPLS, and "phast" on a road network."""
    return RACE_IMPLS + (("phast",) if workload in ROAD_WORKLOADS else ())


def race_sources(graph, count=RACE_SOURCES, seed=0):
    """``count`` seeded vertices with outgoing arcs (the 10-source median's)."""
    return pick_sources(graph, count, seed)[1:]


def race_runner(impl, graph, ex, *, paths=False):
    """run(source) for ``impl`` ('auto': the method ``method="auto"`` runs, a method
    name, or 'scipy'), with predecessors when ``paths`` (those a NetworkX call gets:
    near-far's from keyed rounds or the tight-arc tree, see kernel_runner); synchronised."""
    if impl == "scipy":
        from scipy.sparse import csgraph

        A, directed = scipy_matrix(graph), graph.directed
        return lambda s: csgraph.dijkstra(A, directed=directed, indices=s,
                                          return_predecessors=paths)
    name = AUTO["sssp"](graph, False) if impl == "auto" else impl
    method = get_method("sssp", name)
    if method is None:
        raise ValueError(f"unknown sssp method {name!r}")
    return kernel_runner("sssp", method, graph, ex, want_pred=paths, as_called=True)


def race_times(run, sources, repeat, ready):
    """(source-0 median over ``repeat`` calls, median over ``sources``, source-0 result);
    a call slower than SLOW_CALL_S is not repeated (its single time is the figure). The
    first call compiles what it needs and is not timed. ``ready(work)``: the warm-up
    before the timed calls, ``work`` a call from source 0 (median_time's)."""
    first = run(0)
    t0 = time.perf_counter()
    run(0)
    once = time.perf_counter() - t0
    if once <= SLOW_CALL_S:
        src0 = median_time(run, [0] * (repeat + 1), ready=ready)[0]
    else:
        src0 = once
    times = []
    for s in sources:
        t0 = time.perf_counter()
        run(s)
        times.append(time.perf_counter() - t0)
    return src0, statistics.median(times), first


def run_race(case, *, device, repeat=5, n_sources=RACE_SOURCES, skip_scipy=False,
             log=print, impls=RACE_IMPLS):
    """``--group race`` on one case: rows auto / harish / SciPy with source-0 and
    10-source medians, lengths and paths, GTEPS from source 0, paths over lengths."""
    ex = get_executor(device)
    graph = _build(case, log)
    sources = race_sources(graph, n_sources)
    ready = warm_ready(ex)
    rows, reference = [], None
    for impl in impls:
        if impl == "scipy" and skip_scipy:
            rows.append({"impl": impl, "note": "SciPy skipped (--no-scipy)"})
            continue
        label = f"auto ({AUTO['sssp'](graph, False)})" if impl == "auto" else impl
        row = {"impl": label}
        if impl == "phast":  # its hierarchy is built once per graph, before the timing
            start = time.perf_counter()
            try:
                race_runner(impl, graph, ex)(0)
            except ValueError as err:
                rows.append({"impl": label, "note": str(err)})
                continue
            row["note"] = f"hierarchy built once: {time.perf_counter() - start:.1f} s"
        for paths in (False, True):
            progress(f"{case.label}: {label}{' with paths' if paths else ''}")
            run = race_runner(impl, graph, ex, paths=paths)
            src0, med, first = race_times(run, sources, repeat, ready)
            key = "paths_" if paths else ""
            row[f"{key}src0_s"], row[f"{key}median_s"] = src0, med
            if not paths:
                dist = float_distances(first if impl == "scipy" else ex.to_host(first))
                row["gteps"] = reached_arcs(graph, dist) / src0 / 1e9
                if impl == "scipy":
                    reference = dist
                row["_dist"] = dist
        row["paths_over_lengths"] = row["paths_median_s"] / row["median_s"]
        row["kernel_s"] = row["src0_s"]  # what --plot draws
        rows.append(row)
    for row in rows:
        dist = row.pop("_dist", None)
        if dist is not None and reference is not None and row["impl"] != "scipy":
            row["agrees"] = bool(np.allclose(dist, reference, rtol=1e-9, atol=1e-9))
    return {"problem": "race", "graph": case.label, "n": graph.n, "m": graph.m,
            "sources": len(sources), "repeat": repeat, "device": ex.name, "rows": rows}


GROUPS = {
    "calls": ("NY-synthetic", "FLA", "gnutella04"),
    "race": RACE_WORKLOADS,
}


# -- output --------------------------------------------------------------------------
def _ms(x):
    return "-" if x is None else f"{x * 1e3:.3f}"


def _num(x, fmt):
    return "-" if x is None else format(x, fmt)


def _render(head, body):
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    return ["  ".join(str(x).ljust(w) for x, w in zip(row, widths)).rstrip()
            for row in [head, *body]]


def _agrees(row):
    agrees = row.get("agrees")
    return "-" if agrees is None else ("yes" if agrees else "NO")


def format_table(result):
    if result["problem"] == "call":
        return _format_call(result)
    if result["problem"] == "race":
        return _format_race(result)
    fw = result["problem"] == "floyd-warshall"
    rate = "Gops/s" if fw else "GTEPS"
    head = ["impl", "kernel ms", "e2e first ms", "e2e cached ms", rate, "x SciPy", "agrees",
            "note"]
    lines = [f"{result['problem']} on {result['graph']} ({result['n']} nodes, {result['m']} "
             f"arcs), device={result['device']}, median of {result['sources']} "
             f"{'repeats' if fw else 'sources'}"]
    body = []
    for r in result["rows"]:
        body.append([r["impl"], _ms(r.get("kernel_s")), _ms(r.get("e2e_first_s")),
                     _ms(r.get("e2e_cached_s")), _num(r.get("gops" if fw else "gteps"), ".4f"),
                     _num(r.get("speedup_vs_scipy"), ".2f"), _agrees(r), r.get("note", "")])
    return "\n".join(lines + _render(head, body))


def _format_call(result):
    lines = [f"{result['title']} on {result['graph']} ({result['n']} nodes, {result['m']} "
             f"arcs), device={result['device']}, median of {result['sources']} calls"]
    rows = result["rows"]
    gpusp = next((r.get("kernel_s") for r in rows if r["impl"] == "gpusp"), None)
    body = [[r["impl"], _ms(r.get("kernel_s")),
             _num(r["kernel_s"] / gpusp if gpusp and "kernel_s" in r else None, ".1f"),
             r.get("note", "")] for r in rows]
    return "\n".join(lines + _render(["impl", "ms", "x gpusp", "note"], body))


def _format_race(result):
    lines = [f"race on {result['graph']} ({result['n']} nodes, {result['m']} arcs), "
             f"device={result['device']}: source 0 (median of {result['repeat']} calls) "
             f"and the median over {result['sources']} seeded sources"]
    head = ["impl", "src0 ms", f"{result['sources']}-src ms", "src0 paths ms",
            f"{result['sources']}-src paths ms", "paths/lengths", "GTEPS src0", "agrees",
            "note"]
    body = [[r["impl"], _ms(r.get("src0_s")), _ms(r.get("median_s")),
             _ms(r.get("paths_src0_s")), _ms(r.get("paths_median_s")),
             _num(r.get("paths_over_lengths"), ".2f"), _num(r.get("gteps"), ".2f"),
             _agrees(r), r.get("note", "")] for r in result["rows"]]
    return "\n".join(lines + _render(head, body))


PEER_COLOURS = {"networkx": "tab:orange", "scipy": "tab:green"}
METHOD_COLOUR, DEFAULT_COLOUR = "tab:blue", "tab:red"


def _default_method(result):
    problem = {"bellman-ford": "sssp", "race": "sssp"}.get(result["problem"],
                                                          result["problem"])
    return AUTO[problem](None, False) if problem in AUTO else None


def _bar_style(impl, default):
    if impl in PEER_COLOURS:
        return PEER_COLOURS[impl], impl
    if impl == default or impl.startswith("auto") or impl == "gpusp":
        return DEFAULT_COLOUR, "gpusp default (method='auto')"
    return METHOD_COLOUR, "gpusp method"


def _plot_axes(ax, res):
    """Bars of one result (log scale), coloured by kind; returns {kind: bar}."""
    from matplotlib.ticker import FuncFormatter

    rows = [r for r in res["rows"] if "kernel_s" in r]
    default = _default_method(res)
    names = [r["impl"] + (" (auto)" if r["impl"] == default else "") for r in rows]
    styles = [_bar_style(r["impl"], default) for r in rows]
    ms = [r["kernel_s"] * 1e3 for r in rows]
    x = np.arange(len(rows))
    bars = ax.bar(x, ms, color=[c for c, _ in styles], width=0.7)
    kinds = {}
    for bar, (_, kind) in zip(bars, styles):
        kinds.setdefault(kind, bar)
    ax.set_xticks(x)
    ax.set_xticklabels(names, rotation=60, ha="right", rotation_mode="anchor", fontsize=8)
    ax.set_xlim(-0.6, len(rows) - 0.4)
    ax.set_yscale("log")
    ax.set_ylim(min(ms) / 3, max(ms) * 2)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda v, _pos: ""))
    what = {"call": "call", "race": "source 0"}.get(res["problem"], "kernel")
    ax.set_ylabel(f"{what} time, ms (median)", fontsize=8)
    title = res.get("call", res["problem"])
    ax.set_title(f"{title}: {res['graph']}", fontsize=9)
    return kinds


def plot(results, path, per_row=4):
    """One panel per result (up to ``per_row`` a row), bars by kind: gpusp's default
    method, the other gpusp methods, NetworkX and SciPy each in its own colour."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [r for r in results if any("kernel_s" in row for row in r["rows"])]
    if not panels:
        return
    bars = max(sum("kernel_s" in row for row in r["rows"]) for r in panels)
    cols = min(per_row if bars <= 8 else 2, len(panels))
    nrows = -(-len(panels) // cols)
    fig, axes = plt.subplots(nrows, cols, squeeze=False,
                             figsize=(cols * max(3.2, 0.42 * bars + 1.4), 4.6 * nrows + 0.6))
    kinds = {}
    for ax, res in zip(axes.flat, panels):
        kinds.update(_plot_axes(ax, res))
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    fig.legend(kinds.values(), kinds.keys(), loc="upper center", ncol=len(kinds),
               fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.5 / fig.get_figheight()))
    fig.savefig(path, dpi=120)
    plt.close(fig)


# -- command line ---------------------------------------------------------------------
def _fail(message):
    """One line on stderr and exit status 2 (as argparse does for a bad argument)."""
    print(f"python -m nx_gpusp.bench: error: {message}", file=sys.stderr)
    sys.exit(2)


def _check_output_path(option, path):
    target = os.path.abspath(path)
    folder = os.path.dirname(target)
    if os.path.isdir(target):
        _fail(f"{option} {path}: is a directory")
    if not os.path.isdir(folder):
        _fail(f"{option} {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (os.path.exists(target)
                                          and not os.access(target, os.W_OK)):
        _fail(f"{option} {path}: not writable")


def _check_args(args, workloads):
    """Everything that can be found wrong before the run, each a one-line error."""
    problems = {c.problem for w in workloads for c in WORKLOADS[w]}
    if args.methods:
        valid = sorted({m.name for p in problems for m in methods_of(p)})
        unknown = sorted(set(args.methods) - set(valid))
        if unknown:
            _fail(f"--methods: unknown {', '.join(unknown)}; the workloads' methods are: "
                  f"{', '.join(valid)}")
    if args.device == "cuda":
        from .executor import cuda_available

        if not cuda_available():
            _fail("--device cuda: CuPy is not installed or sees no GPU (pip install "
                  "'nx-gpusp[cuda12]' or 'nx-gpusp[cuda13]'); use --device cpu")
    for w in workloads:
        for case in WORKLOADS[w]:
            for name in case.data:
                try:
                    datasets.find(name)
                except FileNotFoundError as exc:
                    _fail(f"workload {w}: {exc}")
    if args.json:
        _check_output_path("--json", args.json)
    if args.plot:
        _check_output_path("--plot", args.plot)
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            _fail("--plot needs matplotlib (pip install matplotlib, or "
                  "pip install 'nx-gpusp[bench]')")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m nx_gpusp.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workload", action="append", choices=sorted(WORKLOADS),
                        help="workload to run (repeatable; default: tiny, or the group's)")
    parser.add_argument("--group", choices=sorted(GROUPS),
                        help="calls: public NetworkX calls beside NetworkX and SciPy on "
                             f"{', '.join(GROUPS['calls'])}; race: auto, harish and SciPy "
                             f"from source 0 and 10 sources on {', '.join(RACE_WORKLOADS)}")
    parser.add_argument("--sources", type=int, default=None,
                        help="timed sources per SSSP case after one warm-up source "
                             f"(default 5; --group race: {RACE_SOURCES})")
    parser.add_argument("--repeat", type=int, default=None,
                        help="timed repeats per Floyd-Warshall case, per call (--group "
                             "calls; default 3) and on source 0 (--group race; default 5)")
    parser.add_argument("--device", default="auto", choices=["auto", "cuda", "cpu"])
    parser.add_argument("--no-networkx", action="store_true", help="skip NetworkX rows")
    parser.add_argument("--no-scipy", action="store_true",
                        help="skip SciPy rows (--group race)")
    parser.add_argument("--methods", default="", type=lambda v: [m for m in v.split(",") if m],
                        help="comma list: time only these gpusp methods (default: all)")
    parser.add_argument("--json", metavar="FILE", help="write the results as JSON")
    parser.add_argument("--plot", metavar="FILE.png", help="bar chart (needs matplotlib)")
    args = parser.parse_args(argv)
    workloads = args.workload or list(GROUPS.get(args.group, ("tiny",)))
    _check_args(args, workloads)
    nx.config.warnings_to_ignore.add("cache")
    results = []
    for name in workloads:
        for case in WORKLOADS[name]:
            if args.group == "calls":
                out = run_calls(name, case, device=args.device, repeat=max(1, args.repeat or 3),
                                skip_networkx=args.no_networkx)
            elif args.group == "race":
                if case.problem != "sssp":
                    continue
                out = [run_race(case, device=args.device, repeat=max(1, args.repeat or 5),
                                n_sources=max(1, args.sources or RACE_SOURCES),
                                skip_scipy=args.no_scipy, impls=race_impls(name))]
            else:
                out = [run_case(case, device=args.device,
                                n_sources=max(1, args.sources or 5),
                                repeat=max(1, args.repeat or 3),
                                skip_networkx=args.no_networkx,
                                only=set(args.methods), workload=name)]
            for res in out:
                res["workload"] = name
                print(format_table(res), flush=True)
                print()
                results.append(res)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"argv": sys.argv[1:] if argv is None else list(argv),
                       "results": results}, f, indent=1,
                      default=lambda x: None if isinstance(x, float) and math.isnan(x) else x)
    if args.plot:
        plot(results, args.plot)
    return results


if __name__ == "__main__":
    main()
