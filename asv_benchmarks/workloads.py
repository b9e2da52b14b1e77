"""Workloads of the asv suite, chosen by NX_GPUSP_BENCH_SCALE (ci | gpu), and a disk
cache of generated graphs so that each benchmark process loads rather than rebuilds
them (NX_GPUSP_BENCH_CACHE, default .asv/graph-cache in the repository).

Workload names are those of ``nx_gpusp.bench.WORKLOADS``; methods come from the
registry, so a newly registered method is benchmarked without editing this suite.
"""

import os
from pathlib import Path

import numpy as np

from nx_gpusp.bench import WORKLOADS, methods_of
from nx_gpusp.executor import get_executor
from nx_gpusp.graph import CSRGraph
from nx_gpusp.methods import AUTO

SCALE = os.environ.get("NX_GPUSP_BENCH_SCALE", "ci")
if SCALE not in ("ci", "gpu"):
    raise ValueError(f"NX_GPUSP_BENCH_SCALE must be 'ci' or 'gpu', got {SCALE!r}")
DEVICE = os.environ.get("NX_GPUSP_BENCH_DEVICE", "auto")

# problem -> workload names (each workload's Case list is filtered by problem)
_BY_SCALE = {
    "ci": {
        "sssp": ["tiny"],
        "bellman-ford": ["tiny"],
        "floyd-warshall": ["tiny"],
        "all-pairs": ["tiny-all-pairs"],
        "convert": ["rome99"],
        "e2e": ["tiny"],
        "calls": ["tiny"],
        "calls-dict": ["tiny"],
        "all-pairs-calls": ["tiny-all-pairs"],
        "fw-calls": ["tiny"],
        "first-call": ["tiny"],
        "race": ["tiny"],
        "simple-paths-calls": ["tiny"],
    },
    "gpu": {
        "sssp": ["NY-synthetic", "COL", "FLA", "random-pred-1M", "random-pred-4M",
                 "rmat-20", "rmat-22", "road-6M"],
        "bellman-ford": ["NY-negative"],
        "floyd-warshall": ["fw-1024", "fw-8192"],
        "all-pairs": ["gnutella04"],
        "convert": ["NY-synthetic", "FLA"],
        "e2e": ["NY-synthetic"],
        # public NetworkX calls on the README's graphs
        "calls": ["NY-synthetic", "FLA", "rmat-20", "rmat-22", "random-pred-4M"],
        "calls-dict": ["NY-synthetic", "FLA"],
        "all-pairs-calls": ["gnutella04"],
        "fw-calls": ["fw-8192", "gnutella04"],
        "first-call": ["NY-synthetic"],
        # the kernel race: auto beside harish and SciPy, source 0 and 10 sources
        "race": ["NY-synthetic", "FLA", "random-pred-1M", "random-pred-4M", "rmat-20",
                 "rmat-22"],
        # Yen's k shortest simple paths (nx_gpusp.bench.SIMPLE_PATHS_CALL_WORKLOADS)
        "simple-paths-calls": ["rome99", "gnutella04"],
    },
}
_only = os.environ.get("NX_GPUSP_BENCH_WORKLOADS")  # comma list: restrict further
ONLY = set(_only.split(",")) if _only else None


# a call that still takes longer than this (seconds) after its warm-up is left out of
# the asv run (reported as skipped; nx_gpusp.bench times it once): the paper-faithful
# methods with n host iterations take seconds a call on road graphs, and asv repeats
# every call, which would stretch a run past ten minutes
SLOW_S = float(os.environ.get("NX_GPUSP_ASV_SLOW_S", "2.0"))
SLOW_ALL_PAIRS_S = float(os.environ.get("NX_GPUSP_ASV_SLOW_ALL_PAIRS_S", "15.0"))
# public NetworkX calls (and their peers) are kept up to this many seconds a call, so
# that NetworkX and SciPy stand beside gpusp where they finish in reasonable time
SLOW_CALL_S = float(os.environ.get("NX_GPUSP_ASV_SLOW_CALL_S", "10.0"))
# methods with n host iterations (the paper-faithful bf-vertex, bf-strided,
# dijkstra-reduction) take seconds a call from here on: skipped without a try
PER_VERTEX_MAX_N = 50_000


def skip_per_vertex(method, graph, limit, what, timed_by=""):
    """Skip (NotImplementedError, asv's "skipped") a method whose iterations grow with n
    on a graph of more than ``limit`` vertices; ``what`` says what grows, ``timed_by``
    what times it instead."""
    if method.iterations_per_vertex and graph.n > limit:
        where = f" ({timed_by} times it)" if timed_by else ""
        raise NotImplementedError(f"{method.name}: {what}, skipped above {limit} "
                                  f"vertices{where}")


class _TooSlow(Exception):
    pass


def _interrupt(signum, frame):
    raise _TooSlow


def warm_up(run, *args, slow=SLOW_S, key=None):
    """Call ``run(*args)`` once (compilation, first allocations); if that took longer
    than ``slow`` seconds, once more, and skip the benchmark (NotImplementedError, which
    asv reports as skipped) if it is still slow. A call is interrupted (SIGALRM) after
    five times ``slow``, so that a peer or method that runs for minutes (as SciPy's
    O(n m) johnson did on NY with potentials) costs seconds. With ``key``, a slow
    verdict is kept in the cache folder, so the other benchmarks of the same class and
    parameters skip without calling it again."""
    import json
    import signal
    import time

    verdicts = _cache_dir() / "slow-calls.json"
    known = json.loads(verdicts.read_text()) if key and verdicts.is_file() else {}
    took = known.get(f"{DEVICE}:{key}")
    if took is None:
        previous = signal.signal(signal.SIGALRM, _interrupt)
        try:
            for _ in range(2):
                t0 = time.perf_counter()
                signal.setitimer(signal.ITIMER_REAL, 5 * slow)
                try:
                    try:
                        run(*args)
                    finally:  # an alarm due just as run returns is caught below too
                        signal.setitimer(signal.ITIMER_REAL, 0)
                except MemoryError as exc:  # a method that cannot hold this graph says so
                    raise NotImplementedError(str(exc)) from exc
                except _TooSlow:
                    took = time.perf_counter() - t0
                    break
                took = time.perf_counter() - t0
                if took <= slow:
                    return
        finally:
            signal.signal(signal.SIGALRM, previous)
        if key:
            known[f"{DEVICE}:{key}"] = took
            verdicts.parent.mkdir(parents=True, exist_ok=True)
            verdicts.write_text(json.dumps(known))
    raise NotImplementedError(f"{took:.1f} s or more a call > {slow:g} s "
                              "(NX_GPUSP_ASV_SLOW_S): left out of the asv run; "
                              "nx_gpusp.bench times it")


def workloads(problem):
    names = _BY_SCALE[SCALE][problem]
    return [w for w in names if ONLY is None or w in ONLY] or names[:1]


def case_of(workload, problem):
    """The Case of ``workload`` for ``problem``: all-pairs, convert, e2e and the
    public-call problems take the workload's first non-negative SSSP case, fw-calls its
    Floyd-Warshall case where it has one (else its SSSP case)."""
    wants = {"fw-calls": ("floyd-warshall", "sssp")}.get(
        problem, (problem,) if problem in ("sssp", "bellman-ford", "floyd-warshall")
        else ("sssp",))
    for want in wants:
        for case in WORKLOADS[workload]:
            if case.problem == want:
                return case
    raise KeyError(f"workload {workload!r} has no {' or '.join(wants)} case")


def method_names(problem):
    return [m.name for m in methods_of(problem)]


def e2e_names():
    """The sssp methods the end-to-end class times: all at the ci scale, else the
    default (what ``method="auto"`` runs; nx_gpusp.bench times every method)."""
    names = method_names("sssp")
    return names if SCALE == "ci" else [AUTO["sssp"](None, False)]


def method(problem, name):
    return next(m for m in methods_of(problem) if m.name == name)


def executor():
    return get_executor(DEVICE)


def each_sssp_for_all_pairs():
    """At the ci scale all-pairs also runs every sssp method source after source;
    at the gpu scale only the registered all-pairs methods (time)."""
    return SCALE == "ci"


def _slug(label):
    return label.replace(" ", "_").replace("/", "_")


def _cache_dir():
    env = os.environ.get("NX_GPUSP_BENCH_CACHE")
    return Path(env) if env else Path(__file__).resolve().parents[1] / ".asv" / "graph-cache"


def load_graph(case):
    """The case's CSRGraph, built once and then read back from the disk cache.

    A graph that cannot be had here (say, its data file is missing) raises
    NotImplementedError, which asv reports as a skipped benchmark.
    """
    path = _cache_dir() / f"{_slug(case.label)}.npz"
    if path.is_file():
        z = np.load(path, allow_pickle=False)
        nodes = z["nodes"].tolist() if "nodes" in z else None
        g = CSRGraph(z["indptr"], z["indices"], z["weights"], nodes=nodes,
                     directed=bool(z["directed"]), weighted=bool(z["weighted"]),
                     weight_attr=str(z["weight_attr"]) or None,
                     graph_attrs={"name": case.label})
        return g
    try:
        g = case.build()
    except FileNotFoundError as exc:
        raise NotImplementedError(str(exc)) from exc
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {"indptr": g.indptr, "indices": g.indices, "weights": g.weights,
              "directed": g.directed, "weighted": g.weighted,
              "weight_attr": g.weight_attr or ""}
    if g._nodes is not None:
        arrays["nodes"] = np.asarray(g._nodes)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, **arrays)
    tmp.replace(path)
    return g
