#!/usr/bin/env bash
# The first calls of a fresh process with an empty CuPy kernel cache (a new machine):
# NetworkX imported and NY loaded first (not timed), then each call timed once, and the
# origin of every kernel module loaded (prebuilt or NVRTC), and the kernels CuPy itself
# compiled with NVRTC during each call (its elementwise, reduction and sorting routines:
# CUPY_CACHE_SAVE_CUDA_SOURCE keeps their sources in the cache). Run on a GPU machine with
# the package installed (a wheel with kernels, or a tree with nx_gpusp/kernel_binaries).
# Usage: bash tools/cold_first_call.sh
set -euo pipefail
cache=$(mktemp -d); trap 'rm -rf "$cache"' EXIT
CUPY_CACHE_DIR=$cache CUPY_CACHE_SAVE_CUDA_SOURCE=1 python3 - <<'PY'
import logging, os, pathlib, re, time
logging.basicConfig(level=logging.INFO, format="%(message)s")
import networkx as nx
import nx_gpusp.datasets
NY = nx_gpusp.datasets.load("NY")
P = nx.path_graph(500)
calls = [("single_source_dijkstra_path_length(NY, 0)", lambda: nx.single_source_dijkstra_path_length(NY, 0, backend="gpusp")),
         ("single_source_bellman_ford_path_length(NY, 0)", lambda: nx.single_source_bellman_ford_path_length(NY, 0, backend="gpusp")),
         ("floyd_warshall_numpy(path_graph(500))", lambda: nx.floyd_warshall_numpy(P, backend="gpusp")),
         ("closeness_centrality(path_graph(500))", lambda: nx.closeness_centrality(P, backend="gpusp"))]
cache = pathlib.Path(os.environ["CUPY_CACHE_DIR"])
seen = set()


def compiled_since():
    """Names of the kernels in the CUDA sources CuPy cached since the last look."""
    new = sorted(set(cache.rglob("*.cu")) - seen)
    seen.update(new)
    names = []
    for f in new:
        names += re.findall(r"__global__\s+void\s+(\w+)", f.read_text(errors="replace"))
    return len(new), names


total = 0.0
for label, call in calls:
    t = time.perf_counter(); call(); t = time.perf_counter() - t; total += t
    count, names = compiled_since()
    print(f"{label:48s} {t:7.3f} s   CuPy compiled {count}: {' '.join(names)}")
print(f"{'all four':48s} {total:7.3f} s")
from nx_gpusp.executor import MODULE_ORIGIN
for (source, device), origin in sorted(MODULE_ORIGIN.items()):
    print(f"  {source:28s} {origin}")
PY
