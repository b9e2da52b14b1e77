"""The distributed path (nx_gpusp.distributed) on a CPU LocalCluster of 2 worker
processes running the NumPy twin: every all-pairs function, johnson and every
all-pairs measure gives what one process gives (values, key order, exception types),
the work runs as Dask tasks on both workers with the graph scattered once, rows stream
lazily, and a worker killed while shares are pending still leaves a complete, right
answer. The dask_client option and CSRGraph's pickling are checked here too."""

import itertools
import logging
import math
import os
import pickle
import random
import sys
import time
import weakref

import networkx as nx
import numpy as np
import pytest

from graphs import assert_valid_path, graph_cases, plain, random_graph

distributed = pytest.importorskip("distributed")

from nx_gpusp import distributed as nxd  # noqa: E402  (after the importorskip)
from nx_gpusp import row_plan  # noqa: E402
from nx_gpusp.convert import from_networkx  # noqa: E402
from nx_gpusp.executor import cuda_available, get_executor  # noqa: E402
from nx_gpusp.results import materialize  # noqa: E402

CASES = graph_cases(6, seed=18)
NEGATIVE = [random_graph(180 + i, directed=True, negative=True, n=25, p=0.15,
                         zero_fraction=0.2 * (i % 2)) for i in range(3)]
CFG = nx.config.backends.gpusp


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=logging.ERROR)
    client = distributed.Client(cluster)
    nx.config.warnings_to_ignore.add("cache")
    try:
        yield client
    finally:
        client.close()
        cluster.close()


RULE = row_plan.rows_here  # the plan's rule, which the tests below replace


@pytest.fixture(autouse=True)
def rows_on_the_workers(monkeypatch):
    """The rows after the timed first shares go to the workers whatever the plan would
    say (tiny graphs cost a batch's fixed cost, which the plan keeps here): the tests
    check the cluster's answers. The plan's own tests put its rule back. No cost is
    kept from one test to the next."""
    monkeypatch.setattr(row_plan, "rows_here", lambda *args: False)
    monkeypatch.setattr(row_plan, "_COSTS", weakref.WeakKeyDictionary())


def outcome(call):
    """("ok", plain value) or ("raised", exception type, message)."""
    try:
        return ("ok", plain(call()))
    except Exception as exc:  # noqa: BLE001  (the exception is the answer compared)
        return ("raised", type(exc), str(exc))


def same(got, expected, path=()):
    """Equal values in the same key order; floats to 1e-12 (a sum over sources taken
    in another grouping may differ in the last bits)."""
    if isinstance(expected, dict):
        assert isinstance(got, dict), (path, got)
        assert list(got) == list(expected), (path, "keys or their order differ")
        for k in expected:
            same(got[k], expected[k], path + (k,))
    elif isinstance(expected, (list, tuple)):
        assert type(got) is type(expected) and len(got) == len(expected), (path, got)
        for i, (a, b) in enumerate(zip(got, expected)):
            same(a, b, path + (i,))
    elif isinstance(expected, float):
        assert type(got) is float, (path, got)
        assert got == expected or math.isclose(got, expected, rel_tol=1e-12), (path, got,
                                                                               expected)
    else:
        assert type(got) is type(expected) and got == expected, (path, got, expected)


def tasks_of(stream):
    """(task prefix, worker) of every nx_gpusp task in a get_task_stream record (not the
    tasks that make the ShareServers)."""
    out = []
    for entry in stream.data:
        key = entry["key"]
        key = key[0] if isinstance(key, tuple) else key
        if str(key).startswith("nx_gpusp-") and not str(key).startswith("nx_gpusp-server"):
            out.append(("-".join(str(key).split("-")[:2]), entry["worker"]))
    return out


def served_since(client, start):
    """("nx_gpusp-served", worker) of every ShareServer call on the workers that started
    after ``start`` (time.time(): the workers run on this host)."""
    calls = client.run(lambda: [(c[4], c[2]) for c in nxd.SERVED])
    return [("nx_gpusp-served", worker) for worker, t in
            {call for calls in calls.values() for call in calls} if t >= start]


def compare(client, call, *, expect_tasks=True):
    """One process's outcome and the cluster's, equal; the cluster's ran on the workers
    (as Dask tasks or ShareServer calls) when it answered and ``expect_tasks``."""
    with CFG(device="cpu"):
        local = outcome(call)
    start = time.time()
    with CFG(device="cpu", dask_client=client), distributed.get_task_stream(client) as ts:
        spread = outcome(call)
    assert CFG.dask_client is None
    if local[0] == "raised":
        assert spread[:2] == local[:2], (spread, local)
        if local[1] is nx.NetworkXError:
            assert spread[2] == local[2]
        return local
    assert spread[0] == "ok", spread
    same(spread[1], local[1])
    if expect_tasks:
        work = tasks_of(ts) + served_since(client, start)
        assert work, "no nx_gpusp share ran on the cluster"
    return local


# -- all-pairs rows -----------------------------------------------------------------------
ROW_CALLS = [
    ("all_pairs_dijkstra_path_length", {}),
    ("all_pairs_dijkstra_path_length", {"cutoff": 12}),
    ("all_pairs_dijkstra_path_length", {"cutoff": 0}),
    ("all_pairs_dijkstra_path", {}),
    ("all_pairs_dijkstra", {"cutoff": 7.5}),
    ("all_pairs_shortest_path_length", {}),
    ("all_pairs_shortest_path_length", {"cutoff": 2}),
    ("all_pairs_shortest_path", {"cutoff": 0}),
    ("all_pairs_shortest_path", {}),
    ("all_pairs_bellman_ford_path_length", {}),
    ("all_pairs_bellman_ford_path", {}),
    ("shortest_path", {"weight": "weight"}),
    ("shortest_path", {}),
    ("shortest_path_length", {"weight": "weight"}),
    ("shortest_path_length", {"weight": "weight", "method": "bellman-ford"}),
    ("shortest_path_length", {}),
    ("johnson", {}),
]


@pytest.mark.parametrize("name,kwargs", ROW_CALLS, ids=[f"{n}-{k}" for n, k in ROW_CALLS])
@pytest.mark.parametrize("case", range(len(CASES)), ids=[c[0] for c in CASES])
def test_rows_agree_with_one_process(client, name, kwargs, case):
    _, G = CASES[case]
    func = getattr(nx, name)
    # one source is one share, computed here (the plan: nothing to spread)
    expected = compare(client, lambda: func(G, backend="gpusp", **kwargs),
                       expect_tasks=len(G) > 1)
    if expected[0] == "ok" and name in ("all_pairs_dijkstra_path", "all_pairs_shortest_path"):
        lengths = dict(nx.all_pairs_dijkstra_path_length(
            G, weight=None if "shortest" in name else "weight"))
        for s, paths in expected[1]:
            for t, path in paths.items():
                assert_valid_path(G, path, s, t, lengths[s][t],
                                  None if "shortest" in name else "weight")


@pytest.mark.parametrize("index", range(len(NEGATIVE)))
@pytest.mark.parametrize("name", ["all_pairs_bellman_ford_path_length",
                                  "all_pairs_bellman_ford_path", "johnson"])
def test_negative_weights_agree_with_one_process(client, name, index):
    G = NEGATIVE[index]
    compare(client, lambda: getattr(nx, name)(G, backend="gpusp"))


def test_errors_raised_on_the_workers_keep_their_type(client):
    """A negative cycle is found by the workers' solver: NetworkXUnbounded on the
    client, as in one process (returned by the task, not retried)."""
    G = nx.DiGraph([(0, 1, {"weight": 2}), (1, 2, {"weight": -5}), (2, 0, {"weight": 1}),
                    (2, 3, {"weight": 1})])
    G.add_edges_from((i, i + 1, {"weight": 1}) for i in range(3, 30))
    expected = compare(client, lambda: nx.all_pairs_bellman_ford_path_length(
        G, backend="gpusp", method="batched-frontier"))
    assert expected[:2] == ("raised", nx.NetworkXUnbounded)
    for name, kwargs in (("johnson", {}), ("all_pairs_dijkstra_path_length", {}),
                         ("closeness_centrality", {"distance": "weight"})):
        got = compare(client, lambda: getattr(nx, name)(G, backend="gpusp", **kwargs),
                      expect_tasks=False)
        assert got[0] == "raised", (name, got)


def test_methods_and_device_batches(client):
    """Every all-pairs method that takes the graph, and device batches smaller than a
    share (the ``batch`` option), give one process's rows."""
    G = random_graph(7, directed=True, n=40, p=0.12)
    for method in ("batched-spmm", "batched-frontier", "apsp-concurrent",
                   "dijkstra-per-thread"):
        for batch in ({}, {"batch": 2}) if method.startswith("batched") else ({},):
            compare(client, lambda: nx.all_pairs_dijkstra_path_length(
                G, backend="gpusp", method=method, **batch))
    H = nx.Graph(G.to_undirected())
    compare(client, lambda: nx.all_pairs_shortest_path_length(
        H, backend="gpusp", method="batched-bfs", batch=3))


# -- all-pairs measures -------------------------------------------------------------------
MEASURE_CALLS = [
    ("closeness_centrality", {}),
    ("closeness_centrality", {"distance": "weight", "wf_improved": False}),
    ("harmonic_centrality", {}),
    ("harmonic_centrality", {"distance": "weight", "nbunch": [0, 1, 2, 3]}),
    ("harmonic_centrality", {"sources": [1, 2, 4, 5, 6]}),
    ("eccentricity", {}),
    ("eccentricity", {"weight": "weight"}),
    ("diameter", {}),
    ("radius", {"weight": "weight"}),
    ("center", {}),
    ("periphery", {"weight": "weight"}),
    ("barycenter", {}),
    ("average_shortest_path_length", {}),
    ("average_shortest_path_length", {"weight": "weight"}),
    ("wiener_index", {"weight": "weight"}),
    ("global_efficiency", {}),
]


def _relabel_int_arguments(G, kwargs):
    """nbunch / sources given as positions become G's own node labels."""
    nodes = list(G)
    out = dict(kwargs)
    for key in ("nbunch", "sources"):
        if key in out:
            out[key] = [nodes[i] for i in out[key] if i < len(nodes)]
    return out


MEASURE_GRAPHS = [random_graph(300 + i, directed=i % 2 == 0, n=30, p=0.15,
                               weights=("int", "float")[i % 2], labels=("int", "str")[i % 2])
                  for i in range(2)] + [
    nx.relabel_nodes(nx.connected_watts_strogatz_graph(36, 4, 0.3, seed=5),
                     {v: (v % 3, str(v)) for v in range(36)}),
    random_graph(320, directed=False, n=30, p=0.08, disconnected=True)]
_rng = random.Random(5)
for _u, _v, _d in MEASURE_GRAPHS[2].edges(data=True):
    _d["weight"] = _rng.randint(1, 9)


@pytest.mark.parametrize("name,kwargs", MEASURE_CALLS,
                         ids=[f"{n}-{k}" for n, k in MEASURE_CALLS])
@pytest.mark.parametrize("index", range(len(MEASURE_GRAPHS)))
def test_measures_agree_with_one_process(client, name, kwargs, index):
    G = MEASURE_GRAPHS[index]
    kw = _relabel_int_arguments(G, kwargs)
    connected = nx.is_strongly_connected(G) if G.is_directed() else nx.is_connected(G)
    # on a disconnected graph the others answer (or raise) before any search
    compare(client, lambda: getattr(nx, name)(G, backend="gpusp", **kw),
            expect_tasks=connected or "centrality" in name)


# -- betweenness ------------------------------------------------------------------------
BETWEENNESS_CALLS = [
    ("betweenness_centrality", {}),
    ("betweenness_centrality", {"weight": "weight", "endpoints": True}),
    ("betweenness_centrality", {"k": 7, "seed": 3, "normalized": False}),
    ("edge_betweenness_centrality", {"weight": "weight"}),
    ("betweenness_centrality_subset", {"sources": [0, 1, 2, 5], "targets": [3, 4, 9]}),
    ("edge_betweenness_centrality_subset", {"sources": [0, 1, 2], "targets": [7, 8]}),
    ("load_centrality", {"weight": "weight"}),
]


@pytest.mark.parametrize("name,kwargs", BETWEENNESS_CALLS,
                         ids=[f"{n}-{k}" for n, k in BETWEENNESS_CALLS])
@pytest.mark.parametrize("index", [0, 2, 3])
def test_betweenness_agrees_with_one_process(client, name, kwargs, index):
    """Betweenness's sums over shares of the sources, one per worker thread, joined in
    source order: NetworkX's answer, as one process's."""
    G = MEASURE_GRAPHS[index]
    nodes = list(G)
    kw = {k: [nodes[i] for i in v] if k in ("sources", "targets") else v
          for k, v in kwargs.items()}
    expected = plain(getattr(nx, name)(G, **kw))
    local = compare(client, lambda: getattr(nx, name)(G, backend="gpusp", **kw))
    assert local[0] == "ok"
    assert set(plain(local[1])) == set(expected)
    for key, value in expected.items():
        assert math.isclose(plain(local[1])[key], value, rel_tol=1e-9, abs_tol=1e-12)


# -- how the work is spread ---------------------------------------------------------------
def test_graph_scattered_once_and_tasks_on_both_workers(client):
    G = random_graph(11, directed=True, n=120, p=0.04)
    before = {k for k in client.who_has() if str(k).startswith("nx_gpusp-graph")}
    with CFG(device="cpu", dask_client=client), distributed.get_task_stream(client) as ts:
        for _ in range(2):  # the converted graph is cached on G: scattered once
            rows = dict(nx.all_pairs_dijkstra_path_length(G, backend="gpusp"))
            assert len(rows) == 120
    graphs = {k: w for k, w in client.who_has().items()
              if str(k).startswith("nx_gpusp-graph") and k not in before}
    assert len(graphs) == 1, graphs
    (holders,) = graphs.values()
    # broadcast to both; Dask's active memory manager (on by default) may since have
    # dropped the spare copy, which a worker then gets from its peer, not the client
    assert 1 <= len(holders) <= 2, holders
    kept = client.run(lambda: list(nxd._KEPT))  # each worker's own copy, kept
    assert all(list(graphs)[0] in keys for keys in kept.values()), kept
    tasks = tasks_of(ts)
    assert {prefix for prefix, _ in tasks} == {"nx_gpusp-rows"}
    assert len({worker for _, worker in tasks}) == 2, "one worker did all the work"
    shares = len(tasks) // 2
    # 120 sources, 2 threads: the first share computed here, timed (the plan)
    assert shares == nxd.SHARES_PER_THREAD * 2 - 1


@pytest.mark.parametrize("servers", [True, False])
def test_a_measure_gives_each_worker_thread_its_shares(client, servers, monkeypatch):
    """A measure's shares run on both workers and give the same answer: on each
    worker's ShareServer (workers of one thread), two rounds of one share a server
    (_served_shares), or, SHARE_SERVERS off, as tasks, MEASURE_SHARES_PER_THREAD per
    thread (each pays a batched method's fixed cost)."""
    monkeypatch.setattr(nxd, "SHARE_SERVERS", servers)
    G = random_graph(24, directed=False, n=60, p=0.1)
    with CFG(device="cpu"):
        expected = plain(nx.harmonic_centrality(G, backend="gpusp"))
    start = time.time()
    with CFG(device="cpu", dask_client=client), distributed.get_task_stream(client) as ts:
        got = plain(nx.harmonic_centrality(G, backend="gpusp"))
    same(got, expected)
    tasks, served = tasks_of(ts), served_since(client, start)
    ran = served if servers else tasks
    assert not (tasks if servers else served), (tasks, served)
    assert len(ran) == (2 if servers else nxd.MEASURE_SHARES_PER_THREAD) * 2, ran
    assert len({worker for _, worker in ran}) == 2, ran


def test_workers_are_asked_for_once_in_a_while(client, monkeypatch):
    """Calls close together use the workers (and their ShareServers) that the first
    asked the scheduler for: one request per WORKERS_CHECK_S seconds, not one a call."""
    G = random_graph(26, directed=True, n=40, p=0.1)
    asked = []
    nthreads = client.nthreads

    def spy(*args, **kwargs):
        asked.append(1)
        return nthreads(*args, **kwargs)

    monkeypatch.setattr(client, "nthreads", spy)
    monkeypatch.setattr(nxd, "WORKERS_CHECK_S", 3600.0)
    nxd._forget_workers(client)
    with CFG(device="cpu", dask_client=client):
        for _ in range(3):
            nx.closeness_centrality(G, backend="gpusp")
        assert len(asked) == 1
        monkeypatch.setattr(nxd, "WORKERS_CHECK_S", 0.0)
        nx.closeness_centrality(G, backend="gpusp")
    assert len(asked) > 1


class _LostServer:
    """A ShareServer handle whose worker is gone: its calls fail as the actor's do."""

    def run(self, *args):
        raise RuntimeError("Worker holding Actor was lost.  Status: lost")


def test_a_lost_server_share_runs_as_a_task(client):
    """A share whose ShareServer fails (its worker lost) runs as a task, the answer
    whole; a worker restarted between calls gets a new server at the next call."""
    G = random_graph(27, directed=False, n=70, p=0.08)
    with CFG(device="cpu"):
        expected = plain(nx.closeness_centrality(G, backend="gpusp"))
    with CFG(device="cpu", dask_client=client):
        same(plain(nx.closeness_centrality(G, backend="gpusp")), expected)
        servers = nxd._servers(client)
        assert servers is not None and len(servers) == 2
        servers[1] = (servers[1][0], _LostServer())
        with distributed.get_task_stream(client) as ts:
            same(plain(nx.closeness_centrality(G, backend="gpusp")), expected)
        # its shares (one of each round) as tasks, the other server's as calls
        assert [p for p, _ in tasks_of(ts)] == ["nx_gpusp-statistics"] * 2, tasks_of(ts)
        client.restart_workers([sorted(client.nthreads())[0]])
        client.wait_for_workers(2, timeout=120)
        same(plain(nx.closeness_centrality(G, backend="gpusp")), expected)
        start = time.time()
        same(plain(nx.closeness_centrality(G, backend="gpusp")), expected)
        assert len({w for _, w in served_since(client, start)}) == 2


@pytest.mark.parametrize("share", [[5, 6, 7, 8], [3], [], [1, 2, 4], [4, 3, 2], [7, 7, 8]])
def test_a_share_of_consecutive_sources_travels_as_a_range(share):
    """A task carries consecutive sources as range(a, b) (a whole-graph measure's
    shares: a few bytes instead of 8 a source), anything else as the array; the task
    reads back the same int64 sources either way."""
    carried = nxd.packed(np.array(share, dtype=np.int64))
    consecutive = len(share) > 1 and share == list(range(share[0], share[0] + len(share)))
    assert isinstance(carried, range) == consecutive
    back = nxd.unpacked(carried)
    assert back.dtype == np.int64 and back.tolist() == share


@pytest.mark.parametrize("servers", [True, False])
def test_measure_parts_come_back_in_source_order(client, servers, monkeypatch):
    """statistics_parts hands the workers' shares on in source order as they return
    (closeness and harmonic build NetworkX's dict part by part): as tasks with 4 shares
    a thread 8 parts, on ShareServers with a last round of a third of the sources 4,
    covering the sources in order, and those measures' answers in key order."""
    monkeypatch.setattr(nxd, "SHARE_SERVERS", servers)
    monkeypatch.setattr(nxd, "MEASURE_SHARES_PER_THREAD", 4)
    monkeypatch.setattr(nxd, "SERVED_LAST_ROUND", 3)
    G = random_graph(31, directed=True, n=50, p=0.08, labels="str")
    graph = from_networkx(G, None)
    options = {"method": "batched-spmm", "method_options": {}, "columns": None}
    with CFG(device="cpu"):
        whole = [p.rows["sum"] for p in nxd.statistics_parts(
            get_executor("cpu"), graph, np.arange(graph.n), ("reached", "sum"), options,
            what="test")]
        expected = [plain(nx.closeness_centrality(G, backend="gpusp")),
                    plain(nx.harmonic_centrality(G, backend="gpusp"))]
    with CFG(device="cpu", dask_client=client):
        parts = list(nxd.statistics_parts(get_executor("cpu"), graph, np.arange(graph.n),
                                          ("reached", "sum"), options, what="test"))
        got = [plain(nx.closeness_centrality(G, backend="gpusp")),
               plain(nx.harmonic_centrality(G, backend="gpusp"))]
    assert [len(p.sources) for p in parts] == ([17, 17, 8, 8] if servers else [7] * 7 + [1])
    assert np.concatenate([p.sources for p in parts]).tolist() == list(range(graph.n))
    assert np.array_equal(np.concatenate([p.rows["sum"] for p in parts]),
                          np.concatenate(whole))
    same(got, expected)


def test_a_whole_graph_measure_submits_ranges_at_once(client, monkeypatch):
    """closeness of every node: every share submitted in one call (one message to the
    scheduler), each reaching its task as a range (as tasks: ShareServers off)."""
    monkeypatch.setattr(nxd, "SHARE_SERVERS", False)
    seen, calls = [], []
    mapped = client.map

    def spy(answer, tasks, graphs, shares, *args, **kwargs):
        calls.append(len(shares))
        seen.extend(shares)
        return mapped(answer, tasks, graphs, shares, *args, **kwargs)

    monkeypatch.setattr(client, "map", spy)
    G = random_graph(25, directed=False, n=40, p=0.1)
    with CFG(device="cpu"):
        expected = plain(nx.closeness_centrality(G, backend="gpusp"))
    with CFG(device="cpu", dask_client=client):
        got = plain(nx.closeness_centrality(G, backend="gpusp"))
    same(got, expected)
    assert calls == [nxd.MEASURE_SHARES_PER_THREAD * 2], calls
    assert all(isinstance(s, range) for s in seen), seen
    assert sorted(v for s in seen for v in s) == list(range(40))


def test_rows_stream_lazily_in_node_order(client, monkeypatch):
    """The first rows of the workers are read before most shares were submitted, with
    shares in flight on both workers at once; stopping early cancels the rest; rows
    come in NetworkX's node order."""
    monkeypatch.setattr(nxd, "SHARES_PER_THREAD", 8)  # 16 shares of 10, 4 in flight
    G = random_graph(12, directed=True, n=160, p=0.03, labels="str")
    with CFG(device="cpu", dask_client=client), distributed.get_task_stream(client) as ts:
        rows = nx.all_pairs_dijkstra_path_length(G, backend="gpusp")
        first = list(itertools.islice(rows, 18))  # 15 timed here, 3 of a worker's
        busy = {w for w, keys in client.processing().items()
                if any(str(k).startswith("nx_gpusp-rows") for k in keys)}
        busy |= {w for k, holders in client.who_has().items()
                 if str(k).startswith("nx_gpusp-rows") for w in holders}
        rows.close()
    assert [v for v, _ in first] == list(G)[:18]
    assert len(busy) == 2, "shares were not in flight on both workers at once"
    ran = len(tasks_of(ts))
    assert ran <= nxd.AHEAD_PER_THREAD * 2 + 1 < nxd.SHARES_PER_THREAD * 2, ran
    with CFG(device="cpu", dask_client=client):
        assert [v for v, _ in nx.all_pairs_dijkstra_path_length(G, backend="gpusp")] == \
            list(G)


# -- the plan for rows: here or on the workers --------------------------------------------
def test_rows_here_rule():
    """Rows are computed here when the workers, moving the rows here included, would
    not be faster; a batch's fixed cost counts once here, once a share there."""
    assert RULE((0.0, 1e-3), [100, 100], 4 << 20, 1e9, 2)        # 4 ms to move a row
    assert not RULE((0.0, 1e-3), [100, 100], 1000, 1e9, 2)       # 1 us to move a row
    assert RULE((1.0, 1e-6), [100, 100, 100], 1000, 1e9, 2)      # fixed costs dominate
    assert not RULE((0.01, 1e-3), [100, 100, 100, 100], 0, 1e9, 2)
    assert RULE((0.0, 1.0), [5, 5], 1, 1e9, 1)                   # one thread saves nothing
    assert RULE((0.0, 1.0), [10, 2], 0, 1e9, 2)       # 1.2x faster there: not enough
    assert not RULE((0.0, 1.0), [10, 3], 0, 1e9, 2)   # 1.3x: row_plan.GAIN = 1.25
    assert RULE((0.0, 1.0), [5, 5], 1, 0, 8)                     # bandwidth 0: always here
    assert row_plan.fitted_cost((100, 1.1), (50, 0.6)) == pytest.approx((0.1, 0.01))
    assert row_plan.fitted_cost((100, 1.0), (50, 1.2)) == (1.0, 0.0)  # bigger: less
    assert row_plan.fitted_cost((4, 2.0), (4, 2.0)) == (0.0, 0.5)
    assert [list(s) for s in row_plan.cut([np.arange(3), np.arange(3, 6)], 4)] == [[4, 5]]
    assert nxd.workers_in_process({"inproc://10.0.0.1/1/2": 1, "inproc://x/1/3": 1})
    assert not nxd.workers_in_process({"inproc://x/1/3": 1, "tcp://127.0.0.1:4000": 1})
    assert not nxd.workers_in_process({})


# the graph of the plan's tests, already on the NumPy twin's "device": every planned
# call keeps the cost it finds
PLAN_GRAPH = from_networkx(random_graph(16, directed=True, n=80, p=0.05, weights="float"),
                           "weight")
PLAN_GRAPH.on(get_executor("cpu"))


def _plan_run(client, caplog, **config):
    """(rows, nx_gpusp tasks, the plan's log lines) of all_pairs_dijkstra_path_length on
    PLAN_GRAPH through ``client``."""
    caplog.clear()
    config.setdefault("device", "cpu")
    with CFG(dask_client=client, **config), \
            distributed.get_task_stream(client) as ts, \
            caplog.at_level(logging.INFO, logger="nx_gpusp"):
        rows = plain(nx.all_pairs_dijkstra_path_length(PLAN_GRAPH))
    lines = [r.getMessage() for r in caplog.records if "computed here" in r.getMessage()]
    return rows, tasks_of(ts), lines


def _plan_expected():
    with CFG(device="cpu"):
        return plain(nx.all_pairs_dijkstra_path_length(PLAN_GRAPH))


def test_plan_keeps_rows_here_when_moving_them_dominates(client, caplog, monkeypatch):
    """A slow connection (dask_rows_bandwidth of 1 byte/s): after the first share,
    timed here, the rest is computed here too, said in one log line; the same rows.
    The cost found (the graph already on this device) is kept with the graph: the next
    call decides at once, every row here."""
    monkeypatch.setattr(row_plan, "rows_here", RULE)
    expected = _plan_expected()
    for line in ("60 of 80 sources computed here", "80 of 80 sources computed here (cpu)"):
        rows, tasks, lines = _plan_run(client, caplog, dask_rows_bandwidth=1)
        same(rows, expected)
        assert tasks == [] and len(lines) == 1, (tasks, lines)
        assert line in lines[0], lines[0]
    assert "an earlier call" in lines[0]
    monkeypatch.setattr(row_plan, "_COSTS", weakref.WeakKeyDictionary())
    rows, tasks, lines = _plan_run(client, caplog, dask_rows_bandwidth=0)
    same(rows, expected)
    assert tasks == [] and len(lines) == 1
    if not cuda_available():  # 'auto' is the twin here, the workers' devices unknown
        rows, tasks, lines = _plan_run(client, caplog, dask_rows_bandwidth=0,
                                       device="auto")
        same(rows, expected)
        assert lines == [] and len(tasks) == nxd.SHARES_PER_THREAD * 2


def test_plan_spreads_rows_when_the_work_per_row_is_large(client, caplog, monkeypatch):
    """A fast connection and a cost all per source (as timed on the first share and
    half the second: here fixed, the host's timings being noise): the rows left come
    from both workers, and on the next call (the cost kept) every share; with a
    batch's fixed cost dominating, they are computed here."""
    monkeypatch.setattr(row_plan, "rows_here", RULE)
    expected = _plan_expected()
    monkeypatch.setattr(row_plan, "fitted_cost", lambda first, second: (0.0, 1.0))
    for shares in (nxd.SHARES_PER_THREAD * 2 - 1, nxd.SHARES_PER_THREAD * 2):
        rows, tasks, lines = _plan_run(client, caplog, dask_rows_bandwidth=10**15)
        same(rows, expected)
        assert lines == [] and len(tasks) == shares, (lines, tasks)
        assert len({worker for _, worker in tasks}) == 2
    monkeypatch.setattr(row_plan, "_COSTS", weakref.WeakKeyDictionary())
    monkeypatch.setattr(row_plan, "fitted_cost", lambda first, second: (1.0, 0.0))
    rows, tasks, lines = _plan_run(client, caplog, dask_rows_bandwidth=10**15)
    same(rows, expected)
    assert tasks == [] and len(lines) == 1
    assert "50 of 80 sources computed here" in lines[0], lines[0]


def test_plan_spreads_every_share_to_workers_in_this_process(caplog, monkeypatch):
    """Workers in the caller's process hand rows over by reference: every share goes to
    them whatever the bandwidth, none is computed here."""
    monkeypatch.setattr(row_plan, "rows_here", RULE)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                       dashboard_address=":0", silence_logs=logging.ERROR)
    try:
        with distributed.Client(cluster) as local:
            rows, tasks, lines = _plan_run(local, caplog, dask_rows_bandwidth=1)
    finally:
        cluster.close()
    same(rows, _plan_expected())
    assert lines == [] and len(tasks) == nxd.SHARES_PER_THREAD * 2


def test_kept_graph_keeps_the_first_copy_a_worker_received(monkeypatch):
    """A worker handed a scattered graph again (Dask's memory manager dropped its
    replica, a peer sent it back) computes on the copy it kept, with its device
    copies; the WORKER_GRAPHS most recent graphs are kept."""
    monkeypatch.setattr(nxd, "_KEPT", {})
    graph = from_networkx(random_graph(22, n=12, p=0.3), "weight")
    assert nxd.kept_graph(graph) is graph and nxd._KEPT == {}  # not scattered
    copies = [nxd._worker_copy(graph, f"nx_gpusp-graph-{i}")
              for i in range(nxd.WORKER_GRAPHS + 1)]
    first = pickle.loads(pickle.dumps(copies[0]))
    assert nxd.kept_graph(first) is first
    first.on(get_executor("cpu"))
    again = pickle.loads(pickle.dumps(copies[0]))
    assert again is not first and nxd.kept_graph(again) is first
    assert first._device  # the device copy kept with it
    for copy in copies[1:]:
        nxd.kept_graph(pickle.loads(pickle.dumps(copy)))
    assert list(nxd._KEPT) == [f"nx_gpusp-graph-{i}" for i in
                               range(1, nxd.WORKER_GRAPHS + 1)]


def test_a_worker_without_the_graph_runs_its_share_with_the_future(client, monkeypatch):
    """Tasks name the graph by its key (no transfer to wait for); a worker holding no
    copy (here: the graph scattered to one worker only, nothing kept) answers Missing
    and the share runs again with the graph's future, the answer unchanged."""
    G = random_graph(23, directed=False, n=60, p=0.1)
    with CFG(device="cpu"):
        expected = plain(nx.closeness_centrality(G, backend="gpusp"))
    first = sorted(client.nthreads())[0]

    def scattered_to_one(client, graph):
        key = f"nx_gpusp-graph-test-{id(graph)}"
        copy = nxd._worker_copy(graph, key)
        return client.scatter({key: copy}, workers=[first], hash=False)[key]

    client.run(lambda: nxd._KEPT.clear())
    monkeypatch.setattr(nxd, "scattered_graph", scattered_to_one)
    with CFG(device="cpu", dask_client=client), distributed.get_task_stream(client) as ts:
        got = plain(nx.closeness_centrality(G, backend="gpusp"))
    same(got, expected)
    keys = [str(e["key"]) for e in ts.data if str(e["key"]).startswith("nx_gpusp-stat")]
    assert any(k.endswith("-with-graph") for k in keys), keys
    assert nxd.worker_graph(nxd.GraphKey("nx_gpusp-graph-none")) is None  # not a worker
    assert isinstance(nxd.statistics_task(nxd.GraphKey("nx_gpusp-graph-none"), [0],
                                          ("sum",), {}, "cpu"), nxd.Missing)


class KillOnce(distributed.WorkerPlugin):
    """Ends its worker's process (as a crash would) when the worker starts its
    ``after``-th nx_gpusp rows task, once in the whole cluster (an exclusive marker
    file): the nanny starts a new worker, the scheduler reruns the lost tasks."""

    name = "nx-gpusp-kill-once"

    def __init__(self, marker, after):
        self.marker, self.after = marker, after

    def setup(self, worker):
        self.started = 0

    def transition(self, key, start, finish, **kwargs):
        if finish != "executing" or not str(key).startswith("nx_gpusp-rows"):
            return
        self.started += 1
        if self.started != self.after:
            return
        try:
            fd = os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        os._exit(1)


def test_worker_killed_mid_run_still_gives_the_whole_answer(client, tmp_path):
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers need not import it
    G = random_graph(13, directed=True, n=150, p=0.04, weights="float")
    with CFG(device="cpu"):
        expected = plain(nx.all_pairs_dijkstra_path_length(G, backend="gpusp"))
    marker = tmp_path / "killed"
    pids = set(client.run(os.getpid).values())
    plugin = KillOnce(str(marker), after=2)
    register = getattr(client, "register_plugin", None) or client.register_worker_plugin
    register(plugin)
    try:
        with CFG(device="cpu", dask_client=client):
            got = plain(nx.all_pairs_dijkstra_path_length(G, backend="gpusp"))
    finally:
        client.unregister_worker_plugin(KillOnce.name)
    assert marker.exists(), "no worker was killed"
    assert int(marker.read_text()) in pids
    same(got, expected)
    client.wait_for_workers(2, timeout=120)
    assert int(marker.read_text()) not in set(client.run(os.getpid).values())


# -- the option and the graph's pickling --------------------------------------------------
def test_dask_client_option(client):
    assert CFG.dask_client is None
    with pytest.raises(TypeError, match="distributed.Client"):
        CFG.dask_client = "tcp://127.0.0.1:8786"
    with pytest.raises(TypeError, match="distributed.Client"):
        CFG(dask_client=object())
    with CFG(dask_client=client):
        assert CFG.dask_client is client
        assert nxd.active_client() is client
    assert CFG.dask_client is None
    CFG.dask_client = client
    try:
        assert CFG["dask_client"] is client
    finally:
        CFG.dask_client = None
    assert nxd.worker_device("cuda:1") == "cuda" and nxd.worker_device("cpu") == "cpu"
    assert nxd.worker_device("auto") == "auto"


def test_dask_client_is_not_read_from_the_environment(monkeypatch):
    from nx_gpusp.config import default_config

    monkeypatch.setenv("NX_GPUSP_DASK_CLIENT", "tcp://127.0.0.1:8786")
    assert default_config().dask_client is None


def test_csr_graph_pickles_without_device_copies():
    G = random_graph(21, directed=True, n=30, p=0.2, labels="tuple", multigraph=True)
    graph = from_networkx(G, "weight")
    graph.on(get_executor("cpu"))
    assert graph.reverse.reverse is graph and graph.node_index
    copy = pickle.loads(pickle.dumps(graph))
    assert copy._device == {} and "reverse" not in copy.__dict__
    for name in ("indptr", "indices", "weights"):
        np.testing.assert_array_equal(getattr(copy, name), getattr(graph, name))
    assert list(copy.nodes) == list(graph.nodes)
    assert (copy.directed, copy.multigraph, copy.weighted, copy.number_of_edges()) == \
        (graph.directed, graph.multigraph, graph.weighted, graph.number_of_edges())
    np.testing.assert_array_equal(copy.reverse.indices, graph.reverse.indices)
    worker = pickle.loads(pickle.dumps(nxd._worker_copy(graph)))
    assert worker._nodes is None and worker.n == graph.n
    with CFG(device="cpu"):
        a = materialize(dict(nx.all_pairs_dijkstra_path_length(graph)))
        b = materialize(dict(nx.all_pairs_dijkstra_path_length(copy)))
    assert a == b


def test_dask_extras_are_declared():
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    extras = project["project"]["optional-dependencies"]
    assert extras["dask"] == ["dask[distributed]>=2024.1"]
    assert "dask-cuda>=24.2" in extras["dask-cuda"] and "nx-gpusp[dask]" in extras["dask-cuda"]
    assert any(r.startswith("dask[distributed]") for r in extras["test"])
    assert not any("dask" in r for r in project["project"]["dependencies"])


def test_share_rows_bounded_in_bytes(client, monkeypatch):
    """Shares of all-pairs rows hold at most SHARE_ROW_BYTES of host rows (int8 rows
    here: unit weights, 60 vertices), so more shares run, with the same answer."""
    G = random_graph(14, directed=False, n=60, p=0.1, weights="none")
    with CFG(device="cpu"):
        expected = plain(nx.all_pairs_shortest_path_length(G, backend="gpusp"))
    monkeypatch.setattr(nxd, "SHARE_ROW_BYTES", 60 * 5)  # five int8 rows a share
    with CFG(device="cpu", dask_client=client), distributed.get_task_stream(client) as ts:
        got = plain(nx.all_pairs_shortest_path_length(G, backend="gpusp"))
    same(got, expected)
    assert len(tasks_of(ts)) == 11  # the first share computed here (the plan)


def test_plain_dicts_with_lazy_results_off(client):
    G = random_graph(15, directed=True, n=30, p=0.1, labels="tuple")
    with CFG(device="cpu"):
        expected = plain(nx.all_pairs_dijkstra(G, backend="gpusp"))
    with CFG(device="cpu", dask_client=client, lazy_results=False):
        got = list(nx.all_pairs_dijkstra(G, backend="gpusp"))
    assert all(type(lengths) is dict and type(paths) is dict for _, (lengths, paths) in got)
    same(got, expected)


def test_local_gpu_client_gives_each_worker_its_own_gpu():
    """local_gpu_client: worker threads in this process, worker i on 'cuda:i' (tasks
    ask for 'cuda'); on the NumPy twin ('cpu') the answer equals one process's."""
    client = nxd.local_gpu_client(2, dashboard_address=":0", silence_logs=logging.ERROR)
    try:
        workers = sorted(client.scheduler_info()["workers"])
        devices = client.gather([client.submit(nxd._task_device, "cuda", workers=[w],
                                               pure=False) for w in workers])
        assert sorted(devices) == ["cuda:0", "cuda:1"]
        assert client.gather(client.submit(nxd._task_device, "cpu", pure=False)) == "cpu"
        G = random_graph(3, n=25, p=0.15)
        expected = dict(nx.all_pairs_dijkstra_path_length(G, backend="gpusp"))
        with nx.config.backends.gpusp(dask_client=client, device="cpu"):
            assert dict(nx.all_pairs_dijkstra_path_length(G, backend="gpusp")) == expected
    finally:
        client.close()
        client.cluster.close()
