#!/usr/bin/env bash
# The first calls of a fresh process with an empty CuPy kernel cache (a new machine):
# NetworkX imported and the graphs loaded first (not timed), then each call timed once,
# and the origin of every kernel module loaded (prebuilt or NVRTC), and the kernels CuPy
# itself compiled with NVRTC during each call (its elementwise, reduction and sorting
# routines: CUPY_CACHE_SAVE_CUDA_SOURCE keeps their sources in the cache). The calls are
# the table of tests/cold_first_calls.py (the one tests/test_cold_first_call.py checks):
# its TIMED four by default, or the calls named. Run on a GPU machine with the package
# installed (a wheel with kernels, or a tree with nx_gpusp/kernel_binaries).
# Usage: bash tools/cold_first_call.sh ['<call name>' ...]
set -euo pipefail
tests=$(cd "$(dirname "$0")/../tests" && pwd)
cache=$(mktemp -d); trap 'rm -rf "$cache"' EXIT
CUPY_CACHE_DIR=$cache CUPY_CACHE_SAVE_CUDA_SOURCE=1 \
PYTHONPATH="$tests${PYTHONPATH:+:$PYTHONPATH}" python3 - "$@" <<'PY'
import logging, os, pathlib, re, sys, time
logging.basicConfig(level=logging.INFO, format="%(message)s")
import networkx as nx
nx.config.warnings_to_ignore.add("cache")  # the calls share their graphs
from cold_first_calls import CALLS, TIMED, gpusp_call, load_graph

names = sys.argv[1:] or list(TIMED)
unknown = [n for n in names if n not in CALLS]
if unknown:
    sys.exit(f"cold_first_call: not in tests/cold_first_calls.py: {unknown}")
graphs = {g: load_graph(g) for g in dict.fromkeys(CALLS[n][0] for n in names)}
cache = pathlib.Path(os.environ["CUPY_CACHE_DIR"])
seen = set()


def compiled_since():
    """Names of the kernels in the CUDA sources CuPy cached since the last look."""
    new = sorted(set(cache.rglob("*.cu")) - seen)
    seen.update(new)
    found = []
    for f in new:
        found += re.findall(r"__global__\s+void\s+(\w+)", f.read_text(errors="replace"))
    return len(new), found


total = 0.0
for name in names:
    call = compile(gpusp_call(name), name, "eval")
    scope = {"nx": nx, "G": graphs[CALLS[name][0]]}
    t = time.perf_counter(); eval(call, scope); t = time.perf_counter() - t; total += t
    count, kernels = compiled_since()
    print(f"{name:48s} {t:7.3f} s   CuPy compiled {count}: {' '.join(kernels)}")
label = "all four" if len(names) == 4 else f"all {len(names)}"
print(f"{label:48s} {total:7.3f} s")
from nx_gpusp.executor import MODULE_ORIGIN
for (source, device), origin in sorted(MODULE_ORIGIN.items()):
    print(f"  {source:28s} {origin}")
PY
