"""python -m nx_gpusp.bench: the table lists every registered method, and the
distances of every method agree with SciPy's."""

import json
import subprocess
import sys

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
