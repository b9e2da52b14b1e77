"""The kernel race beside ADDS (Wang et al., PPoPP'21: SSSP on asynchronous distributed
worklists), the fastest published GPU SSSP code we know, on the same GPU in one run.

ADDS is not part of this repository. Put a snapshot of its public repository
(UCLA-VAST/adds: this tool reads its ``ads_int/``) in a folder that git ignores, e.g.
``.adds/`` listed in ``.git/info/exclude``, copy it to the GPU machine with the
working tree, and run

    python3 tools/adds_race.py --adds .adds [--workload W]... [--json FILE]

1. Build: ``ads_int`` is copied to a temporary folder and adapted to CUDA 13 there:
   the toolkit's CUB instead of the bundled CUB 1.8 (whose namespace macros CUDA 13's
   Thrust headers refuse), the lane index ``threadIdx.x & 31`` for ``cub::LaneId()``
   (gone from CUB), an unused Boost include dropped, one worker block per SM (its
   occupancy query gives two on an H100) and its bound on worker blocks (MAX_TB 128,
   under an H100's 131) raised to 256; then ``nvcc -O3 -arch=sm_XY
   -rdc=true -lcudadevrt`` for this GPU.
2. Per workload (int weights): the graph is written in Galois's binary ``.gr`` format,
   which ADDS reads; ADDS runs from source 0 and from the race's 10 seeded sources
   (``bench.race_sources``). ADDS times 8 runs of its search itself (CUDA events, graph
   on the device, distances initialised before the first event) and writes their mean;
   its distances are checked against gpusp's.
3. gpusp's ``auto`` on the same graph and sources (``bench.race_runner``: host clock
   around the synchronised call, graph on the device, initialisation included), its
   lengths and its paths as a NetworkX call gets them; on the road networks
   (``bench.race_impls``) method ``phast`` likewise, its hierarchy built by a first,
   untimed call.

Table: ms, source 0 and the median over the 10 sources, for ADDS and gpusp, and
gpusp's paths. ``--no-adds`` prints gpusp's rows alone (e.g. to check the tool without
ADDS, on the NumPy twin with ``--device cpu --workload tiny``).
"""

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from nx_gpusp import bench
from nx_gpusp.executor import get_executor
from nx_gpusp.graph import float_distances

ADDS_RUNS = 8  # ADDS's own RUN_LOOP: the mean of 8 searches is what it reports
PATCHES = (  # (file, pattern, replacement): ADDS's int build for CUDA 13
    ("kernel.cu", r'#include "\.\./cub-1\.8\.0/cub/cub\.cuh"', "#include <cub/cub.cuh>"),
    ("kernel.cu", r"cub::LaneId\(\)", "(threadIdx.x & 31)"),
    ("csr_graph.cu", r"#include <boost/mpl/if\.hpp>\n", ""),
    # one worker block of 768 threads per SM but one (its launch bounds, (896, 1), plan
    # for one): built by CUDA 13 for an H100 the kernel takes 40 registers, so the
    # occupancy query ADDS sizes its grid by gives 2 an SM, 262 blocks, over its bound of
    # 128 (MAX_TB sizes its arrays; nothing else depends on it), and with the bound
    # raised the runs did not end; 131 blocks fit under 256
    ("kernel.cu", r"(cudaOccupancyMaxActiveBlocksPerMultiprocessor\(&num_tb_per_sm[^;]*;)",
     r"\1\n\tnum_tb_per_sm = 1;"),
    ("wl.h", r"#define MAX_TB 128\b", "#define MAX_TB 256"),
)


def build_adds(snapshot, arch, folder):
    """The path of ADDS's ``sssp`` binary built from ``snapshot``/ads_int in ``folder``."""
    src = Path(folder) / "ads_int"
    shutil.copytree(Path(snapshot) / "ads_int", src)
    for name, pattern, repl in PATCHES:
        path = src / name
        text, count = re.subn(pattern, repl, path.read_text())
        if not count:
            raise RuntimeError(f"ADDS snapshot: {name} has no {pattern!r} (another version?)")
        path.write_text(text)
    binary = src / "sssp"
    subprocess.run(["nvcc", "kernel.cu", "support.cu", "csr_graph.cu", "-O3",
                    f"-arch=sm_{arch}", "-rdc=true", "-lcudadevrt", "-o", str(binary)],
                   cwd=src, check=True, capture_output=True, text=True)
    return binary


def write_gr(graph, path):
    """``graph`` in Galois's binary .gr format (version 1, 4-byte edge data): the
    header (version, edge-data size, n, m as uint64), each row's end (uint64), the
    heads (uint32, padded to 8 bytes), the weights (uint32)."""
    w = graph.weights
    if w.dtype.kind not in "iu" or (len(w) and (w.min() < 0 or w.max() >= 2**31)):
        raise ValueError(f"{graph}: ADDS's int build takes weights in 0..2**31-1")
    with open(path, "wb") as f:
        np.array([1, 4, graph.n, graph.m], dtype="<u8").tofile(f)
        graph.indptr[1:].astype("<u8").tofile(f)
        heads = graph.indices.astype("<u4")
        if graph.m % 2:
            heads = np.append(heads, np.zeros(1, dtype="<u4"))
        heads.tofile(f)
        w.astype("<u4").tofile(f)


def run_adds(binary, gr, source, folder, timeout):
    """(mean ms of ADDS's 8 searches from ``source``, its distances with -1 unreached);
    subprocess.TimeoutExpired after ``timeout`` seconds (ADDS did not finish on R-MAT
    graphs in earlier runs)."""
    out, log = Path(folder) / "dist.txt", Path(folder) / "fd3.txt"
    log.write_text("")
    proc = subprocess.run(f'exec "{binary}" -s {int(source)} -o "{out}" "{gr}" 3>>"{log}"',
                          shell=True, capture_output=True, text=True, timeout=timeout)
    if proc.returncode:
        raise RuntimeError(f"ADDS failed from source {source}:\n{proc.stdout[-2000:]}"
                           f"{proc.stderr[-2000:]}")
    mean_ms = float(log.read_text().split()[1])  # "<file> <mean ms> <work>"
    words = out.read_text().split()
    dist = np.array([-1 if v == "INF" else int(v) for v in words[1::2]], dtype=np.int64)
    return mean_ms, dist


def race(workload, ex, adds, folder, repeat, timeout, log=print):
    case = next(c for c in bench.WORKLOADS[workload] if c.problem == "sssp")
    graph = case.build()
    sources = bench.race_sources(graph)
    log(f"# {case.label}: {graph.n} nodes, {graph.m} arcs; sources 0 and {sources}")
    ready = bench.warm_ready(ex)
    row = {"graph": case.label, "n": graph.n, "m": graph.m, "sources": sources}
    run = bench.race_runner("auto", graph, ex)
    row["gpusp_src0_ms"], row["gpusp_median_ms"], first = (
        x * 1e3 if i < 2 else x for i, x in enumerate(bench.race_times(run, sources, repeat,
                                                                       ready)))
    reference = float_distances(ex.to_host(first))
    paths = bench.race_runner("auto", graph, ex, paths=True)
    src0, med, _ = bench.race_times(paths, sources, repeat, ready)
    row["gpusp_paths_src0_ms"], row["gpusp_paths_median_ms"] = src0 * 1e3, med * 1e3
    if "phast" in bench.race_impls(workload):  # its hierarchy is built by the first,
        for key, want in (("phast", False), ("phast_paths", True)):  # untimed, call
            try:
                run = bench.race_runner("phast", graph, ex, paths=want)
                src0, med, got = bench.race_times(run, sources, repeat, ready)
            except ValueError as err:  # float weights, or a graph that does not contract
                row["phast_note"] = f"phast: {err}"
                break
            row[f"{key}_src0_ms"], row[f"{key}_median_ms"] = src0 * 1e3, med * 1e3
            if not want and not np.array_equal(float_distances(ex.to_host(got)), reference):
                row["phast_note"] = "phast's distances differ from auto's"
    if adds is not None:
        gr = Path(folder) / "graph.gr"
        write_gr(graph, gr)
        try:
            row["adds_src0_ms"], dist = run_adds(adds, gr, 0, folder, timeout)
            expected = np.where(np.isinf(reference), -1, reference)
            row["adds_agrees"] = bool(np.array_equal(dist, expected.astype(np.int64)))
            row["adds_median_ms"] = statistics.median(
                run_adds(adds, gr, s, folder, timeout)[0] for s in sources)
        except subprocess.TimeoutExpired:
            row["adds_note"] = f"ADDS did not finish within {timeout} s"
            log(f"# {case.label}: {row['adds_note']}")
        except RuntimeError as exc:  # gpusp's rows stay; the note says why ADDS has none
            row["adds_note"] = str(exc).splitlines()[0]
            log(f"# {case.label}: {exc}")
        gr.unlink()
    return row


def table(rows):
    head = ["graph", "ADDS src0", "ADDS 10-src", "gpusp src0", "gpusp 10-src",
            "paths src0", "paths 10-src", "ADDS/gpusp (10-src)", "ADDS agrees",
            "phast src0", "phast 10-src", "phast paths src0", "phast paths 10-src", "note"]
    body = []
    for r in rows:
        adds = r.get("adds_median_ms")
        body.append([r["graph"], _ms(r.get("adds_src0_ms")), _ms(adds),
                     _ms(r["gpusp_src0_ms"]), _ms(r["gpusp_median_ms"]),
                     _ms(r["gpusp_paths_src0_ms"]), _ms(r["gpusp_paths_median_ms"]),
                     "-" if adds is None else f"{adds / r['gpusp_median_ms']:.2f}",
                     {True: "yes", False: "NO", None: "-"}[r.get("adds_agrees")],
                     *(_ms(r.get(f"phast{k}")) for k in ("_src0_ms", "_median_ms",
                                                         "_paths_src0_ms", "_paths_median_ms")),
                     "; ".join(r[k] for k in ("adds_note", "phast_note") if k in r)])
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    return "\n".join("  ".join(str(x).ljust(w) for x, w in zip(line, widths)).rstrip()
                     for line in [head, *body])


def _ms(x):
    return "-" if x is None else f"{x:.3f}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--adds", help="folder holding a snapshot of ADDS's repository")
    ap.add_argument("--no-adds", action="store_true", help="gpusp's rows only")
    ap.add_argument("--workload", action="append", choices=sorted(bench.WORKLOADS))
    ap.add_argument("--device", default="cuda", choices=("cuda", "cpu"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--adds-timeout", type=float, default=60.0,
                    help="seconds one ADDS process (graph read and 8 searches) may take")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    if not args.no_adds and not args.adds:
        ap.error("--adds FOLDER (a snapshot of ADDS's repository) or --no-adds")
    if not args.no_adds and args.device != "cuda":
        ap.error("ADDS runs on CUDA only: --device cuda, or --no-adds")
    ex = get_executor(args.device)
    workloads = args.workload or [w for w in bench.RACE_WORKLOADS]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        adds = None
        if not args.no_adds:
            major, minor = ex.xp.cuda.Device().compute_capability
            adds = build_adds(args.adds, f"{major}{minor}", folder)
        for workload in workloads:
            try:
                rows.append(race(workload, ex, adds, folder, args.repeat, args.adds_timeout))
                print(json.dumps(rows[-1]), flush=True)  # each row as it ends
            except Exception as exc:  # a workload that fails is reported, the rest run
                print(f"# {workload}: {type(exc).__name__}: {exc}", file=sys.stderr)
    print(f"kernel race beside ADDS, ms, device={ex.name} (ADDS: the mean of its {ADDS_RUNS} "
          "timed searches per source; gpusp: the median of --repeat calls from source 0)")
    print(table(rows))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main())
