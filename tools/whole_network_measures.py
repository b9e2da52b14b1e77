"""Whole-network measures through NetworkX's public API (backend="gpusp"), timed end
to end in one process: weighted closeness and harmonic centrality of the largest
component of usroads (SuiteSparse, seeded weights 1..10), closeness checked against
NetworkX on three sampled nodes; with --fla, weighted closeness of FLA (1.07M nodes);
with --betweenness, betweenness_centrality of R-MAT scale 20 (k=1000, hop counts) and
exact weighted betweenness of the usroads component (its sum and largest values
printed); --betweenness-only times that last call alone (the hierarchy built and the
betweenness kernels loaded by untimed calls first), and --check K compares weighted
betweenness from K sampled sources (seed 0) with NetworkX's. Each call is stopped after
--limit seconds (then printed as such). The first closeness call includes building the contraction
hierarchy (method "auto" picks phast-batched for all sources).

Usage: python tools/whole_network_measures.py [--fla] [--betweenness]
       [--betweenness-only] [--check K] [--limit 120]
"""

import argparse
import signal
import time

import networkx as nx
import numpy as np

import nx_gpusp.datasets as ds


class _Late(Exception):
    pass


def _alarm(*_):
    raise _Late()


def timed(label, call, limit):
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(limit)
    try:
        t = time.perf_counter()
        out = call()
        print(f"  {label}: {time.perf_counter() - t:.2f} s", flush=True)
        return out
    except _Late:
        print(f"  {label}: over {limit} s (stopped)", flush=True)
        return None
    finally:
        signal.alarm(0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fla", action="store_true")
    parser.add_argument("--betweenness", action="store_true")
    parser.add_argument("--betweenness-only", action="store_true")
    parser.add_argument("--check", type=int, default=0, metavar="K")
    parser.add_argument("--limit", type=int, default=120)
    args = parser.parse_args()
    nx.config.warnings_to_ignore.add("cache")
    U = ds.load("usroads", weights=(1, 10), seed=0)
    U = U.subgraph(max(nx.connected_components(U), key=len)).copy()
    print(f"usroads, largest component: {U.number_of_nodes()} nodes, "
          f"{U.number_of_edges()} edges", flush=True)
    gp = {"backend": "gpusp"}
    if args.betweenness_only:  # untimed first: the hierarchy, and the kernels loaded
        nx.closeness_centrality(U, distance="weight", **gp)
        nx.betweenness_centrality(U.subgraph(list(U)[:2000]), weight="weight", **gp)
        weighted_betweenness(U, args)
        return
    timed("closeness_centrality(distance='weight'), hierarchy built first",
          lambda: nx.closeness_centrality(U, distance="weight", **gp), args.limit)
    got = timed("closeness_centrality(distance='weight') again",
                lambda: nx.closeness_centrality(U, distance="weight", **gp), args.limit)
    timed("harmonic_centrality(distance='weight')",
          lambda: nx.harmonic_centrality(U, distance="weight", **gp), args.limit)
    nodes = list(U)
    for i in np.random.default_rng(1).choice(len(nodes), 3, replace=False):
        v = nodes[i]
        want = nx.closeness_centrality(U, v, distance="weight")
        print(f"  node {v}: NetworkX {want!r}, gpusp {None if got is None else got[v]!r}")
    if args.fla:
        F = ds.load("FLA")
        print(f"FLA: {F.number_of_nodes()} nodes", flush=True)
        got = timed("closeness_centrality(distance='weight'), hierarchy built first",
                    lambda: nx.closeness_centrality(F, distance="weight", **gp), args.limit)
        v = next(iter(F))
        print(f"  node {v}: NetworkX {nx.closeness_centrality(F, v, distance='weight')!r}, "
              f"gpusp {None if got is None else got[v]!r}")
    if args.betweenness:
        R = ds.rmat(20)
        print(f"R-MAT scale 20: {R.n} vertices, {R.m} arcs", flush=True)
        for label in ("betweenness_centrality(k=1000, seed=0)", "the same again"):
            timed(label, lambda: nx.betweenness_centrality(R, k=1000, seed=0, **gp),
                  args.limit)
        weighted_betweenness(U, args)


def weighted_betweenness(U, args):
    """Exact weighted betweenness of ``U`` on gpusp, timed, with a summary of the
    answer; with ``args.check``, k-sampled betweenness against NetworkX's."""
    got = timed("usroads component: betweenness_centrality(weight='weight')",
                lambda: nx.betweenness_centrality(U, weight="weight", backend="gpusp"),
                args.limit)
    if got is not None:
        top = sorted(got, key=got.get, reverse=True)[:3]
        print(f"  sum {sum(got.values())!r}; largest: "
              + ", ".join(f"{v}: {got[v]!r}" for v in top), flush=True)
    if args.check:
        k = args.check
        ours = nx.betweenness_centrality(U, k=k, seed=0, weight="weight", backend="gpusp")
        theirs = nx.betweenness_centrality(U, k=k, seed=0, weight="weight")
        worst = max(abs(ours[v] - theirs[v]) / max(abs(theirs[v]), 1e-300)
                    for v in U if theirs[v])
        same = all(abs(ours[v] - theirs[v]) <= 1e-9 * abs(theirs[v]) + 1e-12 for v in U)
        print(f"  k={k} sampled sources against NetworkX: "
              f"{'equal' if same else 'DIFFERENT'} (largest relative difference {worst:.2e})",
              flush=True)


if __name__ == "__main__":
    main()
