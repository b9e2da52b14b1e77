"""python -m nx_gpusp.bench: the table lists every registered method, and the
distances of every method agree with SciPy's; the rules that keep peers and slow
calls from stalling a benchmark run."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from nx_gpusp.methods import methods_for


def test_bench_tiny_table_lists_every_method(tmp_path):
    out = tmp_path / "bench.json"
    proc = subprocess.run(
        [sys.executable, "-m", "nx_gpusp.bench", "--workload", "tiny", "--sources", "2",
         "--device", "cpu", "--json", str(out)],
        capture_output=True, text=True, timeout=300, check=True)
    table_impls = {line.split()[0] for line in proc.stdout.splitlines() if line.strip()}
    for problem in ("sssp", "floyd-warshall"):
        for method in methods_for(problem):
            assert method.name in table_impls, f"{method.name} missing from\n{proc.stdout}"
    assert {"networkx", "scipy"} <= table_impls
    results = json.loads(out.read_text())["results"]
    assert {r["problem"] for r in results} == {"sssp", "bellman-ford", "floyd-warshall"}
    for res in results:
        for row in res["rows"]:
            assert row.get("agrees", True), f"{row['impl']} disagrees with SciPy on {res['graph']}"
            if row["impl"] != "scipy" and "note" not in row:
                assert row["kernel_s"] > 0 and row["speedup_vs_scipy"] > 0


def test_bench_plot_or_clear_message(tmp_path):
    png = tmp_path / "bench.png"
    proc = subprocess.run(
        [sys.executable, "-m", "nx_gpusp.bench", "--workload", "tiny", "--sources", "1",
         "--repeat", "1", "--device", "cpu", "--no-networkx", "--plot", str(png)],
        capture_output=True, text=True, timeout=300)
    if proc.returncode:
        assert "needs matplotlib" in proc.stderr
    else:
        assert png.stat().st_size > 0


def test_peer_skip_reason_rules_out_what_cannot_finish():
    from types import SimpleNamespace

    from nx_gpusp.bench import NX_MAX_ARCS, SCIPY_BF_MAX_WORK, peer_skip_reason

    ny = SimpleNamespace(n=264_346, m=730_100)  # NY with potentials: n*m ~ 1.9e11
    assert ny.n * ny.m > SCIPY_BF_MAX_WORK
    assert "O(n m)" in peer_skip_reason("scipy", "bellman-ford", ny)
    assert peer_skip_reason("scipy", "sssp", ny) is None
    assert peer_skip_reason("networkx", "bellman-ford", ny) is None
    assert "arcs" in peer_skip_reason("networkx", "sssp", SimpleNamespace(n=10, m=NX_MAX_ARCS + 1))
    assert "O(n^3)" in peer_skip_reason("scipy", "floyd-warshall", SimpleNamespace(n=4096, m=1))
    assert peer_skip_reason("scipy", "floyd-warshall", SimpleNamespace(n=1024, m=1)) is None


def test_asv_warm_up_skips_slow_calls_once(tmp_path, monkeypatch):
    """A call over the limit is cut off (SIGALRM at 5x) and reported as skipped; the
    verdict is kept, so the next benchmark with the same key skips without calling."""
    monkeypatch.setenv("NX_GPUSP_BENCH_CACHE", str(tmp_path))
    from asv_benchmarks import workloads as W

    calls = []

    def slow():
        calls.append(1)
        time.sleep(30)

    t0 = time.perf_counter()
    with pytest.raises(NotImplementedError, match="left out of the asv run"):
        W.warm_up(slow, slow=0.05, key="case:sssp:slow")
    assert time.perf_counter() - t0 < 5 and len(calls) == 1
    with pytest.raises(NotImplementedError):
        W.warm_up(slow, slow=0.05, key="case:sssp:slow")
    assert len(calls) == 1
    W.warm_up(lambda: calls.append(2), slow=1.0, key="case:sssp:fast")
    assert calls == [1, 2]

    def too_big():
        raise MemoryError("needs 520.6 GiB")

    with pytest.raises(NotImplementedError, match="520.6 GiB"):
        W.warm_up(too_big, key="case:sssp:big")


def test_kernel_runner_whole_result_keeps_stats_and_predecessors():
    """What tools/paper_claims.py times: the solver's whole result
    (statistics, predecessors when asked), its distances equal to the plain runner's."""
    from nx_gpusp import bench, datasets
    from nx_gpusp.executor import Executor
    from nx_gpusp.methods import get_method

    ex = Executor("cpu")
    graph = datasets.random_predecessors(300)
    method = get_method("sssp", "near-far")
    queue_only = {"block_cap": 1, "dense_fraction": 0}  # a handed-over run keeps no pred
    whole = bench.kernel_runner("sssp", method, graph, ex, queue_only, want_pred=True,
                                whole_result=True)(0)
    plain = bench.kernel_runner("sssp", method, graph, ex, {"block_cap": 1})(0)
    assert whole.stats["rounds"] > 0 and whole.pred is not None
    np.testing.assert_array_equal(whole.dist, plain)


# -- the command line: what is wrong is said before the run, in one line, exit status 2
def _bench(*args, env=None, timeout=300):
    import os

    return subprocess.run([sys.executable, "-m", "nx_gpusp.bench", *args],
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def _one_line_error(proc, *needles):
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    assert proc.stdout == ""  # nothing ran


def test_unknown_method_is_an_error_listing_the_valid_ones():
    proc = _bench("--workload", "tiny", "--device", "cpu", "--methods", "near-far,nope,fw-x")
    _one_line_error(proc, "unknown fw-x, nope", "near-far", "harish", "fw-dpx")


def test_cuda_without_gpu_is_a_one_line_error():
    from nx_gpusp.executor import cuda_available

    if cuda_available():
        pytest.skip("this machine has a GPU: --device cuda is valid here")
    _one_line_error(_bench("--device", "cuda"), "--device cuda", "--device cpu")


def test_missing_data_is_a_one_line_error(tmp_path):
    env = {"NX_GPUSP_DATA": str(tmp_path / "none"), "NX_GPUSP_DATA_CACHE": str(tmp_path / "c")}
    proc = _bench("--workload", "rome99", "--device", "cpu", env=env)
    _one_line_error(proc, "workload rome99", "'rome99' not found", "NX_GPUSP_DATA",
                    "fetch('rome99')")


@pytest.mark.parametrize("option", ["--json", "--plot"])
def test_bad_output_path_is_found_before_the_run(tmp_path, option):
    proc = _bench("--device", "cpu", option, str(tmp_path / "no" / "such" / "out"))
    _one_line_error(proc, option, "does not exist")
    proc = _bench("--device", "cpu", option, str(tmp_path))
    _one_line_error(proc, option, "is a directory")


def test_missing_matplotlib_is_found_before_the_run(tmp_path):
    """A matplotlib that cannot be imported (a stub package raising ImportError, first
    on the path) stops the run at once."""
    stub = tmp_path / "stub" / "matplotlib"
    stub.mkdir(parents=True)
    (stub / "__init__.py").write_text("raise ImportError('no matplotlib here')\n")
    import os

    path = os.pathsep.join([str(tmp_path / "stub"), os.environ.get("PYTHONPATH", "")])
    proc = _bench("--device", "cpu", "--plot", str(tmp_path / "b.png"),
                  env={"PYTHONPATH": path})
    _one_line_error(proc, "--plot needs matplotlib")


def test_progress_goes_to_stderr_and_tables_to_stdout():
    proc = _bench("--workload", "tiny", "--device", "cpu", "--sources", "1", "--repeat", "1",
                  "--no-networkx", "--methods", "near-far,fw-dpx")
    assert proc.returncode == 0, proc.stderr
    assert "random-pred-500: near-far" in proc.stderr and "dense-96: scipy" in proc.stderr
    assert "s] " in proc.stderr.splitlines()[0]
    assert "near-far" in proc.stdout and "[" not in proc.stdout.splitlines()[1]


def test_group_calls_prints_every_public_call_row(tmp_path):
    """--group calls: each call through NetworkX's public API, gpusp beside NetworkX and
    SciPy (or the reason a peer is left out), the first call in a fresh process."""
    from nx_gpusp.bench import CALL_TITLES

    out = tmp_path / "calls.json"
    proc = _bench("--group", "calls", "--workload", "tiny", "--workload", "tiny-all-pairs",
                  "--device", "cpu", "--repeat", "1", "--json", str(out))
    assert proc.returncode == 0, proc.stderr
    results = json.loads(out.read_text())["results"]
    assert {r["call"] for r in results} == set(CALL_TITLES)
    for res in results:
        assert res["title"] in proc.stdout
        rows = {r["impl"]: r for r in res["rows"]}
        assert set(rows) == {"gpusp", "networkx", "scipy"}
        assert rows["gpusp"]["kernel_s"] > 0
        for row in rows.values():
            assert "kernel_s" in row or row["note"]


def test_group_race_prints_source_0_ten_sources_and_paths(tmp_path):
    out = tmp_path / "race.json"
    proc = _bench("--group", "race", "--workload", "tiny", "--device", "cpu", "--repeat", "2",
                  "--json", str(out))
    assert proc.returncode == 0, proc.stderr
    (res,) = json.loads(out.read_text())["results"]
    assert res["sources"] == 10 and res["problem"] == "race"
    rows = {r["impl"]: r for r in res["rows"]}
    assert set(rows) == {"auto (near-far)", "harish", "scipy"}
    for row in rows.values():
        for key in ("src0_s", "median_s", "paths_src0_s", "paths_median_s"):
            assert row[key] > 0
    assert rows["auto (near-far)"]["agrees"] and rows["harish"]["agrees"]
    assert "10-src paths ms" in proc.stdout


def test_call_runner_works_on_any_mapping_result(monkeypatch):
    """The public-call rows use only len, get, iteration, dict() and copy(): a read-only
    Mapping result gives the same counts as a dict."""
    from collections.abc import Mapping

    import networkx as nx

    from nx_gpusp import bench, datasets

    class ReadOnly(Mapping):
        def __init__(self, d):
            self._d = d

        def __getitem__(self, k):
            return self._d[k]

        def __iter__(self):
            return iter(self._d)

        def __len__(self):
            return len(self._d)

        def copy(self):  # what NetworkX's dicts and gpusp's mappings both have
            return dict(self._d)

    graph = datasets.random_predecessors(300)
    G = bench.user_graph(graph)
    source, targets = bench.pick_sources(graph, 1)[0], bench.lookup_targets(graph, 50)
    nx.config.backends.gpusp.device = "cpu"
    plain = {c: bench.call_runner(c, "gpusp", graph, G, source, targets)()
             for c in bench.SSSP_CALLS}
    real_sssp = nx.single_source_dijkstra
    real_len = nx.single_source_dijkstra_path_length
    monkeypatch.setattr(nx, "single_source_dijkstra_path_length",
                        lambda *a, **k: ReadOnly(real_len(*a, **k)))
    monkeypatch.setattr(nx, "single_source_dijkstra",
                        lambda *a, **k: tuple(ReadOnly(x) for x in real_sssp(*a, **k)))
    wrapped = {c: bench.call_runner(c, "gpusp", graph, G, source, targets)()
               for c in bench.SSSP_CALLS}
    assert wrapped == plain and plain["lengths"] > 300


# -- the committed asv results: what asv publish and asv compare read ---------------------
RESULTS = Path(__file__).resolve().parents[1] / "asv_benchmarks" / "results"


def _result_files():
    return sorted(f for f in RESULTS.glob("*/*.json") if f.name != "machine.json")


def test_asv_results_track_only_times_and_name_no_machine_path():
    """asv takes every number as lower-is-better: no rate (GTEPS, speed-up, ops/s) is
    recorded; environments are named by Python version, not by an interpreter path."""
    files = _result_files()
    assert files
    benchmarks = json.loads((RESULTS / "benchmarks.json").read_text())
    for name, info in benchmarks.items():
        if name != "version":
            assert info["type"] == "time" or info["unit"] == "seconds", name
    for f in files:
        data = json.loads(f.read_text())
        assert data["env_name"] == f"existing-py{data['python']}", f.name
        assert "/" not in data["python"] and f.name.endswith(f"-{data['env_name']}.json")
        for key in data["results"]:
            assert not key.endswith(("track_gteps", "track_minplus_gops",
                                     "track_speedup_vs_scipy")), (f.name, key)


def test_asv_machines_record_gpu_driver_cuda_and_cupy():
    """Every machine with results (tools/asv_gpu.sh adds these to asv's own fields)."""
    folders = {f.parent for f in _result_files()}
    assert folders
    for folder in folders:
        info = json.loads((folder / "machine.json").read_text())
        assert {"gpu", "gpu_driver", "cuda", "cupy"} <= set(info), folder


def test_asv_results_belong_to_commits_in_the_history():
    """asv publish drops (and asv compare cannot find) a result whose commit is not in
    the repository."""
    root = RESULTS.parents[1]
    if subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"],
                      capture_output=True).returncode:
        pytest.skip("not a git checkout")
    if subprocess.run(["git", "-C", str(root), "rev-parse", "--is-shallow-repository"],
                      capture_output=True, text=True).stdout.strip() == "true":
        pytest.skip("shallow clone: older commits are not here")
    for f in _result_files():
        commit = json.loads(f.read_text())["commit_hash"]
        found = subprocess.run(["git", "-C", str(root), "cat-file", "-e", f"{commit}^{{commit}}"],
                               capture_output=True)
        assert found.returncode == 0, f"{f.name}: commit {commit} is not in the history"


def test_adds_race_writes_galois_gr(tmp_path):
    """tools/adds_race.py hands ADDS its graphs in Galois's binary .gr layout: version 1,
    4-byte edge data, n, m (uint64), the rows' ends (uint64), the heads (uint32, padded to
    8 bytes), the weights (uint32); float or negative weights are refused."""
    import importlib.util

    from nx_gpusp.graph import CSRGraph

    path = Path(__file__).parents[1] / "tools" / "adds_race.py"
    spec = importlib.util.spec_from_file_location("adds_race", path)
    adds_race = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(adds_race)
    graph = CSRGraph.from_edge_arrays(4, np.array([0, 0, 1, 2, 3]), np.array([1, 2, 3, 3, 0]),
                                      np.array([5, 1, 2, 7, 3], dtype=np.int64))
    adds_race.write_gr(graph, tmp_path / "g.gr")
    raw = (tmp_path / "g.gr").read_bytes()
    n, m = graph.n, graph.m
    assert np.frombuffer(raw[:32], "<u8").tolist() == [1, 4, n, m]
    assert np.frombuffer(raw[32:32 + 8 * n], "<u8").tolist() == graph.indptr[1:].tolist()
    at = 32 + 8 * n
    assert np.frombuffer(raw[at:at + 4 * m], "<u4").tolist() == graph.indices.tolist()
    at += 4 * m + 4 * (m % 2)
    assert np.frombuffer(raw[at:], "<u4").tolist() == graph.weights.tolist()
    floats = CSRGraph.from_edge_arrays(2, np.array([0]), np.array([1]), np.array([0.5]))
    with pytest.raises(ValueError, match="weights in 0..2"):
        adds_race.write_gr(floats, tmp_path / "f.gr")


@pytest.fixture
def child_runs(monkeypatch):
    """(code, stdout) of every fresh process the bench's first-call rows start."""
    from nx_gpusp import bench

    seen = []
    real_run = subprocess.run

    def run(*args, **kwargs):
        out = real_run(*args, **kwargs)
        seen.append((args[0][-1], out.stdout))
        return out

    monkeypatch.setattr(bench.subprocess, "run", run)
    return seen


def test_first_call_child_imports_only_networkx_before_its_call(tmp_path, monkeypatch,
                                                              child_runs):
    """The first-call row times a fresh interpreter's call as a user's program makes it:
    NetworkX imported and the graph loaded, nx_gpusp's algorithms, NumPy and CuPy not
    yet imported (the call imports them); its times come back one per process."""
    from nx_gpusp import bench

    probe = bench.FIRST_CALL_CHILD.replace(
        "t0 = time.perf_counter()",
        "import sys\nprint('LOADED', sorted(m for m in ('numpy', 'cupy', 'nx_gpusp.interface',"
        " 'nx_gpusp.algorithms') if m in sys.modules))\nt0 = time.perf_counter()")
    monkeypatch.setattr(bench, "FIRST_CALL_CHILD", probe)
    median, times = bench.first_call_seconds("tiny", "cpu", 0, repeat=2)
    assert len(times) == 2 and median == np.median(times) and all(t > 0 for t in times)
    assert all("LOADED []" in out for _, out in child_runs)
    assert all('backend="gpusp"' in code for code, _ in child_runs)


@pytest.mark.parametrize("call", ["first-paths-call", "first-predecessors-call"])
def test_followup_call_times_a_function_after_the_first_lengths_call(monkeypatch, call,
                                                                      child_runs):
    """The follow-up rows run, in each fresh interpreter, a lengths call and then the
    row's function twice on gpusp, reading its answer; the first of those is the row's
    time, and the answer is gpusp's and whole (the child compares it with NetworkX's)."""
    from nx_gpusp import bench

    function, _ = bench.FOLLOWUP_CALLS[call]
    # ties: NetworkX's own pick among equally short paths and its heap's order of equal
    # predecessors, as everywhere (tests/test_weighted.py)
    whole = ("set(out) == set(ref) and all(nx.path_weight(G, list(out[v]), attr) == "
             "nx.path_weight(G, ref[v], attr) for v in ref)" if call == "first-paths-call"
             else "dict((v, sorted(p)) for v, p in dict(out[0]).items()) == "
                  "dict((v, sorted(p)) for v, p in ref[0].items())")  # no braces: .format
    probe = bench.FOLLOWUP_CHILD.replace(
        "print(*times)",
        f"ref = nx.{function}(G, label, weight=attr, backend='networkx')\n"
        f"print('SAME', len(G) > 1 and {whole})\nprint(*times)")
    monkeypatch.setattr(bench, "FOLLOWUP_CHILD", probe)
    median, first, second = bench.followup_call_seconds("tiny", "cpu", 0, call, repeat=2)
    assert len(first) == len(second) == 2 and median == np.median(first)
    assert all(t > 0 for t in first + second)
    for code, out in child_runs:
        assert f'nx.{function}(G, label, weight=attr, backend="gpusp")' in code
        assert "SAME True" in out, out
    assert call in bench.calls_of("tiny", bench.WORKLOADS["tiny"][0])


def test_first_call_auto_dispatches_by_priority(monkeypatch, child_runs):
    """The first-call-auto row's child names no backend and runs under
    NETWORKX_BACKEND_PRIORITY=gpusp (whatever this process has set), and its answer is
    gpusp's: the call is timed, or with ``program`` the whole program, which is longer."""
    from nx_gpusp import bench

    monkeypatch.setenv("NETWORKX_BACKEND_PRIORITY_ALGOS", "networkx")
    probe = bench.FIRST_CALL_CHILD.replace(
        "end = time.perf_counter()",
        "end = time.perf_counter()\nimport os, sys\n"
        "print('PRIORITY', os.environ.get('NETWORKX_BACKEND_PRIORITY'), "
        "'NX_GPUSP', 'nx_gpusp.interface' in sys.modules, "
        "[k for k in os.environ if k.startswith('NETWORKX_BACKEND_PRIORITY_')])")
    monkeypatch.setattr(bench, "FIRST_CALL_CHILD", probe)
    graph = bench.WORKLOADS["tiny"][0].build()
    call, _ = bench.first_call_seconds("tiny", "cpu", 0, repeat=1, graph=graph, auto=True)
    program, _ = bench.first_call_seconds("tiny", "cpu", 0, repeat=1, graph=graph,
                                          auto=True, program=True)
    assert 0 < call < program
    for code, out in child_runs:
        assert "backend=" not in code
        assert "PRIORITY gpusp NX_GPUSP True []" in out, out


def test_first_call_cold_gives_each_process_an_empty_cupy_cache(monkeypatch):
    """The first-call-cold row runs each fresh process with a CuPy kernel cache of its
    own that does not exist yet (a new machine), the warm row with the user's."""
    from nx_gpusp import bench

    caches = []
    real_run = subprocess.run

    def run(*args, **kwargs):
        cache = kwargs["env"].get("CUPY_CACHE_DIR")
        caches.append(cache if cache is None else (cache, os.path.exists(cache)))
        return real_run(*args, **kwargs)

    monkeypatch.setattr(bench.subprocess, "run", run)
    monkeypatch.delenv("CUPY_CACHE_DIR", raising=False)
    graph = bench.WORKLOADS["tiny"][0].build()
    med, times = bench.first_call_seconds("tiny", "cpu", 0, repeat=2, graph=graph, cold=True)
    assert len(times) == 2 and med > 0
    assert len({c[0] for c in caches}) == 2 and not any(c[1] for c in caches)
    bench.first_call_seconds("tiny", "cpu", 0, repeat=1, graph=graph)
    assert caches[-1] is None
