"""A process's first call on a machine whose CuPy cache is empty compiles nothing (GPU
only): every kernel it launches is ours, loaded from the prebuilt binaries, none of
CuPy's own (elementwise, reduction, indexing kernels, which CuPy compiles with NVRTC at
their first use), and the answer is NetworkX's.

Each call runs alone in a fresh Python process with CUPY_CACHE_DIR an empty folder and
CUPY_CACHE_SAVE_CUDA_SOURCE=1 (CuPy then keeps the source of every kernel it compiles
there as a ``.cu`` file). The calls are tests/cold_first_calls.py's table, which
tools/cold_first_call.sh times too; the tool's checks here run without a GPU."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cold_first_calls import CALLS, TIMED
from nx_gpusp import datasets, prebuilt
from nx_gpusp.executor import cuda_available

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent

SCRIPT = r"""
import json, math, sys
import networkx as nx
import numpy as np

from cold_first_calls import load_graph

name, graph, call, compare = sys.argv[1:]
G = load_graph(graph)
got = eval(call.format(', backend="gpusp"'))
from nx_gpusp.executor import MODULE_ORIGIN
want = eval(call.format(""))
if compare == "dict":
    same = dict(got) == want
elif compare == "rows":
    same = {u: dict(row) for u, row in got.items()} == want
elif compare == "path":  # a shortest path (NetworkX's may be another of equal length)
    same = (got[0] == want[0] and got[-1] == want[-1] and all(G.has_edge(u, v) for u, v in
            zip(got, got[1:])) and nx.path_weight(G, got, "weight") ==
            nx.path_weight(G, want, "weight"))
elif compare == "matrix":
    same = isinstance(got, np.ndarray) and np.array_equal(got, want)
elif compare == "floats":
    same = list(got) == list(want) and all(
        math.isclose(got[k], want[k], rel_tol=1e-9) for k in want)
elif compare == "fw":
    same = ({u: dict(r) for u, r in got[0].items()} == {u: dict(r) for u, r in want[0].items()}
            and {u: dict(r) for u, r in got[1].items()} == {u: dict(r) for u, r in want[1].items()})
else:
    same = got == want and type(got) is type(want)
print(json.dumps({"same": bool(same),
                  "origins": {f"{f}@{d}": o for (f, d), o in MODULE_ORIGIN.items()}}))
"""


def _needs(graph):
    if graph == "NY":
        try:
            datasets.find("NY")
        except FileNotFoundError as exc:
            pytest.skip(str(exc))


# first calls that still compile CuPy kernels (strict: the test says when they stop)
STILL_COMPILING = {}  # name: the CuPy kernels it compiles


@pytest.mark.gpu
@pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")
@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=f"compiles {kernels}"))
    if name in STILL_COMPILING else name for name, kernels in
    ((name, STILL_COMPILING.get(name)) for name in CALLS)])
def test_first_call_compiles_nothing(name, tmp_path):
    if prebuilt.read_manifest() is None:
        pytest.skip("no prebuilt kernels in this install (python -m nx_gpusp.kernel_build "
                    "builds them into nx_gpusp/kernel_binaries)")
    graph, call, compare = CALLS[name]
    _needs(graph)
    cache = tmp_path / "cupy-cache"
    cache.mkdir()
    env = {**os.environ, "CUPY_CACHE_DIR": str(cache), "CUPY_CACHE_SAVE_CUDA_SOURCE": "1",
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", SCRIPT, name, graph, call, compare],
                         capture_output=True, text=True, env=env, timeout=900)
    assert out.returncode == 0, out.stderr[-4000:]
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["same"], f"{name}: the answer differs from NetworkX's"
    compiled = sorted(p.name for p in cache.rglob("*.cu"))
    assert not compiled, f"{name}: CuPy compiled {len(compiled)} kernel(s) with NVRTC: " + \
        ", ".join(_kernel_names(cache))
    assert report["origins"], f"{name}: no kernel module was loaded"
    nvrtc = {k: v for k, v in report["origins"].items() if v != "prebuilt"}
    assert not nvrtc, f"{name}: modules compiled with NVRTC: {nvrtc}"


def _kernel_names(cache):
    """The kernels in the sources CuPy kept (for the failure message)."""
    import re

    names = []
    for f in sorted(cache.rglob("*.cu")):
        names += re.findall(r"__global__\s+void\s+(\w+)", f.read_text(errors="replace"))
    return names or ["(unnamed)"]


def test_the_tool_times_the_table_calls():
    """tools/cold_first_call.sh takes its calls from the table (none of its own), prints
    each one's seconds and what CuPy compiled, then the total (here on the twins)."""
    tool = (ROOT / "tools" / "cold_first_call.sh").read_text()
    assert "cold_first_calls" in tool
    assert not [name for name in CALLS if name in tool], "a call listed in the tool itself"
    assert set(TIMED) <= set(CALLS) and len(TIMED) == 4
    names = ["floyd_warshall_numpy(path_graph(500))", "diameter(path_graph(500))"]
    out = subprocess.run(["bash", str(ROOT / "tools" / "cold_first_call.sh"), *names],
                         capture_output=True, text=True, timeout=600,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr[-4000:]
    lines = [line for line in out.stdout.splitlines() if not line.startswith("  ")]
    assert [line.split(" s ")[0].rsplit(None, 1)[0] for line in lines[:2]] == names
    assert all("s   CuPy compiled 0: " in line for line in lines[:2])
    assert lines[2].split()[:2] == ["all", "2"] and lines[2].endswith(" s")
