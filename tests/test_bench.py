"""python -m nx_gpusp.bench: the table lists every registered method, and the
distances of every method agree with SciPy's; the rules that keep peers and slow
calls from stalling a benchmark run."""

import json
import subprocess
import sys
import time

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


def test_asv_track_with_skipped_peer_is_not_applicable(capsys):
    """A rate against a skipped peer is asv's "n/a" (NaN), not a failure, and says why."""
    import math

    from asv_benchmarks import workloads as W

    assert math.isnan(W.peer_unavailable("SciPy skipped: minutes a call"))
    assert "minutes a call" in capsys.readouterr().err


def test_kernel_runner_whole_result_keeps_stats_and_predecessors():
    """What tools/sssp_probe.py and tools/paper_claims.py time: the solver's whole result
    (statistics, predecessors when asked), its distances equal to the plain runner's."""
    import numpy as np

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
