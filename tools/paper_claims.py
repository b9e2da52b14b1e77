"""Reproduce or refute the papers' comparisons on this machine's GPU (issue 4, item 4).

Each line: a claim, the variants compared, kernel time (graph on the device, median
over sources, synchronised) and, where the method reports it, work counters.
Usage: python tools/paper_claims.py [--sources N]   (writes the table to stdout)
"""

import argparse

import numpy as np

from nx_gpusp import bench, datasets
from nx_gpusp.algorithms.common import configured_executor
from nx_gpusp.methods import get_method

# (claim, graph, [(label, method, options)])
CLAIMS = [
    ("Crauser general vs Martin: up to 17% faster (Crauser paper)", "random-pred-1M",
     [("crauser", "crauser", {}), ("crauser-economic", "crauser-economic", {}),
      ("martin", "martin", {}), ("crauser-pull", "crauser-pull", {}),
      ("martin-pull", "martin-pull", {})]),
    ("Crauser general vs Martin on a road graph", "NY",
     [("crauser", "crauser", {}), ("crauser-economic", "crauser-economic", {}),
      ("martin", "martin", {})]),
    ("relax block size 96 vs 256 (APSP paper: 96 best)", "random-pred-1M",
     [("crauser bs=96", "crauser", {"block_size": 96}),
      ("crauser bs=256", "crauser", {"block_size": 256})]),
    ("LBR vs Harish: 3.4-5.8x, best k ~ 4 (LBR paper)", "NY",
     [("harish", "harish", {}), ("lbr k=1", "lbr", {"k": 1}), ("lbr k=2", "lbr", {"k": 2}),
      ("lbr k=4", "lbr", {"k": 4}), ("lbr k=8", "lbr", {"k": 8})]),
    ("flag vs vertex Bellman-Ford: 2.8x (Bodra)", "NY",
     [("bf-vertex (n-1 rounds)", "bf-vertex", {}),
      ("bf-vertex early exit", "bf-vertex", {"early_exit": True}),
      ("bf-strided early exit", "bf-strided", {"early_exit": True}),
      ("bf-flag", "bf-flag", {})]),
    ("SLF / LLL: 15-20% / ~50% fewer relaxations (CUDA SSSP paper)", "NY",
     [("bf-queue", "bf-queue", {}), ("bf-queue SLF", "bf-queue", {"slf": True}),
      ("bf-queue LLL", "bf-queue", {"lll": True}),
      ("bf-queue SLF+LLL", "bf-queue", {"slf": True, "lll": True})]),
    ("delta heuristics: median / mean / max-over-degree (CUDA SSSP paper)", "NY",
     [(f"delta-stepping {h}", "delta-stepping", {"delta": h})
      for h in ("median", "mean", "max-over-degree")]),
    ("delta heuristics on R-MAT", "rmat-18",
     [(f"delta-stepping {h}", "delta-stepping", {"delta": h})
      for h in ("median", "mean", "max-over-degree")]),
    ("CSR vs ELL min-plus SpMV (CUDA SSSP paper)", "NY",
     [("spmv-csr", "spmv-csr", {}), ("spmv-ell", "spmv-ell", {})]),
    ("CSR vs ELL min-plus SpMV", "random-pred-1M",
     [("spmv-csr", "spmv-csr", {}), ("spmv-ell", "spmv-ell", {})]),
]

GRAPHS = {
    "NY": lambda: datasets.load("NY-synthetic", as_csr=True),
    "random-pred-1M": lambda: datasets.random_predecessors(1 << 20),
    "rmat-18": lambda: datasets.rmat(18),
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sources", type=int, default=3)
    args = parser.parse_args()
    ex = configured_executor()
    cache = {}
    print(f"device={ex.name}; kernel ms = median over {args.sources} sources after a warm-up")
    for claim, gname, variants in CLAIMS:
        g = cache.get(gname) or cache.setdefault(gname, GRAPHS[gname]())
        g.on(ex)
        rng = np.random.default_rng(1)
        srcs = rng.choice(np.flatnonzero(np.diff(g.indptr) > 0), args.sources + 1,
                          replace=False).tolist()
        print(f"\n## {claim} — {gname} ({g.n} nodes, {g.m} arcs)")
        for label, name, opts in variants:
            try:
                run = bench.kernel_runner("sssp", get_method("sssp", name), g, ex, opts,
                                          whole_result=True)
                med, _, results = bench.median_time(run, srcs)  # srcs[0]: the warm-up
                print(f"  {label:28s} {med * 1e3:10.2f} ms  {results[-1].stats}", flush=True)
            except Exception as exc:  # report, go on
                print(f"  {label:28s} failed: {type(exc).__name__}: {exc}", flush=True)


if __name__ == "__main__":
    main()
