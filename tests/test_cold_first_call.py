"""A process's first call on a machine whose CuPy cache is empty compiles nothing (GPU
only): every kernel it launches is ours, loaded from the prebuilt binaries, none of
CuPy's own (elementwise, reduction, indexing kernels, which CuPy compiles with NVRTC at
their first use), and the answer is NetworkX's.

Each call runs alone in a fresh Python process with CUPY_CACHE_DIR an empty folder and
CUPY_CACHE_SAVE_CUDA_SOURCE=1 (CuPy then keeps the source of every kernel it compiles
there as a ``.cu`` file)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nx_gpusp import datasets, prebuilt
from nx_gpusp.executor import cuda_available

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not cuda_available(), reason="no CUDA GPU (CuPy) here")]

ROOT = Path(__file__).resolve().parents[1]

# name: (graph, the call with backend="gpusp" and without, how to compare)
CALLS = {
    "single_source_dijkstra_path_length(NY, 0)":
        ("NY", "nx.single_source_dijkstra_path_length(G, 0{})", "dict"),
    "single_source_bellman_ford_path_length(NY, 0)":
        ("NY", "nx.single_source_bellman_ford_path_length(G, 0{})", "dict"),
    "floyd_warshall_numpy(path_graph(500))":
        ("path500", "nx.floyd_warshall_numpy(G{})", "matrix"),
    "closeness_centrality(path_graph(500))":
        ("path500", "nx.closeness_centrality(G{})", "floats"),
    "dijkstra_path(NY, 0, 1000)": ("NY", "nx.dijkstra_path(G, 0, 1000{})", "path"),
    "single_source_shortest_path_length(NY, 0)":
        ("NY", "nx.single_source_shortest_path_length(G, 0{})", "dict"),
    "dijkstra_path_length(NY, 0, 1000)":
        ("NY", "nx.dijkstra_path_length(G, 0, 1000{})", "value"),
    "single_source_dijkstra_path_length(NY, 0, cutoff=5000)":
        ("NY", "nx.single_source_dijkstra_path_length(G, 0, cutoff=5000{})", "dict"),
    "all_pairs_shortest_path_length(path_graph(300))":
        ("path300", "dict(nx.all_pairs_shortest_path_length(G{}))", "rows"),
    "floyd_warshall_predecessor_and_distance(path_graph(200))":
        ("path200", "nx.floyd_warshall_predecessor_and_distance(G{})", "fw"),
    "diameter(path_graph(500))": ("path500", "nx.diameter(G{})", "value"),
}

SCRIPT = r"""
import json, math, sys
import networkx as nx
import numpy as np

name, graph, call, compare = sys.argv[1:]
if graph == "NY":
    import nx_gpusp.datasets
    G = nx_gpusp.datasets.load("NY")
else:
    G = nx.path_graph(int(graph[len("path"):]))
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
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
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
