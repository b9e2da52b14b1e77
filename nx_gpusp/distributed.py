"""Many GPUs and many hosts: all-pairs rows and all-pairs measures on a Dask cluster.

The work of the all-pairs functions, ``johnson`` and the all-pairs measures is one
search per source, so it splits by sources. With ``nx.config.backends.gpusp.dask_client``
set to a ``distributed.Client``, the sources are cut into shares and each share is one
Dask task on one worker, or, for a measure or betweenness where every worker has one
thread, one call to that worker's :class:`ShareServer` (a Dask actor):

- the graph goes to every worker once (``client.scatter(..., broadcast=True)``: host
  arrays only, no labels, see ``CSRGraph.__getstate__``) and is kept for later calls
  on the same graph and client; each worker process keeps its own copy with its
  device arrays (:func:`kept_graph`, the WORKER_GRAPHS most recent), although Dask's
  active memory manager drops spare replicas between calls. Tasks name the graph by
  its key (:class:`GraphKey`), so that none waits for a replica to reach its worker;
  a worker without a copy (one that joined later) answers :class:`Missing` and the
  share runs again with the graph's future as its argument;
- a task runs the same solver as one process would, on its worker's device: the
  client's ``device`` is passed into the task ('cpu' stays the NumPy twin, 'cuda' and
  'cuda:N' become the worker's own GPU, which dask-cuda makes the first one its
  CUDA_VISIBLE_DEVICES shows, 'auto' is decided on the worker), never the worker's
  own configuration;
- all-pairs rows are planned (nx_gpusp.row_plan): with workers in other processes,
  whose rows cross a socket to the caller, the first share is computed on the
  caller's device and timed, and the rest stays there when moving the rows would
  take longer than the workers save (``dask_rows_bandwidth``); workers in the
  caller's process (:func:`local_gpu_client`) hand rows over by reference and get
  every share;
- an all-pairs task returns its share's host rows (narrowed distances, and
  predecessor rows for paths); they stream back as tasks finish
  (``distributed.as_completed``) and are handed on in source order, out-of-order
  shares waiting in a buffer; only a window of shares is in flight ahead of the
  reader, so rows are computed as they are read, as in one process;
- a measure's share (a task, or a call to a ShareServer: no scheduler round trips
  before and after it, two shares a server, the second round smaller so that the
  caller takes in the first while it runs) reduces on its device to the per-source
  statistics (``solvers.apsp.measures.reduce_batch``) and returns that small
  ``Partial`` (its sources as a ``range`` where consecutive); they
  are handed on in source order as they return (:func:`statistics_parts`), so the
  caller builds its answer from one while the workers compute the next.

A task whose worker dies is run again elsewhere by Dask (its scheduler's
allowed-failures), and one that raises something other than an answer (a CUDA error,
a lost connection) is retried (``retries``): the answer is complete either way.
Errors that are the answer (a negative cycle, bad weights) come back as the task's
value and are raised on the client with their NetworkX type, without retries.
A share whose ShareServer is lost or fails runs as a task. Progress: the Dask dashboard
(task prefixes ``nx_gpusp-rows``, ``nx_gpusp-statistics``; ShareServer calls are not
tasks) and the ``nx_gpusp`` logger.

Each function below returns the local stream when no client is set, so the algorithms
call them whatever the configuration.
"""

import collections
import math
import threading
import time
import uuid
import weakref

import networkx as nx
import numpy as np

from .config import get_config
from .executor import get_executor
from . import row_plan
from .graph import CSRGraph
from .solvers.answers import rows_to_host
from .solvers.sssp.tree import row_trees
from .solvers.apsp.floyd_warshall_dpx import path_bound
from .solvers.apsp.brandes import Dependencies, dependencies
from .solvers.apsp.measures import iter_partials, reduce_batch
from .solvers.apsp.progress import Progress, logger

__all__ = ["active_client", "worker_device", "local_gpu_client", "source_rows",
           "source_dependencies", "dependencies_task",
           "workers_in_process", "scattered_graph", "kept_graph",
           "worker_graph", "rows_task", "statistics_task", "GraphKey", "Missing",
           "SHARES_PER_THREAD", "MEASURE_SHARES_PER_THREAD", "AHEAD_PER_THREAD",
           "statistics_parts",
           "SHARE_ROW_BYTES", "RETRIES", "WORKER_GRAPHS", "packed", "unpacked",
           "ShareServer", "SERVED", "SHARE_SERVERS", "WORKERS_CHECK_S",
           "SERVER_START_S", "SERVED_LAST_ROUND"]

SHARES_PER_THREAD = 2  # shares per worker thread: some balance between workers, and a
# retried share repeats half a thread's work at most, while shares stay large (a
# batched method's fixed cost per batch, its rounds, is paid once per share at least)
AHEAD_PER_THREAD = 2  # all-pairs shares in flight (or finished, unread) per thread
MEASURE_SHARES_PER_THREAD = 1  # shares per worker thread of a measure or betweenness:
# their sources are in no order to keep, and every share pays a batched method's fixed
# cost again. A measure's parts come back in order and the caller turns each into its
# answer while the workers compute the next (statistics_parts), but on 2 H200s
# (tools/dask_scaling.py) 4 shares a thread, which cut the time after the workers' end
# from ~25 to ~10 ms, added 10-50 ms to each worker's compute: one is faster
SERVED_LAST_ROUND = 8  # a measure's shares on ShareServers: one a server, then a last
# round of 1/8 of the sources (_served_shares), computed while the caller turns the first
# into its answer (on 2 H200s the call's end 14-24 -> 3-9 ms after the workers' end; a
# share more costs a worker 1-6 ms)
SHARE_ROW_BYTES = 2 << 30  # host rows of one all-pairs share, at most
RETRIES = 2  # Dask retries of a task that raised something other than an answer
WORKER_GRAPHS = 2  # scattered graphs a worker process keeps (kept_graph), newest last
# errors that are the answer to the call: raised on the client, never retried
ANSWERS = (nx.NetworkXException, ValueError, TypeError, ArithmeticError,
           NotImplementedError)


def active_client():
    """``nx.config.backends.gpusp.dask_client`` (None: this process computes alone)."""
    return get_config().dask_client


def worker_device(device):
    """The device a worker computes on for the client's ``device`` setting."""
    if device.startswith("cuda"):
        return "cuda"  # the worker's own GPU, whatever number the client's is
    return device  # 'cpu', or 'auto' decided where the worker runs


# -- the graph on the workers ------------------------------------------------------------
_SCATTERED = weakref.WeakKeyDictionary()  # CSRGraph -> (client id, Future)
SCATTER_KEY = "_nx_gpusp_scatter_key"  # a worker copy's attribute: its Dask key
_KEPT = {}  # on a worker: scatter key -> its CSRGraph (kept_graph), newest last
_KEPT_LOCK = threading.Lock()  # worker threads of one process share _KEPT


def _worker_copy(graph, key=None):
    """What a worker needs of ``graph``: its arrays and flags (shared, not copied), and
    the contraction hierarchies it holds (host arrays: a worker does not build them
    again), without labels, device copies or derived graphs; ``key`` names it for
    :func:`kept_graph`."""
    from .solvers.apsp.phast_batched import shared_hierarchies

    copy = CSRGraph(graph.indptr, graph.indices, graph.weights, directed=graph.directed,
                    multigraph=graph.multigraph, weighted=graph.weighted,
                    weight_attr=graph.weight_attr, number_of_edges=graph._number_of_edges)
    copy.__dict__.update(shared_hierarchies(graph))
    if key is not None:
        copy.__dict__[SCATTER_KEY] = key
    return copy


def scattered_graph(client, graph):
    """A Future of ``graph``, broadcast to every worker once and kept for later calls on
    the same graph and client while Dask still holds it (on one worker at least)."""
    entry = _SCATTERED.get(graph)
    if entry is not None and entry[0] == client.id and entry[1].status == "finished":
        return entry[1]
    key = f"nx_gpusp-graph-{uuid.uuid4().hex}"
    future = client.scatter({key: _worker_copy(graph, key)}, broadcast=True,
                            hash=False)[key]
    try:
        client.run(_keep_scattered, key)
    except Exception:  # a worker that does not answer keeps nothing: its tasks ask again
        logger.debug("nx_gpusp: not every worker kept graph %s", key, exc_info=True)
    _SCATTERED[graph] = (client.id, future)
    return future


def _keep(key, graph):
    """The graph kept under ``key`` (``graph`` when none was), now the most recent."""
    with _KEPT_LOCK:
        kept = _KEPT.pop(key, None)
        if kept is None:
            kept = graph
        if kept is not None:
            _KEPT[key] = kept
        while len(_KEPT) > WORKER_GRAPHS:
            del _KEPT[next(iter(_KEPT))]
    return kept


def kept_graph(graph):
    """On a worker: the first copy of a scattered graph that this process received
    under its key, with the device copies and derived graphs that earlier tasks made.

    Dask's active memory manager drops spare replicas between calls; a worker handed
    the graph again (from a peer) would otherwise upload it to its device again at
    every call. A process keeps the WORKER_GRAPHS most recently used graphs."""
    key = graph.__dict__.get(SCATTER_KEY)
    return graph if key is None else _keep(key, graph)


def _keep_scattered(key, dask_worker=None):
    """Run on every worker right after the scatter (``client.run``): the worker's
    replica kept before Dask's memory manager can drop it."""
    graph = dask_worker.data.get(key) if dask_worker is not None else None
    if graph is not None:
        _keep(key, graph)


class GraphKey:
    """A scattered graph named by its Dask key, not a dependency of the task: the task
    does not wait for a replica to reach its worker (:func:`worker_graph`)."""

    __slots__ = ("key",)

    def __init__(self, key):
        self.key = key

    def __getstate__(self):
        return self.key

    def __setstate__(self, key):
        self.key = key


class Missing:
    """A task's answer when its worker holds no copy of the graph it names: the client
    runs it again with the graph's future."""


def worker_graph(graph):
    """On a worker: the graph a task names, the scattered future resolved (a CSRGraph)
    or a :class:`GraphKey`: the copy this process keeps, else the worker's replica;
    None when the worker has neither (it joined after the scatter, or Dask dropped its
    replica before it was kept)."""
    if not isinstance(graph, GraphKey):
        return kept_graph(graph)
    found = _keep(graph.key, None)
    if found is None:
        try:
            from distributed import get_worker

            found = get_worker().data.get(graph.key)
        except (ValueError, KeyError):  # not on a worker, or dropped meanwhile
            return None
        found = None if found is None else _keep(graph.key, found)
    return found


# -- tasks (run on the workers) ----------------------------------------------------------
class _Raised:
    """An answer that is an exception (raised again on the client)."""

    def __init__(self, error):
        self.error = error


def _answer(task, *args):
    try:
        return task(*args)
    except ANSWERS as err:
        return _Raised(err)


def packed(sources):
    """A share as a task carries it: ``range(a, b)`` when its sources are consecutive
    (a few bytes instead of 8 a source: every source of a whole-graph measure), else
    the array."""
    sources = np.asarray(sources, dtype=np.int64)
    if len(sources) > 1 and sources[-1] - sources[0] == len(sources) - 1 and \
            bool(np.all(np.diff(sources) == 1)):
        return range(int(sources[0]), int(sources[-1]) + 1)
    return sources


def unpacked(sources):
    """:func:`packed`'s share as an int64 array."""
    if isinstance(sources, range):
        return np.arange(sources.start, sources.stop, dtype=np.int64)
    return np.asarray(sources, dtype=np.int64)


def _local_rows(ex, graph, method, options, sources, cutoff, want_pred):
    """(sources, distance rows, predecessor rows or None) per device batch, on the host.
    The predecessors are each row's tight-arc tree (row_trees: the same every run)."""
    batches = method.solver(ex, graph, sources, cutoff=cutoff, want_pred=False, **options)
    for batch in batches:
        pred = row_trees(ex, graph, batch.dist, batch.sources) if want_pred else None
        dist, pred = rows_to_host(ex, batch.dist, pred, cutoff, batch.sources)
        yield batch.sources, dist, pred


def _task_device(device):
    """The device of the worker running the task: a worker of :func:`local_gpu_client`
    names its own GPU; any other worker's 'cuda' is its first visible GPU."""
    if device == "cuda":
        from distributed import get_worker

        try:
            return getattr(get_worker(), GPU_ATTRIBUTE, device)
        except ValueError:  # not on a worker (tests call the tasks directly)
            return device
    return device


def rows_task(graph, sources, method, options, cutoff, want_pred, device):
    """A worker's share of all-pairs rows: the list of its device batches' host rows
    (each batch narrowed on its own, as in one process)."""
    graph = worker_graph(graph)
    if graph is None:
        return Missing()
    ex = get_executor(_task_device(device))
    return list(_local_rows(ex, graph, method, options, unpacked(sources), cutoff, want_pred))


def dependencies_task(graph, sources, options, device):
    """A worker's share of betweenness: the Dependencies of its sources."""
    graph = worker_graph(graph)
    if graph is None:
        return Missing()
    return dependencies(get_executor(_task_device(device)), graph, unpacked(sources), **options)


def statistics_task(graph, sources, measure, options, device):
    """A worker's share of a measure: the Partial of its sources."""
    graph = worker_graph(graph)
    if graph is None:
        return Missing()
    part = reduce_batch(get_executor(_task_device(device)), graph, unpacked(sources), measure,
                        options)
    part.sources = packed(part.sources)  # the caller unpacks it (statistics_parts)
    return part


# -- one host: a worker per GPU in this process --------------------------------------------
GPU_ATTRIBUTE = "nx_gpusp_device"


def _one_gpu_per_worker():
    """A worker plugin: worker number i (LocalCluster names its workers 0, 1, ...)
    computes on device 'cuda:i'."""
    from distributed import WorkerPlugin

    class OneGPUPerWorker(WorkerPlugin):
        name = "nx_gpusp-one-gpu-per-worker"

        def setup(self, worker):
            setattr(worker, GPU_ATTRIBUTE, f"cuda:{int(worker.name)}")

    return OneGPUPerWorker()


def local_gpu_client(gpus=None, **cluster_options):
    """A ``distributed.Client`` of a cluster inside this process: one worker thread per
    GPU (``gpus``: how many, default every GPU CuPy sees), worker i computing on GPU i.

    On one host this beats a cluster of processes for all-pairs rows: a task's rows are
    handed to the caller by reference instead of crossing a socket (measured on 2 H200s,
    4,096 rows of a 1M-vertex graph, 4 GiB: a 2-process dask-cuda cluster took 4.98 s,
    twice one GPU's 2.29 s, for the transfers). Python's lock is shared by the workers,
    which spend their time waiting on their GPUs."""
    from distributed import Client, LocalCluster

    if gpus is None:
        from .executor import _cupy

        cp = _cupy()
        if cp is None:
            raise RuntimeError("nx_gpusp: no CUDA GPU (CuPy) here for local_gpu_client")
        gpus = cp.cuda.runtime.getDeviceCount()
    cluster = LocalCluster(n_workers=gpus, threads_per_worker=1, processes=False,
                           **cluster_options)
    client = Client(cluster)
    client.register_plugin(_one_gpu_per_worker())
    return client


# -- a worker's server: shares without a task's round trips ------------------------------
class ShareServer:
    """A Dask actor, one on each worker of one thread: runs a share's task when the client
    calls it. The call and its answer travel between client and worker (through the
    scheduler's proxy unless the client connects to workers directly), where a task is
    sent to the scheduler, assigned, sent to its worker, reported finished and fetched:
    on 2 H200s 3-6 ms before the first share and 3-9 ms after the last, against 7-17
    and 14-38 ms as tasks (tools/dask_scaling.py; usroads' weighted closeness 0.427 ->
    0.399 s, 1.94x one GPU)."""

    def run(self, task, graph, sources, *args):
        """``task(graph, sources, *args)``'s answer, an exception that is the answer
        included (:func:`_answer`); the call's times kept in :data:`SERVED`."""
        from distributed import get_worker

        start = time.time()
        try:
            return _answer(task, graph, sources, *args)
        finally:
            SERVED.append((task.__name__, len(sources), start, time.time(),
                           get_worker().address))


SERVED = collections.deque(maxlen=256)  # in a worker's process: (task, sources, start,
# stop, worker address) of the ShareServer calls run there, most recent last (time.time():
# the tests' and tools' record; workers in one process share it)
SHARE_SERVERS = True  # a measure's or betweenness' shares on ShareServers where every
# worker has one thread (False: always tasks)
WORKERS_CHECK_S = 5.0  # a client's workers are asked for again after this many seconds
SERVER_START_S = 30.0  # ShareServers not made in this time are not used (tasks instead)
_WORKERS = {}  # client id -> _Workers
_WORKERS_LOCK = threading.Lock()


class _Workers:
    """What the client last heard of its workers: ``nthreads`` (``client.nthreads()``,
    asked for at time.monotonic() ``checked``) and their ``servers`` ((actor future,
    ShareServer) each; None until made, False where they cannot be)."""

    def __init__(self, client, nthreads):
        self.client, self.nthreads, self.servers = client, nthreads, None
        self.checked = time.monotonic()


def _workers(client):
    """The client's :class:`_Workers`, read from the scheduler again when older than
    WORKERS_CHECK_S seconds (its servers kept while the workers are the same)."""
    with _WORKERS_LOCK:
        for key in [k for k, v in _WORKERS.items()
                    if v.client.status in ("closing", "closed")]:
            del _WORKERS[key]
        known = _WORKERS.get(client.id)
    if known is not None and time.monotonic() - known.checked < WORKERS_CHECK_S:
        return known
    fresh = _Workers(client, client.nthreads())
    if known is not None and known.nthreads == fresh.nthreads:
        fresh.servers = known.servers
    with _WORKERS_LOCK:
        _WORKERS[client.id] = fresh
    return fresh


def _servers(client):
    """A ShareServer on each of the client's workers ((actor future, actor) pairs), made
    at the first call that wants them; None where SHARE_SERVERS is off, a worker has
    more than one thread (its shares run as tasks, on all of them) or the workers cannot
    hold actors."""
    from distributed import wait

    if not SHARE_SERVERS:
        return None
    known = _workers(client)
    if known.servers and any(future.status != "finished" for future, _ in known.servers):
        _forget_workers(client)  # a server lost: its worker too, maybe
        known = _workers(client)
    if known.servers is None:
        known.servers = False
        nthreads = known.nthreads
        if nthreads and all(t == 1 for t in nthreads.values()):
            futures = [client.submit(ShareServer, actor=True, workers=[address],
                                     allow_other_workers=False, pure=False,
                                     key=f"nx_gpusp-server-{uuid.uuid4().hex}")
                       for address in sorted(nthreads)]
            try:
                wait(futures, timeout=SERVER_START_S)
                known.servers = list(zip(futures, client.gather(futures)))
            except Exception:  # no actors there, or a worker gone: tasks run the shares
                logger.debug("nx_gpusp: no ShareServer on the workers", exc_info=True)
                client.cancel(futures)
    return known.servers or None


def _forget_workers(client):
    """The next call asks the scheduler for the workers again (one was lost)."""
    with _WORKERS_LOCK:
        _WORKERS.pop(client.id, None)


# -- the client's side -------------------------------------------------------------------
def _threads(client):
    return max(1, sum(_workers(client).nthreads.values()))


def _shares(sources, threads, max_share=None, per_thread=None):
    """``sources`` cut into consecutive shares, about ``per_thread`` (default
    SHARES_PER_THREAD) per thread, of at most ``max_share`` sources."""
    per_thread = SHARES_PER_THREAD if per_thread is None else per_thread
    share = max(1, math.ceil(len(sources) / (per_thread * threads)))
    if max_share is not None:
        share = max(1, min(share, max_share))
    return [sources[i:i + share] for i in range(0, len(sources), share)]


def _row_bytes(graph, want_pred):
    """Host bytes of one row: distances at the width ``narrowest_distances`` can need
    at most (integers: the narrowest type above the path bound), predecessors int32."""
    dtype = graph.distance_dtype()
    width = dtype.itemsize
    if dtype.kind == "i":
        bound = path_bound(graph)
        width = next(np.dtype(t).itemsize for t in (np.int8, np.int16, np.int32, np.int64)
                     if bound < np.iinfo(t).max)
    return max(graph.n, 1) * (width + 4 * want_pred)


def _in_order(client, submit, count, ahead):
    """The values of tasks 0..count-1 in that order, as they finish:
    ``submit(indices, False)`` starts the tasks ``indices`` naming the graph by its key,
    all in one message (a Dask client sends the scheduler one message per 10 ms at
    most: tasks submitted one by one would reach their workers that far apart), at most
    ``ahead`` of them beyond the one the reader waits for; a task that answers Missing
    runs again as ``submit([i], True)``, with the graph's future. Unread tasks are
    cancelled when the reader stops early."""
    from distributed import as_completed

    done = as_completed(loop=client.loop, with_results=True)
    futures, index, ready = {}, {}, {}
    submitted = wanted = 0

    def start(indices, attached):
        for i, future in zip(indices, submit(indices, attached)):
            futures[i] = future
            index[future.key] = i
            done.add(future)

    try:
        while wanted < count:
            end = min(count, wanted + ahead)
            if end > submitted:
                start(range(submitted, end), False)
                submitted = end
            while wanted not in ready:
                future, value = next(done)
                i = index.pop(future.key)
                if isinstance(value, Missing):
                    start([i], True)
                else:
                    ready[i] = value
            value = ready.pop(wanted)
            del futures[wanted]
            wanted += 1
            if isinstance(value, _Raised):
                raise value.error
            yield value
    finally:
        ready.clear()
        if futures:
            try:
                client.cancel(list(futures.values()))
            except Exception:  # the client may be closing
                pass


def _task_key(kind, token, i, attached=False):
    return f"nx_gpusp-{kind}-{token}-{i}" + ("-with-graph" if attached else "")


def source_rows(ex, graph, method, options, *, cutoff, want_pred, sources=None):
    """The rows of an all-pairs method (a Method; ``options`` already checked) from
    ``sources`` (default: every vertex), in source order: (sources, distance rows,
    predecessor rows or None) host arrays, one tuple per device batch. On the workers
    of ``dask_client`` when one is set and the plan (:func:`rows_here`) sends them
    there, else on ``ex``."""
    sources = np.arange(graph.n, dtype=np.int64) if sources is None else \
        np.asarray(sources, dtype=np.int64)
    client = active_client()
    if client is None or len(sources) == 0:
        return _local_rows(ex, graph, method, options, sources, cutoff, want_pred)
    return _planned_rows(client, ex, graph, method, options, sources, cutoff, want_pred)


def workers_in_process(nthreads):
    """True when every worker (``client.nthreads()``: address -> threads) runs in this
    process (``inproc://`` addresses: ``LocalCluster(processes=False)``,
    :func:`local_gpu_client`): their results reach the caller by reference."""
    return bool(nthreads) and all(str(a).startswith("inproc://") for a in nthreads)


def _planned_rows(client, ex, graph, method, options, sources, cutoff, want_pred):
    """The rows on the cluster, or here where the plan (nx_gpusp.row_plan) says so.
    With workers in other processes the first share is computed here and timed: where
    even at that share's cost per source the workers would not be faster, the rest
    follows here; else half a share more is timed and the plan decides again on the
    shares left. A cost kept from an earlier call decides at once. A caller without a
    GPU under device 'auto' cannot time the workers' devices (each decides its own):
    every share goes to them."""
    nthreads = _workers(client).nthreads
    threads = max(1, sum(nthreads.values()))
    shares = _shares(sources, threads, SHARE_ROW_BYTES // _row_bytes(graph, want_pred))
    same_kind = ex.is_cuda or get_config().device == "cpu"
    if same_kind and not workers_in_process(nthreads):
        bandwidth = get_config().dask_rows_bandwidth
        key = row_plan.plan_key(ex, method, options, cutoff, want_pred)
        kept = row_plan.remembered(graph, key)
        if kept is not None:
            cost, row = kept
            if row_plan.rows_here(cost, [len(s) for s in shares], row, bandwidth, threads):
                _log_here(ex, method, threads, sources, 0, cost, shares, row, bandwidth)
                yield from _local_rows(ex, graph, method, options, sources, cutoff,
                                       want_pred)
                return
        else:
            warm = ex.name in graph._device  # no upload or first use in the timing
            graph.on(ex)
            timings, done = [], 0
            for probe in (shares[0], shares[1][:len(shares[0]) // 2] if len(shares) > 1
                          else []):
                if len(probe) == 0:
                    break
                clock = [0.0, 0]
                yield from row_plan.timed(_local_rows(ex, graph, method, options, probe,
                                                      cutoff, want_pred), clock)
                done += len(probe)
                timings.append((len(probe), clock[0], clock[1]))
                row = sum(t[2] for t in timings) / done
                cost = (0.0, clock[0] / len(probe)) if len(timings) == 1 else \
                    row_plan.fitted_cost(*(t[:2] for t in timings))
                if warm:
                    row_plan.remember(graph, key, cost, row)
                left = row_plan.cut(shares, done)
                if not left:
                    return
                if row_plan.rows_here(cost, [len(s) for s in left], row, bandwidth,
                                      threads):
                    _log_here(ex, method, threads, sources, done, cost, left, row,
                              bandwidth)
                    yield from _local_rows(ex, graph, method, options, sources[done:],
                                           cutoff, want_pred)
                    return
            shares = row_plan.cut(shares, done)
    yield from _cluster_rows(client, graph, method, options, shares, cutoff, want_pred,
                             threads)


def _log_here(ex, method, threads, sources, done, cost, left, row, bandwidth):
    """The plan's one log line when rows stay here."""
    rest = len(sources) - done
    timed = f"the first {done} sources" if done else "an earlier call"
    logger.info(
        "all-pairs %s: %d of %d sources computed here (%s), not on the %d Dask worker "
        "thread(s) in other processes: %.3g s here against %.3g s there, moving the rows "
        "here included (%.0f bytes a row at dask_rows_bandwidth=%d bytes/s); one "
        "device's cost timed on %s: %.3g s a batch, %.3g ms a source", method.name, rest,
        len(sources), ex.name, threads, cost[0] + cost[1] * rest,
        row_plan.spread_seconds(cost, [len(s) for s in left], row, bandwidth, threads),
        row, bandwidth, timed, cost[0], 1e3 * cost[1])


def _cluster_rows(client, graph, method, options, shares, cutoff, want_pred, threads):
    tasks = _on_workers(client, graph, shares, "rows", rows_task,
                        (method, options, cutoff, want_pred), ahead=AHEAD_PER_THREAD * threads,
                        what=f"all-pairs {method.name}", threads=threads)
    for batches in tasks:
        yield from batches


def _on_workers(client, graph, shares, kind, task, args, *, ahead, what, threads,
                servers=None):
    """The answers of ``task(graph, share, *args, device)`` for each of ``shares`` (the
    client's device passed along) on the workers of ``client``, in share order as they
    finish, at most ``ahead`` tasks beyond the one read (:func:`_in_order`), or called
    on the workers' ``servers`` where given (:func:`_servers`: small answers, every
    share at once; :func:`_served`): the graph scattered once and named by its key; one
    log line (``what``)."""
    future = scattered_graph(client, graph)
    device = worker_device(get_config().device)
    token = uuid.uuid4().hex
    logger.info("%s: %d sources in %d shares on %d Dask worker thread(s) (dashboard: %s)",
                what, sum(map(len, shares)), len(shares), threads, client.dashboard_link)

    def submit(indices, attached):
        k = len(indices)
        graph_arg = future if attached else GraphKey(future.key)
        return client.map(_answer, [task] * k, [graph_arg] * k,
                          [packed(shares[i]) for i in indices], *([a] * k for a in args),
                          [device] * k, key=[_task_key(kind, token, i, attached)
                                             for i in indices],
                          retries=RETRIES, pure=False)

    if servers:
        return _served(client, servers, submit, GraphKey(future.key), shares, task,
                       args + (device,))
    return _in_order(client, submit, len(shares), ahead)


def _served(client, servers, submit, graph, shares, task, args):
    """The answers of ``task(graph, share, *args)`` for each of ``shares`` (share i on
    server i mod len(servers)), called on the ShareServers at once (each runs its calls
    one after another) and handed on in share order. A share whose worker holds no copy
    of the graph runs as a task with the graph's future (``submit([i], True)``), and so
    does one whose server was lost or raised something other than an answer (with
    Dask's retries); the next call then asks the scheduler for the workers again."""
    calls = []
    for i, share in enumerate(shares):
        server = servers[i % len(servers)][1]
        try:
            calls.append(server.run(task, graph, packed(share), *args))
        except Exception:  # the actor's worker is gone
            calls.append(None)
    for i, call in enumerate(calls):
        value = None
        if call is not None:
            try:
                value = call.result()
            except Exception:  # lost, or a fault that is not the answer: as a task
                logger.debug("nx_gpusp: share %d again as a task", i, exc_info=True)
        if value is None:
            _forget_workers(client)
        if value is None or isinstance(value, Missing):
            (future,) = submit([i], True)
            value = future.result()
        if isinstance(value, _Raised):
            raise value.error
        yield value


def source_dependencies(ex, graph, sources, **options):
    """Brandes' sums of ``sources`` (solvers.apsp.brandes.dependencies and its
    ``options``): shares summed on the workers of ``dask_client`` when one is set (one
    share per worker thread, joined here in source order), else on ``ex``."""
    client = active_client()
    sources = np.asarray(sources, dtype=np.int64)
    if client is None or len(sources) == 0:
        return dependencies(ex, graph, sources, **options)
    threads = _threads(client)
    shares = _shares(sources, threads, per_thread=MEASURE_SHARES_PER_THREAD)
    return Dependencies.joined(_on_workers(client, graph, shares, "dependencies",
                                           dependencies_task, (options,), ahead=len(shares),
                                           what="betweenness", threads=threads,
                                           servers=_servers(client)))


def statistics_parts(ex, graph, sources, measure, options, *, what):
    """The statistics ``measure`` of ``sources`` (measures.iter_partials' arguments), one
    Partial at a time in source order as each is ready: ``ex``'s device batches, or,
    with ``dask_client`` set, the workers' shares (MEASURE_SHARES_PER_THREAD per
    thread) as they return, so that a caller turning each into its answer works while
    the workers compute the next; progress on the ``nx_gpusp`` logger either way."""
    client = active_client()
    sources = np.asarray(sources, dtype=np.int64)
    if client is None or len(sources) == 0:
        parts = iter_partials(ex, graph, sources, measure, options)
    else:
        threads = _threads(client)
        servers = _servers(client)
        shares = _served_shares(sources, len(servers)) if servers else \
            _shares(sources, threads, per_thread=MEASURE_SHARES_PER_THREAD)
        parts = _on_workers(client, graph, shares, "statistics", statistics_task,
                            (tuple(measure), options), ahead=len(shares), what=what,
                            threads=threads, servers=servers)
    progress = Progress(what, len(sources))
    for part in parts:
        part.sources = unpacked(part.sources)
        progress.advance(len(part.sources))
        yield part


def _served_shares(sources, servers):
    """A measure's shares on ``servers`` ShareServers (share i on server i mod
    ``servers``): one a server, then a last round of one a server holding
    1/SERVED_LAST_ROUND of the sources, so that the caller turns the first round's
    parts into its answer while the workers compute the last."""
    last = len(sources) // SERVED_LAST_ROUND
    if last < servers:
        return _shares(sources, servers, per_thread=1)
    cut = len(sources) - last
    return _shares(sources[:cut], servers, per_thread=1) + \
        _shares(sources[cut:], servers, per_thread=1)

