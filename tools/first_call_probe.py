"""Developer probe: where the first gpusp call of a process goes.

Each row runs in a fresh interpreter that imports NetworkX and loads the workload's
NetworkX graph from a pickle written by this script (not timed), as a user's program
would have them before its first call; nx_gpusp is not imported before what is timed:

- ``phases``: CuPy's import, the device count, the CUDA context, the backend's import,
  conversion from ``G._adj``, upload, loading the default kernels, and then the call on
  the converted graph with all of those done, each timed on its own, in that order;
- ``call``: the plain first ``single_source_dijkstra_path_length(G, s, backend="gpusp")``
  (what ``python -m nx_gpusp.bench --group calls`` reports as first-call);
- ``with warm-up`` (``--warm-up``): the call with ``start_cuda_warm_up`` begun at
  its start, so that CuPy's import and the kernels' loading run in a thread beside the
  conversion;
- ``profile``: the same call under cProfile (its 25 costliest functions by cumulative
  time, to ``--profile-out``).

The kernels must be in CuPy's cache already (``python -m nx_gpusp compile``).

Usage: python tools/first_call_probe.py [--workload NY-synthetic] [--repeat 3]
       [--profile-out FILE] [--warm-up]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

SETUP = r"""
import time, sys, pickle
import networkx as nx
nx.config.warnings_to_ignore.add("cache")
with open({path!r}, "rb") as f:
    G, label, attr = pickle.load(f)
"""  # a user's program: NetworkX imported, the graph loaded (not timed), no nx_gpusp yet

PHASES = SETUP + r"""
marks = [("start", time.perf_counter())]
def mark(name): marks.append((name, time.perf_counter()))
import cupy; mark("import_cupy")
cupy.cuda.runtime.getDeviceCount(); mark("device_count")
cupy.empty(1); mark("context")
import nx_gpusp.interface; mark("backend_import")
from nx_gpusp.convert import from_networkx
g = from_networkx(G, attr); mark("conversion")
from nx_gpusp.executor import get_executor
ex = get_executor("cuda"); g.on(ex); ex.synchronize(); mark("upload")
for family in ("near_far", "tree", "distance_order"):
    ex.ops(family)
mark("kernels")
nx.single_source_dijkstra_path_length(g, label, weight=attr); mark("call_rest")
print("PHASES", ";".join(f"{{n}}={{(t - p) * 1e3:.1f}}" for (n, t), (_, p) in
                         zip(marks[1:], marks[:-1])))
"""

CALL = SETUP + r"""
t0 = time.perf_counter()
{before}
{call}
print("CALL", (time.perf_counter() - t0) * 1e3)
"""
FIRST_CALL = 'nx.single_source_dijkstra_path_length(G, label, weight=attr, backend="gpusp")'


def graph_file(workload, folder=None):
    """A pickle of (NetworkX graph, source label, weight attribute) of ``workload``
    (source: vertex 0), in ``folder`` (default: a new temporary folder)."""
    from nx_gpusp import bench

    case = next(c for c in bench.WORKLOADS[workload] if c.problem == "sssp")
    path = os.path.join(folder or tempfile.mkdtemp(), f"{workload}.pickle")
    bench.write_first_call_graph(case.build(), 0, path)
    return path


def child(code):
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=600)
    if out.returncode:
        raise RuntimeError(out.stderr[-3000:])
    return out.stdout


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workload", default="NY-synthetic")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile-out", default=None)
    ap.add_argument("--warm-up", action="store_true",
                    help="also the call with nx_gpusp's CUDA warm-up thread started at "
                         "its start (CuPy's import, the context, the default kernels)")
    args = ap.parse_args(argv)
    path = graph_file(args.workload)
    rows = {}
    for _ in range(args.repeat):
        line = next(l for l in child(PHASES.format(path=path)).splitlines()
                    if l.startswith("PHASES"))
        for item in line.split()[1].split(";"):
            name, _, ms = item.partition("=")
            rows.setdefault(name, []).append(float(ms))
    print(f"first call on {args.workload}, phases in a fresh process (median of "
          f"{args.repeat}, ms):")
    for name, values in rows.items():
        print(f"  {name:14s} {statistics.median(values):8.1f}   {values}")
    variants = [("whole call", "")]
    if args.warm_up:
        variants.append(("with warm-up", "from nx_gpusp.executor import start_cuda_warm_up; "
                                     "start_cuda_warm_up('cuda')"))
    for title, before in variants:
        times = [float(child(CALL.format(path=path, before=before,
                                         call=FIRST_CALL)).split("CALL")[-1])
                 for _ in range(args.repeat)]
        print(f"  {title:14s} {statistics.median(times):8.1f}   {times}")
    if args.profile_out:
        prof = ("import cProfile, pstats, io\npr = cProfile.Profile()\npr.enable()\n"
                + FIRST_CALL + "\npr.disable()\ns = io.StringIO()\n"
                "pstats.Stats(pr, stream=s).sort_stats('cumulative').print_stats(150)\n"
                f"open({args.profile_out!r}, 'w').write(s.getvalue())")
        child(CALL.format(path=path, before="", call=prof))
        print(f"  profile: {args.profile_out}")


if __name__ == "__main__":
    main()
