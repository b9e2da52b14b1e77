"""Measure the two claims of gpusp's Dask path: one GPU alone against a cluster of two.

Each workload is timed in this one process first with no client (one device), then with
``nx.config.backends.gpusp.dask_client`` set to a cluster of --workers workers on the
same host; printed: each speed-up (one device's time / the cluster's), its target, and
whether the answers agree.

  (a) the all-pairs measures spread over the GPUs, target >= 1.9x on two:
  closeness  closeness_centrality on an R-MAT graph of 2**17 vertices (edge factor 8,
             undirected, hop counts; built as tools/measures_probe.py builds it), called
             through NetworkX on the converted graph
  harmonic   harmonic_centrality on the same graph
  usroads    weighted closeness_centrality(distance="weight") of the largest component of
             usroads (SuiteSparse, 126,146 nodes, seeded weights 1..10), a road network:
             phast-batched over a contraction hierarchy built by the untimed call (it
             reaches the workers with the graph)
  fla        the same on FLA (DIMACS Florida, 1.07M nodes, seeded weights 1..10)
  (b) a client never slows the all-pairs rows down, target >= 1.0x:
  rows       all-pairs lengths of --sources sources on the 1M-vertex 7-predecessor graph
             (nx_gpusp.datasets.random_predecessors(2**20)): the rows of
             nx_gpusp.distributed.source_rows (what all_pairs_dijkstra_path_length
             streams), every row reaching this process as host arrays, through a
             cluster of worker processes with the rows' plan on (the first share timed
             here; the rest here or on the workers, nx_gpusp.distributed.rows_here);
             where the rows went is printed; rows of every 64th source are compared

Each time is the median of --repeat calls after one untimed call (kernel compilation,
the graph's upload, on the cluster also its scatter to the workers). For each cluster
call, from Dask's task stream: every worker's compute seconds, the time from the call's
start to the first task's compute, and from the last compute's end to the call's return
(what scheduling, transfers and the caller's own work cost). The measures are
timed on one device before the cluster starts (its worker on the same GPU would hold
device memory and shrink one device's batches). The rows, which the plan keeps in this
process, are timed in alternation, one device then the cluster, with the cluster up:
both sides then run on the same device and the same host memory, whose speed (4 GiB of
new host arrays a call) drifts over a process's life by more than the difference
measured.

GPU mode (default): the cluster is dask-cuda's LocalCUDACluster (one worker process per
GPU), or, where dask_cuda does not import, Nannies of distributed whose
CUDA_VISIBLE_DEVICES each start with their own GPU (what LocalCUDACluster does). This
process computes on cuda:0. NVLink multicast stays off: NCCL_NVLS_ENABLE=0 (and the
PyTorch/NVSHMEM equivalents) is set in this process's environment before any worker
starts, so every worker inherits it.

--cpu: the same on a 2-worker CPU LocalCluster of processes with the NumPy twin and
small sizes (2**12 vertices, 128 sources; R-MAT 2**10; a 300-node integer geometric
road network, nx_gpusp.datasets.integer_geometric_road, for both road workloads), a
check of the script that runs anywhere.

On the 2-GPU machine, which has no network (wheels from tools/fetch_dask_wheels.sh,
carried as .whl-dask/):
    python3 -m pip install -q --no-index --no-deps --target /tmp/site-dask .whl-dask/*.whl
    . tools/device_snapshot.sh
    PYTHONPATH=/tmp/site-dask NCCL_NVLS_ENABLE=0 python3 tools/dask_scaling.py --json $OUT/dask.json

--tasks-too: each measure is also timed on the cluster with its shares as Dask tasks
instead of calls to the workers' ShareServers (printed, and in the JSON as tasks_s).

--in-process: the cluster of nx_gpusp.distributed.local_gpu_client instead (one worker
thread per GPU inside this process: rows reach the caller by reference, no socket, and
always come from the workers). --rows-bandwidth B sets dask_rows_bandwidth (bytes per
second; e.g. 10**15 sends every row to the workers, 0 keeps them here).

Usage: python3 tools/dask_scaling.py [--cpu] [--in-process] [--only WORKLOAD]...
           [--workers N] [--sources N] [--pred-scale S] [--rmat-scale S] [--repeat N]
           [--rows-bandwidth B] [--tasks-too] [--json FILE]
(needs the package installed, e.g. pip install -e ".[dask]")
"""

import os

# before anything can start a worker process: every process below inherits these
for _var, _value in (("NCCL_NVLS_ENABLE", "0"), ("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1"),
                     ("NVSHMEM_DISABLE_NVLS", "1")):
    os.environ[_var] = _value

import argparse  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import math  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import networkx as nx  # noqa: E402
import numpy as np  # noqa: E402

from nx_gpusp import datasets  # noqa: E402
from nx_gpusp import distributed as nxd  # noqa: E402
from nx_gpusp.algorithms.common import configured_executor  # noqa: E402
from nx_gpusp.methods import choose  # noqa: E402

WORKLOADS = ("rows", "closeness", "harmonic", "usroads", "fla")
TARGETS = {"rows": 1.0, "closeness": 1.9, "harmonic": 1.9, "usroads": 1.9,
           "fla": 1.9}  # speed-up on two GPUs
INTERLEAVED = ("rows",)  # timed in alternation with the cluster up (see above)
CHECK_EVERY = 64  # rows of every 64th source are kept and compared
SIZES = {"gpu": {"pred_scale": 20, "sources": 4096, "rmat_scale": 17},
         "cpu": {"pred_scale": 12, "sources": 128, "rmat_scale": 10, "road_nodes": 300}}
RMAT_EDGE_FACTOR = 8


def say(*args):
    print(*args, flush=True)


# -- clusters ------------------------------------------------------------------------------
def start_cluster(args):
    """(cluster, description) of --workers workers on this host."""
    import distributed

    if args.cpu:
        cluster = distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                           processes=True, dashboard_address=":0",
                                           silence_logs=logging.ERROR)
        return cluster, f"LocalCluster, {args.workers} CPU worker processes"
    devices = ",".join(str(i) for i in range(args.workers))
    try:
        from dask_cuda import LocalCUDACluster

        cluster = LocalCUDACluster(CUDA_VISIBLE_DEVICES=devices, threads_per_worker=1,
                                   dashboard_address=":0", silence_logs=logging.ERROR)
        return cluster, f"dask-cuda LocalCUDACluster, GPUs {devices}"
    except Exception as exc:  # not installed, or not working with this image's CUDA
        say(f"no LocalCUDACluster ({type(exc).__name__}: {exc}); starting one Nanny per "
            "GPU instead")
    order = list(range(args.workers))
    workers = {}
    for i in order:
        visible = ",".join(str(d) for d in order[i:] + order[:i])  # own GPU first
        workers[f"gpu-{i}"] = {"cls": distributed.Nanny, "options": {
            "nthreads": 1, "host": "127.0.0.1",
            "env": {"CUDA_VISIBLE_DEVICES": visible, "NCCL_NVLS_ENABLE": "0"}}}
    cluster = distributed.SpecCluster(
        workers=workers, scheduler={"cls": distributed.Scheduler, "options": {
            "host": "127.0.0.1", "dashboard_address": ":0"}},
        silence_logs=logging.ERROR)
    return cluster, f"distributed SpecCluster of Nannies, GPUs {devices}"


def served_calls(client):
    """Every worker's record of its ShareServer calls: (worker, start, stop) each."""
    served = client.run(lambda: [(c[4], c[2], c[3]) for c in nxd.SERVED])
    return list({call for calls in served.values() for call in calls})


def task_timeline(stream, served, start, end):
    """Where one cluster call's time went, from its get_task_stream record and the
    ShareServer calls (``served_calls``) between ``start`` and ``end`` (time.time(), as
    the workers stamp them): (each worker's compute seconds, largest first; seconds from
    the call's ``start`` to the first compute's start; seconds from the last compute's
    stop to the call's ``end``)."""
    busy, first, last = {}, None, None
    spans = [(entry["worker"], part["start"], part["stop"]) for entry in stream.data
             for part in entry.get("startstops", ()) if part.get("action") == "compute"]
    spans += [(w, a, b) for w, a, b in served if start <= a and b <= end]
    for worker, a, b in spans:
        busy[worker] = busy.get(worker, 0.0) + b - a
        first = a if first is None else min(first, a)
        last = b if last is None else max(last, b)
    if first is None:
        return [], None, None
    return sorted(busy.values(), reverse=True), first - start, end - last


# -- workloads -----------------------------------------------------------------------------
def rows_workload(args, size):
    graph = datasets.random_predecessors(1 << size["pred_scale"])
    sources = np.arange(min(size["sources"], graph.n), dtype=np.int64)
    label = (f"all-pairs lengths, {len(sources)} sources, random-pred 2^{size['pred_scale']}"
             f" ({graph.n} nodes, {graph.m} arcs)")

    def run():
        ex = configured_executor()
        method = choose("all-pairs", "auto", graph, negative_ok=False)
        kept, rows = {}, 0
        for srcs, dist, _ in nxd.source_rows(ex, graph, method, method.check_options({}),
                                             cutoff=None, want_pred=False, sources=sources):
            rows += len(srcs)
            for k in np.flatnonzero(srcs % CHECK_EVERY == 0).tolist():
                kept[int(srcs[k])] = dist[k].astype(np.int64)
        if rows != len(sources):
            raise RuntimeError(f"{rows} rows came back for {len(sources)} sources")
        return kept

    def agree(a, b):
        return a.keys() == b.keys() and all(np.array_equal(a[s], b[s]) for s in a)

    return label, graph, run, agree


_RMAT = {}  # scale -> the R-MAT graph the measures share


def measure_workload(function):
    """A builder of the workload of the centrality ``function`` on the R-MAT graph."""

    def build(args, size):
        scale = size["rmat_scale"]
        if scale not in _RMAT:
            _RMAT[scale] = datasets.rmat(scale, edge_factor=RMAT_EDGE_FACTOR, seed=1)
        graph = _RMAT[scale]
        label = (f"{function.__name__}, R-MAT 2^{scale} ({graph.n} nodes, {graph.m} arcs, "
                 f"hop counts)")

        def run():
            return function(graph)  # a CSRGraph: dispatched to gpusp

        return label, graph, run, _agree

    return build


def _agree(a, b):
    return list(a) == list(b) and all(math.isclose(a[k], b[k], rel_tol=1e-12) for k in a)


def road_workload(name):
    """A builder of weighted closeness on the road network ``name`` (its largest
    component, seeded weights 1..10), as a CSRGraph from NetworkX's graph."""

    def build(args, size):
        from nx_gpusp.convert import from_networkx

        if args.cpu:
            graph = datasets.integer_geometric_road(size["road_nodes"], seed=1)
            what = f"integer geometric road network ({graph.n} nodes, {graph.m} arcs)"
        else:
            G = datasets.load(name, weights=(1, 10), seed=0)
            if not nx.is_connected(G):
                G = G.subgraph(max(nx.connected_components(G), key=len)).copy()
            graph = from_networkx(G, weight="weight")
            what = f"{name} ({graph.n} nodes, {graph.m} arcs, weights 1..10)"

        def run():
            return nx.closeness_centrality(graph, distance="weight")

        return f"closeness_centrality(distance='weight'), {what}", graph, run, _agree

    return build


BUILDERS = {"rows": rows_workload,
            "closeness": measure_workload(nx.closeness_centrality),
            "harmonic": measure_workload(nx.harmonic_centrality),
            "usroads": road_workload("usroads"),
            "fla": road_workload("FLA")}


class PlanLog(logging.Handler):
    """Counts the nx_gpusp logger's lines saying that rows were computed here."""

    def __init__(self):
        super().__init__(logging.INFO)
        self.here = 0

    def emit(self, record):
        if "computed here" in record.getMessage():
            self.here += 1


def timed(run, repeat):
    """(median seconds of ``repeat`` calls after an untimed one, their times, the last
    answer)."""
    out = run()
    times = []
    for _ in range(max(1, repeat)):
        out = None
        t0 = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), times, out


def _lags(lag, tail):
    return "-" if lag is None else f"{1e3 * lag:.0f}/{1e3 * tail:.0f}"


def free_device(graph):
    """Let this process's device copies and CuPy's pool go before the workers start."""
    for g in (graph, graph.__dict__.get("unit_weights"), graph.__dict__.get("reverse")):
        if g is not None:
            g._device.clear()
    ex = configured_executor()
    if ex.is_cuda:
        ex.xp.get_default_memory_pool().free_all_blocks()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cpu", action="store_true",
                        help="2-worker CPU LocalCluster, NumPy twin, small sizes")
    parser.add_argument("--only", action="append", choices=WORKLOADS)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--in-process", action="store_true",
                        help="the cluster of nx_gpusp.distributed.local_gpu_client: one "
                             "worker thread per GPU in this process")
    parser.add_argument("--sources", type=int)
    parser.add_argument("--pred-scale", type=int)
    parser.add_argument("--rmat-scale", type=int)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rows-bandwidth", type=int,
                        help="dask_rows_bandwidth, bytes per second (default: the option's)")
    parser.add_argument("--tasks-too", action="store_true",
                        help="time each measure's cluster calls with its shares as Dask "
                             "tasks as well (nx_gpusp.distributed.SHARE_SERVERS off)")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    size = dict(SIZES["cpu" if args.cpu else "gpu"])
    for key in ("sources", "pred_scale", "rmat_scale"):
        if getattr(args, key) is not None:
            size[key] = getattr(args, key)
    cfg = nx.config.backends.gpusp
    cfg.device = "cpu" if args.cpu else "cuda:0"
    if args.rows_bandwidth is not None:
        cfg.dask_rows_bandwidth = args.rows_bandwidth
    plan_log = PlanLog()
    nx_logger = logging.getLogger("nx_gpusp")
    nx_logger.addHandler(plan_log)
    nx_logger.setLevel(min(nx_logger.getEffectiveLevel(), logging.INFO))
    nx.config.warnings_to_ignore.add("cache")
    import distributed

    say(f"dask {distributed.__version__}, device of one process: {cfg.device}, "
        f"NCCL_NVLS_ENABLE={os.environ['NCCL_NVLS_ENABLE']}")
    workloads = []
    for name in args.only or WORKLOADS:
        t0 = time.perf_counter()
        workloads.append((name, *BUILDERS[name](args, size)))
        say(f"{name}: graph built in {time.perf_counter() - t0:.1f} s")
    results = {}
    for name, label, graph, run, agree in workloads:
        if name in INTERLEAVED:
            results[name] = {"what": label}
            continue
        one, times, answer = timed(run, args.repeat)
        results[name] = {"what": label, "one_device_s": one, "one_device_runs": times}
        results[name]["answer"] = answer
        say(f"{name}: one device {one:.3f} s (runs {', '.join(f'{t:.3f}' for t in times)})")
        free_device(graph)
    if args.in_process:
        from nx_gpusp.distributed import local_gpu_client

        client = local_gpu_client(args.workers, dashboard_address=":0",
                                  silence_logs=logging.ERROR)
        cluster = client.cluster
        what = f"local_gpu_client: {args.workers} worker threads in this process"
    else:
        cluster, what = start_cluster(args)
        client = distributed.Client(cluster)
    try:
        client.wait_for_workers(args.workers, timeout=300)
        say(f"cluster: {what}; dashboard {client.dashboard_link}")
        for name, label, graph, run, agree in workloads:
            r = results[name]
            alone = []
            if name in INTERLEAVED:
                r["answer"] = run()  # untimed, as every timed call below
            with cfg(dask_client=client):
                run()  # untimed: scatter, uploads, kernel compilation on every worker
            if args.tasks_too and name not in INTERLEAVED:
                nxd.SHARE_SERVERS = False
                with cfg(dask_client=client):
                    tasks_s, tasks_runs, _ = timed(run, args.repeat)
                nxd.SHARE_SERVERS = True
                r.update(tasks_s=tasks_s, tasks_runs=tasks_runs)
                say(f"{name}: {args.workers} workers, shares as tasks {tasks_s:.3f} s (runs "
                    f"{', '.join(f'{t:.3f}' for t in tasks_runs)}; "
                    f"{r['one_device_s'] / tasks_s:.2f}x)")
            plan_log.here = 0
            times, busy, lags = [], [], []
            out = None
            for _ in range(max(1, args.repeat)):
                out = None
                if name in INTERLEAVED:
                    t0 = time.perf_counter()
                    run()
                    alone.append(time.perf_counter() - t0)
                with cfg(dask_client=client), distributed.get_task_stream(client) as stream:
                    t0, w0 = time.perf_counter(), time.time()
                    out = run()
                    times.append(time.perf_counter() - t0)
                    w1 = time.time()
                workers, lag, tail = task_timeline(stream, served_calls(client), w0, w1)
                busy.append(workers)
                lags.append((lag, tail))
            if alone:
                r.update(one_device_s=statistics.median(alone), one_device_runs=alone,
                         one_device_timing="in alternation with the cluster's calls")
                say(f"{name}: one device {r['one_device_s']:.3f} s (runs "
                    f"{', '.join(f'{t:.3f}' for t in alone)}; in alternation)")
            cluster_s = statistics.median(times)
            r.update(cluster=what, workers=args.workers, cluster_s=cluster_s,
                     cluster_runs=times, worker_compute_s=busy,
                     first_start_and_last_stop_lag_s=lags,
                     speedup=r["one_device_s"] / cluster_s,
                     agrees=bool(agree(r.pop("answer"), out)), target=TARGETS[name])
            if name == "rows":
                r["rows_plan"] = f"here in {plan_log.here} of {len(times)} runs"
            r["target_met"] = r["speedup"] >= r["target"]
            say(f"{name}: {args.workers} workers {cluster_s:.3f} s (runs "
                f"{', '.join(f'{t:.3f}' for t in times)}; workers computing "
                f"{', '.join('/'.join(f'{b:.3f}' for b in w) or '-' for w in busy)} s; "
                "first compute started, call ended after the last, ms: "
                f"{', '.join(_lags(lag, tail) for lag, tail in lags)}"
                + (f"; rows computed {r['rows_plan']}" if name == "rows" else "") + ")")
            free_device(graph)  # this process's pool before the next workload's workers
    finally:
        client.close()
        cluster.close()
    say("")
    say(f"cluster: {what}")
    say(f"{'workload':<60} {'1 device s':>10} {'cluster s':>10} {'speed-up':>9}  agrees  "
        f"target")
    for name, r in results.items():
        say(f"{r['what'][:60]:<60} {r['one_device_s']:>10.3f} {r['cluster_s']:>10.3f} "
            f"{r['speedup']:>8.2f}x  {'yes' if r['agrees'] else 'NO':<6}  "
            f">= {r['target']}: {'met' if r['target_met'] else 'NOT met'}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"mode": "cpu" if args.cpu else "gpu", "sizes": size,
                       "dask_rows_bandwidth": cfg.dask_rows_bandwidth,
                       "results": results}, fh, indent=2)
    return 0 if all(r["agrees"] for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
